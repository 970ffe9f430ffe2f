// verifiers/kh/theorem4_limit_path.cpp -- [KH2025] (Kumar & Haupt, JMLR 26, paper 25-1089), Theorem 4 (L = 2):
// after the shift T1 + ln(1/b_delta)/(2N(w*)) + ln(1/delta~)/(2N(w*)), the gradient flow psi(., delta w0) of the
// loss stays within C~ delta^{Delta/(Delta + 8N(w*))} of the limiting path
//     p(t) = lim_{delta -> 0} psi(t + ln(1/delta)/(2N(w*)), delta w*)
// for all |t| <= T~, when w0 is in the stable set S(w*) of a Delta-second-order positive KKT point w*.
//
// For one instance (a case file) the verifier certifies
//   premises: H is 2-homogeneous; w* is a KKT point of (4) (Krawczyk), N(w*) > 0, 0 < Delta <= Delta_max;
//             the Lemma 23 cap {w*^T w >= 1 - gamma} for a case-given gamma, with N > 0 on it (Lemma 24, eq. (32))
//             (closed-form criteria for quadratic N, derived in docs/kh.md); w0 in S(w*) (Definition 2): the certified NCF-flow tube from
//             w0 enters that cap, after which Lemma 24 gives convergence of the direction to w*;
//   conclusion on a delta sweep: per delta a certified tube of psi(t + s_delta, delta w0) on |t| <= T~ (for every
//             t in each step) against the closed-form p(t), giving an enclosure of the sup distance E(delta);
//             certified log-log slopes between consecutive deltas >= Delta/(Delta + 8N(w*)), hence an exhibited
//             constant C~ with E(delta) <= C~ delta^{Delta/(Delta+8N)} on the sweep; optionally the slope of the
//             last pair against the actual rate Delta_max/(2N(w*)).
// The theorem's constants are unspecified: the shift constants (T1, b_delta, delta~) and C~ are exhibited here.
// The proof steps are in lib/flowcert/proofs/kh/theorem4_steps.hpp; the case in theorem4_case.hpp, the records in
// theorem4_report.hpp. See docs/kh.md (section kh/theorem4_limit_path) for the derivations and the distance to the paper.
#include <flowcert/cert.hpp>
#include <flowcert/nets.hpp>
#include <flowcert/proofs/kh/ncf_kkt.hpp>
#include <flowcert/proofs/kh/lyapunov_perron.hpp>
#include <flowcert/proofs/kh/theorem4_steps.hpp>

#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kh_report.hpp"
#include "sweep_records.hpp"
#include "theorem4_case.hpp"
#include "theorem4_report.hpp"

namespace cert = flowcert::cert;
using namespace flowcert;
using namespace flowcert::nets;
using namespace flowcert::proofs::kh;

