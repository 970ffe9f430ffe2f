"""flowcert: rigorous (interval) enclosures of gradient flows and gradient descent, and certificates of
the numeric claims of three ML-theory papers (BF2025, KH2025, LWTM2026).

    import flowcert
    enc = flowcert.integrate("var:x,y; fun:-y,x;", init=[1, 0], T=1)    # tube + final box
    tube = flowcert.two_layer.gd(X, y, a0, W0, step=0.1, iterations=100) # certified GD iterates
    cert = flowcert.run("demo/sqrt_bounds", {"c": "2", "sqrt_upper": "1.4143"})
    cert.verdict                                                          # "CERTIFIED"

Every float64 you pass is taken as the exact binary number it is; strings ("0.1"), Fractions and ints
are exact. Errors raise flowcert.BadInput etc. with the command line's message and exit code.
"""
from . import errors
from ._flowcert import __version__, git_commit, is_number, self_test
from .errors import BadInput, EnvironmentFailure, FlowcertError, InternalError
from .ode import OdeEnclosure, integrate
from . import two_layer
from .certificate import Certificate, CheckResult, run

__all__ = ["__version__", "integrate", "run", "Certificate", "CheckResult", "OdeEnclosure", "two_layer", "BadInput", "EnvironmentFailure",
           "FlowcertError", "InternalError", "errors", "is_number", "self_test", "git_commit"]
