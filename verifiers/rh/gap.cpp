// verifiers/rh/gap.cpp -- [LWTM2026] (reconstruction, docs/rh.md#gap): for one seeded m = 1
// instance, certify w(inf) (via the pattern certificate), w* = argmin ||w|| s.t. X_{P+} w = y_{P+},
// X_N w <= 0 (via a KKT certificate), and enclose ||w(inf) - w*|| with its ratios to sqrt(n_-/d)
// and sqrt(n/d); report eta d.
#include "common.hpp"


namespace {

using namespace flowcert;
using namespace flowcert::rh_verifiers;

void run(cert::Context& ctx) {
    const cert::Case& in = ctx.input;
    const rh::InstanceSpec spec = start_instance(ctx);
    const proof::GdOptions opt = gd_options(in);
    reconstruction_notes(ctx.report, 1, true);
    ctx.report.claim.proven_statement =
        "For this instance (seed " + std::to_string(spec.seed) + ", n = " + std::to_string(spec.n) + ", d = " +
        std::to_string(spec.d) + "), in the high-dimensional regime eps <= " + in.number_string("eps_max") +
        ": GD's limit w(inf) and w* (reconstructed definitions, see notes) are certified and " +
        in.number_string("ratio_lower") + " <= ||w(inf) - w*|| / " +
        (spec.covariance.kind == "isotropic" ? "sqrt(n_-/d)" : "sqrt(n_-/||lambda||_1)") + " <= " + in.number_string("ratio_upper") +
        " (the band is this case's claim; the paper's C1, C2 are NOT FOUND)";
    rh::Instance inst;
    const GapOutcome o = run_gap_instance(spec, opt, &inst);
    // The band's normalization: sqrt(n_-/d) for the isotropic covariance (where ||lambda||_1 = d exactly),
    // sqrt(n_-/||lambda||_1) otherwise ([LWTM2026] v2 abstract; docs/rh.md#covariance).
    const bool iso = inst.cov.isotropic;
    const std::string norm = iso ? "sqrt(n_-/d)" : "sqrt(n_-/||lambda||_1)";
    const IntervalD ratio = iso ? o.gap.ratio_n_minus : o.gap.ratio_n_minus_trace;
    hypothesis_checks(ctx.report, inst, in.number_string("eps_max"));
    pattern_checks(ctx.report, inst, o.pattern);
    wstar_checks(ctx.report, o.wstar);
    const bool have = o.gap.status.is_proven() && o.n_minus > 0;
    const std::string why = o.n_minus == 0 ? "n_- = 0: the ratio to " + norm + " is undefined" : o.gap.status.reason;
    band_conclusions(ctx.report, in, have, ratio, norm, why);
    auto& t = ctx.report.table("gap", {"quantity", "enclosure"});
    t.add_row({"n, d, n_-", std::to_string(inst.n) + ", " + std::to_string(inst.d) + ", " + std::to_string(inst.n_minus)});
    t.add_row({"eta d", fmt(o.eta_d, 12)});
    t.add_row({"near-orthogonality eps", fmt(o.eps, 6)});
    t.add_row({"eta lambda_max(G)", fmt(o.step_ratio, 6)});
    t.add_row({"K / tail step", std::to_string(o.pattern.K) + " / " + std::to_string(o.pattern.tail_step)});
    t.add_row({"|T| (tight negatives of w*)", std::to_string(o.wstar.tight.size())});
    if (o.gap.status.is_proven()) {
        t.add_row({"||w(inf) - w*||", fmt(o.gap.gap, 10)});
        if (inst.n_minus > 0) t.add_row({"ratio to sqrt(n_-/d)", fmt(o.gap.ratio_n_minus, 10)});
        t.add_row({"ratio to sqrt(n/d)", fmt(o.gap.ratio_n, 10)});
        if (!iso) {
            if (inst.n_minus > 0) t.add_row({"ratio to sqrt(n_-/||lambda||_1)", fmt(o.gap.ratio_n_minus_trace, 10)});
            t.add_row({"ratio to sqrt(n/||lambda||_1)", fmt(o.gap.ratio_n_trace, 10)});
        }
    }
    covariance_table(ctx.report, inst);
    ctx.report.note(iso ? "eta d = " + fmt(o.eta_d, 12) +
                              ": the reconstruction predicts the ratio to scale with eta d (docs/rh.md#scaling); no paper "
                              "constant C1, C2 is known"
                        : "eta tr Sigma = " + fmt(inst.eta_trace, 12) +
                              ": the reconstruction predicts the ratio to sqrt(n_-/||lambda||_1) to scale with eta tr Sigma "
                              "(docs/rh.md#scaling, docs/rh.md#covariance); no paper constant C1, C2 is known");
}

}  // namespace

int main(int argc, char** argv) {
    using namespace flowcert::rh_verifiers;
    const cert::VerifierSpec spec = gap_verifier_spec(
        "rh/gap",
        "ReLU regression (m = 1): certified w(inf), KKT-certified w*, enclosure of ||w(inf) - w*|| and "
        "its ratio to sqrt(n_-/d) (reconstruction of [LWTM2026])",
        "abstract; reconstruction docs/rh.md#gap",
        [](const cert::Case& c) {
            if (c.integer("m") != 1) c.fail("m", "rh/gap is reconstructed for m = 1 only");
        },
        run);
    return cert::verifier_main(argc, argv, spec);
}
