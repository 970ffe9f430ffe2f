// The shared pieces of kh/theorem10_escape and kh/first_saddle [KH2025]: square-loss derivatives, the ray of a
// single-block KKT point, escape brackets; see flow_tools.hpp (derivations there).
#include "flowcert/proofs/kh/flow_tools.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace flowcert::proofs::kh {

// [KH2025, eq. (1)-(2)] with c from the normalization; Hessian = 2c (J^T J + sum_i r_i Hess H_i).
template <Interval I>
LossDerivatives<I> square_loss_derivatives(const nets::HomogeneousModel<I>& model, const nets::Vec<I>& w,
                                           const nets::Vec<I>& y, const nets::SquareLossNormalization& norm,
                                           bool with_hessian) {
    LossDerivatives<I> out;
    const auto H = model.outputs(w);
    if (H.status != nets::EvalStatus::ok) {
        out.reason = H.reason;
        return out;
    }
    const int n = model.sample_count(), P = model.parameter_count();
    const I c = nets::loss_scale<I>(norm, n, y(0));
    nets::Vec<I> r = H.outputs - y;
    I v = sqr(r(0));
    for (int i = 1; i < n; ++i) v += sqr(r(i));
    out.value = c * v;
    const nets::Vec<I> wr = (c + c) * r;
    if (!with_hessian) {
        const auto g = model.weighted_gradient(w, wr);
        if (g.status != nets::EvalStatus::ok) {
            out.reason = g.reason;
            return out;
        }
        out.gradient = g.gradient;
        out.ok = true;
        out.reason = "ok";
        return out;
    }
    const auto h = model.weighted_hessian(w, wr);
    if (h.status != nets::EvalStatus::ok) {
        out.reason = h.reason;
        return out;
    }
    out.gradient = h.gradient;
    out.hessian = h.hessian;
    const I zero = y(0) - y(0) + cst<I>(0, flowcert::precision(y(0)));
    for (int i = 0; i < n; ++i) {
        nets::Vec<I> e = nets::Vec<I>::Constant(n, zero);
        e(i) = cst<I>(1, flowcert::precision(y(0)));
        const auto gi = model.weighted_gradient(w, e);
        if (gi.status != nets::EvalStatus::ok) {
            out.reason = gi.reason;
            return out;
        }
        for (int a = 0; a < P; ++a)
            for (int b = 0; b < P; ++b) out.hessian(a, b) += (c + c) * (gi.gradient(a) * gi.gradient(b));
    }
    out.ok = true;
    out.reason = "ok";
    return out;
}

// t_p(rho) (header comment); throws std::domain_error unless 0 < rho < rho* certainly.
template <Interval I> I Ray<I>::time_of(const I& rho) const {
    const I q = S * pow(rho, L) / N;  // = S rho^L / N in [0, 1)
    if (!flowcert::certainly_positive(rho) || !flowcert::certainly_less(q, cst<I>(1, bits)))
        throw std::domain_error("ray: rho not certainly in (0, rho*)");
    if (L == 2) return (log(rho) - log(cst<I>(1, bits) - q) / cst<I>(2, bits)) / (cst<I>(2, bits) * N);
    const I one = cst<I>(1, bits);
    if (L == 3) {
        // Closed form, m = rho*: int_0^rho s/(m^3 - s^3) ds = (1/(3m)) [ -ln(1 - rho/m)
        //   + (1/2) ln(1 + rho/m + rho^2/m^2) - sqrt3 (atan((2 rho/m + 1)/sqrt3) - pi/6) ]  (partial fractions)
        // and G = (that)/S.
        const I m = rho_star(), x = rho / m, s3 = sqrt(cst<I>(3, bits));
        const I pi6 = IntervalTraits<I>::pi(bits) / cst<I>(6, bits);
        const I F = (-log(one - x) + log(one + x + sqr(x)) / cst<I>(2, bits) -
                     s3 * (atan((cst<I>(2, bits) * x + one) / s3) - pi6)) /
                    (cst<I>(3, bits) * m);
        const I G = F / S;
        return -(one / rho) / (cst<I>(3, bits) * N) + S / (cst<I>(3, bits) * N) * G;
    }
    // G(rho) = (rho^2/N) sum_n q^n/(Ln+2); tail after M terms <= (rho^2/N) q^M / ((LM+2)(1-q)).
    I sum = cst<I>(0, bits), qn = one;
    const double qhi = flowcert::upper(q);
    int M = 0;
    for (; M < 200000; ++M) {
        sum += qn / cst<I>(static_cast<long long>(L) * M + 2, bits);
        qn *= q;
        if (flowcert::upper(qn) < std::ldexp(1.0, -static_cast<int>(bits) - 8) * (1 - qhi)) {
            ++M;
            break;
        }
    }
    const I tail = qn / (cst<I>(static_cast<long long>(L) * M + 2, bits) * (one - q));
    const I G = sqr(rho) / N * (sum + IntervalTraits<I>::bounds(0, 1, bits) * tail);
    const I L_ = cst<I>(L, bits);
    return -(one / pow(rho, L - 2)) / (L_ * cst<I>(L - 2, bits) * N) + S / (L_ * N) * G;
}

