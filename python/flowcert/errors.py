"""Exceptions of the Python API, carrying the command line's messages and exit codes.

Exit codes (every verifier and the ``flowcert`` command): 0 certified, 1 refuted, 2 inconclusive,
3 bad input, 4 environment / self-test failure, 5 internal error, 6 outside the theorem's hypotheses.
A verdict is not an exception: ``flowcert.run`` returns a Certificate whatever its verdict (codes 0, 1,
2, 6); only codes 3-5 raise.
"""


class FlowcertError(Exception):
    """Base class: ``code`` is the exit code the command line gives for the same failure."""

    code = 5

    def __init__(self, message, code=None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class BadInput(FlowcertError, ValueError):
    """Bad input (exit code 3): the message names the key, file and line where there is one."""

    code = 3


class EnvironmentFailure(FlowcertError):
    """The rounding self-test failed, or a sweep merge was incomplete (exit code 4)."""

    code = 4


class InternalError(FlowcertError):
    """An internal error (exit code 5)."""

    code = 5


def from_exit_code(code, message):
    """The exception for a verifier's or the command's exit code 3, 4 or 5."""
    cls = {3: BadInput, 4: EnvironmentFailure}.get(code, InternalError)
    return cls(message, code)
