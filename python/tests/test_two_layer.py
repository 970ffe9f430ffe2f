"""flowcert.two_layer: GD enclosures against exact rational GD, the flow against its conserved quantity,
float64 data taken exactly, and bad input."""
from fractions import Fraction

import numpy as np
import pytest

import flowcert
from flowcert import two_layer
from conftest import inside

X = [[1.0, 0.5], [-0.3, 1.0], [0.2, -0.7]]
Y = [0.7, -0.2, 0.4]
A0 = [0.3, -0.25]
W0 = [[0.4, 0.1], [-0.2, 0.35]]


def exact_gd(X, y, a, W, step, iterations, c):
    """Exact rational GD of the ReLU net with L = c sum_k 1/2 (h(x_k) - y_k)^2 (every sign decided)."""
    X = [[Fraction(v) for v in row] for row in X]
    y = [Fraction(v) for v in y]
    a = [Fraction(v) for v in a]
    W = [[Fraction(v) for v in row] for row in W]
    out = [(a, W)]
    for _ in range(iterations):
        s = [[sum(wi * xi for wi, xi in zip(w, x)) for x in X] for w in W]
        assert all(v != 0 for row in s for v in row)
        h = [sum(a[j] * max(s[j][k], 0) for j in range(len(a))) for k in range(len(X))]
        r = [h[k] - y[k] for k in range(len(X))]
        ga = [c * sum(r[k] * max(s[j][k], 0) for k in range(len(X))) for j in range(len(a))]
        gW = [[c * sum(r[k] * a[j] * (1 if s[j][k] > 0 else 0) * X[k][i] for k in range(len(X)))
               for i in range(len(W[j]))] for j in range(len(a))]
        a = [a[j] - step * ga[j] for j in range(len(a))]
        W = [[W[j][i] - step * gW[j][i] for i in range(len(W[j]))] for j in range(len(a))]
        out.append((a, W))
    return out


def exact_loss(X, y, a, W, c):
    h = [sum(aj * max(sum(Fraction(wi) * Fraction(xi) for wi, xi in zip(w, x)), 0) for aj, w in zip(a, W)) for x in X]
    return c * sum((hk - Fraction(yk)) ** 2 for hk, yk in zip(h, y)) / 2


def test_gd_encloses_the_exact_rational_iterates_and_their_loss():
    step = Fraction(1, 4)
    g = two_layer.gd(X, Y, A0, W0, step=step, iterations=6)
    assert g.ok and g.iterations_done == 6
    ref = exact_gd(X, Y, A0, W0, step, 6, Fraction(1, 3))
    for t, (a, W) in enumerate(ref):
        for j in range(2):
            assert inside(a[j], g.a_lo[t, j], g.a_hi[t, j])
            for i in range(2):
                assert inside(W[j][i], g.w_lo[t, j, i], g.w_hi[t, j, i])
        assert inside(exact_loss(X, Y, a, W, Fraction(1, 3)), g.loss_lo[t], g.loss_hi[t])
    assert g.max_width[-1] < 1e-14  # tight, not merely true


def test_gd_at_high_precision_is_tighter_and_still_encloses():
    ref = exact_gd(X, Y, A0, W0, Fraction(1, 4), 4, Fraction(1, 3))
    g = two_layer.gd(X, Y, A0, W0, step=Fraction(1, 4), iterations=4, precision=160)
    a_final = ref[-1][0]
    lo, hi = (flowcert._numbers.hex_to_fraction(v) for v in g.final_exact[0])
    assert lo <= a_final[0] <= hi and hi - lo < Fraction(1, 10**40)


def test_float64_inputs_are_their_exact_binary_values():
    g1 = two_layer.gd(X, Y, A0, W0, step=0.25, iterations=3)
    g2 = two_layer.gd([[Fraction(v) for v in r] for r in X], [Fraction(v) for v in Y], [Fraction(v) for v in A0],
                      np.array(W0), step="0x1p-2", iterations=3)
    assert np.array_equal(g1.a_lo, g2.a_lo) and np.array_equal(g1.w_hi, g2.w_hi)
    g3 = two_layer.gd([[str(v) for v in r] for r in X], [str(v) for v in Y], A0, W0, step=0.25, iterations=3)
    assert not np.array_equal(g1.loss_lo, g3.loss_lo)  # "0.1" is one tenth, 0.1 is a double


def test_gd_mismatch_is_detected():
    g = two_layer.gd(X, Y, A0, W0, step=0.25, iterations=3)
    ref = exact_gd(X, Y, A0, W0, Fraction(1, 4), 3, Fraction(1, 3))
    a, W = ref[2]
    a_float = np.array([float(v) for v in a])
    W_float = np.array([[float(v) for v in r] for r in W])
    assert g.contains(0, A0, W0)
    W_bad = W_float.copy()
    W_bad[1, 0] += 1e-9
    assert not g.contains(2, a_float, W_bad)


def balancedness_range(a_lo, a_hi, w_lo, w_hi):
    """The exact range [lo, hi] of a^2 - |w|^2 over a box (Fractions)."""
    def sq(l, h):
        l, h = Fraction(l), Fraction(h)
        return (Fraction(0) if l <= 0 <= h else min(l * l, h * h), max(l * l, h * h))
    alo, ahi = sq(a_lo, a_hi)
    ws = [sq(l, h) for l, h in zip(w_lo, w_hi)]
    return alo - sum(h for _, h in ws), ahi - sum(l for l, _ in ws)


def test_flow_conserves_balancedness_inside_its_enclosures():
    # a_j^2 - |w_j|^2 is conserved along gradient flow [BF2025, Lemma 1]; the flow never uses it
    T = 3.0
    f = two_layer.flow(X, Y, A0, W0, T=T, output_times=[1.0, 2.0])
    assert f.ok and f.t_reached == T
    fin = f.final
    for j in range(2):
        c0 = Fraction(A0[j]) ** 2 - sum(Fraction(w) ** 2 for w in W0[j])
        lo, hi = balancedness_range(fin["a_lo"][0, j], fin["a_hi"][0, j], fin["w_lo"][0, j], fin["w_hi"][0, j])
        assert lo <= c0 <= hi
    assert len(f.snapshots) == 2 and f.snapshots[0]["t"] == 1.0
    assert np.all(f.loss_lo <= f.loss_hi) and f.loss_hi[-1] < f.loss_lo[0]  # the loss went down, provably
    assert f.contains(0.0, A0, W0)


def test_bad_input_raises_with_the_reason():
    cases = [
        (dict(X=X, y=Y, a0=A0, W0=[[0.1, 0.2]]), "W0 has 1 rows but a0 has 2 neurons"),
        (dict(X=X, y=Y, a0=A0, W0=[[0.1], [0.2]]), "inputs have dimension 2"),
        (dict(X=[[1.0, float("nan")]], y=[1.0], a0=A0, W0=W0), "not a finite number"),
        (dict(X=X, y=Y[:2], a0=A0, W0=W0), ""),
    ]
    for kw, msg in cases:
        with pytest.raises(flowcert.BadInput) as err:
            two_layer.gd(step=0.1, iterations=1, **kw)
        assert msg in str(err.value) and err.value.code == 3
    with pytest.raises(flowcert.BadInput, match="not a float64 exactly"):
        two_layer.flow(X, Y, A0, W0, T="0.1")
    with pytest.raises(flowcert.BadInput, match="step must be positive"):
        two_layer.gd(X, Y, A0, W0, step=0, iterations=1)
