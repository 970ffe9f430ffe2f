// verifiers/kh/figure1_report.hpp -- the presentation of kh/figure1_gd [KH2025, Fig. 1]: its case keys, the trap
// checks past the tube, the tables (plateau values, neuron norms, certified loss, the extra snapshots), the loss
// plot and the heat maps of |W|, |v| beside the plain double run. Local to verifiers/kh; no mathematics (every
// enclosure comes from proofs/kh/figure1_gd.hpp and square_net_trap.hpp; the plain run's numbers are doubles of
// the non-rigorous comparison run).
#pragma once

#include <flowcert/cert.hpp>
#include <flowcert/proofs/kh/figure1_gd.hpp>
#include <flowcert/proofs/kh/square_net_trap.hpp>

#include <algorithm>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "kh_report.hpp"

namespace khfigure1 {

namespace cert = flowcert::cert;
using flowcert::format_g;
using flowcert::IntervalD;
using namespace flowcert::proofs::kh;

inline const std::string SADDLE = "p* by Krawczyk (one active neuron, balance of the i2 iterate)";
inline const std::string TRAP_HESSIAN = "trap: restricted Hessian at p* positive definite on the balanced slice";
inline const std::string TRAP_CITE = "[docs/kh.md#plateau-trap]";

// The optional extra snapshot iterates (evidence: a table and heat maps, no check).
inline std::vector<long> extra_snapshots(const cert::Case& in) {
    std::vector<long> out;
    if (in.has("extra_snapshots"))
        for (const std::string& x : in.number_strings("extra_snapshots")) out.push_back(std::stol(x));
    return out;
}

// The plateau past the tube [docs/kh.md#plateau-trap]: the trap's premises as steps, the conclusion implied by them,
// and its table.
inline void trap_checks(cert::Report& rep, const PlateauTrap& t, long long steps_claimed, const IntervalD& Lp,
                        const IntervalD& eps2) {
    rep.step("trap: hand-off iterate within R_b of p*", TRAP_CITE).result(t.handoff);
    rep.step("trap: the other neurons stay below rho_max for K steps", TRAP_CITE).result(t.escape);
    rep.step("trap: descent lemma (h Lambda <= 2)", TRAP_CITE).result(t.descent);
    rep.step("trap: one step stays inside the outer ball", TRAP_CITE).result(t.step_inside);
    rep.step("trap: L1 above the level on the shell", TRAP_CITE).result(t.shell);
    rep.step("trap: K >= trap steps claimed", TRAP_CITE)
        .le(cert::exact("steps claimed", std::to_string(steps_claimed)), {"K", IntervalD::exact(static_cast<double>(t.steps))});
    rep.step("trap: loss band within epsilon2 of L(p*)", TRAP_CITE)
        .within({"L_k band past the tube", t.loss_band}, {"L(p*) - epsilon2", Lp - eps2}, {"L(p*) + epsilon2", Lp + eps2});
    rep.conclusion("plateau 2 lasts the trap steps past the tube", "[KH2025, Fig. 1(a)]")
        .implied_by({SADDLE, "GD tube to the last iterate", TRAP_HESSIAN, "trap: hand-off iterate within R_b of p*",
                     "trap: the other neurons stay below rho_max for K steps", "trap: descent lemma (h Lambda <= 2)",
                     "trap: one step stays inside the outer ball", "trap: L1 above the level on the shell",
                     "trap: K >= trap steps claimed", "trap: loss band within epsilon2 of L(p*)"});
    auto& tt = rep.table("plateau trap at the last iterate", {"quantity", "bound"});
    for (const auto& [k, x] : std::vector<std::pair<std::string, double>>{
             {"K (certified steps past the tube)", static_cast<double>(t.steps)}, {"R_b", t.outer_radius},
             {"R_s", t.inner_radius}, {"hand-off distance to p*", t.handoff_distance},
             {"lambda (restricted Hessian)", t.lambda}, {"T3 (third derivative)", t.T3},
             {"kappa (||M(r)|| over R)", t.kappa}, {"Lambda (||Hess L|| over R)", t.Lambda},
             {"step length sigma", t.sigma}, {"balance band", t.balance_band},
             {"perturbation of L1 by the other neurons", t.perturbation}, {"level - L(p*)", t.level_gap},
             {"min f on the shell", t.shell_min}})
        tt.add_row({k, format_g(x, 6)});
    tt.add_row({"L_k band past the tube", to_string(t.loss_band, 10)});
}

inline void plateau_tables(cert::Report& rep, const IntervalD& L0, const OneNeuronSaddle& ps, Eigen::Index act,
                           const IntervalD& dist) {
    const bool proven = ps.status == flowcert::ProofStatus::proven;
    auto& tv = rep.table("plateau values", {"quantity", "enclosure"});
    tv.add_row({"L(0)", to_string(L0, 15)});
    tv.add_row({"L(p*)", proven ? to_string(ps.loss, 12) : "not proven"});
    tv.add_row({"v* (active neuron " + std::to_string(act) + ")", proven ? to_string(ps.v, 12) : "-"});
    if (ps.M_eigenvalues_proven)
        tv.add_row({"eig M(r*) (escape rates of the zero neurons)",
                    "[" + format_g(ps.M_eigenvalues.front().lower()) + ", " + format_g(ps.M_eigenvalues.back().upper()) + "]"});
    tv.add_row({"distance to p* at i2", to_string(dist, 6)});
}

// The plain run's per-neuron norms at its snapshot q (doubles of the non-rigorous run) and their order, largest first.
inline Eigen::VectorXd plain_norms(const PlainGdRun& plain, std::size_t q) {
    return (plain.W[q].rowwise().squaredNorm() + plain.v[q].cwiseAbs2()).cwiseSqrt();
}
inline std::vector<int> order_by(std::size_t count, const std::function<double(int)>& key) {
    std::vector<int> order(count);
    for (std::size_t j = 0; j < count; ++j) order[j] = static_cast<int>(j);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key(a) > key(b); });
    return order;
}