// Enclosure of rho_p(t) for an exact time t by bisection on exact doubles, using that t_p is increasing:
// t_p(lo) < t < t_p(hi) certainly  =>  rho_p(t) in [lo, hi].  Returns false if no bracket was found.
template <Interval I> bool Ray<I>::radius_at(const I& t, I& out) const {
    const double rs = flowcert::lower(rho_star());
    auto tp = [&](double r) { return time_of(IntervalTraits<I>::exact(r, bits)); };
    double lo = rs / 2, hi = rs / 2;
    for (int k = 0; k < 2000 && !flowcert::certainly_less(tp(lo), t); ++k) lo /= 2;
    double gap = rs / 4;
    hi = rs - gap;
    for (int k = 0; k < 2000 && !flowcert::certainly_less(t, tp(hi)); ++k) {
        gap /= 2;
        hi = rs - gap;
        if (!(hi < rs)) return false;
    }
    if (!flowcert::certainly_less(tp(lo), t) || !flowcert::certainly_less(t, tp(hi))) return false;
    for (int k = 0; k < 200; ++k) {
        const double m = lo + (hi - lo) / 2;
        if (!(m > lo && m < hi)) break;
        const I v = tp(m);
        if (flowcert::certainly_less(v, t))
            lo = m;
        else if (flowcert::certainly_less(t, v))
            hi = m;
        else
            break;
    }
    out = IntervalTraits<I>::bounds(lo, hi, bits);
    return true;
}

// The ray of a single-block KKT point w* with N(w*) = Nstar (header comment): S = 2c ||H(X; w*)||^2, c the loss
// scale of `norm` on n samples.
template <Interval I>
Ray<I> ray_of(const nets::HomogeneousModel<I>& model, const linalg::IVector<I>& wstar, const I& Nstar,
              const nets::SquareLossNormalization& norm, int n, int L) {
    nets::Vec<I> wv(wstar.size());
    for (Eigen::Index j = 0; j < wv.size(); ++j) wv(j) = wstar(j);
    const auto h = model.outputs(wv);
    I h2 = I(0);
    for (int i = 0; i < n; ++i) h2 += sqr(h.outputs(i));
    Ray<I> ray;
    ray.L = L;
    ray.N = Nstar;
    ray.S = I(2) * nets::loss_scale<I>(norm, n, I(1)) * h2;
    return ray;
}

