// The steps of the trapping argument [docs/bf.md, "Proof of (c)", steps 2-6]. See trap_steps.hpp.
#include "flowcert/proofs/bf/trap_steps.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>


namespace flowcert::proofs::bf {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
IntervalD point(double v) { return IntervalD::bounds(v, v); }
IntervalD infinite_bound() { return IntervalD::bounds(0.0, kInf); }
IntervalD nonneg_upper(const IntervalD& x) { return IntervalD::bounds(0.0, std::max(0.0, upper(x))); }
}  // namespace

IntervalD weight_drift(const IntervalD& s, const IntervalD& b, const IntervalD& G) {
    const IntervalD bplus = IntervalD::bounds(0.0, std::max(0.0, upper(b)));
    return s * expm1(G) / sqrt(IntervalD(2)) + sqrt(bplus / IntervalD(2)) * G;
}

IntervalD a_upper(const IntervalD& s, const IntervalD& b, const IntervalD& G) {
    const IntervalD bplus = IntervalD::bounds(0.0, std::max(0.0, upper(b)));
    return s * exp(G) / sqrt(IntervalD(2)) + sqrt(bplus / IntervalD(2));
}

double crossing_time_shrinking(const IntervalD& A0, const IntervalD& B, const IntervalD& Z) {
    const IntervalD disc = sqr(A0) - IntervalD(2) * B * Z;
    if (!certainly_positive(A0) || !certainly_positive(disc)) return kInf;
    return upper(IntervalD(2) * Z / (A0 + sqrt(disc)));
}

// ---- residuals ------------------------------------------------------------------------------------

namespace {
// Delta_k(Gamma) = |x_k| S2 (e^{2 Gamma} - 1) / 2 bounds |h_P(x_k)(t) - h_P(x_k)(T)| (step 4).
IntervalD p_output_drift(const TrapBox& box, std::size_t k, const IntervalD& G) {
    return box.data().xnorm[k] * box.S2() * expm1(IntervalD(2) * G) / IntervalD(2);
}
// |h_S(x_k)(t)| <= |x_k| S2S e^{2 Gamma} / 2, and h_S(x_k) <= 0 (a_j < 0) (step 3).
IntervalD s_output_bound(const TrapBox& box, std::size_t k, const IntervalD& G) {
    return box.data().xnorm[k] * box.S2S() * exp(IntervalD(2) * G) / IntervalD(2);
}
}  // namespace

IntervalD residual_step4(const TrapBox& box, std::size_t k, const IntervalD& G) {
    const IntervalD d = p_output_drift(box, k, G);
    const auto& y = box.data().y;
    return IntervalD::bounds(lower(box.hP(k) - d - box.CN(k) - s_output_bound(box, k, G) - negligible_output_bound(box, k, G) - y[k]),
                             upper(box.hP(k) + d - y[k]));
}

IntervalD residual_step5(const TrapBox& box, std::size_t k, const IntervalD& G) {
    // For every t >= T and beta = sum_{P, S} a_j w_j, with p = h - X beta on the data, E = |v_R|^2 / (2n) + q(p),
    // v = X(beta - beta*) + p, v_R its part in range(X), so |v_R|^2 <= 2n (E(T) + qneg), qneg >= sup -q(p), and
    // r = r* + v_R + <p, r*/|r*|> r*/|r*|. With the leverage lev_k = x_k^T H^{-1} x_k (<= |x_k|^2 / lambda_min),
    // max {<x_k, delta'> : delta'^T H delta' <= 2 (E(T) + qneg)} = sqrt(2 lev_k (E(T) + qneg)) (Cauchy-Schwarz in
    // the H inner product); the smaller of the two forms is used.
    const ThreePointData& d = box.data();
    const IntervalD e2 = IntervalD(2) * (nonneg_upper(box.E_T()) + q_neg(box, G));
    IntervalD dv = d.xnorm[k] * sqrt(e2 / d.lambda_min);
    const IntervalD dl = sqrt(e2 * nonneg_upper(d.lev[k]));
    if (upper(dl) < upper(dv)) dv = dl;
    const IntervalD dd = dv + perturbation_norm(box, G);
    return IntervalD::bounds(lower(d.rstar[k] - dd), upper(d.rstar[k] + dd));
}

