// bf/theorem2_three_point -- [BF2025, Theorem 2, Sec. 4]: on three-point data, gradient flow from a small
// balanced (or dominated) initialization converges to a spurious stationary point whose predictions are the
// least-squares fit x_k^T beta*, so the loss stays >= L* > 0 for all t >= 0.
//
// One concrete instance (data, m, seed, lambda) in three parts (docs/bf.md, "bf/theorem2_three_point"):
//   (a) hypotheses: the data hypotheses (Assumption 3 with eta < 1/6, or Assumptions 4-6) and eq. (4) of the
//       initialization; route "none" assumes none and certifies the conclusion for the instance only;
//   (b) the certified gradient-flow tube on [0, T] (nets::integrate_gradient_flow) [BF2025, Sec. 4.1.1-4.1.2];
//   (c) the trapping argument from the box at T (lib/flowcert/proofs/bf/trap_*.hpp), every premise a step.
// The conclusion is implied by the steps.
// The tube's residuals: proofs/bf/tube_residuals.hpp; the tables: theorem2_report.hpp.
#include <flowcert/nets.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "theorem2_hypothesis_checks.hpp"
#include "theorem2_report.hpp"
#include "theorem2_steps.hpp"

namespace {

using namespace bf;
using flowcert::IntervalD;
using flowcert::IntervalMp;


// ---- the lumped route (case key lumping_from; docs/nonsmooth-flow.md, "Lumped activation classes")
// From the hand-off time on, the neurons of one certain activation pattern are carried by the class
// moments: the residuals come from the moments (FlowStep::residual, FlowResult::residual, the tight
// enclosures), every neuron's own tube stays an enclosure (neuron_tubes), so the per-neuron parts
// of the argument (N_k tracking, the classification and boxes at T) are unchanged.
bool use_lumping(const cert::Case& in, nets::FlowOptions& o) {
    if (!in.has("lumping_from")) return false;
    o.lumping.from = in.interval_d("lumping_from").lower();  // any hand-off time is sound
    o.lumping.neuron_tubes = true;
    if (in.has("lumping_max_joins")) o.lumping.max_joins = static_cast<std::size_t>(in.integer("lumping_max_joins"));
    return true;
}

// (b) the tube's options: horizon, order, lumping, and the snapshot times (end of the alignment phase
// tau = eps ln(1/lambda) / D_max [BF2025, Thm 1], and T/4, T/2, 3T/4).
struct TubePlan {
    nets::FlowOptions o;
    bool lumped = false;
    double tau_d = 0;
};
TubePlan tube_plan(const cert::Case& in, const Theorem2Data& t2, const nets::InitSpec& is, long bits, int threads) {
    TubePlan p;
    const auto cones = nets::activation_cones_2d(t2.data);
    const auto k1 = proofs::theorem1_constants(t2.data, cones, bits);
    const IntervalD eps = in.has("epsilon") ? in.interval_d("epsilon") : IntervalD::from_decimal("0.3");
    p.o.t_end = upper(in.interval_d("T"));  // a double >= T: the tube covers [0, T] (checked exactly below)
    if (in.has("order")) p.o.order = static_cast<int>(in.integer("order"));
    p.o.store_tube = false;
    p.o.threads = threads;
    p.lumped = use_lumping(in, p.o);
    // smooth neurons by their pattern's transition matrix (docs/nonsmooth-flow.md, section 3c)
    if (in.has("class_transitions")) p.o.class_transitions = in.boolean("class_transitions");
    if (k1.result.is_proven()) {
        const IntervalD tau = -eps * log(IntervalD::from_decimal(is.lambda)) / to_interval_d(k1.D_max);
        if (upper(tau) < p.o.t_end) p.o.output_times.push_back(p.tau_d = tau.lower());
    }
    for (double f : {0.25, 0.5, 0.75})
        if (f * p.o.t_end > p.tau_d + 1e-9) p.o.output_times.push_back(f * p.o.t_end);
    std::sort(p.o.output_times.begin(), p.o.output_times.end());
    return p;
}

// (b) the certified tube, fed to the trap's tracker step by step; the loss and prediction plots; the lower
// bound of the loss over the tube in loss_lo.
// A progress line on stderr at most once a minute and at the hand-off (diagnostics only; the engine's observer is
// called after every accepted step anyway): t reached, the neurons per treatment on the step, wall time.
class TubeProgress {
public:
    TubeProgress(cert::Progress& p, double T) : p_(p), T_(T), start_(std::chrono::steady_clock::now()), last_(start_) {}
    void step(const nets::FlowStep& st) {
        ++steps_;
        const auto now = std::chrono::steady_clock::now();
        const bool handoff = st.lumped > 0 && !lumped_seen_;
        lumped_seen_ = lumped_seen_ || st.lumped > 0;
        if (!handoff && std::chrono::duration<double>(now - last_).count() < 60) return;
        last_ = now;
        const long s = std::lround(std::chrono::duration<double>(now - start_).count());
        p_.message("tube t = " + format_g(st.t1) + " / " + format_g(T_) + " (" + std::to_string(steps_) + " steps" + (handoff ? ", hand-off" : "") +
                   "): " + std::to_string(st.lumped) + " lumped, " + std::to_string(st.smooth) + " smooth, " + std::to_string(st.hull) +
                   " hull, " + std::to_string(st.parked) + " parked, " + std::to_string(st.frozen) + " frozen; " + std::to_string(s / 60) +
                   "m" + std::to_string(s % 60) + "s wall");
    }

private:
    cert::Progress& p_;
    double T_;
    std::chrono::steady_clock::time_point start_, last_;
    std::size_t steps_ = 0;
    bool lumped_seen_ = false;
};

nets::FlowResult run_tube(cert::Report& R, cert::Progress& progress, const nets::TwoLayerModel<IntervalD>& model,
                          const nets::TwoLayerParams<IntervalD>& theta0, const TubePlan& plan, proofs::TubeTracker& tracker,
                          const proofs::LeastSquares& ls, long bits, double& loss_lo) {
    TubeProgress tp(progress, plan.o.t_end);
    cert::TubePlot loss_plot{.title = "loss L(theta(t)) along the certified tube (paper convention), and L*", .x_label = "t", .y_label = "L"};
    cert::TubePlot pred_plot{.title = "predictions h(x_k) along the certified tube, least-squares predictions dashed", .x_label = "t", .y_label = "h(x_k)"};
    loss_lo = std::numeric_limits<double>::infinity();
    std::size_t step_no = 0;
    const auto res = nets::integrate_gradient_flow(model, theta0, plan.o, [&](const nets::FlowStep& st) {
        tp.step(st);
        const std::array<IntervalD, 3> rk = proofs::step_residuals(model, st, plan.lumped);
        const IntervalD L = proofs::step_risk(model, st, rk, plan.lumped);
        loss_lo = std::min(loss_lo, lower(L));
        tracker.add_step(st.t0, st.t1, st.tube.a, st.tube.w, nets::preactivations(model, st.tube), {rk[0], rk[1], rk[2]});
        if (step_no++ % 4 != 0) return;
        loss_plot.add_point("L(theta(t))", st.t1, L);
        for (std::size_t k = 0; k < 3; ++k) pred_plot.add_point("h(x_" + std::to_string(k + 1) + ")", st.t1, rk[k] + model.y(k));
    });
    const double lstar_lo = lower(mp(ls.loss_paper, bits));
    loss_plot.add_line("L*", {0.0, res.t_reached}, {lstar_lo, lstar_lo});
    for (std::size_t k = 0; k < 3; ++k) {
        const double p = mid(to_interval_d(mp(ls.predictions[k], bits)));
        pred_plot.add_line("x_" + std::to_string(k + 1) + "^T beta*", {0.0, res.t_reached}, {p, p});
    }
    R.add_plot(loss_plot);
    R.add_plot(pred_plot);
    return res;
}

// (b) the steps of the tube: it reaches T, the loss on [0, T] is bounded below; the snapshot table. Empty, or why not.
std::string tube_steps(cert::Report& R, const cert::Case& in, const nets::TwoLayerModel<IntervalD>& model,
                       const nets::TwoLayerParams<IntervalD>& theta0, const nets::FlowResult& res, double loss_lo,
                       const proofs::LeastSquares& ls, double tau_d) {
    if (!res.completed()) {
        R.step(b_tube, "[BF2025, eq. (6), Sec. 4.1.1-4.1.2]")
            .holds(false, "integrator stopped at t = " + format_g(res.t_reached) + ": " + nets::to_string(res.status) + ": " + res.reason);
        return "the tube did not reach T";
    }
    R.step(b_tube, "[BF2025, eq. (6), Sec. 4.1.1-4.1.2]")
        .statement("the certified tube covers [0, T] (" + std::to_string(res.stats.steps) + " steps): T <= t_reached (exact)")
        .le(cert::exact("T", in.number_string("T")), {"t_reached", IntervalD::bounds(res.t_reached, res.t_reached)});
    R.step(b_loss, "[BF2025, Thm 2]")
        .statement("L(theta(t)) >= this bound for every t in [0, T] (interval risk on every step box)")
        .lt(cert::exact("0", "0"), {"min over tube steps of L (lower bound)", IntervalD::bounds(loss_lo, loss_lo)});
    auto& snaps = R.table("(b) snapshots of the certified tube", snapshot_columns());
    snaps.add_row(snapshot_row(model, theta0, ls, 0, "initialization"));
    for (const auto& sn : res.snapshots)
        snaps.add_row(snapshot_row(model, sn.state, ls, sn.t, sn.t == tau_d ? "end of alignment, tau = eps ln(1/lambda)/D_max" : "growth / fitting"));
    snaps.add_row(snapshot_row(model, res.state, ls, res.t_reached, "T: start of the trapping argument"));
    return {};
}

void run(cert::Context& ctx) {
    const cert::Case& in = ctx.input;
    cert::Report& R = ctx.report;
    const long bits = ctx.precision_bits;  // the MPFI enclosures of the exact data (the tube is IntervalD)
    const std::string route = in.has("hypotheses") ? in.string("hypotheses") : "none";
    // The trap labels the middle point x_2 (step 0): a data set in another order is relabelled.
    nets::TwoLayerSpec spec = load_spec(in);
    Theorem2Data t2 = theorem2_data(spec);
    if (t2.order.geometry.is_proven() && !t2.order.identity()) {
        const auto& o = t2.order.order;
        R.note("points relabelled by the cone geometry (docs/bf.md step 0): x_1, x_2, x_3 = input points " + std::to_string(o[0] + 1) +
               ", " + std::to_string(o[1] + 1) + ", " + std::to_string(o[2] + 1) + "; every index below is of the relabelled data");
        spec = proofs::reorder(spec, o);
        t2 = theorem2_data(spec);
    }
    const auto& ls = t2.ls;
    if (route != "none") plan_theorem2_hypotheses(R, t2, route);
    R.plan(h_eq4);
    for (const auto& c : kSteps) R.plan(c);
    R.plan(c_concl);
    plan_bounds(in, R);
    Quantities Q;
    auto finish = [&](const std::string& why) {  // premises not reached are not proven; the conclusion is implied by all
        for (const auto& c : kSteps)
            if (R.find_check(c)->status == cert::CheckStatus::not_run) R.step(c, "[docs/bf.md]").holds(false, "not evaluated: " + why);
        R.conclusion(c_concl, "[BF2025, Thm 2; eq. (2) chain rule; docs/bf.md step 8]")
            .statement("every solution converges to a point whose predictions are the least-squares fit, with loss >= L* > 0 throughout")
            .implied_by(kSteps);
        check_bounds(in, R, Q, "[BF2025; this case's claimed value]");
    };

    if (route != "none") record_theorem2_hypotheses(R, t2, route, bits, Q, cert::Role::step);
    least_squares_table(R, ls, t2.data.n, bits, Q, /*full=*/true);
    if (const std::string why = data_steps(R, t2, bits, Q); !why.empty()) return finish(why);
    const proofs::ThreePointData data = proofs::three_point_data(t2.data, ls, bits);

    // ---- (b) the certified tube, fed to the trap's tracker
    const nets::TwoLayerModel<IntervalD> model(spec);
    const nets::InitSpec is = load_init(in);
    R.set_seed("init", std::to_string(is.seed));
    const auto init = nets::initialize<IntervalD>(is, model.d());
    bf::export_initialization(ctx, is, model, init);  // --export-instance
    // Theorem 2 assumes a balanced or dominated initialization (eq. (4)); route "none" does not (the trap tracks
    // the signs of a_j itself): evidence there.
    const flowcert::ProofResult eq4 = proofs::eq4_at_initialization(is, init);
    (route != "none" ? R.hypothesis(h_eq4, "[BF2025, eq. (4), Thm 2]") : R.evidence(h_eq4, "[BF2025, eq. (4)]")).result(eq4);
    const TubePlan plan = tube_plan(in, t2, is, bits, ctx.threads);
    proofs::TubeTracker tracker(data, nets::balancedness(init.theta));
    tracker.set_negative_forever(proofs::negative_forever(init.theta.a, eq4.is_proven()));  // class Q (docs/bf.md step 3Q)
    double loss_lo = 0;
    const nets::FlowResult res = run_tube(R, ctx.progress, model, init.theta, plan, tracker, ls, bits, loss_lo);
    if (const std::string why = tube_steps(R, in, model, init.theta, res, loss_lo, ls, plan.tau_d); !why.empty()) return finish(why);

    // ---- (c) the trapping argument from the box at T
    proofs::TrapBox box;
    const std::string unclassified = classify_at_T(R, model, res, tracker, data, plan.lumped, box);
    if (!in.has("plain_run") || in.boolean("plain_run")) {  // the same classes in a plain double run of the same seed (NON-RIGOROUS; display only, issue 20 M3)
        constexpr double plain_h = 0.01;
        const proofs::PlainRun plain = proofs::plain_flow_nonrigorous(model, init.theta, res.t_reached, plain_h);
        plain_classes_table(R, model, box, proofs::outputs_at_end(model, res, plan.lumped), plain, proofs::plain_trap_counts(model, plain),
                            plain_h, ls, bits);
    }
    if (!unclassified.empty()) return finish(unclassified);
    trap_steps(R, box, data, model, res);
    finish("");
    R.claim.proven_statement = "for this initialization (m = " + std::to_string(is.m) + ", seed " + std::to_string(is.seed) + ", lambda = " + is.lambda +
                               "): every gradient-flow solution converges, its predictions converge to the least-squares fit x_k^T beta*, and "
                               "L(theta(t)) >= L* = " + nets::decimal_string(ls.loss_paper, 10) + " > 0 for all t >= 0" +
                               (route == "none" ? std::string(" (the hypotheses of Theorem 2 are not assumed)") : ", and the data satisfy " + route);
}

}  // namespace

