// bf/lemma1_balancedness -- [BF2025, Lemma 1]: a_j^2 - |w_j|^2 is conserved along gradient flow.
//
// Certified: for the case's data, seeded initialization (eqs. (3)-(5)) and horizon T,
//   max_j sup_{t in [0,T]} |(a_j^2 - |w_j|^2)(t) - (a_j^2 - |w_j|^2)(0)| <= tol,
// where the left side is enclosed by evaluating a^2 - |w|^2 on every step box of the certified
// gradient-flow tube (nets::integrate_gradient_flow), which never uses the invariant. GD variant
// (optional keys gd_step, gd_iterations, gd_tol): the exact per-step drift
// step^2 (<w,D>^2 - a^2 |D|^2) is enclosed at every iteration, its cumulative sum is checked
// against gd_tol, and the O(step^2) bound |drift| <= step^2 |D|^2 max(a^2, |w|^2) is reported.
#include <flowcert/cert.hpp>
#include <flowcert/nets/two_layer_flow.hpp>

#include <algorithm>
#include <cstdio>

#include "bf_data.hpp"

namespace cert = flowcert::cert;
namespace nets = flowcert::nets;
using flowcert::IntervalD;

namespace {

nets::InitKind init_kind(const cert::Case& in) {
    if (!in.has("init")) return nets::InitKind::balanced_gaussian;
    const std::string k = in.string("init");
    if (k == "dominated_uniform_ball") return nets::InitKind::dominated_uniform_ball;
    if (k == "unbalanced_gaussian") return nets::InitKind::unbalanced_gaussian;
    return nets::InitKind::balanced_gaussian;
}

std::string fmt(double v) {
    char b[64];
    std::snprintf(b, sizeof b, "%.6g", v);
    return b;
}

void run(cert::Context& ctx) {
    const cert::Case& in = ctx.input;
    const bool gd = in.has("gd_step");
    ctx.report.plan("flow tube reaches T");
    ctx.report.plan("balancedness drift along the flow");
    if (gd) ctx.report.plan("GD cumulative balancedness drift");

    const nets::TwoLayerModel<IntervalD> model(bf::load_spec(in));
    nets::InitSpec is;
    is.kind = init_kind(in);
    is.m = static_cast<std::size_t>(in.integer("m"));
    is.seed = static_cast<std::uint64_t>(in.integer("seed"));
    is.lambda = in.number_string("lambda");
    ctx.report.set_seed("init", std::to_string(is.seed));
    const auto init = nets::initialize<IntervalD>(is, model.d());
    bf::export_initialization(ctx, is, model, init);  // --export-instance
    const auto b0 = nets::balancedness(init.theta);

    nets::FlowOptions o;
    const IntervalD T = in.interval_d("T");
    o.t_end = T.lower();  // a double <= T ... the horizon certified is t_end, reported exactly
    if (in.has("order")) o.order = static_cast<int>(in.integer("order"));
    o.store_tube = false;
    o.threads = 2;
    std::vector<double> drift(is.m, 0.0);
    cert::TubePlot plot;
    plot.title = "max_j |b_j(t) - b_j(0)| (upper bound) along the certified tube";
    plot.x_label = "t";
    plot.y_label = "max_j |b_j(t) - b_j(0)|";
    const nets::FlowResult res = nets::integrate_gradient_flow(model, init.theta, o, [&](const nets::FlowStep& st) {
        const auto b = nets::balancedness(st.tube);
        double worst = 0;
        for (std::size_t j = 0; j < b.size(); ++j) {
            const double dj = mag(b[j] - b0[j]);
            drift[j] = std::max(drift[j], dj);
            worst = std::max(worst, dj);
        }
        plot.add_point("drift bound", st.t1, IntervalD::bounds(0.0, worst));
    });
    ctx.report.check_true("flow tube reaches T", "[BF2025, eq. (6)]", res.completed() && o.t_end == T.lower(),
                          res.completed() ? "tube certified on [0, " + fmt(res.t_reached) + "]"
                                          : "integrator stopped: " + nets::to_string(res.status) + ": " + res.reason);
    double worst = 0;
    for (double d : drift) worst = std::max(worst, d);
    ctx.report.claim.proven_statement =
        "for every neuron j and every t in [0, " + fmt(o.t_end) + "]: |(a_j^2 - |w_j|^2)(t) - (a_j^2 - |w_j|^2)(0)| <= " +
        in.number_string("tol") + " (enclosure evaluated on the certified tube; the invariant is not used by the integrator)";
    ctx.report.check_le("balancedness drift along the flow", "[BF2025, Lemma 1]",
                        {"max_j sup_t |b_j(t) - b_j(0)|", IntervalD::bounds(0.0, worst)},
                        cert::exact("tol", in.number_string("tol")));
    auto& tb = ctx.report.table("flow", {"quantity", "value"});
    tb.add_row({"neurons m", std::to_string(is.m)});
    tb.add_row({"steps", std::to_string(res.stats.steps)});
    tb.add_row({"hull neuron-steps", std::to_string(res.stats.hull_neuron_steps)});
    tb.add_row({"frozen neurons", std::to_string(res.stats.frozen_neurons)});
    tb.add_row({"max_j sup_t |b_j(t) - b_j(0)| <=", fmt(worst)});
    ctx.report.add_plot(plot);

    if (gd) {
        const IntervalD step = in.interval_d("gd_step");
        nets::GdOptions g;
        g.iterations = static_cast<std::size_t>(in.integer("gd_iterations"));
        g.track_drift = true;
        g.threads = 2;
        const auto r = nets::gd_iterate(model, init.theta, step, g);
        double cum = 0, per_step = 0, cst = 0;
        for (std::size_t j = 0; j < is.m && r.status == nets::GdStatus::completed; ++j) {
            cum = std::max(cum, mag(r.drift_sum[j]));
            per_step = std::max(per_step, r.drift_step_max[j]);
            cst = std::max(cst, r.drift_constant[j]);
        }
        if (r.status != nets::GdStatus::completed) {
            ctx.report.check_true("GD cumulative balancedness drift", "[BF2025, Lemma 1]", false,
                                  "GD iteration failed: " + r.reason);
        } else {
            ctx.report.check_le("GD cumulative balancedness drift", "[BF2025, Lemma 1, GD]",
                                {"max_j |sum_k step^2 (<w,D>^2 - a^2|D|^2)|", IntervalD::bounds(0.0, cum)},
                                cert::exact("gd_tol", in.number_string("gd_tol")));
            auto& tg = ctx.report.table("gradient descent", {"quantity", "value"});
            tg.add_row({"iterations", std::to_string(r.iterations_done)});
            tg.add_row({"step", to_string(step)});
            tg.add_row({"max per-step |drift| <=", fmt(per_step)});
            tg.add_row({"C = max |D|^2 max(a^2,|w|^2) <=", fmt(cst)});
            tg.add_row({"step^2 * C <=", fmt(upper(sqr(step) * IntervalD::bounds(0.0, cst)))});
            tg.add_row({"Clarke-hull (neuron, sample, step) triples", std::to_string(r.undecided_pair_steps)});
            ctx.report.note("GD drift per step is exactly step^2 (<w,D>^2 - a^2 |D|^2) for the common D of the step, "
                            "so it is O(step^2) with the constant C above.");
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    auto keys = bf::data_keys();
    keys.push_back({.name = "m", .type = cert::KeyType::integer, .description = "number of neurons", .constraint = cert::Constraint::positive});
    keys.push_back({.name = "seed", .type = cert::KeyType::integer, .description = "initialization seed"});
    keys.push_back({.name = "lambda", .type = cert::KeyType::number, .description = "initialization scale, eq. (3)", .constraint = cert::Constraint::positive});
    keys.push_back({.name = "init", .type = cert::KeyType::string, .description = "initialization kind (default balanced_gaussian)",
                    .required = false, .choices = {"balanced_gaussian", "dominated_uniform_ball", "unbalanced_gaussian"}});
    keys.push_back({.name = "T", .type = cert::KeyType::number, .description = "horizon (a double)", .constraint = cert::Constraint::positive});
    keys.push_back({.name = "tol", .type = cert::KeyType::number, .description = "claimed drift tolerance", .constraint = cert::Constraint::positive});
    keys.push_back({.name = "order", .type = cert::KeyType::integer, .description = "Taylor order (default 8)", .required = false});
    keys.push_back({.name = "gd_step", .type = cert::KeyType::number, .description = "GD step size (enables the GD variant)", .required = false, .constraint = cert::Constraint::positive});
    keys.push_back({.name = "gd_iterations", .type = cert::KeyType::integer, .description = "GD iterations", .required = false});
    keys.push_back({.name = "gd_tol", .type = cert::KeyType::number, .description = "claimed cumulative GD drift tolerance", .required = false});
    cert::VerifierSpec spec{
        .name = "bf/lemma1_balancedness",
        .summary = "certifies conservation of a_j^2 - |w_j|^2 along the certified gradient-flow tube (and GD drift)",
        .claim = {.paper = "BF2025", .locator = "Lemma 1",
                  .paper_statement = "(a_j^t)^2 - |w_j^t|^2 = (a_j^0)^2 - |w_j^0|^2 for every j and t >= 0",
                  .proven_statement = {}},
        .schema = keys,
        .default_precision_bits = 53,
        .validate = [](const cert::Case& c) {
            bf::validate_data(c);
            if (c.has("gd_step") && (!c.has("gd_iterations") || !c.has("gd_tol")))
                c.fail("gd_step", "the GD variant needs gd_iterations and gd_tol");
        },
        .run = run,
    };
    return cert::verifier_main(argc, argv, spec);
}