IntervalD residual_bound(const TrapBox& box, std::size_t k, const IntervalD& G) {
    if (box.unclassified() != 0) throw std::logic_error("the trap's residual bounds need every neuron at T classified");
    const IntervalD a = residual_step4(box, k, G), b = residual_step5(box, k, G);
    IntervalD out;
    if (!intersect(a, b, out))
        throw std::logic_error("internal inconsistency in the trap (docs/bf.md step 5): the step-4 enclosure " + to_string(a, 17) +
                               " and the step-5 enclosure " + to_string(b, 17) + " of r_" + std::to_string(k + 1) +
                               "(t) do not intersect at Gamma = " + to_string(G, 17));
    return out;
}

IntervalD residual_margin(const TrapBox& box, std::size_t k, const IntervalD& G) { return -point(upper(residual_bound(box, k, G))); }

IntervalD gradient_bound(const TrapBox& box, const IntervalD& G) {
    const ThreePointData& d = box.data();
    IntervalD g2(0);
    for (std::size_t i = 0; i < 2; ++i) {
        IntervalD gi(0);
        for (std::size_t k = 0; k < 3; ++k) gi += d.X[k][i] * residual_bound(box, k, G);
        g2 += sqr(d.inv_n * gi);
    }
    return IntervalD::bounds(0.0, upper(sqrt(g2)));
}

// ---- output perturbation ----------------------------------------------------------------------

IntervalD perturbation(const TrapBox& box, std::size_t k, const IntervalD& G) {
    // N_k outputs and S_i kinks until T1 (steps 2, 3(e)); Q outputs for all t >= T (step 3Q(c)), not in beta
    IntervalD v = nonneg_upper(box.CN(k)) + negligible_output_bound(box, k, G);
    for (const SNeuron& q : box.S()) {
        if (q.i != k) continue;
        const double zneg = std::max(0.0, -lower(q.z[k]));
        v += nonneg_upper(a_upper(q.s, q.b, G) * point(zneg));
    }
    return nonneg_upper(v);
}

IntervalD perturbation_norm(const TrapBox& box, const IntervalD& G) {
    IntervalD p2(0);
    for (std::size_t k = 0; k < 3; ++k) p2 += sqr(perturbation(box, k, G));
    return nonneg_upper(sqrt(p2));
}

IntervalD q_max(const TrapBox& box, const IntervalD& G) {
    IntervalD p2(0), pr(0);
    for (std::size_t k = 0; k < 3; ++k) {
        const IntervalD p = perturbation(box, k, G);
        p2 += sqr(p);
        pr += p * abs(box.data().rstar[k]);
    }
    return nonneg_upper((p2 + IntervalD(2) * pr) * box.data().inv_n / IntervalD(2));
}

IntervalD q_neg(const TrapBox& box, const IntervalD& G) {
    IntervalD pr(0);
    for (std::size_t k = 0; k < 3; ++k) pr += perturbation(box, k, G) * abs(box.data().rstar[k]);
    return nonneg_upper(pr * box.data().inv_n);
}

IntervalD beta_distance(const TrapBox& box, const IntervalD& G) {
    const ThreePointData& d = box.data();
    return sqrt(IntervalD(2) * (nonneg_upper(box.E_T()) + q_neg(box, G)) / d.lambda_min) +
           perturbation_norm(box, G) / sqrt(IntervalD(3) * d.lambda_min);
}

// ---- step 2 ---------------------------------------------------------------------------------------

double pinning_time_one(const TrapBox& box, std::size_t q, const IntervalD& G) {
    const NNeuron& nn = box.N()[q];
    if (upper(nn.zpos) <= 0) return 0.0;
    const IntervalD r = residual_margin(box, nn.k, G);
    if (!certainly_positive(r)) return kInf;
    // while z_jk > 0: z_jk' = -|a_j| |r_k| |x_k|^2 / n <= -|a_j| rho_k |x_k|^2 / n, |a_j| >= speed (Lemma 1)
    const IntervalD rate = r * box.data().inv_n * sqr(box.data().xnorm[nn.k]);
    const double t1 = certainly_positive(nn.speed) ? upper(nn.zpos / (nn.speed * rate)) : kInf;
    return std::min(t1, pinning_time_shrinking(box, q, G));
}

