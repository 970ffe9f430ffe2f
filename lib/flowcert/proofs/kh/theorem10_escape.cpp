// The proof steps of kh/theorem10_escape [KH2025, Thm 10, Lemma 25]; see theorem10_escape.hpp.
#include "flowcert/proofs/kh/theorem10_escape.hpp"

#include <flowcert/proofs/kh/flow_tools.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace flowcert::proofs::kh {

OneBlockSupport one_block_support(const ZeroPattern<IntervalD>& zp, int d, int D) {
    const int P = d * D;
    OneBlockSupport s;
    bool one_block = zp.status == ProofStatus::proven && zp.inside_uniqueness_box &&
                     static_cast<int>(zp.zero_indices.size()) == P - D;
    if (one_block) {
        for (int k = 0; k < d && s.kstar < 0; ++k)
            if (certainly_nonzero(zp.u(k))) s.kstar = k;
        for (int f = 0; f < D && s.kstar >= 0; ++f) one_block = one_block && certainly_nonzero(zp.u(f * d + s.kstar));
        one_block = one_block && s.kstar >= 0;
    }
    s.proven = one_block;
    return s;
}

ode::Result<IntervalD> ncf_tube_to_radius(const taylor::VectorField& field, const std::vector<IntervalD>& params,
                                          const std::vector<IntervalD>& w0, const IntervalD& R, double horizon,
                                          const ode::Options& opt) {
    ode::Result<IntervalD> nr;
    for (int tries = 0; tries < 60; ++tries) {
        nr = ode::integrate<IntervalD>(field, params, w0, IntervalD::exact(horizon), {}, opt, 53);
        if (!nr.final_box.empty() && certainly_less_equal(R, norm2(nr.final_box))) break;
        if (!nr.ok()) break;
        horizon *= 1.5;
    }
    // If the run ended on a failure near blow-up, the set at nr.time is still a valid enclosure; bisect the horizon
    // down so that the run ends successfully (a clean state at a known time).
    if (!nr.ok() && !nr.final_box.empty()) {
        double lo = 0, hi = mid(nr.time);
        for (int k = 0; k < 40; ++k) {
            const double m = lo + (hi - lo) / 2;
            auto r2 = ode::integrate<IntervalD>(field, params, w0, IntervalD::exact(m), {}, opt, 53);
            if (r2.ok() && certainly_less_equal(R, norm2(r2.final_box))) {
                nr = r2;
                break;
            }
            if (r2.ok()) lo = m; else hi = m;
            nr = r2;
        }
    }
    return nr;
}

ProofResult ncf_tube_reaches(const ode::Result<IntervalD>& nr, const IntervalD& R) {
    if (nr.ok() && certainly_less_equal(R, norm2(nr.final_box)))
        return ProofResult::proven("||phi(t1, w0)|| >= ncf_radius at t1 = " + to_string(nr.time, 15) + " (" +
                                   std::to_string(nr.steps) + " steps)");
    return ProofResult::not_proven(nr.ok() ? "the tube ends at t = " + to_string(nr.time, 15) + " with ||phi|| in " +
                                                 to_string(norm2(nr.final_box), 6) + ", not certainly >= ncf_radius"
                                           : std::string("integration: ") + ode::to_string(nr.status) + ": " + nr.reason);
}

IntervalD BlockBlowup::bracket() const {
    return IntervalD::bounds(lower(lo), has_hi ? upper(hi) : std::numeric_limits<double>::infinity());
}

std::vector<BlockBlowup> block_blowup_brackets(const std::vector<IntervalD>& state, const IntervalD& t1,
                                               const nets::Vec<IntervalD>& b, int d, int D, int L) {
    const IntervalD LL2 = IntervalD(L * (L - 2));
    std::vector<BlockBlowup> out(static_cast<std::size_t>(d));
    for (int k = 0; k < d; ++k) {
        BlockBlowup& o = out[static_cast<std::size_t>(k)];
        std::vector<IntervalD> blk;
        IntervalD prod = IntervalD(1);
        for (int f = 0; f < D; ++f) {
            blk.push_back(state[f * d + k]);
            prod *= state[f * d + k];
        }
        o.r = norm2(blk);
        o.sup_N = abs(b(k)) / pow(sqrt(IntervalD(D)), D);
        // Lower bound with sup r_k (valid also when the enclosure of r_k touches 0).
        if (upper(o.r) > 0) o.lo = t1 + IntervalD(1) / (LL2 * o.sup_N * pow(IntervalD::exact(upper(o.r)), L - 2));
        o.r_positive = certainly_positive(o.r);
        if (o.r_positive) {
            o.N_dir = b(k) * prod / pow(o.r, D);
            if (certainly_positive(o.N_dir)) {
                o.hi = t1 + IntervalD(1) / (LL2 * o.N_dir * pow(o.r, L - 2));
                o.has_hi = true;
            }
        } else if (!(upper(o.r) > 0)) {
            // r_k = 0 exactly: the block stays 0 (zero-preserving), T_k = +inf.
            o.lo = IntervalD::bounds(std::numeric_limits<double>::max(), std::numeric_limits<double>::max());
        }
    }
    return out;
}

