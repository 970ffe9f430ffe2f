// verifiers/rh/gap_sweep.cpp -- [LWTM2026] (reconstruction, docs/rh.md#verifiers-and-cases): sweep over (n, d, seed)
// of rh/gap. For every instance w(inf), w* and ||w(inf) - w*|| are certified; the band [C1, C2] is
// the min / max of the certified ratios ||w(inf) - w*|| / sqrt(n_-/d) (each endpoint an enclosure),
// and per (n, seed) the certified slopes of log gap against log d are reported. Instances run on
// `threads` std::threads; each result depends only on its (n, d, seed), never on the thread count.
// With negative_fractions every (n, d, seed) runs once per n_-/n; each row shows the orthogonal-model
// prediction (proofs/rh/orthogonal_model.hpp) and a certified bound on the difference, and the certified
// frequency over seeds gets a Clopper-Pearson interval labelled statistical (docs/rh.md#sweeps).
// The tables, plots and statements over every instance: sweep_report.hpp.
#include "common.hpp"
#include "sweep_record.hpp"
#include "sweep_report.hpp"

#include <chrono>

namespace {

using namespace flowcert;
using namespace flowcert::rh_verifiers;

// The instances through cert::Context::sweep (points can be split over processes and merged, issue 7): expensive
// ones first on `threads` threads; each record depends only on its (n, d, seed), and the report is assembled from
// the records in index order.
std::vector<GapOutcome> run_instances(cert::Context& ctx, const SweepPlan& plan, double& wall) {
    const cert::Case& in = ctx.input;
    const proof::GdOptions opt = gd_options(in);
    cert::SweepOptions sweep_opt;
    sweep_opt.threads = std::max(1, plan.threads);
    sweep_opt.cost = [&](size_t k) {  // non-rigorous cost estimate, order only
        const SweepItem& it = plan.items[k];
        return static_cast<double>(it.n) * static_cast<double>(it.n) * static_cast<double>(it.d + 2000);
    };
    const auto t0 = std::chrono::steady_clock::now();
    const auto records = ctx.sweep(
        plan.items.size(),
        [&](size_t k) {
            const SweepItem& it = plan.items[k];
            rh::InstanceSpec spec = instance_spec(in, it.n, it.d);
            spec.seed = it.seed;
            if (it.fraction >= 0) spec.labels = plan.targets(in, it);
            GapOutcome o;
            const auto s0 = std::chrono::steady_clock::now();
            try {
                o = run_gap_instance(spec, opt);
            } catch (const std::exception& e) {
                o.error = e.what();
            }
            o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count();
            return to_record(o);
        },
        sweep_opt);
    wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::vector<GapOutcome> out;
    for (const auto& r : records) out.push_back(from_record(r));
    return out;
}

// The orthogonal model (G = tau I) at this case's h = eta tau and c~ = c tau (docs/rh.md#sweeps).
proof::OrthogonalPrediction prediction(const cert::Case& in, const SweepPlan& plan, bool iso, const SweepItem& it,
                                       const GapOutcome& o) {
    proof::OrthogonalPrediction p;
    if (in.string("init") != "span") return p.status = ProofResult::not_proven("span initialization only"), p;
    const IntervalD h = in.interval_d(in.has("eta_trace") ? "eta_trace" : "eta_d");
    const IntervalD tau = iso ? IntervalD(it.d) : o.trace;
    const IntervalD ct = in.has("init_scale_trace") ? in.interval_d("init_scale_trace") : in.interval_d("init_scale") * tau;
    const auto y = label_enclosures(plan.targets(in, it), it.n);
    if (y.empty()) return p.status = ProofResult::not_proven("teacher labels"), p;
    return proof::orthogonal_model_gap(h, ct, y);
}

void run(cert::Context& ctx) {
    const cert::Case& in = ctx.input;
    record_precision(ctx);
    SweepPlan plan(in);
    if (plan.threads == 0) plan.threads = ctx.threads;
    sweep_notes(ctx, plan);
    double wall = 0;
    const std::vector<GapOutcome> out = run_instances(ctx, plan, wall);

    // Per-instance results (single thread from here on: deterministic report order).
    SweepSummary summary(in);
    auto& tab = ctx.report.table("instances", instance_columns());
    for (size_t k = 0; k < plan.items.size(); ++k) {
        const SweepItem& it = plan.items[k];
        const GapOutcome& o = out[k];
        const std::string at = "(n, d, seed) = (" + std::to_string(it.n) + ", " + std::to_string(it.d) + ", " +
                               std::to_string(it.seed) + ")";
        const bool ok = summary.add(it, o, at);
        tab.add_row(instance_row(it, o, ok, summary.ratio(o), prediction(in, plan, summary.iso, it, o)));
    }
    frequency_table(ctx.report, summary, plan);
    ctx.report.note(std::string("init scale: ") +
                    (in.has("init_scale_trace") ? "c tau = init_scale_trace held fixed over the sweep"
                                                : "c = init_scale held fixed (absolute): c tau grows with d, so the "
                                                  "ratio changes along d through the schedule too (issue 17)") +
                    "; step size: eta tau held fixed. Orthogonal model (G = tau I, docs/rh.md#sweeps): ratio to "
                    "sqrt(n_-/tau) = sqrt(mean b_K^2), the same for every n_-/n; the certified bound on |ratio - "
                    "orthogonal| per instance is the sup of |enclosure difference|");
    sweep_checks(ctx.report, in, summary);
    band_tables(ctx.report, summary);
    slope_table(ctx.report, plan, out, summary.iso);
    sweep_plots(ctx.report, summary, plan);
    timing_table(ctx.report, plan, summary.cpu, wall);
}

}  // namespace

