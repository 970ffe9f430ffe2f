"""The two-layer (leaky) ReLU network of [BF2025, eq. (1)] on your own data and weights:

    h(x) = sum_j a_j sigma(<w_j, x>),  sigma(z) = max(z, gamma z),  L = c sum_k loss(h(x_k), y_k)

with c = 1/n by default (the paper's convention; PyTorch's ``MSELoss()`` is the half-square loss with
``risk_weight=Fraction(2, n)``), and with ``bias=True`` a constant coordinate 1 appended to every input
(a hidden-layer bias: W0 then has d + 1 columns, the last one the bias). docs/python.md maps
``torch.nn`` modules to these arguments.

``flow`` encloses every solution of the gradient-flow inclusion (any sigma'(0) in [gamma, 1]) on
[0, T]; ``gd`` encloses the gradient-descent iterates theta - step * grad L for every choice of
sigma'(0) in [gamma, 1] (PyTorch's ReLU uses 0). Numbers: float64 arrays are the exact binary values
they are; strings, Fractions and ints are exact too (flowcert._numbers).
"""
from fractions import Fraction
import math

import numpy as np

from . import _flowcert
from ._numbers import exact_array, exact_text
from .errors import BadInput


def _data(X, y, a0, W0):
    Xs = exact_array(X, 2, "X")
    ys = exact_array(y, 1, "y")
    a0s = exact_array(a0, 1, "a0")
    W0s = exact_array(W0, 2, "W0")
    return Xs, ys, a0s, W0s


def _weight(risk_weight):
    return "" if risk_weight is None else exact_text(risk_weight, "risk_weight")


def _round_up(q):
    """The smallest float64 >= the Fraction q (q >= 0)."""
    f = float(q)
    return math.nextafter(f, math.inf) if Fraction(f) < q else f


class _Trajectory:
    """Common to flow tubes and GD iterates: per-step boxes of a (S x m) and W (S x m x d), and the loss."""

    def _contains(self, s, a, W):
        a = np.asarray(a, dtype=np.float64).reshape(self.a_lo.shape[1])
        W = np.asarray(W, dtype=np.float64).reshape(self.w_lo.shape[1:])
        return bool(np.all((self.a_lo[s] <= a) & (a <= self.a_hi[s])) and
                    np.all((self.w_lo[s] <= W) & (W <= self.w_hi[s])))

    def loss_contains(self, s, value):
        """True if the float64 ``value`` lies in the loss enclosure of step s."""
        return bool(self.loss_lo[s] <= float(value) <= self.loss_hi[s])

    def distance_bound(self, s, a, W):
        """A rigorous upper bound on max_i |theta_i - theta_i(s)| over the exact iterate / tube point theta(s)
        (it lies in the step's box), for float64 weights theta = (a, W): computed with Fractions, rounded up."""
        a = np.asarray(a, dtype=np.float64).reshape(self.a_lo.shape[1])
        W = np.asarray(W, dtype=np.float64).reshape(self.w_lo.shape[1:])
        pairs = [(a, self.a_lo[s], self.a_hi[s]), (W.ravel(), self.w_lo[s].ravel(), self.w_hi[s].ravel())]
        worst = Fraction(0)
        for v, lo, hi in pairs:
            for vi, li, hi_ in zip(v.tolist(), lo.tolist(), hi.tolist()):
                worst = max(worst, Fraction(vi) - Fraction(li), Fraction(hi_) - Fraction(vi))
        return _round_up(worst)

    def loss_distance_bound(self, s, value):
        """A rigorous upper bound on |value - L(theta(s))| (the loss of the exact iterate / tube point)."""
        v = Fraction(float(value))
        return _round_up(max(v - Fraction(self.loss_lo[s]), Fraction(self.loss_hi[s]) - v))

    @property
    def max_width(self):
        """The widest enclosure of a weight, per step (float64 upper bounds)."""
        return np.maximum((self.a_hi - self.a_lo).max(axis=1), (self.w_hi - self.w_lo).max(axis=(1, 2)))


class GdIterates(_Trajectory):
    """``gd`` result. Iterate t (0 .. iterations_done) of the exact GD lies in
    ``[a_lo[t], a_hi[t]] x [w_lo[t], w_hi[t]]``, its loss in ``[loss_lo[t], loss_hi[t]]`` (float64, outward;
    ``loss_exact`` / ``final_exact`` are exact hex endpoints)."""

    def __init__(self, r):
        self.status, self.reason = r["status"], r["reason"]
        self.iterations_done = r["iterations_done"]
        self.undecided_pair_steps = r["undecided_pair_steps"]
        self.precision = r["precision"]
        self.a_lo, self.a_hi, self.w_lo, self.w_hi = r["a_lo"], r["a_hi"], r["w_lo"], r["w_hi"]
        self.loss_lo, self.loss_hi, self.loss_exact = r["loss_lo"], r["loss_hi"], r["loss_exact"]
        self.final_exact = r["final_exact"]

    @property
    def ok(self):
        return self.status == "completed"

    def contains(self, t, a, W):
        """True if the float64 weights (a: m, W: m x d) lie in the enclosure of iterate t."""
        return self._contains(t, a, W)

    def first_outside(self, a_list, W_list):
        """The first t whose given weights are outside iterate t's enclosure, or None if all are inside."""
        for t, (a, W) in enumerate(zip(a_list, W_list)):
            if t > self.iterations_done or not self.contains(t, a, W):
                return t
        return None

    def __repr__(self):
        return (f"GdIterates(status={self.status!r}, iterations={self.iterations_done}, "
                f"final loss in [{self.loss_lo[-1]:.17g}, {self.loss_hi[-1]:.17g}])")


