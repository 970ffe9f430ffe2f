"""Exact numbers across the boundary: every input number becomes exact text, never a rounded value.

A float64 (Python float, numpy float64 or float32, a torch tensor's .tolist()) is the exact binary
number it is and is written with float.hex() ("0x1.999999999999ap-4" is the double nearest 0.1, not
0.1); an int, a Fraction and a Decimal are written exactly; a str is passed through as written (a
decimal such as "0.1" is then the exact tenth, "8/3" a rational, "0x1.8p-3" a hex float).
"""
import decimal
import fractions
import math
import numbers

import numpy as np

from .errors import BadInput


def exact_text(x, what="number"):
    """The exact text of one number (see the module docstring)."""
    if isinstance(x, (bool, np.bool_)):
        raise BadInput(f"{what}: expected a number, got a bool")
    if isinstance(x, str):
        return x.strip()
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    if isinstance(x, fractions.Fraction):
        return f"{x.numerator}/{x.denominator}"
    if isinstance(x, decimal.Decimal):
        if not x.is_finite():
            raise BadInput(f"{what}: {x} is not a finite number")
        return str(x)
    if isinstance(x, (float, np.floating)):
        v = float(x)  # float32 -> float64 is exact
        if not math.isfinite(v):
            raise BadInput(f"{what}: {v} is not a finite number")
        return v.hex()
    if isinstance(x, numbers.Rational):
        return f"{x.numerator}/{x.denominator}"
    raise BadInput(f"{what}: expected a float, int, Fraction, Decimal or str, got {type(x).__name__}")


def exact_array(x, ndim, what):
    """Nested lists of exact texts of an array-like with `ndim` dimensions (1: vector, 2: matrix)."""
    if hasattr(x, "detach"):  # a torch tensor: its float64 values, exactly
        x = x.detach().cpu().numpy()
    if isinstance(x, np.ndarray) and x.dtype.kind in "fiu":
        if x.ndim != ndim:
            raise BadInput(f"{what}: expected {ndim} dimension(s), got shape {x.shape}")
        if x.dtype.kind == "f":
            if x.dtype.itemsize > 8:
                raise BadInput(f"{what}: {x.dtype} is wider than float64; pass Fractions or strings")
            flat = x.astype(np.float64).ravel().tolist()
            if not all(math.isfinite(v) for v in flat):
                raise BadInput(f"{what}: contains a non-finite value")
            texts = [v.hex() for v in flat]
        else:
            texts = [str(int(v)) for v in x.ravel().tolist()]
        return np.array(texts, dtype=object).reshape(x.shape).tolist()
    if ndim == 1:
        try:
            return [exact_text(v, f"{what}[{i}]") for i, v in enumerate(x)]
        except TypeError:
            raise BadInput(f"{what}: expected a vector") from None
    try:
        return [exact_array(row, 1, f"{what}[{i}]") for i, row in enumerate(x)]
    except TypeError:
        raise BadInput(f"{what}: expected a matrix") from None


def hex_to_fraction(text):
    """The exact Fraction of a C99 hex float ("0x1.8p-3", MPFR's "%Ra" output too); inf stays a float."""
    t = text.strip().lower()
    if t in ("inf", "+inf", "-inf"):
        return float(t)
    sign = -1 if t.startswith("-") else 1
    t = t.lstrip("+-")
    if not t.startswith("0x"):
        raise ValueError(f"not a hexadecimal float: {text!r}")
    t = t[2:]
    mant, _, exp = t.partition("p")
    whole, _, frac = mant.partition(".")
    digits = (whole + frac) or "0"
    e = int(exp or "0") - 4 * len(frac)
    value = fractions.Fraction(int(digits, 16))
    value *= fractions.Fraction(2) ** e
    return sign * value
