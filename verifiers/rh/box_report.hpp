// verifiers/rh/box_report.hpp -- the presentation of rh/box_certificate (docs/rh.md#box-certificate): the box and
// concentration tables, the band plot and the seeded instances beside the band. No mathematics: every enclosure comes
// from flowcert/proofs/rh (certify_box, box_failure_bound, smallest_dimension, run_gap_instance, data_in_box).
#pragma once

#include "common.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace flowcert::rh_verifiers {

inline const std::string kBoxNorm = "sqrt(n_-/tau)";

// What the box statement produced (box_affine.hpp: certify_box).
struct BoxOutcome {
    proof::PatternResult pattern;
    proof::WStarBall ball;
    bool have = false;  // the band is enclosed
    int certified_leaves = 0, boxes_run = 0;
};

inline BoxOutcome box_outcome(const proof::BoxCertificate& bc) {
    BoxOutcome o;
    o.pattern = bc.pattern;
    o.ball = bc.ball;
    o.certified_leaves = static_cast<int>(std::count_if(bc.leaves.begin(), bc.leaves.end(), [](const proof::BoxLeaf& l) { return l.certified; }));
    o.boxes_run = bc.boxes_run;
    o.have = o.ball.status.is_proven() && o.pattern.tail.is_proven();
    return o;
}

// The four terms of delta(d0), the smallest d of this bound, and delta(d) at d0 4^k (concentration.hpp).
inline void concentration_tables(cert::Report& r, int n, const IntervalD& kappa, const IntervalD& eps, const proof::SpectrumFamily& fam,
                                 long long d0, const proof::SpectrumSums& sums0, const proof::BoxProbability& p0, double delta) {
    auto& ct = r.table("concentration terms at d0 (upper ends)", {"term", "exponent or level", "bound"});
    ct.add_row({"d0; tau = tr Sigma_d0, S2 = tr Sigma_d0^2", std::to_string(d0) + "; " + fmt(sums0.trace, 8) + ", " + fmt(sums0.trace_sq, 8), ""});
    ct.add_row({"n e^-s^2 (some G_ii > (1 + kappa) tau)", "s^2 = " + fmt(p0.s2_diag_upper, 6), upper_string(p0.p_diag_upper, 4)});
    ct.add_row({"n e^-x_- (some G_ii < (1 - kappa) tau)", "x_- = " + fmt(p0.x_diag_lower, 6), upper_string(p0.p_diag_lower, 4)});
    ct.add_row({"(n - 1) e^-x_v (some x_j^T Sigma x_j >= V)", "x_v = " + fmt(p0.x_variance, 6), upper_string(p0.p_variance, 4)});
    ct.add_row({"n(n-1)/2 erfc(eps tau / sqrt(2V)) (some |G_ij| > eps tau)", "V / tau^2 = " + fmt(p0.variance_level, 6),
                upper_string(p0.p_offdiag, 4)});
    ct.add_row({"delta(d0)", "", upper_string(p0.delta, 6)});
    const long long dmin = proof::smallest_dimension(n, kappa, eps, fam, delta);
    ct.add_row({"smallest d with delta(d) <= delta (this bound)", dmin < 0 ? "none below 2^52" : std::to_string(dmin), ""});
    auto& dt = r.table("delta(d) for d >= d0 (non-increasing)", {"d", "tau", "delta(d)"});
    for (long long d = d0, k = 0; k < 5; ++k, d *= 4) {
        const proof::SpectrumSums s = proof::spectrum_sums(fam, d);
        dt.add_row({std::to_string(d), fmt(s.trace, 8), upper_string(proof::box_failure_bound(n, kappa, eps, s).delta, 4)});
    }
}

