// flowcert/proofs/rh/concentration.hpp -- an explicit bound delta(d) on the probability that the normalized
// Gram matrix G / tau of Gaussian data leaves the box of box.hpp (issue 17 item 2; docs/rh.md#concentration).
//
// Data: x_1, ..., x_n i.i.d. N(0, Sigma_d), Sigma_d = diag(lambda_1, ..., lambda_d) the first d entries of a
// non-increasing positive sequence (isotropic lambda_k = 1, power law lambda_k = k^-alpha, alpha >= 0);
// tau = tr Sigma_d, S2 = ||lambda||_2^2 = tr Sigma_d^2, lambda_1 = lambda_max. With Y = sum_k a_k (g_k^2 - 1),
// a_k >= 0, g_k i.i.d. N(0, 1), [LaurentMassart2000, Lemma 1]:
//   P(Y >= 2 ||a||_2 sqrt(x) + 2 ||a||_inf x) <= e^-x,   P(Y <= -2 ||a||_2 sqrt(x)) <= e^-x.
// Diagonal (a = lambda, G_ii - tau = Y): P(G_ii >= (1 + kappa) tau) <= e^-s^2 with s the positive root of
// 2 lambda_1 s^2 + 2 sqrt(S2) s = kappa tau, and P(G_ii <= (1 - kappa) tau) <= e^-x_-, x_- = kappa^2 tau^2 / (4 S2).
// Off-diagonal [DERIVED]: given x_j, <x_i, x_j> ~ N(0, v_j), v_j = x_j^T Sigma x_j = sum_k lambda_k^2 g_jk^2
// (a = lambda^2: sum a = S2, ||a||_2 <= lambda_1 sqrt(S2), ||a||_inf = lambda_1^2), so with
// V = S2 + 2 lambda_1 sqrt(S2 x_v) + 2 lambda_1^2 x_v: P(v_j >= V) <= e^-x_v and
// P(|G_ij| > eps tau, v_j < V) <= 2 Phi^c(eps tau / sqrt(V)) = erfc(eps tau / sqrt(2 V)) (no unknown constant).
// Union bound over the n diagonal entries, the n - 1 conditioning vectors x_2..x_n and the n(n-1)/2 pairs i < j:
//   delta(d) = n (e^-s^2 + e^-x_-) + (n - 1) e^-x_v + n(n-1)/2 erfc(eps tau / sqrt(2 V)),   x_v := theta x_-.
// [DERIVED] delta(d) is non-increasing in d: for a non-increasing sequence, tau^2 / S2, s, x_- and x_v are
// non-decreasing in d, and tau^2 / V = 1 / (S2/tau^2 + lambda_1 kappa sqrt(theta)/tau + lambda_1^2 theta kappa^2/(2 S2))
// is non-decreasing (docs/rh.md#concentration has the two-line proofs). So delta(d) <= delta(d0) for every d >= d0.
#pragma once

#include <flowcert/interval.hpp>

#include <string>

namespace flowcert::proofs::rh {

// A prefix family of diagonal covariances: "isotropic" (lambda_k = 1) or "power_law" (lambda_k = k^-alpha,
// alpha the exact real in the enclosure `alpha`, alpha >= 0). Both are non-increasing with lambda_1 = 1.
struct SpectrumFamily {
    std::string kind = "isotropic";
    IntervalD alpha{0};
};

// Enclosures of tau = sum_{k<=d} lambda_k, S2 = sum_{k<=d} lambda_k^2 and lambda_1 (power law: the integral
// bounds int_1^{d+1} f <= sum_{k<=d} f(k) <= 1 + int_1^d f of the decreasing f(x) = x^-p). Throws
// std::invalid_argument for an unknown kind, d < 1 or alpha < 0.
struct SpectrumSums {
    IntervalD trace, trace_sq, lambda_max;
};
SpectrumSums spectrum_sums(const SpectrumFamily& family, long long d);

// An enclosure of erfc(z) for z >= 0 (MPFR's correctly rounded erfc at both ends, directed rounding).
IntervalD erfc_enclosure(const IntervalD& z);

struct BoxProbability {
    IntervalD s2_diag_upper;   // s^2: exponent of the upper diagonal tail
    IntervalD x_diag_lower;    // x_-
    IntervalD x_variance;      // x_v = theta x_-
    IntervalD variance_level;  // V / tau^2 (the conditional variance bound, normalized)
    IntervalD p_diag_upper, p_diag_lower, p_variance, p_offdiag;  // the four terms, with their multiplicities
    IntervalD delta;           // their sum: P(G / tau not in the box) <= upper(delta)
};

// delta(d) of the header for n samples, the box {|G_ii/tau - 1| <= kappa, |G_ij|/tau <= eps} and theta > 0.
// Throws std::invalid_argument unless n >= 1, kappa > 0, eps > 0, theta > 0.
BoxProbability box_failure_bound(int n, const IntervalD& kappa, const IntervalD& eps, const SpectrumSums& sums,
                                 const IntervalD& theta = IntervalD(1));

// A d in [1, 2^52] with upper(delta(d)) <= target, found by doubling and bisection (the smallest such d when
// the evaluated bound is monotone, as delta(d) is; the returned d is checked rigorously), or -1 if none.
long long smallest_dimension(int n, const IntervalD& kappa, const IntervalD& eps, const SpectrumFamily& family,
                             double target, const IntervalD& theta = IntervalD(1));

}  // namespace flowcert::proofs::rh
