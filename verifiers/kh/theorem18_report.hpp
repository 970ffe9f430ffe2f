// verifiers/kh/theorem18_report.hpp -- how the results of the kh/theorem18_sparsity proof steps
// (lib/flowcert/proofs/kh/theorem18_steps.hpp) become checks, tables and plots: the zero set, zero preservation, the
// exhibited times, the stable set, the invariance tubes, the records of the delta sweep read back, the sweep tables,
// the heat maps. Presentation only: every enclosure a check compares comes from a proof step. Local to verifiers/kh.
#pragma once

#include <flowcert/cert.hpp>
#include <flowcert/linalg.hpp>
#include <flowcert/proofs/kh/ncf_kkt.hpp>
#include <flowcert/proofs/kh/theorem18_steps.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kh_report.hpp"
#include "sweep_records.hpp"
#include "theorem18_case.hpp"

namespace kh18 {

namespace pk = flowcert::proofs::kh;
using flowcert::format_g;

// What the run has established by the sweep: N̄, the Delta used, the exponents, the flows and the exhibited times.
struct Frame {
    explicit Frame(pk::Theorem18Flows f) : flows(std::move(f)) {}
    pk::Theorem18Flows flows;
    IntervalD Nbar, Delta;
    std::string Delta_s;
    pk::Theorem18Exponents exps;
    IntervalD T1, A2, Tb, Ttilde;
    int L = 2;
    // The times T^1, T^2 of Theorem 18 at delta from the exhibited constants (theorem18_sparsity.hpp).
    std::pair<IntervalD, IntervalD> times(const IntervalD& delta) const {
        return pk::theorem18_times(L, T1, A2, Tb, Delta, Nbar, exps.kappa, delta);
    }
};

// The notes on w_z and the hypothesis "w_z is Theorem 18's w_z"; false (after recording why) when w_z is empty.
inline bool state_zero_set(flowcert::cert::Report& rep, const flowcert::cert::Case& in,
                           const flowcert::nets::HomogeneousArchitecture& arch, const std::vector<int>& z,
                           const std::vector<int>& kkt_zeros) {
    using flowcert::ProofResult;
    const auto P = std::to_string(arch.parameter_count());
    if (in.has("claimed_zero_set"))
        rep.note("w_z is the case's claimed_zero_set (" + std::to_string(z.size()) + " parameters), not the KKT zero set");
    std::string list;
    for (std::size_t k = 0; k < z.size() && k < 12; ++k) list += (k ? ", " : "") + arch.parameter_name(z[k]);
    if (z.size() > 12) list += ", ...";
    rep.note("w_z = {" + list + "} (" + std::to_string(z.size()) + " of " + P + " parameters)");
    // Theorem 18 is about the zero rows/columns of W̄; a claimed set other than that is outside it.
    rep.hypothesis(names::WZ, "[KH2025, Thm 18]")
        .result(z == kkt_zeros ? ProofResult::proven("w_z is the certified zero set of W̄")
                               : ProofResult::disproven("the case's claimed_zero_set differs from the certified zero "
                                                        "set of W̄ (" + std::to_string(kkt_zeros.size()) +
                                                        " parameters): Theorem 18 says nothing about it"));
    if (!z.empty()) return true;
    rep.hypothesis(names::UNION, "[KH2025, Lemma 16]").result(ProofResult::not_proven("w_z is empty: nothing to preserve"));
    return false;
}

// Lemma 16's hypothesis (decided combinatorially: a proof either way) and our structural proofs (steps).
inline void state_zero_preservation(flowcert::cert::Report& rep, const flowcert::nets::HomogeneousArchitecture& arch, bool ff,
                                    const pk::ZeroPreservation& zp, std::size_t loss_nodes) {
    using flowcert::ProofResult;
    rep.hypothesis(names::UNION, ff ? "[KH2025, Lemma 16]" : "[KH2025, Lemma 16; docs/kh.md (coordinate blocks)]")
        .result(zp.is_union ? ProofResult::proven(std::to_string(zp.units_used.size()) + " unit(s) " +
                                                  std::string(ff ? "W_1[j,:] U v[j]" : "{u^(f)_k}_f"))
                            : ProofResult::disproven("w_z is not a union of units W_1[j,:] U v[j] (or {u^(f)_k}_f): Lemma 16 "
                                                     "does not apply"));
    auto failing = [&](const flowcert::taylor::VanishingResult& v) {
        std::string s;
        for (std::size_t k = 0; k < v.not_proven.size() && k < 6; ++k) s += (k ? ", " : "") + arch.parameter_name(v.not_proven[k]);
        return v.proven ? v.reason + " (" + std::to_string(loss_nodes) + " DAG nodes)" : v.reason + ": " + s;
    };
    rep.step(names::FIELD_LOSS, "[KH2025, Def. 15, Lemma 16]")
        .statement("w' = -grad L(w) leaves {w_z = 0} invariant forward and backward in time")
        .holds(zp.loss.proven, failing(zp.loss));
    rep.step(names::FIELD_NCF, "[KH2025, Def. 15; p_{w_z} = 0 in Thm 18]").holds(zp.ncf.proven, failing(zp.ncf));
}

// The exhibited T1, A2, T (non-rigorous choice or the case's overrides, then exact decimals), their admissibility
// in the sense of Theorems 4/10 (steps, with a sweep) and the table of constants; false when none could be chosen.
inline bool exhibit_times(flowcert::cert::Report& rep, const flowcert::cert::Case& in, const Instance& s, Frame& f,
                          const flowcert::nets::Ncf<double>& ncf_d, const Eigen::VectorXd& Wbar,
                          const pk::TangentSpectrum<IntervalD>& ts) {
    using flowcert::to_string;
    const double gamma = in.has("align_gamma") ? flowcert::mid(in.interval_d("align_gamma")) : 1e-2;
    const pk::ExhibitedTimes et = pk::exhibited_times_nonrigorous(ncf_d, s.W0, Wbar, flowcert::mid(f.Nbar), s.L, gamma);
    const std::string T1s = in.has("T1") ? in.number_string("T1") : et.T1, A2s = in.has("A2") ? in.number_string("A2") : et.A2,
                      Ts = in.has("T_blowup") ? in.number_string("T_blowup") : et.T;
    if (!et.ok && !(in.has("T1") && in.has("A2") && (s.L == 2 || in.has("T_blowup")))) {
        rep.step(names::T1, "[KH2025, Thm 18 (T1 of Thm 4/10)]").holds(false, et.reason);
        return false;
    }
    f.L = s.L;
    f.T1 = IntervalD::from_decimal(T1s);
    f.A2 = IntervalD::from_decimal(A2s);
    f.Tb = IntervalD::from_decimal(Ts);
    // T1 > 0, delta~ = A2 delta with A2 > 0, T >= 1/(L(L-2) N̄) so that b_delta^{L-2} = 1/(L(L-2) N̄ T) lies in
    // [1/(T L(L-2) N̄), 1]: steps.
    if (!s.deltas.empty()) {
        rep.step(names::T1, "[KH2025, Thm 18 (T1 of Thm 4/10)]").positive({"T1", f.T1});
        rep.step(names::A2, "[KH2025, Thm 18 (delta~ of Thm 4/10)]").positive({"A2", f.A2});
        if (s.L > 2)
            rep.step(names::TB, "[KH2025, Thm 10; Lemma 25]")
                .le({"1/(L(L-2) N̄)", pk::theorem18_least_blowup_time(s.L, f.Nbar)}, {"T", f.Tb});
    }
    f.Ttilde = in.interval<IntervalD>("T_tilde", 53);
    auto& ct = rep.table("exhibited constants (non-rigorous choice; exact once chosen)", {"constant", "value", "role"});
    ct.add_row({"T1", T1s, "time for the NCF flow from W0 to reach cos >= 1 - " + format_g(gamma) + " (Lemma 8/32)"});
    ct.add_row({"A2", A2s, "delta~ = A2 delta (A1 = 0), A2 = ||phi(T1, W0)||"});
    if (s.L > 2) {
        ct.add_row({"T", Ts, "blow-up time of the NCF flow from phi(T1, W0)/A2 (Lemma 25)"});
        ct.add_row({"b_delta^{L-2}", to_string(pk::theorem18_b_delta_power(s.L, f.Nbar, f.Tb), 8),
                    "1/(L(L-2) N̄ T): lower end of Thm 10's range"});
    } else {
        ct.add_row({"b_delta", "1", "Thm 4"});
    }
    ct.add_row({"Delta", f.Delta_s, "used in kappa and T^1"});
    ct.add_row({"T~", in.number_string("T_tilde"), "half-width of the post-escape window"});
    ct.add_row({"kappa = Delta/(Delta + 2L^2 N̄)", to_string(f.exps.kappa, 10), "eqs. (12)/(14) and the norm in (11)/(13)"});
    ct.add_row({std::string("ratio exponent ") + (s.L == 2 ? "2 kappa" : "L kappa"), to_string(f.exps.kappa_ratio, 10), "eqs. (11)/(13)"});
    ct.add_row({"N̄ = N(W̄)", to_string(f.Nbar, 17), "certified"});
    ct.add_row({"Delta_max", to_string(ts.delta_max, 17), "certified"});
    return true;
}

// W0 in S(W̄): the cap and the tube into it (steps), the hypothesis they imply, the plot of the cosine.
inline void state_stable_set(flowcert::cert::Report& rep, const pk::Theorem18StableSet& st) {
    rep.step(names::CAP, "[KH2025, Lemma 23, eqs. (28)-(29); docs/kh.md#lemma-23-on-an-explicit-cap]").result({st.cap.status, st.cap.reason});
    rep.step(names::ENTER, "[KH2025, Def. 2, Lemmas 24-25; docs/kh.md#lemma-23-on-an-explicit-cap]").result({st.entry.status, st.entry.reason});
    rep.hypothesis(names::STABLE, "[KH2025, Def. 2, Thm 18; Lemmas 23-25]").implied_by({names::CAP, names::ENTER});
    flowcert::cert::TubePlot cp{.title = "NCF flow from W0 (renormalized chunks): W̄^T u/|u| (certified) vs the cap 1 - gamma",
                                .x_label = "flow time", .y_label = "cosine to W̄", .log_x = false, .log_y = false, .bands = {}};
    for (const auto& [t, c] : st.entry.trace) cp.add_point("W̄^T u/|u|", t, c);
    rep.add_plot(cp);
}

// One invariance tube as Lemma 16's conclusion on that flow: ||psi_z|| <= zero_tube_tolerance at the output sets.
// The Lohner sets mix coordinates through their QR basis, so the rounding errors of the support leak into w_z at the
// level of ~1e-15 |w|; a true ||psi_z(t)|| above the tolerance would disprove zero preservation of w_z outright.
inline void state_zero_tube(flowcert::cert::Report& rep, const std::string& check, const std::string& what,
                            const std::string& delta_s, const std::string& tol_s, const pk::ZeroTube& t) {
    using flowcert::to_string;
    if (!t.completed) {
        rep.conclusion(check, "[KH2025, Def. 15, Lemma 16]").holds(false, t.failure);
        return;
    }
    const pk::TubeZeroCheck& tz = t.check;
    const std::string where = what + ", delta = " + delta_s + ", t in [0, " + format_g(flowcert::upper(t.time), 8) + "] (" +
                              std::to_string(tz.pieces) + " steps); the " + std::to_string(tz.outputs) +
                              " sets at t = k t_end/32 give sup ||psi_z|| in " + to_string(tz.sup_outputs, 6) +
                              "; the per-step a priori tube pieces give " + to_string(tz.sup_pieces, 6) +
                              " (inflated candidate, not exact by construction)" +
                              (tz.outputs_exact ? "" : "; first nonzero set: " + tz.first_nonzero_output);
    rep.conclusion(check, "[KH2025, Def. 15, Lemma 16]")
        .statement(where)
        .le({"max_k ||psi_z(k t_end/32)||", tz.sup_outputs}, flowcert::cert::exact("zero_tube_tolerance", tol_s));
    rep.note("invariance tube wall time: " + format_g(t.seconds, 3) + " s (" + what + ")");  // (not in the check: timing)
}

// The invariance tubes from delta W̄ and from delta W0 masked on w_z, the restricted flow (Lemma 16's proof made
// concrete: the support only, w_z the constant 0; padded with exact zeros it encloses the full flow once f_z = 0 on
// {w_z = 0} is proven, so it must meet the full-system sets) and the independent gradient evaluator.
inline void invariance_checks(flowcert::cert::Report& rep, const flowcert::cert::Case& in, const Instance& s, const Frame& f,
                              const std::vector<int>& z, const flowcert::linalg::IVectorD& Wbar, bool structural) {
    using flowcert::to_string;
    const std::string dinv_s = in.has("invariance_delta") ? in.number_string("invariance_delta")
                                                          : (s.deltas.empty() ? std::string("1e-2") : s.deltas.front());
    const std::string tol_s = in.has("zero_tube_tolerance") ? in.number_string("zero_tube_tolerance") : "1e-12";
    const IntervalD dinv = IntervalD::from_decimal(dinv_s);
    const flowcert::nets::HomogeneousModel<IntervalD> model(s.arch, s.data.X);
    const std::vector<IntervalD> x_bar = pk::masked_start(std::vector<IntervalD>(Wbar.data(), Wbar.data() + Wbar.size()), dinv, z);
    const IntervalD t_bar = IntervalD::exact(flowcert::upper(pk::escape_time_from_kkt(s.L, dinv, f.Nbar) + f.Ttilde));
    const pk::ZeroTube tz1 = pk::theorem18_zero_tube(f.flows, x_bar, t_bar, z, model, s.data.y, s.norm, s.order);
    state_zero_tube(rep, names::TUBE_BAR, "from delta W̄ (the path of p(t))", dinv_s, tol_s, tz1);
    const pk::ZeroTube tz2 = pk::theorem18_zero_tube(f.flows, pk::masked_start(s.W0i, dinv, z),
                                                     IntervalD::exact(flowcert::upper(f.times(dinv).second + f.Ttilde)), z,
                                                     model, s.data.y, s.norm, s.order);
    state_zero_tube(rep, names::TUBE_MASK, "from delta W0 with w_z set to 0", dinv_s, tol_s, tz2);
    if (structural && !tz1.outputs.empty()) {
        std::vector<std::string> pnames;
        std::vector<int> support;
        for (int j = 0; j < s.P; ++j) {
            pnames.push_back(s.arch.parameter_name(j));
            if (!std::binary_search(z.begin(), z.end(), j)) support.push_back(j);
        }
        const pk::RestrictedFlowAgreement ra = pk::restricted_flow_meets_full(
            flowcert::taylor::restrict_field(f.flows.loss, z), f.flows.loss_params, support, x_bar, tz1.outputs, t_bar, s.order, pnames);
        rep.step(names::RESTRICTED, "[KH2025, Lemma 16 (proof)]")
            .statement("psi_z(t, delta W̄) = 0 exactly on [0, t_end], with an enclosure of the support")
            .holds(ra.agree,
                   ra.failure.empty() ? "the restricted field on " + std::to_string(support.size()) + " variables, from delta W̄ on "
                                        "the support, integrated to t = " + to_string(t_bar, 8) + " (" + std::to_string(ra.steps) +
                                        " steps): its sets meet the full-system sets on the support at all " +
                                        std::to_string(tz1.outputs.size()) + " output times (max widths " +
                                        format_g(ra.max_width_restricted, 3) + " restricted, " + format_g(ra.max_width_full, 3) +
                                        " full); padded with w_z = [0, 0] exactly, it encloses psi(t, delta W̄) by the "
                                        "structural proof"
                                      : ra.failure);
    } else {
        rep.step(names::RESTRICTED, "[KH2025, Lemma 16 (proof)]")
            .holds(false, "not run: the structural check failed or the full tube did not complete");
    }
    const bool exact = tz1.check.gradient_exact && tz2.check.gradient_exact;
    rep.step(names::GRAD, "[KH2025, Lemma 16 (proof)]")
        .statement("the field restricted to {w_z = 0} has zero w_z components on every box of both tubes")
        .holds(exact && tz1.check.pieces > 0 && tz2.check.pieces > 0,
               "nets::square_loss gradient (homogeneous.cpp formulas, not the Taylor DAG) on the face {w_z = 0} of " +
                   std::to_string(tz1.check.pieces + tz2.check.pieces) + " tube boxes: " +
                   (exact ? "every w_z entry is exactly [0, 0]" : "some w_z entry is not exactly [0, 0]"));
}

// ---- the sweep records (written by a sweep point, read back in index order) ------------------------------------
inline nlohmann::json record_of(const pk::Theorem18Point& p, bool keep_states) {
    using flowcert::cert::exact_json;
    nlohmann::json r = {{"ok", p.ok}, {"steps", p.steps}, {"seconds", khsweep::json_of(p.seconds)}};
    if (!p.ok) {
        r["status"] = p.status;
        r["time"] = exact_json(p.time);
        r["reason"] = p.reason;
        return r;
    }
    r["t1_ok"] = p.t1_ok;
    r["n1"] = exact_json(p.n1);
    r["ratio"] = exact_json(p.ratio);
    r["sup_z"] = exact_json(p.sup_z);
    r["loss_end"] = exact_json(p.loss_end);
    r["grad_end"] = exact_json(p.grad_end);
    if (!keep_states) return r;  // what the heat maps and the neuron-norm tube plot use
    r["x1"] = khsweep::json_of(p.x1);
    r["x2"] = khsweep::json_of(p.x2);
    r["x_end"] = khsweep::json_of(p.x_end);
    nlohmann::json pieces = nlohmann::json::array();
    for (const auto& [t, norms] : p.neuron_norms) pieces.push_back({{"t", khsweep::json_of(t)}, {"norms", khsweep::json_of(norms)}});
    r["neuron_tube"] = pieces;
    return r;
}
inline pk::Theorem18Point point_of(const nlohmann::json& r) {
    using khsweep::interval;
    pk::Theorem18Point p;
    p.ok = r.at("ok").get<bool>();
    p.steps = r.at("steps").get<long>();
    p.seconds = khsweep::real(r.at("seconds"));
    if (!p.ok) {
        p.status = r.at("status").get<std::string>();
        p.time = interval<IntervalD>(r.at("time"));
        p.reason = r.at("reason").get<std::string>();
        return p;
    }
    p.t1_ok = r.at("t1_ok").get<bool>();
    p.n1 = interval<IntervalD>(r.at("n1"));
    p.ratio = interval<IntervalD>(r.at("ratio"));
    p.sup_z = interval<IntervalD>(r.at("sup_z"));
    p.loss_end = interval<IntervalD>(r.at("loss_end"));
    p.grad_end = interval<IntervalD>(r.at("grad_end"));
    if (!r.contains("x1")) return p;
    p.x1 = khsweep::intervals<IntervalD>(r.at("x1"));
    p.x2 = khsweep::intervals<IntervalD>(r.at("x2"));
    p.x_end = khsweep::intervals<IntervalD>(r.at("x_end"));
    for (const auto& piece : r.at("neuron_tube"))
        p.neuron_norms.emplace_back(khsweep::real(piece.at("t")), khsweep::intervals<IntervalD>(piece.at("norms")));
    return p;
}

// ---- the sweep tables and plots ------------------------------------------------------------------------------
class SweepTables {
public:
    explicit SweepTables(flowcert::cert::Report& rep)
        : sw_(rep.table("delta sweep (certified enclosures)",
                        {"delta", "T^1", "T^2", "steps", "wall s", "||psi(T^1)||", "ratio at T^1", "sup_{|t|<=T~} ||psi_z(t+T^2)||",
                         "L(psi(T^2+T~))", "||grad L(psi(T^2+T~))||"})),
          qt_(rep.table("smallest admissible constants per delta (upper bounds)",
                        {"delta", "||psi(T^1)|| / delta^kappa", "ratio / delta^(L kappa)", "sup ||psi_z|| / delta^kappa"})),
          sp_(khreport::delta_sweep_plot("Theorem 18 quantities vs delta (certified error bars)", "enclosure")) {}

