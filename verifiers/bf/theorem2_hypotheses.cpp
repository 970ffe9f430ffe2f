// verifiers/bf/theorem2_hypotheses.cpp -- part (a) of the Theorem 2 certificate [BF2025, Sec. 4,
// App. A]: the data hypotheses, either Assumption 3 with eta < 1/6 (route "assumption3", which
// by Lemma 8 implies Assumptions 4-6; those are re-checked as well) or Assumptions 4, 5 and 6
// directly (route "assumptions4to6", Theorem 4). Everything is exact rational arithmetic on the
// decimal data; the inequalities with square roots are interval checks re-checkable by
// `flowcert check`. A data set that violates a hypothesis gives REFUTED (the failing
// inequality is the witness). See docs/bf.md.
#include <string>

#include "bf_data.hpp"

namespace {

using namespace bf;
using flowcert::IntervalMp;

void run(cert::Context& ctx) {
    const cert::Case& in = ctx.input;
    cert::Report& R = ctx.report;
    const long bits = ctx.precision_bits;
    const nets::TwoLayerSpec spec = load_spec(in);
    const nets::AlignmentData data = nets::alignment_data(spec);
    const std::string route = in.string("hypotheses");
    const bool a3route = route == "assumption3";

    const nets::LeastSquares ls = nets::least_squares(data);
    const nets::Assumption3 a3 = nets::check_assumption3(data);
    const nets::Assumptions456 a = nets::check_assumptions_456(data, ls);

    // ---- plan ----------------------------------------------------------------------------
    R.plan("ReLU and the half-square loss (Sec. 4 setting)");
    R.plan("X^T X invertible (beta* defined)");
    if (a3route) {
        R.plan("Assumption 3: eta-independent conditions");
        R.plan("Assumption 3: least admissible eta < 1/6");
    }
    R.plan("Assumption 4");
    R.plan("Assumption 5: extreme points K found");
    for (std::size_t i = 0; i < a.K.size(); ++i) R.plan("Assumption 5, k = " + std::to_string(a.K[i] + 1));
    for (std::size_t k : a.K) R.plan("Assumption 6 sign condition, k = " + std::to_string(k + 1));
    if (data.n == 3) R.plan("middle residual positive (Lemma 8)");
    plan_bounds(in, R);

    R.check_true("ReLU and the half-square loss (Sec. 4 setting)", "[BF2025, Sec. 4, eq. (10)]",
                 data.gamma == 0 && data.loss == nets::LossKind::half_square,
                 "gamma = " + spec.gamma + ", loss = " + (data.loss == nets::LossKind::half_square ? "half_square" : "logistic"));
    R.check_true("X^T X invertible (beta* defined)", "[BF2025, Thm 2]", ls.ok, ls.ok ? "exact Gauss-Jordan elimination" : ls.reason);
    Quantities Q;

    if (a3route) {
        // record the eta-independent conditions; a violated one is a disproof (REFUTED)
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
    if (ls.ok) {
        cert::Table& T = R.table("least squares (exact)", {"quantity", "exact", "enclosure"});
        for (std::size_t i = 0; i < ls.beta.size(); ++i) {
            Q.set("beta_" + std::to_string(i + 1), mp(ls.beta[i], bits));
            T.add_row({"beta*_" + std::to_string(i + 1), exact_str(ls.beta[i]), to_string(mp(ls.beta[i], bits), 15)});
        }
        for (std::size_t k = 0; k < data.n; ++k)
            T.add_row({"residual r_" + std::to_string(k + 1), exact_str(ls.residuals[k]), to_string(mp(ls.residuals[k], bits), 15)});
        Q.set("loss_paper", mp(ls.loss_paper, bits));
        T.add_row({"(1/(2n)) sum r^2", exact_str(ls.loss_paper), to_string(mp(ls.loss_paper, bits), 15)});
    }
    if (a.has_x2_decomposition)
        R.note("x_2 = alpha_1 x_1 + alpha_3 x_3 with alpha_1 = " + exact_str(a.alpha1) + ", alpha_3 = " + exact_str(a.alpha3) +
               " (Lemma 8; no neuron can be active on x_2 alone when both are positive)");
    R.note("Assumption 6 is checked through its sign condition <beta*, x_k> < y_k for k in K; for three points the paper "
           "states that it reduces to this (docs/bf.md); for n > 3 the technical cone condition is not checked.");
    check_bounds(in, R, Q, "[BF2025; this case's claimed value]");
    R.claim.proven_statement = a3route ? "the data satisfy Assumption 3 with some eta < 1/6 (least admissible eta enclosed), "
                                         "and the consequences of Lemma 8 (Assumptions 4, 5, 6-sign) hold"
                                       : "the data satisfy Assumptions 4 and 5 and the sign condition of Assumption 6";
}

}  // namespace

int main(int argc, char** argv) {
    auto schema = bf::data_keys();
    schema.push_back({.name = "hypotheses", .type = cert::KeyType::string,
                      .description = "assumption3 (with eta < 1/6, Thm 2) or assumptions4to6 (Thm 4)",
                      .choices = {"assumption3", "assumptions4to6"}});
    cert::VerifierSpec spec{
        .name = "bf/theorem2_hypotheses",
        .summary = "data hypotheses of Boursier-Flammarion Theorem 2 / 4 (Assumption 3 with eta < 1/6, or Assumptions 4-6)",
        .claim = {.paper = "Boursier & Flammarion, JMLR 26 (2025), paper 24-1523",
                  .locator = "Sec. 4, Assumption 3, Thm 2; App. A, Assumptions 4-6, Lemma 8, Thm 4",
                  .paper_statement = "Theorem 2 holds if Assumption 3 holds with eta < 1/6 (Lemma 8: then Assumptions 4-6 hold)",
                  .proven_statement = {}},
        .schema = schema,
        .default_precision_bits = 128,
        .validate = bf::validate_data,
        .run = run,
    };
    return cert::verifier_main(argc, argv, spec);
}
