// bf/figure2_gd -- [BF2025, Figure 2, App. B.1] as the authors ran it: full-batch gradient descent (ReLU with
// sigma'(0) = 0, learning rate 1e-3 on (1/n) sum (h - y)^2, i.e. step 2e-3 on the paper's L) from a small balanced
// initialization, a finite number of iterations. Certified on one instance (m, seed, lambda), for the exact GD of
// the exact seeded initialization (docs/bf.md, "bf/figure2_gd"):
//   (a) hypotheses: h > 0, ReLU and the half-square loss, X of full rank (beta* unique), eq. (4) at initialization;
//   (b) the rigorous GD run of nets::lumped_gd (per neuron up to the hand-off, then the all-active class lumped);
//   (c) conclusions at the last iteration N: h(x_k) within tol of x_k^T beta*, every neuron in a closed all-active
//       or all-inactive cone or (kink neurons, tiny) within a certified angle of a kink face; and L(theta_t) >= L*
//       for every t <= N (lib/flowcert/proofs/bf/gd_plateau.hpp).
#include <flowcert/nets.hpp>

#include <cmath>
#include <cstdio>

#include "bf_data.hpp"

namespace {

using namespace bf;
using flowcert::IntervalD;

const char* h_step = "GD step h > 0 (sigma'(0) = 0, the implementation's ReLU derivative)";
const char* h_setting = "ReLU and the half-square loss";
// The setting of the paper's Figure-2 statement [BF2025, App. B.1]: lr 1e-3 on (1/n) sum (h - y)^2 is the step 2e-3 on
// L, from the small scale lambda = 1e-3; smaller steps and scales are admitted (closer to the flow of Theorem 2).
const char* h_paper_step = "h <= 2e-3 (the paper's lr 1e-3; Figure 2)";
const char* h_paper_scale = "lambda <= 1e-3 (the paper's initialization scale; Figure 2)";
// The paper states the end of the run: iteration 2e6. At an earlier N the claims at N are this case's own (a chosen
// time, never a refutation): they are then steps, and only the plateau (every t <= N) is a conclusion.
constexpr std::size_t kPaperIterations = 2000000;
const char* h_rank = "lambda_min(X^T X / n) > 0 (beta* unique)";
const char* h_eq4 = "eq. (4) at initialization: |a_j(0)| >= |w_j(0)| for every neuron";
const char* s_run = "(b) rigorous GD run reaches iteration N";
const char* c_plateau = "(c) L(theta_t) >= L* for every iteration t <= N (the spurious plateau)";
const char* c_cones = "(c) every neuron at iteration N in a closed all-active or all-inactive cone, or within the angle asin(kink_angle) of a kink face";

std::size_t to_index(const cert::Case& in, const std::string& key, const std::string& s) {
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos) in.fail(key, "'" + s + "' is not a non-negative integer");
    return static_cast<std::size_t>(std::stoull(s));
}
std::vector<std::size_t> snapshot_iterations(const cert::Case& in) {
    std::vector<std::size_t> out;
    if (in.has("snapshots"))
        for (const auto& s : in.number_strings("snapshots")) out.push_back(to_index(in, "snapshots", s));
    return out;
}
void validate(const cert::Case& in) {
    bf::validate_data(in);
    for (std::size_t t : snapshot_iterations(in))
        if (t > static_cast<std::size_t>(in.integer("iterations"))) in.fail("snapshots", "iteration " + std::to_string(t) + " is after the last iteration");
}

// Iterations at which the loss is plotted: 0, the snapshots, N and a geometric grid (ratio 1.2).
std::vector<std::size_t> plotted_iterations(std::size_t N, const std::vector<std::size_t>& snaps) {
    std::vector<std::size_t> t = snaps;
    t.push_back(0);
    t.push_back(N);
    for (double x = 1; x < static_cast<double>(N); x *= 1.2) t.push_back(static_cast<std::size_t>(x));
    std::sort(t.begin(), t.end());
    t.erase(std::unique(t.begin(), t.end()), t.end());
    return t;
}

