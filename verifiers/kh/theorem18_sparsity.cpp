// verifiers/kh/theorem18_sparsity.cpp -- [KH2025] (Kumar & Haupt, JMLR 26, paper 25-1089), Section 4:
// zero-preserving subsets (Definition 15, Lemma 16) and the sparsity bounds of Theorem 18 (eqs. (11)-(14)).
//
// For one homogeneous model, data set and initial direction W0 (a case file), the verifier
//   1. finds the KKT point W̄ of max N s.t. ||u|| = 1 that the NCF flow from W0 converges to (NON-RIGOROUS:
//      projected NCF flow in double + Newton) and CERTIFIES it as in kh/ncf_kkt: existence/uniqueness
//      (Krawczyk), N(W̄) > 0, Delta_max > 0, its exact zero set w_z (reduced-space Krawczyk), Lemma 17;
//   2. CERTIFIES that w_z is zero-preserving (Definition 15): w_z is a union of Lemma 16 units; every w_z
//      component of the loss-flow field (and of the NCF field) vanishes identically on {w_z = 0}, proven
//      structurally on the Taylor DAG (proofs::kh::field_vanishes_on_subspace: invariance in both time
//      directions); and, as a consequence checked on concrete flows, the rigorous tubes from delta W̄ and
//      from delta W0 masked on w_z keep w_z at exactly [0, 0] on every step, where an independent gradient
//      evaluator (nets::square_loss) gives grad_{w_z} L = [0, 0] exactly on every step box;
//   3. for each delta of a sweep, integrates the gradient flow from delta W0 with the rigorous Taylor/Lohner
//      integrator and CERTIFIES the Theorem 18 bounds at exhibited times and constants:
//        ||psi(T^1)|| <= b1 delta^kappa,  ||psi_wz(T^1)|| / ||psi(T^1)|| <= b2 delta^(L kappa)  (eq. (13))
//        sup_{|t| <= T~} ||psi_wz(t + T^2)|| <= C~ delta^kappa                                 (eq. (14))
//      (L = 2: exponents kappa and 2 kappa, eqs. (11)-(12)), kappa = Delta / (Delta + 2 L^2 N̄), with
//      certified log-log slopes between consecutive deltas reported against the exponents.
// The constants T1, A2 (delta~ = A2 delta), T and b_delta of the times T^1, T^2 are exhibited (computed
// non-rigorously from the NCF flow, then fixed as exact decimals), b1, b2, C~ are given by the case.
// See docs/kh.md ("Verifier kh/theorem18_sparsity") for what is certified and its distance to the paper.
#include <flowcert/cert.hpp>
#include <flowcert/nets.hpp>
#include <flowcert/proofs/kh/ncf_kkt.hpp>
#include <flowcert/ode.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <flowcert/proofs/kh/theorem18_sparsity.hpp>
#include <flowcert/proofs/kh/theorem18_units.hpp>
#include <flowcert/proofs/kh/lemma23_cap.hpp>
#include <flowcert/proofs/kh/stable_set.hpp>
#include "kh_case_inputs.hpp"
#include "kh_report.hpp"

namespace cert = flowcert::cert;
namespace la = flowcert::linalg;
namespace ode = flowcert::ode;
using namespace flowcert;
using namespace flowcert::nets;
using namespace flowcert::proofs::kh;
using I = IntervalD;

