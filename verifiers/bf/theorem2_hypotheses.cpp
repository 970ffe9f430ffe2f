// bf/theorem2_hypotheses -- part (a) of the Theorem 2 certificate [BF2025, Sec. 4, App. A]: the data
// hypotheses, either Assumption 3 with eta < 1/6 (route "assumption3"; the hypotheses of Lemma 8, whose
// conclusions Assumptions 4, 5, 6 and r_2 > 0 are checked) or Assumptions 4, 5 and 6 directly (route
// "assumptions4to6", Theorem 4; conclusion r_2 > 0 for three points). Exact rational arithmetic on the
// decimal data (lib/flowcert/proofs/bf/theorem2_data.hpp); the inequalities with square roots are interval
// checks re-checkable by `flowcert check`. Data violating a hypothesis are OUTSIDE_HYPOTHESES. See docs/bf.md.
#include <string>

#include "theorem2_hypothesis_checks.hpp"

namespace {

using namespace bf;

void run(cert::Context& ctx) {
    const cert::Case& in = ctx.input;
    cert::Report& R = ctx.report;
    const long bits = ctx.precision_bits;
    const Theorem2Data t = theorem2_data(load_spec(in));
    const std::string route = in.string("hypotheses");

    plan_theorem2_hypotheses(R, t, route);
    plan_bounds(in, R);
    Quantities Q;
    record_theorem2_hypotheses(R, t, route, bits, Q, cert::Role::conclusion);
    least_squares_table(R, t.ls, t.data.n, bits, Q, /*full=*/false);
    check_bounds(in, R, Q, "[BF2025; this case's claimed value]");
    if (t.data.d == 2 && t.ls.ok) {
        // Display only: the data directions and the directions of beta* and D* (Thm 2 geometry).
        cert::CirclePlot circle{.title = "data directions x_k, least-squares beta* and D* = (1/n) sum y_k x_k (d = 2)"};
        for (std::size_t k = 0; k < t.data.n; ++k) circle.add("x_" + std::to_string(k + 1), "data", mp(t.data.x[k][0], 64), mp(t.data.x[k][1], 64));
        circle.add("beta*", "least squares", mp(t.ls.beta[0], 64), mp(t.ls.beta[1], 64));
        circle.add("D*", "D*", mp(t.ls.D_star[0], 64), mp(t.ls.D_star[1], 64));
        R.add_plot(circle);
    }
    R.claim.proven_statement = route == "assumption3"
                                   ? "the data satisfy Assumption 3 with some eta < 1/6 (least admissible eta enclosed), "
                                     "and the consequences of Lemma 8 (Assumptions 4, 5, 6-sign, r_2 > 0) hold"
                                   : "the data satisfy Assumptions 4 and 5 and the sign condition of Assumption 6, and r_2 > 0";
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
