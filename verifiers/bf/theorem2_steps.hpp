// verifiers/bf/theorem2_steps.hpp -- the checks of bf/theorem2_three_point (docs/bf.md, "bf/theorem2_three_point"):
// the names of the steps, the data steps (c) and the trapping argument from the box at T (steps 1-7), each step a
// call of flowcert/proofs/bf (trap_tracking, trap_box, trap_steps, trap_fixed_point) recorded as a check.
#pragma once

#include "bf_data.hpp"
#include "theorem2_hypothesis_checks.hpp"
#include "theorem2_report.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

namespace bf {

using flowcert::IntervalD;
using flowcert::IntervalMp;

inline const char* const c_geom = "(c) three-point geometry";
inline const char* const c_lstar = "(c) least-squares loss L* > 0";
inline const char* const c_lmin = "(c) lambda_min(X^T X / n) > 0";
inline const char* const b_tube = "(b) certified tube reaches T";
inline const char* const b_loss = "(b) loss on [0, T] bounded below by a positive number";
inline const char* const c_class = "(c) every neuron at T is frozen, all-active (P), a negative one-sample neuron (N_k), a negative two-sample neuron (S_i) or negative for all t (Q)";
inline const char* const c_speed = "(c) N_k neurons: |a_j(t)| bounded away from 0 until z_jk <= 0 (Lemma 1 or step 2')";
inline const char* const c_res = "(c) residual sign r_k(t) < 0 at the samples of N_k and S_k neurons (both extreme samples with Q neurons)";
inline const char* const c_sdrift = "(c) S_i neurons: c_i(t) = r_2 <x_i, x_2> + r_i' <x_i, x_i'> > 0 (z_ji increases while negative)";
inline const char* const c_smarg = "(c) S_i neurons stay active on x_2 and x_i' (margin at Gamma), |a_j| bounded away from 0";
inline const char* const c_amin = "(c) A_min = inf sum_P a_j^2 > 0";
inline const char* const c_marg = "(c) P neurons stay all-active (margin at Gamma)";
inline const char* const c_boot = "(c) trajectory-length bootstrap Gamma* < Gamma";
inline const char* const c_concl = "(c) conclusion: predictions -> x_k^T beta*, L(theta(t)) >= L* > 0 for all t >= 0";
inline const char* const h_eq4 = "eq. (4) at initialization: |a_j(0)| >= |w_j(0)| for every neuron";
inline const std::vector<std::string> kSteps = {c_geom, c_lstar, c_lmin, b_tube, b_loss, c_class, c_speed, c_res, c_sdrift, c_smarg, c_amin, c_marg, c_boot};

// (c) the data steps: the three-point geometry, L* > 0 and lambda_min(H) > 0. Empty, or why the argument stops.
inline std::string data_steps(cert::Report& R, const Theorem2Data& t2, long bits, Quantities& Q) {
    const auto& ls = t2.ls;
    const bool three = t2.data.n == 3 && t2.data.d == 2;
    const bool setting = three && t2.data.gamma == 0 && t2.data.loss == nets::LossKind::half_square && ls.ok;
    R.step(c_geom, "[BF2025, Lemma 8 proof; docs/bf.md step 0]")
        .statement("ReLU, half-square loss, n = 3, d = 2, X of full rank, <x_k, x_l> > 0, x_2 in the open cone of x_1, x_3")
        .result(setting ? t2.order.geometry : flowcert::ProofResult::not_proven("needs n = 3 points in d = 2, ReLU, the half-square loss and X of full rank"));
    if (R.find_check(c_geom)->status != cert::CheckStatus::proven) return "no three-point setting";
    R.step(c_lstar, "[BF2025, Thm 2]").statement("the least-squares fit does not interpolate").positive({"L* = (1/(2n)) sum r*_k^2", mp(ls.loss_paper, bits)});
    const IntervalMp lmin_mp = proofs::lambda_min(proofs::gram_over_n(t2.data), bits);
    R.step(c_lmin, "[docs/bf.md step 6]").positive({"lambda_min(H)", lmin_mp});
    Q.set("lambda_min_H", lmin_mp);
    if (R.find_check(c_lstar)->status != cert::CheckStatus::proven || R.find_check(c_lmin)->status != cert::CheckStatus::proven)
        return "L* > 0 or lambda_min(H) > 0 not proven";
    return {};
}

// (c) step 1: every neuron at T classified (docs/bf.md step 1), and the box at T. Empty, or why not.
inline std::string classify_at_T(cert::Report& R, const nets::TwoLayerModel<IntervalD>& model, const nets::FlowResult& res,
                          const proofs::TubeTracker& tracker, const proofs::ThreePointData& data, bool lumped,
                          proofs::TrapBox& box) {
    const auto& th = res.state;
    const auto z = nets::preactivations(model, th);
    const auto h = proofs::outputs_at_end(model, res, lumped);
    std::vector<proofs::TrapNeuron> neurons;
    std::string first_bad;
    for (std::size_t j = 0; j < th.m; ++j) {
        neurons.push_back(tracker.neuron_at_T(j, th.a[j], th.W(j, 0), th.W(j, 1), {z[j * 3], z[j * 3 + 1], z[j * 3 + 2]}));
        if (neurons.back().cls == proofs::NeuronClass::unclassified && first_bad.empty()) first_bad = neurons.back().note;
    }
    box = proofs::make_trap_box(data, neurons, proofs::e_at_T(data, {h[0], h[1], h[2]}));
    R.step(c_class, "[BF2025, Sec. 4.1.3; docs/bf.md step 1]")
        .holds(box.unclassified() == 0, std::to_string(box.frozen()) + " frozen, " + std::to_string(box.P().size()) + " all-active, " +
                                            std::to_string(box.N_count(0)) + " N_1, " + std::to_string(box.N_count(2)) + " N_3, " +
                                            std::to_string(box.S_count(0)) + " S_1, " + std::to_string(box.S_count(2)) + " S_3, " +
                                            std::to_string(box.Q().size()) + " Q, " + std::to_string(box.unclassified()) + " unclassified" +
                                            (box.unclassified() ? " (first: " + first_bad + "); a longer horizon T may resolve it" : ""));
    return box.unclassified() == 0 ? std::string() : "a neuron at T is not classified";
}

// (c) steps 2-5 at Gamma: N_k pinning, residual signs, the S_i neurons.
inline void trap_sign_steps(cert::Report& R, const proofs::TrapBox& box, const IntervalD& G, const std::string& atG) {
    R.step(c_speed, "[BF2025, Lemma 1; docs/bf.md step 2]").result(proofs::pinning_premise(box, G));
    std::string rs;
    double worst = -std::numeric_limits<double>::infinity();
    for (std::size_t k : {std::size_t(0), std::size_t(2)}) {
        if (box.N_count(k) == 0 && box.S_count(k) == 0 && box.Q().empty()) continue;
        const IntervalD rk = proofs::residual_bound(box, k, G);
        rs += (rs.empty() ? "" : "; ") + std::string("r_") + std::to_string(k + 1) + "(t) in " + to_string(rk, 6);
        worst = std::max(worst, upper(rk));
    }
    if (rs.empty()) R.step(c_res, "[BF2025, Assumption 6; docs/bf.md step 5]").trivially_true("no N_k, S_k or Q neuron at T").holds(true, "vacuous");
    else R.step(c_res, "[BF2025, Assumption 6; docs/bf.md step 5]").statement(rs + atG).lt({"max_k sup_{t >= T} r_k(t)", IntervalD::bounds(worst, worst)}, cert::exact("0", "0"));
    if (box.S().empty()) {
        R.step(c_sdrift, "[docs/bf.md step 3]").trivially_true("no S_i neuron at T").holds(true, "vacuous");
        R.step(c_smarg, "[docs/bf.md step 3]").trivially_true("no S_i neuron at T").holds(true, "vacuous");
        return;
    }
    double cl = std::numeric_limits<double>::infinity();
    for (std::size_t i : {std::size_t(0), std::size_t(2)})
        if (box.S_count(i)) cl = std::min(cl, lower(proofs::s_drift_lower(box, i, G)));
    R.step(c_sdrift, "[docs/bf.md step 3]").statement("c_i(t) > 0 for all t >= T" + atG).lt(cert::exact("0", "0"), {"min_i inf_{t >= T} c_i(t)", IntervalD::bounds(cl, cl)});
    std::size_t sj = 0;
    const IntervalD ms = proofs::s_margin(box, G, &sj);
    double al = std::numeric_limits<double>::infinity();
    for (std::size_t q = 0; q < box.S().size(); ++q) al = std::min(al, lower(proofs::s_speed_lower(box, q, G)));
    R.step(c_smarg, "[BF2025, Lemma 1; docs/bf.md step 3]")
        .statement("margin " + to_string(ms, 6) + " (tightest: neuron " + std::to_string(sj) + "), inf |a_j| >= " + format_g(al) +
                   "; tau_S <= " + format_g(upper(proofs::s_crossing_time(box, G))) + atG)
        .lt(cert::exact("0", "0"), {"min(min_{j in S, k} z_jk(T) - |x_k| dw_j(Gamma), min_{j in S} |a_j|_lower)", min(ms, IntervalD::bounds(al, al))});
}

// (c) steps 2-7 from the box at T: Gamma chosen (a heuristic; every premise is checked at it), then the steps and
// the table of constants.
inline void trap_steps(cert::Report& R, const proofs::TrapBox& box, const proofs::ThreePointData& data,
                const nets::TwoLayerModel<IntervalD>& model, const nets::FlowResult& res) {
    const proofs::GammaChoice gc = proofs::choose_gamma(box);
    if (!gc.fixed_point) R.note(gc.diagnostic);
    const IntervalD G = IntervalD::bounds(gc.Gamma, gc.Gamma);
    const std::string atG = " (bounds valid for all t >= T while Gamma(t) <= Gamma = " + format_g(gc.Gamma) + ")";
    trap_sign_steps(R, box, G, atG);
    const IntervalD Amin = proofs::a_min(box, G);
    R.step(c_amin, "[docs/bf.md step 6]").statement("sum_P a_j(t)^2 >= A_min for all t >= T" + atG).lt(cert::exact("0", "0"), {"A_min", Amin});
    std::size_t pj = 0;
    const IntervalD marg = proofs::p_margin(box, G, &pj);
    R.step(c_marg, "[docs/bf.md step 4]")
        .statement("every P neuron stays strictly active on every sample (tightest: neuron " + std::to_string(pj) + ")" + atG)
        .lt(cert::exact("0", "0"), {"min_{j in P, k} z_jk(T) - |x_k| dw_j(Gamma)", marg});
    const IntervalD gstar = proofs::gamma_star(box, G), tau = proofs::final_regime_time(box, G);
    R.step(c_boot, "[docs/bf.md step 7]")
        .statement("the region {Gamma(t) < Gamma} cannot be left, so the flow stays in it for all t >= T; then T1 = T + tau <= " +
                   format_g(res.t_reached + upper(tau)) +
                   (box.Q().empty() ? std::string(" and E(t) <= E(T) exp(-2 lambda_min A_min (t - T1)) -> 0")
                                    : std::string(" and E(t) <= E(T) exp(-(t - T1) / K) -> 0 (docs/bf.md step 6Q)")))
        .lt({"Gamma*(Gamma), docs/bf.md step 6", gstar}, {"Gamma", G});
    trap_constants_table(R, box, data, {.T = res.t_reached, .loss_T = nets::risk(model, res.state), .G = G, .gstar = gstar,
                                        .tau = tau, .Amin = Amin, .margin = marg, .Gamma = gc.Gamma});
}

}  // namespace bf
