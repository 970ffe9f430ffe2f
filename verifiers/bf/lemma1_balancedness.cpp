// bf/lemma1_balancedness -- [BF2025, Lemma 1]: b_j = a_j^2 - |w_j|^2 is conserved along gradient flow.
//
// Certified: for the case's data, seeded initialization (eqs. (3)-(5)) and horizon T, on the certified
// gradient-flow tube (nets::integrate_gradient_flow, which never uses the invariant):
//   |b_j(t) - b_j(0)| <= rel_tol sup_s |theta_j(s)|^2   for every neuron j and t in [0, T]
// (the drift relative to the size of each neuron, proofs/bf/balancedness.hpp; an absolute tolerance is vacuous
// for small neurons and weak for large ones). GD variant (optional keys gd_step, gd_iterations, gd_tol): the
// exact per-step drift step^2 (<w,D>^2 - a^2 |D|^2) is enclosed at every iteration, its cumulative sum is
// checked against gd_tol, and the O(step^2) constant is reported.
#include <flowcert/nets.hpp>

#include "bf_data.hpp"

namespace {

using namespace bf;
using flowcert::IntervalD;

void run(cert::Context& ctx) {
    const cert::Case& in = ctx.input;
    cert::Report& R = ctx.report;
    const bool gd = in.has("gd_step");
    R.plan("flow tube reaches T");
    R.plan("balancedness drift along the flow");
    if (gd) R.plan("GD cumulative balancedness drift");

    const nets::TwoLayerModel<IntervalD> model(load_spec(in));
    const nets::InitSpec is = load_init(in);
    R.set_seed("init", std::to_string(is.seed));
    const auto init = nets::initialize<IntervalD>(is, model.d());
    bf::export_initialization(ctx, is, model, init);  // --export-instance
    nets::FlowOptions o;
    o.t_end = upper(in.interval_d("T"));  // a double >= T: the tube covers [0, T] (checked exactly below)
    if (in.has("order")) o.order = static_cast<int>(in.integer("order"));
    if (in.has("max_steps")) o.max_steps = static_cast<std::size_t>(in.integer("max_steps"));
    o.store_tube = false;
    o.threads = ctx.threads;
    proofs::BalancednessDrift drift(init.theta);
    cert::TubePlot plot{.title = "max_j |b_j(t) - b_j(0)| (upper bound) along the certified tube",
                        .x_label = "t", .y_label = "max_j |b_j(t) - b_j(0)|"};
    const nets::FlowResult res = nets::integrate_gradient_flow(model, init.theta, o, [&](const nets::FlowStep& st) {
        drift.add_box(st.tube);
        plot.add_point("drift bound", st.t1, IntervalD::bounds(0.0, drift.absolute_max()));
    });
    drift.add_box(res.state);
    if (res.completed())
        R.step("flow tube reaches T", "[BF2025, eq. (6)]")
            .statement("the certified tube covers [0, T]: T <= t_reached (exact)")
            .le(cert::exact("T", in.number_string("T")), {"t_reached", IntervalD::bounds(res.t_reached, res.t_reached)});
    else
        R.step("flow tube reaches T", "[BF2025, eq. (6)]")
            .holds(false, "integrator stopped at t = " + format_g(res.t_reached) + ": " + nets::to_string(res.status) + ": " + res.reason);
    std::size_t worst_j = 0;
    const double rel = drift.relative_max(&worst_j);
    auto drift_check = R.conclusion("balancedness drift along the flow", "[BF2025, Lemma 1]");
    if (!res.completed())  // the boxes cover [0, t_reached] only: nothing is shown on (t_reached, T]
        drift_check.holds(false, "the tube stopped at t = " + format_g(res.t_reached) + " before T: the drift is bounded on [0, t] only");
    else
        drift_check
            .statement("|b_j(t) - b_j(0)| <= rel_tol sup_s |theta_j(s)|^2 for every neuron j and t in [0, T] (largest relative drift: neuron " +
                       std::to_string(worst_j) + ", drift <= " + format_g(drift.drift(worst_j)) + ", sup |theta_j|^2 >= " + format_g(drift.size_lower(worst_j)) + ")")
            .le({"max_j sup_t |b_j(t) - b_j(0)| / sup_t |theta_j(t)|^2", IntervalD::bounds(0.0, rel)}, cert::exact("rel_tol", in.number_string("rel_tol")));
    R.claim.proven_statement = "for every neuron j and every t in [0, " + in.number_string("T") + "]: |(a_j^2 - |w_j|^2)(t) - (a_j^2 - |w_j|^2)(0)| <= " +
                               in.number_string("rel_tol") + " sup_s |theta_j(s)|^2 (enclosures on the certified tube; the invariant is not used by the integrator)";
    auto& tb = R.table("flow", {"quantity", "value"});
    tb.add_row({"neurons m", std::to_string(is.m)});
    tb.add_row({"steps", std::to_string(res.stats.steps)});
    tb.add_row({"hull neuron-steps", std::to_string(res.stats.hull_neuron_steps)});
    tb.add_row({"frozen neurons", std::to_string(res.stats.frozen_neurons)});
    tb.add_row({"max_j sup_t |b_j(t) - b_j(0)| <= (absolute)", format_g(drift.absolute_max())});
    tb.add_row({"max_j sup_t |b_j(t) - b_j(0)| / sup_t |theta_j|^2 <=", format_g(rel)});
    R.add_plot(plot);
    if (!gd) return;
    const IntervalD step = in.interval_d("gd_step");
    nets::GdOptions g;
    g.iterations = static_cast<std::size_t>(in.integer("gd_iterations"));
    g.track_drift = true;
    g.threads = ctx.threads;
    const auto r = nets::gd_iterate(model, init.theta, step, g);
    if (r.status != nets::GdStatus::completed) {
        R.conclusion("GD cumulative balancedness drift", "[BF2025, Lemma 1]").holds(false, "GD iteration failed: " + r.reason);
        return;
    }
    double cum = 0, per_step = 0, cst = 0;
    for (std::size_t j = 0; j < is.m; ++j) {
        cum = std::max(cum, mag(r.drift_sum[j]));
        per_step = std::max(per_step, r.drift_step_max[j]);
        cst = std::max(cst, r.drift_constant[j]);
    }
    R.conclusion("GD cumulative balancedness drift", "[BF2025, Lemma 1, GD]")
        .le({"max_j |sum_k step^2 (<w,D>^2 - a^2|D|^2)|", IntervalD::bounds(0.0, cum)}, cert::exact("gd_tol", in.number_string("gd_tol")));
    auto& tg = R.table("gradient descent", {"quantity", "value"});
    tg.add_row({"iterations", std::to_string(r.iterations_done)});
    tg.add_row({"step", to_string(step)});
    tg.add_row({"max per-step |drift| <=", format_g(per_step)});
    tg.add_row({"C = max |D|^2 max(a^2,|w|^2) <=", format_g(cst)});
    tg.add_row({"step^2 * C <=", format_g(upper(sqr(step) * IntervalD::bounds(0.0, cst)))});
    tg.add_row({"Clarke-hull (neuron, sample, step) triples", std::to_string(r.undecided_pair_steps)});
    R.note("GD drift per step is exactly step^2 (<w,D>^2 - a^2 |D|^2) for the common D of the step, so it is O(step^2) with the constant C above.");
}

}  // namespace