namespace {

using khcase::parse_loss;
using khcase::parse_architecture;
using khreport::fmt;

// An exact decimal string near x (for exhibited constants): x rounded to `digits` significant digits.
std::string decimal(double x, int digits = 6) { return fmt(x, digits); }

struct FlowRun {
    ode::Result<I> res;
    double seconds = 0;
};
FlowRun integrate_flow(const taylor::VectorField& f, const std::vector<I>& params, const std::vector<I>& x0,
                       const I& t_end, const std::vector<I>& outputs, int order) {
    ode::Options o;
    o.order = order;
    o.record_tubes = true;
    const khreport::Stopwatch stopwatch;
    FlowRun r{ode::integrate<I>(f, params, x0, t_end, outputs, o, 53), 0};
    r.seconds = stopwatch.seconds();
    return r;
}

void run(cert::Context& ctx) {
    const cert::Case& in = ctx.input;
    auto& rep = ctx.report;
    const long bits = 53;
    const khreport::Stopwatch stopwatch;

    // ---- data -------------------------------------------------------------------------------------------
    const khcase::CaseData<I> data = khcase::read_data<I>(in, bits);
    khcase::export_data(ctx, data);  // --export-instance
    const Mat<I>& Xi = data.X;
    const Vec<I>& yi = data.y;
    const Eigen::MatrixXd& Xd = data.Xd;
    const Eigen::VectorXd& yd = data.yd;
    const int d = static_cast<int>(Xd.rows()), n = static_cast<int>(Xd.cols());
    if (data.teacher) {
        rep.set_seed("data (kh/inputs, kh/teacher streams)", std::to_string(data.seed));
        rep.note("data: " + std::to_string(n) + " seeded inputs on the unit sphere of R^" + std::to_string(d) +
                 ", labels from the teacher " + data.teacher->describe() + " (doubles; those doubles are the exact data)");
    } else {
        for (int i = 0; i < n; ++i) {
            for (int k = 0; k < d; ++k)
                if (!is_point(Xi(k, i))) throw std::invalid_argument("inputs: entries must be exact doubles (the flow field takes point data)");
            if (!is_point(yi(i))) throw std::invalid_argument("targets: entries must be exact doubles");
        }
    }
    const HomogeneousArchitecture arch = parse_architecture(in, d);
    const SquareLossNormalization norm = parse_loss(in.string("loss"));
    const Ncf<double> ncf_d(HomogeneousModel<double>(arch, Xd), ncf_weights<double>(yd, norm));
    const Ncf<I> ncf(HomogeneousModel<I>(arch, Xi), ncf_weights<I>(yi, norm));
    const HomogeneousModel<I> model_i(arch, Xi);
    const int L = arch.homogeneity_order(), P = arch.parameter_count();
    rep.note("model: " + arch.describe() + "; loss " + norm.describe() + "; IntervalD (53 bits)");
    const std::vector<std::string> deltas = in.has("deltas") ? in.number_strings("deltas") : std::vector<std::string>{};

    // ---- initial direction W0 -------------------------------------------------------------------------
    Eigen::VectorXd W0(P);
    if (in.has("init_direction")) {
        const auto s = in.number_strings("init_direction");
        if (static_cast<int>(s.size()) != P) throw std::invalid_argument("init_direction: need one entry per parameter");
        for (int j = 0; j < P; ++j) {
            const I v = I::from_decimal(s[static_cast<std::size_t>(j)]);
            if (!is_point(v)) throw std::invalid_argument("init_direction: entries must be exact doubles");
            W0(j) = lower(v);
        }
    } else {
        const auto seed = static_cast<std::uint64_t>(in.integer("init_seed"));
        rep.set_seed("initial direction (kh/theorem18_init stream)", std::to_string(seed));
        RandomStream rs(seed, "kh/theorem18_init", 0);
        for (int j = 0; j < P; ++j) W0(j) = rs.gaussian();
        W0 /= W0.norm();  // in double: the resulting doubles ARE W0 (its norm is enclosed below)
    }
    std::vector<I> W0i(static_cast<std::size_t>(P));
    for (int j = 0; j < P; ++j) W0i[static_cast<std::size_t>(j)] = I::exact(W0(j));
    rep.note("initial direction W0: " + std::string(in.has("init_direction") ? "from the case" : "seeded Gaussian "
             "normalized in double") + "; ||W0|| in " + to_string(norm_of(W0i, all_indices(P)), 17));

    // ---- which checks -------------------------------------------------------------------------------------
    const bool ff = arch.kind == ModelKind::feed_forward;
    const bool claimed = in.has("claimed_zero_set");
    const std::string CAP = "Lemma 23 cap: (28), (29) and N > 0 on {W̄^T w >= 1 - gamma}",
                      ENTER = "NCF tube from W0 enters the Lemma 23 cap", STABLE = "W0 in S(W̄)",
                      WZ = "w_z is the zero rows and columns of W̄ (Theorem 18's w_z)",
                      CONCL = "Theorem 18 bounds on the sweep (eqs. (11)-(14)) with the exhibited times and constants";
    for (const char* c : {"KKT point W̄ exists and is unique in its box", "N(W̄) > 0",
                          "Delta_max > 0 (W̄ is Delta-second-order positive)", "zero pattern of W̄",
                          "0 < Delta <= Delta_max (the Delta used)"})
        rep.plan(c);
    if (ff) rep.plan("Lemma 17 row/column balance at W̄");
    for (const std::string& c : {WZ, std::string("w_z is a union of Lemma 16 units"),
                                 std::string("loss-flow field: f_z vanishes on {w_z = 0} (structural)"),
                                 std::string("NCF field: f_z vanishes on {w_z = 0} (structural)"),
                                 std::string("tube from delta W̄ keeps w_z at 0"),
                                 std::string("restricted flow (w_z = exact 0) meets the full flow"),
                                 std::string("tube from delta W0 masked on w_z keeps w_z at 0"),
                                 std::string("grad_z L = [0, 0] on every tube box (independent evaluator)")})
        rep.plan(c);
    if (!deltas.empty()) {
        for (const std::string& c : {CAP, ENTER, STABLE, std::string("T1 > 0 (exhibited)"), std::string("A2 > 0 (exhibited)")})
            rep.plan(c);
        if (L > 2) rep.plan("T >= 1/(L(L-2) N̄) (exhibited)");
    }
    for (const auto& ds : deltas) {
        rep.plan("tube from delta W0 reaches T^2 + T~, delta = " + ds);
        rep.plan("T^1 > 0, delta = " + ds);
        rep.plan("eq. (13) ||psi(T^1)|| <= b1 delta^kappa, delta = " + ds);
        rep.plan("eq. (13) ratio <= b2 delta^(L kappa), delta = " + ds);
        rep.plan("eq. (14) sup ||psi_z|| <= C~ delta^kappa, delta = " + ds);
    }
    if (!deltas.empty()) rep.plan(CONCL);

    // ---- 1. the KKT point W̄ the NCF flow from W0 goes to ------------------------------------------------
    const Eigen::VectorXd dir = ncf_direction_limit_nonrigorous(ncf_d, W0);
    const PositiveKkt<I> kkt = certify_positive_kkt(ncf, ncf_d, dir);
    const KktCandidateNonrigorous& cand = kkt.candidate;
    rep.note("W̄ candidate: direction limit of the projected NCF flow from W0 (RK4 in double), polished by Newton "
             "(non-rigorous); N = " + fmt(cand.value, 10) + ", KKT residual " + fmt(cand.residual, 3));
    // Theorem 18's hypotheses: W̄ a Delta-second-order positive KKT point of (10), W0 in S(W̄) (below).
    if (!khreport::state_positive_kkt(rep, kkt, {.kkt = "KKT point W̄ exists and is unique in its box", .npos = "N(W̄) > 0",
                                                 .dpos = "Delta_max > 0 (W̄ is Delta-second-order positive)",
                                                 .n_operand = "N(W̄)"}))
        return;
    const KktExistence<I>& ex = kkt.existence;
    const TangentSpectrum<I>& ts = kkt.spectrum;
    const I Nbar = kkt.ncf_value;
    // The Delta of Theorem 18: an exact decimal in (0, Delta_max].
    const std::string Delta_s = in.has("Delta") ? in.number_string("Delta") : decimal(lower(ts.delta_max) * (1 - 1e-4), 6);
    const I Delta = I::from_decimal(Delta_s);
    // Our choice of Delta in (0, Delta_max] (the theorem holds for each): a step.
    rep.step("0 < Delta <= Delta_max (the Delta used)", "[KH2025, Thm 18: W̄ Delta-second-order positive]")
        .le({"Delta", Delta}, {"Delta_max", ts.delta_max});
    if (!certainly_positive(Delta)) return;
    const I twoL2N = I(2 * L * L) * Nbar;
    const I kappa = Delta / (Delta + twoL2N);  // Thm 4/10 exponent; post-escape exponent of Thm 18
    const I kappa_ratio = I(L) * kappa;        // pre-escape ratio exponent (2 kappa for L = 2, L kappa for L > 2)

    const ZeroPattern<I> zp = prove_zero_pattern(ncf, cand.u, cand.mu, 1e-8, ex.uniqueness_box);
    const bool zp_ok = zp.status == ProofStatus::proven && zp.inside_uniqueness_box;
    rep.step("zero pattern of W̄", "[KH2025, Def. 15, Thm 18 (w_z)]").holds(zp_ok, zp.reason + " (|Z| = " + std::to_string(zp.zero_indices.size()) + " of " + std::to_string(P) + ")");
    if (!zp_ok) return;
    const la::IVector<I>& Wbar = zp.u;
    if (ff) {
        const auto bal = lemma17_balance<I>(arch, Wbar);
        I h = bal.front().residual;
        for (const auto& e : bal) h = hull(h, e.residual);
        // An identity at every positive KKT point (Lemma 17): a consistency check of the enclosures.
        rep.conclusion("Lemma 17 row/column balance at W̄", "[KH2025, Lemma 17]")
            .trivially_true("an identity at every positive KKT point of (10) [KH2025, Lemma 17]: a consistency check")
            .inside({"hull of the residuals", h}, cert::Operand::exact_interval("[-1e-8, 1e-8]", "-1e-8", "1e-8"));
    }

    // w_z: the KKT zero set (Theorem 18), or a claimed set (to test Definition 15 on it).
    std::vector<int> z = zp.zero_indices;
    if (claimed) {
        z.clear();
        for (const auto& name : in.strings("claimed_zero_set")) {
            int found = -1;
            for (int j = 0; j < P; ++j)
                if (arch.parameter_name(j) == name) found = j;
            if (found < 0) throw std::invalid_argument("claimed_zero_set: unknown parameter " + name);
            z.push_back(found);
        }
        std::sort(z.begin(), z.end());
        rep.note("w_z is the case's claimed_zero_set (" + std::to_string(z.size()) + " parameters), not the KKT zero set");
    }
    std::vector<int> support;
    for (int j = 0; j < P; ++j)
        if (!std::binary_search(z.begin(), z.end(), j)) support.push_back(j);
    {
        std::string names;
        for (std::size_t k = 0; k < z.size() && k < 12; ++k) names += (k ? ", " : "") + arch.parameter_name(z[k]);
        if (z.size() > 12) names += ", ...";
        rep.note("w_z = {" + names + "} (" + std::to_string(z.size()) + " of " + std::to_string(P) + " parameters)");
    }
    // Theorem 18 is about the zero rows/columns of W̄; a claimed set other than that is outside it.
    rep.hypothesis(WZ, "[KH2025, Thm 18]")
        .result(z == zp.zero_indices ? ProofResult::proven("w_z is the certified zero set of W̄")
                                     : ProofResult::disproven("the case's claimed_zero_set differs from the certified zero "
                                                              "set of W̄ (" + std::to_string(zp.zero_indices.size()) +
                                                              " parameters): Theorem 18 says nothing about it"));
    if (z.empty()) {
        rep.hypothesis("w_z is a union of Lemma 16 units", "[KH2025, Lemma 16]")
            .result(ProofResult::not_proven("w_z is empty: nothing to preserve"));
        return;
    }

    // ---- 2. zero preservation (Definition 15, Lemma 16) ---------------------------------------------------
    const auto units = proofs::kh::lemma16_units(arch);
    std::vector<int> used;
    const bool is_union = proofs::kh::is_union_of_units(units, z, &used);
    // Lemma 16's hypothesis (decided combinatorially: a proof either way).
    rep.hypothesis("w_z is a union of Lemma 16 units", ff ? "[KH2025, Lemma 16]" : "[KH2025, Lemma 16; docs/kh.md (coordinate blocks)]")
        .result(is_union ? ProofResult::proven(std::to_string(used.size()) + " unit(s) " +
                                               std::string(ff ? "W_1[j,:] U v[j]" : "{u^(f)_k}_f"))
                         : ProofResult::disproven("w_z is not a union of units W_1[j,:] U v[j] (or {u^(f)_k}_f): Lemma 16 "
                                                  "does not apply"));
    const taylor::VectorField gf = homogeneous_loss_flow_field(arch, n, norm);
    const taylor::VectorField nf = ncf_flow_field(arch, n);
    const std::vector<I> gf_par = homogeneous_flow_parameters<I>(Xi, yi);
    const std::vector<I> nf_par = ncf_flow_parameters<I>(Xi, ncf.ytilde());
    auto zero_pars = [](const std::vector<I>& p) {
        std::vector<bool> zpv;
        for (const I& x : p) zpv.push_back(lower(x) == 0.0 && upper(x) == 0.0);
        return zpv;
    };
    const proofs::kh::VanishingResult vg = proofs::kh::field_vanishes_on_subspace(gf, z, z, zero_pars(gf_par));
    const proofs::kh::VanishingResult vn = proofs::kh::field_vanishes_on_subspace(nf, z, z, zero_pars(nf_par));
    auto failing = [&](const proofs::kh::VanishingResult& v) {
        std::string s;
        for (std::size_t k = 0; k < v.not_proven.size() && k < 6; ++k) s += (k ? ", " : "") + arch.parameter_name(v.not_proven[k]);
        return v.proven ? v.reason + " (" + std::to_string(gf.nodes().size()) + " DAG nodes)" : v.reason + ": " + s;
    };
    // Our proof of zero preservation (Definition 15) for this field: steps.
    rep.step("loss-flow field: f_z vanishes on {w_z = 0} (structural)", "[KH2025, Def. 15, Lemma 16]")
        .statement("w' = -grad L(w) leaves {w_z = 0} invariant forward and backward in time")
        .holds(vg.proven, failing(vg));
    rep.step("NCF field: f_z vanishes on {w_z = 0} (structural)", "[KH2025, Def. 15; p_{w_z} = 0 in Thm 18]")
        .holds(vn.proven, failing(vn));

    // ---- exhibited constants of T^1, T^2 (non-rigorous choice, then exact) -----------------------------------
    const double gamma = in.has("align_gamma") ? mid(in.interval_d("align_gamma")) : 1e-2;
    Eigen::VectorXd Wbar_d = la::mid<I>(Wbar);
    const ExhibitedTimes et = exhibited_times_nonrigorous(ncf_d, W0, Wbar_d, mid(Nbar), L, gamma);
    std::string T1s = in.has("T1") ? in.number_string("T1") : et.T1, A2s = in.has("A2") ? in.number_string("A2") : et.A2,
                Ts = in.has("T_blowup") ? in.number_string("T_blowup") : et.T;
    if (!et.ok && !(in.has("T1") && in.has("A2") && (L == 2 || in.has("T_blowup")))) {
        rep.step("T1 > 0 (exhibited)", "[KH2025, Thm 18 (T1 of Thm 4/10)]").holds(false, et.reason);
        return;
    }
    const I T1 = I::from_decimal(T1s), A2 = I::from_decimal(A2s), Tb = I::from_decimal(Ts);
    // The exhibited constants must be admissible in the sense of Theorems 4/10 (T1 > 0, delta~ = A2 delta with
    // A2 > 0, T >= 1/(L(L-2) N̄) so that b_delta^{L-2} = 1/(L(L-2) N̄ T) lies in [1/(T L(L-2) N̄), 1]): steps.
    if (!deltas.empty()) {
        rep.step("T1 > 0 (exhibited)", "[KH2025, Thm 18 (T1 of Thm 4/10)]").positive({"T1", T1});
        rep.step("A2 > 0 (exhibited)", "[KH2025, Thm 18 (delta~ of Thm 4/10)]").positive({"A2", A2});
        if (L > 2)
            rep.step("T >= 1/(L(L-2) N̄) (exhibited)", "[KH2025, Thm 10; Lemma 25]")
                .le({"1/(L(L-2) N̄)", I(1) / (I(L * (L - 2)) * Nbar)}, {"T", Tb});
    }
    const I Ttilde = in.interval<I>("T_tilde", bits);
    // The times T^1, T^2 of Theorem 18 at delta from the exhibited constants (theorem18_sparsity.hpp).
    auto times = [&](const I& delta) { return theorem18_times(L, T1, A2, Tb, Delta, Nbar, kappa, delta); };
    {
        auto& ct = rep.table("exhibited constants (non-rigorous choice; exact once chosen)", {"constant", "value", "role"});
        ct.add_row({"T1", T1s, "time for the NCF flow from W0 to reach cos >= 1 - " + fmt(gamma) + " (Lemma 8/32)"});
        ct.add_row({"A2", A2s, "delta~ = A2 delta (A1 = 0), A2 = ||phi(T1, W0)||"});
        if (L > 2) {
            ct.add_row({"T", Ts, "blow-up time of the NCF flow from phi(T1, W0)/A2 (Lemma 25)"});
            ct.add_row({"b_delta^{L-2}", to_string(I(1) / (I(L * (L - 2)) * Nbar * Tb), 8), "1/(L(L-2) N̄ T): lower end of Thm 10's range"});
        } else {
            ct.add_row({"b_delta", "1", "Thm 4"});
        }
        ct.add_row({"Delta", Delta_s, "used in kappa and T^1"});
        ct.add_row({"T~", in.number_string("T_tilde"), "half-width of the post-escape window"});
        ct.add_row({"kappa = Delta/(Delta + 2L^2 N̄)", to_string(kappa, 10), "eqs. (12)/(14) and the norm in (11)/(13)"});
        ct.add_row({std::string("ratio exponent ") + (L == 2 ? "2 kappa" : "L kappa"), to_string(kappa_ratio, 10), "eqs. (11)/(13)"});
        ct.add_row({"N̄ = N(W̄)", to_string(Nbar, 17), "certified"});
        ct.add_row({"Delta_max", to_string(ts.delta_max, 17), "certified"});
    }

    // ---- W0 in S(W̄) (Theorem 18's hypothesis): a Lemma 23 cap with an explicit gamma, entered by the NCF tube ----
    if (!deltas.empty()) {
        const I gcap = in.has("cap_gamma") ? in.interval<I>("cap_gamma", bits) : I::from_decimal("1e-3");
        const auto cap = proofs::kh::lemma23_cap<I>(ncf, Wbar, Nbar, ts.lambda_min_tangent, ts.lambda_max_tangent, Delta, gcap,
                                                    in.has("cap_pieces") ? static_cast<int>(in.integer("cap_pieces")) : 64);
        rep.step(CAP, "[KH2025, Lemma 23, eqs. (28)-(29); docs/kh.md#lemma-23-on-an-explicit-cap]").result({cap.status, cap.reason});
        ode::Options no;
        no.order = in.has("order") ? static_cast<int>(in.integer("order")) : 20;
        const double chunk = L == 2 ? 0.5 : 0.25 / (L * (L - 2) * upper(Nbar));
        const double horizon = in.has("ncf_horizon") ? mid(in.interval_d("ncf_horizon")) : 20.0 / lower(ts.delta_max);
        const auto entry = proofs::kh::ncf_tube_enters_cap<I>(nf, nf_par, W0i, Wbar, gcap, horizon, chunk, true, no, bits);
        rep.step(ENTER, "[KH2025, Def. 2, Lemmas 24-25; docs/kh.md#lemma-23-on-an-explicit-cap]").result({entry.status, entry.reason});
        rep.hypothesis(STABLE, "[KH2025, Def. 2, Thm 18; Lemmas 23-25]").implied_by({CAP, ENTER});
        cert::TubePlot cp{.title = "NCF flow from W0 (renormalized chunks): W̄^T u/|u| (certified) vs the cap 1 - gamma",
                          .x_label = "flow time", .y_label = "cosine to W̄", .log_x = false, .log_y = false, .bands = {}};
        for (const auto& [t, c] : entry.trace) cp.add_point("W̄^T u/|u|", t, c);
        rep.add_plot(cp);
    }

    // ---- invariance on concrete tubes -------------------------------------------------------------------
    const int order = in.has("order") ? static_cast<int>(in.integer("order")) : 20;
    const std::string dinv_s = in.has("invariance_delta") ? in.number_string("invariance_delta")
                                                           : (deltas.empty() ? std::string("1e-2") : deltas.front());
    const I dinv = I::from_decimal(dinv_s);
    const std::string ztol_s = in.has("zero_tube_tolerance") ? in.number_string("zero_tube_tolerance") : "1e-12";
    auto report_zero_tube = [&](const std::string& check, const std::string& what, const std::vector<I>& x0, const I& t_end,
                                std::vector<ode::Snapshot<I>>* keep) {
        std::vector<I> outs;  // 32 equally spaced step-end sets
        for (int k = 1; k < 32; ++k) outs.push_back(t_end * I(k) / I(32));
        const FlowRun fr = integrate_flow(gf, gf_par, x0, t_end, outs, order);
        if (!fr.res.ok()) {
            rep.conclusion(check, "[KH2025, Def. 15, Lemma 16]")
                .holds(false, std::string(ode::to_string(fr.res.status)) + ": " + fr.res.reason);
            return TubeZeroCheck{.gradient_exact = false};
        }
        const TubeZeroCheck tz = check_tube_zeros(fr.res, z, model_i, yi, norm);
        if (keep) *keep = fr.res.outputs;
        const std::string where = what + ", delta = " + dinv_s + ", t in [0, " + fmt(upper(fr.res.time), 8) + "] (" +
                                  std::to_string(tz.pieces) + " steps); the " +
                                  std::to_string(tz.outputs) + " sets at t = k t_end/32 give sup ||psi_z|| in " +
                                  to_string(tz.sup_outputs, 6) + "; the per-step a priori tube pieces give " +
                                  to_string(tz.sup_pieces, 6) + " (inflated candidate, not exact by construction)" +
                                  (tz.outputs_exact ? "" : "; first nonzero set: " + tz.first_nonzero_output);
        // The Lohner sets mix coordinates through their QR basis, so the rounding errors of the support leak
        // into w_z at the level of ~1e-15 |w|: the concrete check is ||psi_z|| <= zero_tube_tolerance. A true
        // ||psi_z(t)|| above the tolerance would disprove zero preservation of w_z outright.
        // Lemma 16's conclusion on this flow: psi_z stays 0 (up to the Lohner leak, see below).
        rep.conclusion(check, "[KH2025, Def. 15, Lemma 16]")
            .statement(where)
            .le({"max_k ||psi_z(k t_end/32)||", tz.sup_outputs}, cert::exact("zero_tube_tolerance", ztol_s));
        rep.note("invariance tube wall time: " + fmt(fr.seconds, 3) + " s (" + what + ")");  // (not in the check: timing)
        return tz;
    };
    std::vector<I> x_bar(static_cast<std::size_t>(P)), x_mask(static_cast<std::size_t>(P));
    for (int j = 0; j < P; ++j) {
        const bool inz = std::binary_search(z.begin(), z.end(), j);
        x_bar[static_cast<std::size_t>(j)] = inz ? I(0) : dinv * Wbar(j);
        x_mask[static_cast<std::size_t>(j)] = inz ? I(0) : dinv * W0i[static_cast<std::size_t>(j)];
    }
    // escape time of p(t) from delta W̄: ln(1/delta)/(2N̄) (L = 2), delta^{-(L-2)}/(L(L-2)N̄) (L > 2) [Thm 4/10]
    const I t_escape_bar = L == 2 ? log(I(1) / dinv) / (I(2) * Nbar) : I(1) / (pow(dinv, L - 2) * I(L * (L - 2)) * Nbar);
    std::vector<ode::Snapshot<I>> full_bar;
    const TubeZeroCheck tz1 = report_zero_tube("tube from delta W̄ keeps w_z at 0", "from delta W̄ (the path of p(t))",
                                               x_bar, I::exact(upper(t_escape_bar + Ttilde)), &full_bar);
    const TubeZeroCheck tz2 = report_zero_tube("tube from delta W0 masked on w_z keeps w_z at 0",
                                               "from delta W0 with w_z set to 0", x_mask, I::exact(upper(times(dinv).second + Ttilde)), nullptr);
    // Exact zeros through the restricted field (the proof of Lemma 16 made concrete): integrate the support
    // only, with w_z replaced by the constant 0; padded with exact zeros this encloses the full flow because the
    // structural check above proved f_z = 0 on {w_z = 0}. Cross-check: it must meet the full-system sets.
    if (vg.proven && !full_bar.empty()) {
        const I t_end = I::exact(upper(t_escape_bar + Ttilde));
        std::vector<std::string> names;
        for (int j = 0; j < P; ++j) names.push_back(arch.parameter_name(j));
        const RestrictedFlowAgreement ra = restricted_flow_meets_full(proofs::kh::restrict_field(gf, z), gf_par, support, x_bar,
                                                                      full_bar, t_end, order, names);
        rep.step("restricted flow (w_z = exact 0) meets the full flow", "[KH2025, Lemma 16 (proof)]")
            .statement("psi_z(t, delta W̄) = 0 exactly on [0, t_end], with an enclosure of the support")
            .holds(ra.agree,
                   ra.failure.empty() ? "the restricted field on " + std::to_string(support.size()) + " variables, from delta W̄ on "
                                        "the support, integrated to t = " + to_string(t_end, 8) + " (" + std::to_string(ra.steps) +
                                        " steps): its sets meet the full-system sets on the support at all " +
                                        std::to_string(full_bar.size()) + " output times (max widths " +
                                        fmt(ra.max_width_restricted, 3) + " restricted, " + fmt(ra.max_width_full, 3) +
                                        " full); padded with w_z = [0, 0] exactly, it encloses psi(t, delta W̄) by the "
                                        "structural proof"
                                      : ra.failure);
    } else {
        rep.step("restricted flow (w_z = exact 0) meets the full flow", "[KH2025, Lemma 16 (proof)]")
            .holds(false, "not run: the structural check failed or the full tube did not complete");
    }
    rep.step("grad_z L = [0, 0] on every tube box (independent evaluator)", "[KH2025, Lemma 16 (proof)]")
        .statement("the field restricted to {w_z = 0} has zero w_z components on every box of both tubes")
        .holds(tz1.gradient_exact && tz2.gradient_exact && tz1.pieces > 0 && tz2.pieces > 0,
                   "nets::square_loss gradient (homogeneous.cpp formulas, not the Taylor DAG) on the face {w_z = 0} of " +
                       std::to_string(tz1.pieces + tz2.pieces) + " tube boxes: " +
                       ((tz1.gradient_exact && tz2.gradient_exact) ? "every w_z entry is exactly [0, 0]"
                                                                   : "some w_z entry is not exactly [0, 0]"));

    // ---- 3. the Theorem 18 sweep ----------------------------------------------------------------------------
    if (deltas.empty()) {
        rep.claim.proven_statement = "W̄ certified; w_z is zero-preserving (structural proof on the field and exact tubes)";
        stopwatch.note(rep, 3);
        return;
    }
    const bool have_consts = in.has("b1") && in.has("b2") && in.has("c_tilde");
    const I b1 = have_consts ? in.interval<I>("b1", bits) : I(0), b2 = have_consts ? in.interval<I>("b2", bits) : I(0),
            ct_ = have_consts ? in.interval<I>("c_tilde", bits) : I(0);
    auto& sw = rep.table("delta sweep (certified enclosures)",
                         {"delta", "T^1", "T^2", "steps", "wall s", "||psi(T^1)||", "ratio at T^1", "sup_{|t|<=T~} ||psi_z(t+T^2)||",
                          "L(psi(T^2+T~))", "||grad L(psi(T^2+T~))||"});
    auto& qt = rep.table("smallest admissible constants per delta (upper bounds)",
                         {"delta", "||psi(T^1)|| / delta^kappa", "ratio / delta^(L kappa)", "sup ||psi_z|| / delta^kappa"});
    cert::SweepPlot sp = khreport::delta_sweep_plot("Theorem 18 quantities vs delta (certified error bars)", "enclosure");
    std::vector<I> dl, q_norm, q_ratio, q_sup;
    std::vector<std::string> dl_s;
    const std::string heat_s = in.has("heat_map_delta") ? in.number_string("heat_map_delta") : deltas.front();
    I max_q1(0), max_q2(0), max_q3(0);
    auto x0_of = [&](const I& delta) {
        std::vector<I> x0(static_cast<std::size_t>(P));
        for (int j = 0; j < P; ++j) x0[static_cast<std::size_t>(j)] = delta * W0i[static_cast<std::size_t>(j)];
        return x0;
    };
    auto vec_json = [](const std::vector<I>& x) {
        nlohmann::json a = nlohmann::json::array();
        for (const I& v : x) a.push_back(cert::exact_json(v));
        return a;
    };
    auto vec_from_json = [](const nlohmann::json& a) {
        std::vector<I> x;
        for (const auto& v : a) x.push_back(cert::interval_d_from_json(v));
        return x;
    };
    auto neuron_indices = [&](int j) {
        std::vector<int> idx;
        for (int k = 0; k < d; ++k) idx.push_back(j * d + k);
        idx.push_back(arch.layer_offset(2) + j);
        return idx;
    };
    // The delta points through cert::Context::sweep (issue 7): point i integrates the flow from deltas[i] W0
    // and returns what the report uses of it (intervals exact); the report is assembled below in index order.
    const auto records = ctx.sweep(deltas.size(), [&](std::size_t i) {
        const std::string& ds = deltas[i];
        const I delta = I::from_decimal(ds);
        const auto [t1, t2] = times(delta);
        const std::vector<I> x0 = x0_of(delta);
        const I tw0 = t2 - Ttilde, tend = t2 + Ttilde;
        std::vector<I> outs;
        if (certainly_positive(t1)) outs.push_back(t1);
        if (certainly_less(t1, tw0)) outs.push_back(tw0);
        if (certainly_less(outs.empty() ? I(0) : outs.back(), t2)) outs.push_back(t2);
        const FlowRun fr = integrate_flow(gf, gf_par, x0, tend, outs, order);
        ctx.progress.message("delta = " + ds + ": " + std::to_string(fr.res.steps) + " steps");
        nlohmann::json r = {{"ok", fr.res.ok()}, {"steps", fr.res.steps}, {"seconds", cert::exact_string(fr.seconds)}};
        if (!fr.res.ok()) {
            r["status"] = ode::to_string(fr.res.status);
            r["time"] = cert::exact_json(fr.res.time);
            r["reason"] = fr.res.reason;
            return r;
        }
        // psi(T^1) only when T^1 > 0 certainly (then it is the first output time; otherwise nothing is read)
        const bool t1_ok = certainly_positive(t1);
        r["t1_ok"] = t1_ok;
        const std::vector<I> x1 = t1_ok ? fr.res.outputs.front().box : fr.res.final_box;
        const I n1 = norm_of(x1, all_indices(P)), nz1 = norm_of(x1, z);
        // sup over the window [T^2 - T~, T^2 + T~] from the tube pieces that meet it
        I sup_z;
        bool any = false;
        for (const auto& piece : fr.res.tube) {
            if (upper(piece.t1) < lower(tw0)) continue;
            const I nz = norm_of(piece.box, z);
            sup_z = any ? I::bounds(std::max(lower(sup_z), lower(nz)), std::max(upper(sup_z), upper(nz))) : nz;
            any = true;
        }
        // loss and gradient at the end of the window (how close to the first saddle)
        Vec<I> wend(P);
        for (int j = 0; j < P; ++j) wend(j) = fr.res.final_box[static_cast<std::size_t>(j)];
        const LossResult<I> lend = square_loss(model_i, wend, yi, norm, true);
        I gnorm(0);
        for (int j = 0; j < P; ++j) gnorm += sqr(lend.gradient(j));
        gnorm = sqrt(gnorm);
        r["n1"] = cert::exact_json(n1);
        r["ratio"] = cert::exact_json(nz1 / n1);
        r["sup_z"] = cert::exact_json(sup_z);
        r["loss_end"] = cert::exact_json(lend.value);
        r["grad_end"] = cert::exact_json(gnorm);
        if (ds == heat_s && ff) {  // what the heat maps and the neuron-norm tube plot use
            r["x1"] = vec_json(x1);
            r["x2"] = vec_json(fr.res.outputs.back().box);
            r["x_end"] = vec_json(fr.res.final_box);
            nlohmann::json pieces = nlohmann::json::array();
            const std::size_t np = fr.res.tube.size(), stride = std::max<std::size_t>(1, np / 60);
            for (std::size_t p = 0; p < np; p += stride) {
                const auto& piece = fr.res.tube[p];
                nlohmann::json norms = nlohmann::json::array();
                for (int j = 0; j < arch.hidden[0]; ++j) norms.push_back(cert::exact_json(norm_of(piece.box, neuron_indices(j))));
                pieces.push_back({{"t", cert::exact_string(upper(piece.t1))}, {"norms", norms}});
            }
            r["neuron_tube"] = pieces;
        }
        return r;
    });
    const std::string eqn_all = L == 2 ? "[KH2025, Thm 18, eqs. (11)-(12)]" : "[KH2025, Thm 18, eqs. (13)-(14)]";
    std::vector<std::string> premises = {"KKT point W̄ exists and is unique in its box", "N(W̄) > 0",
                                         "Delta_max > 0 (W̄ is Delta-second-order positive)", STABLE, WZ,
                                         "0 < Delta <= Delta_max (the Delta used)", "zero pattern of W̄",
                                         "T1 > 0 (exhibited)", "A2 > 0 (exhibited)"};
    if (L > 2) premises.push_back("T >= 1/(L(L-2) N̄) (exhibited)");
    for (std::size_t i = 0; i < deltas.size(); ++i) {
        const std::string& ds = deltas[i];
        const nlohmann::json& r = records[i];
        const I delta = I::from_decimal(ds);
        const auto [t1, t2] = times(delta);
        const I tend = t2 + Ttilde;
        const bool ok = r.at("ok").get<bool>();
        const long steps = r.at("steps").get<long>();
        const double seconds = cert::parse_exact_double(r.at("seconds").get<std::string>());
        // (the wall time of the run is in the table's "wall s" column, not in the check)
        const std::string eqn = L == 2 ? "[KH2025, Thm 18, eq. (11)]" : "[KH2025, Thm 18, eq. (13)]";
        const std::string eqp = L == 2 ? "[KH2025, Thm 18, eq. (12)]" : "[KH2025, Thm 18, eq. (14)]";
        const std::string N1 = "eq. (13) ||psi(T^1)|| <= b1 delta^kappa, delta = " + ds,
                          N2 = "eq. (13) ratio <= b2 delta^(L kappa), delta = " + ds,
                          N3 = "eq. (14) sup ||psi_z|| <= C~ delta^kappa, delta = " + ds;
        for (const std::string& c : {"tube from delta W0 reaches T^2 + T~, delta = " + ds, "T^1 > 0, delta = " + ds, N1, N2, N3})
            premises.push_back(c);
        rep.step("tube from delta W0 reaches T^2 + T~, delta = " + ds, "[KH2025, eq. (2)]")
            .holds(ok, ok ? "t in [0, " + to_string(tend, 10) + "], " + std::to_string(steps) + " steps"
                          : r.at("status").get<std::string>() + " at t = " + to_string(cert::interval_d_from_json(r.at("time")), 8) +
                                ": " + r.at("reason").get<std::string>());
        // The exhibited T^1 must be a time of the run (T^1 > 0), else psi(T^1) is not read.
        rep.step("T^1 > 0, delta = " + ds, eqn).positive({"T^1", t1});
        if (!ok) continue;
        const I n1 = cert::interval_d_from_json(r.at("n1")), ratio = cert::interval_d_from_json(r.at("ratio")),
                sup_z = cert::interval_d_from_json(r.at("sup_z"));
        const I dk = exp(kappa * log(delta)), dkr = exp(kappa_ratio * log(delta));
        const bool t1_ok = r.at("t1_ok").get<bool>();
        sw.add_row({ds, to_string(t1, 8), to_string(t2, 8), std::to_string(steps), fmt(seconds, 3),
                    t1_ok ? to_string(n1, 6) : "-", t1_ok ? to_string(ratio, 6) : "-", to_string(sup_z, 6),
                    to_string(cert::interval_d_from_json(r.at("loss_end")), 6),
                    to_string(cert::interval_d_from_json(r.at("grad_end")), 4)});
        const I q1 = n1 / dk, q2 = ratio / dkr, q3 = sup_z / dk;
        if (t1_ok) {
            max_q1 = max(max_q1, q1);
            max_q2 = max(max_q2, q2);
        }
        max_q3 = max(max_q3, q3);
        qt.add_row({ds, t1_ok ? upper_string(q1, 6) : "-", t1_ok ? upper_string(q2, 6) : "-", upper_string(q3, 6)});
        // b1, b2, C~ are the case's exhibited constants (the paper asserts that some exist): steps.
        if (have_consts && t1_ok) {
            rep.step(N1, eqn).le({"||psi(T^1, delta W0)||", n1}, {"b1 delta^kappa", b1 * dk});
            rep.step(N2, eqn).le({"||psi_z(T^1)|| / ||psi(T^1)||", ratio}, {"b2 delta^(L kappa)", b2 * dkr});
        } else {
            const std::string why = t1_ok ? "the case gives no constant (b1, b2, c_tilde); see the table of smallest "
                                            "admissible constants"
                                          : "T^1 is not certainly positive: psi(T^1) is not read";
            rep.step(N1, eqn).holds(false, why);
            rep.step(N2, eqn).holds(false, why);
        }
        if (have_consts)
            rep.step(N3, eqp).le({"sup_{|t|<=T~} ||psi_z(t + T^2)||", sup_z}, {"C~ delta^kappa", ct_ * dk});
        else
            rep.step(N3, eqp).holds(false, "the case gives no constant c_tilde; see the table of smallest admissible constants");
        if (!t1_ok) continue;
        dl.push_back(delta);
        dl_s.push_back(ds);
        q_norm.push_back(n1);
        q_ratio.push_back(ratio);
        q_sup.push_back(sup_z);
        sp.add_point("||psi(T^1)||", mid(delta), n1);
        sp.add_point("ratio ||psi_z||/||psi|| at T^1", mid(delta), ratio);
        sp.add_point("sup |t|<=T~ ||psi_z(t+T^2)||", mid(delta), sup_z);

        // heat maps and the neuron-norm tube for one delta
        if (ds == heat_s && ff) {
            const int k1 = arch.hidden[0], voff = arch.layer_offset(2);
            auto heat = [&](const std::vector<I>& x, const std::string& when) {
                cert::HeatMap hm{.title = "|W| | |v| at " + when + ", delta = " + ds + " (rows: neurons; last column: |v_j|; upper bounds)",
                                 .row_labels = {}, .col_labels = {}, .values = {}};
                for (int j = 0; j < k1; ++j) {
                    std::vector<double> row;
                    for (int k = 0; k < d; ++k) row.push_back(mag(x[static_cast<std::size_t>(j * d + k)]));
                    row.push_back(mag(x[static_cast<std::size_t>(voff + j)]));
                    hm.values.push_back(row);
                    hm.row_labels.push_back("j=" + std::to_string(j));
                }
                for (int k = 0; k < d; ++k) hm.col_labels.push_back("x" + std::to_string(k));
                hm.col_labels.push_back("v");
                rep.add_plot(hm);
            };
            heat(x0_of(delta), "t = 0");
            heat(vec_from_json(r.at("x1")), "T^1 (just before escape)");
            heat(vec_from_json(r.at("x2")), "T^2");
            heat(vec_from_json(r.at("x_end")), "T^2 + T~ (near the first saddle)");
            // neuron norms over time: tube plot and a heat map over (subsampled) steps
            cert::TubePlot tp{.title = "||(W_1[j,:], v[j])|| over time, delta = " + ds + " (certified tube)",
                              .x_label = "t", .y_label = "neuron norm", .log_x = false, .log_y = true, .bands = {}};
            cert::HeatMap hot{.title = "log10(||(W_1[j,:], v[j])|| / delta) over the integrator steps (columns, subsampled), delta = " + ds,
                              .row_labels = {}, .col_labels = {}, .values = {}};
            hot.values.assign(static_cast<std::size_t>(k1), {});
            for (const auto& piece : r.at("neuron_tube")) {
                const double t = cert::parse_exact_double(piece.at("t").get<std::string>());
                for (int j = 0; j < k1; ++j) {
                    const I nj = cert::interval_d_from_json(piece.at("norms").at(static_cast<std::size_t>(j)));
                    tp.add_point("neuron " + std::to_string(j), t, nj);
                    hot.values[static_cast<std::size_t>(j)].push_back(std::log10(std::max(upper(nj), 1e-300) / mid(delta)));
                }
            }
            for (int j = 0; j < k1; ++j) hot.row_labels.push_back("j=" + std::to_string(j));
            rep.add_plot(tp);
            rep.add_plot(hot);
        }
    }
    rep.conclusion(CONCL, eqn_all)
        .statement("for every delta of the sweep, at the exhibited T^1, T^2 and with the exhibited b1, b2, C~: "
                   "||psi(T^1)|| <= b1 delta^kappa, ||psi_z(T^1)||/||psi(T^1)|| <= b2 delta^(L kappa) (2 kappa for L = 2), "
                   "sup_{|t|<=T~} ||psi_z(t + T^2)|| <= C~ delta^kappa (a finite sweep, not the asymptotic statement)")
        .implied_by(premises);
    // slopes (a table: finite slopes beside an asymptotic rate decide nothing)
    auto& st = rep.table("certified log-log slopes between consecutive deltas",
                         {"delta_i", "delta_i+1", "slope ||psi(T^1)||", "vs kappa", "slope ratio", "vs L kappa", "slope sup ||psi_z||", "vs kappa"});
    auto ge = [](const I& s, const I& e) { return certainly_less_equal(e, s) ? "above" : (certainly_less(s, e) ? "below" : "?"); };
    for (std::size_t i = 0; i + 1 < dl.size(); ++i) {
        auto sl = [&](const std::vector<I>& q) {
            return loglog_slope(q[i], q[i + 1], dl[i], dl[i + 1]).value_or(I::bounds(-1e300, 1e300));
        };
        const I s1 = sl(q_norm), s2 = sl(q_ratio), s3 = sl(q_sup);
        st.add_row({dl_s[i], dl_s[i + 1], to_string(s1, 5), ge(s1, kappa), to_string(s2, 5), ge(s2, kappa_ratio), to_string(s3, 5),
                    ge(s3, kappa)});
    }
    if (have_consts) {
        sp.references.push_back({"b1 delta^kappa", mid(b1), mid(kappa)});
        sp.references.push_back({"b2 delta^(L kappa)", mid(b2), mid(kappa_ratio)});
        sp.references.push_back({"C~ delta^kappa", mid(ct_), mid(kappa)});
    }
    rep.add_plot(sp);
    rep.note("smallest constants admissible on this sweep (upper bounds): b1 >= " + upper_string(max_q1, 4) +
             ", b2 >= " + upper_string(max_q2, 4) + ", C~ >= " + upper_string(max_q3, 4) +
             (have_consts ? "; the case exhibits b1 = " + in.number_string("b1") + ", b2 = " + in.number_string("b2") +
                                ", C~ = " + in.number_string("c_tilde")
                          : std::string("; the case exhibits none")));
    stopwatch.note(rep, 3);
    rep.claim.proven_statement =
        "W̄ is a certified Delta-second-order positive KKT point with exact zero set w_z; w_z is zero-preserving (structural "
        "proof on the flow field, exact zeros on the tubes); for each delta of the sweep, at the exhibited times T^1, T^2 and "
        "with the exhibited constants b1, b2, C~: ||psi(T^1)|| <= b1 delta^kappa, ||psi_z(T^1)||/||psi(T^1)|| <= b2 "
        "delta^(L kappa) (2 kappa for L = 2), sup_{|t|<=T~} ||psi_z(t + T^2)|| <= C~ delta^kappa";
}

}  // namespace

