// verifiers/kh/theorem18_sparsity.cpp -- [KH2025] (Kumar & Haupt, JMLR 26, paper 25-1089), Section 4:
// zero-preserving subsets (Definition 15, Lemma 16) and the sparsity bounds of Theorem 18 (eqs. (11)-(14)).
//
// For one homogeneous model, data set and initial direction W0 (a case file), the verifier
//   1. finds the KKT point W̄ of max N s.t. ||u|| = 1 that the NCF flow from W0 converges to (NON-RIGOROUS:
//      projected NCF flow in double + Newton) and CERTIFIES it as in kh/ncf_kkt: existence/uniqueness
//      (Krawczyk), N(W̄) > 0, Delta_max > 0, its exact zero set w_z (reduced-space Krawczyk), Lemma 17;
//   2. CERTIFIES that w_z is zero-preserving (Definition 15): w_z is a union of Lemma 16 units; every w_z
//      component of the loss-flow field (and of the NCF field) vanishes identically on {w_z = 0}, proven
//      structurally on the Taylor DAG (taylor::field_vanishes_on_subspace: invariance in both time
//      directions); and, as a consequence checked on concrete flows, the rigorous tubes from delta W̄ and
//      from delta W0 masked on w_z keep w_z at exactly [0, 0] on every step, where an independent gradient
//      evaluator (nets::square_loss) gives grad_{w_z} L = [0, 0] exactly on every step box;
//   3. for each delta of a sweep, integrates the gradient flow from delta W0 with the rigorous Taylor/Lohner
//      integrator and CERTIFIES the Theorem 18 bounds at exhibited times and constants:
//        ||psi(T^1)|| <= b1 delta^kappa,  ||psi_wz(T^1)|| / ||psi(T^1)|| <= b2 delta^(L kappa)  (eq. (13))
//        sup_{|t| <= T~} ||psi_wz(t + T^2)|| <= C~ delta^kappa                                 (eq. (14))
//      (L = 2: exponents kappa and 2 kappa, eqs. (11)-(12)), kappa = Delta / (Delta + 2 L^2 N̄), with
//      certified log-log slopes between consecutive deltas reported against the exponents.
// The constants T1, A2 (delta~ = A2 delta) and T of the times T^1, T^2 are exhibited (computed non-rigorously from
// the NCF flow, then fixed as exact decimals), b1, b2, C~ are given by the case. The proof steps are in
// lib/flowcert/proofs/kh/theorem18_steps.hpp; the case in theorem18_case.hpp, the records in theorem18_report.hpp.
// See docs/kh.md ("Verifier kh/theorem18_sparsity") for what is certified and its distance to the paper.
#include <flowcert/cert.hpp>
#include <flowcert/proofs/kh/ncf_kkt.hpp>
#include <flowcert/proofs/kh/theorem18_steps.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "kh_report.hpp"
#include "theorem18_case.hpp"
#include "theorem18_report.hpp"

namespace cert = flowcert::cert;
using namespace flowcert;
using namespace flowcert::nets;
using namespace flowcert::proofs::kh;
using I = IntervalD;

