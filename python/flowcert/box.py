"""A box of interval enclosures: outward float64 bounds as numpy arrays, exact endpoints as text."""
import numpy as np

from ._numbers import hex_to_fraction


class Box:
    """``lo[i] <= x_i <= hi[i]`` for every point of the enclosed set.

    ``lo`` / ``hi`` are float64 arrays rounded outward (so a float64 value inside them is inside the
    enclosure); ``exact`` holds the endpoints as C99 hex strings, exactly (more than 53 bits when the
    computation ran at a higher precision); ``fractions()`` gives them as Fractions.
    """

    def __init__(self, record, names=None):
        self.lo = np.asarray(record["lo"])
        self.hi = np.asarray(record["hi"])
        self.exact = [tuple(p) for p in record.get("exact", [])]
        self.names = list(names) if names is not None else None

    def fractions(self):
        """[(lo, hi)] as exact Fractions."""
        return [(hex_to_fraction(lo), hex_to_fraction(hi)) for lo, hi in self.exact]

    @property
    def width(self):
        return self.hi - self.lo

    def contains(self, x):
        """True if every float64 value of x lies in the box (a rigorous test: the bounds are outward)."""
        x = np.asarray(x, dtype=np.float64)
        return bool(np.all((self.lo <= x) & (x <= self.hi)))

    def __len__(self):
        return len(self.lo)

    def __repr__(self):
        names = self.names or [f"x{i}" for i in range(len(self.lo))]
        parts = ", ".join(f"{n} in [{l:.17g}, {h:.17g}]" for n, l, h in zip(names, self.lo, self.hi))
        return f"Box({parts})"