double pinning_time_shrinking(const TrapBox& box, std::size_t q, const IntervalD& G) {
    // step 2': while z_jk > 0, d|a_j|/dt = -|r_k| z_jk / n >= -B, B = sup |r_k| z_jk(T)^+ / n (z_jk non-increasing),
    // so |a_j(t)| >= A0 - B (t - T), A0 = |a_j(T)|, and z_jk reaches 0 by the crossing_time_shrinking bound with
    // Z = z_jk(T)^+ n / (rho_k |x_k|^2)
    const NNeuron& nn = box.N()[q];
    const IntervalD r = residual_margin(box, nn.k, G);
    if (!certainly_positive(r)) return kInf;
    const IntervalD zp = point(upper(nn.zpos));
    const IntervalD B = point(mag(residual_bound(box, nn.k, G))) * zp * box.data().inv_n;
    return crossing_time_shrinking(nn.a_lo, B, zp / (r * box.data().inv_n * sqr(box.data().xnorm[nn.k])));
}

IntervalD pinning_time(const TrapBox& box, const IntervalD& G) {
    IntervalD t(0);
    for (std::size_t q = 0; q < box.N().size(); ++q) {
        const double tq = pinning_time_one(box, q, G);
        if (!std::isfinite(tq)) return infinite_bound();
        t = IntervalD::bounds(0.0, std::max(upper(t), tq));
    }
    return t;
}

ProofResult pinning_premise(const TrapBox& box, const IntervalD& G) {
    if (box.N().empty()) return ProofResult::proven("no N_k neuron at T (vacuous)");
    bool have_speed = false;
    IntervalD min_speed;
    std::size_t n_no_speed = 0;
    for (std::size_t q = 0; q < box.N().size(); ++q) {
        const NNeuron& nn = box.N()[q];
        if (certainly_positive(nn.speed)) {
            min_speed = have_speed ? min(min_speed, nn.speed) : nn.speed;
            have_speed = true;
        } else {
            ++n_no_speed;
        }
        if (upper(nn.zpos) > 0 && !certainly_positive(nn.speed) && !std::isfinite(pinning_time_shrinking(box, q, G)))
            return ProofResult::not_proven("neuron " + std::to_string(nn.index) + ": z_jk(T)^+ <= " + format_g(upper(nn.zpos)) +
                                           ", |P_perp w|^2 + (a^2 - |w|^2)(0) not > 0 and |a_j(T)| >= " + format_g(lower(nn.a_lo)) +
                                           " does not outlast the pinning (step 2', A0^2 > 2 B Z fails or r_k not certainly < 0)");
    }
    return ProofResult::proven(
        (have_speed ? "|a_j(t)| >= sqrt(|P_perp w_j(T)|^2 + (a_j^2 - |w_j|^2)(0)) >= " + to_string(min_speed, 6) : std::string("no Lemma 1 bound")) +
        (n_no_speed ? "; " + std::to_string(n_no_speed) + " neuron(s) by step 2' (|a_j| >= |a_j(T)| - B (t - T))" : std::string("")) +
        "; tau_pin <= " + format_g(upper(pinning_time(box, G))));
}

// ---- step 3 ---------------------------------------------------------------------------------------

IntervalD s_drift_lower(const TrapBox& box, std::size_t i, const IntervalD& G) {
    const std::size_t o = 2 - i;
    const auto& gram = box.data().gram;
    const IntervalD c = residual_bound(box, 1, G) * gram[i][1] + residual_bound(box, o, G) * gram[i][o];
    return point(lower(c));
}

