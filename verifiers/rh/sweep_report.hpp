// verifiers/rh/sweep_report.hpp -- the presentation of rh/gap_sweep (docs/rh.md#sweeps): the instance list of a
// case, the per-instance table and the statements over every instance (hypotheses, steps, conclusions), the observed
// band, the slopes of log gap against log d, the plots and the timing. No mathematics: every enclosure comes from
// flowcert/proofs/rh (run_gap_instance, orthogonal_model_gap, loglog_slope) or is a min / max of such enclosures.
#pragma once

#include "common.hpp"

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace flowcert::rh_verifiers {

// One instance of the sweep.
struct SweepItem {
    long n, d;
    std::uint64_t seed;
    int fraction = -1;  // index into negative_fractions (-1: the case's targets)
};

// Labels +-1 with n_- = floor(q n) negatives spread evenly: sample i is negative iff floor((i+1) q) > floor(i q).
inline std::string fraction_labels(long n, double q) {
    std::string s;
    for (long i = 0; i < n; ++i)
        s += std::string(i ? "," : "") + (std::floor((i + 1) * q) > std::floor(i * q) ? "-1" : "1");
    return s;
}

// The labels of a sweep instance as enclosures (for the orthogonal-model prediction); empty for teacher labels.
inline std::vector<IntervalD> label_enclosures(const std::string& targets, long n) {
    std::vector<IntervalD> y;
    if (targets == "teacher") return y;
    if (targets == "alternating") {
        for (long i = 0; i < n; ++i) y.push_back(IntervalD(i % 2 ? -1 : 1));
        return y;
    }
    size_t a = 0;
    while (a <= targets.size()) {
        const size_t b = std::min(targets.find(',', a), targets.size());
        y.push_back(IntervalD::from_decimal(targets.substr(a, b - a)));
        a = b + 1;
    }
    return y;
}

// The instances of a case: every (n, d) with d >= min_d_over_n n, every seed, every n_-/n of negative_fractions.
struct SweepPlan {
    std::vector<long> ns, ds;
    long seeds = 0;
    std::uint64_t seed0 = 0;
    long min_ratio_dn = 1;
    int threads = 0;  // the case's `threads`, else the run's --threads (set by the verifier)
    std::vector<std::string> fractions;  // n_-/n values (the sweep of item 6 of issue 17)
    std::vector<SweepItem> items;
    std::vector<std::string> skipped;    // (n, d) pairs below min_d_over_n

    explicit SweepPlan(const cert::Case& in) {
        for (const auto& s : in.number_strings("n_values")) ns.push_back(std::stol(s));
        for (const auto& s : in.number_strings("d_values")) ds.push_back(std::stol(s));
        seeds = static_cast<long>(in.integer("seeds"));
        seed0 = static_cast<std::uint64_t>(in.integer("seed"));
        if (in.has("min_d_over_n")) min_ratio_dn = static_cast<long>(in.integer("min_d_over_n"));
        if (in.has("threads")) threads = static_cast<int>(in.integer("threads"));
        if (in.has("negative_fractions")) fractions = in.number_strings("negative_fractions");
        for (long n : ns)
            for (long d : ds) {
                if (d < min_ratio_dn * n) {
                    skipped.push_back("(" + std::to_string(n) + ", " + std::to_string(d) + ")");
                    continue;
                }
                for (int f = first_fraction(); f < fraction_count(); ++f)
                    for (long s = 0; s < seeds; ++s) items.push_back({n, d, seed0 + static_cast<std::uint64_t>(s), f});
            }
    }
    int first_fraction() const { return fractions.empty() ? -1 : 0; }
    int fraction_count() const { return static_cast<int>(fractions.size()); }
    // the labels of an instance generated from its n_-/n, or the case's targets
    std::string targets(const cert::Case& in, const SweepItem& it) const {
        return it.fraction >= 0 ? fraction_labels(it.n, mid(IntervalD::from_decimal(fractions[it.fraction]))) : in.string("targets");
    }
};

// The notes and the proven statement of a sweep.
inline void sweep_notes(cert::Context& ctx, const SweepPlan& plan) {
    const cert::Case& in = ctx.input;
    ctx.report.set_seed("data seeds", std::to_string(plan.seed0) + ".." + std::to_string(plan.seed0 + plan.seeds - 1));
    reconstruction_notes(ctx.report, 1, true);
    std::string skipped;
    for (const auto& k : plan.skipped) skipped += k + " ";
    ctx.report.note("sweep: n in {" + in.number_strings("n_values").front() + ".." + in.number_strings("n_values").back() +
                    "}, d in {" + in.number_strings("d_values").front() + ".." + in.number_strings("d_values").back() +
                    "}, " + std::to_string(plan.seeds) + " seeds; pairs with d < " + std::to_string(plan.min_ratio_dn) +
                    " n skipped" + (plan.skipped.empty() ? std::string() : ": " + skipped));
    ctx.report.note("data of seed s are nested: instance (n, d, s) uses the first n rows and first d coordinates of "
                    "the streams (s, \"X\", i), so the d-sweep of one seed follows one growing data set");
    ctx.report.claim.proven_statement =
        "For each of the " + std::to_string(plan.items.size()) + " instances, in the high-dimensional regime eps <= " +
        in.number_string("eps_max") + ": the pattern stabilizes, w(inf) is a global minimizer, w* is certified and "
        "||w(inf) - w*|| is enclosed" +
        std::string(in.has("ratio_lower") || in.has("ratio_upper") ? ", with its ratio to sqrt(n_-/d) in the case's band" : "") +
        " (reconstructed definitions, see notes); the observed band [C1, C2] is reported as evidence";
}

// The statements over every instance and the extremes the checks and tables use. The band's normalization tau:
// d for the isotropic covariance (where ||lambda||_1 = d exactly), ||lambda||_1 = tr Sigma otherwise
// ([LWTM2026] v2 abstract; docs/rh.md#covariance).
struct SweepSummary {
    bool iso = true;
    std::string norm;
    proof::Extreme eps_max, step_max, init_min, rho_max, margin_min, c1, c2, c1n, c2n, c1t, c2t, c1nt, c2nt;
    proof::AllInstances signs, rho_t, margin_t, gmin, wstar, gap_t;
    using Range = std::pair<IntervalD, IntervalD>;
    std::map<std::pair<long, long>, Range> band_nd;    // (n, d) -> (min ratio, max ratio), the band's normalization
    std::map<std::pair<long, long>, Range> gap_nd;
    std::map<std::pair<long, long>, Range> band_nd_d;  // the ratio to sqrt(n_-/d)
    std::map<std::tuple<long, long, int>, std::pair<int, int>> freq;  // (n, d, n_-/n) -> (certified, seeds)
    double cpu = 0;

    explicit SweepSummary(const cert::Case& in)
        : iso(!in.has("covariance") || in.string("covariance") == "isotropic"),
          norm(iso ? "sqrt(n_-/d)" : "sqrt(n_-/||lambda||_1)") {}

    static void widen(std::map<std::pair<long, long>, Range>& m, std::pair<long, long> key, const IntervalD& x) {
        auto b = m.find(key);
        if (b == m.end()) m[key] = {x, x};
        else b->second = {min(b->second.first, x), max(b->second.second, x)};
    }
    // Adds one instance; true if its gap is certified (with n_- > 0).
    bool add(const SweepItem& it, const GapOutcome& o, const std::string& at) {
        cpu += o.seconds;
        if (!o.error.empty()) throw std::runtime_error("instance " + at + ": " + o.error);
        eps_max.take_max(o.eps, at);
        step_max.take_max(o.step_ratio, at);
        init_min.take_min(o.init_min, at);
        signs.add(o.pattern.signs, at);
        rho_t.add(o.pattern.rho_known ? ProofResult::proven("") : ProofResult::not_proven("rho not computed"), at);
        if (o.pattern.rho_known) rho_max.take_max(o.pattern.rho, at);
        margin_t.add(o.pattern.margin_known ? ProofResult::proven("") : ProofResult::not_proven("tail margin not computed"), at);
        if (o.pattern.margin_known) margin_min.take_min(o.pattern.margin, at);
        gmin.add(o.global_min, at);
        wstar.add(o.wstar.kkt, at);
        const bool ok = o.gap.status.is_proven() && o.n_minus > 0;
        gap_t.add(ok ? o.gap.status : ProofResult::not_proven(o.n_minus == 0 ? "n_- = 0" : o.gap.status.reason), at);
        if (ok) {
            c1.take_min(o.gap.ratio_n_minus, at);
            c2.take_max(o.gap.ratio_n_minus, at);
            c1n.take_min(o.gap.ratio_n, at);
            c2n.take_max(o.gap.ratio_n, at);
            c1t.take_min(o.gap.ratio_n_minus_trace, at);
            c2t.take_max(o.gap.ratio_n_minus_trace, at);
            c1nt.take_min(o.gap.ratio_n_trace, at);
            c2nt.take_max(o.gap.ratio_n_trace, at);
            const auto key = std::make_pair(it.n, it.d);
            widen(band_nd, key, ratio(o));
            widen(band_nd_d, key, o.gap.ratio_n_minus);
            widen(gap_nd, key, o.gap.gap);
        }
        auto& fr = freq[{it.n, it.d, it.fraction}];
        fr.second += 1;
        fr.first += ok ? 1 : 0;
        return ok;
    }
    IntervalD ratio(const GapOutcome& o) const { return iso ? o.gap.ratio_n_minus : o.gap.ratio_n_minus_trace; }
    const proof::Extreme& lower() const { return iso ? c1 : c1t; }
    const proof::Extreme& upper() const { return iso ? c2 : c2t; }
};

inline std::vector<std::string> instance_columns() {
    return {"n", "d", "seed", "n_-", "n_-/n", "eta d", "||lambda||_1", "eps", "K", "gap",
            "ratio to sqrt(n_-/d)", "ratio to sqrt(n/d)", "ratio to sqrt(n_-/||lambda||_1)",
            "ratio to sqrt(n/||lambda||_1)", "orthogonal-model ratio (same normalization)",
            "|ratio - orthogonal| <= (certified)", "status", "seconds"};
}

// One row of the instance table; `pred` is the orthogonal-model prediction of the instance.
inline std::vector<std::string> instance_row(const SweepItem& it, const GapOutcome& o, bool ok, const IntervalD& ratio,
                                             const proof::OrthogonalPrediction& pred) {
    const bool have_pred = pred.status.is_proven();
    const std::string diff = ok && have_pred ? fmt(IntervalD::exact(upper(abs(ratio - pred.ratio_n_minus))), 4) : "-";
    const std::string status = ok ? "certified"
                               : !o.pattern.tail.is_proven() ? "tail: " + o.pattern.tail.reason
                               : !o.wstar.kkt.is_proven()    ? "w*: " + o.wstar.kkt.reason
                                                             : "gap: " + o.gap.status.reason;
    return {std::to_string(it.n), std::to_string(it.d), std::to_string(it.seed), std::to_string(o.n_minus),
            fmt(IntervalD(o.n_minus) / IntervalD(static_cast<int>(it.n)), 4), fmt(o.eta_d, 6), fmt(o.trace, 8), fmt(o.eps, 3),
            std::to_string(o.pattern.K), ok ? fmt(o.gap.gap, 6) : "-",
            ok ? fmt(o.gap.ratio_n_minus, 6) : "-", ok ? fmt(o.gap.ratio_n, 6) : "-",
            ok ? fmt(o.gap.ratio_n_minus_trace, 6) : "-", ok ? fmt(o.gap.ratio_n_trace, 6) : "-",
            have_pred ? fmt(pred.ratio_n_minus, 6) : "- (" + pred.status.reason + ")", diff,
            status.substr(0, 160), std::to_string(o.seconds)};
}

// The frequency of certified instances over seeds: statistical (plain double), never a certificate.
inline void frequency_table(cert::Report& rep, const SweepSummary& s, const SweepPlan& plan) {
    auto& ft = rep.table("STATISTICAL (not a certificate): certified instances over seeds per (n, d, n_-/n), "
                         "95% Clopper-Pearson interval of the frequency (plain double)",
                         {"n", "d", "n_-/n", "certified / seeds", "Clopper-Pearson 95%"});
    for (const auto& [key, kn] : s.freq) {
        const auto [lo, hi] = cert::clopper_pearson_nonrigorous(kn.first, kn.second);
        ft.add_row({std::to_string(std::get<0>(key)), std::to_string(std::get<1>(key)),
                    std::get<2>(key) >= 0 ? plan.fractions[std::get<2>(key)] : "case targets",
                    std::to_string(kn.first) + " / " + std::to_string(kn.second),
                    "[" + std::to_string(lo).substr(0, 6) + ", " + std::to_string(hi).substr(0, 6) + "]"});
    }
}

// The hypotheses of the (reconstructed) theorem on every instance ([docs/rh.md#regime]), the steps of our argument
// and the conclusions, including the case's band.
inline void sweep_checks(cert::Report& rep, const cert::Case& in, const SweepSummary& s) {
    auto not_proven = [](const std::string& why) { return ProofResult::not_proven(why); };
    auto h_regime = rep.hypothesis("every instance in the high-dimensional regime (near-orthogonality)",
                                   "[LWTM2026, abstract; docs/rh.md#regime]")
                        .statement("max over instances of eps = max_{i!=j}|G_ij| / min_i G_ii <= eps_max")
                        .reconstructed(rh::Reconstruction::regime_mark);
    if (s.eps_max.have) h_regime.le({"max eps (at " + s.eps_max.where + ")", s.eps_max.value}, cert::exact("eps_max", in.number_string("eps_max")));
    else h_regime.result(not_proven("no instance"));
    auto h_step = rep.hypothesis("every instance: step size eta lambda_max(G) < 2", "[docs/rh.md#step-size]")
                      .reconstructed(rh::Reconstruction::step_size_mark);
    if (s.step_max.have) h_step.lt({"max eta lambda_max(G) (at " + s.step_max.where + ")", s.step_max.value}, cert::exact("2"));
    else h_step.result(not_proven("no instance"));
    auto h_init = rep.hypothesis("every instance: every sample active at initialization", "[docs/rh.md#initialization]")
                      .reconstructed(rh::Reconstruction::initialization_mark);
    if (s.init_min.have) h_init.positive({"min <w_p(0), x_i> (at " + s.init_min.where + ")", s.init_min.value});
    else h_init.result(not_proven("no instance"));
    rep.step("every instance: activation signs certified up to the tail step", "[docs/rh.md#interval-gd]").result(s.signs.result());
    auto s_rho = rep.step("every instance: tail contraction rho < 1", "[docs/rh.md#tail]");
    if (s.rho_t.result().is_proven() && s.rho_max.have) s_rho.lt({"max rho (at " + s.rho_max.where + ")", s.rho_max.value}, cert::exact("1"));
    else s_rho.result(s.rho_t.result());
    auto s_margin = rep.step("every instance: tail margin", "[docs/rh.md#tail]");
    if (s.margin_t.result().is_proven() && s.margin_min.have)
        s_margin.positive({"min signed tail margin (at " + s.margin_min.where + ")", s.margin_min.value});
    else s_margin.result(s.margin_t.result());
    rep.conclusion("every instance: pattern never changes after K", "[LWTM2026, abstract; docs/rh.md#tail]")
        .implied_by({"every instance: activation signs certified up to the tail step", "every instance: tail contraction rho < 1",
                     "every instance: tail margin"});
    rep.conclusion("every instance: w(inf) is a global minimizer", "[docs/rh.md#global-minimum]").result(s.gmin.result());
    rep.step("every instance: w* certified by KKT", "[docs/rh.md#w-star]").result(s.wstar.result());
    const bool all_gaps = s.gap_t.result().is_proven();
    if (in.has("ratio_lower")) {
        auto c = rep.conclusion("band lower end", "[LWTM2026, abstract; docs/rh.md#gap]")
                     .statement("ratio_lower " + s.norm + " <= ||w(inf) - w*|| on every instance (the case's C1)")
                     .case_claim("C1 = ratio_lower of the case; the paper's C1 is NOT FOUND");
        if (all_gaps) c.le(cert::exact("ratio_lower", in.number_string("ratio_lower")), {"min ratio (at " + s.lower().where + ")", s.lower().value});
        else c.result(s.gap_t.result());
    }
    if (in.has("ratio_upper")) {
        auto c = rep.conclusion("band upper end", "[LWTM2026, abstract; docs/rh.md#gap]")
                     .statement("||w(inf) - w*|| <= ratio_upper " + s.norm + " on every instance (the case's C2)")
                     .case_claim("C2 = ratio_upper of the case; the paper's C2 is NOT FOUND");
        if (all_gaps) c.le({"max ratio (at " + s.upper().where + ")", s.upper().value}, cert::exact("ratio_upper", in.number_string("ratio_upper")));
        else c.result(s.gap_t.result());
    }
}

// The observed band per normalization (evidence) and, for an anisotropic covariance, the spread of each ratio.
inline void band_tables(cert::Report& rep, const SweepSummary& s) {
    auto& band = rep.table("observed ratio band over the certified instances (evidence, not a bound for other data)",
                           {"ratio", "C1 (enclosure of the min)", "C2 (enclosure of the max)"});
    auto row = [&](const char* name, const proof::Extreme& lo, const proof::Extreme& hi) {
        band.add_row({name, lo.have ? fmt(lo.value, 8) : "-", hi.have ? fmt(hi.value, 8) : "-"});
    };
    row("||w(inf) - w*|| / sqrt(n_-/d)", s.c1, s.c2);
    row("||w(inf) - w*|| / sqrt(n/d)", s.c1n, s.c2n);
    row("||w(inf) - w*|| / sqrt(n_-/||lambda||_1)", s.c1t, s.c2t);
    row("||w(inf) - w*|| / sqrt(n/||lambda||_1)", s.c1nt, s.c2nt);
    if (s.iso || !s.c1.have || !s.c1t.have) return;
    // Which normalization stays Theta(1) over the sweep: the spread max / min of each ratio (evidence over these
    // instances only, not a bound; docs/rh.md#covariance).
    auto& spread = rep.table("spread of the ratio over the sweep, per normalization (evidence, not a bound)",
                             {"normalization", "max / min over the certified instances"});
    spread.add_row({"sqrt(n_-/d)", fmt(s.c2.value / s.c1.value, 6)});
    spread.add_row({"sqrt(n_-/||lambda||_1)", fmt(s.c2t.value / s.c1t.value, 6)});
    rep.note("spread max/min of the certified ratio over the sweep: to sqrt(n_-/d) in " + fmt(s.c2.value / s.c1.value, 4) +
             ", to sqrt(n_-/||lambda||_1) in " + fmt(s.c2t.value / s.c1t.value, 4) +
             " (evidence over these instances; no statement for other d or data)");
}

// Per (n, n_-/n, seed): certified slopes of log gap against log d (consecutive d and end to end).
inline void slope_table(cert::Report& rep, const SweepPlan& plan, const std::vector<GapOutcome>& out, bool iso) {
    auto& sl = rep.table("slopes of log gap vs log d per (n, seed)", {"n", "seed", "consecutive slopes", "end-to-end slope"});
    IntervalD smin, smax;
    bool have_slope = false;
    // slope of log gap against log d from (d0, gap0) to (d1, gap1); nothing when d0 = d1
    const auto slope = [](const std::pair<long, IntervalD>& p0, const std::pair<long, IntervalD>& p1) {
        return loglog_slope(p1.second, p0.second, IntervalD(p1.first), IntervalD(p0.first));
    };
    for (long n : plan.ns)
        for (int f = plan.first_fraction(); f < plan.fraction_count(); ++f)
            for (long s = 0; s < plan.seeds; ++s) {
                std::vector<std::pair<long, IntervalD>> pts;
                for (size_t k = 0; k < plan.items.size(); ++k) {
                    const SweepItem& it = plan.items[k];
                    const GapOutcome& o = out[k];
                    if (it.n == n && it.fraction == f && it.seed == plan.seed0 + static_cast<std::uint64_t>(s) &&
                        o.gap.status.is_proven() && o.n_minus > 0 && certainly_positive(o.gap.gap))
                        pts.push_back({it.d, o.gap.gap});
                }
                if (pts.size() < 2) continue;
                std::string cons;
                for (size_t k = 1; k < pts.size(); ++k) {
                    const auto sk = slope(pts[k - 1], pts[k]);
                    cons += (sk ? fmt(*sk, 4) : std::string("-")) + " ";
                }
                const auto e2e_slope = slope(pts.front(), pts.back());
                if (!e2e_slope) continue;
                const IntervalD e2e = *e2e_slope;
                smin = have_slope ? min(smin, e2e) : e2e;
                smax = have_slope ? max(smax, e2e) : e2e;
                have_slope = true;
                sl.add_row({std::to_string(n) + (f >= 0 ? ", n_-/n = " + plan.fractions[f] : std::string()),
                            std::to_string(plan.seed0 + s), cons, fmt(e2e, 6)});
            }
    if (have_slope)
        rep.note("end-to-end slopes of log gap vs log d over all (n, seed): min in " + fmt(smin, 6) + ", max in " +
                 fmt(smax, 6) + (iso ? " (the reconstruction's heuristic predicts -1/2 at fixed eta d)"
                                     : " (the reconstruction's heuristic at fixed eta tr Sigma: -1/2 times the slope of log "
                                       "||lambda||_1 vs log d)"));
}

// Plots: ratio vs d (band over seeds, per n) and gap vs d with a d^-1/2 reference.
inline void sweep_plots(cert::Report& rep, const SweepSummary& s, const SweepPlan& plan) {
    cert::SweepPlot pr;
    pr.title = "certified ||w(inf) - w*|| / " + s.norm + ": min..max over seeds";
    pr.x_label = "d";
    pr.y_label = "ratio";
    cert::SweepPlot pg;
    pg.title = "certified ||w(inf) - w*||: min..max over seeds";
    pg.x_label = "d";
    pg.y_label = "gap";
    for (const auto& [key, b] : s.band_nd) {
        pr.add_point("n = " + std::to_string(key.first) + (s.iso ? "" : ", to " + s.norm), static_cast<double>(key.second),
                     hull(b.first, b.second));
        if (!s.iso) {
            const auto& bd = s.band_nd_d.at(key);
            pr.add_point("n = " + std::to_string(key.first) + ", to sqrt(n_-/d)", static_cast<double>(key.second),
                         hull(bd.first, bd.second));
        }
        const auto& g = s.gap_nd.at(key);
        pg.add_point("n = " + std::to_string(key.first), static_cast<double>(key.second), hull(g.first, g.second));
    }
    if (s.iso && s.c1.have)
        pg.references.push_back({"C1 sqrt(n/2/d), n = " + std::to_string(plan.ns.front()),
                                 mid(s.c1.value) * std::sqrt(static_cast<double>(plan.ns.front()) / 2), -0.5});
    rep.add_plot(pr);
    rep.add_plot(pg);
}

// The compute time is the sum of the instance times of the records (also for a merged sweep, whose records were
// computed by the parts); this process's wall time is the merge's for a merged sweep. Labels and note do not
// depend on merging, so a merged certificate equals the direct run's up to timing.
inline void timing_table(cert::Report& rep, const SweepPlan& plan, double cpu, double wall) {
    auto& tt = rep.table("timing", {"quantity", "value"});
    tt.add_row({"instances", std::to_string(plan.items.size())});
    tt.add_row({"threads", std::to_string(plan.threads)});
    tt.add_row({"compute time: sum of instance times (s)", std::to_string(cpu)});
    tt.add_row({"this process's wall time (s; a merged sweep: the merge only)", std::to_string(wall)});
    rep.note("sweep wall time " + std::to_string(wall) + " s in this process (for a merged sweep the merge "
             "only; the compute time is the sum of instance times in the timing table), " +
             std::to_string(plan.items.size()) + " instances");
}

}  // namespace flowcert::rh_verifiers
