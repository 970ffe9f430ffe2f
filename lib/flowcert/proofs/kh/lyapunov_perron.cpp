// The limiting path p(t) of [KH2025, Thm 4] by the Lyapunov-Perron fixed point; see lyapunov_perron.hpp and
// docs/kh.md ("Limiting path by Lyapunov-Perron", [DERIVED]).
#include "flowcert/proofs/kh/lyapunov_perron.hpp"

#include <algorithm>
#include <cmath>

namespace flowcert::proofs::kh {

template <Interval I>
LyapunovPerronBall<I> lyapunov_perron_ball(const nets::HomogeneousArchitecture& arch, const nets::Mat<I>& X, const I& c_loss,
                                           const linalg::IVector<I>& wstar, const I& lambda, const I& Lambda, double t0,
                                           bool automatic_t0, long bits, const LyapunovPerronMutations& mut) {
    LyapunovPerronBall<I> b;
    const auto ex = [&](double v) { return IntervalTraits<I>::exact(v, bits); };
    const I one = constant_like(c_loss, 1), zero = one - one;
    const int P = arch.parameter_count(), n = static_cast<int>(X.cols());
    // G = c sum_i ||B_i||_F^2 >= c sum_i ||B_i||_2^2, B_i = Hess_w H(x_i; .) (constant for L = 2)
    b.G = zero;
    nets::Vec<I> u0(P);
    for (int j = 0; j < P; ++j) u0(j) = zero;
    for (int i = 0; i < n; ++i) {
        nets::Vec<I> e1(1);
        e1(0) = one;
        const nets::Ncf<I> hi(nets::HomogeneousModel<I>(arch, X.col(i)), e1);  // N = H(x_i; .)
        const auto h = hi.hessian(u0);
        if (h.status != nets::EvalStatus::ok) {
            b.reason = "Hess H(x_" + std::to_string(i + 1) + "; .) not enclosed: " + h.reason;
            return b;
        }
        for (int r = 0; r < P; ++r)
            for (int c = 0; c < P; ++c) b.G += sqr(h.hessian(r, c));
    }
    b.G = c_loss * b.G;
    b.lambda = lambda;
    b.Lambda = ex(upper(Lambda));  // ||e^{A tau}||_2 <= e^{Lambda tau} for tau >= 0 (A symmetric)
    const I gap3 = constant_like(one, 3) * lambda - b.Lambda, gap5 = constant_like(one, 5) * lambda - b.Lambda;
    if (!certainly_positive(gap3)) {
        b.reason = "3 lambda - Lambda = " + to_string(gap3, 8) + " not certainly positive (the integral may diverge)";
        return b;
    }
    // K: the self-map bound with R = 1 (and a margin 1.01 for R^3); the automatic t0 puts K e^{2 lambda t0} at 1e-17.
    b.K = upper(b.G / gap3) * 1.01 + 1e-300;
    if (automatic_t0) t0 = std::floor(std::log(1e-17 / b.K) / (2 * lower(lambda)));
    b.t0 = t0;
    const I T0 = ex(t0);
    const I e2 = exp(constant_like(one, 2) * lambda * T0);
    b.R = one + ex(b.K) * e2;
    b.self_map = b.G * b.R * b.R * b.R / gap3;
    b.theta = constant_like(one, 3) * b.G * b.R * b.R * e2 / gap5;
    b.radius = ex(b.K) * exp(constant_like(one, 3) * lambda * T0);
    if (!(upper(b.self_map) <= b.K)) {
        b.reason = "self-map bound G R^3/(3 lambda - Lambda) = " + to_string(b.self_map, 8) + " not <= K = " + format_g(b.K);
        return b;
    }
    if (!certainly_less(b.theta, one)) {
        b.reason = "contraction factor theta = " + to_string(b.theta, 8) + " not certainly < 1 (t0 = " + format_g(t0) +
                   " is not negative enough)";
        return b;
    }
    const I lt = mut.test_only_time_scale_UNSOUND != 0 ? lambda * T0 * (one + ex(mut.test_only_time_scale_UNSOUND)) : lambda * T0;
    const I lead = exp(lt);
    const I ball = mut.test_only_drop_ball_UNSOUND ? zero : hull(-b.radius, b.radius);
    b.p_t0.resize(static_cast<std::size_t>(P));
    for (int j = 0; j < P; ++j) b.p_t0[static_cast<std::size_t>(j)] = lead * wstar(j) + ball;  // p(t0) = e^{lambda t0} w* + q(t0)
    b.ok = true;
    b.reason = "ok";
    return b;
}

template <Interval I>
LimitPathEnclosure<I> limit_path_from_ball(const taylor::VectorField& loss, const std::vector<I>& params,
                                           const LyapunovPerronBall<I>& ball, double t_lo, double t_hi, ode::Options opt,
                                           long bits) {
    LimitPathEnclosure<I> out;
    const auto ex = [&](double v) { return IntervalTraits<I>::exact(v, bits); };
    if (!ball.ok) {
        out.reason = "no Lyapunov-Perron ball: " + ball.reason;
        return out;
    }
    if (!(ball.t0 <= t_lo && t_lo <= t_hi)) {
        out.reason = "need t0 <= t_lo <= t_hi";
        return out;
    }
    // to tau = t0 + D1 <= t_lo (D1 = lower(t_lo - t0), an exact double), then the tube over [tau, t_hi] (duration
    // D2 >= t_hi - tau), whose pieces' hull encloses p on [tau, t_hi] \supseteq [t_lo, t_hi]
    std::vector<I> x = ball.p_t0;
    const double D1 = lower(ex(t_lo) - ex(ball.t0));
    if (D1 > 0) {
        opt.record_tubes = false;
        const auto r = ode::integrate<I>(loss, params, x, ex(D1), {}, opt, bits);
        out.steps += r.steps;
        if (!r.ok()) {
            out.reason = std::string("loss-flow tube from t0 = ") + format_g(ball.t0) + ": " + ode::to_string(r.status) + ": " + r.reason;
            return out;
        }
        x = r.final_box;
    }
    out.p = x;
    const double D2 = upper((ex(t_hi) - ex(ball.t0)) - ex(std::max(D1, 0.0)));
    if (D2 > 0) {
        opt.record_tubes = true;
        const auto r = ode::integrate<I>(loss, params, x, ex(D2), {}, opt, bits);
        out.steps += r.steps;
        if (!r.ok()) {
            out.reason = std::string("loss-flow tube over [t_lo, t_hi]: ") + ode::to_string(r.status) + ": " + r.reason;
            return out;
        }
        for (const auto& piece : r.tube)
            for (std::size_t j = 0; j < out.p.size(); ++j) out.p[j] = hull(out.p[j], piece.box[j]);
    }
    out.ok = true;
    out.reason = "ok";
    return out;
}

FLOWCERT_PROOFS_KH_LP_DECLARE(IntervalD, )
FLOWCERT_PROOFS_KH_LP_DECLARE(IntervalMp, )

}  // namespace flowcert::proofs::kh