int main(int argc, char** argv) {
    using namespace flowcert::rh_verifiers;
    auto schema = instance_keys(false);
    schema[0].description = "first data seed; seeds seed, seed+1, ..., seed+seeds-1";
    schema.push_back({.name = "seeds", .type = cert::KeyType::integer, .description = "seeds per (n, d)",
                      .constraint = cert::Constraint::positive});
    schema.push_back({.name = "n_values", .type = cert::KeyType::numbers, .description = "sample counts n",
                      .constraint = cert::Constraint::positive});
    schema.push_back({.name = "d_values", .type = cert::KeyType::numbers, .description = "dimensions d (increasing)",
                      .constraint = cert::Constraint::positive});
    schema.push_back({.name = "min_d_over_n", .type = cert::KeyType::integer,
                      .description = "skip (n, d) with d < min_d_over_n * n", .required = false,
                      .constraint = cert::Constraint::positive});
    schema.push_back({.name = "threads", .type = cert::KeyType::integer, .description = "worker threads (default: the run's --threads, 2 unless given)",
                      .required = false, .constraint = cert::Constraint::positive});
    schema.push_back({.name = "negative_fractions", .type = cert::KeyType::numbers,
                      .description = "optional: values of n_-/n in (0, 1]; each instance then has labels +-1 with floor(q n) "
                                     "negatives spread evenly (replaces targets, which must be 'alternating')",
                      .required = false, .constraint = cert::Constraint::positive});
    schema.push_back({.name = "ratio_lower", .type = cert::KeyType::number,
                      .description = "optional: claimed lower end C1 > 0 of the band (C1 = 0 is vacuous)",
                      .required = false, .constraint = cert::Constraint::positive});
    schema.push_back({.name = "ratio_upper", .type = cert::KeyType::number,
                      .description = "optional: claimed upper end of the band", .required = false,
                      .constraint = cert::Constraint::positive});
    cert::VerifierSpec spec{
        .name = "rh/gap_sweep",
        .summary = "sweep of rh/gap over (n, d, seed): certified ratio band [C1, C2] and slopes of log gap vs log d "
                   "(reconstruction of [LWTM2026])",
        .claim = {.paper = "LWTM2026", .locator = "abstract; reconstruction docs/rh.md#gap",
                  .paper_statement = "[VERIFIED abstract, v1] gap Theta(sqrt(n/d)); [seed summary] C1 sqrt(n_-/d) <= "
                                     "||w(inf) - w*|| <= C2 sqrt(n_-/d) (constants NOT FOUND)",
                  .proven_statement = {}},
        .schema = schema,
        .default_precision_bits = 53,
        .validate =
            [](const cert::Case& c) {
                if (c.integer("m") != 1) c.fail("m", "rh/gap_sweep is reconstructed for m = 1 only");
                if (c.has("row_order")) c.fail("row_order", "not a sweep key (n varies)");
                if (c.has("covariance_diagonal")) c.fail("covariance_diagonal", "not a sweep key (d varies)");
                validate_instance(c);
                for (const auto& s : c.number_strings("n_values"))
                    if (s.find_first_not_of("0123456789") != std::string::npos) c.fail("n_values", "integers expected");
                for (const auto& s : c.number_strings("d_values"))
                    if (s.find_first_not_of("0123456789") != std::string::npos) c.fail("d_values", "integers expected");
                if (c.has("negative_fractions")) {
                    if (c.string("targets") != "alternating")
                        c.fail("targets", "with negative_fractions the labels are generated: targets must be 'alternating'");
                    for (const auto& q : c.number_strings("negative_fractions"))
                        if (!certainly_less_equal(IntervalD::from_decimal(q), IntervalD(1)))
                            c.fail("negative_fractions", "values must be in (0, 1]");
                }
            },
        .run = run,
        .sweep = "(n, d, seed)",
    };
    return cert::verifier_main(argc, argv, spec);
}
