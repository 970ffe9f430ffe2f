// verifiers/bf/theorem2_hypothesis_checks.hpp -- part (a) of the Theorem 2 certificate, recorded by
// bf/theorem2_hypotheses and bf/theorem2_three_point: the data hypotheses of [BF2025, Sec. 4, App. A]
// (proofs/bf/theorem2_data.hpp), either Assumption 3 with eta < 1/6 (route "assumption3"; Lemma 8 then gives
// Assumptions 4-6 and r_2 > 0, recorded with `lemma8_role`) or Assumptions 4, 5 and 6 directly (route
// "assumptions4to6", Theorem 4; then r_2 > 0 is recorded with `lemma8_role`). A violated hypothesis is
// disproven (OUTSIDE_HYPOTHESES). The middle point is found from the cone geometry (a data set listed in
// another point order is the same data set).
#pragma once

#include <string>

#include "bf_data.hpp"

namespace bf {

struct Theorem2Data {
    nets::AlignmentData data;
    proofs::LeastSquares ls;
    proofs::ThreePointOrder order;  // the middle point (n = 3, d = 2)
    proofs::Assumption3 a3;
    proofs::Assumptions456 a;
};

inline Theorem2Data theorem2_data(const nets::TwoLayerSpec& spec) {
    Theorem2Data t;
    t.data = nets::alignment_data(spec);
    t.ls = proofs::least_squares(t.data);
    t.order = proofs::three_point_order(t.data);
    t.a3 = proofs::check_assumption3(t.data, t.order.order);
    t.a = proofs::check_assumptions_456(t.data);
    return t;
}

namespace t2names {
inline const char* setting = "ReLU and the half-square loss (Sec. 4 setting)";
inline const char* invertible = "X^T X invertible (beta* defined)";
inline const char* a3_shape = "Assumption 3: eta-independent conditions";
inline const char* a3_eta = "Assumption 3: least admissible eta < 1/6";
inline const char* a4 = "Assumption 4";
inline const char* a5_K = "Assumption 5: extreme points K found";
inline std::string a5(std::size_t k) { return "Assumption 5, k = " + std::to_string(k + 1); }
inline std::string a6(std::size_t k) { return "Assumption 6 sign condition, k = " + std::to_string(k + 1); }
inline const char* middle = "middle residual positive (Lemma 8)";
}  // namespace t2names

// Registers the checks of part (a) for `route` ("assumption3" or "assumptions4to6").
inline void plan_theorem2_hypotheses(cert::Report& R, const Theorem2Data& t, const std::string& route) {
    using namespace t2names;
    R.plan(setting);
    R.plan(invertible);
    if (route == "assumption3") {
        R.plan(a3_shape);
        R.plan(a3_eta);
    }
    R.plan(a4);
    R.plan(a5_K);
    for (std::size_t k : t.a.K) R.plan(a5(k));
    for (std::size_t k : t.a.K) R.plan(a6(k));
    if (t.data.n == 3) R.plan(middle);
}

// Records part (a). Route assumption3: Assumption 3 is the hypothesis and Assumptions 4-6 are Lemma 8's
// consequences (role `lemma8_role`); route assumptions4to6: they are the hypotheses. The positive middle
// residual (Lemma 8 proof) is recorded with `lemma8_role` in both routes. Stores eta_min and the
// Assumption-5 sides in Q.
inline void record_theorem2_hypotheses(cert::Report& R, const Theorem2Data& t, const std::string& route, long bits, Quantities& Q,
                                       cert::Role lemma8_role) {
    using namespace t2names;
    const bool a3route = route == "assumption3";
    const auto role = [&](bool is_hypothesis, const std::string& name, const char* cit) {
        return is_hypothesis ? R.hypothesis(name, cit) : (lemma8_role == cert::Role::step ? R.step(name, cit) : R.conclusion(name, cit));
    };
    R.hypothesis(setting, "[BF2025, Sec. 4, eq. (10)]").result(proofs::section4_setting(t.data));
    R.hypothesis(invertible, "[BF2025, Thm 2]")
        .result(t.ls.ok ? flowcert::ProofResult::proven("exact Gauss-Jordan elimination") : flowcert::ProofResult::disproven(t.ls.reason));
    if (a3route) {
        R.hypothesis(a3_shape, "[BF2025, Assumption 3]")
            .statement("x_1[1] > -1, x_1[2] >= 1, y_1 >= 1, y_2 > 0, x_3[1] < 1, x_3[2] >= 1, y_3 >= 1 (n = 3, d = 2)")
            .result(proofs::assumption3_shape(t.a3));
        if (t.a3.wrong_shape) {
            R.hypothesis(a3_eta, "[BF2025, Thm 2]").holds(false, t.a3.reason);
        } else {
            const auto eta = mp(t.a3.eta_min, bits);
            Q.set("eta_min", eta);
            R.hypothesis(a3_eta, "[BF2025, Thm 2]")
                .statement("the data satisfy Assumption 3 for some eta < 1/6")
                .lt({"least admissible eta", eta}, cert::exact("1/6", "1/6"));
        }
    }
    role(!a3route, a4, "[BF2025, Assumption 4]")
        .statement("<x_k, x_k'> > 0 for all k, k'; y_k > 0; n >= d; any <= d inputs linearly independent")
        .result(proofs::assumption4(t.a, t.data.d));
    std::string Ks;
    for (std::size_t k : t.a.K) Ks += (Ks.empty() ? "" : ", ") + std::to_string(k + 1);
    R.step(a5_K, "[BF2025, Assumption 5]")
        .holds(!t.a.K.empty(), "K = {" + Ks + "} (points with a supporting w != 0, <w, x_k> = 0, <w, x_k'> >= 0; exact)");
    for (std::size_t i = 0; i < t.a.K.size(); ++i) {
        const std::string k = std::to_string(t.a.K[i] + 1);
        const auto lhs = t.a.a5_lhs[i].enclose(bits), rhs = t.a.a5_rhs[i].enclose(bits);
        Q.set("a5_lhs_" + k, lhs);
        Q.set("a5_rhs_" + k, rhs);
        role(!a3route, a5(t.a.K[i]), "[BF2025, Assumption 5]").lt({"sqrt(sum y^2) sqrt(sum_{k'!=k} <x_k',x_k>^2)", rhs}, {"y_k |x_k|^2", lhs});
    }
    for (std::size_t k : t.a.K) {
        auto ck = role(!a3route, a6(k), "[BF2025, Assumption 6]");
        if (!t.ls.ok) {
            ck.holds(false, t.ls.reason);
            continue;
        }
        ck.statement("x_" + std::to_string(k + 1) + " lies above the least-squares fit")
            .lt({"<beta*, x_k>", mp(t.ls.predictions[k], bits)}, {"y_k", mp(t.data.y[k], bits)});
    }
    if (t.data.n == 3) {
        auto ck = lemma8_role == cert::Role::step ? R.step(middle, "[BF2025, Lemma 8 proof]") : R.conclusion(middle, "[BF2025, Lemma 8 proof]");
        if (!t.ls.ok || !t.order.geometry.is_proven()) {
            ck.holds(false, !t.ls.ok ? t.ls.reason : "no middle point: " + t.order.geometry.reason);
        } else {
            const std::size_t mid = t.order.order[1];
            ck.statement("the middle point (x_" + std::to_string(mid + 1) + ", inside the cone of the two others) lies below the fit")
                .positive({"r_" + std::to_string(mid + 1) + " = <beta*, x_" + std::to_string(mid + 1) + "> - y_" + std::to_string(mid + 1),
                           mp(t.ls.residuals[mid], bits)});
        }
    }
    if (t.order.geometry.is_proven()) R.note("three-point geometry: " + t.order.geometry.reason);
    R.note("Assumption 6 is checked through its sign condition <beta*, x_k> < y_k for k in K; for three points the paper "
           "states that it reduces to this (docs/bf.md); for n > 3 the technical cone condition is not checked.");
}

}  // namespace bf
