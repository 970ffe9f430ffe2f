// flowcert/proofs/bf/initialization_band.cpp -- see initialization_band.hpp (docs/bf.md, "Theorem 2 for every m").
#include "flowcert/proofs/bf/initialization_band.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace flowcert::proofs::bf {

IntervalD dkw_massart_tail(long long m, const IntervalD& e) {
    if (m < 1 || !(lower(e) > 0)) throw std::invalid_argument("dkw_massart_tail: needs m >= 1 and e > 0");
    // [Massart 1990, Thm 1]: P(sup |F_m - F| > e) <= 2 exp(-2 m e^2), no restriction on m or e.
    return IntervalD(2) * exp(-(IntervalD(2) * IntervalD(m) * sqr(e)));
}

double dkw_radius(long long m, const IntervalD& delta) {
    if (m < 1 || !(lower(delta) > 0) || !(upper(delta) < 1)) throw std::invalid_argument("dkw_radius: needs m >= 1, delta in (0, 1)");
    const IntervalD d_lo = IntervalD::exact(lower(delta));  // a smaller delta only enlarges e
    const double e = upper(sqrt(log(IntervalD(2) / d_lo) / (IntervalD(2) * IntervalD(m))));
    if (!(upper(dkw_massart_tail(m, IntervalD::exact(e))) <= lower(delta)))
        throw std::logic_error("dkw_radius: the rechecked tail exceeds delta");
    return e;
}

ChiSquareThresholds laurent_massart_thresholds(long long k, const IntervalD& x) {
    if (k < 0 || !(lower(x) > 0)) throw std::invalid_argument("laurent_massart_thresholds: needs k >= 0, x > 0");
    const IntervalD kk(k);
    const IntervalD root = IntervalD(2) * sqrt(kk * x);
    // [LaurentMassart2000, Lemma 1] with a = (1, ..., 1): ||a||_2 = sqrt(k), ||a||_inf = 1.
    return {kk - root, kk + root + IntervalD(2) * x};
}

InitializationBand balanced_gaussian_band(long long m, int arcs, const IntervalD& delta_angles, const IntervalD& delta_scales) {
    if (m < 1 || arcs < 1) throw std::invalid_argument("balanced_gaussian_band: needs m >= 1 and arcs >= 1");
    if (!(lower(delta_scales) > 0) || !(upper(delta_scales) < 1))
        throw std::invalid_argument("balanced_gaussian_band: delta_scales must lie in (0, 1)");
    InitializationBand b;
    b.m = m;
    b.arcs = arcs;
    const int C = 2 * arcs;
    b.dkw_e = dkw_radius(m, delta_angles);
    const IntervalD ds_lo = IntervalD::exact(lower(delta_scales));
    b.x_scales = IntervalD::exact(upper(log(IntervalD(2 * C) / ds_lo)));  // any x > 0 is valid; delta_scales is recomputed from it
    b.delta_angles = dkw_massart_tail(m, IntervalD::exact(b.dkw_e));
    b.delta_scales = IntervalD(2 * C) * exp(-b.x_scales);
    b.delta = b.delta_angles + b.delta_scales;
    const IntervalD mm(static_cast<long long>(m));
    const IntervalD p = IntervalD(1) / IntervalD(C);
    const IntervalD two_e = IntervalD(2) * IntervalD::exact(b.dkw_e);
    // q = N_c / m: a difference of two CDF values, each within e of the uniform CDF.
    const double q_lo = std::max(0.0, lower(p - two_e)), q_hi = std::min(1.0, upper(p + two_e));
    const IntervalD Qlo = IntervalD::exact(q_lo), Qhi = IntervalD::exact(q_hi);
    // m S_c ~ chi^2_{2 N_c} given the cells; divide the Laurent-Massart thresholds at k = 2 q m by m.
    const IntervalD root = IntervalD(2) * sqrt(IntervalD(2) * Qhi * b.x_scales / mm);
    const double s_lo = std::max(0.0, lower(IntervalD(2) * Qlo - root));
    const double s_hi = upper(IntervalD(2) * Qhi + root + IntervalD(2) * b.x_scales / mm);
    b.cells.assign(static_cast<std::size_t>(C), BandCell{IntervalD::bounds(q_lo, q_hi), IntervalD::bounds(s_lo, s_hi)});
    return b;
}

