// verifiers/rh/gap_m2.cpp -- [LWTM2026] (reconstruction, docs/rh.md#w-star-m2): for one seeded m = 2 instance
// (f = relu(<w+,x>) - relu(<w-,x>)), certify w(inf) (pattern certificate), w* = the minimum-norm interpolator over
// every activation pattern (natural-pattern KKT pair + first-order separation of every other pattern class), and
// enclose ||w(inf) - w*|| with its ratios to sqrt(n_-/d) and sqrt(n/d).
#include "common.hpp"

namespace {

using namespace flowcert;
using namespace flowcert::rh_verifiers;

void run(cert::Context& ctx) {
    const cert::Case& in = ctx.input;
    const rh::InstanceSpec spec = start_instance(ctx);
    const proof::GdOptions opt = gd_options(in);
    reconstruction_notes(ctx.report, 2, true);
    ctx.report.claim.proven_statement =
        "For this m = 2 instance (seed " + std::to_string(spec.seed) + ", n = " + std::to_string(spec.n) + ", d = " +
        std::to_string(spec.d) + "), in the high-dimensional regime eps <= " + in.number_string("eps_max") +
        ": GD's limit w(inf) and the minimum-norm interpolator w* over all activation patterns (reconstructed "
        "definitions, see notes) are certified and " + in.number_string("ratio_lower") +
        " <= ||w(inf) - w*|| / sqrt(n_-/d) <= " + in.number_string("ratio_upper") +
        " (the band is this case's claim; the paper's C1, C2 are NOT FOUND)";
    const rh::Instance inst = rh::make_instance(spec);
    const proof::PatternResult pattern = proof::certify_pattern_and_limit(inst, opt);
    const proof::WStarM2Result ws = proof::certify_w_star_m2(inst);
    const proof::GapResult gap = proof::enclose_gap(inst, pattern, ws);
    hypothesis_checks(ctx.report, inst, in.number_string("eps_max"));
    pattern_checks(ctx.report, inst, pattern);
    auto& r = ctx.report;
    r.step("labels nonzero", "[docs/rh.md#w-star-m2]")
        .statement("y_i != 0 for every i: each sample is fitted by the neuron of its sign")
        .result(ws.labels_nonzero);
    wstar_checks(r, ws.plus, "w+ ");
    wstar_checks(r, ws.minus, "w- ");
    auto sep = r.step("every other pattern class is costlier (separation margin)", "[docs/rh.md#w-star-m2]")
                   .statement("c_i = alpha+_i + alpha-_i > 0 for every i, so ||w||^2 >= U + 2 sum_i c_i s_i > U on every "
                              "interpolator with another pattern (s_i > 0: the other-sign neuron active on sample i)");
    if (ws.plus.kkt.is_proven() && ws.minus.kkt.is_proven())
        sep.positive({"min_i c_i (sample " + std::to_string(ws.worst_sample) + ")", ws.min_margin});
    else
        sep.result(flowcert::ProofResult::not_proven("natural-pattern QPs not certified: " + ws.status.reason));
    r.conclusion("w* is the unique minimum-norm interpolator", "[docs/rh.md#w-star-m2]")
        .statement("w* = (w+*, w-*), the natural-pattern QP pair, minimizes ||w+||^2 + ||w-||^2 over all (w+, w-) with "
                   "f(x_i) = y_i, uniquely")
        .implied_by({"labels nonzero", "w+ w*: verified solve on the guessed face", "w+ KKT multipliers alpha*_T <= 0",
                     "w+ KKT primal feasibility on N \\ T", "w- w*: verified solve on the guessed face",
                     "w- KKT multipliers alpha*_T <= 0", "w- KKT primal feasibility on N \\ T",
                     "every other pattern class is costlier (separation margin)"});
    const bool have = gap.status.is_proven() && inst.n_minus > 0;
    const std::string why = inst.n_minus == 0 ? "n_- = 0: the ratio is undefined" : gap.status.reason;
    band_conclusions(r, in, have, gap.ratio_n_minus, "sqrt(n_-/d)", why);
    auto& t = r.table("gap (m = 2)", {"quantity", "enclosure"});
    t.add_row({"n, d, n_-", std::to_string(inst.n) + ", " + std::to_string(inst.d) + ", " + std::to_string(inst.n_minus)});
    t.add_row({"eta d", fmt(inst.eta_d, 12)});
    t.add_row({"near-orthogonality eps", fmt(proof::near_orthogonality(inst), 6)});
    t.add_row({"K / tail step", std::to_string(pattern.K) + " / " + std::to_string(pattern.tail_step)});
    t.add_row({"|T| of w+*, w-* (tight constraints)", std::to_string(ws.plus.tight.size()) + ", " + std::to_string(ws.minus.tight.size())});
    if (ws.plus.kkt.is_proven() && ws.minus.kkt.is_proven()) {
        t.add_row({"U = ||w+*||^2 + ||w-*||^2", fmt(ws.norm_sq, 10)});
        t.add_row({"min separation margin c_i (sample " + std::to_string(ws.worst_sample) + ")", fmt(ws.min_margin, 8)});
    }
    if (gap.status.is_proven()) {
        t.add_row({"||w(inf) - w*||", fmt(gap.gap, 10)});
        if (inst.n_minus > 0) t.add_row({"ratio to sqrt(n_-/d)", fmt(gap.ratio_n_minus, 10)});
        t.add_row({"ratio to sqrt(n/d)", fmt(gap.ratio_n, 10)});
    }
}

}  // namespace

int main(int argc, char** argv) {
    using namespace flowcert::rh_verifiers;
    const cert::VerifierSpec spec = gap_verifier_spec(
        "rh/gap_m2",
        "ReLU regression (m = 2): certified w(inf), w* over every activation pattern (natural-pattern KKT pair "
        "+ first-order separation), enclosure of ||w(inf) - w*|| (reconstruction of [LWTM2026])",
        "abstract; reconstruction docs/rh.md#w-star-m2",
        [](const cert::Case& c) {
            if (c.integer("m") != 2) c.fail("m", "rh/gap_m2 is the m = 2 model (m = 1: rh/gap)");
            if (c.has("covariance")) c.fail("covariance", "rh/gap_m2 is isotropic only");
        },
        run);
    return cert::verifier_main(argc, argv, spec);
}