bool blows_up_in_orthant(const std::vector<BlockBlowup>& blocks, const std::vector<IntervalD>& state,
                         const linalg::IVector<IntervalD>& wstar, int kstar, int d, int D) {
    bool orthant = blocks[static_cast<std::size_t>(kstar)].has_hi;
    for (int f = 0; f < D; ++f) {
        const IntervalD a = state[f * d + kstar], ws = wstar(f * d + kstar);
        orthant = orthant && certainly_nonzero(a) && ((lower(a) > 0) == (lower(ws) > 0));
    }
    return orthant;
}

WindowSup window_sup_distance(const ode::Result<IntervalD>& run, const std::vector<IntervalD>& outs,
                              const std::vector<IntervalD>& tj, const std::vector<IntervalD>& rho,
                              const linalg::IVector<IntervalD>& wstar, const IntervalD& window,
                              taylor::TaylorEvaluator<IntervalD>& jacobian) {
    const int G = static_cast<int>(outs.size());
    const int P = static_cast<int>(wstar.size());
    WindowSup w;
    std::size_t piece = 0;
    for (int j = 0; j < G; ++j) {
        std::vector<IntervalD> e(P);
        for (int q = 0; q < P; ++q) e[q] = run.outputs[j].box[q] - rho[j] * wstar(q);
        const IntervalD en = norm2(e);
        // the lower bound of the sup only from times certainly inside the window (the ends may lie just outside)
        if (lower(tj[j]) >= -lower(window) && upper(tj[j]) <= lower(window)) w.lo = std::max(w.lo, lower(en));
        if (j + 1 == G) {
            w.hi = std::max(w.hi, upper(en));
            break;
        }
        std::vector<IntervalD> Z(P);
        for (int q = 0; q < P; ++q) Z[q] = hull(rho[j] * wstar(q), rho[j + 1] * wstar(q));
        // Every tube piece overlapping [tau_j, tau_{j+1}] (over-inclusion only enlarges Z).
        const double ta = lower(outs[j]), tb = upper(outs[j + 1]);
        while (piece < run.tube.size() && upper(run.tube[piece].t1) < ta) ++piece;
        for (std::size_t pc = piece; pc < run.tube.size() && lower(run.tube[pc].t0) <= tb; ++pc)
            for (int q = 0; q < P; ++q) Z[q] = hull(Z[q], run.tube[pc].box[q]);
        for (int q = 0; q < P; ++q) Z[q] = hull(hull(Z[q], run.outputs[j].box[q]), run.outputs[j + 1].box[q]);
        const double l = jacobian_norm_upper(jacobian, Z);
        const IntervalD fac = exp(IntervalD::exact(l) * (tj[j + 1] - tj[j]));
        w.hi = std::max(w.hi, upper(en * fac));
    }
    return w;
}

