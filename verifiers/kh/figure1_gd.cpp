// verifiers/kh/figure1_gd.cpp -- [KH2025] (Kumar & Haupt, JMLR 26, paper 25-1089), Figure 1: full-batch GD of
// H(x) = v^T (W x)^2 from the small initialization delta w0, certified step by step (the exact-arithmetic GD of
// the seeded setting): the two loss plateaus (L(0) and the first saddle's L(p*)), the sparsity of the weights
// at i1 and i2, the loss at every iterate, the distance to p* at i2, optionally the third plateau (L_k below the
// case's final_loss_max from final_loss_first to the last iterate), optionally a certified plateau length past the
// tube (the trap of docs/kh.md#plateau-trap), and optionally the per-neuron norms at extra snapshot iterates. The
// mathematics is in lib/flowcert/proofs/kh (figure1_gd, square_net_saddle, square_net_trap), the tables, plots and
// case keys in figure1_report.hpp; see docs/kh.md#the-figure-1-run-at-its-size.
#include <flowcert/cert.hpp>
#include <flowcert/proofs/kh/figure1_gd.hpp>
#include <flowcert/proofs/kh/square_net_trap.hpp>

#include <string>
#include <vector>

#include "figure1_report.hpp"

namespace cert = flowcert::cert;
using namespace flowcert;
using namespace flowcert::proofs::kh;
using namespace khfigure1;

