// verifiers/kh/theorem10_report.hpp -- the presentation of kh/theorem10_escape [KH2025, Thm 10, Lemma 25]: its case
// keys, its plan, the stable-set hypotheses read off the block blow-up brackets, the records of its delta sweep and
// the checks, tables and plots assembled from them, and the exhibited constant C~ with the log-log slopes. Local to
// verifiers/kh; no mathematics (every enclosure comes from proofs/kh/theorem10_escape.hpp).
#pragma once

#include <flowcert/cert.hpp>
#include <flowcert/proofs/kh/theorem10_escape.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "escape_sweep_report.hpp"
#include "flow_instance.hpp"
#include "kh_case_inputs.hpp"
#include "kh_report.hpp"

namespace khthm10 {

namespace cert = flowcert::cert;
using flowcert::format_g;
using flowcert::IntervalD;

inline const std::string CONCL = "Theorem 10 bound on the sweep: distance <= C~ delta^kappa for the exhibited shift";
inline const char* CITE = "[KH2025, Def. 2; docs/kh.md#verifier-khtheorem10_escape]";
inline std::string stable_name(int k) { return "stable set: block k* blows up before block " + std::to_string(k); }

// What the hypotheses established.
struct Setting {
    IntervalD Nstar, Delta, kappa, Nw0, Tw0;
    int kstar = -1;
    flowcert::linalg::IVector<IntervalD> wstar;
    std::vector<IntervalD> w0;  // the unit initial direction
    flowcert::ode::Options options;
};

inline void plan_checks(cert::Report& rep, int d, const std::vector<std::string>& deltas) {
    khreport::plan_positive_kkt(rep);
    rep.plan("w* is supported on one balanced block");
    rep.plan("NCF flow from w0 enclosed up to blow-up scale");
    for (int k = 0; k < d; ++k) rep.plan(stable_name(k));
    rep.plan("Lemma 25 window: 1/(L(L-2)N(w*)) < T(w0)");
    rep.plan("Lemma 25 window: T(w0) < 1/(L(L-2)N(w0))");
    khsweep::plan_per_delta(rep, deltas, {"escape bracket, delta = ", "Theorem 10 distance enclosed, delta = "});
    for (std::size_t i = 1; i < deltas.size(); ++i) rep.plan("distance <= C~ delta^kappa, delta = " + deltas[i]);
    rep.plan(CONCL);
}

inline void blowup_table(cert::Report& rep, const std::vector<flowcert::proofs::kh::BlockBlowup>& blocks) {
    cert::Table& nt = rep.table("NCF flow from w0: blow-up time brackets per block",
                                {"block", "r_k(t1)", "N_k(z_k(t1))", "sup N_k on the sphere", "T_k bracket"});
    for (std::size_t k = 0; k < blocks.size(); ++k) {
        const auto& bk = blocks[k];
        nt.add_row({std::to_string(k), to_string(bk.r, 10), bk.r_positive ? to_string(bk.N_dir, 10) : "-",
                    to_string(bk.sup_N, 10),
                    "[" + lower_string(bk.lo, 12) + ", " + (bk.has_hi ? upper_string(bk.hi, 12) : "inf") + "]"});
    }
}

// w0 in S(w*) [KH2025, Def. 2] iff block k* blows up strictly first (inside w*'s orthant): T_k* < T_k for every
// other block k, decided on the brackets: proven when the upper end of T_k*'s bracket is below the lower end of
// T_k's, disproven (w0 is outside S(w*)) only when the lower end of T_k*'s is at or above the upper end of T_k's.
inline bool state_stable_set(cert::Report& rep, const std::vector<flowcert::proofs::kh::BlockBlowup>& blocks, int kstar,
                             bool orthant) {
    bool stable = orthant;
    for (int k = 0; k < static_cast<int>(blocks.size()); ++k) {
        if (k == kstar) {
            rep.hypothesis(stable_name(k), CITE)
                .holds(orthant, orthant ? "block k* = " + std::to_string(kstar) +
                                              " itself: it blows up (N_k*(z) > 0) inside the orthant of w*'s block"
                                        : "block k* is not certainly blowing up inside the orthant of w*");
            continue;
        }
        const cert::Check& c =
            rep.hypothesis(stable_name(k), CITE)
                .statement("T_k* < T_" + std::to_string(k) + " (block k* = " + std::to_string(kstar) + " blows up first)")
                .lt({"T_k* (bracket)", blocks[static_cast<std::size_t>(kstar)].bracket()},
                    {"T_" + std::to_string(k) + " (bracket)", blocks[static_cast<std::size_t>(k)].bracket()});
        stable = stable && c.status == flowcert::ProofStatus::proven;
    }
    return stable;
}

inline cert::Table& enclosure_table(cert::Report& rep, const Setting& h, const flowcert::proofs::kh::Lemma25Window& win,
                                    const flowcert::proofs::kh::Ray<IntervalD>& ray, const IntervalD& tp_r) {
    cert::Table& et = rep.table("certified enclosures", {"quantity", "enclosure"});
    et.add_row({"N(w*)", to_string(h.Nstar, 15)});
    et.add_row({"Delta_max(w*)", to_string(h.Delta, 15)});
    et.add_row({"kappa = Delta/(Delta + 2L^2 N*) (Thm 10 exponent)", to_string(h.kappa, 10)});
    et.add_row({"N(w0)", to_string(h.Nw0, 15)});
    et.add_row({"1/(L(L-2)N(w*))", to_string(win.lower, 15)});
    et.add_row({"T(w0) (NCF blow-up)", to_string(h.Tw0, 15)});
    et.add_row({"1/(L(L-2)N(w0))", to_string(win.upper, 15)});
    et.add_row({"t_p(r): time at which ||p|| = r", to_string(tp_r, 15)});
    et.add_row({"rho* = ||lim p||", to_string(ray.rho_star(), 15)});
    return et;
}

// The record of one sweep point: its escape bracket, the stage it reached and, when done, the sup distance, the
// step count and (for the first and last delta) ||psi|| and rho_p on the grid times.
inline nlohmann::json window_record(const flowcert::proofs::kh::EscapeWindowPoint& p) {
    using Stage = flowcert::proofs::kh::EscapeWindowPoint::Stage;
    static const char* stages[] = {"escape", "window", "integration", "path", "done"};
    nlohmann::json r = khsweep::escape_record(p.escape);
    r["stage"] = stages[static_cast<int>(p.stage)];
    if (!p.escape.ok) return r;
    if (p.stage != Stage::window) r["integration_reason"] = p.integration_reason;
    if (p.stage != Stage::done) return r;
    r["sup_lo"] = khsweep::xd(p.sup.lo);
    r["sup_hi"] = khsweep::xd(p.sup.hi);
    r["steps"] = p.steps;
    r["psi_norms"] = r["rho"] = r["t"] = nlohmann::json::array();
    for (std::size_t j = 0; j < p.psi_norms.size(); ++j) {
        r["psi_norms"].push_back(cert::exact_json(p.psi_norms[j]));
        r["rho"].push_back(cert::exact_json(p.rho[j]));
    }
    for (double t : p.t) r["t"].push_back(khsweep::xd(t));
    return r;
}

// The sweep's table and plots, with what reading the records needs.
struct SweepView {
    std::vector<std::string> deltas;
    int L = 3;
    IntervalD Tw0, tp_r;
    cert::Table* table = nullptr;
    cert::SweepPlot distance_plot, escape_plot;
    cert::TubePlot tube_plot;
    void make(cert::Report& rep) {
        table = &rep.table("delta sweep", {"delta", "T_esc(delta)", "delta^(L-2) T_esc", "delta^(L-2) T_esc - T(w0)",
                                           "shift s_delta", "sup_|t|<=T~ ||psi(t + s) - p(t)||", "steps"});
        distance_plot = {.title = "Theorem 10 distance sup_|t|<=T~ ||psi(t + s_delta, delta w0) - p(t)|| (certified)",
                         .x_label = "delta", .y_label = "distance", .log_x = true, .log_y = true, .series = {},
                         .references = {}};
        escape_plot = {.title = "escape time: delta^(L-2) T_esc(delta) - T(w0)", .x_label = "delta",
                       .y_label = "|delta^(L-2) T_esc - T(w0)|", .log_x = true, .log_y = true, .series = {},
                       .references = {}};
        tube_plot = {.title = "||psi(t + s_delta, delta w0)|| and ||p(t)|| on the window", .x_label = "t",
                     .y_label = "norm", .log_x = false, .log_y = false, .bands = {}};
    }
};

// The records read back: per delta the escape bracket step, the evidence delta^(L-2) T_esc near T(w0), the step
// "Theorem 10 distance enclosed" with its table row and plot points. The certified sup distance per delta index.
inline std::vector<std::optional<IntervalD>> state_sweep(cert::Report& rep, const cert::Case& in, SweepView& v,
                                                         const std::vector<nlohmann::json>& records) {
    using khsweep::dx;
    const IntervalD conv_c = in.interval_d("convergence_constant");
    std::vector<std::optional<IntervalD>> dist(v.deltas.size());
    for (std::size_t i = 0; i < v.deltas.size(); ++i) {
        const std::string& dtxt = v.deltas[i];
        const nlohmann::json& r = records[i];
        const IntervalD delta = IntervalD::from_decimal(dtxt);
        const std::string dn = "Theorem 10 distance enclosed, delta = " + dtxt;
        const auto esc = khsweep::escape_step(rep, dtxt, r, "[KH2025, Thm 10 (escape); docs/kh.md#verifier-khtheorem10_escape]", 15);
        if (!esc) continue;
        const flowcert::proofs::kh::EscapeScaling sc = flowcert::proofs::kh::escape_scaling(delta, esc->lo, esc->hi, v.L, v.Tw0, conv_c);
        // Not a statement of the paper: delta^(L-2) T_esc -> T(w0) (the leading term of the shift) on the sweep.
        rep.evidence("delta^(L-2) T_esc(delta) near T(w0), delta = " + dtxt, "[KH2025, Thm 10 shift; Lemma 25]")
            .le({"|delta^(L-2) T_esc(delta) - T(w0)|", sc.distance}, {"convergence_constant * delta^(L-2)", sc.bound});
        v.escape_plot.add_point("|delta^(L-2) T_esc - T(w0)|", mid(delta), sc.distance);
        const double s = mid(IntervalD::bounds(esc->lo, esc->hi)) - mid(v.tp_r);
        const std::string stage = r.at("stage").get<std::string>();
        const std::string why = stage == "window"        ? "the window starts before t = 0 (delta too large)"
                                : stage == "integration" ? "integration: " + r.at("integration_reason").get<std::string>()
                                : stage == "path"        ? std::string("p(t) not enclosed on the grid")
                                                         : std::string();
        if (!why.empty()) {
            rep.step(dn, "[KH2025, Thm 10, eq. (8)]").holds(false, why);
            continue;
        }
        if (dtxt == v.deltas.front() || dtxt == v.deltas.back())
            for (std::size_t j = 0; j < r.at("t").size(); ++j) {
                const double t = dx(r.at("t").at(j));
                v.tube_plot.add_point("psi, delta = " + dtxt, t, cert::interval_d_from_json(r.at("psi_norms").at(j)));
                if (dtxt == v.deltas.front()) v.tube_plot.add_point("p(t)", t, cert::interval_d_from_json(r.at("rho").at(j)));
            }
        const double sup_lo = dx(r.at("sup_lo")), sup_hi = dx(r.at("sup_hi"));
        const IntervalD sup = IntervalD::bounds(sup_lo, sup_hi);
        const bool enclosed = std::isfinite(sup_hi) && sup_lo > 0;
        rep.step(dn, "[KH2025, Thm 10, eq. (8)]")
            .holds(enclosed, "sup_|t|<=T~ ||psi(t + s_delta, delta w0) - p(t)|| in " + to_string(sup, 8) + " (" +
                                 std::to_string(r.at("t").size()) + " exact times from <= s - T~ to >= s + T~, "
                                 "Lipschitz factor between them)");
        if (enclosed) dist[i] = sup;
        v.distance_plot.add_point("sup distance", mid(delta), sup);
        v.table->add_row({dtxt, khsweep::bracket_cell(*esc, 12), to_string(sc.scaled, 10), to_string(sc.diff, 6),
                          format_g(s, 12), to_string(sup, 6), std::to_string(r.at("steps").get<long>())});
    }
    return dist;
}

// The exhibited constant C~ = sup distance(delta_1) / delta_1^kappa (rounded up), then distance <= C~ delta^kappa
// for the other deltas: steps (C~ is our choice), and the theorem's bound on the sweep is implied by them. Then the
// certified log-log slopes between consecutive deltas: evidence beside the asymptotic rate, never a conclusion
// (a finite slope below kappa refutes nothing).
inline void conclude(cert::Report& rep, int d, const Setting& h, SweepView& v,
                     const std::vector<std::optional<IntervalD>>& dist, cert::Table& et) {
    using namespace flowcert::proofs::kh;
    const auto& deltas = v.deltas;
    std::vector<std::string> premises = khreport::positive_kkt_names();
    for (int k = 0; k < d; ++k) premises.push_back(stable_name(k));
    for (const auto& dt : deltas) premises.push_back("Theorem 10 distance enclosed, delta = " + dt);
    if (dist.front()) {
        const double Ct = exhibited_constant(*dist.front(), IntervalD::from_decimal(deltas.front()), h.kappa);
        et.add_row({"C~ = distance(delta_1) / delta_1^kappa (exhibited, rounded up)", format_g(Ct, 17)});
        for (std::size_t i = 1; i < deltas.size(); ++i) {
            const std::string nm = "distance <= C~ delta^kappa, delta = " + deltas[i];
            premises.push_back(nm);
            if (!dist[i]) {
                rep.step(nm, "[KH2025, Thm 10, eq. (8)]").holds(false, "the distance is not enclosed for this delta");
                continue;
            }
            rep.step(nm, "[KH2025, Thm 10, eq. (8)]")
                .le({"sup distance", *dist[i]}, {"C~ delta^kappa", power_law_bound(Ct, IntervalD::from_decimal(deltas[i]), h.kappa)});
        }
        v.distance_plot.references.push_back({"C~ delta^kappa (Thm 10, exhibited C~)", Ct, mid(h.kappa)});
        v.distance_plot.references.push_back(
            {"C delta (observed order)", mid(*dist.front()) / mid(IntervalD::from_decimal(deltas.front())), 1.0});
    }
    rep.conclusion(CONCL, "[KH2025, Thm 10, eq. (8)]")
        .statement("for the exhibited shift s_delta and constant C~: sup_|t|<=T~ ||psi(t + s_delta, delta w0) - p(t)|| "
                   "<= C~ delta^kappa for every delta of the sweep")
        .implied_by(premises);
    cert::Table& slt = rep.table("certified log-log slopes of the Theorem 10 distance", {"deltas", "slope enclosure", "kappa"});
    for (std::size_t i = 0; i + 1 < deltas.size(); ++i) {
        if (!dist[i] || !dist[i + 1]) continue;
        const auto s = flowcert::loglog_slope(*dist[i], *dist[i + 1], IntervalD::from_decimal(deltas[i]),
                                              IntervalD::from_decimal(deltas[i + 1]));
        if (!s) continue;  // a distance not certainly positive: no bounded slope
        rep.evidence("slope >= Delta/(Delta + 2L^2 N*), deltas " + deltas[i] + " -> " + deltas[i + 1], "[KH2025, Thm 10, eq. (8)]")
            .le({"kappa = Delta_max/(Delta_max + 2L^2 N*)", h.kappa}, {"certified slope", *s});
        slt.add_row({deltas[i] + " -> " + deltas[i + 1], to_string(*s, 6), to_string(h.kappa, 6)});
    }
}

inline cert::CaseSchema schema() {
    using cert::KeyType;
    return khcase::join({
        {{.name = "depth", .type = KeyType::integer, .description = "D = L >= 3"}},
        khcase::explicit_data_keys(),
        {
            {.name = "loss", .type = KeyType::string, .description = "square-loss normalization",
             .choices = {"paper", "half", "mean", "half_mean"}},
            {.name = "kkt_start", .type = KeyType::numbers, .description = "approximate w*"},
            {.name = "init_direction", .type = KeyType::numbers, .description = "w0 (normalized)"},
            {.name = "ncf_radius", .type = KeyType::number, .description = "integrate the NCF flow until ||phi|| >= this",
             .constraint = cert::Constraint::positive},
            {.name = "deltas", .type = KeyType::numbers, .description = "initialization scales, decreasing",
             .constraint = cert::Constraint::positive},
            {.name = "escape_radius", .type = KeyType::number, .description = "r of T_esc", .constraint = cert::Constraint::positive},
            {.name = "window", .type = KeyType::number, .description = "T~ of Theorem 10", .constraint = cert::Constraint::positive},
            {.name = "grid_points", .type = KeyType::integer, .description = "exact times in [-T~, T~]"},
            {.name = "convergence_constant", .type = KeyType::number,
             .description = "C in |delta^(L-2) T_esc - T(w0)| <= C delta^(L-2)", .constraint = cert::Constraint::positive},
        },
    });
}

inline void validate(const cert::Case& c) {
    if (c.integer("depth") < 3) c.fail("depth", "Theorem 10 needs L = depth >= 3");
    if (c.integer("grid_points") < 2) c.fail("grid_points", "need at least 2");
    // C~ is fixed by the first delta, so with one delta the bound C~ delta^kappa holds by construction.
    if (c.number_strings("deltas").size() < 2)
        c.fail("deltas", "need at least two deltas (C~ is exhibited from the first, the bound is checked on the others)");
}

}  // namespace khthm10
