"""The plots of a certificate as PNG / SVG files (display only; the checks are the certificate).

    python3 -m flowcert.plot CERT.json [--out DIR] [--format png --format svg]

writes DIR/<case>.plot<i>.<format> for every plot of the certificate (tube bands, log-log sweeps with
certified error bars and reference slopes, directions on the unit circle, heat maps). Needs matplotlib
(Debian python3-matplotlib). Exit codes: 0 written, 3 bad input (not a certificate, no plots).
"""
import argparse
import json
import math
import os
import sys

from .errors import BadInput


def _finite(v):
    return [math.nan if x is None else x for x in v]


def _tube(ax, p):
    for b in p.get("bands", []):
        ax.fill_between(_finite(b["x"]), _finite(b["lo"]), _finite(b["hi"]), alpha=0.35, label=b.get("label"), step="post")


def _sweep(ax, p):
    xs_all, first = [], None  # first: the first drawn point, through which a slope-only reference passes
    for s in p.get("series", []):
        x, lo, hi = _finite(s["x"]), _finite(s["lo"]), _finite(s["hi"])
        mid = [0.5 * (a + b) for a, b in zip(lo, hi)]
        err = [[m - a for m, a in zip(mid, lo)], [b - m for m, b in zip(mid, hi)]]
        ax.errorbar(x, mid, yerr=err, fmt="o", capsize=3, label=s.get("label"))
        xs_all += [v for v in x if v == v]
        if first is None:
            first = next(((a, m) for a, m in zip(x, mid) if a == a and m == m and a > 0), None)
    if xs_all:
        lo_x, hi_x = min(xs_all), max(xs_all)
        for r in p.get("references", []):
            xs = [lo_x, hi_x]
            c = r.get("coefficient")
            if c is None or c != c:  # a slope only (SweepPlot::add_slope): drawn through the first point
                if first is None:
                    continue
                c = first[1] / first[0] ** r["slope"]
            ax.plot(xs, [c * v ** r["slope"] for v in xs], "--", label=r.get("label"))


def _circle(ax, p):
    ax.add_patch(__import__("matplotlib").patches.Circle((0, 0), 1, fill=False, lw=0.5, color="gray"))
    groups = {}
    for d in p.get("directions", []):
        x = 0.5 * (d["x_lo"] + d["x_hi"])
        y = 0.5 * (d["y_lo"] + d["y_hi"])
        if d.get("normalize", True):
            r = math.hypot(x, y) or 1.0
            x, y = x / r, y / r
        groups.setdefault(d.get("group", ""), []).append((x, y))
    for g, pts in groups.items():
        ax.plot([q[0] for q in pts], [q[1] for q in pts], "o", ms=3, label=g or None)
    ax.set_aspect("equal")


def _heatmap(ax, p):
    im = ax.imshow([_finite(r) for r in p.get("values", [])], aspect="auto", cmap="viridis")
    ax.figure.colorbar(im, ax=ax)


_DRAW = {"tube": _tube, "sweep": _sweep, "circle": _circle, "heatmap": _heatmap}


def plot_certificate(cert, out_dir=None, formats=("png",), stem=None):
    """Figures of the plots of a certificate (its JSON dict); saved to out_dir when given."""
    import matplotlib

    if out_dir is not None:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if cert.get("format") != "flowcert-certificate":
        raise BadInput("not a flowcert certificate")
    stem = stem or cert.get("case", {}).get("name", "certificate")
    figures, written = [], []
    for i, p in enumerate(cert.get("plots", [])):
        fig, ax = plt.subplots(figsize=(6, 4))
        _DRAW.get(p.get("kind"), lambda a, q: None)(ax, p)
        ax.set_title(p.get("title", ""))
        ax.set_xlabel(p.get("x_label", ""))
        ax.set_ylabel(p.get("y_label", ""))
        if p.get("log_x"):
            ax.set_xscale("log")
        if p.get("log_y"):
            ax.set_yscale("log")
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
        fig.tight_layout()
        if out_dir is not None:
            os.makedirs(out_dir, exist_ok=True)
            for fmt in formats:
                f = os.path.join(out_dir, f"{stem}.plot{i}.{fmt}")
                fig.savefig(f)
                written.append(f)
        figures.append(fig)
    plot_certificate.written = written
    return figures


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m flowcert.plot", description="write a certificate's plots as PNG/SVG")
    ap.add_argument("certificate", help="CERT.json written by a verifier")
    ap.add_argument("--out", default=None, help="output directory (default: next to the certificate)")
    ap.add_argument("--format", action="append", choices=["png", "svg", "pdf"], help="file format (repeatable; default png)")
    a = ap.parse_args(argv)
    try:
        with open(a.certificate, encoding="utf-8") as f:
            cert = json.load(f)
    except (OSError, ValueError) as e:
        print(f"flowcert plot: {a.certificate}: {e}", file=sys.stderr)
        return 3
    out = a.out or os.path.dirname(os.path.abspath(a.certificate))
    try:
        plot_certificate(cert, out_dir=out, formats=a.format or ["png"])
    except BadInput as e:
        print(f"flowcert plot: {a.certificate}: {e}", file=sys.stderr)
        return 3
    if not plot_certificate.written:
        print(f"flowcert plot: {a.certificate}: the certificate has no plots", file=sys.stderr)
        return 3
    for f in plot_certificate.written:
        print(f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
