// verifiers/rh/gap_sweep.cpp -- [LWTM2026] (reconstruction, docs/rh.md#verifiers-and-cases): sweep over (n, d, seed)
// of rh/gap. For every instance w(inf), w* and ||w(inf) - w*|| are certified; the band [C1, C2] is
// the min / max of the certified ratios ||w(inf) - w*|| / sqrt(n_-/d) (each endpoint an enclosure),
// and per (n, seed) the certified slopes of log gap against log d are reported. Instances run on
// `threads` std::threads; each result depends only on its (n, d, seed), never on the thread count.
// With negative_fractions every (n, d, seed) runs once per n_-/n; each row shows the orthogonal-model
// prediction (proofs/rh/orthogonal_model.hpp) and a certified bound on the difference, and the certified
// frequency over seeds gets a Clopper-Pearson interval labelled statistical (docs/rh.md#sweeps).
#include "common.hpp"
#include "sweep_record.hpp"

#include <chrono>
#include <cmath>
#include <map>
#include <tuple>

namespace {

using namespace flowcert;
using namespace flowcert::rh_verifiers;

struct Item {
    long n, d;
    std::uint64_t seed;
    int fraction = -1;  // index into negative_fractions (-1: the case's targets)
};

// Labels +-1 with n_- = floor(q n) negatives spread evenly: sample i is negative iff floor((i+1) q) > floor(i q).
std::string fraction_labels(long n, double q) {
    std::string s;
    for (long i = 0; i < n; ++i)
        s += std::string(i ? "," : "") + (std::floor((i + 1) * q) > std::floor(i * q) ? "-1" : "1");
    return s;
}

// The labels of a sweep instance as enclosures (for the orthogonal-model prediction); empty for teacher labels.
std::vector<IntervalD> label_enclosures(const std::string& targets, long n) {
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

void run(cert::Context& ctx) {
    const cert::Case& in = ctx.input;
    record_precision(ctx);
    std::vector<long> ns, ds;
    for (const auto& s : in.number_strings("n_values")) ns.push_back(std::stol(s));
    for (const auto& s : in.number_strings("d_values")) ds.push_back(std::stol(s));
    const long seeds = static_cast<long>(in.integer("seeds"));
    const std::uint64_t seed0 = static_cast<std::uint64_t>(in.integer("seed"));
    const long min_ratio_dn = in.has("min_d_over_n") ? static_cast<long>(in.integer("min_d_over_n")) : 1;
    const int threads = in.has("threads") ? static_cast<int>(in.integer("threads")) : 2;
    std::vector<std::string> fractions;  // n_-/n values (the sweep of item 6 of issue 17)
    if (in.has("negative_fractions")) fractions = in.number_strings("negative_fractions");
    const proof::GdOptions opt = gd_options(in);

    std::vector<Item> items;
    std::vector<std::string> skipped;
    for (long n : ns)
        for (long d : ds) {
            if (d < min_ratio_dn * n) {
                skipped.push_back("(" + std::to_string(n) + ", " + std::to_string(d) + ")");
                continue;
            }
            for (int f = fractions.empty() ? -1 : 0; f < static_cast<int>(fractions.size()); ++f)
                for (long s = 0; s < seeds; ++s) items.push_back({n, d, seed0 + static_cast<std::uint64_t>(s), f});
        }
    ctx.report.set_seed("data seeds", std::to_string(seed0) + ".." + std::to_string(seed0 + seeds - 1));
    reconstruction_notes(ctx.report, 1, true);
    ctx.report.note("sweep: n in {" + in.number_strings("n_values").front() + ".." + in.number_strings("n_values").back() +
                    "}, d in {" + in.number_strings("d_values").front() + ".." + in.number_strings("d_values").back() +
                    "}, " + std::to_string(seeds) + " seeds; pairs with d < " + std::to_string(min_ratio_dn) +
                    " n skipped" + (skipped.empty() ? std::string() : ": " + [&] {
                        std::string s;
                        for (const auto& k : skipped) s += k + " ";
                        return s;
                    }()));
    ctx.report.note("data of seed s are nested: instance (n, d, s) uses the first n rows and first d coordinates of "
                    "the streams (s, \"X\", i), so the d-sweep of one seed follows one growing data set");
    ctx.report.claim.proven_statement =
        "For each of the " + std::to_string(items.size()) + " instances, in the high-dimensional regime eps <= " +
        in.number_string("eps_max") + ": the pattern stabilizes, w(inf) is a global minimizer, w* is certified and "
        "||w(inf) - w*|| is enclosed" +
        std::string(in.has("ratio_lower") || in.has("ratio_upper") ? ", with its ratio to sqrt(n_-/d) in the case's band" : "") +
        " (reconstructed definitions, see notes); the observed band [C1, C2] is reported as evidence";

    // The instances through cert::Context::sweep (points can be split over processes and merged,
    // issue 7): expensive ones first on `threads` threads; each record depends only on its
    // (n, d, seed), and the report below is assembled from the records in index order.
    cert::SweepOptions sweep_opt;
    sweep_opt.threads = std::max(1, threads);
    sweep_opt.cost = [&](size_t k) {  // non-rigorous cost estimate, order only
        return static_cast<double>(items[k].n) * static_cast<double>(items[k].n) * static_cast<double>(items[k].d + 2000);
    };
    const auto t0 = std::chrono::steady_clock::now();
    const auto records = ctx.sweep(
        items.size(),
        [&](size_t k) {
            const Item& it = items[k];
            rh::InstanceSpec spec = instance_spec(in, it.n, it.d);
            spec.seed = it.seed;
            if (it.fraction >= 0) spec.labels = fraction_labels(it.n, mid(IntervalD::from_decimal(fractions[it.fraction])));
            GapOutcome o;
            const auto s0 = std::chrono::steady_clock::now();
            try {
                o = run_gap_instance(spec, opt);
            } catch (const std::exception& e) {
                o.error = e.what();
            }
            o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count();
            return to_record(o);
        },
        sweep_opt);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::vector<GapOutcome> out;
    for (const auto& r : records) out.push_back(from_record(r));

    // Per-instance results (single thread from here on: deterministic report order).
    // The band's normalization tau: d for the isotropic covariance (where ||lambda||_1 = d exactly),
    // ||lambda||_1 = tr Sigma otherwise ([LWTM2026] v2 abstract; docs/rh.md#covariance).
    const bool iso = !in.has("covariance") || in.string("covariance") == "isotropic";
    const std::string norm = iso ? "sqrt(n_-/d)" : "sqrt(n_-/||lambda||_1)";
    // The orthogonal model (G = tau I) at this case's h = eta tau and c~ = c tau (docs/rh.md#sweeps).
    const IntervalD h = in.interval_d(in.has("eta_trace") ? "eta_trace" : "eta_d");
    const bool span = in.string("init") == "span";
    auto prediction = [&](const Item& it, const GapOutcome& o) {
        proof::OrthogonalPrediction p;
        if (!span) return p.status = flowcert::ProofResult::not_proven("span initialization only"), p;
        const IntervalD tau = iso ? IntervalD(it.d) : o.trace;
        const IntervalD ct = in.has("init_scale_trace") ? in.interval_d("init_scale_trace") : in.interval_d("init_scale") * tau;
        const std::string targets =
            it.fraction >= 0 ? fraction_labels(it.n, mid(IntervalD::from_decimal(fractions[it.fraction]))) : in.string("targets");
        const auto y = label_enclosures(targets, it.n);
        if (y.empty()) return p.status = flowcert::ProofResult::not_proven("teacher labels"), p;
        return proof::orthogonal_model_gap(h, ct, y);
    };
    // per (n, d, n_-/n): certified instances among the seeds (a frequency: statistical, not a certificate)
    std::map<std::tuple<long, long, int>, std::pair<int, int>> freq;
    auto& tab = ctx.report.table("instances", {"n", "d", "seed", "n_-", "n_-/n", "eta d", "||lambda||_1", "eps", "K", "gap",
                                               "ratio to sqrt(n_-/d)", "ratio to sqrt(n/d)", "ratio to sqrt(n_-/||lambda||_1)",
                                               "ratio to sqrt(n/||lambda||_1)", "orthogonal-model ratio (same normalization)",
                                               "|ratio - orthogonal| <= (certified)", "status", "seconds"});
    proof::Extreme eps_max, step_max, init_min, rho_max, margin_min, c1, c2, c1n, c2n, c1t, c2t, c1nt, c2nt;
    proof::AllInstances signs, rho_t, margin_t, gmin, wstar, gap_t;
    std::map<std::pair<long, long>, std::pair<IntervalD, IntervalD>> band_nd;  // (n, d) -> (min ratio, max ratio)
    std::map<std::pair<long, long>, std::pair<IntervalD, IntervalD>> gap_nd;
    std::map<std::pair<long, long>, std::pair<IntervalD, IntervalD>> band_nd_d;  // the ratio to sqrt(n_-/d)
    double cpu = 0;
    for (size_t k = 0; k < items.size(); ++k) {
        const Item& it = items[k];
        const GapOutcome& o = out[k];
        const std::string at = "(n, d, seed) = (" + std::to_string(it.n) + ", " + std::to_string(it.d) + ", " +
                               std::to_string(it.seed) + ")";
        cpu += o.seconds;
        if (!o.error.empty()) throw std::runtime_error("instance " + at + ": " + o.error);
        eps_max.take_max(o.eps, at);
        step_max.take_max(o.step_ratio, at);
        init_min.take_min(o.init_min, at);
        signs.add(o.pattern.signs, at);
        rho_t.add(o.pattern.rho_known ? flowcert::ProofResult::proven("") : flowcert::ProofResult::not_proven("rho not computed"), at);
        if (o.pattern.rho_known) rho_max.take_max(o.pattern.rho, at);
        margin_t.add(o.pattern.margin_known ? flowcert::ProofResult::proven("")
                                            : flowcert::ProofResult::not_proven("tail margin not computed"), at);
        if (o.pattern.margin_known) margin_min.take_min(o.pattern.margin, at);
        gmin.add(o.global_min, at);
        wstar.add(o.wstar.kkt, at);
        const bool ok = o.gap.status.is_proven() && o.n_minus > 0;
        gap_t.add(ok ? o.gap.status : flowcert::ProofResult::not_proven(o.n_minus == 0 ? "n_- = 0" : o.gap.status.reason), at);
        const IntervalD ratio = iso ? o.gap.ratio_n_minus : o.gap.ratio_n_minus_trace;  // the band's normalization
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
            auto b = band_nd.find(key);
            if (b == band_nd.end()) {
                band_nd[key] = {ratio, ratio};
                gap_nd[key] = {o.gap.gap, o.gap.gap};
                band_nd_d[key] = {o.gap.ratio_n_minus, o.gap.ratio_n_minus};
            } else {
                b->second = {min(b->second.first, ratio), max(b->second.second, ratio)};
                auto& bd = band_nd_d[key];
                bd = {min(bd.first, o.gap.ratio_n_minus), max(bd.second, o.gap.ratio_n_minus)};
                auto& g = gap_nd[key];
                g = {min(g.first, o.gap.gap), max(g.second, o.gap.gap)};
            }
        }
        auto& fr = freq[{it.n, it.d, it.fraction}];
        fr.second += 1;
        fr.first += ok ? 1 : 0;
        const proof::OrthogonalPrediction pred = prediction(it, o);
        const bool have_pred = pred.status.is_proven();
        const std::string diff = ok && have_pred ? fmt(IntervalD::exact(upper(abs(ratio - pred.ratio_n_minus))), 4) : "-";
        const std::string status = ok ? "certified"
                                   : !o.pattern.tail.is_proven() ? "tail: " + o.pattern.tail.reason
                                   : !o.wstar.kkt.is_proven()    ? "w*: " + o.wstar.kkt.reason
                                                                 : "gap: " + o.gap.status.reason;
        tab.add_row({std::to_string(it.n), std::to_string(it.d), std::to_string(it.seed), std::to_string(o.n_minus),
                     fmt(IntervalD(o.n_minus) / IntervalD(static_cast<int>(it.n)), 4), fmt(o.eta_d, 6), fmt(o.trace, 8), fmt(o.eps, 3), std::to_string(o.pattern.K), ok ? fmt(o.gap.gap, 6) : "-",
                     ok ? fmt(o.gap.ratio_n_minus, 6) : "-", ok ? fmt(o.gap.ratio_n, 6) : "-",
                     ok ? fmt(o.gap.ratio_n_minus_trace, 6) : "-", ok ? fmt(o.gap.ratio_n_trace, 6) : "-",
                     have_pred ? fmt(pred.ratio_n_minus, 6) : "- (" + pred.status.reason + ")", diff,
                     status.substr(0, 160), std::to_string(o.seconds)});
    }
    auto& ft = ctx.report.table("STATISTICAL (not a certificate): certified instances over seeds per (n, d, n_-/n), "
                                "95% Clopper-Pearson interval of the frequency (plain double)",
                                {"n", "d", "n_-/n", "certified / seeds", "Clopper-Pearson 95%"});
    for (const auto& [key, kn] : freq) {
        const auto [lo, hi] = cert::clopper_pearson_nonrigorous(kn.first, kn.second);
        ft.add_row({std::to_string(std::get<0>(key)), std::to_string(std::get<1>(key)),
                    std::get<2>(key) >= 0 ? fractions[std::get<2>(key)] : "case targets",
                    std::to_string(kn.first) + " / " + std::to_string(kn.second),
                    "[" + std::to_string(lo).substr(0, 6) + ", " + std::to_string(hi).substr(0, 6) + "]"});
    }
    ctx.report.note(std::string("init scale: ") +
                    (in.has("init_scale_trace") ? "c tau = init_scale_trace held fixed over the sweep"
                                                : "c = init_scale held fixed (absolute): c tau grows with d, so the "
                                                  "ratio changes along d through the schedule too (issue 17)") +
                    "; step size: eta tau held fixed. Orthogonal model (G = tau I, docs/rh.md#sweeps): ratio to "
                    "sqrt(n_-/tau) = sqrt(mean b_K^2), the same for every n_-/n; the certified bound on |ratio - "
                    "orthogonal| per instance is the sup of |enclosure difference|");
    auto& rep = ctx.report;
    auto not_proven = [](const std::string& why) { return flowcert::ProofResult::not_proven(why); };
    // Hypotheses of the (reconstructed) theorem, on every instance ([docs/rh.md#regime]).
    auto h_regime = rep.hypothesis("every instance in the high-dimensional regime (near-orthogonality)",
                                   "[LWTM2026, abstract; docs/rh.md#regime]")
                        .statement("max over instances of eps = max_{i!=j}|G_ij| / min_i G_ii <= eps_max")
                        .reconstructed(rh::Reconstruction::regime_mark);
    if (eps_max.have) h_regime.le({"max eps (at " + eps_max.where + ")", eps_max.value}, cert::exact("eps_max", in.number_string("eps_max")));
    else h_regime.result(not_proven("no instance"));
    auto h_step = rep.hypothesis("every instance: step size eta lambda_max(G) < 2", "[docs/rh.md#step-size]")
                      .reconstructed(rh::Reconstruction::step_size_mark);
    if (step_max.have) h_step.lt({"max eta lambda_max(G) (at " + step_max.where + ")", step_max.value}, cert::exact("2"));
    else h_step.result(not_proven("no instance"));
    auto h_init = rep.hypothesis("every instance: every sample active at initialization", "[docs/rh.md#initialization]")
                      .reconstructed(rh::Reconstruction::initialization_mark);
    if (init_min.have) h_init.positive({"min <w_p(0), x_i> (at " + init_min.where + ")", init_min.value});
    else h_init.result(not_proven("no instance"));
    // Steps of our argument and the conclusions.
    rep.step("every instance: activation signs certified up to the tail step", "[docs/rh.md#interval-gd]").result(signs.result());
    auto s_rho = rep.step("every instance: tail contraction rho < 1", "[docs/rh.md#tail]");
    if (rho_t.result().is_proven() && rho_max.have) s_rho.lt({"max rho (at " + rho_max.where + ")", rho_max.value}, cert::exact("1"));
    else s_rho.result(rho_t.result());
    auto s_margin = rep.step("every instance: tail margin", "[docs/rh.md#tail]");
    if (margin_t.result().is_proven() && margin_min.have)
        s_margin.positive({"min signed tail margin (at " + margin_min.where + ")", margin_min.value});
    else s_margin.result(margin_t.result());
    rep.conclusion("every instance: pattern never changes after K", "[LWTM2026, abstract; docs/rh.md#tail]")
        .implied_by({"every instance: activation signs certified up to the tail step", "every instance: tail contraction rho < 1",
                     "every instance: tail margin"});
    rep.conclusion("every instance: w(inf) is a global minimizer", "[docs/rh.md#global-minimum]").result(gmin.result());
    rep.step("every instance: w* certified by KKT", "[docs/rh.md#w-star]").result(wstar.result());
    const bool all_gaps = gap_t.result().is_proven();
    const proof::Extreme& lo = iso ? c1 : c1t;
    const proof::Extreme& hi = iso ? c2 : c2t;
    if (in.has("ratio_lower")) {
        auto c = rep.conclusion("band lower end", "[LWTM2026, abstract; docs/rh.md#gap]")
                     .statement("ratio_lower " + norm + " <= ||w(inf) - w*|| on every instance (the case's C1)")
                     .case_claim("C1 = ratio_lower of the case; the paper's C1 is NOT FOUND");
        if (all_gaps) c.le(cert::exact("ratio_lower", in.number_string("ratio_lower")), {"min ratio (at " + lo.where + ")", lo.value});
        else c.result(gap_t.result());
    }
    if (in.has("ratio_upper")) {
        auto c = rep.conclusion("band upper end", "[LWTM2026, abstract; docs/rh.md#gap]")
                     .statement("||w(inf) - w*|| <= ratio_upper " + norm + " on every instance (the case's C2)")
                     .case_claim("C2 = ratio_upper of the case; the paper's C2 is NOT FOUND");
        if (all_gaps) c.le({"max ratio (at " + hi.where + ")", hi.value}, cert::exact("ratio_upper", in.number_string("ratio_upper")));
        else c.result(gap_t.result());
    }
    auto& band = rep.table("observed ratio band over the certified instances (evidence, not a bound for other data)",
                           {"ratio", "C1 (enclosure of the min)", "C2 (enclosure of the max)"});
    band.add_row({"||w(inf) - w*|| / sqrt(n_-/d)", c1.have ? fmt(c1.value, 8) : "-", c2.have ? fmt(c2.value, 8) : "-"});
    band.add_row({"||w(inf) - w*|| / sqrt(n/d)", c1n.have ? fmt(c1n.value, 8) : "-", c2n.have ? fmt(c2n.value, 8) : "-"});
    band.add_row({"||w(inf) - w*|| / sqrt(n_-/||lambda||_1)", c1t.have ? fmt(c1t.value, 8) : "-", c2t.have ? fmt(c2t.value, 8) : "-"});
    band.add_row({"||w(inf) - w*|| / sqrt(n/||lambda||_1)", c1nt.have ? fmt(c1nt.value, 8) : "-", c2nt.have ? fmt(c2nt.value, 8) : "-"});
    if (!iso && c1.have && c1t.have) {
        // Which normalization stays Theta(1) over the sweep: the spread max / min of each ratio (evidence
        // over these instances only, not a bound; docs/rh.md#covariance).
        auto& spread = rep.table("spread of the ratio over the sweep, per normalization (evidence, not a bound)",
                                 {"normalization", "max / min over the certified instances"});
        spread.add_row({"sqrt(n_-/d)", fmt(c2.value / c1.value, 6)});
        spread.add_row({"sqrt(n_-/||lambda||_1)", fmt(c2t.value / c1t.value, 6)});
        rep.note("spread max/min of the certified ratio over the sweep: to sqrt(n_-/d) in " + fmt(c2.value / c1.value, 4) +
                 ", to sqrt(n_-/||lambda||_1) in " + fmt(c2t.value / c1t.value, 4) +
                 " (evidence over these instances; no statement for other d or data)");
    }

    // Per (n, seed): certified slopes of log gap against log d (consecutive d and end to end).
    auto& sl = ctx.report.table("slopes of log gap vs log d per (n, seed)",
                                {"n", "seed", "consecutive slopes", "end-to-end slope"});
    IntervalD smin, smax;
    bool have_slope = false;
    for (long n : ns)
        for (int f = fractions.empty() ? -1 : 0; f < static_cast<int>(fractions.size()); ++f)
        for (long s = 0; s < seeds; ++s) {
            std::vector<std::pair<long, IntervalD>> pts;
            for (size_t k = 0; k < items.size(); ++k) {
                const GapOutcome& o = out[k];
                if (items[k].n == n && items[k].fraction == f && items[k].seed == seed0 + static_cast<std::uint64_t>(s) &&
                    o.gap.status.is_proven() && o.n_minus > 0 && certainly_positive(o.gap.gap))
                    pts.push_back({items[k].d, o.gap.gap});
            }
            if (pts.size() < 2) continue;
            // slope of log gap against log d from (d0, gap0) to (d1, gap1); nothing when d0 = d1
            const auto slope = [](const std::pair<long, IntervalD>& p0, const std::pair<long, IntervalD>& p1) {
                return loglog_slope(p1.second, p0.second, IntervalD(p1.first), IntervalD(p0.first));
            };
            std::string cons;
            for (size_t k = 1; k < pts.size(); ++k) {
                const auto s = slope(pts[k - 1], pts[k]);
                cons += (s ? fmt(*s, 4) : std::string("-")) + " ";
            }
            const auto e2e_slope = slope(pts.front(), pts.back());
            if (!e2e_slope) continue;
            const IntervalD e2e = *e2e_slope;
            if (!have_slope) {
                smin = smax = e2e;
                have_slope = true;
            } else {
                smin = min(smin, e2e);
                smax = max(smax, e2e);
            }
            sl.add_row({std::to_string(n) + (f >= 0 ? ", n_-/n = " + fractions[f] : std::string()), std::to_string(seed0 + s), cons,
                        fmt(e2e, 6)});
        }
    if (have_slope)
        ctx.report.note("end-to-end slopes of log gap vs log d over all (n, seed): min in " + fmt(smin, 6) + ", max in " +
                        fmt(smax, 6) + (iso ? " (the reconstruction's heuristic predicts -1/2 at fixed eta d)"
                             : " (the reconstruction's heuristic at fixed eta tr Sigma: -1/2 times the slope of log "
                               "||lambda||_1 vs log d)"));

    // Plots: ratio vs d (band over seeds, per n) and gap vs d with a d^-1/2 reference.
    cert::SweepPlot pr;
    pr.title = "certified ||w(inf) - w*|| / " + norm + ": min..max over seeds";
    pr.x_label = "d";
    pr.y_label = "ratio";
    cert::SweepPlot pg;
    pg.title = "certified ||w(inf) - w*||: min..max over seeds";
    pg.x_label = "d";
    pg.y_label = "gap";
    for (const auto& [key, b] : band_nd) {
        pr.add_point("n = " + std::to_string(key.first) + (iso ? "" : ", to " + norm), static_cast<double>(key.second),
                     hull(b.first, b.second));
        if (!iso) {
            const auto& bd = band_nd_d[key];
            pr.add_point("n = " + std::to_string(key.first) + ", to sqrt(n_-/d)", static_cast<double>(key.second),
                         hull(bd.first, bd.second));
        }
        const auto& g = gap_nd[key];
        pg.add_point("n = " + std::to_string(key.first), static_cast<double>(key.second), hull(g.first, g.second));
    }
    if (iso && c1.have) pg.references.push_back({"C1 sqrt(n/2/d), n = " + std::to_string(ns.front()),
                                          mid(c1.value) * std::sqrt(static_cast<double>(ns.front()) / 2), -0.5});
    ctx.report.add_plot(pr);
    ctx.report.add_plot(pg);

    auto& tt = ctx.report.table("timing", {"quantity", "value"});
    tt.add_row({"instances", std::to_string(items.size())});
    tt.add_row({"threads", std::to_string(threads)});
    // The compute time is the sum of the instance times of the records (also for a merged sweep, whose
    // records were computed by the parts); this process's wall time is the merge's for a merged sweep.
    // Labels and note do not depend on merging, so a merged certificate equals the direct run's up to timing.
    tt.add_row({"compute time: sum of instance times (s)", std::to_string(cpu)});
    tt.add_row({"this process's wall time (s; a merged sweep: the merge only)", std::to_string(wall)});
    ctx.report.note("sweep wall time " + std::to_string(wall) + " s in this process (for a merged sweep the merge "
                    "only; the compute time is the sum of instance times in the timing table), " +
                    std::to_string(items.size()) + " instances");
}

}  // namespace

