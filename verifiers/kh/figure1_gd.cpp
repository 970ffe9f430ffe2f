// verifiers/kh/figure1_gd.cpp -- [KH2025] (Kumar & Haupt, JMLR 26, paper 25-1089), Figure 1: full-batch GD of
// H(x) = v^T (W x)^2 from the small initialization delta w0, certified step by step (the exact-arithmetic GD of
// the seeded setting): the two loss plateaus (L(0) and the first saddle's L(p*)), the sparsity of the weights
// at i1 and i2, the loss at every iterate, the distance to p* at i2, optionally the third plateau (L_k below the
// case's final_loss_max from final_loss_first to the last iterate), optionally a certified plateau length past the
// tube (the trap of docs/kh.md#plateau-trap), and optionally the per-neuron norms at extra snapshot iterates. The mathematics is in lib/flowcert/proofs/kh
// (figure1_gd, square_net_saddle, square_net_trap); see docs/kh.md#the-figure-1-run-at-its-size.
#include <flowcert/cert.hpp>
#include <flowcert/proofs/kh/figure1_gd.hpp>
#include <flowcert/proofs/kh/square_net_trap.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace cert = flowcert::cert;
using namespace flowcert;
using namespace flowcert::proofs::kh;

namespace {

std::string fmt(double x, int digits = 6) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", digits, x);
    return buf;
}

// The neuron of largest (upper) norm in a snapshot, and the largest upper norm of the others.
struct TopNeuron {
    int index = 0;
    IntervalD norm, others;  // others: [max lower, max upper] of the remaining norms
};
TopNeuron top_neuron(const NeuronNorms& s) {
    TopNeuron t;
    for (std::size_t j = 1; j < s.norm.size(); ++j)
        if (s.norm[j].upper() > s.norm[static_cast<std::size_t>(t.index)].upper()) t.index = static_cast<int>(j);
    t.norm = s.norm[static_cast<std::size_t>(t.index)];
    double lo = 0, hi = 0;
    for (std::size_t j = 0; j < s.norm.size(); ++j)
        if (static_cast<int>(j) != t.index) {
            lo = std::max(lo, s.norm[j].lower());
            hi = std::max(hi, s.norm[j].upper());
        }
    t.others = IntervalD::bounds(lo, hi);
    return t;
}

// The index of iterate `it` among the plain run's snapshots (-1 if it is not one).
int plain_index(const PlainGdRun& p, long it) {
    const auto f = std::find(p.snapshot_iterate.begin(), p.snapshot_iterate.end(), it);
    return f == p.snapshot_iterate.end() ? -1 : static_cast<int>(f - p.snapshot_iterate.begin());
}
const NeuronNorms* certified_snapshot(const CertifiedGdRun& r, long it) {
    const auto f = std::find_if(r.snapshots.begin(), r.snapshots.end(), [&](const NeuronNorms& sn) { return sn.iteration == it; });
    return f == r.snapshots.end() ? nullptr : &*f;
}
// The optional extra snapshot iterates (evidence: a table and heat maps, no check).
std::vector<long> extra_snapshots(const cert::Case& in) {
    std::vector<long> out;
    if (in.has("extra_snapshots"))
        for (const std::string& x : in.number_strings("extra_snapshots")) out.push_back(std::stol(x));
    return out;
}

cert::HeatMap heat_map(const std::string& title, const Eigen::MatrixXd& absW, const Eigen::VectorXd& absv) {
    cert::HeatMap hm{.title = title, .row_labels = {}, .col_labels = {}, .values = {}};
    for (Eigen::Index j = 0; j < absW.rows(); ++j) {
        std::vector<double> row;
        for (Eigen::Index k = 0; k < absW.cols(); ++k) row.push_back(absW(j, k));
        row.push_back(absv(j));
        hm.values.push_back(row);
        hm.row_labels.push_back("j=" + std::to_string(j));
    }
    for (Eigen::Index k = 0; k < absW.cols(); ++k) hm.col_labels.push_back("x" + std::to_string(k));
    hm.col_labels.push_back("v");
    return hm;
}