// A snapshot row: t, L, the lower bound of L - L*, closed-cone counts, |beta_P - beta*| over the all-active neurons.
std::vector<std::string> snapshot_row(const nets::TwoLayerModel<IntervalD>& model, const nets::TwoLayerParams<IntervalD>& th,
                                      const std::vector<char>& maybe_frozen, const std::vector<int>& kink_sample,
                                      const std::vector<IntervalD>& kink_zeta, const IntervalD& kink_sine, const proofs::LeastSquares& ls,
                                      std::size_t t, const std::string& label) {
    const auto cones = proofs::closed_cone_membership(model, th, maybe_frozen, kink_sample, kink_zeta, kink_sine);
    const auto z = nets::preactivations(model, th);
    std::vector<IntervalD> beta(model.d(), IntervalD(0));
    for (std::size_t j = 0; j < th.m; ++j) {
        bool act = true;
        for (std::size_t k = 0; k < model.n(); ++k) act = act && certainly_nonnegative(z[j * model.n() + k]);
        if (act)
            for (std::size_t i = 0; i < model.d(); ++i) beta[i] += th.a[j] * th.W(j, i);
    }
    IntervalD db(0);  // (the all-active sum is over the boxes; a maybe-frozen neuron is counted by its box)
    for (std::size_t i = 0; i < model.d(); ++i) db += sqr(beta[i] - to_interval_d(mp(ls.beta[i], 128)));
    return {std::to_string(t), label, to_string(nets::risk(model, th), 12), std::to_string(cones.all_active) + " (" + std::to_string(cones.all_active_positive) + " a > 0)",
            std::to_string(cones.all_inactive), std::to_string(cones.kink), std::to_string(cones.other), to_string(sqrt(db), 4)};
}