namespace {
namespace nm = kh18::names;

// The hidden neurons j (one hidden layer: W row j, then v_j) with a parameter outside the zero set z.
std::vector<int> support_neurons(const HomogeneousArchitecture& arch, const std::vector<int>& z) {
    const int d = arch.input_dim, m = arch.hidden.front();
    std::vector<char> zero(static_cast<std::size_t>(m * d + m), 0);
    for (int k : z) zero[static_cast<std::size_t>(k)] = 1;
    std::vector<int> out;
    for (int j = 0; j < m; ++j) {
        bool all_zero = zero[static_cast<std::size_t>(m * d + j)] != 0;
        for (int k = 0; k < d; ++k) all_zero = all_zero && zero[static_cast<std::size_t>(j * d + k)] != 0;
        if (!all_zero) out.push_back(j);
    }
    return out;
}

// Step 3: the delta sweep (the points through cert::Context::sweep, issue 7) and its conclusion, tables and plots.
void sweep(cert::Context& ctx, const kh18::Instance& s, const kh18::Frame& f, const std::vector<int>& z) {
    const cert::Case& in = ctx.input;
    auto& rep = ctx.report;
    const bool have_consts = in.has("b1") && in.has("b2") && in.has("c_tilde");
    const I b1 = have_consts ? in.interval<I>("b1", 53) : I(0), b2 = have_consts ? in.interval<I>("b2", 53) : I(0),
            ct = have_consts ? in.interval<I>("c_tilde", 53) : I(0);
    kh18::SweepTables tabs(rep);
    const std::string heat_s = in.has("heat_map_delta") ? in.number_string("heat_map_delta") : s.deltas.front();
    const HomogeneousModel<I> model(s.arch, s.data.X);
    const auto records = ctx.sweep(s.deltas.size(), [&](std::size_t i) {
        const std::string& ds = s.deltas[i];
        const I delta = I::from_decimal(ds);
        const Theorem18Point p = theorem18_sweep_point(f.flows, scaled_start(s.W0i, delta), f.times(delta), f.Ttilde, z, model,
                                                       s.data.y, s.norm, s.order, ds == heat_s && s.ff, s.arch);
        ctx.progress.message("delta = " + ds + ": " + std::to_string(p.steps) + " steps");
        return kh18::record_of(p, ds == heat_s && s.ff);
    });
    std::vector<std::string> premises = {nm::KKT, nm::NPOS, nm::DPOS, nm::STABLE, nm::WZ, nm::DLE, nm::ZP, nm::T1, nm::A2};
    if (s.L > 2) premises.push_back(nm::TB);
    const std::string eqn = s.L == 2 ? "[KH2025, Thm 18, eq. (11)]" : "[KH2025, Thm 18, eq. (13)]";
    const std::string eqp = s.L == 2 ? "[KH2025, Thm 18, eq. (12)]" : "[KH2025, Thm 18, eq. (14)]";
    for (std::size_t i = 0; i < s.deltas.size(); ++i) {
        const std::string& ds = s.deltas[i];
        const Theorem18Point p = kh18::point_of(records[i]);
        const I delta = I::from_decimal(ds);
        const auto [t1, t2] = f.times(delta);
        for (const std::string& c : {nm::reach(ds), nm::t1_positive(ds), nm::eq13_norm(ds), nm::eq13_ratio(ds), nm::eq14_sup(ds)})
            premises.push_back(c);
        rep.step(nm::reach(ds), "[KH2025, eq. (2)]")
            .holds(p.ok, p.ok ? "t in [0, " + to_string(t2 + f.Ttilde, 10) + "], " + std::to_string(p.steps) + " steps"
                              : p.status + " at t = " + to_string(p.time, 8) + ": " + p.reason);
        // The exhibited T^1 must be a time of the run (T^1 > 0), else psi(T^1) is not read.
        rep.step(nm::t1_positive(ds), eqn).positive({"T^1", t1});
        if (!p.ok) continue;
        const Theorem18Bounds b = theorem18_bounds(p, delta, f.exps, b1, b2, ct);
        tabs.add(ds, t1, t2, p, b);
        // b1, b2, C~ are the case's exhibited constants (the paper asserts that some exist): steps.
        if (have_consts && p.t1_ok) {
            rep.step(nm::eq13_norm(ds), eqn).le({"||psi(T^1, delta W0)||", p.n1}, {"b1 delta^kappa", b.b1_bound});
            rep.step(nm::eq13_ratio(ds), eqn).le({"||psi_z(T^1)|| / ||psi(T^1)||", p.ratio}, {"b2 delta^(L kappa)", b.b2_bound});
        } else {
            const std::string why = p.t1_ok ? "the case gives no constant (b1, b2, c_tilde); see the table of smallest "
                                              "admissible constants"
                                            : "T^1 is not certainly positive: psi(T^1) is not read";
            rep.step(nm::eq13_norm(ds), eqn).holds(false, why);
            rep.step(nm::eq13_ratio(ds), eqn).holds(false, why);
        }
        if (have_consts)
            rep.step(nm::eq14_sup(ds), eqp).le({"sup_{|t|<=T~} ||psi_z(t + T^2)||", p.sup_z}, {"C~ delta^kappa", b.ct_bound});
        else
            rep.step(nm::eq14_sup(ds), eqp).holds(false, "the case gives no constant c_tilde; see the table of smallest admissible constants");
        if (!p.t1_ok) continue;
        tabs.add_point(delta, ds, p);
        if (ds == heat_s && s.ff) kh18::heat_maps(rep, s.arch, ds, delta, scaled_start(s.W0i, delta), p);
    }
    rep.conclusion(nm::CONCL, s.L == 2 ? "[KH2025, Thm 18, eqs. (11)-(12)]" : "[KH2025, Thm 18, eqs. (13)-(14)]")
        .statement("for every delta of the sweep, at the exhibited T^1, T^2 and with the exhibited b1, b2, C~: "
                   "||psi(T^1)|| <= b1 delta^kappa, ||psi_z(T^1)||/||psi(T^1)|| <= b2 delta^(L kappa) (2 kappa for L = 2), "
                   "sup_{|t|<=T~} ||psi_z(t + T^2)|| <= C~ delta^kappa (a finite sweep, not the asymptotic statement)")
        .implied_by(premises);
    tabs.finish(rep, f.exps, have_consts ? std::optional<std::array<I, 3>>({b1, b2, ct}) : std::nullopt, in);
}

void run(cert::Context& ctx) {
    const cert::Case& in = ctx.input;
    auto& rep = ctx.report;
    const khreport::Stopwatch stopwatch;
    const kh18::Instance s = kh18::read_instance(ctx, rep);
    const Ncf<double> ncf_d(HomogeneousModel<double>(s.arch, s.data.Xd), ncf_weights<double>(s.data.yd, s.norm));
    const Ncf<I> ncf(HomogeneousModel<I>(s.arch, s.data.X), ncf_weights<I>(s.data.y, s.norm));
    kh18::plan(rep, s);

    // ---- 1. the KKT point W̄ the NCF flow from W0 goes to: Theorem 18's hypotheses (W0 in S(W̄) below) --------
    const PositiveKkt<I> kkt = certify_positive_kkt(ncf, ncf_d, ncf_direction_limit_nonrigorous(ncf_d, s.W0));
    const KktCandidateNonrigorous& cand = kkt.candidate;
    rep.note("W̄ candidate: direction limit of the projected NCF flow from W0 (RK4 in double), polished by Newton "
             "(non-rigorous); N = " + format_g(cand.value, 10) + ", KKT residual " + format_g(cand.residual, 3));
    if (!khreport::state_positive_kkt(rep, kkt, {.kkt = nm::KKT, .npos = nm::NPOS, .dpos = nm::DPOS, .n_operand = "N(W̄)"}))
        return;
    const TangentSpectrum<I>& ts = kkt.spectrum;
    kh18::Frame f(theorem18_flows(s.arch, s.norm, s.data.X, s.data.y, ncf.ytilde()));
    if (s.flow_engine == "square_blocks") {  // the loss flow by per-neuron blocks (docs/kh.md, theorem18_sparsity)
        Theorem18BlockFlow b{s.data.Xd, s.data.y, loss_scale<I>(s.norm, s.n, I(0)), {}, {}};  // no ytilde: the NCF stays dense
        b.options.order = in.has("block_order") ? static_cast<int>(in.integer("block_order")) : 12;
        if (in.has("promote_norm")) b.options.promote_norm = mid(in.interval_d("promote_norm"));
        if (in.has("block_jacobian_pieces")) b.options.jacobian_pieces = static_cast<int>(in.integer("block_jacobian_pieces"));
        if (in.has("block_mean_value_remainder") && in.boolean("block_mean_value_remainder")) {
            b.options.remainder_mean_value = true;
            rep.note("square_blocks: remainders by the mean-value validation (docs/kh.md, \"The mean-value remainder validation\")");
        }
        // a progress line about once a minute from the block integrator (the sweep's threads share the clock)
        const auto started = std::chrono::steady_clock::now();
        auto last_line = std::make_shared<std::atomic<long>>(0);
        cert::Progress* progress = &ctx.progress;
        b.options.on_step = [started, last_line, progress](double t, long accepted, long rejected, int framed,
                                                            double frame_width, double box_width, double) {
            const long sec = static_cast<long>(
                std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started).count());
            long prev = last_line->load();
            if (sec - prev < 60 || !last_line->compare_exchange_strong(prev, sec)) return;
            progress->message("block flow: t = " + format_g(t, 6) + ", " + std::to_string(accepted) + " steps (" +
                              std::to_string(rejected) + " rejected), " + std::to_string(framed) +
                              " neurons framed, widths " + format_g(frame_width, 2) + " (frame) " +
                              format_g(box_width, 2) + " (boxes), " + std::to_string(sec) + " s");
        };
        f.flows.blocks = b;
        rep.note("loss-flow integrator (invariance tubes and sweep; the NCF entry into the cap stays dense): square_blocks -- nets::integrate_square_net_flow, order " +
                 std::to_string(b.options.order) + ", neurons of norm > " + format_g(b.options.promote_norm, 3) +
                 " in one Lohner frame, the others as Taylor-model boxes, coupled through validated residual Taylor models");
    } else {
        rep.note("loss-flow integrator (tubes and sweep): dense Taylor/Lohner on the flow DAG, order " + std::to_string(s.order));
    }
    f.Nbar = kkt.ncf_value;
    // The Delta of Theorem 18: an exact decimal in (0, Delta_max] (the theorem holds for each): our choice, a step.
    f.Delta_s = in.has("Delta") ? in.number_string("Delta") : format_g(lower(ts.delta_max) * (1 - 1e-4), 6);
    f.Delta = I::from_decimal(f.Delta_s);
    rep.step(nm::DLE, "[KH2025, Thm 18: W̄ Delta-second-order positive]").le({"Delta", f.Delta}, {"Delta_max", ts.delta_max});
    if (!certainly_positive(f.Delta)) return;
    f.exps = theorem18_exponents(s.L, f.Delta, f.Nbar);
    const ZeroPattern<I> zp = prove_zero_pattern(ncf, cand.u, cand.mu, 1e-8, kkt.existence.uniqueness_box);
    const bool zp_ok = zp.status == ProofStatus::proven && zp.inside_uniqueness_box;
    rep.step(nm::ZP, "[KH2025, Def. 15, Thm 18 (w_z)]")
        .holds(zp_ok, zp.reason + " (|Z| = " + std::to_string(zp.zero_indices.size()) + " of " + std::to_string(s.P) + ")");
    if (!zp_ok) return;
    if (f.flows.blocks && in.has("block_frame_support") && in.boolean("block_frame_support")) {
        // the neurons of W̄'s support (those that escape) in the Lohner frame from t = 0: sound for any choice
        f.flows.blocks->options.frame_from_start = support_neurons(s.arch, zp.zero_indices);
        rep.note("square_blocks: the " + std::to_string(f.flows.blocks->options.frame_from_start.size()) +
                 " support neurons of W̄ in the Lohner frame from t = 0; the frame Jacobian on " +
                 std::to_string(f.flows.blocks->options.jacobian_pieces) + " sub-intervals per step");
    }
    if (s.ff)  // an identity at every positive KKT point (Lemma 17): a consistency check of the enclosures
        rep.conclusion(nm::L17, "[KH2025, Lemma 17]")
            .trivially_true("an identity at every positive KKT point of (10) [KH2025, Lemma 17]: a consistency check")
            .inside({"hull of the residuals", lemma17_residual_hull(s.arch, zp.u)},
                    cert::Operand::exact_interval("[-1e-8, 1e-8]", "-1e-8", "1e-8"));

