// The pieces of kh/theorem4_limit_path [KH2025, Thm 4]: closed-form limiting paths, the certified window distance,
// the NCF tube into the cap; see theorem4_limit_path.hpp. Instantiated for IntervalD and IntervalMp.
#include "flowcert/proofs/kh/theorem4_limit_path.hpp"


#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

namespace flowcert::proofs::kh {

// Example 1 family: weighted squares with x_i = e_i, loss scale c, KKT point sign * e_k, Q = s_k y_k.
template <Interval I>
LogisticLimitPath<I> weighted_squares_limit_path(int dimension, int k, int sign, const I& Q, const I& c) {
    return {dimension, {k}, sign, Q, Q, constant_like(Q, 8) * c * Q};
}

// Diagonal net (u_1..u_d, v_1..v_d), X X^T diagonal: KKT point sign (e_k, e_k)/sqrt 2 with b_k > 0,
// S_k = 2c (X X^T)_kk.
template <Interval I>
LogisticLimitPath<I> diagonal_limit_path(int d, int k, int sign, const I& b, const I& S) {
    return {2 * d, {k, d + k}, sign, b / S, constant_like(b, 2) * b / S, constant_like(b, 2) * b};
}

namespace {
// p_start(t): encloses p on the interval t (nullopt + reason: not enclosed); piece_p(t, box): p on a tube piece
template <Interval I>
WindowDistance<I> window_distance_core(const taylor::VectorField& loss, const std::vector<I>& params, const std::vector<I>& x0,
                                       const std::function<std::optional<std::vector<I>>(const I&, std::string&)>& p_start,
                                       const std::function<std::vector<I>(const I&, const std::vector<I>&)>& piece_p,
                                       const I& shift, const I& Ttilde, int grid, ode::Options opt, long bits) {
    WindowDistance<I> out;
    const auto ex = [&](double v) { return IntervalTraits<I>::exact(v, bits); };
    out.tau_start = lower(shift - Ttilde);
    const I tau_a = ex(out.tau_start);
    // ---- 1. psi(tau_a, delta w0)
    std::vector<I> xa = x0;
    if (out.tau_start != 0) {
        const bool back = out.tau_start < 0;
        opt.record_tubes = false;
        const auto r = back ? ode::integrate<I>(taylor::reversed(loss), params, x0, -tau_a, {}, opt, bits)
                            : ode::integrate<I>(loss, params, x0, tau_a, {}, opt, bits);
        out.steps_before = r.steps;
        if (!r.ok()) {
            out.reason = std::string("flow to tau_a = ") + std::to_string(out.tau_start) + ": " + ode::to_string(r.status) +
                         ": " + r.reason;
            return out;
        }
        xa = r.final_box;
    }
    // ---- 2. difference system over the window
    const int n = static_cast<int>(x0.size());
    std::string why;
    const auto pa_opt = p_start(tau_a - shift, why);
    if (!pa_opt) {
        out.reason = "p at the window start: " + why;
        return out;
    }
    const std::vector<I>& pa = *pa_opt;
    std::vector<I> z0(pa.begin(), pa.end());
    for (int i = 0; i < n; ++i) z0.push_back(xa[static_cast<std::size_t>(i)] - pa[static_cast<std::size_t>(i)]);
    out.duration = upper(shift + Ttilde - tau_a);
    const I D = ex(out.duration);
    // output times: a uniform grid plus the last double certainly inside the window (the sup of a
    // growing distance sits at its end)
    std::vector<double> ts;
    for (int j = 1; j < grid; ++j) ts.push_back(out.duration * j / grid);
    ts.push_back(lower(shift + Ttilde - tau_a) - 4 * std::abs(out.duration) * 1e-15);
    std::sort(ts.begin(), ts.end());
    std::vector<I> outs;
    double last = 0;
    for (double t : ts)
        if (t > last && t < out.duration) {
            outs.push_back(ex(t));
            last = t;
        }
    opt.record_tubes = true;
    const taylor::VectorField diff = taylor::difference_field(loss);
    const auto r = ode::integrate<I>(diff, params, z0, D, outs, opt, bits);
    out.steps_window = r.steps;
    if (!r.ok()) {
        out.reason = std::string("difference system on the window: ") + ode::to_string(r.status) + ": " + r.reason;
        return out;
    }
    const double Tl = lower(Ttilde), Tu = upper(Ttilde);  // inside uses Tl, "may meet" uses Tu
    const auto norm_e = [&](const std::vector<I>& z) {
        I s2 = sqr(z[static_cast<std::size_t>(n)]);
        for (int i = 1; i < n; ++i) s2 += sqr(z[static_cast<std::size_t>(n + i)]);
        return sqrt(s2);
    };
    bool any = false;
    for (const auto& piece : r.tube) {
        const I tlo = tau_a + piece.t0 - shift, thi = tau_a + piece.t1 - shift;
        if (upper(thi) < -Tu || lower(tlo) > Tu) continue;  // certainly outside the window
        WindowPiece<I> w;
        w.t_lo = lower(tlo);
        w.t_hi = upper(thi);
        const I tt = hull(tlo, thi);
        w.p = piece_p(tt, piece.box);
        w.x.resize(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i)
            w.x[static_cast<std::size_t>(i)] = piece.box[static_cast<std::size_t>(i)] + piece.box[static_cast<std::size_t>(n + i)];
        w.distance = norm_e(piece.box);
        w.certainly_inside = lower(tlo) >= -Tl && upper(thi) <= Tl;
        out.sup_upper = std::max(out.sup_upper, upper(w.distance));
        any = true;
        out.pieces.push_back(std::move(w));
    }
    for (const auto& s : r.outputs) {
        const I t = tau_a + s.time - shift;
        if (lower(t) < -Tl || upper(t) > Tl) continue;
        const double lo = lower(norm_e(s.box));
        if (lo > out.sup_lower) {
            out.sup_lower = lo;
            out.argmax_t = mid(t);
        }
    }
    if (!any) {
        out.reason = "no tube piece meets the window";
        return out;
    }
    out.ok = true;
    out.reason = "ok";
    return out;
}
}  // namespace

template <Interval I>
WindowDistance<I> certified_window_distance(const taylor::VectorField& loss, const std::vector<I>& params,
                                            const std::vector<I>& x0, const LogisticLimitPath<I>& path,
                                            const I& shift, const I& Ttilde, int grid, ode::Options opt, long bits) {
    return window_distance_core<I>(
        loss, params, x0, [&](const I& t, std::string&) { return std::optional<std::vector<I>>(path.at(t)); },
        [&](const I& t, const std::vector<I>&) { return path.at(t); }, shift, Ttilde, grid, opt, bits);
}

template <Interval I>
WindowDistance<I> certified_window_distance(const taylor::VectorField& loss, const std::vector<I>& params,
                                            const std::vector<I>& x0, const LyapunovPerronBall<I>& ball,
                                            const I& shift, const I& Ttilde, int grid, ode::Options opt, long bits) {
    const std::size_t n = x0.size();
    return window_distance_core<I>(
        loss, params, x0,
        [&](const I& t, std::string& why) -> std::optional<std::vector<I>> {
            const auto e = limit_path_from_ball<I>(loss, params, ball, lower(t), upper(t), opt, bits);
            if (!e.ok) {
                why = e.reason;
                return std::nullopt;
            }
            return e.p;
        },
        // the difference system's p block encloses p(t) on the piece
        [n](const I&, const std::vector<I>& box) { return std::vector<I>(box.begin(), box.begin() + static_cast<long>(n)); },
        shift, Ttilde, grid, opt, bits);
}

template <Interval I>
CosineCapEntry<I> ncf_cosine_enters_cap(const taylor::VectorField& ncf_field, const std::vector<I>& ncf_params,
                                        const std::vector<I>& w0, const linalg::IVector<I>& wstar, const I& cgam,
                                        double horizon, const ode::Options& options, long bits) {
    const int P = static_cast<int>(w0.size());
    const auto cos_to_wstar = [&](const std::vector<I>& u) {
        I dot = wstar(0) * u[0];
        for (int j = 1; j < P; ++j) dot += wstar(j) * u[static_cast<std::size_t>(j)];
        I s = sqr(u.front());
        for (std::size_t i = 1; i < u.size(); ++i) s += sqr(u[i]);
        return dot / sqrt(s);
    };
    std::vector<I> u = w0;
    CosineCapEntry<I> e;
    double& t = e.t;
    double& t_in = e.t_in;
    I& cos_in = e.cos_in;
    I& cos_last = e.cos_last;
    cos_in = cos_to_wstar(u);
    cos_last = cos_in;
    e.trace.emplace_back(0.0, cos_in);
    std::string& fail = e.fail;
    if (certainly_less(cgam, cos_in)) t_in = 0;
    const double chunk = 0.5;
    ode::Options o2 = options;
    while (t_in < 0 && t < horizon) {
        std::vector<I> outs;
        for (int j = 1; j < 10; ++j) outs.push_back(IntervalTraits<I>::exact(chunk * j / 10, bits));
        const auto r = ode::integrate<I>(ncf_field, ncf_params, u, IntervalTraits<I>::exact(chunk, bits), outs, o2, bits);
        if (!r.ok()) {
            fail = std::string("NCF tube stopped at t = ") + format_g(t) + ": " + ode::to_string(r.status) + ": " + r.reason;
            break;
        }
        for (const auto& s : r.outputs) {
            const I c = cos_to_wstar(s.box);
            e.trace.emplace_back(t + mid(s.time), c);
            if (t_in < 0 && certainly_less(cgam, c)) {
                t_in = t + mid(s.time);
                cos_in = c;
            }
        }
        t += chunk;
        u = r.final_box;
        cos_last = cos_to_wstar(u);
        e.trace.emplace_back(t, cos_last);
        if (t_in < 0 && certainly_less(cgam, cos_last)) {
            t_in = t;
            cos_in = cos_last;
        }
        if (t_in < 0 && width(cos_last) > 1) {
            fail = "the enclosure of w*^T phi/|phi| became wider than 1 at t = " + format_g(t) +
                   " (the tube grows along directions the cosine does not see)";
            break;
        }
    }
    return e;
}

// NON-RIGOROUS: the direction of the NCF flow u' = grad N(u) from u0 for large t, by the Euler map
// u <- (u + h grad N(u)) / |.| with h = 1/(2 ||Hess N||_inf). For L = 2, grad N(u) = A u, and the Euler map
// I + hA has the eigenvalues 1 + h lambda > 0 in the order of A's, so its iterates tend to the direction of
// the top eigen-component present in u0: the same limit as the flow. Only a start for Newton.
Eigen::VectorXd ncf_flow_direction_nonrigorous(const nets::Ncf<double>& ncf, Eigen::VectorXd u, int iterations) {
    const Eigen::MatrixXd A = ncf.hessian(u).hessian;
    const double h = 0.5 / std::max(1.0, A.cwiseAbs().rowwise().sum().maxCoeff());
    u.normalize();
    for (int k = 0; k < iterations; ++k) {
        u = u + h * (A * u);
        u.normalize();
    }
    return u;
}

FLOWCERT_PROOFS_KH_THEOREM4_DECLARE(IntervalD, )
FLOWCERT_PROOFS_KH_THEOREM4_DECLARE(IntervalMp, )

}  // namespace flowcert::proofs::kh