void run(cert::Context& ctx) {
    const cert::Case& in = ctx.input;
    cert::Report& R = ctx.report;
    const long bits = ctx.precision_bits;
    const nets::TwoLayerSpec spec = load_spec(in);
    struct {
        nets::AlignmentData data;
    } t2{nets::alignment_data(spec)};
    const proofs::LeastSquares ls = proofs::least_squares(t2.data);
    const std::size_t N = static_cast<std::size_t>(in.integer("iterations"));
    const std::vector<std::size_t> snaps = snapshot_iterations(in);
    const std::string tol_s = in.has("prediction_tolerance") ? in.number_string("prediction_tolerance") : "1e-10";
    const std::string kink_s = in.has("kink_angle") ? in.number_string("kink_angle") : "1e-3";
    for (const char* c : {h_step, h_paper_step, h_paper_scale, h_setting, h_rank, h_eq4, s_run, c_plateau, c_cones}) R.plan(c);
    for (std::size_t k = 0; k < t2.data.n; ++k) R.plan("(c) h(x_" + std::to_string(k + 1) + ") at iteration N within " + tol_s + " of x_k^T beta*");
    plan_bounds(in, R);
    Quantities Q;
    least_squares_table(R, ls, t2.data.n, bits, Q, /*full=*/t2.data.n == 3);

    // ---- (a) hypotheses
    const IntervalD h = in.interval_d("step");
    R.hypothesis(h_step, "[BF2025, App. B.1; the authors' code]").positive({"h", h});
    R.hypothesis(h_paper_step, "[BF2025, App. B.1]").le(cert::exact("h", in.number_string("step")), cert::exact("2e-3"));
    R.hypothesis(h_setting, "[BF2025, eq. (1), App. B.1]").result(proofs::relu_half_square(spec));
    R.hypothesis(h_rank, "[BF2025, Thm 2]").positive({"lambda_min(H)", ls.ok && t2.data.d == 2 ? proofs::lambda_min(proofs::gram_over_n(t2.data), bits) : flowcert::IntervalMp(0)});
    const nets::InitSpec is = load_init(in);
    R.hypothesis(h_paper_scale, "[BF2025, eq. (3), App. B.1]").le(cert::exact("lambda", is.lambda), cert::exact("1e-3"));
    R.set_seed("init", std::to_string(is.seed));
    const nets::TwoLayerModel<IntervalD> model(spec);
    const auto init = nets::initialize<IntervalD>(is, model.d());
    bf::export_initialization(ctx, is, model, init);
    R.hypothesis(h_eq4, "[BF2025, eq. (4)]").result(proofs::eq4_at_initialization(is, init));
    auto finish = [&](const std::string& why) {  // planned checks not reached are not proven
        std::vector<std::string> left;
        for (const auto& c : R.checks())
            if (c.status == cert::CheckStatus::not_run) left.push_back(c.name);
        for (const auto& name : left)
            (name.rfind("(b)", 0) == 0 ? R.step(name, "[docs/bf.md]") : R.conclusion(name, "[docs/bf.md]")).holds(false, "not evaluated: " + why);
    };
    for (const auto& c : R.checks())
        if (c.role == cert::Role::hypothesis && c.status != cert::CheckStatus::proven) return finish("a hypothesis is not proven");

    // ---- (b) the rigorous GD run
    nets::LumpedGdOptions o;
    o.iterations = N;
    o.handoff = in.has("handoff") ? static_cast<std::size_t>(in.integer("handoff")) : 4000;
    o.snapshots = snaps;
    proofs::GdPlateauTracker tracker(ls, model.risk_weight(), plotted_iterations(N, snaps));
    o.pairing_residual = tracker.rstar();  // <r*, q> per neuron (gd_plateau.hpp)
    const auto res = nets::lumped_gd(model, init.theta, h, o, [&](const nets::GdIterationView& v) { tracker.add(v); });
    const bool done = res.status == nets::GdStatus::completed;
    R.step(s_run, "[docs/bf.md, bf/figure2_gd]")
        .result(done ? flowcert::ProofResult::proven(std::to_string(N) + " iterations")
                     : flowcert::ProofResult::not_proven(nets::to_string(res.status) + " after iteration " + std::to_string(res.iterations_done) + ": " + res.reason));
    if (!done) return finish("the GD run did not reach N");

    // ---- (c) conclusions
    R.conclusion(c_plateau, "[BF2025, Thm 2, Figure 2; docs/bf.md, bf/figure2_gd]").result(tracker.loss_above_plateau());
    const IntervalD kink_sine = IntervalD::from_decimal(kink_s);
    const auto cones = proofs::closed_cone_membership(model, res.theta, res.maybe_frozen, res.kink_sample, res.kink_zeta, kink_sine);
    const bool paper_end = N >= kPaperIterations;
    const auto at_N = [&](const std::string& name, const char* cite) -> cert::CheckBuilder {
        return paper_end ? R.conclusion(name, cite) : R.step(name, std::string(cite) + "; N < 2e6: this case's time");
    };
    at_N(c_cones, "[BF2025, Figure 2, App. B.1]").result(cones.result);
    const IntervalD tol = IntervalD::from_decimal(tol_s);
    for (std::size_t k = 0; k < t2.data.n; ++k) {
        const IntervalD pred = to_interval_d(mp(ls.predictions[k], bits)), hk = res.residual[k] + model.y(k);
        at_N("(c) h(x_" + std::to_string(k + 1) + ") at iteration N within " + tol_s + " of x_k^T beta*", "[BF2025, Thm 2, Figure 2]")
            .within({"h(x_" + std::to_string(k + 1) + ")(theta_N)", hk}, {"x_k^T beta* - tol", pred - tol}, {"x_k^T beta* + tol", pred + tol});
        Q.set("h_" + std::to_string(k + 1) + "_final", flowcert::IntervalMp::bounds(lower(hk), upper(hk), flowcert::Precision(53)));
    }
    check_bounds(in, R, Q, "[BF2025, Figure 2; this case's claimed value]");

    // ---- tables and plots
    auto& sn = R.table("state at the snapshot iterations (certified enclosures)",
                       {"iteration", "", "L(theta_t)", "closed all-active", "closed all-inactive", "near a kink face", "neither", "|beta_P - beta*|"});
    sn.add_row(snapshot_row(model, init.theta, {}, {}, {}, kink_sine, ls, 0, "initialization"));
    for (const auto& s : res.snapshots)
        sn.add_row(snapshot_row(model, s.theta, s.maybe_frozen, s.kink_sample, s.kink_zeta, kink_sine, ls, s.t, "paper snapshot"));
    sn.add_row(snapshot_row(model, res.theta, res.maybe_frozen, res.kink_sample, res.kink_zeta, kink_sine, ls, N, "last iteration N"));
    if (!in.has("plain_run") || in.boolean("plain_run")) {  // the same cones in a plain double GD run of the same seed (NON-RIGOROUS; display only, issue 20 M3)
        const proofs::PlainRun plain = proofs::plain_gd_nonrigorous(model, init.theta, mid(h), N);
        const proofs::PlainConeCounts pc = proofs::plain_cone_counts(model, plain);
        auto& pt = R.table("classes at iteration N: certified, and a plain double GD run of the same seed (NON-RIGOROUS, " + std::to_string(N) +
                               " iterations, " + format_g(plain.seconds) + " s CPU)",
                           {"at iteration N", "certified", "plain double run (non-rigorous)"});
        pt.add_row({"closed all-active cone (a > 0)", std::to_string(cones.all_active) + " (" + std::to_string(cones.all_active_positive) + ")",
                    std::to_string(pc.all_active) + " (" + std::to_string(pc.all_active_positive) + ")"});
        pt.add_row({"closed all-inactive cone", std::to_string(cones.all_inactive), std::to_string(pc.all_inactive)});
        pt.add_row({"near a kink face (certified) / neither cone", std::to_string(cones.kink) + " / " + std::to_string(cones.other),
                    "- / " + std::to_string(pc.neither)});
        for (std::size_t k = 0; k < t2.data.n; ++k) {
            char b[64];
            std::snprintf(b, sizeof b, "%.3g", plain.residual[k] + mid(model.y(k)) - mid(to_interval_d(mp(ls.predictions[k], bits))));
            const IntervalD dev = res.residual[k] + model.y(k) - to_interval_d(mp(ls.predictions[k], bits));
            pt.add_row({"h(x_" + std::to_string(k + 1) + ") - x_k^T beta*", to_string(dev, 4), b});
        }
    }
    auto& st = R.table("the rigorous GD run", {"quantity", "value"});
    const auto& S = res.stats;
    for (const auto& [k, v] : std::vector<std::pair<std::string, std::string>>{
             {"hand-off iteration", std::to_string(o.handoff)}, {"class P at the hand-off (lumped)", std::to_string(S.members_at_handoff)},
             {"frozen at the hand-off", std::to_string(S.frozen_at_handoff)}, {"individual at the hand-off", std::to_string(S.individual_at_handoff)},
             {"members that left P", std::to_string(S.left)}, {"re-references of the members", std::to_string(S.rereferences)},
             {"per-neuron steps (undecided sign)", std::to_string(S.neuron_steps) + " (" + std::to_string(S.undecided_steps) + ")"},
             {"lumped steps", std::to_string(S.lumped_steps)}, {"largest Lohner coordinate radius", format_g(S.max_rho_width)},
             {"kink neurons: entries, exits, two-branch steps, most at once",
              std::to_string(S.kink_entries) + ", " + std::to_string(S.kink_exits) + ", " + std::to_string(S.kink_steps) + ", " + std::to_string(S.kink_max)},
             {"near a kink face at N: count, max |a_j|, max |theta_j| (all neurons: max |theta_j|), max |z_jk*| / |w_j|",
              std::to_string(cones.kink) + ", " + format_g(cones.kink_max_a) + ", " + format_g(cones.kink_max_theta) + " (" + format_g(cones.max_theta) + "), " +
                  format_g(cones.kink_max_ratio)},
             {"iterations where only the per-neuron form of <r*, q> proved L >= L*", std::to_string(tracker.pairing_decisive())},
             {"least lower bound of L - L* (iteration)", format_g(tracker.min_lower()) + " (" + std::to_string(tracker.argmin()) + ")"}})
        st.add_row({k, v});
    cert::TubePlot lp{.title = "loss L(theta_t) along the certified GD run (paper convention) and L*", .x_label = "iteration t", .y_label = "L"};
    lp.log_x = true;
    for (const auto& p : tracker.recorded()) lp.add_point("L(theta_t)", static_cast<double>(std::max<std::size_t>(p.t, 1)), p.loss);
    const double ls_lo = lower(to_interval_d(mp(ls.loss_paper, bits)));
    lp.add_line("L*", {1.0, static_cast<double>(N)}, {ls_lo, ls_lo});
    R.add_plot(lp);
    R.note("GD as the authors' code runs it (torch ReLU: sigma'(0) = 0), in exact arithmetic from the exact seeded initialization; the authors' float32 "
           "run and their random draws are not reproduced (docs/bf.md, bf/figure2_gd)");
    for (const auto& c : R.checks())
        if (c.role != cert::Role::evidence && c.status != cert::CheckStatus::proven) return;  // proven_statement only when proven
    R.claim.proven_statement = "for this initialization (m = " + std::to_string(is.m) + ", seed " + std::to_string(is.seed) + ", lambda = " + is.lambda +
                               ") and " + std::to_string(N) + " GD steps of size " + in.number_string("step") + ": L(theta_t) >= L* = " +
                               nets::decimal_string(ls.loss_paper, 10) + " at every iteration, and at the last one every neuron is in a closed all-active "
                               "or all-inactive cone" +
                               (cones.kink ? " except " + std::to_string(cones.kink) + " tiny kink neurons (|a_j| <= " + format_g(cones.kink_max_a) +
                                                 ") within the angle asin(" + kink_s + ") of a kink face, on its all-active side,"
                                           : std::string()) +
                               " and h(x_k) is within " + tol_s + " of x_k^T beta*";
}

}  // namespace

