"""flowcert.integrate: containment of exact solutions, the tube, exact endpoints, the CLI's errors."""
from fractions import Fraction
import os

import numpy as np
import pytest

import flowcert
from flowcert._numbers import hex_to_fraction
from conftest import exp_minus_one_bracket, inside


def test_module_reports_the_project_version():
    assert flowcert.__version__ == os.environ.get("FLOWCERT_EXPECTED_VERSION", flowcert.__version__)
    assert flowcert.self_test()[0]


@pytest.mark.parametrize("precision", [53, 128])
def test_decay_encloses_exp_minus_one_exactly(precision):
    e = flowcert.integrate("var:x; fun:-x;", init=[1], T=1, precision=precision)
    assert e.ok, e.reason
    L, U = exp_minus_one_bracket()
    lo, hi = e.final.fractions()[0]
    assert lo <= L and U <= hi  # so lo <= e^-1 <= hi
    assert hi - lo < (Fraction(1, 10**15) if precision == 53 else Fraction(1, 10**30))
    assert inside(L, e.final.lo[0], e.final.hi[0])  # the outward float64 bounds enclose too


def test_high_precision_endpoints_have_more_than_53_bits():
    e = flowcert.integrate("var:x; fun:-x;", init=[1], T=1, precision=200)
    lo_hex, hi_hex = e.final.exact[0]
    assert len(lo_hex) > 30 and hex_to_fraction(lo_hex) < hex_to_fraction(hi_hex)


def test_tube_covers_the_time_interval_and_each_step_contains_the_solution():
    e = flowcert.integrate("var:x,y; fun:-y,x;", init=[1, 0], T=3, output_times=[1, 2])
    assert e.ok
    assert e.t_lo[0] == 0 and e.t_hi[-1] >= 3
    assert np.all(e.t_lo[1:] <= e.t_hi[:-1])  # no gap between steps
    assert e.x_lo.shape == (e.steps, 2) and np.all(e.x_lo <= e.x_hi)
    for s in range(e.steps):  # cos at the step's endpoints (non-rigorous floats, a margin far above their error)
        for t in (e.t_lo[s], e.t_hi[s]):
            assert e.x_lo[s, 0] - 1e-12 <= np.cos(t) <= e.x_hi[s, 0] + 1e-12
    assert [t for t, _ in e.outputs] == ["1", "2"]
    for _, box in e.outputs:  # x^2 + y^2 = 1 is conserved: 1 lies in the exact range of x^2 + y^2 on the box
        (xl, xh), (yl, yh) = box.fractions()
        sq = lambda l, h: (Fraction(0) if l <= 0 <= h else min(l * l, h * h), max(l * l, h * h))
        (a, b), (c, d) = sq(xl, xh), sq(yl, yh)
        assert a + c <= 1 <= b + d


def test_numbers_are_exact_float64_or_exact_text():
    # 0.1 (a float) is the double 0x1.999999999999ap-4; "0.1" is one tenth: different initial values
    a = flowcert.integrate("var:x; fun:0*x;", init=[0.1], T=1)
    b = flowcert.integrate("var:x; fun:0*x;", init=["0.1"], T=1)
    lo, hi = a.final.fractions()[0]
    assert lo <= Fraction(0.1) <= hi
    lo, hi = b.final.fractions()[0]
    assert lo < Fraction(1, 10) < hi
    c = flowcert.integrate("var:x; par:a; fun:a*x;", init=[Fraction(1, 3)], T="0x1p-1", params={"a": Fraction(-2)},
                           radius="1e-20")
    assert c.ok


def test_errors_carry_the_command_line_message_and_code(flowcert_cli):
    with pytest.raises(flowcert.BadInput) as err:
        flowcert.integrate("var:x,y; fun:-y,x;", init=[1], T=1)
    assert err.value.code == 3
    assert "init has 1 values but the formula has 2 variables" in str(err.value)
    # the parser's message is the command line's, word for word
    with pytest.raises(flowcert.BadInput) as err:
        flowcert.integrate("var:x; fun:x+;", init=[1], T=1)
    rc, out, cli_err = flowcert_cli("integrate", "--formula", "var:x; fun:x+;", "--init", "1", "--time", "1")
    assert rc == 3 and str(err.value) in cli_err
    for bad in (dict(init=["0.1.2"], T=1), dict(init=[1], T=-1), dict(init=[float("nan")], T=1),
                dict(init=[1], T=1, params={"a": 1}), dict(init=[True], T=1)):
        with pytest.raises(flowcert.BadInput):
            flowcert.integrate("var:x; fun:-x;", **bad)


def test_hex_floats_on_the_command_line(flowcert_cli):
    rc, out, err = flowcert_cli("integrate", "--formula", "var:x; fun:0*x;", "--init", "0x1.999999999999ap-4",
                                "--time", "0x1p0", "--json")
    assert rc == 0, err
    import json
    box = json.loads(out)["final"][0]
    assert Fraction(box["lo"]) <= Fraction(0.1) <= Fraction(box["hi"])
    rc, out, err = flowcert_cli("integrate", "--formula", "var:x; fun:0*x;", "--init", "0x1.8q", "--time", "1")
    assert rc == 3 and "not a number: '0x1.8q'" in err


def test_a_failed_integration_is_a_status_not_an_exception():
    e = flowcert.integrate("var:x; fun:x*x;", init=[1], T=2)  # blows up at t = 1
    assert not e.ok and e.reason and e.final is not None
