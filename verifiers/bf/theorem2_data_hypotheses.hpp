// verifiers/bf/theorem2_data_hypotheses.hpp -- part (a) of the Theorem 2 certificate, shared by
// bf/theorem2_hypotheses and bf/theorem2_three_point: the data hypotheses of [BF2025, Sec. 4,
// App. A], either Assumption 3 with eta < 1/6 (route "assumption3"; by Lemma 8 it implies
// Assumptions 4-6, which are re-checked) or Assumptions 4, 5 and 6 directly (route
// "assumptions4to6", Theorem 4), plus the exact least-squares table (issue 5 item 5).
// Everything is exact rational arithmetic on the decimal data; inequalities with square roots
// are interval checks re-checkable by `flowcert check`. A violated hypothesis is a disproven
// check (REFUTED, the failing inequality is the witness). See docs/bf.md.
#pragma once

#include <string>

#include "bf_data.hpp"

namespace bf {

struct Theorem2Data {
    nets::AlignmentData data;
    nets::LeastSquares ls;
    nets::Assumption3 a3;
    nets::Assumptions456 a;
};

inline Theorem2Data theorem2_data(const nets::TwoLayerSpec& spec) {
    Theorem2Data t;
    t.data = nets::alignment_data(spec);
    t.ls = nets::least_squares(t.data);
    t.a3 = nets::check_assumption3(t.data);
    t.a = nets::check_assumptions_456(t.data, t.ls);
    return t;
}

// Registers the checks of part (a) for `route` ("assumption3" or "assumptions4to6").
inline void plan_theorem2_hypotheses(cert::Report& R, const Theorem2Data& t, const std::string& route) {
    R.plan("ReLU and the half-square loss (Sec. 4 setting)");
    R.plan("X^T X invertible (beta* defined)");
    if (route == "assumption3") {
        R.plan("Assumption 3: eta-independent conditions");
        R.plan("Assumption 3: least admissible eta < 1/6");
    }
    R.plan("Assumption 4");
    R.plan("Assumption 5: extreme points K found");
    for (std::size_t i = 0; i < t.a.K.size(); ++i) R.plan("Assumption 5, k = " + std::to_string(t.a.K[i] + 1));
    for (std::size_t k : t.a.K) R.plan("Assumption 6 sign condition, k = " + std::to_string(k + 1));
    if (t.data.n == 3) R.plan("middle residual positive (Lemma 8)");
}

// Runs the checks of part (a); stores eta_min and the Assumption-5 sides in Q.
inline void check_theorem2_hypotheses(cert::Report& R, const nets::TwoLayerSpec& spec, const Theorem2Data& t,
                                      const std::string& route, long bits, Quantities& Q) {
    using flowcert::IntervalMp;
    const auto& data = t.data;
    const auto& ls = t.ls;
    const auto& a3 = t.a3;
    const auto& a = t.a;
    const bool a3route = route == "assumption3";
    R.check_true("ReLU and the half-square loss (Sec. 4 setting)", "[BF2025, Sec. 4, eq. (10)]",
                 data.gamma == 0 && data.loss == nets::LossKind::half_square,
                 "gamma = " + spec.gamma + ", loss = " + (data.loss == nets::LossKind::half_square ? "half_square" : "logistic"));
    R.check_true("X^T X invertible (beta* defined)", "[BF2025, Thm 2]", ls.ok, ls.ok ? "exact Gauss-Jordan elimination" : ls.reason);
    if (a3route) {
        cert::Check c;
        c.name = "Assumption 3: eta-independent conditions";
        c.citation = "[BF2025, Assumption 3]";
        c.statement = "x_1[1] > -1, x_1[2] >= 1, y_1 >= 1, y_2 > 0, x_3[1] < 1, x_3[2] >= 1, y_3 >= 1 (n = 3, d = 2)";
        if (a3.shape_ok) {
            c.status = cert::CheckStatus::proven;
            c.reason = "exact rational comparisons";
        } else {
            const bool wrong_shape = data.n != 3 || data.d != 2;
            c.status = wrong_shape ? cert::CheckStatus::not_proven : cert::CheckStatus::disproven;
            c.reason = a3.reason;
            if (!wrong_shape) c.witness = a3.reason;
        }
        R.record(c);
        if (data.n == 3 && data.d == 2) {
            const IntervalMp eta = mp(a3.eta_min, bits);
            Q.set("eta_min", eta);
            R.check_lt("Assumption 3: least admissible eta < 1/6", "[BF2025, Thm 2]", {"least admissible eta", eta},
                       cert::exact("1/6", "1/6"), "the data satisfy Assumption 3 for some eta < 1/6");
        } else {
            R.check_true("Assumption 3: least admissible eta < 1/6", "[BF2025, Thm 2]", false, a3.reason);
        }
    }
    {
        cert::Check c;
        c.name = "Assumption 4";
        c.citation = "[BF2025, Assumption 4]";
        c.statement = "<x_k, x_k'> > 0 for all k, k'; y_k > 0; n >= d; any <= d inputs linearly independent";
        if (a.a4) {
            c.status = cert::CheckStatus::proven;
            c.reason = "exact rational arithmetic (d = 2)";
        } else if (data.d != 2) {
            c.status = cert::CheckStatus::not_proven;
            c.reason = a.a4_reason;
        } else {
            c.status = cert::CheckStatus::disproven;
            c.reason = a.a4_reason;
            c.witness = a.a4_reason;
        }
        R.record(c);
    }
    R.check_true("Assumption 5: extreme points K found", "[BF2025, Assumption 5]", !a.K.empty(),
                 "K = {" + [&] {
                     std::string s;
                     for (std::size_t k : a.K) s += (s.empty() ? "" : ", ") + std::to_string(k + 1);
                     return s;
                 }() + "} (points with a supporting w != 0, <w, x_k> = 0, <w, x_k'> >= 0; exact)");
    for (std::size_t i = 0; i < a.K.size(); ++i) {
        const std::string k = std::to_string(a.K[i] + 1);
        const IntervalMp lhs = a.a5_lhs[i].enclose(bits), rhs = a.a5_rhs[i].enclose(bits);
        Q.set("a5_lhs_" + k, lhs);
        Q.set("a5_rhs_" + k, rhs);
        R.check_lt("Assumption 5, k = " + k, "[BF2025, Assumption 5]",
                   {"sqrt(sum y^2) sqrt(sum_{k'!=k} <x_k',x_k>^2)", rhs}, {"y_k |x_k|^2", lhs});
    }
    for (std::size_t k : a.K) {
        const std::string s = std::to_string(k + 1);
        if (!ls.ok) {
            R.check_true("Assumption 6 sign condition, k = " + s, "[BF2025, Assumption 6]", false, ls.reason);
            continue;
        }
        R.check_lt("Assumption 6 sign condition, k = " + s, "[BF2025, Assumption 6]", {"<beta*, x_k>", mp(ls.predictions[k], bits)},
                   {"y_k", mp(data.y[k], bits)}, "x_" + s + " lies above the least-squares fit");
    }
    if (data.n == 3) {
        if (ls.ok)
            R.check_positive("middle residual positive (Lemma 8)", "[BF2025, Lemma 8 proof]",
                             {"r_2 = <beta*, x_2> - y_2", mp(ls.residuals[1], bits)});
        else
            R.check_true("middle residual positive (Lemma 8)", "[BF2025, Lemma 8 proof]", false, ls.reason);
    }
    if (a.has_x2_decomposition)
        R.note("x_2 = alpha_1 x_1 + alpha_3 x_3 with alpha_1 = " + exact_str(a.alpha1) + ", alpha_3 = " + exact_str(a.alpha3) +
               " (Lemma 8; no neuron can be active on x_2 alone when both are positive)");
    R.note("Assumption 6 is checked through its sign condition <beta*, x_k> < y_k for k in K; for three points the paper "
           "states that it reduces to this (docs/bf.md); for n > 3 the technical cone condition is not checked.");
}

// The exact least-squares quantities (issue 5 item 5) as a table; `full` adds beta* components,
// predictions, the code's loss, D* and |D*|. Stores them in Q under the names of docs/bf.md.
inline void least_squares_table(cert::Report& R, const Theorem2Data& t, long bits, Quantities& Q, bool full) {
    const auto& ls = t.ls;
    if (!ls.ok) return;
    cert::Table& T = R.table("least squares (exact)", {"quantity", "exact", "enclosure"});
    for (std::size_t i = 0; i < ls.beta.size(); ++i) {
        Q.set("beta_" + std::to_string(i + 1), mp(ls.beta[i], bits));
        T.add_row({"beta*_" + std::to_string(i + 1), exact_str(ls.beta[i]), to_string(mp(ls.beta[i], bits), 15)});
    }
    if (full)
        for (std::size_t k = 0; k < t.data.n; ++k) {
            Q.set("prediction_" + std::to_string(k + 1), mp(ls.predictions[k], bits));
            T.add_row({"prediction x_" + std::to_string(k + 1) + "^T beta*", exact_str(ls.predictions[k]),
                       to_string(mp(ls.predictions[k], bits), 15)});
        }
    for (std::size_t k = 0; k < t.data.n; ++k) {
        if (full) Q.set("residual_" + std::to_string(k + 1), mp(ls.residuals[k], bits));
        T.add_row({"residual r_" + std::to_string(k + 1), exact_str(ls.residuals[k]), to_string(mp(ls.residuals[k], bits), 15)});
    }
    Q.set("loss_paper", mp(ls.loss_paper, bits));
    T.add_row({"(1/(2n)) sum r^2", exact_str(ls.loss_paper), to_string(mp(ls.loss_paper, bits), 15)});
    if (!full) return;
    Q.set("loss_code", mp(ls.loss_code, bits));
    T.add_row({"(1/n) sum r^2 (authors' code)", exact_str(ls.loss_code), to_string(mp(ls.loss_code, bits), 15)});
    nets::Rational nn = 0;
    for (std::size_t i = 0; i < ls.D_star.size(); ++i) {
        Q.set("D_star_" + std::to_string(i + 1), mp(ls.D_star[i], bits));
        T.add_row({"D*_" + std::to_string(i + 1), exact_str(ls.D_star[i]), to_string(mp(ls.D_star[i], bits), 15)});
        nn += ls.D_star[i] * ls.D_star[i];
    }
    const auto norm = sqrt(mp(nn, bits));
    Q.set("D_star_norm", norm);
    T.add_row({"|D*| = sqrt(" + exact_str(nn) + ")", "-", to_string(norm, 15)});
}

}  // namespace bf