int main(int argc, char** argv) {
    auto keys = bf::data_keys();
    for (auto& k : bf::init_keys()) keys.push_back(k);
    keys.push_back({.name = "step", .type = cert::KeyType::number,
                    .description = "GD step h on the paper's L = (1/2n) sum (h - y)^2 (the authors' lr 1e-3 on (1/n) sum (h - y)^2 is h = 2e-3)"});
    keys.push_back({.name = "iterations", .type = cert::KeyType::integer, .description = "N: the GD iterates theta_0, ..., theta_N", .constraint = cert::Constraint::positive});
    keys.push_back({.name = "handoff", .type = cert::KeyType::integer, .description = "iteration at which the all-active class is lumped (default 4000)",
                    .required = false, .constraint = cert::Constraint::nonnegative});
    keys.push_back({.name = "snapshots", .type = cert::KeyType::numbers, .description = "iterations whose state is tabulated (the paper's: 3031, 6504, 1999999)",
                    .required = false});
    keys.push_back({.name = "kink_angle", .type = cert::KeyType::number,
                    .description = "claimed sine of the angle within which a neuron in neither closed cone lies of a kink face {z_k* = 0}, active on every other "
                                   "sample (default 1e-3)",
                    .required = false, .constraint = cert::Constraint::positive});
    keys.push_back({.name = "plain_run", .type = cert::KeyType::boolean,
                    .description = "also run a plain double GD of the same seed and tabulate its cones (NON-RIGOROUS, display only; default true)",
                    .required = false});
    keys.push_back({.name = "prediction_tolerance", .type = cert::KeyType::number, .description = "claimed |h(x_k) - x_k^T beta*| at N (default 1e-10)",
                    .required = false, .constraint = cert::Constraint::positive});
    cert::VerifierSpec spec{
        .name = "bf/figure2_gd",
        .summary = "certifies the Figure-2 gradient-descent run: loss >= L* at every iteration, predictions at the last iteration within a "
                   "tolerance of the least-squares fit, every neuron in a closed all-active or all-inactive cone or (kink neurons) within a "
                   "certified angle of a kink face",
        .claim = {.paper = "Boursier & Flammarion, JMLR 26 (2025), paper 24-1523", .locator = "Figure 2, App. B.1 (and Theorem 2)",
                  .paper_statement = "GD with lr 1e-3 for 2e6 iterations from a small balanced initialization converges to the least-squares "
                                     "predictor (a spurious stationary point, loss L* > 0) with every neuron in the all-active or the dead cone",
                  .proven_statement = {}},
        .schema = keys,
        .default_precision_bits = 128,
        .validate = validate,
        .run = run,
    };
    return cert::verifier_main(argc, argv, spec);
}
