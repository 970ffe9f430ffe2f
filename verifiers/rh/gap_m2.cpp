// verifiers/rh/gap_m2.cpp -- [LWTM2026] (reconstruction, docs/rh.md#w-star-m2): for one seeded m = 2 instance
// (f = relu(<w+,x>) - relu(<w-,x>)), certify w(inf) (pattern certificate), w* = the minimum-norm interpolator over
// every activation pattern (natural-pattern KKT pair + first-order separation of every other pattern class), and
// enclose ||w(inf) - w*|| with its ratios to sqrt(n_-/d) and sqrt(n/d). Even m > 2 (m/2 neurons of each sign, span
// initialization; docs/rh.md#w-star-m2): by the exact reduction to the m = 2 GD at eta' = (m/2) eta, c' = (m/2) c, w* the
// symmetric split (plus the deficit condition) and gap^2 = (2/m) x the reduced gap^2 (proofs/rh/w_star_m.hpp).
#include "common.hpp"

namespace {

using namespace flowcert;
using namespace flowcert::rh_verifiers;

std::string proven_statement(const cert::Case& in, const rh::InstanceSpec& spec) {
    return "For this m = " + std::to_string(spec.m) + " instance (seed " + std::to_string(spec.seed) + ", n = " +
           std::to_string(spec.n) + ", d = " + std::to_string(spec.d) + "), in the high-dimensional regime eps <= " +
           in.number_string("eps_max") +
           ": GD's limit w(inf) and the minimum-norm interpolator w* over all activation patterns (reconstructed "
           "definitions, see notes) are certified and " + in.number_string("ratio_lower") +
           " <= ||w(inf) - w*|| / sqrt(n_-/d) <= " + in.number_string("ratio_upper") +
           " (the band is this case's claim; the paper's C1, C2 are NOT FOUND)";
}

// The steps of the m = 2 natural pair and its separation margins (m > 2: c_i^(m) = (2/m) c_i, same sign).
void natural_pair_steps(cert::Report& r, const proof::WStarM2Result& ws, const proof::SymmetricSplitResult& split) {
    r.step("labels nonzero", "[docs/rh.md#w-star-m2]")
        .statement("y_i != 0 for every i: each sample is fitted by the neuron of its sign")
        .result(ws.labels_nonzero);
    wstar_checks(r, ws.plus, "w+ ");
    wstar_checks(r, ws.minus, "w- ");
    auto sep = r.step("every other pattern class is costlier (separation margin)", "[docs/rh.md#w-star-m2]");
    if (split.m == 2)
        sep.statement("c_i = alpha+_i + alpha-_i > 0 for every i, so ||w||^2 >= U + 2 sum_i c_i s_i > U on every "
                      "interpolator with another pattern (s_i > 0: the other-sign neuron active on sample i)");
    else
        sep.statement("c_i^(m) = (2/m)(alpha+_i + alpha-_i) > 0 for every i: activating a neuron of the other sign on "
                      "sample i costs at least 2 c_i^(m) sigma_i (sigma_i: that sign's activity)");
    if (!ws.plus.kkt.is_proven() || !ws.minus.kkt.is_proven())
        sep.result(flowcert::ProofResult::not_proven("natural-pattern QPs not certified: " + ws.status.reason));
    else if (split.m == 2)
        sep.positive({"min_i c_i (sample " + std::to_string(ws.worst_sample) + ")", ws.min_margin});
    else
        sep.positive({"min_i c_i^(m) (sample " + std::to_string(ws.worst_sample) + ")", split.min_margin});
}

const std::vector<std::string> kNaturalPairSteps = {
    "labels nonzero", "w+ w*: verified solve on the guessed face", "w+ KKT multipliers alpha*_T <= 0",
    "w+ KKT primal feasibility on N \\ T", "w- w*: verified solve on the guessed face", "w- KKT multipliers alpha*_T <= 0",
    "w- KKT primal feasibility on N \\ T", "every other pattern class is costlier (separation margin)"};

void gap_rows(cert::Table& t, const rh::Instance& inst, const proof::GapResult& gap) {
    if (!gap.status.is_proven()) return;
    t.add_row({"||w(inf) - w*||", fmt(gap.gap, 10)});
    if (inst.n_minus > 0) t.add_row({"ratio to sqrt(n_-/d)", fmt(gap.ratio_n_minus, 10)});
    t.add_row({"ratio to sqrt(n/d)", fmt(gap.ratio_n, 10)});
}

void band(cert::Report& r, const cert::Case& in, const rh::Instance& inst, const proof::GapResult& gap) {
    const bool have = gap.status.is_proven() && inst.n_minus > 0;
    const std::string why = inst.n_minus == 0 ? "n_- = 0: the ratio is undefined" : gap.status.reason;
    band_conclusions(r, in, have, gap.ratio_n_minus, "sqrt(n_-/d)", why);
}

void run_m2(cert::Context& ctx, const rh::InstanceSpec& spec) {
    const cert::Case& in = ctx.input;
    const proof::GdOptions opt = gd_options(in);
    reconstruction_notes(ctx.report, 2, true);
    ctx.report.claim.proven_statement = proven_statement(in, spec);
    const rh::Instance inst = rh::make_instance(spec);
    const proof::PatternResult pattern = proof::certify_pattern_and_limit(inst, opt);
    const proof::WStarM2Result ws = proof::certify_w_star_m2(inst);
    const proof::GapResult gap = proof::enclose_gap(inst, pattern, ws);
    hypothesis_checks(ctx.report, inst, in.number_string("eps_max"));
    pattern_checks(ctx.report, inst, pattern);
    auto& r = ctx.report;
    natural_pair_steps(r, ws, proof::certify_symmetric_split(inst, ws, 2));
    r.conclusion("w* is the unique minimum-norm interpolator", "[docs/rh.md#w-star-m2]")
        .statement("w* = (w+*, w-*), the natural-pattern QP pair, minimizes ||w+||^2 + ||w-||^2 over all (w+, w-) with "
                   "f(x_i) = y_i, uniquely")
        .implied_by(kNaturalPairSteps);
    band(r, in, inst, gap);
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
    gap_rows(t, inst, gap);
}

// The m/2 neurons of a sign, after the reduction step: the m = 2 pipeline on (v+, v-), w* the symmetric split.
void reduced_steps(cert::Report& r, const cert::Case& in, const rh::Instance& net, const proof::ReductionResult& red) {
    const int m = net.m;
    const rh::Instance& v = red.reduced;
    const proof::PatternResult pattern = proof::certify_pattern_and_limit(v, gd_options(in));
    const proof::WStarM2Result ws = proof::certify_w_star_m2(v);
    const proof::SymmetricSplitResult split = proof::certify_symmetric_split(v, ws, m);
    const proof::GapResult gap = proof::enclose_gap(v, pattern, ws, split);
    pattern_checks(r, v, pattern);
    natural_pair_steps(r, ws, split);
    r.step("switching a same-sign neuron off is costlier (deficit condition)", "[docs/rh.md#w-star-m2]")
        .statement("alpha+_i lambda_max(G) < 2 y_i (i in P) and alpha-_j lambda_max(G) < 2 |y_j| (j in N): the spread "
                   "of the m/2 same-sign neurons, >= 4 D_i |y_i| / (m/2) / lambda_max(G), pays for the first-order gain "
                   "(2/(m/2)) alpha_i D_i of a deficit D_i")
        .result(split.deficit);
    std::vector<std::string> premises = kNaturalPairSteps;
    premises.push_back("switching a same-sign neuron off is costlier (deficit condition)");
    r.conclusion("w* is the unique minimum-norm interpolator", "[docs/rh.md#w-star-m2]")
        .statement("w* = the symmetric split w_p = w+-* / (m/2) of the natural-pattern QP pair minimizes sum_p ||w_p||^2 "
                   "over all (w_1, ..., w_m) with f(x_i) = y_i, uniquely (m = " + std::to_string(m) + ")")
        .implied_by(premises);
    band(r, in, v, gap);
    auto& t = r.table("gap (m = " + std::to_string(m) + ", by the reduction to m = 2)", {"quantity", "enclosure"});
    t.add_row({"n, d, n_-, m", std::to_string(v.n) + ", " + std::to_string(v.d) + ", " + std::to_string(v.n_minus) +
                                   ", " + std::to_string(m)});
    t.add_row({"eta d, eta' d = (m/2) eta d", fmt(net.eta_d, 12) + ", " + fmt(v.eta_d, 12)});
    t.add_row({"c, c' = (m/2) c", fmt(net.init_c, 8) + ", " + fmt(v.init_c, 8)});
    t.add_row({"near-orthogonality eps", fmt(proof::near_orthogonality(v), 6)});
    t.add_row({"K / tail step", std::to_string(pattern.K) + " / " + std::to_string(pattern.tail_step)});
    if (ws.plus.kkt.is_proven() && ws.minus.kkt.is_proven()) {
        t.add_row({"U_m = (2/m)(||w+*||^2 + ||w-*||^2)", fmt(split.norm_sq, 10)});
        t.add_row({"min separation margin c_i^(m) (sample " + std::to_string(ws.worst_sample) + ")", fmt(split.min_margin, 8)});
        t.add_row({"lambda_max(G)", fmt(split.lambda_max, 10)});
        t.add_row({"min deficit margin 2|y_i| - alpha_i lambda_max (sample " + std::to_string(split.worst_sample) + ")",
                   fmt(split.min_deficit_margin, 8)});
    }
    gap_rows(t, v, gap);
}

void run_many(cert::Context& ctx, const rh::InstanceSpec& spec) {
    const cert::Case& in = ctx.input;
    reconstruction_notes(ctx.report, spec.m, true);
    ctx.report.claim.proven_statement = proven_statement(in, spec);
    const rh::Instance net = rh::make_instance(spec);  // the m-network (its hypotheses)
    const proof::ReductionResult red = proof::reduce_to_m2(net);
    hypothesis_checks(ctx.report, net, in.number_string("eps_max"));
    auto& r = ctx.report;
    r.step("reduction to the m = 2 GD (v+- = (m/2) w_p)", "[docs/rh.md#w-star-m2]")
        .statement("same-sign neurons start equal and get equal gradients; v+- = (m/2) w_p follows the m = 2 GD with "
                   "eta' = (m/2) eta and v+-(0) = X^T (c' 1), c' = (m/2) c (relu positively homogeneous)")
        .result(red.status);
    if (red.status.is_proven()) return reduced_steps(r, in, net, red);
    r.conclusion("w* is the unique minimum-norm interpolator", "[docs/rh.md#w-star-m2]")
        .result(flowcert::ProofResult::not_proven("not run: " + red.status.reason));
    band_conclusions(r, in, false, IntervalD(0), "sqrt(n_-/d)", red.status.reason);
}

void run(cert::Context& ctx) {
    const rh::InstanceSpec spec = start_instance(ctx);
    if (spec.m == 2) run_m2(ctx, spec);
    else run_many(ctx, spec);
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
            const long long m = c.integer("m");
            if (m == 1) c.fail("m", "rh/gap_m2 is the m = 2 model (m = 1: rh/gap)");
            if (m < 2 || m % 2 != 0)
                c.fail("m", "must be even: m/2 neurons of each output sign (m+ != m- would need per-sign step sizes "
                            "m+- eta in the m = 2 pipeline and is not covered; docs/rh.md#w-star-m2)");
            if (c.has("covariance")) c.fail("covariance", "rh/gap_m2 is isotropic only");
        },
        run, true);
    return cert::verifier_main(argc, argv, spec);
}