IntervalD s_margin(const TrapBox& box, const IntervalD& G, std::size_t* arg) {
    // A neuron already crossed at T (z_ji(T) >= 0) needs sample i' only: z_ji stays >= 0 (step 3(d)), so
    // z_j2 = alpha_i z_ji + alpha_i' z_ji' >= alpha_i' z_ji' > 0 (step 0).
    double best = kInf;
    for (const SNeuron& q : box.S()) {
        const IntervalD d = weight_drift(q.s, q.b, G);
        const bool crossed = lower(q.z[q.i]) >= 0;
        for (std::size_t k : {std::size_t(1), 2 - q.i}) {
            if (k == 1 && crossed) continue;
            const double v = lower(q.z[k] - box.data().xnorm[k] * d);
            if (v < best) {
                best = v;
                if (arg) *arg = q.index;
            }
        }
    }
    return point(best);
}

IntervalD s_speed_lower(const TrapBox& box, std::size_t qi, const IntervalD& G) {
    // a^2 = |w|^2 + b_j >= (z_k / |x_k|)^2 + b_j (Cauchy-Schwarz) on the samples the neuron stays active on
    const SNeuron& q = box.S()[qi];
    const IntervalD d = weight_drift(q.s, q.b, G);
    double best = 0;
    for (std::size_t k : {std::size_t(1), 2 - q.i}) {
        const IntervalD zl = point(lower(q.z[k] - box.data().xnorm[k] * d));
        if (!certainly_positive(zl)) continue;
        best = std::max(best, lower(zl / box.data().xnorm[k]));
    }
    const IntervalD v = sqr(point(best)) + point(lower(q.b));
    return certainly_positive(v) ? point(lower(sqrt(point(lower(v))))) : IntervalD(0);
}

IntervalD s_crossing_time(const TrapBox& box, const IntervalD& G) {
    IntervalD t(0);
    for (std::size_t qi = 0; qi < box.S().size(); ++qi) {
        const SNeuron& q = box.S()[qi];
        const double zneg = std::max(0.0, -lower(q.z[q.i]));
        if (zneg == 0) continue;
        const IntervalD c = s_drift_lower(box, q.i, G);
        const IntervalD al = s_speed_lower(box, qi, G);
        if (!certainly_positive(c) || !certainly_positive(s_margin(box, G))) return infinite_bound();
        double tq = kInf;
        // (i) |a_j| >= a_lo on the way: z_ji' >= a_lo c_lo / n.
        if (certainly_positive(al)) tq = upper(point(zneg) / (al * c * box.data().inv_n));
        // (ii) step 3(d'): while z_ji < 0, d|a_j|/dt >= -|w_j| |g| - |r_i| z_ji(T)^- / n and |w_j| <= s_j e^{Gamma(t)},
        // so |a_j(t)| >= A0 - B (t - T), A0 = |a_j(T)| - s_j (e^Gamma - 1), B = sup |r_i| z_ji(T)^- / n; z_ji reaches 0
        // by the crossing_time_shrinking bound with Z = z_ji(T)^- n / c_lo.
        const IntervalD A0 = point(mig(q.a)) - q.s * (exp(G) - IntervalD(1));
        const IntervalD B = point(mag(residual_bound(box, q.i, G))) * point(zneg) * box.data().inv_n;
        tq = std::min(tq, crossing_time_shrinking(A0, B, point(zneg) / (c * box.data().inv_n)));
        if (!std::isfinite(tq)) return infinite_bound();
        t = IntervalD::bounds(0.0, std::max(upper(t), tq));
    }
    return t;
}

IntervalD final_regime_time(const TrapBox& box, const IntervalD& G) {
    const IntervalD a = pinning_time(box, G), b = s_crossing_time(box, G);
    return IntervalD::bounds(0.0, std::max(upper(a), upper(b)));
}

bool early(const TrapBox& box) {
    for (const NNeuron& nn : box.N())
        if (upper(nn.zpos) > 0) return true;
    return !box.S().empty();
}

// ---- step 3Q ---------------------------------------------------------------------------------------

IntervalD negligible_norm_bound(const IntervalD& s, const IntervalD& G) {
    // step 3Q(b): for a_j < 0, d|theta_j|^2/dt = (4 |a_j| / n) sum_k r_k sigma(z_jk) (any selection), and with r_1, r_3 < 0
    // that sum is <= max(n <w_j, g>, 0): if z_j2 >= 0 the inactive samples are extreme ones, whose terms r_k z_jk > 0 are
    // left out of n <w_j, g> = sum_k r_k z_jk; if z_j2 < 0 at most one extreme sample is active and the sum is <= 0.
    // So d|theta_j|/dt <= |theta_j| |g| (2 |a_j| |w_j| <= |theta_j|^2).
    return nonneg_upper(s * exp(G));
}

