// lib/flowcert/proofs/kh/theorem4_limit_path.hpp -- the pieces of kh/theorem4_limit_path that tests use too:
// closed-form limiting paths p(t) [KH2025, Thm 4] and the certified sup distance sup_{|t| <= T~} ||psi(t + s, delta w0) - p(t)||.
//
// Closed forms (derived in docs/kh.md, section `kh/theorem4_limit_path`, and checked in
// tests/proofs/kh/test_kh_theorem4.cpp against a 50-digit Runge-Kutta integration):
//   p(t) := lim_{delta -> 0} psi(t + ln(1/delta)/(2 N(w*)), delta w*)     [KH2025, Thm 4]
// is, on the coordinates of the support of w*, sign * sqrt(q(t)) with the logistic
//   q(t) = A / (1 + B exp(-r t)),
// and exactly 0 elsewhere:
//  * weighted squares sum_k s_k w_k^2 x_k with inputs x_i = e_i (Example 1), loss c sum (p - y)^2,
//    w* = +-e_k, Q = s_k y_k > 0:  A = B = Q, r = 8 c Q = 4 N(w*)  (Example 1: p_1 = 2/sqrt(1 + 4e^{-32t}));
//  * diagonal net sum_k u_k v_k x_k with X X^T diagonal (S_k = 2c (X X^T)_kk), b = X ytilde,
//    w* = +-(e_k, e_k)/sqrt 2, b_k > 0:  A = b_k/S_k, B = 2 b_k/S_k, r = 2 b_k = 4 N(w*).
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/ode.hpp>
#include <flowcert/linalg.hpp>
#include <flowcert/nets.hpp>
#include <flowcert/taylor.hpp>
#include <flowcert/proofs/kh/lyapunov_perron.hpp>

#include <Eigen/Core>

#include <string>
#include <utility>
#include <vector>

namespace flowcert::proofs::kh {

// ---- closed-form limiting path ----------------------------------------------------------------------

// p_j(t) = sign * sqrt(A / (1 + B exp(-r t))) for j in `support`, 0 otherwise.
template <Interval I>
struct LogisticLimitPath {
    int dimension = 0;
    std::vector<int> support;
    int sign = 1;
    I A, B, r;

