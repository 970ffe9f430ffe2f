// verifiers/bf/theorem2_report.hpp -- the tables of bf/theorem2_three_point (docs/bf.md,
// "bf/theorem2_three_point"): the snapshots of the certified tube and the constants of the trapping argument at T.
// Display only: every enclosure shown comes from nets or flowcert/proofs/bf, and none decides a check.
#pragma once

#include "bf_data.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace bf {

// The (b) snapshot table row of a state: positive/negative neuron counts and |beta_P - beta*| (display only).
inline std::vector<std::string> snapshot_row(const nets::TwoLayerModel<flowcert::IntervalD>& model,
                                             const nets::TwoLayerParams<flowcert::IntervalD>& th,
                                             const proofs::LeastSquares& ls, double t, const std::string& phase) {
    using flowcert::IntervalD;
    const auto z = nets::preactivations(model, th);
    IntervalD sa2(0), bx(0), by(0);
    std::size_t pa = 0, po = 0, nn = 0;
    for (std::size_t j = 0; j < th.m; ++j) {
        bool allpos = true;
        const bool allneg13 = certainly_negative(z[j * 3 + 0]) && certainly_negative(z[j * 3 + 2]);
        for (std::size_t k = 0; k < 3; ++k) allpos = allpos && certainly_positive(z[j * 3 + k]);
        if (certainly_positive(th.a[j])) {
            sa2 += sqr(th.a[j]);
            if (allpos) ++pa;
            else if (!allneg13) ++po;
        } else if (!allneg13) {
            ++nn;
        }
        if (allpos) {
            bx += th.a[j] * th.W(j, 0);
            by += th.a[j] * th.W(j, 1);
        }
    }
    const IntervalD db = sqrt(sqr(bx - IntervalD::from_decimal(ls.beta[0].str())) + sqr(by - IntervalD::from_decimal(ls.beta[1].str())));
    return {format_g(t), phase, to_string(nets::risk(model, th), 6), to_string(sa2, 4), std::to_string(pa), std::to_string(po), std::to_string(nn), to_string(db, 4)};
}

inline std::vector<std::string> snapshot_columns() {
    return {"t", "phase", "L(theta(t))", "sum_{a>0} a^2", "positive all-active", "positive other", "negative not frozen", "|beta_P - beta*|"};
}

// A double of a plain run with 10 significant digits (display only).
inline std::string plain_number(double v) {
    char b[64];
    std::snprintf(b, sizeof b, "%.10g", v);
    return b;
}

// The classes at T of the certified tube (docs/bf.md step 1) beside those of a plain double RK4 run of the same
// seed (proofs/bf/plain_runs.hpp, NON-RIGOROUS: exact signs of one floating-point trajectory; it decides nothing).
inline void plain_classes_table(cert::Report& R, const nets::TwoLayerModel<flowcert::IntervalD>& model, const proofs::TrapBox& box,
                                const std::array<flowcert::IntervalD, 3>& h,
                                const proofs::PlainRun& plain, const proofs::PlainTrapCounts& pc, double plain_h,
                                const proofs::LeastSquares& ls, long bits) {
    auto& tb = R.table("(c) classes at T: certified, and a plain double run of the same seed (NON-RIGOROUS, RK4 h = " + format_g(plain_h) + ", " +
                           std::to_string(plain.steps) + " steps, " + format_g(plain.seconds) + " s CPU)",
                       {"class at T", "certified (the box at T)", "plain double run (non-rigorous)"});
    const auto n = [](std::size_t v) { return std::to_string(v); };
    tb.add_row({"frozen (F)", n(box.frozen()), n(pc.frozen)});
    tb.add_row({"all-active (P)", n(box.P().size()), n(pc.P)});
    tb.add_row({"N_1, N_3 (negative, one sample)", n(box.N_count(0)) + ", " + n(box.N_count(2)), n(pc.N1) + ", " + n(pc.N3)});
    tb.add_row({"S_1, S_3 (negative, two samples)", n(box.S_count(0)) + ", " + n(box.S_count(2)), n(pc.S1) + ", " + n(pc.S3)});
    tb.add_row({"Q (negative for all t, pattern undecided)", n(box.Q().size()), "- (a plain state has exact signs)"});
    tb.add_row({"unclassified / other", n(box.unclassified()), n(pc.other)});
    tb.add_row({"E(T) = L(T) - L*", to_string(box.E_T(), 6), format_g(plain.loss - mid(to_interval_d(mp(ls.loss_paper, bits))))});
    for (std::size_t k = 0; k < 3; ++k)
        tb.add_row({"h(x_" + std::to_string(k + 1) + ")(T)", to_string(h[k], 10), plain_number(plain.residual[k] + mid(model.y(k)))});
}