void run(cert::Context& ctx) {
    const cert::Case& in = ctx.input;
    auto& rep = ctx.report;
    const int d = static_cast<int>(in.integer("input_dim")), n = static_cast<int>(in.integer("samples"));
    const int m = static_cast<int>(in.integer("neurons"));
    const long N = static_cast<long>(in.integer("steps")), block = static_cast<long>(in.integer("loss_block"));
    const long i1 = static_cast<long>(in.integer("i1")), i2 = static_cast<long>(in.integer("i2"));
    const long p1_last = static_cast<long>(in.integer("plateau1_last"));
    const long p2_first = static_cast<long>(in.integer("plateau2_first")), p2_last = static_cast<long>(in.integer("plateau2_last"));
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
    IntervalD dir2(0);
    for (Eigen::Index j = 0; j < m; ++j) {
        dir2 = dir2 + sqr(IntervalD::exact(s.v0_direction(j)));
        for (Eigen::Index k = 0; k < d; ++k) dir2 = dir2 + sqr(IntervalD::exact(s.W0_direction(j, k)));
    }
    rep.hypothesis("initialization delta w0 with |w0| = 1", "[KH2025, Sec. 4; docs/kh.md#the-seeded-setting]")
        .trivially_true("the direction is a Gaussian draw normalized in double")
        .within({"|w0|", sqrt(dir2)}, cert::exact("1 - 1e-12", "0.999999999999"), cert::exact("1 + 1e-12", "1.000000000001"));

    // ---- the GD run: certified tube and the plain double run beside it ---------------------------------------
    const std::vector<long> extras = extra_snapshots(in);
    std::vector<long> plain_snaps{i1, i2, N};
    plain_snaps.insert(plain_snaps.end(), extras.begin(), extras.end());
    const PlainGdRun plain = run_plain_gd_nonrigorous(s, N, block, plain_snaps);
    nets::SquareNetGdOptions opt;
    opt.promote_norm = mid(in.interval_d("promote_norm"));
    // The frame_neurons largest neurons of the plain run's last iterate in the Lohner frame from step 0 (a choice
    // from the non-rigorous run; any choice is sound, only the widths differ).
    if (in.has("frame_neurons")) {
        const Eigen::VectorXd last = plain.W.back().rowwise().squaredNorm() + plain.v.back().cwiseAbs2();
        std::vector<int> order(static_cast<std::size_t>(m));
        for (int j = 0; j < m; ++j) order[static_cast<std::size_t>(j)] = j;
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return last(a) > last(b); });
        for (long k = 0; k < std::min<long>(in.integer("frame_neurons"), m); ++k)
            opt.lohner_from_start.push_back(order[static_cast<std::size_t>(k)]);
        std::sort(opt.lohner_from_start.begin(), opt.lohner_from_start.end());
    }
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
    const std::size_t i2s = static_cast<std::size_t>(std::max(0, plain_index(plain, i2)));
    Eigen::Index act = 0;
    (plain.W[i2s].rowwise().squaredNorm() + plain.v[i2s].cwiseAbs2()).maxCoeff(&act);
    const Eigen::VectorXd wg = plain.W[i2s].row(act).transpose();
    const double vg = plain.v[i2s](act), Cg = wg.squaredNorm() - 2 * vg * vg;
    const OneNeuronGuessNonrigorous g = one_neuron_saddle_guess_nonrigorous(s.data, wg, vg, Cg, 0);
    const OneNeuronSaddle ps = prove_one_neuron_saddle(s.data, g.w, g.v, IntervalD::exact(Cg));
    rep.step("p* by Krawczyk (one active neuron, balance of the i2 iterate)", "[docs/kh.md#first-saddle-and-plateau-values]")
        .result({ps.status, ps.reason});

    // ---- conclusions -----------------------------------------------------------------------------------------
    const IntervalD eps1 = in.interval_d("epsilon1"), eps2 = in.interval_d("epsilon2");
    rep.conclusion("plateau 1: |L_k - L(0)| <= epsilon1 for 0 <= k <= plateau1_last", "[KH2025, Fig. 1(a)]")
        .le({"sup_k |L_k - L(0)|", loss_distance(run, 0, p1_last, L0)}, {"epsilon1", eps1});
    const IntervalD Lp = ps.status == ProofStatus::proven ? ps.loss : IntervalD::bounds(0, 1e300);
    rep.conclusion("plateau 2: |L_k - L(p*)| <= epsilon2 for plateau2_first <= k <= plateau2_last", "[KH2025, Fig. 1(a)]")
        .le({"sup_k |L_k - L(p*)|", loss_distance(run, p2_first, p2_last, Lp)}, {"epsilon2", eps2});
    rep.conclusion("the loss never exceeds L(0) + epsilon1", "[KH2025, Fig. 1(a)]")
        .le({"sup_k L_k", loss_sup(run, 0, N)}, {"L(0) + epsilon1", L0 + eps1});
    if (in.has("final_loss_first")) {
        // The third plateau (L ~ 0 after the second escape): sup_k L_k over final_loss_first..steps from the block
        // hulls of the certified loss (upper end: max of the upper ends of the blocks that meet the range; +inf if
        // the tube stopped before the last iterate; lower end: max of their lower ends, so a claim below it is false).
        const long f = static_cast<long>(in.integer("final_loss_first"));
        rep.conclusion("plateau 3: L_k <= final_loss_max for final_loss_first <= k <= steps", "[KH2025, Fig. 1(a)]")
            .case_claim("final_loss_max (the case's claimed bound on the third plateau)")
            .le({"sup_{final_loss_first <= k <= steps} L_k", loss_sup(run, f, N)},
                cert::exact("final_loss_max", in.number_string("final_loss_max")));
    }
    const std::vector<IntervalD> a_mins = in.intervals<IntervalD>("a_min", 53), rho_maxs = in.intervals<IntervalD>("rho_max", 53);
    std::vector<TopNeuron> tops;
    for (const long it : {i1, i2}) {
        const std::string at = it == i1 ? "i1" : "i2";
        const IntervalD a_min = a_mins[it == i1 ? 0 : 1], rho_max = rho_maxs[it == i1 ? 0 : 1];
        const auto snap = std::find_if(run.snapshots.begin(), run.snapshots.end(),
                                       [&](const NeuronNorms& sn) { return sn.iteration == it; });
        const bool have = snap != run.snapshots.end();
        const TopNeuron t = have ? top_neuron(*snap) : TopNeuron{0, IntervalD(0), IntervalD::bounds(0, 1e300)};
        tops.push_back(t);
        rep.conclusion("sparsity at " + at + ": one neuron above A_min", "[KH2025, Fig. 1(b, c)]")
            .lt({"A_min", a_min}, {"|theta_j*(" + at + ")|", t.norm});
        rep.conclusion("sparsity at " + at + ": every other neuron below rho_max", "[KH2025, Fig. 1(b, c)]")
            .lt({"max_{j != j*} |theta_j(" + at + ")|", t.others}, {"rho_max", rho_max});
    }
    const auto snap2 = std::find_if(run.snapshots.begin(), run.snapshots.end(),
                                    [&](const NeuronNorms& sn) { return sn.iteration == i2; });
    const IntervalD dist = snap2 != run.snapshots.end() && ps.status == ProofStatus::proven
                               ? distance_to_saddle(*snap2, tops[1].index, ps)
                               : IntervalD::bounds(0, 1e300);
    rep.conclusion("distance to p* at i2", "[KH2025, Fig. 1; Cor. 11]")
        .le({"|theta(i2) - p*|", dist}, {"saddle_distance_max", in.interval_d("saddle_distance_max")});

    // ---- the plateau past the tube: the trap at the last iterate (docs/kh.md#plateau-trap) ---------------------
    if (trap) {
        const cert::Case tc = in.table("trap");
        const RestrictedHessian rh = restricted_hessian_positive(s.data, ps);
        rep.step("trap: restricted Hessian at p* positive definite on the balanced slice", "[docs/kh.md#plateau-trap]")
            .result({rh.status, rh.reason});
        PlateauTrapInput ti;
        if (!run.snapshots.empty() && run.snapshots.back().iteration == N) {
            ti.active = top_neuron(run.snapshots.back()).index;
            ti.W = run.snapshots.back().W;
            ti.v = run.snapshots.back().v;
        }
        ti.loss = run.loss.back().hull;  // contains L at the last iterate
        ti.h = s.h;
        ti.growth = mid(tc.interval_d("growth"));
        if (tc.has("radius")) ti.radius = mid(tc.interval_d("radius"));
        PlateauTrap t;
        if (ti.W.size())
            t = prove_plateau_trap(s.data, ps, rh, ti);
        else  // the tube stopped before the last iterate: there is no hand-off iterate to start the trap from
            for (ProofResult* r : {&t.handoff, &t.escape, &t.descent, &t.step_inside, &t.shell})
                *r = ProofResult::not_proven("no hand-off iterate: " + run.reason);
        const std::string cite = "[docs/kh.md#plateau-trap]";
        rep.step("trap: hand-off iterate within R_b of p*", cite).result(t.handoff);
        rep.step("trap: the other neurons stay below rho_max for K steps", cite).result(t.escape);
        rep.step("trap: descent lemma (h Lambda <= 2)", cite).result(t.descent);
        rep.step("trap: one step stays inside the outer ball", cite).result(t.step_inside);
        rep.step("trap: L1 above the level on the shell", cite).result(t.shell);
        rep.step("trap: K >= trap steps claimed", cite)
            .le(cert::exact("steps claimed", std::to_string(tc.integer("steps"))), {"K", IntervalD::exact(static_cast<double>(t.steps))});
        rep.step("trap: loss band within epsilon2 of L(p*)", cite)
            .within({"L_k band past the tube", t.loss_band}, {"L(p*) - epsilon2", Lp - eps2}, {"L(p*) + epsilon2", Lp + eps2});
        rep.conclusion("plateau 2 lasts the trap steps past the tube", "[KH2025, Fig. 1(a)]")
            .implied_by({"p* by Krawczyk (one active neuron, balance of the i2 iterate)", "GD tube to the last iterate",
                         "trap: restricted Hessian at p* positive definite on the balanced slice",
                         "trap: hand-off iterate within R_b of p*", "trap: the other neurons stay below rho_max for K steps",
                         "trap: descent lemma (h Lambda <= 2)", "trap: one step stays inside the outer ball",
                         "trap: L1 above the level on the shell", "trap: K >= trap steps claimed",
                         "trap: loss band within epsilon2 of L(p*)"});
        auto& tt = rep.table("plateau trap at the last iterate", {"quantity", "bound"});
        for (const auto& [k, x] : std::vector<std::pair<std::string, double>>{
                 {"K (certified steps past the tube)", static_cast<double>(t.steps)}, {"R_b", t.outer_radius},
                 {"R_s", t.inner_radius}, {"hand-off distance to p*", t.handoff_distance},
                 {"lambda (restricted Hessian)", t.lambda}, {"T3 (third derivative)", t.T3},
                 {"kappa (||M(r)|| over R)", t.kappa}, {"Lambda (||Hess L|| over R)", t.Lambda},
                 {"step length sigma", t.sigma}, {"balance band", t.balance_band},
                 {"perturbation of L1 by the other neurons", t.perturbation}, {"level - L(p*)", t.level_gap},
                 {"min f on the shell", t.shell_min}})
            tt.add_row({k, fmt(x, 6)});
        tt.add_row({"L_k band past the tube", to_string(t.loss_band, 10)});
    }

    // ---- tables and plots --------------------------------------------------------------------------------------
    auto& tv = rep.table("plateau values", {"quantity", "enclosure"});
    tv.add_row({"L(0)", to_string(L0, 15)});
    tv.add_row({"L(p*)", ps.status == ProofStatus::proven ? to_string(ps.loss, 12) : "not proven"});
    tv.add_row({"v* (active neuron " + std::to_string(act) + ")", ps.status == ProofStatus::proven ? to_string(ps.v, 12) : "-"});
    if (ps.M_eigenvalues_proven)
        tv.add_row({"eig M(r*) (escape rates of the zero neurons)",
                    "[" + fmt(ps.M_eigenvalues.front().lower()) + ", " + fmt(ps.M_eigenvalues.back().upper()) + "]"});
    tv.add_row({"distance to p* at i2", to_string(dist, 6)});
    auto& tn = rep.table("neuron norms |(w_j, v_j)|", {"iterate", "largest (j*)", "norm", "largest of the others", "plain run: largest, others"});
    const long top_it[2] = {i1, i2};
    for (std::size_t k = 0; k < tops.size(); ++k) {
        const int pk = plain_index(plain, top_it[k]);
        if (pk < 0) continue;
        const std::size_t q = static_cast<std::size_t>(pk);
        const Eigen::VectorXd pn = (plain.W[q].rowwise().squaredNorm() + plain.v[q].cwiseAbs2()).cwiseSqrt();
        Eigen::Index pj = 0;
        pn.maxCoeff(&pj);
        double po = 0;
        for (Eigen::Index j = 0; j < pn.size(); ++j)
            if (j != pj) po = std::max(po, pn(j));
        tn.add_row({std::to_string(top_it[k]), std::to_string(tops[k].index), to_string(tops[k].norm, 8),
                    fmt(tops[k].others.upper(), 8), fmt(pn(pj), 8) + ", " + fmt(po, 8)});
    }
    auto& tl = rep.table("certified loss (every 10th block)", {"iterates", "L_k in"});
    for (std::size_t b = 0; b < run.loss.size(); b += 10)
        tl.add_row({std::to_string(run.loss[b].first) + ".." + std::to_string(run.loss[b].last), to_string(run.loss[b].hull, 12)});

    cert::TubePlot lp{.title = "training loss (log scale): certified band and the plain double run",
                      .x_label = "iteration", .y_label = "L", .log_x = false, .log_y = true, .bands = {}};
    for (const LossBlock& b : run.loss) {
        lp.add_point("certified L_k", static_cast<double>(b.first), b.hull);
        lp.add_point("certified L_k", static_cast<double>(b.last), b.hull);
    }
    lp.add_line("plain double GD", std::vector<double>(plain.iterate.begin(), plain.iterate.end()), plain.loss);
    rep.add_plot(lp);
    // Heat maps at i1 and i2, then at the extra snapshot iterates (certified upper bounds beside the plain run).
    auto draw = [&](long it, const std::string& at) {
        const NeuronNorms* sn = certified_snapshot(run, it);
        const int pk = plain_index(plain, it);
        if (!sn || pk < 0) return;
        Eigen::MatrixXd aW(sn->W.rows(), sn->W.cols());
        Eigen::VectorXd av(sn->v.size());
        for (Eigen::Index j = 0; j < aW.rows(); ++j) {
            for (Eigen::Index c = 0; c < aW.cols(); ++c) aW(j, c) = mag(sn->W(j, c));
            av(j) = mag(sn->v(j));
        }
        const std::size_t q = static_cast<std::size_t>(pk);
        rep.add_plot(heat_map("certified |W| | |v| at " + at + " (upper bounds; rows: neurons, last column |v_j|)", aW, av));
        rep.add_plot(heat_map("plain double run |W| | |v| at " + at, plain.W[q].cwiseAbs(), plain.v[q].cwiseAbs()));
    };
    draw(i1, "i1 = " + std::to_string(i1));
    draw(i2, "i2 = " + std::to_string(i2));
    if (!extras.empty()) {
        // Evidence beside the claim: the per-neuron norms at the extra iterates (no check; e.g. the paper's own
        // i1 = 134510, i2 = 139510, which fall on the seeded run's second plateau).
        auto& te = rep.table("neuron norms at the extra snapshots (evidence)",
                             {"iterate", "largest (j: certified norm)", "second largest", "largest of the others (upper)",
                              "plain run: the three largest"});
        for (const long it : extras) {
            const NeuronNorms* sn = certified_snapshot(run, it);
            const int pk = plain_index(plain, it);
            if (!sn) {
                te.add_row({std::to_string(it), "not reached: " + run.reason, "-", "-", "-"});
                continue;
            }
            std::vector<int> order(sn->norm.size());
            for (std::size_t j = 0; j < order.size(); ++j) order[j] = static_cast<int>(j);
            std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
                return sn->norm[static_cast<std::size_t>(a)].upper() > sn->norm[static_cast<std::size_t>(b)].upper();
            });
            auto at = [&](std::size_t r) {
                return r < order.size() ? std::to_string(order[r]) + ": " + to_string(sn->norm[static_cast<std::size_t>(order[r])], 8)
                                        : std::string("-");
            };
            double rest = 0;
            for (std::size_t r = 2; r < order.size(); ++r) rest = std::max(rest, sn->norm[static_cast<std::size_t>(order[r])].upper());
            std::string pl = "-";
            if (pk >= 0) {
                const std::size_t q = static_cast<std::size_t>(pk);
                const Eigen::VectorXd pn = (plain.W[q].rowwise().squaredNorm() + plain.v[q].cwiseAbs2()).cwiseSqrt();
                std::vector<int> po(static_cast<std::size_t>(pn.size()));
                for (std::size_t j = 0; j < po.size(); ++j) po[j] = static_cast<int>(j);
                std::stable_sort(po.begin(), po.end(), [&](int a, int b) { return pn(a) > pn(b); });
                pl.clear();
                for (std::size_t r = 0; r < 3 && r < po.size(); ++r)
                    pl += (r ? ", " : "") + std::to_string(po[r]) + ": " + fmt(pn(po[r]), 8);
            }
            te.add_row({std::to_string(it), at(0), at(1), order.size() > 2 ? fmt(rest, 8) : "-", pl});
            draw(it, "iterate " + std::to_string(it));
        }
    }
    rep.note("run: " + run.reason + "; largest parameter width at the end " + fmt(run.max_width, 3) + ", " +
             std::to_string(run.lohner_neurons) + " neurons in the Lohner frame");
}

}  // namespace

