"""A case given as a Python dict, written as a TOML case file for a verifier.

Values: int -> TOML integer (for integer keys such as m, seed; also exact for number keys); float ->
its exact hex string ("0x1.999999999999ap-4"); Fraction -> "p/q"; str, bool as they are; a list -> an
array (a list of dicts -> an array of tables); a dict -> a table; a numpy array (or torch tensor) ->
a .npy file next to the case, named by its key (case keys of type numbers / matrix read .npy files).
"""
import fractions
import math
import os

import numpy as np

from ._numbers import exact_text
from .errors import BadInput


def _toml_string(s):
    out = ['"']
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out) + '"'


def _key(k):
    k = str(k)
    if k and all(c.isalnum() or c in "_-" for c in k):
        return k
    return _toml_string(k)


def _value(v, where, arrays, key):
    if hasattr(v, "detach"):
        v = v.detach().cpu().numpy()
    if isinstance(v, np.ndarray):
        arrays[key] = v
        return _toml_string(f"{key}.npy")
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, str):
        return _toml_string(v)
    if isinstance(v, (float, np.floating, fractions.Fraction)):
        return _toml_string(exact_text(v, where))
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(x, f'{where}.{k}', arrays, f'{key}_{k}')}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x, f"{where}[{i}]", arrays, f"{key}_{i}") for i, x in enumerate(v)) + "]"
    raise BadInput(f"case key '{where}': cannot write a {type(v).__name__} into a case file")


def write_case(case, verifier, directory, name="case"):
    """Writes DIRECTORY/NAME.toml (and the .npy files of array values); returns its path."""
    if not isinstance(case, dict):
        raise BadInput("a case is a dict (or the path of a TOML case file)")
    case = dict(case)
    if case.setdefault("verifier", verifier) != verifier:
        raise BadInput(f"case key 'verifier' is '{case['verifier']}', but flowcert.run was asked for '{verifier}'")
    case.setdefault("expect", "certified")  # what the case claims; the verdict is computed regardless
    arrays = {}
    lines = [f"{_key(k)} = {_value(v, str(k), arrays, str(k))}" for k, v in case.items()]
    os.makedirs(directory, exist_ok=True)
    for key, a in arrays.items():
        if a.dtype.kind == "f" and not np.all(np.isfinite(a)):
            raise BadInput(f"case key '{key}': contains a non-finite value")
        np.save(os.path.join(directory, f"{key}.npy"), a if a.dtype.kind != "f" else a.astype(np.float64))
    path = os.path.join(directory, f"{name}.toml")
    with open(path, "w", encoding="utf-8") as f:
        f.write("# written by flowcert.run\n" + "\n".join(lines) + "\n")
    return path