int main(int argc, char** argv) {
    using cert::KeyType;
    cert::VerifierSpec spec{
        .name = "kh/theorem18_sparsity",
        .summary = "certifies zero-preserving subsets (Def. 15, Lemma 16) and the Theorem 18 sparsity bounds on a delta sweep",
        .claim = {.paper = "KH2025",
                  .locator = "Sec. 4: Definition 15, Lemmas 16-17, Theorem 18 (eqs. (11)-(14))",
                  .paper_statement =
                      "if W0 in S(W̄), W̄ a Delta-second-order positive KKT point of (10), w_z its zero rows/columns: for all "
                      "small delta, ||psi(T^1)|| <= b1 delta^kappa and ||psi_z(T^1)||/||psi(T^1)|| <= b2 delta^(L kappa) "
                      "(2 kappa if L = 2), and sup_{|t|<=T~} ||psi_z(t + T^2)|| <= C~ delta^kappa, "
                      "kappa = Delta/(Delta + 2 L^2 N(W̄)); w_z is zero-preserving",
                  .proven_statement = {}},
        .schema = khcase::join({
            {
                {.name = "model", .type = KeyType::string, .description = "architecture", .choices = {"feed_forward", "diagonal"}},
                {.name = "depth", .type = KeyType::integer, .description = "diagonal: number of factors", .required = false},
                {.name = "hidden", .type = KeyType::numbers, .description = "feed_forward: one hidden width", .required = false},
                {.name = "activation", .type = KeyType::string, .description = "feed_forward activation", .required = false,
                 .choices = {"square", "relu_power", "linear"}},
                {.name = "power", .type = KeyType::integer, .description = "relu_power exponent p >= 2", .required = false},
            },
            khcase::data_keys({"square", "linear"}),
            {
                {.name = "init_seed", .type = KeyType::integer, .description = "seed of the Gaussian initial direction W0", .required = false},
                {.name = "init_direction", .type = KeyType::numbers, .description = "explicit W0 (exact doubles)", .required = false},
                {.name = "deltas", .type = KeyType::numbers, .description = "initialization scales (decreasing)", .required = false,
                 .constraint = cert::Constraint::positive},
                {.name = "Delta", .type = KeyType::number, .description = "the Delta of Thm 18 (default: just below Delta_max)",
                 .required = false, .constraint = cert::Constraint::positive},
                {.name = "T_tilde", .type = KeyType::number, .description = "half-width of the post-escape window",
                 .constraint = cert::Constraint::positive},
                {.name = "align_gamma", .type = KeyType::number, .description = "cap 1 - cos <= gamma defining T1 (default 1e-2)",
                 .required = false, .constraint = cert::Constraint::positive},
                {.name = "cap_gamma", .type = KeyType::number,
                 .description = "gamma of the Lemma 23 cap {W̄^T w >= 1 - gamma} of the stable-set proof (default 1e-3)",
                 .required = false, .constraint = cert::Constraint::positive},
                {.name = "cap_pieces", .type = KeyType::integer, .description = "pieces of the cap certificate (default 64)",
                 .required = false, .constraint = cert::Constraint::positive},
                {.name = "ncf_horizon", .type = KeyType::number,
                 .description = "longest NCF tube into the cap, in flow time (default 20/Delta_max)", .required = false,
                 .constraint = cert::Constraint::positive},
                {.name = "T1", .type = KeyType::number, .description = "override the exhibited T1", .required = false},
                {.name = "A2", .type = KeyType::number, .description = "override the exhibited A2", .required = false},
                {.name = "T_blowup", .type = KeyType::number, .description = "override the exhibited T (L > 2)", .required = false},
                {.name = "b1", .type = KeyType::number, .description = "exhibited b1 of eq. (11)/(13)", .required = false,
                 .constraint = cert::Constraint::positive},
                {.name = "b2", .type = KeyType::number, .description = "exhibited b2 of eq. (11)/(13)", .required = false,
                 .constraint = cert::Constraint::positive},
                {.name = "c_tilde", .type = KeyType::number, .description = "exhibited C~ of eq. (12)/(14)", .required = false,
                 .constraint = cert::Constraint::positive},
                {.name = "claimed_zero_set", .type = KeyType::strings,
                 .description = "test Def. 15 on these parameters (names as W1[j,k], v[j]) instead of the KKT zero set",
                 .required = false},
                {.name = "zero_tube_tolerance", .type = KeyType::number,
                 .description = "bound for ||psi_z|| on the invariance tubes (rounding leaks through the Lohner basis; default 1e-12)",
                 .required = false, .constraint = cert::Constraint::positive},
                {.name = "invariance_delta", .type = KeyType::number, .description = "delta of the invariance tubes", .required = false,
                 .constraint = cert::Constraint::positive},
                {.name = "heat_map_delta", .type = KeyType::number, .description = "delta whose heat maps are drawn", .required = false},
                {.name = "order", .type = KeyType::integer, .description = "Taylor order of the integrator (default 20)", .required = false,
                 .constraint = cert::Constraint::positive},
            },
        }),
        .default_precision_bits = 53,
        .validate =
            [](const cert::Case& c) {
                const std::string m = c.string("model");
                if (m == "diagonal" && !c.has("depth")) c.fail("depth", "required for diagonal");
                if (m == "feed_forward" && (!c.has("hidden") || !c.has("activation")))
                    c.fail("hidden", "feed_forward needs hidden and activation");
                if (m == "feed_forward" && c.number_strings("hidden").size() != 1)
                    c.fail("hidden", "one hidden layer only (the flow field supports K = 1)");
                khcase::validate_data_keys(c);
                if (!c.has("init_seed") && !c.has("init_direction")) c.fail("init_seed", "need init_seed or init_direction");
                if (c.has("deltas") && c.number_strings("deltas").size() < 2) c.fail("deltas", "need at least two values");
            },
        .run = run,
        .sweep = "delta",
    };
    return cert::verifier_main(argc, argv, spec);
}
