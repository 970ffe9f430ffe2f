// flowcert/proofs/kh/theorem4_steps.hpp -- the proof steps of kh/theorem4_limit_path on one instance [KH2025, Thm 4
// (L = 2); Definition 2; Lemmas 23-24], beside the closed-form paths and the window distance of
// theorem4_limit_path.hpp. For L = 2 the NCF is a quadratic form N(w) = w^T A w / 2 (A = Hess N constant), which
// gives the closed-form criteria below (derived in docs/kh.md#verifier-khtheorem4_limit_path). Knows no report.
// Instantiated for IntervalD and IntervalMp.
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/linalg.hpp>
#include <flowcert/nets.hpp>
#include <flowcert/ode.hpp>
#include <flowcert/proofs/kh/ncf_kkt.hpp>
#include <flowcert/proofs/kh/theorem4_limit_path.hpp>
#include <flowcert/taylor.hpp>

#include <optional>
#include <string>
#include <vector>

namespace flowcert::proofs::kh {

// w0 = v0 / |v0| (the case's initial direction up to scale); nullopt when |v0| is not certainly positive.
template <Interval I> std::optional<std::vector<I>> unit_direction(const std::vector<I>& v0);

// The Lemma 23 cap {w*^T w >= 1 - gamma} for L = 2. With w = c w* + s b (b a unit vector orthogonal to w*,
// c = w*^T w >= 0): (28) >= (1-c)(c(1+c) Delta_max - Delta) and (29) <= -(Delta/2)(1-c)c, so (28)-(29) hold on the cap
// when Delta <= (1-gamma)(2-gamma) Delta_max (`cap_rhs`, gamma < 1); and [Lemma 24, eq. (32)] N(w) = c^2 N* +
// (s^2/2) b^T A b >= (1-gamma)^2 N* + (1 - (1-gamma)^2) min(lambda_min(A), 0)/2 (`n_lower`, when the Hessian
// spectrum is enclosed).
template <Interval I>
struct Theorem4Cap {
    I one_minus_gamma;     // c = 1 - gamma
    bool gamma_below_one = false;  // 1 - gamma certainly positive
    I cap_rhs;             // (1-gamma)(2-gamma) Delta_max (when gamma_below_one)
    HessianSpectrum<I> hessian;
    I n_lower;             // the lower bound of N on the cap (when gamma_below_one and the spectrum is enclosed)
    I largest_gamma;       // 1 - (sqrt(1 + 4 Delta/Delta_max) - 1)/2: the largest gamma with Delta <= (1-gamma)(2-gamma) Delta_max
    I kappa;               // Delta / (Delta + 8 N*): the exponent of Theorem 4
};
template <Interval I>
Theorem4Cap<I> theorem4_cap(const nets::Ncf<I>& ncf, const linalg::IVector<I>& wstar, const I& Nstar, const I& Dmax,
                            const I& Delta, const I& gamma);

// w*^T w0 with w* the certified zero pattern box when it lies in the uniqueness box (exact zeros), else the KKT box.
// For L = 2, w*^T phi(t, w0) = e^{2 N* t} w*^T w0, so w*^T w0 <= 0 disproves w0 in S(w*).
template <Interval I>
I alignment_with_kkt(const nets::Ncf<I>& ncf, const KktCandidateNonrigorous& cand, const KktExistence<I>& kkt,
                     const std::vector<I>& w0);

// The exhibited shift of Theorem 4: c0 = w*^T w0 > 0, s0 = ln(1/c0)/(2N*) = T1 + ln(1/b_delta)/(2N*) with T1 = s0,
// b_delta = 1 when s0 > 0, else T1 = 1, b_delta = c0 e^{2N*} (delta~ = delta, A2 = 1); the shift at delta is
// s_delta = s0 + ln(1/delta)/(2N*). `defined`: c0 certainly positive (only then are s0, T1, b_delta set).
template <Interval I>
struct Theorem4Shift {
    I c0, two_n, s0, T1, b_delta;
    bool defined = false;
    I at(const I& delta) const { return s0 - log(delta) / two_n; }
};
template <Interval I> Theorem4Shift<I> theorem4_shift(const linalg::IVector<I>& wstar, const std::vector<I>& w0, const I& Nstar);

// The closed form of p(t) for the certified w* (theorem4_limit_path.hpp): the largest coordinate k* of w* and its sign
// choose the closed-form KKT point (wbar, lambda*); `in_box`: it lies in the Krawczyk uniqueness box, so wbar = w* and
// the path is p. `error` (with the case key `error_key`) when the instance is not of the closed form's shape.
//  * weighted squares with x_i = e_{pi(i)} (`sample_of[k]` = i with pi(i) = k): Q = s_k* y_{sample_of[k*]},
//    wbar = sign e_k*, lambda* = 2cQ;
//  * diagonal nets with X X^T diagonal: k = k* mod d, b = (X ytilde)_k > 0, S = 2c (X X^T)_kk > 0,
//    wbar = sign (e_k, e_k)/sqrt 2, lambda* = b/2.
template <Interval I>
struct Theorem4ClosedForm {
    std::optional<LogisticLimitPath<I>> path;
    int kstar = 0, sign = 1;
    bool in_box = false;
    std::string why;                 // the closed form in words (with its enclosures)
    std::string error, error_key;    // the instance does not fit the closed form
};
template <Interval I>
Theorem4ClosedForm<I> theorem4_closed_form(bool diagonal, const nets::HomogeneousArchitecture& arch, const nets::Mat<I>& X,
                                           const nets::Vec<I>& y, const nets::Vec<I>& ytilde, const I& c_loss,
                                           const KktExistence<I>& kkt, const I& c0, const std::vector<int>& sample_of);

// The exponent kappa = Delta / (Delta + 8 N*) of eq. (6) and the actual rate Delta_max / (2 N*) (docs/kh.md).
template <Interval I>
struct Theorem4Rates {
    I kappa, rate;
};
template <Interval I> Theorem4Rates<I> theorem4_rates(const I& Delta, const I& Dmax, const I& Nstar);

// One delta of the sweep: the certified sup distance E(delta) of psi(t + s_delta, delta w0) to p(t) on |t| <= T~.
// LimitPath: LogisticLimitPath<I> (p in closed form) or LyapunovPerronBall<I> (p enclosed without one,
// lyapunov_perron.hpp); both are instantiated.
template <Interval I, class LimitPath>
WindowDistance<I> theorem4_sweep_point(const taylor::VectorField& loss, const std::vector<I>& params, const std::vector<I>& w0,
                                       const I& delta, const Theorem4Shift<I>& shift, const LimitPath& path,
                                       const I& Ttilde, int grid, const ode::Options& opt, long bits);

// The exhibited C~ = E(delta_1) / delta_1^kappa rounded up to a double, and C~ delta^kappa.
template <Interval I> double power_law_constant(const I& E, const I& delta, const I& kappa);
template <Interval I> I power_law_bound(double C, const I& kappa, const I& delta, long bits);

#define FLOWCERT_PROOFS_KH_THEOREM4_STEPS_DECLARE(I, EXTERN)                                                                \
    EXTERN template std::optional<std::vector<I>> unit_direction<I>(const std::vector<I>&);                                \
    EXTERN template Theorem4Cap<I> theorem4_cap<I>(const nets::Ncf<I>&, const linalg::IVector<I>&, const I&, const I&,     \
                                                   const I&, const I&);                                                    \
    EXTERN template I alignment_with_kkt<I>(const nets::Ncf<I>&, const KktCandidateNonrigorous&, const KktExistence<I>&,  \
                                            const std::vector<I>&);                                                        \
    EXTERN template Theorem4Shift<I> theorem4_shift<I>(const linalg::IVector<I>&, const std::vector<I>&, const I&);        \
    EXTERN template Theorem4ClosedForm<I> theorem4_closed_form<I>(bool, const nets::HomogeneousArchitecture&,              \
                                                                  const nets::Mat<I>&, const nets::Vec<I>&,                \
                                                                  const nets::Vec<I>&, const I&, const KktExistence<I>&,   \
                                                                  const I&, const std::vector<int>&);                      \
    EXTERN template Theorem4Rates<I> theorem4_rates<I>(const I&, const I&, const I&);                                      \
    EXTERN template WindowDistance<I> theorem4_sweep_point<I, LogisticLimitPath<I>>(                                   \
        const taylor::VectorField&, const std::vector<I>&, const std::vector<I>&, const I&,                            \
        const Theorem4Shift<I>&, const LogisticLimitPath<I>&, const I&, int, const ode::Options&, long);               \
    EXTERN template WindowDistance<I> theorem4_sweep_point<I, LyapunovPerronBall<I>>(                                  \
        const taylor::VectorField&, const std::vector<I>&, const std::vector<I>&, const I&,                            \
        const Theorem4Shift<I>&, const LyapunovPerronBall<I>&, const I&, int, const ode::Options&, long);              \
    EXTERN template double power_law_constant<I>(const I&, const I&, const I&);                                           \
    EXTERN template I power_law_bound<I>(double, const I&, const I&, long);

FLOWCERT_PROOFS_KH_THEOREM4_STEPS_DECLARE(IntervalD, extern)
FLOWCERT_PROOFS_KH_THEOREM4_STEPS_DECLARE(IntervalMp, extern)

}  // namespace flowcert::proofs::kh
