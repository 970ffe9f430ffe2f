// verifiers/rh/pattern_and_limit.cpp -- [LWTM2026] (reconstruction, docs/rh.md#verifiers-and-cases):
// for one seeded instance in the high-dimensional regime, GD on m = 1 or m = 2 ReLU regression changes its
// activation pattern for the last time at a certified step K and never again (closed-form tail), and its
// limit w(inf) is a global minimizer of the squared loss.
#include "common.hpp"

#include <algorithm>

namespace {

using namespace flowcert;
using namespace flowcert::rh_verifiers;

void run(cert::Context& ctx) {
    const cert::Case& in = ctx.input;
    const rh::InstanceSpec spec = start_instance(ctx);
    const rh::Instance inst = rh::make_instance(spec);
    proof::GdOptions opt = gd_options(in);
    opt.record_trace = true;
    reconstruction_notes(ctx.report, inst.m, false);
    ctx.report.claim.proven_statement =
        "For this instance (seed " + std::to_string(spec.seed) + ", n = " + std::to_string(inst.n) + ", d = " +
        std::to_string(inst.d) + ", m = " + std::to_string(inst.m) + "), in the high-dimensional regime eps <= " +
        in.number_string("eps_max") + ": the activation pattern stops changing at a certified step K and never "
        "changes again, and w(inf) is a global minimizer (reconstructed definitions, see notes)";
    const proof::PatternResult pr = proof::certify_pattern_and_limit(inst, opt);
    hypothesis_checks(ctx.report, inst, in.number_string("eps_max"));
    covariance_table(ctx.report, inst);
    pattern_checks(ctx.report, inst, pr);

    auto& t = ctx.report.table("instance", {"quantity", "value"});
    t.add_row({"n, d, m", std::to_string(inst.n) + ", " + std::to_string(inst.d) + ", " + std::to_string(inst.m)});
    t.add_row({"n_- = #{y <= 0}", std::to_string(inst.n_minus)});
    t.add_row({"eta (exact double)", fmt(inst.eta, 17)});
    t.add_row({"eta d", fmt(inst.eta_d, 10)});
    t.add_row({"max rad(G_ij) / G_ii", std::to_string(inst.gram_max_rel_radius)});
    t.add_row({"near-orthogonality eps", fmt(proof::near_orthogonality(inst), 6)});
    t.add_row({"K (last pattern change)", std::to_string(pr.K)});
    t.add_row({"tail certified at step", std::to_string(pr.tail_step)});
    t.add_row({"pattern changes", std::to_string(pr.changes.size())});
    if (pr.tail.is_proven()) {
        t.add_row({"lambda(H_UU) in", "[" + lower_string(pr.lambda, 8) + ", " + upper_string(pr.lambda, 8) + "]"});
        t.add_row({"rho", fmt(pr.rho)});
        t.add_row({"||r_K||_2", fmt(pr.r_norm)});
        t.add_row({"L(w(inf))", fmt(pr.loss_inf, 12)});
        if (inst.m == 1) t.add_row({"min L", fmt(pr.loss_min, 12)});
        t.add_row({"max_{i in U} |f_i(inf) - y_i|", fmt(pr.fit_error, 4)});
    }
    auto& ch = ctx.report.table("pattern changes (step, neuron, sample, new state)", {"step", "neuron", "sample", "active"});
    for (size_t c = 0; c < std::min<size_t>(pr.changes.size(), 200); ++c)
        ch.add_row({std::to_string(pr.changes[c].step), std::to_string(pr.changes[c].neuron),
                    std::to_string(pr.changes[c].sample), pr.changes[c].active ? "1" : "0"});
    if (pr.tail.is_proven()) {
        auto& lim = ctx.report.table("limit a_p(inf) (w_p(inf) = u_p + X^T a_p(inf)), first 16 samples",
                                     {"neuron", "sample", "y_i", "a(inf)", "<w(inf), x_i>"});
        for (int p = 0; p < inst.m; ++p)
            for (int i = 0; i < std::min(inst.n, 16); ++i)
                lim.add_row({std::to_string(p), std::to_string(i), fmt(inst.y[i], 6), fmt(pr.a_inf[p][i], 10),
                             fmt(pr.beta_inf[p][i], 10)});
    }
    // Plot: enclosures of <w_p(k), x_i> over the steps run, first 8 samples.
    cert::TubePlot plot;
    plot.title = "<w_p(k), x_i> (certified enclosures), first samples";
    plot.x_label = "GD step k";
    plot.y_label = "<w_p(k), x_i>";
    for (size_t k = 0; k < pr.trace.size(); ++k)
        for (int p = 0; p < inst.m; ++p)
            for (int i = 0; i < std::min(inst.n, 8); ++i)
                plot.add_point((inst.m == 2 ? (p == 0 ? "w+ " : "w- ") : std::string()) + "x_" + std::to_string(i) +
                                   (inst.negative[i] ? " (y<=0)" : " (y>0)"),
                               static_cast<double>(k), pr.trace[k][p][i]);
    ctx.report.add_plot(plot);
}

}  // namespace

int main(int argc, char** argv) {
    using namespace flowcert::rh_verifiers;
    cert::VerifierSpec spec{
        .name = "rh/pattern_and_limit",
        .summary = "ReLU regression GD (m = 1, 2): init activity, last pattern change K, stability forever, "
                   "limit w(inf), global minimality (reconstruction of [LWTM2026])",
        .claim = {.paper = "LWTM2026", .locator = "abstract; reconstruction docs/rh.md#tail",
                  .paper_statement = "[NOT FOUND] paper body unavailable; abstract: the ReLU activation pattern "
                                     "quickly stabilizes w.h.p. over high-dimensional random data",
                  .proven_statement = {}},
        .schema = instance_keys(true),
        .default_precision_bits = 53,
        .validate = validate_instance,
        .run = run,
    };
    return cert::verifier_main(argc, argv, spec);
}
