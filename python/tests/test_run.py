"""flowcert.run -> Certificate (verdict, checks, HTML, the independent re-check, plots), python -m flowcert.plot,
case dicts with numpy arrays (.npy keys) and --export-instance."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import flowcert
import flowcert.certificate
from flowcert import _paths

SQRT2 = {"c": "2", "sqrt_lower": "1.4142135623", "sqrt_upper": "1.4142135624",
         "exp_lower": "7.389056098", "exp_upper": "7.389056099"}


def test_run_a_dict_case_and_read_the_certificate(tmp_path):
    cert = flowcert.run("demo/sqrt_bounds", SQRT2, out_dir=tmp_path)
    assert cert.verdict == "CERTIFIED" and cert.certified
    assert cert.provenance["flowcert_version"] == flowcert.__version__
    assert {c["status"] for c in cert.checks} == {"proven"} and len(cert.checks) >= 2
    assert "CERTIFIED" in cert.to_html()
    assert cert.check().accepted
    # the typed claims of issue 14: roles, margins, the embedded case
    assert {c["role"] for c in cert.checks} <= set(flowcert.certificate.ROLES)
    assert len(cert.conclusions) >= 2 and all(c["margin"] > 0 for c in cert.conclusions)
    assert cert.case_source == open(tmp_path / "case" / "case.toml").read()


def test_an_instance_outside_the_hypotheses_is_a_verdict_not_an_exception(tmp_path):
    cert = flowcert.run("kh/theorem4_limit_path",
                        os.path.join(_paths.CASES_DIR, "kh", "theorem4_example1_saddle_direction.toml"), out_dir=tmp_path)
    assert cert.verdict == "OUTSIDE_HYPOTHESES" and cert.outside_hypotheses
    assert any(c["status"] == "disproven" for c in cert.hypotheses)
    assert not any(c["status"] == "disproven" for c in cert.conclusions)


def test_a_false_bound_is_refuted_not_raised(tmp_path):
    cert = flowcert.run("demo/sqrt_bounds", dict(SQRT2, sqrt_upper="1.4142"), out_dir=tmp_path)
    assert cert.verdict == "REFUTED"
    assert any(c["status"] == "disproven" for c in cert.checks)


def test_a_case_file_path_runs_too(tmp_path):
    cert = flowcert.run("demo/sqrt_bounds", os.path.join(_paths.CASES_DIR, "demo", "sqrt2_certified.toml"),
                        out_dir=tmp_path)
    assert cert.verdict == "CERTIFIED"


def test_a_tampered_certificate_is_rejected_by_check(tmp_path):
    cert = flowcert.run("demo/sqrt_bounds", SQRT2, out_dir=tmp_path)
    data = json.loads(open(cert.path).read())
    data["checks"][0]["enclosures"][0]["hi"] = "1e9"   # a claim the stored data no longer supports
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(data))
    res = flowcert.Certificate.load(bad).check()
    assert not res.accepted and res.code == 1


def test_bad_input_raises_with_the_verifiers_message_and_code(tmp_path):
    case = dict(SQRT2)
    del case["sqrt_upper"]
    with pytest.raises(flowcert.BadInput) as err:
        flowcert.run("demo/sqrt_bounds", case, out_dir=tmp_path)
    assert err.value.code == 3 and "key 'sqrt_upper': missing required key" in str(err.value)
    with pytest.raises(flowcert.BadInput) as err:
        flowcert.run("demo/sqrt_bounds", dict(SQRT2, c=float("nan")), out_dir=tmp_path)
    with pytest.raises(flowcert.BadInput, match="no verifier"):
        flowcert.run("demo/no_such_verifier", SQRT2)


def test_numpy_arrays_in_a_case_dict_become_npy_keys_and_instances_are_exported(tmp_path):
    # Lemma 1 on the Figure-2 inputs given as a float64 array (exact binary values) through a .npy key
    case = {"x": np.array([[-0.75], [-0.5], [0.125]]), "y": ["1.1", "0.1", "0.8"], "bias": True, "m": 8,
            "seed": 1, "lambda": "1e-3", "T": "1", "tol": "2e-3"}
    inst = tmp_path / "instance"
    cert = flowcert.run("bf/lemma1_balancedness", case, out_dir=tmp_path, export_instance=inst)
    assert cert.verdict == "CERTIFIED", cert.verdict_reason
    assert (tmp_path / "case" / "x.npy").exists()
    manifest = json.loads((inst / "case.instance.json").read_text())
    arrays = {a["name"]: a for a in manifest["arrays"]}
    assert {"w_tilde", "a_sign", "a0", "W0", "X", "y"} <= set(arrays)
    w = np.load(inst / "case.w_tilde.npy")
    assert w.shape == (8, 2)
    assert [float.fromhex(v) for v in arrays["w_tilde"]["values"]] == w.ravel().tolist()  # the .npy is exact
    assert np.array_equal(np.load(inst / "case.X.npy")[:, 1], np.ones(3))  # the bias coordinate
    assert {v["name"]: v["exact"] for v in manifest["values"]}["lambda"] == "1e-3"
    # the certificate embeds the case with the array inline (exact), so flowcert check can re-run it alone
    assert "0x1.8p-1" in cert.case_source and "x.npy" in cert.case_source
    assert cert.check().accepted


def test_plot_module_writes_png_and_svg(tmp_path):
    cert = flowcert.run("demo/sqrt_bounds", SQRT2, out_dir=tmp_path)
    assert cert.plots
    p = subprocess.run([sys.executable, "-m", "flowcert.plot", cert.path, "--out", str(tmp_path / "png"),
                        "--format", "png", "--format", "svg"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    files = p.stdout.split()
    assert len(files) == 2 * len(cert.plots) and all(os.path.getsize(f) > 1000 for f in files)
    assert open([f for f in files if f.endswith(".png")][0], "rb").read(4) == b"\x89PNG"
    p = subprocess.run([sys.executable, "-m", "flowcert.plot", str(tmp_path / "case" / "case.toml")],
                       capture_output=True, text=True)
    assert p.returncode == 3


def test_checks_frame_with_pandas(tmp_path):
    pd = pytest.importorskip("pandas")  # optional: pandas is not a dependency
    cert = flowcert.run("demo/sqrt_bounds", SQRT2, out_dir=tmp_path)
    df = cert.checks_frame()
    assert list(df["status"]) == [c["status"] for c in cert.checks]


def test_every_binary_reports_the_version(flowcert_cli):
    rc, out, _ = flowcert_cli("--version")
    assert rc == 0 and out.startswith(f"flowcert {flowcert.__version__} ")
    p = subprocess.run([flowcert.certificate.verifier_path("demo/sqrt_bounds"), "--version"], capture_output=True,
                       text=True)
    assert p.returncode == 0 and f"(flowcert {flowcert.__version__}, " in p.stdout
