// bf/theorem1_alignment -- [BF2025, Theorem 1]: early alignment for small initialization.
//
// Hypotheses on the instance: epsilon < 1/3, alpha_0 <= 1, Lemma 2 (non-degeneracy), no saddle of G, eq. (4)
// at initialization, and lambda < lambda*_{alpha_0} (eq. (21)) per lambda. For each lambda of the sweep: the
// certified tube (nets::integrate_gradient_flow) up to tau = eps ln(1/lambda) / D_max and
//   (i)  lambda^{2 eps} <= |a_j^t| / |a_j^0| <= lambda^{-2 eps} for all t <= tau (every step box): the
//        conclusion for the lambdas below lambda*, evidence for the others; |w_j^t| <= |a_j^t| from eq. (4) and
//        Lemma 1;
//   (ii) the alignment gaps at tau of the positive neurons with a certain pattern (proofs/bf/alignment_phase):
//        the bound c_{alpha0} lambda^eps of eq. (36) is ~1e49, above the a-priori bound 2 D_max of every gap, so
//        that check is labelled trivially true; the certified log-log slopes between consecutive lambdas
//        against the rate eps |D| / D_max are evidence.
#include <flowcert/nets.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "bf_data.hpp"

namespace {

using namespace bf;
using flowcert::IntervalD;
using flowcert::IntervalMp;

// What every lambda of the sweep shares: the data constants of App. D and eq. (21), the model and the seed.
struct Setup {
    nets::AlignmentData data;
    proofs::Theorem1Constants k;
    proofs::LambdaStar ls;
    bool have_c36 = false;  // c_alpha0 of eq. (36) divides by alpha_min, alpha_0 and D_min: defined where lambda* is
    IntervalD Dmax, c36, eps;
    nets::InitSpec init;    // lambda set per point
};

// The hypotheses on the instance and the constants; false if the constants are not certified (nothing follows).
bool state_hypotheses(cert::Context& ctx, const nets::TwoLayerModel<IntervalD>& model, const std::vector<std::string>& lambdas,
                      Setup& S) {
    const cert::Case& in = ctx.input;
    cert::Report& R = ctx.report;
    const long bits = ctx.precision_bits;  // the MPFI enclosures of the data constants (the tube is IntervalD)
    const std::string eps_s = in.number_string("epsilon"), alpha0_s = in.number_string("alpha0");
    R.hypothesis("epsilon < 1/3", "[BF2025, Thm 1]").lt({"epsilon", in.interval_mp("epsilon", ctx.precision())}, cert::exact("1/3"));
    R.hypothesis("alpha0 <= 1", "[BF2025, Condition 1, eq. (21)]").le({"alpha0", in.interval_mp("alpha0", ctx.precision())}, cert::exact("1"));
    S.k = proofs::theorem1_constants(S.data, nets::activation_cones_2d(S.data), bits);
    R.step("Theorem 1 constants certified", "[BF2025, App. D]").result(S.k.result);
    R.hypothesis("Lemma 2 non-degeneracy (hypothesis)", "[BF2025, Lemma 2, Assumption 2]").result(proofs::lemma2_nondegeneracy(S.k));
    R.hypothesis("no saddle of G (hypothesis)", "[BF2025, Thm 1 vs Thm 3]").result(proofs::no_saddle(S.k));
    if (!S.k.result.is_proven()) return false;
    S.ls = proofs::lambda_star(S.data, S.k, alpha0_s, eps_s, bits);
    R.step("lambda* certified (eq. (21))", "[BF2025, eq. (21)]").result(S.ls.result);
    S.Dmax = to_interval_d(S.k.D_max);
    S.have_c36 = S.ls.result.is_proven();
    S.c36 = S.have_c36 ? to_interval_d(proofs::c_alpha0(S.data, S.k, alpha0_s, bits)) : IntervalD(0);
    S.eps = IntervalD::from_decimal(eps_s);
    if (in.has("init")) {
        const std::string kind = in.string("init");
        if (kind == "dominated_uniform_ball") S.init.kind = nets::InitKind::dominated_uniform_ball;
        if (kind == "unbalanced_gaussian") S.init.kind = nets::InitKind::unbalanced_gaussian;
    }
    S.init.m = static_cast<std::size_t>(in.integer("m"));
    S.init.seed = static_cast<std::uint64_t>(in.integer("seed"));
    // eq. (4) is a property of the generated numbers (a~, w~), the same for every lambda
    nets::InitSpec is0 = S.init;
    is0.lambda = lambdas.front();
    const auto init0 = nets::initialize<IntervalD>(is0, model.d());
    R.hypothesis("eq. (4) at initialization", "[BF2025, eq. (4), Thm 1]").result(proofs::eq4_at_initialization(is0, init0));
    R.set_seed("init", std::to_string(S.init.seed));
    // --export-instance: a~, w~ serve every lambda; a0, W0 are those of the first lambda
    if (ctx.instance_export) bf::export_initialization(ctx, is0, model, init0);
    return true;
}

// Sweep point: the certified tube for one lambda up to tau = eps ln(1/lambda) / D_max, the hull of |a^t|/|a^0| over
// its step boxes, and the alignment gaps at tau; what the report needs, intervals exact.
nlohmann::json tube_record(const cert::Context& ctx, const nets::TwoLayerModel<IntervalD>& model, const Setup& S,
                           const std::string& lambda) {
    nets::InitSpec isi = S.init;
    isi.lambda = lambda;
    const auto init = nets::initialize<IntervalD>(isi, model.d());
    const IntervalD tau_i = -S.eps * log(IntervalD::from_decimal(lambda)) / S.Dmax;
    nets::FlowOptions o;
    o.t_end = upper(tau_i);  // the tube covers [0, sup tau]; theta(tau) from proofs::state_before
    o.store_tube = false;
    o.threads = ctx.threads;
    IntervalD ratio;
    bool first = true;
    nets::TwoLayerParams<IntervalD> last_boxes;
    bool have_boxes = false;
    const auto res = nets::integrate_gradient_flow(model, init.theta, o, [&](const nets::FlowStep& st) {
        for (std::size_t j = 0; j < S.init.m; ++j) {
            const IntervalD r = abs(st.tube.a[j]) / abs(init.theta.a[j]);
            ratio = first ? r : hull(ratio, r);
            first = false;
        }
        if (st.t1 < lower(tau_i)) return;
        if (!have_boxes) last_boxes = st.tube;
        for (std::size_t q = 0; q < last_boxes.a.size(); ++q) last_boxes.a[q] = hull(last_boxes.a[q], st.tube.a[q]);
        for (std::size_t q = 0; q < last_boxes.w.size(); ++q) last_boxes.w[q] = hull(last_boxes.w[q], st.tube.w[q]);
        have_boxes = true;
    });
    nlohmann::json rec = {{"completed", res.completed()},
                          {"t_reached", cert::exact_string(res.t_reached)}, {"status", nets::to_string(res.status) + ": " + res.reason},
                          {"steps", res.stats.steps}, {"ratio", cert::exact_json(ratio)}};
    if (!res.completed()) return rec;
    const auto at_tau = have_boxes ? proofs::state_before(model, res.state, last_boxes, lower(tau_i), upper(tau_i)) : res.state;
    const proofs::AlignmentGaps g = proofs::alignment_gaps(model, at_tau, init.theta, res.frozen);
    rec["counted"] = g.counted;
    rec["gmax"] = cert::exact_json(g.max_gap);
    rec["min_D"] = cert::exact_json(g.min_D);
    return rec;
}

// The gaps of the lambdas whose tube has gap neurons, for the slope evidence.
struct Gaps {
    std::vector<std::size_t> lambda_index;
    std::vector<IntervalD> gap, min_D;
};

// Per lambda: lambda < lambda* (hypothesis where Theorem 1 applies, else evidence), the tube, (i) and (ii).
// Returns whether some lambda is below lambda* (else every check is evidence).
bool report_lambdas(cert::Report& R, const Setup& S, const std::vector<std::string>& lambdas,
                    const std::vector<nlohmann::json>& records, cert::SweepPlot& plot, Gaps& G) {
    auto& tab = R.table("sweep", {"lambda", "tau", "steps", "|a^t|/|a^0| range", "max gap at tau", "neurons in gap", "c36 lambda^eps", "lambda < lambda*"});
    const IntervalD& eps = S.eps;
    bool any_below = false;
    for (std::size_t li = 0; li < lambdas.size(); ++li) {
        const std::string& l = lambdas[li];
        const auto& rec = records[li];
        const IntervalD lam = IntervalD::from_decimal(l);
        const IntervalD tau_i = -eps * log(lam) / S.Dmax;
        const bool below = S.ls.result.is_proven() && upper(lam) < lower(S.ls.lambda_star);  // Theorem 1 applies to this lambda
        any_below = any_below || below;
        if (below) R.hypothesis("lambda < lambda*, lambda = " + l, "[BF2025, Thm 1, eq. (21)]").lt({"lambda", lam}, {"lambda*_{alpha0}", to_interval_d(S.ls.lambda_star)});
        else if (S.ls.result.is_proven()) R.evidence("lambda < lambda*, lambda = " + l, "[BF2025, Thm 1, eq. (21); not below: evidence]").lt({"lambda", lam}, {"lambda*_{alpha0}", to_interval_d(S.ls.lambda_star)});
        else R.evidence("lambda < lambda*, lambda = " + l, "[BF2025, Thm 1, eq. (21)]").holds(false, "lambda* not certified: " + S.ls.result.reason);
        if (!rec.at("completed").get<bool>()) {
            R.step("tube reaches tau, lambda = " + l, "[BF2025, eq. (6)]").holds(false, rec.at("status").get<std::string>());
            R.evidence("(i) |a^t|/|a^0| bounds, lambda = " + l, "[BF2025, Thm 1 (i)]").holds(false, "no tube");
            continue;
        }
        const double t_end = cert::parse_exact_double(rec.at("t_reached").get<std::string>());
        R.step("tube reaches tau, lambda = " + l, "[BF2025, eq. (6)]")
            .statement("the certified tube covers [0, tau], tau = eps ln(1/lambda) / D_max: tau <= t_reached")
            .le({"tau", tau_i}, {"t_reached", IntervalD::bounds(t_end, t_end)});
        const IntervalD ratio = cert::interval_d_from_json(rec.at("ratio"));
        const IntervalD lo_b = exp(IntervalD(2) * eps * log(lam)), hi_b = exp(-(IntervalD(2) * eps * log(lam)));
        (below ? R.conclusion("(i) |a^t|/|a^0| bounds, lambda = " + l, "[BF2025, Thm 1 (i)]")
               : R.evidence("(i) |a^t|/|a^0| bounds, lambda = " + l, "[BF2025, Thm 1 (i); lambda not below lambda*]"))
            .statement("lambda^{2 eps} <= |a_j^t| / |a_j^0| <= lambda^{-2 eps} for every j and t in [0, tau] (hull over step boxes and neurons)")
            .within({"|a^t|/|a^0|", ratio}, {"lambda^{2 eps}", lo_b}, {"lambda^{-2 eps}", hi_b});
        const std::size_t counted = rec.at("counted").get<std::size_t>();
        const IntervalD bound = S.c36 * exp(eps * log(lam));
        if (counted > 0) {
            const IntervalD gmax = cert::interval_d_from_json(rec.at("gmax"));
            G.lambda_index.push_back(li);
            G.gap.push_back(gmax);
            G.min_D.push_back(cert::interval_d_from_json(rec.at("min_D")));
            plot.add_point("max gap", mid(lam), gmax);
            auto ck = below ? R.conclusion("(ii) gap <= c_alpha0 lambda^eps, lambda = " + l, "[BF2025, Thm 1 (ii), eq. (36)]")
                            : R.evidence("(ii) gap <= c_alpha0 lambda^eps, lambda = " + l, "[BF2025, Thm 1 (ii), eq. (36); lambda not below lambda*]");
            if (lower(bound) >= upper(IntervalD(2) * S.Dmax))  // gap <= |D| + |D| |w| / |a| <= 2 D_max (|w| <= |a|)
                ck.trivially_true("c_alpha0 lambda^eps >= 2 D_max, the a-priori bound of every gap (|w^tau| <= |a^tau|)");
            if (S.have_c36) ck.le({"max_j gap", gmax}, {"c36 lambda^eps", bound});
            else ck.holds(false, "c_alpha0 of eq. (36) is not defined: " + S.ls.result.reason);
        }
        tab.add_row({l, to_string(tau_i, 6), std::to_string(rec.at("steps").get<long long>()), to_string(ratio, 6),
                     counted ? to_string(G.gap.back(), 6) : "-", std::to_string(counted), to_string(bound, 6), below ? "yes" : "no"});
    }
    return any_below;
}

// Evidence: certified log-log slopes between consecutive lambdas against the rate eps |D| / D_max of (ii).
void report_slopes(cert::Report& R, const Setup& S, const std::vector<std::string>& lambdas, const Gaps& G) {
    auto& st = R.table("log-log slopes of the gap", {"lambda_i", "lambda_i+1", "certified slope", "rate eps |D|_min / D_max"});
    for (std::size_t i = 0; i + 1 < G.gap.size(); ++i) {
        const std::string& l1 = lambdas[G.lambda_index[i]];
        const std::string& l2 = lambdas[G.lambda_index[i + 1]];
        const auto s = flowcert::loglog_slope(G.gap[i], G.gap[i + 1], IntervalD::from_decimal(l1), IntervalD::from_decimal(l2));
        if (!s) continue;  // a gap not certainly positive: no bounded slope
        const IntervalD& slope = *s;
        const IntervalD rate = S.eps * min(G.min_D[i], G.min_D[i + 1]) / S.Dmax;
        R.evidence("(ii) slope of the gap between lambda = " + l1 + " and " + l2 + " >= eps |D| / D_max", "[BF2025, Thm 1 (ii)]")
            .statement("a finite-lambda slope of the O(lambda^{eps |D| / D_max}) rate (evidence, not the asymptotic claim)")
            .le({"eps |D|_min / D_max", rate}, {"certified slope", slope});
        st.add_row({l1, l2, to_string(slope, 6), to_string(rate, 6)});
    }
}

void run(cert::Context& ctx) {
    const cert::Case& in = ctx.input;
    cert::Report& R = ctx.report;
    const auto spec = load_spec(in);
    const auto lambdas = in.number_strings("lambdas");
    for (const char* c : {"epsilon < 1/3", "alpha0 <= 1", "Theorem 1 constants certified", "Lemma 2 non-degeneracy (hypothesis)",
                          "no saddle of G (hypothesis)", "lambda* certified (eq. (21))", "eq. (4) at initialization", "(i) |w^t| <= |a^t| for t <= tau"})
        R.plan(c);
    for (const auto& l : lambdas) {
        R.plan("tube reaches tau, lambda = " + l);
        R.plan("(i) |a^t|/|a^0| bounds, lambda = " + l);
    }
    const nets::TwoLayerModel<IntervalD> model(spec);
    Setup S;
    S.data = nets::alignment_data(spec);
    if (!state_hypotheses(ctx, model, lambdas, S)) return;
    // The lambda sweep through cert::Context::sweep (points can be split over processes and merged).
    const auto records = ctx.sweep(lambdas.size(), [&](std::size_t i) { return tube_record(ctx, model, S, lambdas[i]); });

    cert::SweepPlot plot{.title = "alignment gap at tau vs lambda (certified error bars)", .x_label = "lambda", .y_label = "max_j gap"};
    Gaps G;
    const bool any_below = report_lambdas(R, S, lambdas, records, plot, G);
    (any_below ? R.conclusion("(i) |w^t| <= |a^t| for t <= tau", "[BF2025, Thm 1 (i), eq. (4), Lemma 1]")
               : R.evidence("(i) |w^t| <= |a^t| for t <= tau", "[BF2025, Thm 1 (i), eq. (4), Lemma 1; no lambda below lambda*]"))
        .statement("|w_j^t| <= |a_j^t| for every j and t: a_j^2 - |w_j|^2 is conserved (Lemma 1) and >= 0 at t = 0 (eq. (4))")
        .implied_by({"eq. (4) at initialization"});
    report_slopes(R, S, lambdas, G);
    plot.add_slope("eps slope (theorem)", mid(S.eps));  // a slope only: the theorem gives no constant
    R.add_plot(plot);
    R.note("lambda* (eq. (21)) = " + (S.ls.result.is_proven() ? to_string(S.ls.lambda_star, 6) : "not certified: " + S.ls.result.reason) +
           "; c_alpha0 (eq. (36)) in " + (S.have_c36 ? to_string(S.c36, 6) : std::string("(not defined)")) + "; D_max in " +
           to_string(S.Dmax, 10) + ". Theorem 1 is checked (conclusion) only for lambda below the certified lambda*; the other lambdas are evidence.");
    R.claim.proven_statement = "per lambda below lambda*: the certified tube up to tau and bound (i) on every step box; |w^t| <= |a^t| from "
                               "eq. (4) and Lemma 1; gap (ii) against eq. (36) (trivially true here) and the slopes as evidence";
}

}  // namespace

