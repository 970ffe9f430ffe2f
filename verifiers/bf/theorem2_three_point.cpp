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
#include <flowcert/nets/two_layer_flow.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "theorem2_hypothesis_checks.hpp"

namespace {

using namespace bf;
using flowcert::IntervalD;
using flowcert::IntervalMp;

const char* c_geom = "(c) three-point geometry";
const char* c_lstar = "(c) least-squares loss L* > 0";
const char* c_lmin = "(c) lambda_min(X^T X / n) > 0";
const char* b_tube = "(b) certified tube reaches T";
const char* b_loss = "(b) loss on [0, T] bounded below by a positive number";
const char* c_class = "(c) every neuron at T is frozen, all-active (P), a negative one-sample neuron (N_k), a negative two-sample neuron (S_i) or negative for all t (Q)";
const char* c_speed = "(c) N_k neurons: |a_j(t)| bounded away from 0 until z_jk <= 0 (Lemma 1 or step 2')";
const char* c_res = "(c) residual sign r_k(t) < 0 at the samples of N_k and S_k neurons (both extreme samples with Q neurons)";
const char* c_sdrift = "(c) S_i neurons: c_i(t) = r_2 <x_i, x_2> + r_i' <x_i, x_i'> > 0 (z_ji increases while negative)";
const char* c_smarg = "(c) S_i neurons stay active on x_2 and x_i' (margin at Gamma), |a_j| bounded away from 0";
const char* c_amin = "(c) A_min = inf sum_P a_j^2 > 0";
const char* c_marg = "(c) P neurons stay all-active (margin at Gamma)";
const char* c_boot = "(c) trajectory-length bootstrap Gamma* < Gamma";
const char* c_concl = "(c) conclusion: predictions -> x_k^T beta*, L(theta(t)) >= L* > 0 for all t >= 0";
const char* h_eq4 = "eq. (4) at initialization: |a_j(0)| >= |w_j(0)| for every neuron";
const std::vector<std::string> kSteps = {c_geom, c_lstar, c_lmin, b_tube, b_loss, c_class, c_speed, c_res, c_sdrift, c_smarg, c_amin, c_marg, c_boot};

// The (b) snapshot table row of a state: positive/negative neuron counts and |beta_P - beta*| (display only).
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

// Two enclosures of the same quantity meet; their intersection is one too (disjoint ones are a bug).
IntervalD meet(const IntervalD& a, const IntervalD& b) {
    IntervalD o;
    if (!intersect(a, b, o)) throw std::logic_error("lumped and per-neuron enclosures of a residual are disjoint");
    return o;
}

// The residuals r_k = h(x_k) - y_k on a step from the tube boxes, met with the lumped ones.
std::array<IntervalD, 3> step_residuals(const nets::TwoLayerModel<IntervalD>& model, const nets::FlowStep& st, bool lumped) {
    const auto hs = nets::outputs(model, st.tube);
    std::array<IntervalD, 3> rk;
    for (std::size_t k = 0; k < 3; ++k) {
        rk[k] = hs[k] - model.y(k);
        if (lumped && st.residual.size() == 3) rk[k] = meet(rk[k], st.residual[k]);
    }
    return rk;
}

// L = c sum_k r_k^2 / 2 (half-square loss) from residual enclosures.
IntervalD risk_of_residuals(const nets::TwoLayerModel<IntervalD>& model, const std::array<IntervalD, 3>& rk) {
    IntervalD s(0);
    for (const IntervalD& r : rk) s += sqr(r);
    return model.risk_weight() * s / IntervalD(2);
}

std::vector<std::string> snapshot_row(const nets::TwoLayerModel<IntervalD>& model, const nets::TwoLayerParams<IntervalD>& th,
                                      const proofs::LeastSquares& ls, double t, const std::string& phase) {
    const auto z = nets::preactivations(model, th);
    IntervalD sa2(0), bx(0), by(0);
    std::size_t pa = 0, po = 0, nn = 0;
    for (std::size_t j = 0; j < th.m; ++j) {
        bool allpos = true;
        const bool allneg13 = certainly_negative(z[j * 3 + 0]) && certainly_negative(z[j * 3 + 2]);
        for (std::size_t k = 0; k < 3; ++k) allpos = allpos && certainly_positive(z[j * 3 + k]);
        if (certainly_positive(th.a[j])) {
            sa2 += sqr(th.a[j]);
            if (allpos) ++pa;
            else if (!allneg13) ++po;
        } else if (!allneg13) {
            ++nn;
        }
        if (allpos) {
            bx += th.a[j] * th.W(j, 0);
            by += th.a[j] * th.W(j, 1);
        }
    }
    const IntervalD db = sqrt(sqr(bx - IntervalD::from_decimal(ls.beta[0].str())) + sqr(by - IntervalD::from_decimal(ls.beta[1].str())));
    return {fmt(t), phase, to_string(nets::risk(model, th), 6), to_string(sa2, 4), std::to_string(pa), std::to_string(po), std::to_string(nn), to_string(db, 4)};
}

// 1/K of step 6Q for the table ("none" when K is not finite: the step-6Q premises fail).
std::string q_rate(const IntervalD& K) {
    if (!std::isfinite(upper(K)) || !(upper(K) > 0)) return "none (K not finite)";
    return to_string(IntervalD(1) / IntervalD::bounds(upper(K), upper(K)), 6);
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
    const bool three = t2.data.n == 3 && t2.data.d == 2;
    const bool setting = three && t2.data.gamma == 0 && t2.data.loss == nets::LossKind::half_square && ls.ok;
    R.step(c_geom, "[BF2025, Lemma 8 proof; docs/bf.md step 0]")
        .statement("ReLU, half-square loss, n = 3, d = 2, X of full rank, <x_k, x_l> > 0, x_2 in the open cone of x_1, x_3")
        .result(setting ? t2.order.geometry : flowcert::ProofResult::not_proven("needs n = 3 points in d = 2, ReLU, the half-square loss and X of full rank"));
    if (R.find_check(c_geom)->status != cert::CheckStatus::proven) return finish("no three-point setting");
    R.step(c_lstar, "[BF2025, Thm 2]").statement("the least-squares fit does not interpolate").positive({"L* = (1/(2n)) sum r*_k^2", mp(ls.loss_paper, bits)});
    const IntervalMp lmin_mp = proofs::lambda_min(proofs::gram_over_n(t2.data), bits);
    R.step(c_lmin, "[docs/bf.md step 6]").positive({"lambda_min(H)", lmin_mp});
    Q.set("lambda_min_H", lmin_mp);
    if (R.find_check(c_lstar)->status != cert::CheckStatus::proven || R.find_check(c_lmin)->status != cert::CheckStatus::proven)
        return finish("L* > 0 or lambda_min(H) > 0 not proven");
    const proofs::ThreePointData data = proofs::three_point_data(t2.data, ls, bits);

    // ---- (b) the certified tube, fed to the trap's tracker -------------------------------------------
    const nets::TwoLayerModel<IntervalD> model(spec);
    const nets::InitSpec is = load_init(in);
    R.set_seed("init", std::to_string(is.seed));
    const auto init = nets::initialize<IntervalD>(is, model.d());
    bf::export_initialization(ctx, is, model, init);  // --export-instance
    // Theorem 2 assumes a balanced or dominated initialization (eq. (4)); route "none" does not (the trap tracks
    // the signs of a_j itself): evidence there.
    const flowcert::ProofResult eq4 = proofs::eq4_at_initialization(is, init);
    (route != "none" ? R.hypothesis(h_eq4, "[BF2025, eq. (4), Thm 2]") : R.evidence(h_eq4, "[BF2025, eq. (4)]")).result(eq4);
    const auto cones = nets::activation_cones_2d(t2.data);
    const auto k1 = proofs::theorem1_constants(t2.data, cones, bits);
    const IntervalD eps = in.has("epsilon") ? in.interval_d("epsilon") : IntervalD::from_decimal("0.3");
    nets::FlowOptions o;
    o.t_end = upper(in.interval_d("T"));  // a double >= T: the tube covers [0, T] (checked exactly below)
    if (in.has("order")) o.order = static_cast<int>(in.integer("order"));
    o.store_tube = false;
    o.threads = 2;
    const bool lumped = use_lumping(in, o);
    double tau_d = 0;  // snapshots: end of the alignment phase and T/4, T/2, 3T/4
    if (k1.result.is_proven()) {
        const IntervalD tau = -eps * log(IntervalD::from_decimal(is.lambda)) / to_d(k1.D_max);
        if (upper(tau) < o.t_end) o.output_times.push_back(tau_d = tau.lower());
    }
    for (double f : {0.25, 0.5, 0.75})
        if (f * o.t_end > tau_d + 1e-9) o.output_times.push_back(f * o.t_end);
    std::sort(o.output_times.begin(), o.output_times.end());
    cert::TubePlot loss_plot{.title = "loss L(theta(t)) along the certified tube (paper convention), and L*", .x_label = "t", .y_label = "L"};
    cert::TubePlot pred_plot{.title = "predictions h(x_k) along the certified tube, least-squares predictions dashed", .x_label = "t", .y_label = "h(x_k)"};
    double loss_lo = std::numeric_limits<double>::infinity();
    std::size_t step_no = 0;
    proofs::TubeTracker tracker(data, nets::balancedness(init.theta));
    tracker.set_negative_forever(proofs::negative_forever(init.theta.a, eq4.is_proven()));  // class Q (docs/bf.md step 3Q)
    const auto res = nets::integrate_gradient_flow(model, init.theta, o, [&](const nets::FlowStep& st) {
        const std::array<IntervalD, 3> rk = step_residuals(model, st, lumped);
        const IntervalD L = lumped ? meet(nets::risk(model, st.tube), risk_of_residuals(model, rk)) : nets::risk(model, st.tube);
        loss_lo = std::min(loss_lo, lower(L));
        tracker.add_step(st.t0, st.t1, st.tube.a, st.tube.w, nets::preactivations(model, st.tube), {rk[0], rk[1], rk[2]});
        if (step_no++ % 4 != 0) return;
        loss_plot.add_point("L(theta(t))", st.t1, L);
        for (std::size_t k = 0; k < 3; ++k) pred_plot.add_point("h(x_" + std::to_string(k + 1) + ")", st.t1, rk[k] + model.y(k));
    });
    const double lstar_lo = lower(mp(ls.loss_paper, bits));
    loss_plot.add_line("L*", {0.0, res.t_reached}, {lstar_lo, lstar_lo});
    for (std::size_t k = 0; k < 3; ++k) {
        const double p = mid(to_d(mp(ls.predictions[k], bits)));
        pred_plot.add_line("x_" + std::to_string(k + 1) + "^T beta*", {0.0, res.t_reached}, {p, p});
    }
    R.add_plot(loss_plot);
    R.add_plot(pred_plot);
    if (!res.completed()) {
        R.step(b_tube, "[BF2025, eq. (6), Sec. 4.1.1-4.1.2]")
            .holds(false, "integrator stopped at t = " + fmt(res.t_reached) + ": " + nets::to_string(res.status) + ": " + res.reason);
        return finish("the tube did not reach T");
    }
    R.step(b_tube, "[BF2025, eq. (6), Sec. 4.1.1-4.1.2]")
        .statement("the certified tube covers [0, T] (" + std::to_string(res.stats.steps) + " steps): T <= t_reached (exact)")
        .le(cert::exact("T", in.number_string("T")), {"t_reached", IntervalD::bounds(res.t_reached, res.t_reached)});
    R.step(b_loss, "[BF2025, Thm 2]")
        .statement("L(theta(t)) >= this bound for every t in [0, T] (interval risk on every step box)")
        .lt(cert::exact("0", "0"), {"min over tube steps of L (lower bound)", IntervalD::bounds(loss_lo, loss_lo)});
    auto& snaps = R.table("(b) snapshots of the certified tube", {"t", "phase", "L(theta(t))", "sum_{a>0} a^2", "positive all-active",
                                                                "positive other", "negative not frozen", "|beta_P - beta*|"});
    snaps.add_row(snapshot_row(model, init.theta, ls, 0, "initialization"));
    for (const auto& sn : res.snapshots)
        snaps.add_row(snapshot_row(model, sn.state, ls, sn.t, sn.t == tau_d ? "end of alignment, tau = eps ln(1/lambda)/D_max" : "growth / fitting"));
    snaps.add_row(snapshot_row(model, res.state, ls, res.t_reached, "T: start of the trapping argument"));

    // ---- (c) the trapping argument from the box at T ----------------------------------------------------
    const auto& th = res.state;
    const auto z = nets::preactivations(model, th);
    auto h = nets::outputs(model, th);
    if (lumped)
        for (std::size_t k = 0; k < 3; ++k) h[k] = meet(h[k], res.residual[k] + model.y(k));
    std::vector<proofs::TrapNeuron> neurons;
    std::string first_bad;
    for (std::size_t j = 0; j < th.m; ++j) {
        neurons.push_back(tracker.neuron_at_T(j, th.a[j], th.W(j, 0), th.W(j, 1), {z[j * 3], z[j * 3 + 1], z[j * 3 + 2]}));
        if (neurons.back().cls == proofs::NeuronClass::unclassified && first_bad.empty()) first_bad = neurons.back().note;
    }
    const proofs::TrapBox box = proofs::make_trap_box(data, neurons, proofs::e_at_T(data, {h[0], h[1], h[2]}));
    R.step(c_class, "[BF2025, Sec. 4.1.3; docs/bf.md step 1]")
        .holds(box.unclassified() == 0, std::to_string(box.frozen()) + " frozen, " + std::to_string(box.P().size()) + " all-active, " +
                                            std::to_string(box.N_count(0)) + " N_1, " + std::to_string(box.N_count(2)) + " N_3, " +
                                            std::to_string(box.S_count(0)) + " S_1, " + std::to_string(box.S_count(2)) + " S_3, " +
                                            std::to_string(box.Q().size()) + " Q, " + std::to_string(box.unclassified()) + " unclassified" +
                                            (box.unclassified() ? " (first: " + first_bad + "); a longer horizon T may resolve it" : ""));
    if (box.unclassified() != 0) return finish("a neuron at T is not classified");
    const proofs::GammaChoice gc = proofs::choose_gamma(box);  // heuristic; every premise is checked at this Gamma
    if (!gc.fixed_point) R.note(gc.diagnostic);
    const IntervalD G = IntervalD::bounds(gc.Gamma, gc.Gamma);
    const std::string atG = " (bounds valid for all t >= T while Gamma(t) <= Gamma = " + fmt(gc.Gamma) + ")";
    R.step(c_speed, "[BF2025, Lemma 1; docs/bf.md step 2]").result(proofs::pinning_premise(box, G));
    std::string rs;
    double worst = -std::numeric_limits<double>::infinity();
    for (std::size_t k : {std::size_t(0), std::size_t(2)}) {
        if (box.N_count(k) == 0 && box.S_count(k) == 0 && box.Q().empty()) continue;
        const IntervalD rk = proofs::residual_bound(box, k, G);
        rs += (rs.empty() ? "" : "; ") + std::string("r_") + std::to_string(k + 1) + "(t) in " + to_string(rk, 6);
        worst = std::max(worst, upper(rk));
    }
    if (rs.empty()) R.step(c_res, "[BF2025, Assumption 6; docs/bf.md step 5]").trivially_true("no N_k, S_k or Q neuron at T").holds(true, "vacuous");
    else R.step(c_res, "[BF2025, Assumption 6; docs/bf.md step 5]").statement(rs + atG).lt({"max_k sup_{t >= T} r_k(t)", IntervalD::bounds(worst, worst)}, cert::exact("0", "0"));
    if (box.S().empty()) {
        R.step(c_sdrift, "[docs/bf.md step 3]").trivially_true("no S_i neuron at T").holds(true, "vacuous");
        R.step(c_smarg, "[docs/bf.md step 3]").trivially_true("no S_i neuron at T").holds(true, "vacuous");
    } else {
        double cl = std::numeric_limits<double>::infinity();
        for (std::size_t i : {std::size_t(0), std::size_t(2)})
            if (box.S_count(i)) cl = std::min(cl, lower(proofs::s_drift_lower(box, i, G)));
        R.step(c_sdrift, "[docs/bf.md step 3]").statement("c_i(t) > 0 for all t >= T" + atG).lt(cert::exact("0", "0"), {"min_i inf_{t >= T} c_i(t)", IntervalD::bounds(cl, cl)});
        std::size_t sj = 0;
        const IntervalD ms = proofs::s_margin(box, G, &sj);
        double al = std::numeric_limits<double>::infinity();
        for (std::size_t q = 0; q < box.S().size(); ++q) al = std::min(al, lower(proofs::s_speed_lower(box, q, G)));
        R.step(c_smarg, "[BF2025, Lemma 1; docs/bf.md step 3]")
            .statement("margin " + to_string(ms, 6) + " (tightest: neuron " + std::to_string(sj) + "), inf |a_j| >= " + fmt(al) +
                       "; tau_S <= " + fmt(upper(proofs::s_crossing_time(box, G))) + atG)
            .lt(cert::exact("0", "0"), {"min(min_{j in S, k} z_jk(T) - |x_k| dw_j(Gamma), min_{j in S} |a_j|_lower)", min(ms, IntervalD::bounds(al, al))});
    }
    const IntervalD Amin = proofs::a_min(box, G);
    R.step(c_amin, "[docs/bf.md step 6]").statement("sum_P a_j(t)^2 >= A_min for all t >= T" + atG).lt(cert::exact("0", "0"), {"A_min", Amin});
    std::size_t pj = 0;
    const IntervalD marg = proofs::p_margin(box, G, &pj);
    R.step(c_marg, "[docs/bf.md step 4]")
        .statement("every P neuron stays strictly active on every sample (tightest: neuron " + std::to_string(pj) + ")" + atG)
        .lt(cert::exact("0", "0"), {"min_{j in P, k} z_jk(T) - |x_k| dw_j(Gamma)", marg});
    const IntervalD gstar = proofs::gamma_star(box, G), tau = proofs::final_regime_time(box, G);
    R.step(c_boot, "[docs/bf.md step 7]")
        .statement("the region {Gamma(t) < Gamma} cannot be left, so the flow stays in it for all t >= T; then T1 = T + tau <= " +
                   fmt(res.t_reached + upper(tau)) +
                   (box.Q().empty() ? std::string(" and E(t) <= E(T) exp(-2 lambda_min A_min (t - T1)) -> 0")
                                    : std::string(" and E(t) <= E(T) exp(-(t - T1) / K) -> 0 (docs/bf.md step 6Q)")))
        .lt({"Gamma*(Gamma), docs/bf.md step 6", gstar}, {"Gamma", G});
    auto& tb = R.table("(c) trapping argument: constants at T", {"quantity", "enclosure"});
    const std::vector<std::pair<std::string, std::string>> rows = {
        {"T", fmt(res.t_reached)}, {"L(theta(T))", to_string(nets::risk(model, th), 10)}, {"E(T) = L(theta(T)) - L*", to_string(box.E_T(), 6)},
        {"lambda_min(H)", to_string(data.lambda_min, 8)}, {"|P| (all-active), sum_P |theta_j(T)|^2", std::to_string(box.P().size()) + ", " + to_string(box.S2(), 6)},
        {"N_1, N_3 (negative one-sample neurons)", std::to_string(box.N_count(0)) + ", " + std::to_string(box.N_count(2))},
        {"contribution bounds C_1, C_3", to_string(box.CN(0), 4) + ", " + to_string(box.CN(2), 4)},
        {"S_1, S_3 (negative two-sample neurons), sum_S |theta_j(T)|^2", std::to_string(box.S_count(0)) + ", " + std::to_string(box.S_count(2)) + ", " + to_string(box.S2S(), 6)},
        {"Q (negative, pattern undecided), sum_Q |theta_j(T)|^2", std::to_string(box.Q().size()) + ", " + to_string(box.S2Q(), 6)},
        {"Lojasiewicz constant K (step 6Q), tail 2 sqrt(K q_max / A_min)", to_string(proofs::lojasiewicz_constant(box, G), 6) + ", " + to_string(proofs::negligible_tail(box, G), 6)},
        {"tau_pin, tau_S", to_string(proofs::pinning_time(box, G), 6) + ", " + to_string(proofs::s_crossing_time(box, G), 6)},
        {"output perturbation q_max on [T, T1]", to_string(proofs::q_max(box, G), 6)}, {"A_moving (all t >= T)", to_string(proofs::a_min_moving(box, G), 6)},
        {"Gamma (chosen)", fmt(gc.Gamma)}, {"Gamma*(Gamma)", to_string(gstar, 6)}, {"tau = max(tau_pin, tau_S) (T1 = T + tau)", to_string(tau, 6)},
        {"G0 = sup |g| for t >= T", to_string(proofs::gradient_bound(box, G), 6)}, {"A_min", to_string(Amin, 6)},
        {box.Q().empty() ? "PL rate 2 lambda_min A_min: E(t) <= E(T) exp(-rate (t - T1))" : "rate 1/K (step 6Q): E(t) <= E(T) exp(-rate (t - T1))",
         box.Q().empty() ? to_string(IntervalD(2) * data.lambda_min * Amin, 6) : q_rate(proofs::lojasiewicz_constant(box, G))},
        {"min margin", to_string(marg, 6)}};
    for (const auto& r : rows) tb.add_row({r.first, r.second});
    for (std::size_t k = 0; k < 3; ++k) tb.add_row({"r_" + std::to_string(k + 1) + "(t), t >= T (step 4 bound)", to_string(proofs::residual_step4(box, k, G), 6)});
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