namespace {
// J_+(t, v) = t v - ln(1 - p + p/(1 - 2t)) and J_-(t, v) = -t v - ln(1 - p + p/(1 + 2t)), p = 1/C.
IntervalD rate(int cells, double t, double v, bool upper_tail) {
    const IntervalD p = IntervalD(1) / IntervalD(cells), T = IntervalD::exact(t), V = IntervalD::exact(v);
    const IntervalD mgf = IntervalD(1) - p + p / (IntervalD(1) - IntervalD(upper_tail ? 2 : -2) * T);
    return (upper_tail ? T * V : -(T * V)) - log(mgf);
}
IntervalD tail(long long m, int cells, double t, double v, bool upper_tail) {
    if (m < 1 || cells < 1 || !(t > 0) || (upper_tail && !(t < 0.5))) throw std::invalid_argument("chernoff tail: needs m, C >= 1, 0 < t (< 1/2)");
    const IntervalD J = rate(cells, t, v, upper_tail);
    if (!(lower(J) > 0)) return IntervalD::entire();
    return exp(-(IntervalD(m) * IntervalD::exact(lower(J))));
}
// Plain-double search (no proof): sup_t J(t, v) by golden section, then v by bisection with m0 J = x.
double best_t(double p, double v, bool up) {
    auto J = [&](double t) { return up ? t * v - std::log(1 - p + p / (1 - 2 * t)) : -t * v - std::log(1 - p + p / (1 + 2 * t)); };
    double a = 1e-9, b = up ? 0.5 - 1e-9 : 1e6;
    for (int i = 0; i < 200; ++i) {
        const double c = b - (b - a) * 0.618033988749895, d = a + (b - a) * 0.618033988749895;
        if (J(c) > J(d)) b = d; else a = c;
    }
    return 0.5 * (a + b);
}
}  // namespace

IntervalD chernoff_upper_tail(long long m, int cells, double t, double v) { return tail(m, cells, t, v, true); }
IntervalD chernoff_lower_tail(long long m, int cells, double t, double v) { return tail(m, cells, t, v, false); }

InitializationBand chernoff_band(long long m0, int arcs, const IntervalD& delta) {
    if (m0 < 1 || arcs < 1 || !(lower(delta) > 0) || !(upper(delta) < 1)) throw std::invalid_argument("chernoff_band: needs m0, arcs >= 1, delta in (0, 1)");
    const int C = 2 * arcs;
    const double p = 1.0 / C, per_tail = lower(delta) / (2.0 * C), x = -std::log(per_tail);
    auto solve = [&](bool up) {
        double lo = up ? 2 * p : 0.0, hi = up ? 2 * p + 1.0 : 2 * p;  // rate 0 at the mean 2p
        if (up) while (m0 * (hi * best_t(p, hi, true) - std::log(1 - p + p / (1 - 2 * best_t(p, hi, true)))) < x) hi *= 2;
        for (int i = 0; i < 200; ++i) {
            const double v = 0.5 * (lo + hi), t = best_t(p, v, up);
            const double J = up ? t * v - std::log(1 - p + p / (1 - 2 * t)) : -t * v - std::log(1 - p + p / (1 + 2 * t));
            ((m0 * J > x) == up ? hi : lo) = v;
        }
        double v = up ? hi : lo;
        for (int tries = 0; tries < 60; ++tries) {  // widen until the rigorous tail meets per_tail
            const double t = best_t(p, v, up);
            const IntervalD tl = tail(m0, C, t, v, up);
            if (upper(tl) <= per_tail) return std::pair<double, IntervalD>{v, tl};
            v = up ? v * (1 + 1e-9) + 1e-15 : std::max(0.0, v * (1 - 1e-9) - 1e-15);
        }
        throw std::logic_error("chernoff_band: no rigorous endpoint found");
    };
    const auto [v_hi, t_hi] = solve(true);
    const auto [v_lo, t_lo] = solve(false);
    InitializationBand b;
    b.m = m0;
    b.arcs = arcs;
    b.dkw_e = 0;
    b.x_scales = IntervalD::exact(x);
    b.delta_angles = IntervalD(0);
    b.delta_scales = IntervalD(C) * (t_hi + t_lo);
    b.delta = b.delta_scales;
    b.cells.assign(static_cast<std::size_t>(C), BandCell{IntervalD::bounds(0, 1), IntervalD::bounds(v_lo, v_hi)});
    return b;
}

namespace {
bool inside(const IntervalD& a, const IntervalD& b) { return lower(b) <= lower(a) && upper(a) <= upper(b); }
}  // namespace

bool band_inside(const InitializationBand& inner, const InitializationBand& outer) {
    if (inner.arcs != outer.arcs || inner.cells.size() != outer.cells.size()) return false;
    for (std::size_t c = 0; c < inner.cells.size(); ++c)
        if (!inside(inner.cells[c].mass, outer.cells[c].mass) || !inside(inner.cells[c].second_moment, outer.cells[c].second_moment))
            return false;
    return true;
}