int main(int argc, char** argv) {
    auto keys = bf::data_keys();
    keys.push_back({.name = "m", .type = cert::KeyType::integer, .description = "number of neurons", .constraint = cert::Constraint::positive});
    keys.push_back({.name = "seed", .type = cert::KeyType::integer, .description = "initialization seed"});
    keys.push_back({.name = "lambdas", .type = cert::KeyType::numbers, .description = "initialization scales", .constraint = cert::Constraint::positive});
    keys.push_back({.name = "epsilon", .type = cert::KeyType::number, .description = "epsilon in (0, 1/3)", .constraint = cert::Constraint::positive});
    keys.push_back({.name = "alpha0", .type = cert::KeyType::number, .description = "alpha_0 of eq. (21)", .constraint = cert::Constraint::positive});
    keys.push_back({.name = "init", .type = cert::KeyType::string, .description = "initialization kind (default balanced_gaussian)",
                    .required = false, .choices = {"balanced_gaussian", "dominated_uniform_ball", "unbalanced_gaussian"}});
    cert::VerifierSpec spec{
        .name = "bf/theorem1_alignment",
        .summary = "certifies Theorem 1 (i) and the alignment gaps on a lambda sweep from the certified gradient-flow tube",
        .claim = {.paper = "BF2025", .locator = "Theorem 1",
                  .paper_statement = "for lambda < lambda*, t <= tau: lambda^{2eps} <= |a^t|/|a^0| <= lambda^{-2eps}, |w^t| <= |a^t|; "
                                     "gap at tau = O(lambda^{eps |D| / D_max})",
                  .proven_statement = {}},
        .schema = keys,
        .default_precision_bits = 128,
        .validate = [](const cert::Case& c) {
            bf::validate_data(c);
            if (c.number_strings("lambdas").size() < 2) c.fail("lambdas", "need at least two values");
        },
        .run = run,
        .sweep = "lambda",
    };
    return cert::verifier_main(argc, argv, spec);
}