    // Encloses p(t) for every t in the interval `t` (monotone pieces evaluated in interval arithmetic).
    std::vector<I> at(const I& t) const {
        const I zero = A - A;
        std::vector<I> p(static_cast<std::size_t>(dimension), zero);
        const I q = A / (constant_like(A, 1) + B * exp(-(r * t)));
        const I s = sign > 0 ? sqrt(q) : -sqrt(q);
        for (int j : support) p[static_cast<std::size_t>(j)] = s;
        return p;
    }
};

// Example 1 family: weighted squares with x_i = e_i, loss scale c, KKT point sign * e_k, Q = s_k y_k.
template <Interval I>
LogisticLimitPath<I> weighted_squares_limit_path(int dimension, int k, int sign, const I& Q, const I& c);

// Diagonal net (u_1..u_d, v_1..v_d), X X^T diagonal: KKT point sign (e_k, e_k)/sqrt 2 with b_k > 0,
// S_k = 2c (X X^T)_kk.
template <Interval I>
LogisticLimitPath<I> diagonal_limit_path(int d, int k, int sign, const I& b, const I& S);

// ---- certified sup distance on the window ---------------------------------------------------------------

template <Interval I>
struct WindowPiece {
    double t_lo = 0, t_hi = 0;  // the piece covers t in [t_lo, t_hi] (window time t = tau - shift)
    std::vector<I> x;           // encloses psi(t + s, delta w0) for every t of the piece
    std::vector<I> p;           // encloses p(t) for every t of the piece
    I distance;                 // encloses ||psi(t + s) - p(t)|| for every t of the piece
    bool certainly_inside = false;  // the piece lies in [-T~, T~] for the true shift
};

template <Interval I>
struct WindowDistance {
    bool ok = false;
    std::string reason = "not run";
    double tau_start = 0;  // exact double <= s - T~ where the difference system starts
    double duration = 0;   // it runs for this time (exact double), past s + T~
    long steps_before = 0, steps_window = 0;
    double sup_lower = 0;  // sup_{|t| <= T~} ||psi(t + s, delta w0) - p(t)|| >= sup_lower
    double sup_upper = 0;  // ... <= sup_upper
    double argmax_t = 0;   // where the lower bound was found (approximately)
    std::vector<WindowPiece<I>> pieces;
};

// Certified enclosure of E = sup_{t in [-T~, T~]} ||psi(t + s, delta w0) - p(t)||_2 for the true shift s
// in the enclosure `shift`:
//  1. psi(tau_a, delta w0) by the flow `loss` (or its reversal when tau_a < 0), tau_a = a double <= s - T~;
//  2. the difference system from (p(tau_a - s), psi(tau_a) - p(tau_a - s)) over [tau_a, tau_a + D] with
//     tau_a + D >= s + T~, one tube piece per step, `grid` output times forcing short steps;
//  3. per piece, t in (tube time + tau_a - s) and ||e|| over the piece's box: the upper bound is the max over
//     pieces that may meet the window (every t of the window is in some piece); the lower bound is the max of
//     lower(||e||) over output snapshots (one time each) certainly inside the window.
template <Interval I>
WindowDistance<I> certified_window_distance(const taylor::VectorField& loss, const std::vector<I>& params,
                                            const std::vector<I>& x0, const LogisticLimitPath<I>& path,
                                            const I& shift, const I& Ttilde, int grid, ode::Options opt, long bits);

// The same with p enclosed without a closed form: p at the window start by the Lyapunov-Perron ball carried by the
// loss-flow tube (lyapunov_perron.hpp), p on the pieces by the difference system's p block.
template <Interval I>
WindowDistance<I> certified_window_distance(const taylor::VectorField& loss, const std::vector<I>& params,
                                            const std::vector<I>& x0, const LyapunovPerronBall<I>& ball,
                                            const I& shift, const I& Ttilde, int grid, ode::Options opt, long bits);

// ---- the stable set: the NCF tube from w0 enters the Lemma 23/24 cap ------------------------------------------
// The certified tube of u' = grad N(u) from w0 in chunks of 0.5 (9 outputs each) until the cosine to w* is certainly
// above 1 - gamma (`cap`) or t >= horizon; for L = 2 grad N is 1-homogeneous, so phi(t)/|phi(t)| in the cap gives,
// by [KH2025, Lemma 24], w*^T w(t)/|w(t)| >= 1 - gamma e^{-Delta t} -> 1 (docs/kh.md#verifier-khtheorem4_limit_path).
template <Interval I>
struct CosineCapEntry {
    double t = 0;       // flow time reached
    double t_in = -1;   // first time the cosine is certainly above 1 - gamma (-1: not reached)
    I cos_in, cos_last; // the cosine there, and at the end of the last chunk
    std::string fail;   // why the tube stopped early (empty: reached or horizon)
    std::vector<std::pair<double, I>> trace;  // (t, cosine enclosure) along the tube, for plots
};
template <Interval I>
CosineCapEntry<I> ncf_cosine_enters_cap(const taylor::VectorField& ncf_field, const std::vector<I>& ncf_params,
                                        const std::vector<I>& w0, const linalg::IVector<I>& wstar, const I& cgam,
                                        double horizon, const ode::Options& options, long bits);

// NON-RIGOROUS: the direction of the NCF flow u' = grad N(u) from u0 for large t, by the Euler map
// u <- (u + h grad N(u)) / |.| with h = 1/(2 ||Hess N||_inf). For L = 2, grad N(u) = A u, and the Euler map
// I + hA has the eigenvalues 1 + h lambda > 0 in the order of A's, so its iterates tend to the direction of
// the top eigen-component present in u0: the same limit as the flow. Only a start for Newton.
Eigen::VectorXd ncf_flow_direction_nonrigorous(const nets::Ncf<double>& ncf, Eigen::VectorXd u, int iterations);

#define FLOWCERT_PROOFS_KH_THEOREM4_DECLARE(I, EXTERN)                                                                 \
    EXTERN template LogisticLimitPath<I> weighted_squares_limit_path<I>(int, int, int, const I&, const I&);              \
    EXTERN template LogisticLimitPath<I> diagonal_limit_path<I>(int, int, int, const I&, const I&);                      \
    EXTERN template WindowDistance<I> certified_window_distance<I>(const taylor::VectorField&, const std::vector<I>&,   \
                                                                   const std::vector<I>&, const LogisticLimitPath<I>&, \
                                                                   const I&, const I&, int, ode::Options, long);        \
    EXTERN template WindowDistance<I> certified_window_distance<I>(const taylor::VectorField&, const std::vector<I>&,   \
                                                                   const std::vector<I>&, const LyapunovPerronBall<I>&, \
                                                                   const I&, const I&, int, ode::Options, long);        \
    EXTERN template CosineCapEntry<I> ncf_cosine_enters_cap<I>(const taylor::VectorField&, const std::vector<I>&,       \
                                                               const std::vector<I>&, const linalg::IVector<I>&,        \
                                                               const I&, double, const ode::Options&, long);

FLOWCERT_PROOFS_KH_THEOREM4_DECLARE(IntervalD, extern)
FLOWCERT_PROOFS_KH_THEOREM4_DECLARE(IntervalMp, extern)

}  // namespace flowcert::proofs::kh
