"""Shared helpers of the Python tests: exact references with Fractions."""
from fractions import Fraction
import os
import subprocess

import pytest

import flowcert
from flowcert import _paths


def inside(q, lo, hi):
    """Exact: Fraction q lies in [lo, hi] (float64 bounds, compared as the exact numbers they are)."""
    return Fraction(lo) <= q <= Fraction(hi)


def exp_minus_one_bracket(terms=40):
    """[L, U] with L <= e^{-1} <= U, exactly: consecutive partial sums of the alternating series."""
    s, term, sums = Fraction(0), Fraction(1), []
    for k in range(terms):
        s += term if k % 2 == 0 else -term
        sums.append(s)
        term /= k + 1
    a, b = sums[-2], sums[-1]
    return min(a, b), max(a, b)


@pytest.fixture
def flowcert_cli():
    """Runs the built `flowcert` command: (exit code, stdout, stderr)."""
    tool = os.path.join(os.environ.get("FLOWCERT_TOOLS", _paths.TOOLS_DIR), "flowcert")

    def run(*args):
        p = subprocess.run([tool, *args], capture_output=True, text=True, timeout=60)
        return p.returncode, p.stdout, p.stderr

    return run