// T_esc = inf{t >= 0 : ||x(t)|| >= r}. Lower bound: every tube piece before it has ||box|| < r certainly (the
// pieces cover [0, t] without gaps). Upper bound: the first piece or output snapshot certainly at or beyond r.
template <Interval I>
EscapeBracket escape_bracket(const ode::Result<I>& run, const I& r) {
    EscapeBracket e;
    const I r2 = sqr(r);
    bool have_lo = false;
    double hi = std::numeric_limits<double>::infinity();
    for (const auto& pc : run.tube) {
        const I n2 = norm2_sq(pc.box);
        if (!have_lo && !flowcert::certainly_less(n2, r2)) {
            e.lo = flowcert::lower(pc.t0);
            have_lo = true;
        }
        if (have_lo && flowcert::certainly_less_equal(r2, n2)) {
            hi = std::min(hi, flowcert::upper(pc.t1));
            break;
        }
    }
    for (const auto& s : run.outputs)
        if (flowcert::certainly_less_equal(r2, norm2_sq(s.box))) hi = std::min(hi, flowcert::upper(s.time));
    if (!have_lo) {
        e.reason = "the tube never reaches the escape radius";
        return e;
    }
    if (!(hi < std::numeric_limits<double>::infinity())) {
        e.reason = "the escape radius is touched but not certainly crossed within the run";
        return e;
    }
    e.hi = hi;
    e.ok = e.lo <= e.hi;
    e.reason = e.ok ? "ok" : "inconsistent bracket";
    return e;
}

// Runs x' = f from x0 to t_end with tubes and outputs; then refines the escape bracket `rounds` times by
// re-running with `per_round` output times inside the current bracket (steps are cut there).
template <Interval I>
EscapeBracket refined_escape(const taylor::VectorField& field, const std::vector<I>& params,
                             const std::vector<I>& x0, double t_end, const I& r, const ode::Options& opt0,
                             long bits, int rounds, int per_round, std::string* why) {
    ode::Options opt = opt0;
    opt.record_tubes = true;
    auto run = ode::integrate<I>(field, params, x0, IntervalTraits<I>::exact(t_end, bits), {}, opt, bits);
    EscapeBracket e = escape_bracket(run, r);
    if (!run.ok() && !e.ok) {
        if (why) *why = std::string("integration: ") + ode::to_string(run.status) + ": " + run.reason;
        e.reason = "integration failed before the escape: " + run.reason;
        return e;
    }
    for (int k = 0; k < rounds && e.ok; ++k) {
        std::vector<I> outs;
        const double a = e.lo, b = std::min(e.hi, t_end);
        for (int j = 1; j <= per_round; ++j) {
            const double t = a + (b - a) * j / (per_round + 1);
            if (t > 0 && t < t_end && (outs.empty() || t > flowcert::upper(outs.back())))
                outs.push_back(IntervalTraits<I>::exact(t, bits));
        }
        auto run2 = ode::integrate<I>(field, params, x0, IntervalTraits<I>::exact(b, bits), outs, opt, bits);
        const EscapeBracket e2 = escape_bracket(run2, r);
        if (!e2.ok) break;
        e.lo = std::max(e.lo, e2.lo);
        e.hi = std::min(e.hi, e2.hi);
    }
    return e;
}

// sup-norm-2 of the Jacobian Df over a box (Frobenius bound), via Taylor-mode C^1 coefficients at order 1.
template <Interval I>
double jacobian_norm_upper(taylor::TaylorEvaluator<I>& ev, const std::vector<I>& box) {
    const auto res = ev.compute_c1(std::span<const I>(box.data(), box.size()), 1);
    if (!res.ok()) return std::numeric_limits<double>::infinity();
    const int n = ev.dimension();
    I s = sqr(ev.dcoeff(0, 1, 0));
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            if (i || j) s += sqr(ev.dcoeff(i, 1, j));
    return flowcert::upper(sqrt(s));
}

FLOWCERT_PROOFS_KH_FLOW_TOOLS_DECLARE(IntervalD, )
FLOWCERT_PROOFS_KH_FLOW_TOOLS_DECLARE(IntervalMp, )

}  // namespace flowcert::proofs::kh