inline void neuron_norm_table(cert::Report& rep, const PlainGdRun& plain, const std::vector<TopNeuron>& tops,
                              const std::vector<long>& iterates) {
    auto& tn = rep.table("neuron norms |(w_j, v_j)|", {"iterate", "largest (j*)", "norm", "largest of the others", "plain run: largest, others"});
    for (std::size_t k = 0; k < tops.size(); ++k) {
        const int pk = plain_index(plain, iterates[k]);
        if (pk < 0) continue;
        const Eigen::VectorXd pn = plain_norms(plain, static_cast<std::size_t>(pk));
        Eigen::Index pj = 0;
        pn.maxCoeff(&pj);
        double po = 0;
        for (Eigen::Index j = 0; j < pn.size(); ++j)
            if (j != pj) po = std::max(po, pn(j));
        tn.add_row({std::to_string(iterates[k]), std::to_string(tops[k].index), to_string(tops[k].norm, 8),
                    format_g(tops[k].others.upper(), 8), format_g(pn(pj), 8) + ", " + format_g(po, 8)});
    }
}

// The certified loss table (every 10th block) and the loss plot: certified band and the plain double run.
inline void loss_plots(cert::Report& rep, const CertifiedGdRun& run, const PlainGdRun& plain) {
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
}

inline cert::HeatMap heat_map(const std::string& title, const Eigen::MatrixXd& absW, const Eigen::VectorXd& absv) {
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

// Heat maps at iterate `it` (certified upper bounds beside the plain run), when both runs have a snapshot there.
inline void draw_heat_maps(cert::Report& rep, const CertifiedGdRun& run, const PlainGdRun& plain, long it, const std::string& at) {
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
}

// Evidence beside the claim: the per-neuron norms at the extra iterates (no check; e.g. the paper's own
// i1 = 134510, i2 = 139510, which fall on the seeded run's second plateau), with their heat maps.
inline void extra_snapshot_table(cert::Report& rep, const CertifiedGdRun& run, const PlainGdRun& plain,
                                 const std::vector<long>& extras) {
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
        const std::vector<int> order =
            order_by(sn->norm.size(), [&](int a) { return sn->norm[static_cast<std::size_t>(a)].upper(); });
        auto at = [&](std::size_t r) {
            return r < order.size() ? std::to_string(order[r]) + ": " + to_string(sn->norm[static_cast<std::size_t>(order[r])], 8)
                                    : std::string("-");
        };
        double rest = 0;
        for (std::size_t r = 2; r < order.size(); ++r) rest = std::max(rest, sn->norm[static_cast<std::size_t>(order[r])].upper());
        std::string pl = "-";
        if (pk >= 0) {
            const Eigen::VectorXd pn = plain_norms(plain, static_cast<std::size_t>(pk));
            const std::vector<int> po = order_by(static_cast<std::size_t>(pn.size()), [&](int a) { return pn(a); });
            pl.clear();
            for (std::size_t r = 0; r < 3 && r < po.size(); ++r)
                pl += (r ? ", " : "") + std::to_string(po[r]) + ": " + format_g(pn(po[r]), 8);
        }
        te.add_row({std::to_string(it), at(0), at(1), order.size() > 2 ? format_g(rest, 8) : "-", pl});
        draw_heat_maps(rep, run, plain, it, "iterate " + std::to_string(it));
    }
}

// The case keys of kh/figure1_gd.
inline cert::CaseSchema schema() {
    using cert::Constraint;
    using cert::KeyType;
    return {
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
    };
}

inline void validate(const cert::Case& c) {
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
}

}  // namespace khfigure1