namespace {

// The conclusions of Figure 1(a)-(c) on the certified run: the plateaus, the loss bound, the sparsity at i1 and
// i2 and the distance to p* at i2. The top neurons at i1, i2 (for the tables) and that distance.
struct Sparsity {
    std::vector<TopNeuron> tops;
    IntervalD distance;
};
Sparsity conclusions(cert::Report& rep, const cert::Case& in, const CertifiedGdRun& run, const OneNeuronSaddle& ps,
                     const IntervalD& L0, const IntervalD& Lp) {
    const long N = in.integer("steps"), i1 = in.integer("i1"), i2 = in.integer("i2");
    const IntervalD eps1 = in.interval_d("epsilon1"), eps2 = in.interval_d("epsilon2");
    rep.conclusion("plateau 1: |L_k - L(0)| <= epsilon1 for 0 <= k <= plateau1_last", "[KH2025, Fig. 1(a)]")
        .le({"sup_k |L_k - L(0)|", loss_distance(run, 0, in.integer("plateau1_last"), L0)}, {"epsilon1", eps1});
    rep.conclusion("plateau 2: |L_k - L(p*)| <= epsilon2 for plateau2_first <= k <= plateau2_last", "[KH2025, Fig. 1(a)]")
        .le({"sup_k |L_k - L(p*)|", loss_distance(run, in.integer("plateau2_first"), in.integer("plateau2_last"), Lp)},
            {"epsilon2", eps2});
    rep.conclusion("the loss never exceeds L(0) + epsilon1", "[KH2025, Fig. 1(a)]")
        .le({"sup_k L_k", loss_sup(run, 0, N)}, {"L(0) + epsilon1", L0 + eps1});
    if (in.has("final_loss_first")) {
        // The third plateau (L ~ 0 after the second escape): sup_k L_k over final_loss_first..steps from the block
        // hulls of the certified loss (upper end: max of the upper ends of the blocks that meet the range; +inf if
        // the tube stopped before the last iterate; lower end: max of their lower ends, so a claim below it is false).
        rep.conclusion("plateau 3: L_k <= final_loss_max for final_loss_first <= k <= steps", "[KH2025, Fig. 1(a)]")
            .case_claim("final_loss_max (the case's claimed bound on the third plateau)")
            .le({"sup_{final_loss_first <= k <= steps} L_k", loss_sup(run, in.integer("final_loss_first"), N)},
                cert::exact("final_loss_max", in.number_string("final_loss_max")));
    }
    const std::vector<IntervalD> a_mins = in.intervals<IntervalD>("a_min", 53), rho_maxs = in.intervals<IntervalD>("rho_max", 53);
    Sparsity out;
    for (const long it : {i1, i2}) {
        const std::string at = it == i1 ? "i1" : "i2";
        const std::size_t q = it == i1 ? 0 : 1;
        const NeuronNorms* snap = certified_snapshot(run, it);
        const TopNeuron t = snap ? top_neuron(*snap) : TopNeuron{0, IntervalD(0), IntervalD::bounds(0, 1e300)};
        out.tops.push_back(t);
        rep.conclusion("sparsity at " + at + ": one neuron above A_min", "[KH2025, Fig. 1(b, c)]")
            .lt({"A_min", a_mins[q]}, {"|theta_j*(" + at + ")|", t.norm});
        rep.conclusion("sparsity at " + at + ": every other neuron below rho_max", "[KH2025, Fig. 1(b, c)]")
            .lt({"max_{j != j*} |theta_j(" + at + ")|", t.others}, {"rho_max", rho_maxs[q]});
    }
    const NeuronNorms* snap2 = certified_snapshot(run, i2);
    out.distance = snap2 && ps.status == ProofStatus::proven ? distance_to_saddle(*snap2, out.tops[1].index, ps)
                                                            : IntervalD::bounds(0, 1e300);
    rep.conclusion("distance to p* at i2", "[KH2025, Fig. 1; Cor. 11]")
        .le({"|theta(i2) - p*|", out.distance}, {"saddle_distance_max", in.interval_d("saddle_distance_max")});
    return out;
}

void run(cert::Context& ctx) {
    const cert::Case& in = ctx.input;
    auto& rep = ctx.report;
    const int d = static_cast<int>(in.integer("input_dim")), n = static_cast<int>(in.integer("samples"));
    const int m = static_cast<int>(in.integer("neurons"));
    const long N = in.integer("steps"), block = in.integer("loss_block"), i1 = in.integer("i1"), i2 = in.integer("i2");
    const std::uint64_t perm = in.has("sample_order_seed") ? static_cast<std::uint64_t>(in.integer("sample_order_seed")) : 0;

    // ---- the setting ([KH2025, Fig. 1]; the seeded data and initialization of docs/kh.md) --------------------
    const SquareNetSetting s = seeded_square_net_setting(m, d, n, static_cast<std::uint64_t>(in.integer("data_seed")),
                                                         static_cast<std::uint64_t>(in.integer("init_seed")),
                                                         in.number_string("delta"), in.number_string("step"), perm);
    rep.set_seed("data (kh/inputs, kh/teacher streams)", std::to_string(in.integer("data_seed")));
    rep.set_seed("initial direction (kh/theorem18_init stream)", std::to_string(in.integer("init_seed")));
    if (perm) rep.set_seed("sample order (kh/figure1_sample_order stream)", std::to_string(perm));
    rep.claim.proven_statement = "the exact-arithmetic GD of v^T (W x)^2 (m = " + std::to_string(m) + ", d = " +
                                 std::to_string(d) + ", n = " + std::to_string(n) + ", delta = " +
                                 in.number_string("delta") + ", step " + in.number_string("step") + ") for " +
                                 std::to_string(N) + " iterations: loss plateaus at L(0) and L(p*), one large neuron "
                                 "at i1 and i2, the loss at every iterate";
    rep.hypothesis("initialization delta w0 with |w0| = 1", "[KH2025, Sec. 4; docs/kh.md#the-seeded-setting]")
        .trivially_true("the direction is a Gaussian draw normalized in double")
        .within({"|w0|", direction_norm(s)}, cert::exact("1 - 1e-12", "0.999999999999"), cert::exact("1 + 1e-12", "1.000000000001"));

    // ---- the GD run: certified tube and the plain double run beside it ---------------------------------------
    const std::vector<long> extras = extra_snapshots(in);
    std::vector<long> plain_snaps{i1, i2, N};
    plain_snaps.insert(plain_snaps.end(), extras.begin(), extras.end());
    const PlainGdRun plain = run_plain_gd_nonrigorous(s, N, block, plain_snaps);
    nets::SquareNetGdOptions opt;
    opt.promote_norm = mid(in.interval_d("promote_norm"));
    if (in.has("frame_neurons")) opt.lohner_from_start = largest_neurons_nonrigorous(plain, in.integer("frame_neurons"));
    ctx.progress.begin("certified GD");
    const bool trap = in.has("trap");
    std::vector<long> cert_snaps{i1, i2};
    if (trap) cert_snaps.push_back(N);
    cert_snaps.insert(cert_snaps.end(), extras.begin(), extras.end());
    const CertifiedGdRun run = run_certified_gd(s, N, block, cert_snaps, opt);
    ctx.progress.finish();
    rep.step("GD tube to the last iterate", "[docs/kh.md#rigorous-gd-with-shared-matrix-coupling]")
        .result(run.completed ? ProofResult::proven(run.reason) : ProofResult::not_proven(run.reason));
    rep.note("balance drift check (C_j = |w_j|^2 - 2 v_j^2 against its enclosed per-step drift, a self-check): " +
             std::string(run.conserved_consistent ? "held at every block end" : "FAILED"));

    // ---- the first saddle p* (one active neuron; Krawczyk on the balanced slice) ------------------------------
    const IntervalD L0 = loss_at_origin(s.data);
    const SaddleFromIterate sf = saddle_from_plain_iterate(s, plain, i2);
    const OneNeuronSaddle& ps = sf.saddle;
    rep.step(SADDLE, "[docs/kh.md#first-saddle-and-plateau-values]").result({ps.status, ps.reason});

    // ---- conclusions, the plateau past the tube, tables and plots ----------------------------------------------
    const IntervalD Lp = ps.status == ProofStatus::proven ? ps.loss : IntervalD::bounds(0, 1e300);
    const Sparsity sp = conclusions(rep, in, run, ps, L0, Lp);
    if (trap) {
        const cert::Case tc = in.table("trap");
        const RestrictedHessian rh = restricted_hessian_positive(s.data, ps);
        rep.step(TRAP_HESSIAN, TRAP_CITE).result({rh.status, rh.reason});
        const PlateauTrap t = trap_at_last_iterate(s, run, N, ps, rh, mid(tc.interval_d("growth")),
                                                   tc.has("radius") ? mid(tc.interval_d("radius")) : 0.0);
        trap_checks(rep, t, tc.integer("steps"), Lp, in.interval_d("epsilon2"));
    }
    plateau_tables(rep, L0, ps, sf.active, sp.distance);
    neuron_norm_table(rep, plain, sp.tops, {i1, i2});
    loss_plots(rep, run, plain);
    draw_heat_maps(rep, run, plain, i1, "i1 = " + std::to_string(i1));
    draw_heat_maps(rep, run, plain, i2, "i2 = " + std::to_string(i2));
    if (!extras.empty()) extra_snapshot_table(rep, run, plain, extras);
    rep.note("run: " + run.reason + "; largest parameter width at the end " + format_g(run.max_width, 3) + ", " +
             std::to_string(run.lohner_neurons) + " neurons in the Lohner frame");
}

}  // namespace

int main(int argc, char** argv) {
    cert::VerifierSpec spec{
        .name = "kh/figure1_gd",
        .summary = "certifies the Figure-1 GD run of v^T (W x)^2: plateaus, sparsity at i1 and i2, loss at every step",
        .claim = {.paper = "KH2025", .locator = "Figure 1",
                  .paper_statement = "GD from a small initialization: the loss is piecewise constant (plateaus at L(0) "
                                     "and at the first saddle); at i1 (before the escape) and i2 (after reaching the "
                                     "saddle) only one row of W and one entry of v are non-zero",
                  .proven_statement = {}},
        .schema = schema(),
        .default_precision_bits = 53,
        .validate = validate,
        .run = run,
        .sweep = {},
    };
    return cert::verifier_main(argc, argv, spec);
}