std::vector<BandCell> empirical_cells(const nets::InitSpec& spec, const nets::Initialization<IntervalD>& init, int arcs) {
    if (spec.kind != nets::InitKind::balanced_gaussian) throw std::invalid_argument("empirical_cells: balanced Gaussian init only");
    const std::size_t m = init.a_sign.size();
    if (m == 0 || init.w_tilde.size() != 2 * m || arcs < 1) throw std::invalid_argument("empirical_cells: d = 2, m >= 1, arcs >= 1");
    const int C = 2 * arcs;
    std::vector<long long> n_sure(C, 0), n_maybe(C, 0);
    std::vector<IntervalD> s_sure(C, IntervalD(0)), s_maybe(C, IntervalD(0));
    const IntervalD two_pi = IntervalD(2) * IntervalD::pi();
    for (std::size_t j = 0; j < m; ++j) {
        const double w1 = init.w_tilde[2 * j], w2 = init.w_tilde[2 * j + 1];
        const IntervalD rho = sqr(IntervalD::exact(w1)) + sqr(IntervalD::exact(w2));
        // the angle in [0, 2 pi): std::atan2 is within a few ulps; 1e-12 absolute is a generous enclosure
        double phi = std::atan2(w2, w1);
        if (phi < 0) phi += 2 * M_PI;
        const IntervalD u_arc = IntervalD::bounds(phi - 1e-12, phi + 1e-12) / two_pi * IntervalD(arcs);  // arc index, real
        const int base = init.a_sign[j] > 0 ? arcs : 0;
        const long lo = static_cast<long>(std::floor(lower(u_arc))), hi = static_cast<long>(std::floor(upper(u_arc)));
        if (lo == hi) {
            const int c = base + static_cast<int>(((lo % arcs) + arcs) % arcs);
            n_sure[c] += 1;
            s_sure[c] = s_sure[c] + rho;
        } else {
            for (long a = lo; a <= hi; ++a) {
                const int c = base + static_cast<int>(((a % arcs) + arcs) % arcs);
                n_maybe[c] += 1;
                s_maybe[c] = s_maybe[c] + rho;
            }
        }
    }
    std::vector<BandCell> out(C);
    const IntervalD mm(static_cast<long long>(m));
    for (int c = 0; c < C; ++c) {
        out[c].mass = IntervalD::bounds(lower(IntervalD(n_sure[c]) / mm), upper(IntervalD(n_sure[c] + n_maybe[c]) / mm));
        out[c].second_moment = IntervalD::bounds(lower(s_sure[c] / mm), upper((s_sure[c] + s_maybe[c]) / mm));
    }
    return out;
}

std::vector<IntervalD> band_outputs_at_zero(const nets::TwoLayerModel<IntervalD>& model, const IntervalD& lambda,
                                            const std::vector<BandCell>& cells, int arcs) {
    if (model.d() != 2 || arcs < 1 || cells.size() != static_cast<std::size_t>(2 * arcs) || !model.gamma_is_zero())
        throw std::invalid_argument("band_outputs_at_zero: needs d = 2, ReLU and 2 * arcs cells");
    const IntervalD two_pi = IntervalD(2) * IntervalD::pi();
    std::vector<IntervalD> h(model.n(), IntervalD(0));
    for (int c = 0; c < 2 * arcs; ++c) {
        const int arc = c % arcs;
        const IntervalD sign = c < arcs ? IntervalD(-1) : IntervalD(1);
        const IntervalD phi = hull(two_pi * IntervalD(arc) / IntervalD(arcs), two_pi * IntervalD(arc + 1) / IntervalD(arcs));
        const IntervalD cp = cos(phi), sp = sin(phi);
        for (std::size_t k = 0; k < model.n(); ++k) {
            const IntervalD z = cp * model.x(k, 0) + sp * model.x(k, 1);  // <u(phi), x_k> over the arc
            h[k] = h[k] + cells[c].second_moment * sign * relu(z);
        }
    }
    for (auto& v : h) v = sqr(lambda) * v;
    return h;
}

bool draw_in_band(const std::vector<BandCell>& empirical, const InitializationBand& band) {
    if (empirical.size() != band.cells.size()) return false;
    for (std::size_t c = 0; c < empirical.size(); ++c)
        if (!inside(empirical[c].mass, band.cells[c].mass) || !inside(empirical[c].second_moment, band.cells[c].second_moment))
            return false;
    return true;
}

}  // namespace flowcert::proofs::bf
