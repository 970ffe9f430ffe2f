"""``flowcert.integrate``: rigorous enclosure of an ODE given in CAPD's formula syntax (the engine of
``flowcert integrate``: Taylor/Lohner steps, docs/integrator.md)."""
from . import _flowcert
from ._numbers import exact_text
from .box import Box
from .errors import BadInput


class OdeEnclosure:
    """The result of ``flowcert.integrate``.

    ``status`` is "ok" when the enclosure reached T (else the reason says why, and ``final`` is the last
    validated box); ``t_lo, t_hi, x_lo, x_hi`` are the tube: for every step s and every t in
    [t_lo[s], t_hi[s]], x(t) lies in [x_lo[s], x_hi[s]] (float64 arrays, outward); ``final`` and each
    ``outputs[k]`` are Boxes (exact endpoints in ``.exact`` / ``.fractions()``).
    """

    def __init__(self, r):
        self.status = r["status"]
        self.reason = r["reason"]
        self.variables = list(r["variables"])
        self.steps = r["steps"]
        self.precision = r["precision"]
        self.time = tuple(r["time"])
        self.final = Box(r["final"], self.variables)
        self.outputs = [(o["time"], Box(o, self.variables)) for o in r["outputs"]]
        self.offending_set = Box(r["offending_set"], self.variables) if "offending_set" in r else None
        self.t_lo, self.t_hi, self.x_lo, self.x_hi = r["t_lo"], r["t_hi"], r["x_lo"], r["x_hi"]
        self.wall_seconds = r["wall_seconds"]

    @property
    def ok(self):
        return self.status == "ok"

    def plot(self, ax=None, variables=None):
        """Draws the tube of each variable as a band over time (matplotlib); returns the axes."""
        import matplotlib.pyplot as plt

        ax = ax or plt.figure().gca()
        for i, name in enumerate(self.variables):
            if variables is not None and name not in variables:
                continue
            t = [v for pair in zip(self.t_lo, self.t_hi) for v in pair]
            lo = [v for x in self.x_lo[:, i] for v in (x, x)]
            hi = [v for x in self.x_hi[:, i] for v in (x, x)]
            ax.fill_between(t, lo, hi, alpha=0.4, label=name, step=None)
        ax.set_xlabel("t")
        ax.legend()
        return ax

    def __repr__(self):
        return f"OdeEnclosure(status={self.status!r}, steps={self.steps}, final={self.final!r})"


def integrate(formula, init, T, params=None, radius=0, output_times=(), tube=True, order=20, precision=53,
              tolerance=0.0, min_step=1e-10, jacobian_order=0):
    """Encloses every solution of x' = f(x; p) from the box init +- radius on [0, T].

    ``formula`` is CAPD's syntax, e.g. ``"var:x,y; par:a; fun:-a*y, a*x;"``; numbers (init, T, params
    values, radius, output_times) are floats (taken as the exact float64 they are), ints, Fractions,
    Decimals or strings ("0.1" is the exact tenth, "8/3", "0x1.8p-3"). ``precision`` 53 computes with
    float64 bounds, more with MPFR. Raises flowcert.BadInput (code 3) with the command line's message.
    """
    if isinstance(init, (str, bytes)) or not hasattr(init, "__iter__"):
        raise BadInput("init must be a sequence of numbers, one per variable")
    params = params or {}
    if not isinstance(params, dict):
        raise BadInput("params must be a dict name -> value")
    r = _flowcert.integrate(
        formula,
        [exact_text(v, f"init[{i}]") for i, v in enumerate(init)],
        exact_text(T, "T"),
        [(str(k), exact_text(v, f"parameter '{k}'")) for k, v in params.items()],
        exact_text(radius, "radius"),
        [exact_text(t, "output time") for t in output_times],
        int(order), int(precision), bool(tube), float(tolerance), float(min_step), int(jacobian_order))
    return OdeEnclosure(r)