namespace {
namespace nm = kh4::names;

// What the run has established by the sweep.
template <Interval I>
struct Established {
    I Nstar, Dmax, Delta, Ttilde;
    Theorem4Shift<I> shift;
    Theorem4ClosedForm<I> form;
    std::optional<LyapunovPerronBall<I>> ball;  // limit_path = lyapunov_perron: p without a closed form
};

// The delta sweep (points through cert::Context::sweep, issue 7), its steps, tables, plots, slopes and conclusion.
template <Interval I>
void sweep(cert::Context& ctx, const kh4::Instance<I>& s, const Established<I>& e, cert::Table& st) {
    const cert::Case& in = ctx.input;
    auto& rep = ctx.report;
    const auto dec = [&](const std::string& x) { return IntervalTraits<I>::from_decimal(x, s.bits); };
    const std::vector<I> w0 = *unit_direction(s.v0);
    const taylor::VectorField loss_field = homogeneous_loss_flow_field(s.arch, s.n, s.norm);
    const auto loss_params = homogeneous_flow_parameters<I>(s.data.X, s.data.y);
    const Theorem4Rates<I> rates = theorem4_rates(e.Delta, e.Dmax, e.Nstar);
    const int grid = in.has("window_grid") ? static_cast<int>(in.integer("window_grid")) : 400;
    ode::Options opt;
    if (in.has("taylor_order")) opt.order = static_cast<int>(in.integer("taylor_order"));
    kh4::SweepPlots<I> plots(rep);
    const std::size_t m = s.deltas.size();
    const auto records = ctx.sweep(m, [&](std::size_t q) {
        const khreport::Stopwatch point_clock;
        const auto wd = e.ball ? theorem4_sweep_point<I>(loss_field, loss_params, w0, dec(s.deltas[q]), e.shift, *e.ball, e.Ttilde, grid, opt, s.bits)
                               : theorem4_sweep_point<I>(loss_field, loss_params, w0, dec(s.deltas[q]), e.shift, *e.form.path, e.Ttilde, grid, opt, s.bits);
        return kh4::record_of(wd, point_clock.seconds(), q == 0 || q + 1 == m);
    });
    std::vector<I> E, ds_i;
    std::vector<bool> have;
    for (std::size_t q = 0; q < m; ++q) {
        double secs = 0;
        const WindowDistance<I> wd = kh4::window_of<I>(records[q], secs);
        const I delta = dec(s.deltas[q]), shift = e.shift.at(delta);
        rep.step(nm::tube(s.deltas[q]), "[KH2025, Thm 4, eq. (6)]")
            .holds(wd.ok, wd.ok ? "certified tube of psi from delta w0 to tau = " + format_g(wd.tau_start) + ", then of (p, psi - p) over [" +
                                      format_g(wd.tau_start) + ", " + format_g(wd.tau_start + wd.duration) +
                                      "] which covers s_delta + [-T~, T~], s_delta in " + to_string(shift, 10)
                                : wd.reason);
        have.push_back(wd.ok);
        ds_i.push_back(delta);
        E.push_back(wd.ok ? IntervalTraits<I>::bounds(wd.sup_lower, wd.sup_upper, s.bits) : constant_like(e.Delta, 1));
        plots.row(s.deltas[q], shift, wd, E.back(), secs);
        if (wd.ok) plots.window(s.deltas[q], delta, E.back(), wd, q == 0 || q + 1 == m, s.arch, e.form.kstar, s.bits);
    }
    if (!e.ball) plots.path_lines(*e.form.path, e.Ttilde, s.arch, e.form.kstar, s.bits);
    // Certified log-log slopes between consecutive deltas: evidence beside the asymptotic rate (Theorem 4 holds
    // "for all sufficiently small delta"; a finite slope below kappa refutes nothing).
    const std::vector<I> slopes = kh4::slopes_table(rep, E, ds_i, have, s.deltas, rates);
    // The exhibited C~ := E(delta_1)/delta_1^kappa rounded up to a double; E(delta) <= C~ delta^kappa for the other
    // deltas are steps (C~ is our choice), and the theorem's bound on the sweep is implied by them.
    std::vector<std::string> premises = {nm::KKT, nm::NPOS, nm::DPOS, nm::STABLE, nm::DLE, nm::C0, e.ball ? nm::PLP : nm::PCF};
    for (const auto& d : s.deltas) premises.push_back(nm::tube(d));
    if (have[0] && certainly_positive(E[0])) {
        const double Ct = power_law_constant(E[0], ds_i[0], rates.kappa);
        st.add_row({"C~ (eq. (6))", format_g(Ct, 17), "E(delta) <= C~ delta^kappa on the whole sweep (checks below)"});
        khsweep::power_law_steps(
            rep, E, have, s.deltas, [&](std::size_t i) { return power_law_bound(Ct, rates.kappa, ds_i[i], s.bits); }, nm::bound,
            "[KH2025, Thm 4, eq. (6)]", premises);
        plots.sweep_plot().references.push_back({"C~ delta^kappa (Thm 4)", Ct, mid(rates.kappa)});
        if (have[m - 1])
            plots.sweep_plot().references.push_back({"slope Dmax/(2N*)", mid(E[m - 1]) / std::pow(mid(ds_i[m - 1]), mid(rates.rate)), mid(rates.rate)});
    }
    rep.conclusion(nm::CONCL, "[KH2025, Thm 4, eq. (6)]")
        .statement("for the exhibited shift T1 + ln(1/b)/(2N*) + ln(1/delta)/(2N*) and constant C~: sup_|t|<=T~ "
                   "|psi(t + shift, delta w0) - p(t)| <= C~ delta^{Delta/(Delta+8N*)} for every delta of the sweep")
        .implied_by(premises);
    if (in.has("actual_slope_tolerance") && !slopes.empty()) {
        // Not a claim of the paper: the observed rate, which exceeds the guaranteed kappa (docs/kh.md).
        const I tol = in.interval<I>("actual_slope_tolerance", s.bits);
        rep.evidence("last slope = Delta_max/(2N*) within tolerance", "[docs/kh.md#verifier-khtheorem4_limit_path]")
            .within({"last certified slope", slopes.back()}, {"Delta_max/(2N*) - tolerance", rates.rate - tol},
                    {"Delta_max/(2N*) + tolerance", rates.rate + tol});
    }
    plots.finish(rep);
}

template <Interval I>
void run_typed(cert::Context& ctx) {
    const cert::Case& in = ctx.input;
    auto& rep = ctx.report;
    const khreport::Stopwatch stopwatch;
    const kh4::Instance<I> s = kh4::read_instance<I>(ctx, rep);
    const auto w0 = unit_direction(s.v0);
    if (!w0) in.fail("initial_direction", "must be nonzero");
    Eigen::VectorXd w0d(s.P);
    for (int j = 0; j < s.P; ++j) w0d(j) = mid((*w0)[static_cast<std::size_t>(j)]);
    const Ncf<double> ncf_d(HomogeneousModel<double>(s.arch, s.data.Xd), ncf_weights<double>(s.data.yd, s.norm));
    const Ncf<I> ncf(HomogeneousModel<I>(s.arch, s.data.X), ncf_weights<I>(s.data.y, s.norm));
    const bool lp_route = in.string("limit_path") == "lyapunov_perron";
    kh4::plan(rep, s.deltas, lp_route);
    // The schema admits only 2-homogeneous polynomial families: shown, never counted.
    rep.hypothesis(nm::H_L2, "[KH2025, Thm 4; Assumption 1 (ii)]")
        .trivially_true("the case schema admits only the 2-homogeneous families (example1, weighted_squares, diagonal "
                        "of depth 2)")
        .holds(s.L == 2, "homogeneity order of " + s.arch.describe() + " is " + std::to_string(s.L) +
                             "; the model is a polynomial, so Assumptions 1-2 hold (square loss), and N is a quadratic form "
                             "u^T A u / 2 with A = Hess N constant");
    if (s.L != 2) throw std::logic_error("kh/theorem4_limit_path: a model of order " + std::to_string(s.L) + " passed the schema");

    // ---- w*: the KKT point the NCF flow from w0 aligns with (or the case's start) -----------------------------
    const Eigen::VectorXd start = kh4::newton_start(in, rep, s.P, ncf_d, w0d);
    const KktCandidateNonrigorous cand = polish_kkt_point_nonrigorous(ncf_d, start, 20);
    const KktExistence<I> kkt = prove_kkt_point(ncf, cand.u, cand.mu);
    rep.hypothesis(nm::KKT, "[KH2025, Sec. 2; Krawczyk 1969]")
        .result({kkt.status, kkt.reason + " (max box width " + format_g(linalg::max_width(kkt.u)) + ")"});
    if (kkt.status != ProofStatus::proven) return;
    const TangentSpectrum<I> ts = tangent_spectrum(ncf, kkt.u);
    if (ts.status != ProofStatus::proven) {
        rep.hypothesis(nm::DPOS, "[KH2025, Lemma 20]").result(ProofResult::not_proven("Delta_max not enclosed: " + ts.reason));
        return;
    }
    Established<I> e{.Nstar = ts.ncf_value, .Dmax = ts.delta_max};
    // Theorem 4's hypothesis: w0 is in the stable set of a Delta-second-order positive KKT point w*.
    rep.hypothesis(nm::NPOS, "[KH2025, Sec. 2 (positive KKT point)]").positive({"N(w*)", e.Nstar});
    rep.hypothesis(nm::DPOS, "[KH2025, Sec. 2; Lemma 20, eq. (15)]").positive({"Delta_max = 2 N(w*) - lambda_max(Q^T Hess N Q)", e.Dmax});
    cert::Table& kt = kh4::kkt_table(rep, s.arch, kkt.u, e.Nstar, e.Dmax, theorem4_rates(e.Dmax, e.Dmax, e.Nstar).rate);
    if (!certainly_positive(e.Dmax) || !certainly_positive(e.Nstar)) {
        rep.note("premise failed: w* is not a Delta-second-order positive KKT point for any Delta > 0, so Theorem 4 "
                 "says nothing about this w0; the stable-set certificate and the delta sweep are not run");
        return;
    }

    // ---- Delta (any in (0, Delta_max]: the theorem holds for each; our choice, a step) and the Lemma 23 cap ----
    e.Delta = in.has("delta") ? in.interval<I>("delta", s.bits) : IntervalTraits<I>::exact(lower(e.Dmax), s.bits);
    rep.step(nm::DLE, "[KH2025, Sec. 2: Delta-second-order KKT point]")
        .statement("Delta = " + to_string(e.Delta, 17) + (in.has("delta") ? " (case)" : " (the lower bound of Delta_max)") +
                   " is certainly positive: " + (certainly_positive(e.Delta) ? "yes" : "NO"))
        .le({"Delta", e.Delta}, {"Delta_max", e.Dmax});
    if (!certainly_positive(e.Delta)) return;
    const Theorem4Cap<I> cap = theorem4_cap(ncf, kkt.u, e.Nstar, e.Dmax, e.Delta, in.interval<I>("cap_gamma", s.bits));
    kh4::state_cap(rep, cap, e.Delta, in.number_string("cap_gamma"));
    kt.add_row({"Delta used", to_string(e.Delta, 17)});
    kt.add_row({"largest admissible gamma = 1 - (sqrt(1 + 4 Delta/Delta_max) - 1)/2", to_string(cap.largest_gamma, 12)});
    kt.add_row({"kappa = Delta/(Delta + 8N*) (Theorem 4 exponent)", to_string(cap.kappa, 12)});

    // ---- stable set: w*^T w0 > 0 (else, for L = 2, w*^T phi(t, w0) = e^{2 N* t} w*^T w0 <= 0), the tube into the cap --
    const I c0z = alignment_with_kkt(ncf, cand, kkt, *w0);
    if (certainly_nonpositive(c0z)) {
        rep.hypothesis(nm::STABLE, "[KH2025, Def. 2; docs/kh.md#verifier-khtheorem4_limit_path]")
            .result(ProofResult::disproven(
                "w*^T w0 in " + to_string(c0z, 8) + " <= 0: for L = 2 the NCF flow is u' = A u with A w* = 2 N* w*, so "
                "w*^T phi(t, w0) = e^{2 N* t} w*^T w0 <= 0 for all t and phi/|phi| does not converge to w*"));
        rep.note("w0 is not in the stable set of the certified w*: Theorem 4 says nothing about this instance");
        return;
    }
    ode::Options opt;
    if (in.has("taylor_order")) opt.order = static_cast<int>(in.integer("taylor_order"));
    const CosineCapEntry<I> entry = ncf_cosine_enters_cap<I>(
        ncf_flow_field(s.arch, s.n), ncf_flow_parameters<I>(s.data.X, ncf.ytilde()), *w0, kkt.u, cap.one_minus_gamma,
        in.has("ncf_horizon") ? mid(in.interval_d("ncf_horizon")) : 10.0, opt, s.bits);
    kh4::state_stable_set(rep, entry, cap.one_minus_gamma);

    // ---- the exhibited shift (our construction needs c0 > 0: a step; a failure disproves nothing) ---------------
    e.shift = theorem4_shift(kkt.u, *w0, e.Nstar);
    rep.step(nm::C0, "[KH2025, Thm 4 shift; docs/kh.md#verifier-khtheorem4_limit_path]").positive({"c0 = w*^T w0", e.shift.c0});
    if (!e.shift.defined) return;
    cert::Table& st = kh4::shift_table(rep, e.shift);

    if (lp_route) {
        // ---- p(t) without a closed form: the Lyapunov-Perron ball near -inf (docs/kh.md, [DERIVED]) ---------------
        for (int j = 0; j < s.P; ++j)
            if (mag(kkt.u(j)) > mag(kkt.u(e.form.kstar))) e.form.kstar = j;
        if (cap.hessian.status != ProofStatus::proven) {
            rep.step(nm::PLP, "[docs/kh.md#limiting-path-by-lyapunov-perron]")
                .result(ProofResult::not_proven("lambda_max(Hess N) not enclosed: " + cap.hessian.reason));
            return;
        }
        const I lambda = constant_like(e.Nstar, 2) * e.Nstar;
        e.ball = lyapunov_perron_ball<I>(s.arch, s.data.X, loss_scale<I>(s.norm, s.n, s.data.y(0)), kkt.u, lambda,
                                         cap.hessian.lambda_max, 0, true, s.bits);
        const auto& b = *e.ball;
        rep.step(nm::PLP, "[KH2025, Thm 4 (definition of p); docs/kh.md#limiting-path-by-lyapunov-perron]")
            .holds(b.ok, b.ok ? "lambda = 2N* in " + to_string(lambda, 10) + ", Lambda = " + to_string(b.Lambda, 10) +
                                    " >= lambda_max(Hess N), G = " + to_string(b.G, 8) + ", t0 = " + format_g(b.t0) +
                                    ", K = " + format_g(b.K) + ": G R^3/(3 lambda - Lambda) = " + to_string(b.self_map, 8) +
                                    " <= K, theta = " + to_string(b.theta, 4) + " < 1, |p(t0) - e^{lambda t0} w*| <= " +
                                    to_string(b.radius, 4) + "; the fixed point is the paper's p (docs/kh.md)"
                              : b.reason);
        if (!b.ok) return;
    } else {
    // ---- closed-form p(t) --------------------------------------------------------------------------------
    const bool diagonal = in.string("limit_path") == "diagonal";
    kh4::check_closed_form_shape(in, s, diagonal);
    e.form = theorem4_closed_form(diagonal, s.arch, s.data.X, s.data.y, ncf.ytilde(), loss_scale<I>(s.norm, s.n, s.data.y(0)),
                                  kkt, e.shift.c0, s.sample_of);
    if (!e.form.error.empty()) in.fail(e.form.error_key, e.form.error);
    rep.step(nm::PCF, "[KH2025, Thm 4 (definition of p); docs/kh.md#verifier-khtheorem4_limit_path]")
        .holds(e.form.in_box, e.form.why + (e.form.in_box ? "; (wbar, lambda*) lies in the Krawczyk uniqueness box, so wbar = w*"
                                                          : "; (wbar, lambda*) is NOT inside the uniqueness box"));
    if (!e.form.in_box) return;
    }

    // ---- the delta sweep, the slopes and the exhibited constant ---------------------------------------------------
    e.Ttilde = in.interval<I>("window", s.bits);
    sweep(ctx, s, e, st);
    stopwatch.note(rep, 3);
    rep.claim.proven_statement =
        "for the certified Delta-second-order positive KKT point w* (Delta as reported) and w0 in S(w*) (certified NCF "
        "tube into the Lemma 23 cap), with the exhibited shift T1 + ln(1/b)/(2N*) + ln(1/delta)/(2N*): for every delta of "
        "the sweep and every t in [-T~, T~], |psi(t + shift, delta w0) - p(t)| <= E(delta) (enclosed), and "
        "E(delta) <= C~ delta^{Delta/(Delta+8N*)} with the exhibited C~ on the whole sweep (log-log slopes >= kappa)";
}

void run(cert::Context& ctx) {
    const std::string t = ctx.input.has("interval_type") ? ctx.input.string("interval_type") : "IntervalD";
    if (t == "IntervalMp")
        run_typed<IntervalMp>(ctx);
    else
        run_typed<IntervalD>(ctx);
}

}  // namespace

