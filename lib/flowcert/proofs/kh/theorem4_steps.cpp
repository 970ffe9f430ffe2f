// The proof steps of kh/theorem4_limit_path [KH2025, Thm 4]; see theorem4_steps.hpp.
#include "flowcert/proofs/kh/theorem4_steps.hpp"

#include <flowcert/proofs/kh/flow_tools.hpp>

namespace flowcert::proofs::kh {

template <Interval I> std::optional<std::vector<I>> unit_direction(const std::vector<I>& v0) {
    const I v0n = norm2(v0);
    if (!certainly_positive(v0n)) return std::nullopt;
    std::vector<I> w0;
    for (const I& v : v0) w0.push_back(v / v0n);
    return w0;
}

template <Interval I>
Theorem4Cap<I> theorem4_cap(const nets::Ncf<I>& ncf, const linalg::IVector<I>& wstar, const I& Nstar, const I& Dmax,
                            const I& Delta, const I& gamma) {
    Theorem4Cap<I> c;
    const I one = constant_like(Delta, 1);
    c.one_minus_gamma = one - gamma;
    const I& cgam = c.one_minus_gamma;
    c.gamma_below_one = certainly_positive(cgam);
    if (c.gamma_below_one) c.cap_rhs = cgam * (one + cgam) * Dmax;
    c.hessian = hessian_spectrum(ncf, wstar);
    if (c.hessian.status == ProofStatus::proven && c.gamma_below_one) {
        const I m = min(c.hessian.lambda_min, one - one);
        c.n_lower = sqr(cgam) * Nstar + (one - sqr(cgam)) * m / constant_like(one, 2);
    }
    const I cstar = (sqrt(one + constant_like(one, 4) * Delta / Dmax) - one) / constant_like(one, 2);
    c.largest_gamma = one - cstar;
    c.kappa = Delta / (Delta + constant_like(one, 8) * Nstar);
    return c;
}

template <Interval I>
I alignment_with_kkt(const nets::Ncf<I>& ncf, const KktCandidateNonrigorous& cand, const KktExistence<I>& kkt,
                     const std::vector<I>& w0) {
    const ZeroPattern<I> zp = prove_zero_pattern(ncf, cand.u, cand.mu, 1e-8, kkt.uniqueness_box);
    const linalg::IVector<I>& wz = zp.status == ProofStatus::proven && zp.inside_uniqueness_box ? zp.u : kkt.u;
    I c0z = wz(0) * w0[0];
    for (std::size_t j = 1; j < w0.size(); ++j) c0z += wz(static_cast<Eigen::Index>(j)) * w0[j];
    return c0z;
}

template <Interval I> Theorem4Shift<I> theorem4_shift(const linalg::IVector<I>& wstar, const std::vector<I>& w0, const I& Nstar) {
    Theorem4Shift<I> s;
    s.c0 = wstar(0) * w0[0];
    for (std::size_t j = 1; j < w0.size(); ++j) s.c0 += wstar(static_cast<Eigen::Index>(j)) * w0[j];
    s.defined = certainly_positive(s.c0);
    if (!s.defined) return s;
    const I one = constant_like(Nstar, 1);
    s.two_n = constant_like(Nstar, 2) * Nstar;
    s.s0 = -log(s.c0) / s.two_n;  // T1 + ln(1/b)/(2N*) with b = 1 when T1 = s0 > 0
    s.T1 = s.s0;
    s.b_delta = one;
    if (!certainly_positive(s.s0)) {
        s.T1 = one;
        s.b_delta = s.c0 * exp(s.two_n);
    }
    return s;
}

namespace {
template <Interval I>
void weighted_squares_form(Theorem4ClosedForm<I>& f, const nets::HomogeneousArchitecture& arch, const nets::Vec<I>& y,
                           const I& c_loss, const std::vector<int>& sample_of, std::vector<I>& wbar, I& mubar) {
    const int P = arch.parameter_count(), k = f.kstar;
    const I one = constant_like(c_loss, 1);
    const I Q = constant_like(one, arch.signs[static_cast<std::size_t>(k)]) * y(sample_of[static_cast<std::size_t>(k)]);
    f.path = weighted_squares_limit_path<I>(P, k, f.sign, Q, c_loss);
    wbar[static_cast<std::size_t>(k)] = constant_like(one, f.sign);
    mubar = constant_like(one, 2) * c_loss * Q;  // lambda* = N* = 2cQ
    f.why = "w* = " + std::to_string(f.sign) + " e_" + std::to_string(k + 1) + ", Q = s_k y_k = " + to_string(Q, 10) +
            ": p_k(t) = sign sqrt(Q/(1 + Q e^{-8cQ t}))";
}
template <Interval I>
void diagonal_form(Theorem4ClosedForm<I>& f, const nets::Mat<I>& X, const nets::Vec<I>& ytilde, const I& c_loss,
                   std::vector<I>& wbar, I& mubar) {
    const int d = static_cast<int>(X.rows()), n = static_cast<int>(X.cols());
    const I one = constant_like(c_loss, 1);
    const nets::Mat<I> Sg = X * X.transpose();
    for (int a = 0; a < d; ++a)
        for (int b = 0; b < d; ++b)
            if (a != b && !(lower(Sg(a, b)) == 0 && upper(Sg(a, b)) == 0)) {
                f.error_key = "inputs";
                f.error = "limit_path = diagonal needs X X^T diagonal";
                return;
            }
    const int k = f.kstar % d;
    I b = X(k, 0) * ytilde(0);
    for (int i = 1; i < n; ++i) b += X(k, i) * ytilde(i);
    const I S = constant_like(one, 2) * c_loss * Sg(k, k);
    if (!certainly_positive(b) || !certainly_positive(S)) {
        f.error_key = "limit_path";
        f.error = "diagonal closed form needs b_k* > 0 and (X X^T)_k*k* > 0";
        return;
    }
    f.path = diagonal_limit_path<I>(d, k, f.sign, b, S);
    const I r2 = sqrt(constant_like(one, 2)) / constant_like(one, 2);
    wbar[static_cast<std::size_t>(k)] = f.sign > 0 ? r2 : -r2;
    wbar[static_cast<std::size_t>(d + k)] = f.sign > 0 ? r2 : -r2;
    mubar = b / constant_like(one, 2);  // lambda* = N* = b_k/2
    f.why = "w* = " + std::string(f.sign > 0 ? "+" : "-") + "(e_" + std::to_string(k + 1) + ", e_" + std::to_string(k + 1) +
            ")/sqrt 2, b_k = " + to_string(b, 10) + ", S_k = 2c (XX^T)_kk = " + to_string(S, 10) +
            ": p_{u_k}(t) = p_{v_k}(t) = sign sqrt((b/S)/(1 + (2b/S) e^{-2bt}))";
}
}  // namespace

template <Interval I>
Theorem4ClosedForm<I> theorem4_closed_form(bool diagonal, const nets::HomogeneousArchitecture& arch, const nets::Mat<I>& X,
                                           const nets::Vec<I>& y, const nets::Vec<I>& ytilde, const I& c_loss,
                                           const KktExistence<I>& kkt, const I& c0, const std::vector<int>& sample_of) {
    Theorem4ClosedForm<I> f;
    const int P = arch.parameter_count();
    for (int j = 0; j < P; ++j)
        if (mag(kkt.u(j)) > mag(kkt.u(f.kstar))) f.kstar = j;
    f.sign = mid(kkt.u(f.kstar)) > 0 ? 1 : -1;
    std::vector<I> wbar(static_cast<std::size_t>(P), c0 - c0);
    I mubar;
    if (diagonal)
        diagonal_form(f, X, ytilde, c_loss, wbar, mubar);
    else
        weighted_squares_form(f, arch, y, c_loss, sample_of, wbar, mubar);
    if (!f.error.empty()) return f;
    // The closed form's point wbar is a KKT point analytically (grad N(wbar) = 2 mubar wbar, |wbar| = 1); if
    // (wbar, mubar) lies in the Krawczyk uniqueness box, it is the certified w*.
    f.in_box = true;
    for (int j = 0; j < P; ++j) f.in_box = f.in_box && subset(wbar[static_cast<std::size_t>(j)], kkt.uniqueness_box(j));
    f.in_box = f.in_box && subset(mubar, kkt.uniqueness_box(P));
    return f;
}

namespace {
// The start delta w0 of psi (Theorem 4 runs the loss flow from delta times the unit direction w0).
template <Interval I> std::vector<I> scaled_start(const std::vector<I>& w0, const I& delta) {
    std::vector<I> x0;
    for (const I& w : w0) x0.push_back(delta * w);
    return x0;
}
}  // namespace

template <Interval I> Theorem4Rates<I> theorem4_rates(const I& Delta, const I& Dmax, const I& Nstar) {
    return {Delta / (Delta + constant_like(Delta, 8) * Nstar), Dmax / (constant_like(Nstar, 2) * Nstar)};
}

template <Interval I, class LimitPath>
WindowDistance<I> theorem4_sweep_point(const taylor::VectorField& loss, const std::vector<I>& params, const std::vector<I>& w0,
                                       const I& delta, const Theorem4Shift<I>& shift, const LimitPath& path,
                                       const I& Ttilde, int grid, const ode::Options& opt, long bits) {
    return certified_window_distance<I>(loss, params, scaled_start(w0, delta), path, shift.at(delta), Ttilde, grid, opt, bits);
}

template <Interval I> double power_law_constant(const I& E, const I& delta, const I& kappa) {
    return upper(E / exp(kappa * log(delta)));
}
template <Interval I> I power_law_bound(double C, const I& kappa, const I& delta, long bits) {
    return IntervalTraits<I>::exact(C, bits) * exp(kappa * log(delta));
}

FLOWCERT_PROOFS_KH_THEOREM4_STEPS_DECLARE(IntervalD, )
FLOWCERT_PROOFS_KH_THEOREM4_STEPS_DECLARE(IntervalMp, )

}  // namespace flowcert::proofs::kh