int main(int argc, char** argv) {
    using namespace flowcert::rh_verifiers;
    auto schema = instance_keys(false);
    schema[0].description = "first data seed; seeds seed, seed+1, ..., seed+seeds-1";
    schema.push_back({.name = "seeds", .type = cert::KeyType::integer, .description = "seeds per (n, d)",
                      .constraint = cert::Constraint::positive});
    schema.push_back({.name = "n_values", .type = cert::KeyType::numbers, .description = "sample counts n",
                      .constraint = cert::Constraint::positive});
    schema.push_back({.name = "d_values", .type = cert::KeyType::numbers, .description = "dimensions d (increasing)",
                      .constraint = cert::Constraint::positive});
    schema.push_back({.name = "min_d_over_n", .type = cert::KeyType::integer,
                      .description = "skip (n, d) with d < min_d_over_n * n", .required = false,
                      .constraint = cert::Constraint::positive});
    schema.push_back({.name = "threads", .type = cert::KeyType::integer, .description = "worker threads (default 2)",
                      .required = false, .constraint = cert::Constraint::positive});
    schema.push_back({.name = "negative_fractions", .type = cert::KeyType::numbers,
                      .description = "optional: values of n_-/n in (0, 1]; each instance then has labels +-1 with floor(q n) "
                                     "negatives spread evenly (replaces targets, which must be 'alternating')",
                      .required = false, .constraint = cert::Constraint::positive});
    schema.push_back({.name = "ratio_lower", .type = cert::KeyType::number,
                      .description = "optional: claimed lower end C1 > 0 of the band (C1 = 0 is vacuous)",
                      .required = false, .constraint = cert::Constraint::positive});
    schema.push_back({.name = "ratio_upper", .type = cert::KeyType::number,
                      .description = "optional: claimed upper end of the band", .required = false,
                      .constraint = cert::Constraint::positive});
    cert::VerifierSpec spec{
        .name = "rh/gap_sweep",
        .summary = "sweep of rh/gap over (n, d, seed): certified ratio band [C1, C2] and slopes of log gap vs log d "
                   "(reconstruction of [LWTM2026])",
        .claim = {.paper = "LWTM2026", .locator = "abstract; reconstruction docs/rh.md#gap",
                  .paper_statement = "[VERIFIED abstract, v1] gap Theta(sqrt(n/d)); [seed summary] C1 sqrt(n_-/d) <= "
                                     "||w(inf) - w*|| <= C2 sqrt(n_-/d) (constants NOT FOUND)",
                  .proven_statement = {}},
        .schema = schema,
        .default_precision_bits = 53,
        .validate =
            [](const cert::Case& c) {
                if (c.integer("m") != 1) c.fail("m", "rh/gap_sweep is reconstructed for m = 1 only");
                if (c.has("row_order")) c.fail("row_order", "not a sweep key (n varies)");
                if (c.has("covariance_diagonal")) c.fail("covariance_diagonal", "not a sweep key (d varies)");
                validate_instance(c);
                for (const auto& s : c.number_strings("n_values"))
                    if (s.find_first_not_of("0123456789") != std::string::npos) c.fail("n_values", "integers expected");
                for (const auto& s : c.number_strings("d_values"))
                    if (s.find_first_not_of("0123456789") != std::string::npos) c.fail("d_values", "integers expected");
                if (c.has("negative_fractions")) {
                    if (c.string("targets") != "alternating")
                        c.fail("targets", "with negative_fractions the labels are generated: targets must be 'alternating'");
                    for (const auto& q : c.number_strings("negative_fractions"))
                        if (!certainly_less_equal(IntervalD::from_decimal(q), IntervalD(1)))
                            c.fail("negative_fractions", "values must be in (0, 1]");
                }
            },
        .run = run,
        .sweep = "(n, d, seed)",
    };
    return cert::verifier_main(argc, argv, spec);
}