    // The rows of a delta whose tube completed.
    void add(const std::string& ds, const IntervalD& t1, const IntervalD& t2, const pk::Theorem18Point& p, const pk::Theorem18Bounds& b) {
        using flowcert::to_string;
        using flowcert::upper_string;
        sw_.add_row({ds, to_string(t1, 8), to_string(t2, 8), std::to_string(p.steps), format_g(p.seconds, 3),
                     p.t1_ok ? to_string(p.n1, 6) : "-", p.t1_ok ? to_string(p.ratio, 6) : "-", to_string(p.sup_z, 6),
                     to_string(p.loss_end, 6), to_string(p.grad_end, 4)});
        if (p.t1_ok) {
            max_q_[0] = max(max_q_[0], b.q_norm);
            max_q_[1] = max(max_q_[1], b.q_ratio);
        }
        max_q_[2] = max(max_q_[2], b.q_sup);
        qt_.add_row({ds, p.t1_ok ? upper_string(b.q_norm, 6) : "-", p.t1_ok ? upper_string(b.q_ratio, 6) : "-", upper_string(b.q_sup, 6)});
    }
    // The points of a delta with T^1 > 0 (the slopes and the plot).
    void add_point(const IntervalD& delta, const std::string& ds, const pk::Theorem18Point& p) {
        dl_.push_back(delta);
        dl_s_.push_back(ds);
        q_[0].push_back(p.n1);
        q_[1].push_back(p.ratio);
        q_[2].push_back(p.sup_z);
        sp_.add_point("||psi(T^1)||", flowcert::mid(delta), p.n1);
        sp_.add_point("ratio ||psi_z||/||psi|| at T^1", flowcert::mid(delta), p.ratio);
        sp_.add_point("sup |t|<=T~ ||psi_z(t+T^2)||", flowcert::mid(delta), p.sup_z);
    }
    // The slopes table (finite slopes beside an asymptotic rate decide nothing), the plot, the smallest constants.
    void finish(flowcert::cert::Report& rep, const pk::Theorem18Exponents& e, const std::optional<std::array<IntervalD, 3>>& consts,
                const flowcert::cert::Case& in) {
        using flowcert::to_string;
        using flowcert::upper_string;
        auto& st = rep.table("certified log-log slopes between consecutive deltas",
                             {"delta_i", "delta_i+1", "slope ||psi(T^1)||", "vs kappa", "slope ratio", "vs L kappa",
                              "slope sup ||psi_z||", "vs kappa"});
        std::array<std::vector<std::optional<IntervalD>>, 3> sl;
        for (int k = 0; k < 3; ++k) sl[k] = khsweep::consecutive_slopes(q_[k], dl_);
        const IntervalD unbounded = IntervalD::bounds(-1e300, 1e300);
        for (std::size_t i = 0; i + 1 < dl_.size(); ++i) {
            const IntervalD s1 = sl[0][i].value_or(unbounded), s2 = sl[1][i].value_or(unbounded), s3 = sl[2][i].value_or(unbounded);
            st.add_row({dl_s_[i], dl_s_[i + 1], to_string(s1, 5), khsweep::side_of(s1, e.kappa), to_string(s2, 5),
                        khsweep::side_of(s2, e.kappa_ratio), to_string(s3, 5), khsweep::side_of(s3, e.kappa)});
        }
        if (consts) {
            sp_.references.push_back({"b1 delta^kappa", flowcert::mid((*consts)[0]), flowcert::mid(e.kappa)});
            sp_.references.push_back({"b2 delta^(L kappa)", flowcert::mid((*consts)[1]), flowcert::mid(e.kappa_ratio)});
            sp_.references.push_back({"C~ delta^kappa", flowcert::mid((*consts)[2]), flowcert::mid(e.kappa)});
        }
        rep.add_plot(sp_);
        rep.note("smallest constants admissible on this sweep (upper bounds): b1 >= " + upper_string(max_q_[0], 4) +
                 ", b2 >= " + upper_string(max_q_[1], 4) + ", C~ >= " + upper_string(max_q_[2], 4) +
                 (consts ? "; the case exhibits b1 = " + in.number_string("b1") + ", b2 = " + in.number_string("b2") +
                               ", C~ = " + in.number_string("c_tilde")
                         : std::string("; the case exhibits none")));
    }

private:
    flowcert::cert::Table& sw_;
    flowcert::cert::Table& qt_;
    flowcert::cert::SweepPlot sp_;
    std::vector<IntervalD> dl_;
    std::vector<std::string> dl_s_;
    std::array<std::vector<IntervalD>, 3> q_;
    std::array<IntervalD, 3> max_q_ = {IntervalD(0), IntervalD(0), IntervalD(0)};
};

// The heat maps |W| | |v| at t = 0, T^1, T^2, T^2 + T~ and the neuron norms over time (tube and heat map) of one delta.
inline void heat_maps(flowcert::cert::Report& rep, const flowcert::nets::HomogeneousArchitecture& arch, const std::string& ds,
                      const IntervalD& delta, const std::vector<IntervalD>& x0, const pk::Theorem18Point& p) {
    const int k1 = arch.hidden[0], voff = arch.layer_offset(2), d = arch.input_dim;
    auto heat = [&](const std::vector<IntervalD>& x, const std::string& when) {
        flowcert::cert::HeatMap hm{.title = "|W| | |v| at " + when + ", delta = " + ds + " (rows: neurons; last column: |v_j|; upper bounds)",
                                   .row_labels = {}, .col_labels = {}, .values = {}};
        for (int j = 0; j < k1; ++j) {
            std::vector<double> row;
            for (int k = 0; k < d; ++k) row.push_back(flowcert::mag(x[static_cast<std::size_t>(j * d + k)]));
            row.push_back(flowcert::mag(x[static_cast<std::size_t>(voff + j)]));
            hm.values.push_back(row);
            hm.row_labels.push_back("j=" + std::to_string(j));
        }
        for (int k = 0; k < d; ++k) hm.col_labels.push_back("x" + std::to_string(k));
        hm.col_labels.push_back("v");
        rep.add_plot(hm);
    };
    heat(x0, "t = 0");
    heat(p.x1, "T^1 (just before escape)");
    heat(p.x2, "T^2");
    heat(p.x_end, "T^2 + T~ (near the first saddle)");
    flowcert::cert::TubePlot tp{.title = "||(W_1[j,:], v[j])|| over time, delta = " + ds + " (certified tube)",
                                .x_label = "t", .y_label = "neuron norm", .log_x = false, .log_y = true, .bands = {}};
    flowcert::cert::HeatMap hot{.title = "log10(||(W_1[j,:], v[j])|| / delta) over the integrator steps (columns, subsampled), delta = " + ds,
                                .row_labels = {}, .col_labels = {}, .values = {}};
    hot.values.assign(static_cast<std::size_t>(k1), {});
    for (const auto& [t, norms] : p.neuron_norms)
        for (int j = 0; j < k1; ++j) {
            const IntervalD& nj = norms[static_cast<std::size_t>(j)];
            tp.add_point("neuron " + std::to_string(j), t, nj);
            hot.values[static_cast<std::size_t>(j)].push_back(std::log10(std::max(flowcert::upper(nj), 1e-300) / flowcert::mid(delta)));
        }
    for (int j = 0; j < k1; ++j) hot.row_labels.push_back("j=" + std::to_string(j));
    rep.add_plot(tp);
    rep.add_plot(hot);
}

}  // namespace kh18
