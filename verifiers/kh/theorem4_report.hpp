// verifiers/kh/theorem4_report.hpp -- how the results of the kh/theorem4_limit_path proof steps
// (lib/flowcert/proofs/kh/theorem4_steps.hpp, theorem4_limit_path.hpp) become checks, tables and plots: the Lemma 23
// cap, the stable set, the exhibited shift, the records of the delta sweep read back, the slopes and the exhibited C~.
// Presentation only: every enclosure a check compares comes from a proof step. Local to verifiers/kh.
#pragma once

#include <flowcert/cert.hpp>
#include <flowcert/proofs/kh/theorem4_steps.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "kh_report.hpp"
#include "sweep_records.hpp"
#include "theorem4_case.hpp"

namespace kh4 {

namespace pk = flowcert::proofs::kh;
using flowcert::format_g;

// The Lemma 23 cap (28)-(29) and N > 0 on it (Lemma 24, eq. (32)): steps of our closed-form criteria.
template <flowcert::Interval I>
void state_cap(flowcert::cert::Report& rep, const pk::Theorem4Cap<I>& c, const I& Delta, const std::string& gamma_s) {
    using flowcert::to_string;
    if (c.gamma_below_one)
        rep.step(names::CAP, "[KH2025, Lemma 23, (28)-(29); docs/kh.md#verifier-khtheorem4_limit_path]")
            .statement("gamma = " + gamma_s + "; with c = 1 - gamma >= 0 every unit w with w*^T w >= c "
                       "satisfies (28) and (29)")
            .le({"Delta", Delta}, {"(1-gamma)(2-gamma) Delta_max", c.cap_rhs});
    else
        rep.step(names::CAP, "[KH2025, Lemma 23]").holds(false, "need gamma < 1, got " + gamma_s);
    const bool spectrum = c.hessian.status == flowcert::ProofStatus::proven;
    if (spectrum && c.gamma_below_one)
        rep.step(names::CAPN, "[KH2025, Lemma 24, eq. (32); docs/kh.md#verifier-khtheorem4_limit_path]")
            .statement("lambda_min(Hess N) in " + to_string(c.hessian.lambda_min, 10))
            .positive({"(1-gamma)^2 N* + (1 - (1-gamma)^2) min(lambda_min(Hess N), 0)/2", c.n_lower});
    else
        rep.step(names::CAPN, "[KH2025, Lemma 24, eq. (32)]")
            .holds(false, spectrum ? "need gamma < 1" : "Hessian spectrum: " + c.hessian.reason);
}

// The certified NCF tube from w0 into the cap (a step), the hypothesis w0 in S(w*) it implies with the cap: from
// phi(t)/|phi(t)| in the cap (grad N is 1-homogeneous), Lemma 24 gives w*^T w(t)/|w(t)| >= 1 - gamma e^{-Delta t} -> 1.
template <flowcert::Interval I>
void state_stable_set(flowcert::cert::Report& rep, const pk::CosineCapEntry<I>& entry, const I& cgam) {
    using flowcert::to_string;
    flowcert::cert::TubePlot cosplot{.title = "NCF flow from w0: w*^T phi(t)/|phi(t)| (certified) vs the cap 1 - gamma",
                                     .x_label = "t", .y_label = "cosine to w*"};
    for (const auto& [tt, c] : entry.trace) cosplot.add_point("w*^T phi/|phi|", tt, c);
    cosplot.add_line("1 - gamma", {0.0, std::max(entry.t, 0.5)}, {flowcert::mid(cgam), flowcert::mid(cgam)});
    if (entry.t_in >= 0)
        rep.step(names::ENTER, "[KH2025, Def. 2, Lemmas 23-24]")
            .statement("the certified tube of u' = grad N(u) from w0 reaches the cap at t = " + format_g(entry.t_in))
            .lt({"1 - gamma", cgam}, {"w*^T phi(t)/|phi(t)| at t = " + format_g(entry.t_in), entry.cos_in});
    else
        rep.step(names::ENTER, "[KH2025, Def. 2, Lemmas 23-24]")
            .holds(false, (entry.fail.empty() ? "the NCF tube did not certainly enter the cap by t = " + format_g(entry.t) : entry.fail) +
                              "; last w*^T phi/|phi| in " + to_string(entry.cos_last, 8) + " vs 1 - gamma = " +
                              to_string(cgam, 8));
    rep.hypothesis(names::STABLE, "[KH2025, Def. 2, Lemmas 23-24]").implied_by({names::CAP, names::CAPN, names::ENTER});
    rep.add_plot(cosplot);
}

// The table of the exhibited shift constants (delta~ = delta, A2 = 1).
template <flowcert::Interval I> flowcert::cert::Table& shift_table(flowcert::cert::Report& rep, const pk::Theorem4Shift<I>& s) {
    using flowcert::to_string;
    flowcert::cert::Table& st = rep.table("exhibited constants of the Theorem 4 shift (delta~ = delta, A2 = 1)",
                                          {"constant", "enclosure", "why admissible"});
    st.add_row({"T1", to_string(s.T1, 12), "T1 > 0"});
    st.add_row({"b_delta (constant in delta)", to_string(s.b_delta, 12), "kappa_1 = kappa_2 = b_delta > 0"});
    st.add_row({"delta~", "delta", "in (A2 delta - A1 delta^3, A2 delta + A1 delta^3) with A2 = 1, any A1 > 0"});
    st.add_row({"s0 = T1 + ln(1/b_delta)/(2N*) = ln(1/(w*^T w0))/(2N*)", to_string(s.s0, 12),
                "leading NCF component of delta w0 along w* is c0 delta e^{2N* t}"});
    return st;
}

// ---- the sweep records (written by a sweep point, read back in index order) ------------------------------------
// `with_states`: also the enclosures of psi on the (subsampled, ~150) pieces (for the tube plot).
template <flowcert::Interval I>
nlohmann::json record_of(const pk::WindowDistance<I>& wd, double seconds, bool with_states) {
    using khsweep::json_of;
    nlohmann::json r = {{"ok", wd.ok}, {"reason", wd.reason}, {"tau_start", json_of(wd.tau_start)},
                        {"duration", json_of(wd.duration)}, {"steps_before", wd.steps_before},
                        {"steps_window", wd.steps_window}, {"sup_lower", json_of(wd.sup_lower)},
                        {"sup_upper", json_of(wd.sup_upper)}, {"argmax_t", json_of(wd.argmax_t)}, {"seconds", json_of(seconds)}};
    nlohmann::json pieces = nlohmann::json::array();
    if (wd.ok) {
        const std::size_t stride = std::max<std::size_t>(1, wd.pieces.size() / 150);
        for (std::size_t k = 0; k < wd.pieces.size(); k += stride) {
            const auto& pc = wd.pieces[k];
            pieces.push_back({{"t_lo", json_of(pc.t_lo)}, {"t_hi", json_of(pc.t_hi)},
                              {"distance", flowcert::cert::exact_json(pc.distance)},
                              {"x", with_states ? json_of(pc.x) : nlohmann::json::array()}});
        }
    }
    r["pieces"] = pieces;
    return r;
}
// A record read back: the window distance (its pieces with t_lo, t_hi, distance and, when recorded, x) and the seconds.
template <flowcert::Interval I> pk::WindowDistance<I> window_of(const nlohmann::json& r, double& seconds) {
    using khsweep::real;
    pk::WindowDistance<I> wd;
    wd.ok = r.at("ok").get<bool>();
    wd.reason = r.at("reason").get<std::string>();
    wd.tau_start = real(r.at("tau_start"));
    wd.duration = real(r.at("duration"));
    wd.steps_before = r.at("steps_before").get<long>();
    wd.steps_window = r.at("steps_window").get<long>();
    wd.sup_lower = real(r.at("sup_lower"));
    wd.sup_upper = real(r.at("sup_upper"));
    wd.argmax_t = real(r.at("argmax_t"));
    seconds = real(r.at("seconds"));
    for (const auto& pc : r.at("pieces")) {
        pk::WindowPiece<I> w;
        w.t_lo = real(pc.at("t_lo"));
        w.t_hi = real(pc.at("t_hi"));
        w.distance = khsweep::interval<I>(pc.at("distance"));
        w.x = khsweep::intervals<I>(pc.at("x"));
        wd.pieces.push_back(std::move(w));
    }
    return wd;
}

// The coordinates drawn in the tube plot: all for P <= 4, else u_k*, v_k* and the next block's first (diagonal nets).
inline bool drawn(int j, int P, int kstar) {
    return !(P > 4 && j != kstar % (P / 2) && j != kstar % (P / 2) + P / 2 && j != (kstar + 1) % (P / 2));
}

// The sweep table and the three plots of E(delta), of the distances per step and of the tubes vs p(t).
template <flowcert::Interval I>
class SweepPlots {
public:
    explicit SweepPlots(flowcert::cert::Report& rep)
        : sw_(rep.table("delta sweep: E(delta) = sup_{|t| <= T~} |psi(t + s_delta, delta w0) - p(t)|",
                        {"delta", "shift s_delta", "steps (to window / window)", "E(delta) enclosure", "argmax t (approx.)",
                         "wall s"})) {
        dp_.log_y = true;
    }
    // The row of one delta (E: its enclosure when the window distance was certified).
    void row(const std::string& ds, const I& shift, const pk::WindowDistance<I>& wd, const I& E, double seconds) {
        using flowcert::to_string;
        sw_.add_row({ds, to_string(shift, 10), std::to_string(wd.steps_before) + " / " + std::to_string(wd.steps_window),
                     wd.ok ? to_string(E, 8) : "not certified", format_g(wd.argmax_t), format_g(seconds, 3)});
    }
    // The points of a certified delta; the coordinates of psi only for the largest and smallest delta (`states`).
    void window(const std::string& ds, const I& delta, const I& E, const pk::WindowDistance<I>& wd, bool states,
                const flowcert::nets::HomogeneousArchitecture& arch, int kstar, long bits) {
        sp_.add_point("E(delta)", flowcert::mid(delta), E);
        const int P = arch.parameter_count();
        for (const auto& pc : wd.pieces) {
            const double t_mid = 0.5 * (pc.t_lo + pc.t_hi);
            dp_.add_point("delta = " + ds, t_mid,
                          flowcert::IntervalTraits<I>::bounds(std::max(flowcert::lower(pc.distance), 1e-300), flowcert::upper(pc.distance), bits));
            if (states)
                for (int j = 0; j < P; ++j)
                    if (drawn(j, P, kstar)) tp_.add_point(arch.parameter_name(j) + ", delta = " + ds, t_mid, pc.x[static_cast<std::size_t>(j)]);
        }
    }
    // p(t) on the window (201 points) for the drawn coordinates.
    void path_lines(const pk::LogisticLimitPath<I>& path, const I& Ttilde, const flowcert::nets::HomogeneousArchitecture& arch,
                    int kstar, long bits) {
        const int P = arch.parameter_count();
        for (int j = 0; j < P; ++j) {
            if (!drawn(j, P, kstar)) continue;
            std::vector<double> xs, vs;
            for (int k = 0; k <= 200; ++k) {
                xs.push_back(-flowcert::mid(Ttilde) + 2 * flowcert::mid(Ttilde) * k / 200);
                vs.push_back(flowcert::mid(path.at(flowcert::IntervalTraits<I>::exact(xs.back(), bits))[static_cast<std::size_t>(j)]));
            }
            tp_.add_line("p: " + arch.parameter_name(j), xs, vs);
        }
    }
    flowcert::cert::SweepPlot& sweep_plot() { return sp_; }
    void finish(flowcert::cert::Report& rep) {
        rep.add_plot(sp_);
        rep.add_plot(dp_);
        rep.add_plot(tp_);
    }

private:
    flowcert::cert::Table& sw_;
    flowcert::cert::SweepPlot sp_{.title = "E(delta) (certified error bars) on log-log axes", .x_label = "delta",
                                  .y_label = "sup |psi - p| on the window"};
    flowcert::cert::TubePlot dp_{.title = "|psi(t + s_delta, delta w0) - p(t)| (certified, per step) for each delta",
                                 .x_label = "t", .y_label = "distance"};
    flowcert::cert::TubePlot tp_{.title = "tubes of psi(t + s_delta, delta w0) (largest and smallest delta) vs p(t)",
                                 .x_label = "t", .y_label = "coordinate"};
};

// The table of the certified KKT point and the NCF quantities (more rows are added after the cap).
template <flowcert::Interval I>
flowcert::cert::Table& kkt_table(flowcert::cert::Report& rep, const flowcert::nets::HomogeneousArchitecture& arch,
                                 const flowcert::linalg::IVector<I>& u, const I& Nstar, const I& Dmax, const I& rate) {
    using flowcert::to_string;
    flowcert::cert::Table& kt = rep.table("KKT point and NCF quantities (certified enclosures)", {"quantity", "enclosure"});
    for (int j = 0; j < arch.parameter_count(); ++j) kt.add_row({"w*: " + arch.parameter_name(j), to_string(u(j), 17)});
    kt.add_row({"N(w*)", to_string(Nstar, 17)});
    kt.add_row({"Delta_max", to_string(Dmax, 17)});
    kt.add_row({"Delta_max/(2N*) (actual rate, spec 6.3)", to_string(rate, 12)});
    return kt;
}

// Certified log-log slopes of E between consecutive deltas: evidence beside the asymptotic rate (Theorem 4 holds
// "for all sufficiently small delta"; a finite slope below kappa refutes nothing), and their table. Returns them.
template <flowcert::Interval I>
std::vector<I> slopes_table(flowcert::cert::Report& rep, const std::vector<I>& E, const std::vector<I>& deltas,
                            const std::vector<bool>& have, const std::vector<std::string>& ds, const pk::Theorem4Rates<I>& rates) {
    using flowcert::to_string;
    flowcert::cert::Table& sl = rep.table("certified log-log slopes of E(delta)",
                                          {"delta_i+1", "delta_i", "slope enclosure", "kappa = Delta/(Delta+8N*)", "Delta_max/(2N*)"});
    std::vector<I> slopes;
    const auto slope = khsweep::consecutive_slopes(E, deltas, have);
    for (std::size_t i = 0; i + 1 < ds.size(); ++i) {
        if (!slope[i]) continue;  // E not certainly positive or not enclosed: no bounded slope
        slopes.push_back(*slope[i]);
        sl.add_row({ds[i + 1], ds[i], to_string(*slope[i], 8), to_string(rates.kappa, 8), to_string(rates.rate, 8)});
        rep.evidence("slope >= Delta/(Delta+8N*) on [" + ds[i + 1] + ", " + ds[i] + "]", "[KH2025, Thm 4, eq. (6)]")
            .le({"kappa = Delta/(Delta+8N*)", rates.kappa}, {"certified log-log slope", *slope[i]});
    }
    return slopes;
}

}  // namespace kh4