int main(int argc, char** argv) {
    auto keys = bf::data_keys();
    for (auto& k : bf::init_keys()) keys.push_back(k);
    keys.push_back({.name = "T", .type = cert::KeyType::number, .description = "horizon of the tube, part (b)", .constraint = cert::Constraint::positive});
    keys.push_back({.name = "hypotheses", .type = cert::KeyType::string,
                    .description = "part (a): assumption3, assumptions4to6, or none (certify the conclusion for this instance only)",
                    .required = false, .choices = {"assumption3", "assumptions4to6", "none"}});
    keys.push_back({.name = "epsilon", .type = cert::KeyType::number, .description = "eps of the alignment time tau (default 0.3)",
                    .required = false, .constraint = cert::Constraint::positive});
    keys.push_back({.name = "lumping_from", .type = cert::KeyType::number,
                    .description = "hand-off time of the lumped activation classes (docs/nonsmooth-flow.md); default: none",
                    .required = false, .constraint = cert::Constraint::positive});
    keys.push_back({.name = "lumping_max_joins", .type = cert::KeyType::integer,
                    .description = "joins of a neuron to a lumped class at most, the hand-off included (default 0: no limit)",
                    .required = false, .constraint = cert::Constraint::nonnegative});
    keys.push_back({.name = "class_transitions", .type = cert::KeyType::boolean,
                    .description = "smooth neurons by one transition-matrix Taylor model per activation pattern and step "
                                   "instead of one Taylor model per neuron (docs/nonsmooth-flow.md, section 3c; default false)",
                    .required = false});
    keys.push_back({.name = "plain_run", .type = cert::KeyType::boolean,
                    .description = "also run a plain double RK4 flow of the same seed and tabulate its classes at T (NON-RIGOROUS, display only; default true)",
                    .required = false});
    keys.push_back({.name = "order", .type = cert::KeyType::integer, .description = "Taylor order (default 8)", .required = false});
    cert::VerifierSpec spec{
        .name = "bf/theorem2_three_point",
        .summary = "certifies convergence to the least-squares predictor (loss >= L* > 0 for all t) on three-point data: "
                   "hypotheses, certified tube, trapping argument",
        .claim = {.paper = "Boursier & Flammarion, JMLR 26 (2025), paper 24-1523", .locator = "Sec. 4, Theorem 2, Lemmas 4-8",
                  .paper_statement = "under Assumption 3 with eta < 1/6, for lambda < lambda~ and every m, theta^t -> theta_infty with "
                                     "h(x_k) = x_k^T beta*, hence lim L(theta^t) > 0",
                  .proven_statement = {}},
        .schema = keys,
        .default_precision_bits = 128,
        .validate = bf::validate_data,
        .run = run,
    };
    return cert::verifier_main(argc, argv, spec);
}