// 1/K of step 6Q for the table ("none" when K is not finite: the step-6Q premises fail).
inline std::string q_rate(const flowcert::IntervalD& K) {
    using flowcert::IntervalD;
    if (!std::isfinite(upper(K)) || !(upper(K) > 0)) return "none (K not finite)";
    return to_string(IntervalD(1) / IntervalD::bounds(upper(K), upper(K)), 6);
}

// The enclosures of the trapping argument at T, at the chosen Gamma (docs/bf.md steps 1-7).
struct TrapConstants {
    double T = 0;
    flowcert::IntervalD loss_T, G, gstar, tau, Amin, margin;
    double Gamma = 0;
};

inline void trap_constants_table(cert::Report& R, const proofs::TrapBox& box, const proofs::ThreePointData& data,
                                 const TrapConstants& c) {
    using flowcert::IntervalD;
    const IntervalD& G = c.G;
    auto& tb = R.table("(c) trapping argument: constants at T", {"quantity", "enclosure"});
    const std::vector<std::pair<std::string, std::string>> rows = {
        {"T", format_g(c.T)}, {"L(theta(T))", to_string(c.loss_T, 10)}, {"E(T) = L(theta(T)) - L*", to_string(box.E_T(), 6)},
        {"lambda_min(H)", to_string(data.lambda_min, 8)}, {"|P| (all-active), sum_P |theta_j(T)|^2", std::to_string(box.P().size()) + ", " + to_string(box.S2(), 6)},
        {"N_1, N_3 (negative one-sample neurons)", std::to_string(box.N_count(0)) + ", " + std::to_string(box.N_count(2))},
        {"contribution bounds C_1, C_3", to_string(box.CN(0), 4) + ", " + to_string(box.CN(2), 4)},
        {"S_1, S_3 (negative two-sample neurons), sum_S |theta_j(T)|^2", std::to_string(box.S_count(0)) + ", " + std::to_string(box.S_count(2)) + ", " + to_string(box.S2S(), 6)},
        {"Q (negative, pattern undecided), sum_Q |theta_j(T)|^2", std::to_string(box.Q().size()) + ", " + to_string(box.S2Q(), 6)},
        {"Lojasiewicz constant K (step 6Q), tail 2 sqrt(K q_max / A_min)", to_string(proofs::lojasiewicz_constant(box, G), 6) + ", " + to_string(proofs::negligible_tail(box, G), 6)},
        {"tau_pin, tau_S", to_string(proofs::pinning_time(box, G), 6) + ", " + to_string(proofs::s_crossing_time(box, G), 6)},
        {"output perturbation q_max on [T, T1]", to_string(proofs::q_max(box, G), 6)}, {"A_moving (all t >= T)", to_string(proofs::a_min_moving(box, G), 6)},
        {"Gamma (chosen)", format_g(c.Gamma)}, {"Gamma*(Gamma)", to_string(c.gstar, 6)}, {"tau = max(tau_pin, tau_S) (T1 = T + tau)", to_string(c.tau, 6)},
        {"G0 = sup |g| for t >= T", to_string(proofs::gradient_bound(box, G), 6)}, {"A_min", to_string(c.Amin, 6)},
        {box.Q().empty() ? "PL rate 2 lambda_min A_min: E(t) <= E(T) exp(-rate (t - T1))" : "rate 1/K (step 6Q): E(t) <= E(T) exp(-rate (t - T1))",
         box.Q().empty() ? to_string(IntervalD(2) * data.lambda_min * c.Amin, 6) : q_rate(proofs::lojasiewicz_constant(box, G))},
        {"min margin", to_string(c.margin, 6)}};
    for (const auto& r : rows) tb.add_row({r.first, r.second});
    for (std::size_t k = 0; k < 3; ++k) tb.add_row({"r_" + std::to_string(k + 1) + "(t), t >= T (step 4 bound)", to_string(proofs::residual_step4(box, k, G), 6)});
}

}  // namespace bf