// Instances of a sweep with the same (n, h, c~, covariance), each with its own certificate (rh/gap pipeline):
// an instance whose G / tau is in the box must have its ratio inside the band (evidence of the box proof).
inline void compare_instances(cert::Report& r, const cert::Case& in, const proof::BoxSpec& b, const proof::GdOptions& opt,
                       const BoxOutcome& box, cert::SweepPlot& plot) {
    auto& it = r.table("sweep instances beside the band", {"d", "seed", "in the box", "certified ratio", "inside the band"});
    const long long seeds = in.has("compare_seeds") ? in.integer("compare_seeds") : 1;
    for (const std::string& dv : in.number_strings("compare_d_values"))
        for (long long k = 0; k < seeds; ++k) {
            rh::InstanceSpec s;
            s.seed = static_cast<std::uint64_t>(in.integer("compare_seed") + k);
            s.n = b.n;
            s.d = std::stoll(dv);
            s.m = 1;
            s.labels = b.labels;
            s.eta_d = b.h;  // eta tau (eta_trace)
            s.init = "span";
            s.init_per_trace = true;
            s.init_scale = b.c;
            if (in.has("covariance")) s.covariance.kind = in.string("covariance");
            if (in.has("covariance_alpha")) s.covariance.alpha = in.number_string("covariance_alpha");
            rh::Instance inst;
            const GapOutcome o = run_gap_instance(s, opt, &inst);
            const flowcert::ProofResult member = proof::data_in_box(b, inst);
            const IntervalD ratio = inst.cov.isotropic ? o.gap.ratio_n_minus : o.gap.ratio_n_minus_trace;
            const bool certified = o.gap.status.is_proven();
            std::string inside = "-";
            if (certified && member.is_proven() && box.have) {
                const cert::Check& c =
                    r.evidence("instance d = " + dv + ", seed " + std::to_string(s.seed) + " (in the box): ratio inside the band",
                               "[docs/rh.md#box-certificate]")
                        .statement("a member of the box has its own certified ratio inside the box band")
                        .within({"ratio", ratio}, {"C1 (box)", IntervalD::exact(lower(box.ball.ratio_n_minus))},
                                {"C2 (box)", IntervalD::exact(upper(box.ball.ratio_n_minus))});
                inside = c.status == cert::CheckStatus::proven ? "yes" : "NO";
            }
            it.add_row({dv, std::to_string(s.seed), member.is_proven() ? "yes" : "no: " + member.reason,
                        certified ? fmt(ratio, 8) : "not certified: " + o.gap.status.reason, inside});
            if (certified)
                plot.add_point(member.is_proven() ? "per-instance certified ratio (G / tau in the box)"
                                                  : "per-instance certified ratio (G / tau not in the box)",
                               static_cast<double>(s.d), ratio);
        }
}

// The box table and the band plot (with the compared instances when the case lists them).
inline void box_tables(cert::Report& r, const cert::Case& in, const proof::BoxSpec& b, const proof::GdOptions& opt, const BoxOutcome& box,
                       long long d0) {
    auto& t = r.table("box certificate", {"quantity", "value"});
    t.add_row({"n, n_-", std::to_string(b.n) + ", " + std::to_string(b.n / 2)});
    t.add_row({"box: kappa, eps; h = eta tau, c~ = c tau", b.kappa + ", " + b.eps + "; " + b.h + ", " + b.c});
    t.add_row({"K / tail step", std::to_string(box.pattern.K) + " / " + std::to_string(box.pattern.tail_step)});
    t.add_row({"sub-boxes: certified / run (affine-in-E GD)", std::to_string(box.certified_leaves) + " / " + std::to_string(box.boxes_run)});
    if (box.have) {
        t.add_row({"certified ratio band [C1, C2] on the box", fmt(box.ball.ratio_n_minus, 8)});
        t.add_row({"witness offset t, radius R, distance D", fmt(box.ball.t, 6) + ", " + fmt(box.ball.radius, 6) + ", " + fmt(box.ball.dist, 6)});
    }
    cert::SweepPlot plot;
    plot.title = "certified ratio band on the box (d >= d0) and per-instance certified ratios";
    plot.x_label = "d";
    plot.y_label = "||w(inf) - w*|| / " + kBoxNorm;
    plot.log_y = false;
    if (box.have)
        for (long long d = d0, k = 0; k < 5; ++k, d *= 4)
            plot.add_point("certified band [C1, C2] (every d >= d0, probability >= 1 - delta)", static_cast<double>(d), box.ball.ratio_n_minus);
    if (in.has("compare_d_values")) compare_instances(r, in, b, opt, box, plot);
    r.add_plot(plot);
}

}  // namespace flowcert::rh_verifiers