class FlowTube(_Trajectory):
    """``flow`` result. For every step s and t in [t0[s], t1[s]], every solution's a(t) lies in
    [a_lo[s], a_hi[s]], W(t) in [w_lo[s], w_hi[s]], L(theta(t)) in [loss_lo[s], loss_hi[s]]; ``final`` and
    ``snapshots`` (at output_times) hold the enclosures at single times (dicts of the same arrays)."""

    def __init__(self, r):
        self.status, self.reason, self.t_reached = r["status"], r["reason"], r["t_reached"]
        self.t0, self.t1 = r["t0"], r["t1"]
        self.a_lo, self.a_hi, self.w_lo, self.w_hi = r["a_lo"], r["a_hi"], r["w_lo"], r["w_hi"]
        self.loss_lo, self.loss_hi, self.loss_exact = r["loss_lo"], r["loss_hi"], r["loss_exact"]
        self.final = r["final"]
        self.snapshots = r["snapshots"]
        self.frozen = np.asarray(r["frozen"], dtype=bool)
        self.stats = r["stats"]

    @property
    def ok(self):
        return self.status == "completed"

    def step_at(self, t):
        """The index of a step whose interval [t0, t1] contains t (the last one on a shared endpoint)."""
        s = int(np.searchsorted(self.t1, t, side="left"))
        if s >= len(self.t1) or not (self.t0[s] <= t <= self.t1[s]):
            raise ValueError(f"t = {t} is outside the tube [0, {self.t_reached}]")
        return s

    def contains(self, t, a, W):
        """True if the float64 weights lie in the tube's enclosure at time t (the step containing t)."""
        return self._contains(self.step_at(t), a, W)

    def directions(self):
        """Non-rigorous display helper: midpoint directions w_j / |w_j| and norms |w_j| per step."""
        mid = 0.5 * (self.w_lo + self.w_hi)
        norms = np.linalg.norm(mid, axis=2)
        with np.errstate(invalid="ignore", divide="ignore"):
            return mid / norms[..., None], norms

    def __repr__(self):
        return f"FlowTube(status={self.status!r}, t_reached={self.t_reached}, steps={len(self.t0)})"


def flow(X, y, a0, W0, T, gamma=0, bias=False, risk_weight=None, output_times=(), order=8, threads=1,
         allow_hull=True, max_steps=1000000):
    """Rigorous gradient-flow tube from theta(0) = (a0, W0) on [0, T] (half-square loss).

    T and output_times must be float64 values exactly (the step grid is float64). Raises
    flowcert.BadInput on bad input; a flow that cannot be continued returns with ``ok`` False and the
    reason (the tube is valid on [0, t_reached]).
    """
    Xs, ys, a0s, W0s = _data(X, y, a0, W0)
    r = _flowcert.two_layer_flow(Xs, ys, a0s, W0s, exact_text(T, "T"), bool(bias), exact_text(gamma, "gamma"),
                                 _weight(risk_weight), [exact_text(t, "output time") for t in output_times],
                                 int(order), int(threads), bool(allow_hull), int(max_steps))
    return FlowTube(r)


def gd(X, y, a0, W0, step, iterations, gamma=0, bias=False, loss="half_square", risk_weight=None, precision=53,
       threads=1):
    """Rigorous enclosures of ``iterations`` gradient-descent steps theta <- theta - step * grad L from
    (a0, W0), and of the loss at every iterate. ``loss`` is "half_square" or "logistic"."""
    if int(iterations) < 0:
        raise BadInput("iterations must be >= 0")
    Xs, ys, a0s, W0s = _data(X, y, a0, W0)
    r = _flowcert.two_layer_gd(Xs, ys, a0s, W0s, exact_text(step, "step"), int(iterations), bool(bias),
                               exact_text(gamma, "gamma"), str(loss), _weight(risk_weight), int(precision),
                               int(threads))
    return GdIterates(r)


def weights_from_torch(model):
    """(a, W, bias) of a ``torch.nn.Sequential(Linear(d, m), ReLU() or LeakyReLU(gamma), Linear(m, 1, bias=False))``
    as float64 numpy arrays: W is m x d (m x (d + 1) with the hidden bias as last column, bias True).
    The output layer must have no bias (flowcert's model has none); docs/python.md."""
    import torch

    linears = [mod for mod in model.modules() if isinstance(mod, torch.nn.Linear)]
    if len(linears) != 2:
        raise BadInput(f"expected two Linear layers, found {len(linears)}")
    hidden, out = linears
    if out.bias is not None:
        raise BadInput("the output layer has a bias; flowcert's two-layer model has none (Linear(m, 1, bias=False))")
    if out.out_features != 1:
        raise BadInput("the output layer must have one output")
    W = hidden.weight.detach().to(torch.float64).cpu().numpy().copy()
    has_bias = hidden.bias is not None
    if has_bias:
        W = np.concatenate([W, hidden.bias.detach().to(torch.float64).cpu().numpy()[:, None]], axis=1)
    a = out.weight.detach().to(torch.float64).cpu().numpy()[0].copy()  # a copy: the view would follow training
    return a, W, has_bias


def mse_risk_weight(n):
    """risk_weight that makes the half-square loss equal to torch.nn.MSELoss() (mean of squares): 2/n."""
    return Fraction(2, int(n))