EscapeWindowPoint escape_window_point(const EscapeWindowSetting& in, const IntervalD& delta, bool keep_path) {
    EscapeWindowPoint r;
    const int P = static_cast<int>(in.w0.size());
    std::vector<IntervalD> x0(static_cast<std::size_t>(P));
    for (int j = 0; j < P; ++j) x0[j] = delta * in.w0[j];
    const IntervalD dL2 = pow(delta, in.L - 2);
    // Non-rigorous horizon: the escape happens near T(w0)/delta^(L-2) (a little past it costs stiff steps at the
    // saddle and beyond, so the horizon grows only when the escape was not reached).
    double horizon = mid(in.blowup_time / dL2) * 1.001 + 3;
    r.escape = refined_escape<IntervalD>(*in.loss_field, in.loss_params, x0, horizon, in.escape_radius, in.options, 53, 3, 32);
    for (int tries = 0; tries < 4 && !r.escape.ok; ++tries) {
        horizon = horizon * 1.5 + 5;
        r.escape = refined_escape<IntervalD>(*in.loss_field, in.loss_params, x0, horizon, in.escape_radius, in.options, 53, 3, 32);
    }
    if (!r.escape.ok) return r;
    const IntervalD Tesc = IntervalD::bounds(r.escape.lo, r.escape.hi);
    r.shift = mid(Tesc) - mid(in.ray_time_at_radius);
    // Output times tau_j (exact doubles) from tau_0 <= s - T~ to tau_last >= s + T~ exactly, so the pieces
    // [tau_j, tau_j+1] cover the whole window; p is evaluated on the exact interval tau_j - s.
    const std::vector<double> taus = window_times(r.shift, in.window, in.grid);
    std::vector<IntervalD> outs, tj;
    for (double t : taus) {
        outs.push_back(IntervalD::exact(t));
        tj.push_back(outs.back() - IntervalD::exact(r.shift));
    }
    r.stage = EscapeWindowPoint::Stage::window;
    if (!(taus.front() > 0)) return r;
    ode::Options o2 = in.options;
    o2.record_tubes = true;
    const auto run = ode::integrate<IntervalD>(*in.loss_field, in.loss_params, x0, outs.back(), outs, o2, 53);
    r.stage = EscapeWindowPoint::Stage::integration;
    r.integration_reason = run.reason;
    if (!run.ok() || run.outputs.size() != taus.size()) return r;
    // p(t_j) = rho_p(t_j) w*; e_j = psi(s + t_j) - p(t_j).
    const int G = static_cast<int>(taus.size());
    std::vector<IntervalD> rho(static_cast<std::size_t>(G));
    bool rok = true;
    for (int j = 0; j < G; ++j) rok = rok && in.ray->radius_at(tj[j], rho[j]);
    r.stage = EscapeWindowPoint::Stage::path;
    if (!rok) return r;
    taylor::TaylorEvaluator<IntervalD> jacobian(*in.loss_field, in.loss_params);
    r.sup = window_sup_distance(run, outs, tj, rho, in.wstar, in.window, jacobian);
    if (keep_path)
        for (int j = 0; j < G; ++j) {
            r.psi_norms.push_back(norm2(run.outputs[j].box));
            r.rho.push_back(rho[j]);
        }
    r.stage = EscapeWindowPoint::Stage::done;
    r.steps = run.steps;
    for (double t : taus) r.t.push_back(t - r.shift);
    return r;
}

IntervalD ncf_value_at(const nets::Ncf<IntervalD>& ncf, const std::vector<IntervalD>& w0) {
    nets::Vec<IntervalD> v(static_cast<Eigen::Index>(w0.size()));
    for (std::size_t j = 0; j < w0.size(); ++j) v(static_cast<Eigen::Index>(j)) = w0[j];
    return ncf.gradient(v).value;
}

double ncf_horizon_guess(const IntervalD& Nw0, int L) { return 1.0 / std::max(1e-300, mid(IntervalD(L * (L - 2)) * Nw0)); }

Lemma25Window lemma25_window(const IntervalD& Nstar, const IntervalD& Nw0, int L) {
    const IntervalD LL2 = IntervalD(L * (L - 2));
    return {IntervalD(1) / (LL2 * Nstar), IntervalD(1) / (LL2 * Nw0)};
}

IntervalD blowup_time(const BlockBlowup& b) { return hull(b.lo, b.hi); }

EscapeScaling escape_scaling(const IntervalD& delta, double lo, double hi, int L, const IntervalD& Tw0, const IntervalD& C) {
    const IntervalD dL2 = pow(delta, L - 2);
    EscapeScaling e;
    e.scaled = dL2 * IntervalD::bounds(lo, hi);
    e.diff = e.scaled - Tw0;
    e.distance = abs(e.diff);
    e.bound = C * dL2;
    return e;
}

double exhibited_constant(const IntervalD& distance, const IntervalD& delta, const IntervalD& kappa) {
    return upper(distance / exp(kappa * log(delta)));
}

IntervalD power_law_bound(double C, const IntervalD& delta, const IntervalD& kappa) {
    return IntervalD::exact(C) * exp(kappa * log(delta));
}

}  // namespace flowcert::proofs::kh
