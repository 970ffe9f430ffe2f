"""``flowcert.run(verifier, case) -> Certificate``: runs a verifier executable on a case (a dict or a
TOML file) and wraps the certificate it wrote (docs/certificate-format.md). The verdict is the
verifier's; bad input, an environment failure or an internal error raise (codes 3, 4, 5)."""
import json
import os
import subprocess
import tempfile

from . import _paths
from .case_file import write_case
from .errors import BadInput, InternalError, from_exit_code

VERDICTS = ("CERTIFIED", "REFUTED", "OUTSIDE_HYPOTHESES", "INCONCLUSIVE", "ERROR")
ROLES = ("hypothesis", "step", "conclusion", "evidence")
VERDICT_EXIT_CODES = (0, 1, 2, 6)  # certified, refuted, inconclusive, outside the hypotheses


def _dir(env, default):
    return os.environ.get(env, default)


def verifier_path(verifier):
    """The executable of "paper/theorem" (FLOWCERT_VERIFIERS overrides the directory)."""
    if not isinstance(verifier, str) or verifier.count("/") != 1 or ".." in verifier:
        raise BadInput(f"verifier must be 'paper/theorem', e.g. 'demo/sqrt_bounds', got {verifier!r}")
    exe = os.path.join(_dir("FLOWCERT_VERIFIERS", _paths.VERIFIERS_DIR), verifier)
    if not os.access(exe, os.X_OK):
        raise BadInput(f"no verifier '{verifier}' (looked for {exe})")
    return exe


def tool_path():
    return os.path.join(_dir("FLOWCERT_TOOLS", _paths.TOOLS_DIR), "flowcert")


class CheckResult:
    """The independent re-check of ``flowcert check``: ``accepted`` and the command's output."""

    def __init__(self, code, output):
        self.code, self.output, self.accepted = code, output, code == 0

    def __bool__(self):
        return self.accepted

    def __repr__(self):
        return f"CheckResult(accepted={self.accepted}, code={self.code})"


class Certificate:
    """A certificate: ``verdict`` (CERTIFIED, REFUTED, OUTSIDE_HYPOTHESES, INCONCLUSIVE, ERROR),
    ``verdict_reason``, ``checks`` (list of dicts with ``role`` hypothesis / step / conclusion / evidence,
    ``status``, ``margin``, ``implied_by``, ``trivially_true``, ``reconstructed``, ``case_claim``, enclosures; ``checks_frame()`` gives a pandas
    DataFrame when pandas is installed), ``hypotheses`` / ``steps`` / ``conclusions`` / ``evidence`` (the
    checks of one role), ``case_source`` (the embedded case text), ``claim``, ``tables``, ``plots``,
    ``notes``, ``provenance``; the whole JSON in ``data``."""

    def __init__(self, data, path=None):
        if data.get("format") != "flowcert-certificate":
            raise BadInput(f"{path or 'data'}: not a flowcert certificate")
        self.data = data
        self.path = path

    @classmethod
    def load(cls, path):
        with open(path, encoding="utf-8") as f:
            return cls(json.load(f), os.path.abspath(path))

    verdict = property(lambda self: self.data["verdict"])
    verdict_reason = property(lambda self: self.data.get("verdict_reason", ""))
    checks = property(lambda self: self.data.get("checks", []))
    claim = property(lambda self: self.data.get("claim", {}))
    tables = property(lambda self: self.data.get("tables", []))
    plots = property(lambda self: self.data.get("plots", []))
    notes = property(lambda self: self.data.get("notes", []))
    provenance = property(lambda self: self.data.get("provenance", {}))
    verifier = property(lambda self: self.data.get("verifier"))

    case_source = property(lambda self: self.data.get("case", {}).get("source", ""))

    def checks_with_role(self, role):
        if role not in ROLES:
            raise BadInput(f"role must be one of {ROLES}, got {role!r}")
        return [c for c in self.checks if c.get("role") == role]

    hypotheses = property(lambda self: self.checks_with_role("hypothesis"))
    steps = property(lambda self: self.checks_with_role("step"))
    conclusions = property(lambda self: self.checks_with_role("conclusion"))
    evidence = property(lambda self: self.checks_with_role("evidence"))

    @property
    def certified(self):
        return self.verdict == "CERTIFIED"

    @property
    def outside_hypotheses(self):
        return self.verdict == "OUTSIDE_HYPOTHESES"

    def checks_frame(self):
        """The checks as a pandas DataFrame (needs pandas: apt-get install python3-pandas)."""
        import pandas as pd

        rows = []
        for c in self.checks:
            row = {k: v for k, v in c.items() if k != "enclosures"}
            for i, e in enumerate(c.get("enclosures", [])):
                row[f"enclosure{i}"] = f"{e.get('name', '')} in [{e.get('lo')}, {e.get('hi')}]"
            rows.append(row)
        return pd.DataFrame(rows)

    def to_html(self):
        """The verifier's self-contained HTML report (written next to the JSON)."""
        if not self.path:
            raise BadInput("this certificate has no file; the HTML report is written by the verifier run")
        html = os.path.splitext(self.path)[0] + ".html"
        with open(html, encoding="utf-8") as f:
            return f.read()

    def _repr_html_(self):  # Jupyter
        return (f"<p><b>{self.verdict}</b> {self.verifier}: {self.verdict_reason}</p>")

    def check(self):
        """Re-validates the certificate with ``flowcert check`` (exact re-evaluation of the stored checks)."""
        if not self.path:
            fd, path = tempfile.mkstemp(suffix=".json")
            with os.fdopen(fd, "w") as f:
                json.dump(self.data, f)
        p = subprocess.run([tool_path(), "check", self.path or path], capture_output=True, text=True)
        return CheckResult(p.returncode, p.stdout + p.stderr)

    def plot(self, out_dir=None, formats=("png",)):
        """Draws the certificate's plots with matplotlib: a list of Figures, also saved to out_dir if given."""
        from .plot import plot_certificate

        return plot_certificate(self.data, out_dir=out_dir, formats=formats)

    def __repr__(self):
        return f"Certificate({self.verdict}, {self.verifier}, {len(self.checks)} checks)"


def run(verifier, case, out_dir=None, precision=None, timeout=None, export_instance=None):
    """Runs ``verifier`` ("paper/theorem") on ``case`` (a dict, see flowcert.case_file, or a TOML path)
    and returns the Certificate. The files (JSON, HTML, Markdown) go to out_dir (a temporary directory if
    None). ``export_instance`` = a directory: the verifier also writes the data / initialization it
    generated from a seed there (.npy + exact JSON)."""
    exe = verifier_path(verifier)
    out_dir = out_dir or tempfile.mkdtemp(prefix="flowcert-")
    if isinstance(case, (str, os.PathLike)):
        case_path = os.fspath(case)
    else:
        case_path = write_case(case, verifier, os.path.join(out_dir, "case"), name="case")
    cmd = [exe, "--case", case_path, "--out", out_dir, "--quiet"]
    if precision is not None:
        cmd += ["--precision", str(int(precision))]
    if export_instance is not None:
        cmd += ["--export-instance", os.fspath(export_instance)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise InternalError(f"{verifier}: no result within {timeout} s") from None
    stem = os.path.splitext(os.path.basename(case_path))[0]
    cert_file = os.path.join(out_dir, stem + ".json")
    if p.returncode in VERDICT_EXIT_CODES:
        return Certificate.load(cert_file)
    err = from_exit_code(p.returncode, (p.stderr or p.stdout).strip())
    if os.path.exists(cert_file) and p.returncode == 5:
        err.certificate = Certificate.load(cert_file)
    raise err