int main(int argc, char** argv) {
    auto keys = bf::data_keys();
    for (auto& k : bf::init_keys()) keys.push_back(k);
    keys.push_back({.name = "T", .type = cert::KeyType::number, .description = "horizon", .constraint = cert::Constraint::positive});
    keys.push_back({.name = "rel_tol", .type = cert::KeyType::number, .description = "claimed drift of a_j^2 - |w_j|^2 relative to sup_t |theta_j(t)|^2",
                    .constraint = cert::Constraint::positive});
    keys.push_back({.name = "order", .type = cert::KeyType::integer, .description = "Taylor order (default 8)", .required = false});
    keys.push_back({.name = "max_steps", .type = cert::KeyType::integer, .description = "step budget of the integrator (default 1000000)",
                    .required = false, .constraint = cert::Constraint::positive});
    keys.push_back({.name = "gd_step", .type = cert::KeyType::number, .description = "GD step size (enables the GD variant)", .required = false, .constraint = cert::Constraint::positive});
    keys.push_back({.name = "gd_iterations", .type = cert::KeyType::integer, .description = "GD iterations", .required = false});
    keys.push_back({.name = "gd_tol", .type = cert::KeyType::number, .description = "claimed cumulative GD drift tolerance", .required = false});
    cert::VerifierSpec spec{
        .name = "bf/lemma1_balancedness",
        .summary = "certifies conservation of a_j^2 - |w_j|^2 (relative drift) along the certified gradient-flow tube (and GD drift)",
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
