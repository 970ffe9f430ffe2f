// flowcert/proofs/bf/initialization_band.hpp -- the probability layer of the "for every m" certificate of
// [BF2025, Theorem 2] (issue 20, stretch; docs/bf.md "Theorem 2 for every m: the initialization band" [DERIVED]).
//
// Balanced Gaussian initialization in d = 2 (eq. (3) with InitKind::balanced_gaussian): w~_j ~ N(0, I_2),
// a~_j = s_j |w~_j|, s_j uniform in {-1, +1}, all independent. Then phi_j = angle(w~_j) is uniform on [0, 2 pi),
// rho_j = |w~_j|^2 ~ chi^2_2, and (s_j, phi_j, rho_j) are independent. The cell variable
//   u_j = (phi_j / (2 pi) + [s_j > 0]) / 2  in [0, 1)   is uniform;
// the C = 2K cells [c / C, (c + 1) / C) are (sign, arc): c < K negative, arc [2 pi c / K, 2 pi (c + 1) / K).
// The band at width m (for a split delta = delta_angles + delta_scales):
//   (mass)    |N_c / m - 1/C| <= 2 e  for every c, with e = sqrt(ln(2 / delta_angles) / (2 m));
//   (moment)  S_c = (1/m) sum_{j in c} rho_j  in  [max(0, 2 q_lo - 2 sqrt(2 q_hi x / m)), 2 q_hi + 2 sqrt(2 q_hi x / m) + 2 x / m],
//             q_lo = max(0, 1/C - 2 e), q_hi = min(1, 1/C + 2 e), x = ln(2 C / delta_scales).
// P(band fails) <= 2 exp(-2 m e^2) + 2 C e^-x <= delta, by:
//   [Massart 1990] DKW with constant 2: P(sup_u |F_m(u) - u| > e) <= 2 exp(-2 m e^2) for every m and e > 0
//     (the mass condition is a difference of two CDF values, hence 2 e);
//   [LaurentMassart2000, Lemma 1] for Z ~ chi^2_k: P(Z - k >= 2 sqrt(k x) + 2 x) <= e^-x, P(k - Z >= 2 sqrt(k x)) <= e^-x;
//     given the cells of all neurons, the rho_j in cell c are i.i.d. chi^2_2 (rho is independent of (s, phi)),
//     so m S_c ~ chi^2_{2 N_c}; with q = N_c / m in [q_lo, q_hi] the two tails give the moment interval;
//   a union bound over the two angle events and the 2 C scale tails.
// [DERIVED] Nesting: e, 1/m and q_hi are non-increasing in m and q_lo non-decreasing, so every end of the band
// moves inward as m grows: band(m) is inside band(m0) for m >= m0 (band_inside checks it for given widths).
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/nets.hpp>

#include <vector>

namespace flowcert::proofs::bf {

// 2 exp(-2 m e^2) [Massart 1990], an outward enclosure. Throws std::invalid_argument unless m >= 1, e > 0.
IntervalD dkw_massart_tail(long long m, const IntervalD& e);
// A double e with upper(dkw_massart_tail(m, e)) <= upper(delta): e = upper(sqrt(ln(2/delta) / (2m))), then rechecked.
double dkw_radius(long long m, const IntervalD& delta);

// Laurent-Massart thresholds for Z ~ chi^2_k: P(Z >= upper) <= e^-x and P(Z <= lower) <= e^-x,
// upper = k + 2 sqrt(k x) + 2 x, lower = k - 2 sqrt(k x) (enclosures; use upper(upper), lower(lower)).
struct ChiSquareThresholds {
    IntervalD lower, upper;
};
ChiSquareThresholds laurent_massart_thresholds(long long k, const IntervalD& x);

struct BandCell {
    IntervalD mass;           // N_c / m
    IntervalD second_moment;  // S_c = (1/m) sum_{j in c} |w~_j|^2 (the outputs at t = 0 scale with lambda^2 S_c)
};

struct InitializationBand {
    long long m = 0;
    int arcs = 0;                 // K; cells C = 2K
    double dkw_e = 0;             // e of the mass condition
    IntervalD x_scales;           // x of the moment condition
    IntervalD delta_angles, delta_scales, delta;  // the two terms and their sum: P(outside the band) <= upper(delta)
    std::vector<BandCell> cells;  // c < K: s = -1, arc c; c >= K: s = +1, arc c - K
};

// The band of the header at width m with K arcs; P(outside) <= delta_angles + delta_scales.
// Throws std::invalid_argument unless m >= 1, K >= 1, both deltas in (0, 1).
InitializationBand balanced_gaussian_band(long long m, int arcs, const IntervalD& delta_angles, const IntervalD& delta_scales);

// Every cell interval of `inner` inside the one of `outer` (same K).
bool band_inside(const InitializationBand& inner, const InitializationBand& outer);

// The empirical cell quantities of one initialization (exact generated doubles: the cell of a neuron from its
// w~ by exact sign comparisons of the coordinates and an enclosure of the angle; a neuron whose enclosure
// straddles a cell boundary is counted in the cell hull, so the result encloses the true N_c / m and S_c).
std::vector<BandCell> empirical_cells(const nets::InitSpec& spec, const nets::Initialization<IntervalD>& init, int arcs);

// [DERIVED] The tighter band: a Chernoff bound on each cell's second moment directly, no masses. Y_c = m S_c is a sum
// of m i.i.d. X_j = rho_j [u_j in c] with E e^{t X} = M(t) = 1 - p + p / (1 - 2t) (t < 1/2, p = 1/C), so
//   P(S_c >= v) <= exp(-m J_+(t, v)),  J_+ = t v - ln M(t)   (0 < t < 1/2),
//   P(S_c <= v) <= exp(-m J_-(t, v)),  J_- = -t v - ln M(-t)  (t > 0),
// a union over the 2C tails. For fixed (t, v) with J > 0 each bound decreases in m, so the band computed at m0
// holds with the same delta for every m >= m0 (no nesting argument needed). t and v are chosen by a plain-double
// search; only the J's (IntervalD) and the tails carry the proof. `dkw_e` is 0 and every mass is [0, 1] (unused).
InitializationBand chernoff_band(long long m0, int arcs, const IntervalD& delta);
// exp(-m J_+(t, v)) and exp(-m J_-(t, v)) for p = 1/C, enclosures (entire() when J is not certainly > 0).
IntervalD chernoff_upper_tail(long long m, int cells, double t, double v);
IntervalD chernoff_lower_tail(long long m, int cells, double t, double v);

// The outputs at t = 0 as band sums (docs/bf.md, "Theorem 2 for every m", item 1): with the polar form
// theta_j(0) = (lambda/sqrt m) sqrt(rho_j) (s_j, cos phi_j, sin phi_j), a_j sigma(<w_j, x_k>) = (lambda^2/m) rho_j s_j
// relu(<u(phi_j), x_k>), so h_k(0) is in lambda^2 sum_c S_c s_c hull_{phi in arc c} relu(<u(phi), x_k>), for every draw
// whose cell second moments lie in `cells` (m does not appear). d = 2 (the bias coordinate included), ReLU.
std::vector<IntervalD> band_outputs_at_zero(const nets::TwoLayerModel<IntervalD>& model, const IntervalD& lambda,
                                            const std::vector<BandCell>& cells, int arcs);

// Every empirical cell inside the band (a check of one draw; the certificate does not need it).
bool draw_in_band(const std::vector<BandCell>& empirical, const InitializationBand& band);

}  // namespace flowcert::proofs::bf