IntervalD negligible_output_bound(const TrapBox& box, std::size_t k, const IntervalD& G) {
    if (box.Q().empty()) return IntervalD(0);
    // a_j sigma(z_jk) in [-|a_j| |w_j| |x_k|, 0], |a_j| |w_j| <= |theta_j|^2 / 2 <= s_j^2 e^{2 Gamma} / 2
    const IntervalD e = negligible_norm_bound(IntervalD(1), G);
    return nonneg_upper(box.data().xnorm[k] * box.S2Q() * sqr(e) / IntervalD(2));
}

ProofResult negligible_premise(const TrapBox& box, const IntervalD& G) {
    if (box.Q().empty()) return ProofResult::proven("no Q neuron at T (vacuous)");
    if (!certainly_positive(box.data().rstar[1])) return ProofResult::not_proven("r*_2 not certainly > 0 (step 3Q needs it)");
    for (std::size_t i : {std::size_t(0), std::size_t(2)})
        if (!certainly_positive(residual_margin(box, i, G)))
            return ProofResult::not_proven("r_" + std::to_string(i + 1) + "(t) not certainly < 0 in the region: sup <= " +
                                           format_g(upper(residual_bound(box, i, G))));
    return ProofResult::proven("r_1, r_3 < 0 and r*_2 > 0 for all t >= T in the region");
}

IntervalD lojasiewicz_constant(const TrapBox& box, const IntervalD& G) {
    const ThreePointData& d = box.data();
    const IntervalD A = a_min(box, G);
    if (!certainly_positive(A)) return infinite_bound();
    IntervalD K = IntervalD(1) / (IntervalD(2) * d.lambda_min * A);
    if (box.Q().empty()) return nonneg_upper(K);
    if (!negligible_premise(box, G).is_proven()) return infinite_bound();
    // D_min: in a mixed pattern (sign z_1 != sign z_3) D_j = -(1/n)(r_i x_i + eta r_2 x_2), i the active extreme sample,
    // eta in [0, 1], so |D_j| >= |r_i| |det(x_i, x_2)| / (n |x_2|) (distance of r_i x_i to the line of x_2)
    double dmin_lo = kInf;
    for (std::size_t i : {std::size_t(0), std::size_t(2)})
        dmin_lo = std::min(dmin_lo, lower(residual_margin(box, i, G) * abs(d.cross_middle[i]) * d.inv_n / d.xnorm[1]));
    const IntervalD dmin = point(dmin_lo);
    if (!certainly_positive(dmin)) return infinite_bound();
    // phi_j = a_j sum_k r*_k sigma(z_jk) <= c_phi |a_j| |w_j|, c_phi = r*_2 max(alpha_1 |x_1|, alpha_3 |x_3|) (zero unless mixed)
    const IntervalD cphi = point(upper(d.rstar[1])) * max(abs(d.alpha1) * d.xnorm[0], abs(d.alpha3) * d.xnorm[2]);
    // kappa2 = 1 + Phi_max / (2 |r*|^2): q(Phi) = (Phi^2 / |r*|^2 + 2 Phi) / (2n) <= kappa2 Phi / n for 0 <= Phi <= Phi_max
    IntervalD r2(0);
    for (std::size_t k = 0; k < 3; ++k) r2 += sqr(d.rstar[k]);
    const IntervalD phimax = cphi * box.S2Q() * sqr(negligible_norm_bound(IntervalD(1), G)) / IntervalD(2);
    const IntervalD kappa2 = IntervalD(1) + phimax / (IntervalD(2) * r2);
    const IntervalD KQ = kappa2 * cphi * d.inv_n / sqr(dmin);  // Phi/n <= c_phi / (n D_min^2) sum_Q |theta_j'|^2
    return IntervalD::bounds(0.0, std::max(upper(K), upper(KQ)));
}