int main(int argc, char** argv) {
    using cert::KeyType;
    using cert::Constraint;
    cert::VerifierSpec spec{
        .name = "kh/figure1_gd",
        .summary = "certifies the Figure-1 GD run of v^T (W x)^2: plateaus, sparsity at i1 and i2, loss at every step",
        .claim = {.paper = "KH2025", .locator = "Figure 1",
                  .paper_statement = "GD from a small initialization: the loss is piecewise constant (plateaus at L(0) "
                                     "and at the first saddle); at i1 (before the escape) and i2 (after reaching the "
                                     "saddle) only one row of W and one entry of v are non-zero",
                  .proven_statement = {}},
        .schema = {
            {.name = "input_dim", .type = KeyType::integer, .description = "d", .constraint = Constraint::positive},
            {.name = "samples", .type = KeyType::integer, .description = "n (inputs on the unit sphere)", .constraint = Constraint::positive},
            {.name = "neurons", .type = KeyType::integer, .description = "m (rows of W)", .constraint = Constraint::positive},
            {.name = "data_seed", .type = KeyType::integer, .description = "seed of the inputs and the 2-neuron square teacher"},
            {.name = "init_seed", .type = KeyType::integer, .description = "seed of the unit initial direction"},
            {.name = "sample_order_seed", .type = KeyType::integer, .description = "nonzero: the samples in a seeded order", .required = false},
            {.name = "delta", .type = KeyType::number, .description = "initialization scale", .constraint = Constraint::positive},
            {.name = "step", .type = KeyType::number, .description = "GD step size (mean loss)", .constraint = Constraint::positive},
            {.name = "steps", .type = KeyType::integer, .description = "GD iterations certified", .constraint = Constraint::positive},
            {.name = "loss_block", .type = KeyType::integer, .description = "iterates per loss enclosure block", .constraint = Constraint::positive},
            {.name = "promote_norm", .type = KeyType::number, .description = "box -> Lohner frame above this neuron norm", .constraint = Constraint::positive},
            {.name = "frame_neurons", .type = KeyType::integer, .description = "this many neurons (the largest at the plain run's last iterate) in the Lohner frame from step 0", .required = false},
            {.name = "i1", .type = KeyType::integer, .description = "iterate just before the escape"},
            {.name = "i2", .type = KeyType::integer, .description = "iterate just after reaching the first saddle"},
            {.name = "plateau1_last", .type = KeyType::integer, .description = "last iterate of the claimed first plateau"},
            {.name = "plateau2_first", .type = KeyType::integer, .description = "first iterate of the claimed second plateau"},
            {.name = "plateau2_last", .type = KeyType::integer, .description = "last iterate of the claimed second plateau"},
            {.name = "epsilon1", .type = KeyType::number, .description = "claimed sup |L_k - L(0)| on plateau 1", .constraint = Constraint::positive},
            {.name = "epsilon2", .type = KeyType::number, .description = "claimed sup |L_k - L(p*)| on plateau 2", .constraint = Constraint::positive},
            {.name = "a_min", .type = KeyType::numbers, .description = "[at i1, at i2]: the large neuron exceeds this norm", .constraint = Constraint::positive},
            {.name = "rho_max", .type = KeyType::numbers, .description = "[at i1, at i2]: every other neuron stays below this norm", .constraint = Constraint::positive},
            {.name = "saddle_distance_max", .type = KeyType::number, .description = "claimed |theta(i2) - p*|", .constraint = Constraint::positive},
            {.name = "final_loss_first", .type = KeyType::integer, .description = "first iterate of the claimed third plateau (with final_loss_max)", .required = false},
            {.name = "final_loss_max", .type = KeyType::number, .description = "claimed sup L_k over final_loss_first..steps (the third plateau, L ~ 0)", .required = false, .constraint = Constraint::positive},
            {.name = "extra_snapshots", .type = KeyType::numbers, .description = "further iterates with a table and heat maps of the per-neuron norms (evidence)", .required = false},
            {.name = "trap", .type = KeyType::table, .description = "the plateau trap at the last iterate (optional)", .required = false,
             .fields = {
                 {.name = "steps", .type = KeyType::integer, .description = "claimed plateau steps past the tube", .constraint = Constraint::positive},
                 {.name = "growth", .type = KeyType::number, .description = "rho_max_j = growth * rho_j at the hand-off (> 1)", .constraint = Constraint::positive},
                 {.name = "radius", .type = KeyType::number, .description = "R_b (default 2 lambda / T3)", .required = false, .constraint = Constraint::positive},
             }},
        },
        .default_precision_bits = 53,
        .validate = [](const cert::Case& c) {
            const long long N = c.integer("steps");
            for (const char* k : {"i1", "i2", "plateau1_last", "plateau2_first", "plateau2_last"})
                if (c.integer(k) < 0 || c.integer(k) > N) c.fail(k, "must lie in [0, steps]");
            if (c.integer("i1") >= c.integer("i2")) c.fail("i2", "must be larger than i1");
            if (c.integer("plateau2_first") > c.integer("plateau2_last")) c.fail("plateau2_last", "must be >= plateau2_first");
            for (const char* k : {"a_min", "rho_max"})
                if (c.number_strings(k).size() != 2) c.fail(k, "must have two entries: [at i1, at i2]");
            if (c.has("trap") && !(c.table("trap").interval_d("growth").lower() > 1)) c.fail("trap", "growth must exceed 1");
            if (c.has("final_loss_first") != c.has("final_loss_max"))
                c.fail(c.has("final_loss_first") ? "final_loss_first" : "final_loss_max",
                       "final_loss_first and final_loss_max go together");
            if (c.has("final_loss_first") && (c.integer("final_loss_first") < 0 || c.integer("final_loss_first") > N))
                c.fail("final_loss_first", "must lie in [0, steps]");
            if (c.has("extra_snapshots"))
                for (const std::string& x : c.number_strings("extra_snapshots")) {
                    const bool digits = !x.empty() && x.size() <= 9 && std::all_of(x.begin(), x.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
                    if (!digits || std::stoll(x) > N) c.fail("extra_snapshots", "every entry must be an integer iterate in [0, steps]");
                }
        },
        .run = run,
        .sweep = {},
    };
    return cert::verifier_main(argc, argv, spec);
}