    // w_z: the KKT zero set (Theorem 18), or a claimed set (to test Definition 15 on it; outside the theorem).
    const std::vector<int> z = in.has("claimed_zero_set") ? kh18::claimed_zero_set(in, s.arch) : zp.zero_indices;
    if (!kh18::state_zero_set(rep, in, s.arch, z, zp.zero_indices)) return;

    // ---- 2. zero preservation (Definition 15, Lemma 16) ---------------------------------------------------
    const ZeroPreservation pres = theorem18_zero_preservation(s.arch, f.flows, z);
    kh18::state_zero_preservation(rep, s.arch, s.ff, pres, f.flows.loss.nodes().size());

    // ---- exhibited constants of T^1, T^2 (non-rigorous choice, then exact) -----------------------------------
    if (!kh18::exhibit_times(rep, in, s, f, ncf_d, linalg::mid<I>(zp.u), ts)) return;

    // ---- W0 in S(W̄) (Theorem 18's hypothesis): a Lemma 23 cap with an explicit gamma, entered by the NCF tube ----
    if (!s.deltas.empty()) {
        const I gcap = in.has("cap_gamma") ? in.interval<I>("cap_gamma", 53) : I::from_decimal("1e-3");
        const Theorem18StableSet st = theorem18_stable_set(
            ncf, f.flows, s.W0i, zp.u, f.Nbar, ts, f.Delta, gcap, in.has("cap_pieces") ? static_cast<int>(in.integer("cap_pieces")) : 64,
            in.has("ncf_horizon") ? std::optional<double>(mid(in.interval_d("ncf_horizon"))) : std::nullopt, s.L, s.order);
        kh18::state_stable_set(rep, st);
    }