IntervalD negligible_tail(const TrapBox& box, const IntervalD& G) {
    if (box.Q().empty()) return IntervalD(0);
    const IntervalD K = lojasiewicz_constant(box, G), A = a_min(box, G);
    if (!std::isfinite(upper(K)) || !certainly_positive(A)) return infinite_bound();
    return nonneg_upper(IntervalD(2) * sqrt(K * q_max(box, G) / A));
}

// ---- step 4 ---------------------------------------------------------------------------------------

IntervalD p_margin(const TrapBox& box, const IntervalD& G, std::size_t* arg) {
    double best = kInf;
    for (const PNeuron& p : box.P()) {
        const IntervalD d = weight_drift(p.s, p.b, G);
        for (std::size_t k = 0; k < 3; ++k) {
            const double v = lower(p.z[k] - box.data().xnorm[k] * d);
            if (v < best) {
                best = v;
                if (arg) *arg = p.index;
            }
        }
    }
    if (box.P().empty()) best = 0;
    return point(best);
}

// ---- step 6 ---------------------------------------------------------------------------------------

IntervalD a_min_moving(const TrapBox& box, const IntervalD& G) {
    const IntervalD e = expm1(G);
    IntervalD B(0);
    for (const PNeuron& p : box.P()) {
        const IntervalD lo = abs(p.a) - p.s * e;
        if (certainly_positive(lo)) B += sqr(point(lower(lo)));
    }
    return point(lower(B));
}

IntervalD a_min_balanced(const TrapBox& box, const IntervalD& G) {
    // sum_P a_j^2 >= sum_P |a_j| |w_j| + sum_P b_j / 2 >= |beta_P| + sum_P b_j / 2 (Lemma 1)
    // >= |beta*| - |beta - beta*| - |beta_S| + sum_P b_j / 2, |beta_S| <= S2S e^{2 Gamma} / 2
    const IntervalD v = box.data().beta_star_norm - beta_distance(box, G) - box.S2S() * exp(IntervalD(2) * G) / IntervalD(2) +
                        box.bsum_P() / IntervalD(2);
    return certainly_positive(v) ? point(lower(v)) : IntervalD(0);
}

IntervalD a_min(const TrapBox& box, const IntervalD& G) {
    const IntervalD a = a_min_moving(box, G), b = a_min_balanced(box, G);
    return lower(a) >= lower(b) ? a : b;
}

IntervalD gamma_star(const TrapBox& box, const IntervalD& G) {
    // If tau = 0: sqrt(2 E(T) / lambda_min) / A. Otherwise the smaller of
    //   (a) G0 tau + sqrt(2 E(T) / lambda_min) / A;
    //   (b) sqrt(2 E(T) / lambda_min) / A + sqrt(tau q_max / A) + sqrt(2 q_max / lambda_min) / A.
    // With Q neurons (step 6Q) the outputs of the Q neurons persist after T1: the part after max(t_q, T1) is the
    // tail 2 sqrt(K q_max / A) of the Lojasiewicz bound (negligible_tail), added to (a) and replacing the last term of (b).
    const IntervalD A = a_min(box, G);
    if (!certainly_positive(A)) return infinite_bound();
    const IntervalD tp = final_regime_time(box, G);
    if (!std::isfinite(upper(tp))) return tp;
    const bool withQ = !box.Q().empty();
    const IntervalD tail = negligible_tail(box, G);
    if (!std::isfinite(upper(tail))) return infinite_bound();
    const IntervalD E = nonneg_upper(box.E_T());
    const IntervalD lmin = box.data().lambda_min;
    const IntervalD main = sqrt(IntervalD(2) * E / lmin) / A;
    if (upper(tp) == 0) return nonneg_upper(main + tail);
    const IntervalD q = q_max(box, G);
    const IntervalD a = gradient_bound(box, G) * tp + main + tail;
    const IntervalD b = main + sqrt(tp * q / A) + (withQ ? tail : sqrt(IntervalD(2) * q / lmin) / A);
    return IntervalD::bounds(0.0, std::min(upper(a), upper(b)));
}

}  // namespace flowcert::proofs::bf