int main(int argc, char** argv) {
    cert::VerifierSpec spec{
        .name = "kh/theorem4_limit_path",
        .summary = "certifies Theorem 4 (L = 2) on a delta sweep: tubes of psi(t + shift, delta w0) vs the closed-form "
                   "p(t), sup distances, slopes; premises: KKT, Delta, Lemma 23 cap, stable set",
        .claim = {.paper = "KH2025",
                  .locator = "Theorem 4, eq. (6); Definition 2; Lemmas 23-24",
                  .paper_statement =
                      "H 2-homogeneous, w0 in S(w*), w* Delta-second-order positive KKT point of (4): for every T~ "
                      "there is C~ with |psi(t + T1 + ln(1/b_delta)/(2N(w*)) + ln(1/delta~)/(2N(w*)), delta w0) - p(t)| "
                      "<= C~ delta^{Delta/(Delta+8N(w*))} for all small delta and all t in [-T~, T~], "
                      "p(t) = lim_{delta->0} psi(t + ln(1/delta)/(2N(w*)), delta w*)",
                  .proven_statement = {}},
        .schema = kh4::schema(),
        .default_precision_bits = 128,
        .validate = kh4::validate,
        .run = run,
        .sweep = "delta",
    };
    return cert::verifier_main(argc, argv, spec);
}