    // ---- invariance on concrete tubes -------------------------------------------------------------------
    kh18::invariance_checks(rep, in, s, f, z, zp.u, pres.loss.proven);

    // ---- 3. the Theorem 18 sweep ----------------------------------------------------------------------------
    if (s.deltas.empty()) {
        rep.claim.proven_statement = "W̄ certified; w_z is zero-preserving (structural proof on the field and exact tubes)";
        stopwatch.note(rep, 3);
        return;
    }
    sweep(ctx, s, f, z);
    stopwatch.note(rep, 3);
    rep.claim.proven_statement =
        "W̄ is a certified Delta-second-order positive KKT point with exact zero set w_z; w_z is zero-preserving (structural "
        "proof on the flow field, exact zeros on the tubes); for each delta of the sweep, at the exhibited times T^1, T^2 and "
        "with the exhibited constants b1, b2, C~: ||psi(T^1)|| <= b1 delta^kappa, ||psi_z(T^1)||/||psi(T^1)|| <= b2 "
        "delta^(L kappa) (2 kappa for L = 2), sup_{|t|<=T~} ||psi_z(t + T^2)|| <= C~ delta^kappa";
}

}  // namespace

int main(int argc, char** argv) {
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
        .schema = kh18::schema(),
        .default_precision_bits = 53,
        .validate = kh18::validate,
        .run = run,
        .sweep = "delta",
    };
    return cert::verifier_main(argc, argv, spec);
}
