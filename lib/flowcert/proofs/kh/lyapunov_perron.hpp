// flowcert/proofs/kh/lyapunov_perron.hpp -- the limiting path p(t) of [KH2025, Thm 4] (L = 2) enclosed without a closed
// form: the Lyapunov-Perron fixed point near t = -inf, then a rigorous tube of the loss flow. Derivation and proof that
// the fixed point is the paper's p(t) = lim_{delta->0} psi(t + ln(1/delta)/(2N*), delta w*): docs/kh.md, section
// "Limiting path by Lyapunov-Perron" [DERIVED].
//
// For an L = 2 polynomial model H(x_i; w) = w^T B_i w / 2 (B_i = Hess_w H(x_i; .), constant) and the loss
// c sum_i (H_i - y_i)^2, the loss flow is w' = A w + g(w) with A = sum_i ytilde_i B_i = Hess N (ytilde = 2cy) and
// g(w) = -c sum_i (w^T B_i w) B_i w, |g(w)| <= G |w|^3, |Dg(w)| <= 3 G |w|^2, G = c sum_i ||B_i||_F^2.
// With lambda = 2N* (A w* = lambda w*) and Lambda >= lambda_max(A), the map
//   (T q)(t) = int_{-inf}^t e^{A(t-s)} g(e^{lambda s} w* + q(s)) ds
// sends the ball sup_{t<=t0} e^{-3 lambda t}|q(t)| <= K into itself when G R^3/(3 lambda - Lambda) <= K,
// R = 1 + K e^{2 lambda t0}, and contracts when theta = 3 G R^2 e^{2 lambda t0}/(5 lambda - Lambda) < 1; its fixed
// point q gives p(t) = e^{lambda t} w* + q(t), so |p(t0) - e^{lambda t0} w*| <= K e^{3 lambda t0}.
// Instantiated for IntervalD and IntervalMp.
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/linalg.hpp>
#include <flowcert/nets.hpp>
#include <flowcert/ode.hpp>
#include <flowcert/taylor.hpp>

#include <string>
#include <vector>

namespace flowcert::proofs::kh {

// Test-only mutations (the project's pattern): each makes the enclosure unsound on purpose, for the planted-failure
// tests of tests/proofs/kh/test_kh_lyapunov_perron.cpp. Never set outside tests.
struct LyapunovPerronMutations {
    bool test_only_drop_ball_UNSOUND = false;       // p(t0) := e^{lambda t0} w* (no radius K e^{3 lambda t0})
    double test_only_time_scale_UNSOUND = 0;        // p(t0) := e^{lambda t0 (1 + this)} w* + ball
};

template <Interval I>
struct LyapunovPerronBall {
    bool ok = false;
    std::string reason = "not run";
    I G;          // c sum_i ||B_i||_F^2: |g(w)| <= G |w|^3
    I lambda;     // 2 N*: A w* = lambda w*
    I Lambda;     // >= lambda_max(A)
    double t0 = 0;  // exact double: the ball holds for t <= t0
    double K = 0;   // the ball's radius in the weight e^{-3 lambda t}
    I R;          // 1 + K e^{2 lambda t0}
    I self_map;   // G R^3 / (3 lambda - Lambda): <= K proves T(ball) in ball
    I theta;      // 3 G R^2 e^{2 lambda t0} / (5 lambda - Lambda): < 1 proves the contraction
    I radius;     // K e^{3 lambda t0}
    std::vector<I> p_t0;  // encloses p(t0) = e^{lambda t0} w* + q(t0), |q(t0)| <= radius (Euclidean ball in a box)
};

// The ball at t0 (t0 = 0 or any value >= the automatic one: the automatic t0, where K e^{2 lambda t0} <= 1e-17, i.e.
// the ball is below the rounding of the leading term). `wstar` encloses the unit KKT point, `lambda` encloses 2N*,
// `Lambda` bounds lambda_max(Hess N) from above (its upper end is used).
template <Interval I>
LyapunovPerronBall<I> lyapunov_perron_ball(const nets::HomogeneousArchitecture& arch, const nets::Mat<I>& X, const I& c_loss,
                                           const linalg::IVector<I>& wstar, const I& lambda, const I& Lambda, double t0,
                                           bool automatic_t0, long bits, const LyapunovPerronMutations& mut = {});

// p(t) for every t in [t_lo, t_hi] (doubles, t0 <= t_lo <= t_hi): the certified loss-flow tube from the ball at t0 to
// t_lo, then an a-priori box over [t_lo, t_hi] (the tube over that duration, hull of its pieces).
template <Interval I>
struct LimitPathEnclosure {
    bool ok = false;
    std::string reason = "not run";
    std::vector<I> p;  // encloses p(t) for every t in [t_lo, t_hi]
    long steps = 0;
};
template <Interval I>
LimitPathEnclosure<I> limit_path_from_ball(const taylor::VectorField& loss, const std::vector<I>& params,
                                           const LyapunovPerronBall<I>& ball, double t_lo, double t_hi, ode::Options opt,
                                           long bits);

#define FLOWCERT_PROOFS_KH_LP_DECLARE(I, EXTERN)                                                                      \
    EXTERN template LyapunovPerronBall<I> lyapunov_perron_ball<I>(const nets::HomogeneousArchitecture&,               \
                                                                  const nets::Mat<I>&, const I&,                      \
                                                                  const linalg::IVector<I>&, const I&, const I&,      \
                                                                  double, bool, long, const LyapunovPerronMutations&); \
    EXTERN template LimitPathEnclosure<I> limit_path_from_ball<I>(const taylor::VectorField&, const std::vector<I>&,  \
                                                                  const LyapunovPerronBall<I>&, double, double,       \
                                                                  ode::Options, long);

FLOWCERT_PROOFS_KH_LP_DECLARE(IntervalD, extern)
FLOWCERT_PROOFS_KH_LP_DECLARE(IntervalMp, extern)

}  // namespace flowcert::proofs::kh
