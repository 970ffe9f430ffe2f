// flowcert/proofs/bf/trap_steps.hpp -- the steps of the trapping argument of docs/bf.md ("Proof of (c)",
// steps 2-6) as functions of the box at T (trap_box.hpp) and the trajectory-length budget Gamma: while the
// flow stays in the region {Gamma(t) = int_T^t |g| <= Gamma}, every function returns an upper bound (or a
// lower bound where its name says so) valid for every true trajectory whose state at T lies in the box.
// Every bound is monotone in Gamma (a larger Gamma only weakens it; tested). Interval arithmetic (IntervalD,
// outward rounding); nothing prints. Indices: samples k in {0, 1, 2} with 1 the middle point.
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/proofs/bf/trap_box.hpp>

#include <cstddef>

namespace flowcert::proofs::bf {

// ---- helpers (steps 3, 4) ------------------------------------------------------------------------
// |w_j(t) - w_j(T)| <= (s_j / sqrt 2)(e^Gamma - 1) + sqrt(b_j^+ / 2) Gamma (Lemma 1 and |theta_j(t)| <= s_j e^{Gamma(t)}).
IntervalD weight_drift(const IntervalD& s, const IntervalD& b, const IntervalD& G);
// sup |a_j(t)| <= s_j e^Gamma / sqrt 2 + sqrt(b_j^+ / 2).
IntervalD a_upper(const IntervalD& s, const IntervalD& b, const IntervalD& G);
// Steps 2', 3(d'): a pre-activation that must travel Z while the speed obeys |a_j(t)| >= A0 - B (t - T) covers it
// by tau = 2 Z / (A0 + sqrt(A0^2 - 2 B Z)) when A0 > 0 and A0^2 > 2 B Z (then tau <= A0 / B). +infinity otherwise.
double crossing_time_shrinking(const IntervalD& A0, const IntervalD& B, const IntervalD& Z);

// ---- residuals (steps 4, 5) ----------------------------------------------------------------------
// Step 4: r_k(t) in h_P(T) +- Delta_k(Gamma) - C_k - |x_k| S2_S e^{2 Gamma} / 2 - y_k.
IntervalD residual_step4(const TrapBox& box, std::size_t k, const IntervalD& G);
// Step 5: r_k(t) in r*_k +- (sqrt(2 lev_k (E(T) + qneg)) + |p|) (the smaller of the leverage and |x_k|^2/lambda_min forms).
IntervalD residual_step5(const TrapBox& box, std::size_t k, const IntervalD& G);
// Both enclose r_k(t) for all t >= T: their intersection. Two enclosures of one quantity that do not
// intersect prove an internal inconsistency: std::logic_error (the verifier reports ERROR).
IntervalD residual_bound(const TrapBox& box, std::size_t k, const IntervalD& G);
// r_k(t) <= -rho_k for t >= T (a point; rho_k <= 0: the premise fails).
IntervalD residual_margin(const TrapBox& box, std::size_t k, const IntervalD& G);
// sup_{t >= T} |g(t)| = |(1/n) X^T r|.
IntervalD gradient_bound(const TrapBox& box, const IntervalD& G);

// ---- output perturbation before T1 (step 5) -----------------------------------------------------
IntervalD perturbation(const TrapBox& box, std::size_t k, const IntervalD& G);  // pi_k >= |p_k(t)|
IntervalD perturbation_norm(const TrapBox& box, const IntervalD& G);          // >= |p|
IntervalD q_max(const TrapBox& box, const IntervalD& G);                      // >= sup q(p)
IntervalD q_neg(const TrapBox& box, const IntervalD& G);                      // >= sup -q(p)
// Step 5: |beta(t) - beta*| for t >= T.
IntervalD beta_distance(const TrapBox& box, const IntervalD& G);

// ---- step 2: N_k pinning ------------------------------------------------------------------------
// Upper bound of the time after T at which N neuron q has z_jk <= 0 (+infinity: no bound): the smaller of
// the Lemma 1 speed bound and step 2' (pinning_time_shrinking).
double pinning_time_one(const TrapBox& box, std::size_t q, const IntervalD& G);
double pinning_time_shrinking(const TrapBox& box, std::size_t q, const IntervalD& G);
IntervalD pinning_time(const TrapBox& box, const IntervalD& G);  // max over N neurons (tau_pin)
// The step-2 premise: every N_k neuron with z_jk(T)^+ > 0 has a speed bound until z_jk <= 0.
ProofResult pinning_premise(const TrapBox& box, const IntervalD& G);

// ---- step 3: S_i neurons ------------------------------------------------------------------------
// Lower bound of c_i(t) = r_2 <x_i, x_2> + r_i' <x_i, x_i'> for t >= T (a point).
IntervalD s_drift_lower(const TrapBox& box, std::size_t i, const IntervalD& G);
// min over S neurons and their needed samples of z_jk(T) - |x_k| dw_j(Gamma) (+infinity without S neurons);
// *arg receives the neuron index of the minimum.
IntervalD s_margin(const TrapBox& box, const IntervalD& G, std::size_t* arg = nullptr);
IntervalD s_speed_lower(const TrapBox& box, std::size_t q, const IntervalD& G);  // inf_t |a_j(t)| (a point)
IntervalD s_crossing_time(const TrapBox& box, const IntervalD& G);            // tau_S
IntervalD final_regime_time(const TrapBox& box, const IntervalD& G);          // tau = max(tau_pin, tau_S)
// Whether some neuron may not be in its final regime at T (N_k with z_jk(T)^+ > 0, or any S neuron).
bool early(const TrapBox& box);

// ---- step 3Q: negative neurons of undecided pattern (class Q) -----------------------------------
// Step 3Q(b): |theta_j(t)| <= s_j e^{Gamma(t)} for a Q neuron with |theta_j(T)| <= s_j, while r_1, r_3 < 0.
IntervalD negligible_norm_bound(const IntervalD& s, const IntervalD& G);
// |h_Q(x_k)(t)| <= |x_k| S2Q e^{2 Gamma} / 2 and h_Q(x_k) <= 0 (step 3Q(c)); 0 without Q neurons.
IntervalD negligible_output_bound(const TrapBox& box, std::size_t k, const IntervalD& G);
// The step-3Q premise: r_1(t), r_3(t) certainly < 0 in the region and r*_2 > 0 (proven and vacuous without Q).
ProofResult negligible_premise(const TrapBox& box, const IntervalD& G);
// Step 6Q: K with E(t) <= K (A(t) |g|^2 + sum_Q |theta_j'|^2) for a.e. t >= T1 (+infinity when the premise fails):
// K = max(1 / (2 lambda_min A_min), kappa2 c_phi / (n D_min^2)).
IntervalD lojasiewicz_constant(const TrapBox& box, const IntervalD& G);
// Step 6Q: int_{max(t_q, T1)}^infinity |g| <= 2 sqrt(K q_max / A_min) (0 without Q neurons).
IntervalD negligible_tail(const TrapBox& box, const IntervalD& G);

// ---- step 4: P neurons ----------------------------------------------------------------------
// min over P neurons and samples of z_jk(T) - |x_k| dw_j(Gamma) (a point; 0 without P neurons).
IntervalD p_margin(const TrapBox& box, const IntervalD& G, std::size_t* arg = nullptr);

// ---- step 6: PL and the trajectory length ----------------------------------------------------------
IntervalD a_min_moving(const TrapBox& box, const IntervalD& G);    // sum_P (|a_j(T)| - s_j (e^Gamma - 1))_+^2
IntervalD a_min_balanced(const TrapBox& box, const IntervalD& G);  // |beta*| - |beta - beta*| - |beta_S| + sum_P b_j / 2
IntervalD a_min(const TrapBox& box, const IntervalD& G);           // the larger: inf_{t >= T} sum_P a_j(t)^2
// Gamma*(Gamma): an upper bound of int_T^infinity |g| while the flow stays in the region.
IntervalD gamma_star(const TrapBox& box, const IntervalD& G);

}  // namespace flowcert::proofs::bf
