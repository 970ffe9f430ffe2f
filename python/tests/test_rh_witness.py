"""The rh/gap_m2 reconstruction witness (cases/rh/gap_m2_reconstruction_witness.toml): the certificate says
INCONCLUSIVE because the false conclusion rests on reconstructed hypotheses, and an independent non-rigorous
GD run in long double on the exported instance shows the same dead sample (docs/rh.md#roles)."""
import json
import os

import numpy as np

import flowcert
from flowcert import _paths

CASE = os.path.join(_paths.CASES_DIR, "rh", "gap_m2_reconstruction_witness.toml")


def _gd(X, steps):
    """Plain GD of f = relu(<w+,x>) - relu(<w-,x>) from the span initialization of the case."""
    n, d = X.shape
    y = np.array([1 if i % 2 == 0 else -1 for i in range(n)], dtype=np.longdouble)
    eta = np.longdouble(1) / 2 / d
    wp = X.T @ np.full(n, np.longdouble(1) / 10 / d)
    wm = wp.copy()
    for _ in range(steps):
        bp, bm = X @ wp, X @ wm
        r = np.maximum(bp, 0) - np.maximum(bm, 0) - y
        wp, wm = wp - eta * X.T @ ((bp > 0) * r), wm + eta * X.T @ ((bm > 0) * r)
    bp, bm = X @ wp, X @ wm
    return bp, bm, 0.5 * np.sum((np.maximum(bp, 0) - np.maximum(bm, 0) - y) ** 2)


def test_a_witness_under_reconstructed_hypotheses_refutes_the_reconstruction(tmp_path):
    cert = flowcert.run("rh/gap_m2", CASE, out_dir=tmp_path, export_instance=tmp_path / "inst")
    assert cert.verdict == "INCONCLUSIVE"
    assert "refutes the reconstruction, not the theorem" in cert.verdict_reason
    assert all(c["status"] == "proven" and c["reconstructed"] for c in cert.hypotheses)
    (gmin,) = [c for c in cert.conclusions if c["name"] == "w(inf) is a global minimizer"]
    assert gmin["status"] == "disproven" and "sample 9" in gmin["reason"]
    assert cert.check().accepted
    # The same instance, simulated without rigour: sample 9 dead in both neurons, the loss stuck at y_9^2 / 2.
    inst = json.load(open(tmp_path / "inst" / "gap_m2_reconstruction_witness.instance.json"))
    X = np.array([float.fromhex(v) for v in inst["arrays"][0]["values"]], dtype=np.longdouble).reshape(16, 100)
    bp, bm, loss = _gd(X, 5000)
    assert bp[9] < 0 and bm[9] < 0
    assert abs(loss - 0.5) < 1e-6


def test_the_shipped_regime_puts_the_witness_outside_the_hypotheses(tmp_path):
    case = open(CASE).read().replace('eps_max = "1/2"', 'eps_max = "1/4"').replace(
        'expect = "inconclusive"', 'expect = "outside_hypotheses"')
    path = tmp_path / "gap_m2_reconstruction_witness.toml"
    path.write_text(case)
    cert = flowcert.run("rh/gap_m2", str(path), out_dir=tmp_path)
    assert cert.verdict == "OUTSIDE_HYPOTHESES"
    assert "a reconstruction" in cert.verdict_reason
