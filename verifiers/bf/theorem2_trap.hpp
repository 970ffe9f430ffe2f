// verifiers/bf/theorem2_trap.hpp -- part (c) of bf/theorem2_three_point: the trapping argument
// from the box at the end T of the certified tube [BF2025, Thm 2, Sec. 4.1.3]. The numbered
// steps refer to the proof in docs/bf.md, section "bf/theorem2_three_point".
//
// Everything here is interval arithmetic on enclosures taken from the tube (IntervalD, outward
// rounding): a function returning a bound returns an upper bound (or a lower bound where its
// name says so) valid for every true trajectory whose state at T lies in the box, while the
// flow stays in the region {Gamma(t) = int_T^t |g| <= Gamma}. Nothing here prints.
#pragma once

#include <flowcert/interval.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace bf::trap {

using flowcert::IntervalD;

inline IntervalD point(double v) { return IntervalD::bounds(v, v); }
inline IntervalD infinite_bound() { return IntervalD::bounds(0.0, std::numeric_limits<double>::infinity()); }
inline IntervalD nonneg_upper(const IntervalD& x) { return IntervalD::bounds(0.0, std::max(0.0, upper(x))); }

// Steps 2' and 3(d'): a pre-activation that must travel Z / speed-units while the speed |a_j| obeys
// |a_j(t)| >= A0 - B (t - T) covers the distance once A0 tau - B tau^2 / 2 >= Z, i.e. by
// tau = 2 Z / (A0 + sqrt(A0^2 - 2 B Z)) when A0 > 0 and A0^2 > 2 B Z (then tau <= A0 / B, so the
// speed bound stays >= 0 up to tau). Returns an upper bound of tau, +infinity when that is not certain.
inline double crossing_time_shrinking(const IntervalD& A0, const IntervalD& B, const IntervalD& Z) {
    const IntervalD disc = sqr(A0) - IntervalD(2) * B * Z;
    if (!certainly_positive(A0) || !certainly_positive(disc)) return std::numeric_limits<double>::infinity();
    return upper(IntervalD(2) * Z / (A0 + sqrt(disc)));
}

// Neuron classes at T (docs/bf.md step 1). For one_sample (N_k) `k` is the sample the neuron
// may still be active on; for two_sample (S_i) it is the extreme sample i on which it may be
// inactive (it is certainly active on x_2 and on the other extreme sample).
enum class Cls { frozen, all_active, one_sample, two_sample, unclassified };

struct Classified {
    Cls cls = Cls::unclassified;
    std::size_t k = 3;
};

// N_k tracking along the tube (step 2): the first step box on which a neuron is certainly
// negative and certainly inactive on both samples l != k. The argument of step 2 needs a_j < 0 on
// all of [T_N, T] (for a_j > 0 the neuron moves along +x_k and may become active on the other
// samples): `speed` > 0 (Lemma 1: |a_j| >= sqrt(|P_perp w_j|^2 + b_j) while the pattern holds)
// proves it, otherwise every later step box must show a_j certainly < 0 (track_step drops the
// tracking at the first one that does not).
struct NTrack {
    bool on = false;
    std::size_t k = 0;
    double t = 0;  // T_N: start time of that step
    IntervalD a, w0, w1;
    IntervalD speed = IntervalD(0);  // lower bound of |a_j| on [T_N, T] from Lemma 1 (0: none)
};

// The sample k in {0, 2} on which a certainly negative neuron with pre-activation box z may be
// active while certainly inactive on the two others; 3 if none.
inline std::size_t one_sample_of(const IntervalD& a, const std::array<IntervalD, 3>& z) {
    if (!certainly_negative(a)) return 3;
    if (certainly_negative(z[1]) && certainly_negative(z[2])) return 0;
    if (certainly_negative(z[0]) && certainly_negative(z[1])) return 2;
    return 3;
}

// The N_k speed of Lemma 1 for a neuron tracked on sample k from the box (w0, w1) at T_N:
// |P_perp w_j| = |det(w_j, x_k)| / |x_k| is constant while w_j moves along x_k, and
// a_j^2 = |w_j|^2 + b_j >= |P_perp w_j|^2 + b_j [BF2025, Lemma 1]. A point (0 if not positive).
inline IntervalD lemma1_speed(const IntervalD& w0, const IntervalD& w1, const IntervalD& xk0, const IntervalD& xk1,
                              const IntervalD& xnorm_k, const IntervalD& b) {
    const IntervalD q = abs(w0 * xk1 - w1 * xk0) / xnorm_k;
    const IntervalD q2b = sqr(q) + b;
    if (!certainly_positive(q2b)) return IntervalD(0);
    return sqrt(IntervalD::bounds(lower(q2b), lower(q2b)));
}

// One step box [t0, t1] of the tube for the N_k tracking of neuron j: keeps a tracking whose
// sign premise still holds (Lemma 1 speed, or a_j certainly < 0 on this box), drops it otherwise,
// and starts one on the first box where the neuron is N_k-like (one_sample_of). `speed_of(k)`
// gives the Lemma 1 speed of the box for sample k.
template <class SpeedOf>
void track_step(NTrack& nt, double t0, const IntervalD& a, const IntervalD& w0, const IntervalD& w1,
                const std::array<IntervalD, 3>& z, SpeedOf speed_of) {
    if (nt.on) {
        if (certainly_positive(nt.speed) || certainly_negative(a)) return;
        nt = NTrack{};  // a_j may have reached 0 on this box: step 2 no longer applies from T_N
    }
    const std::size_t k = one_sample_of(a, z);
    if (k == 3) return;
    nt = {true, k, t0, a, w0, w1, speed_of(k)};
}

// Residual signs along the tube: last_not_negative[k] = largest step end t1 at which the
// enclosure of r_k = h(x_k) - y_k is not certainly < 0 (0 if none).
struct ResidualSigns {
    std::array<double, 3> last_not_negative{0.0, 0.0, 0.0};
    void add_step(double t1, const std::array<IntervalD, 3>& r) {
        for (std::size_t k = 0; k < 3; ++k)
            if (!certainly_negative(r[k])) last_not_negative[k] = std::max(last_not_negative[k], t1);
    }
};

// Step 1 classification of the box (a_j(T), z_j(T)) of one neuron. Uses x_2 in the open cone of
// x_1, x_3 (step 0): z_1, z_3 < 0 implies z_2 < 0.
inline Classified classify(const IntervalD& a, const std::array<IntervalD, 3>& z, const NTrack& nt,
                           const ResidualSigns& rs) {
    if (certainly_negative(z[0]) && certainly_negative(z[2])) return {Cls::frozen, 3};
    if (certainly_positive(z[0]) && certainly_positive(z[1]) && certainly_positive(z[2])) {
        // A negative all-active neuron is an S_i neuron that has already crossed (docs/bf.md
        // step 3 with z_ji(T) >= 0, tau_S,j = 0): it then needs margins on two samples only, not
        // three (tiny negative neurons sit close to a kink). i = the extreme sample nearer its kink.
        if (certainly_negative(a)) return {Cls::two_sample, lower(z[0]) <= lower(z[2]) ? std::size_t(0) : std::size_t(2)};
        return {Cls::all_active, 3};
    }
    // N_k: tracked since T_N, and r_k certainly < 0 on every step box from T_N to T
    if (nt.on && nt.k != 1 && nt.k < 3 && rs.last_not_negative[nt.k] <= nt.t) return {Cls::one_sample, nt.k};
    // S_i: certainly negative, certainly active on x_2 and on the other extreme sample
    if (certainly_negative(a) && certainly_positive(z[1])) {
        if (certainly_positive(z[2])) return {Cls::two_sample, 0};
        if (certainly_positive(z[0])) return {Cls::two_sample, 2};
    }
    return {Cls::unclassified, 3};
}

// The trapping argument: data of the box at T and the bounds of steps 2-7 as functions of the
// trajectory-length budget Gamma. Every bound is monotone in Gamma (larger Gamma, weaker bound).
struct Trap {
    std::size_t n = 3;
    std::vector<IntervalD> xnorm;               // |x_k|
    std::vector<std::vector<IntervalD>> X;      // n x 2
    std::vector<std::vector<IntervalD>> gram;   // <x_k, x_l>
    std::vector<IntervalD> y;
    std::vector<IntervalD> rstar;               // least-squares residuals r*_k
    IntervalD inv_n = IntervalD(1) / IntervalD(3);
    IntervalD lambda_min;                       // of H = X^T X / n
    std::vector<IntervalD> lev;                 // x_k^T H^{-1} x_k (optional; empty: |x_k|^2 / lambda_min is used)
    IntervalD E_T;                              // L(theta(T)) - L*
    IntervalD beta_star_norm;                   // |beta*|
    IntervalD bsum_P = IntervalD(0);            // sum_P b_j
    // P neurons
    std::vector<std::size_t> P;
    std::vector<IntervalD> s, aP, bP;           // |theta_j(T)|, a_j(T), b_j = (a^2 - |w|^2)(0)
    std::vector<std::array<IntervalD, 3>> zP;   // z_jk(T)
    IntervalD S2 = IntervalD(0);                // sum_P |theta_j(T)|^2 (upper bound used)
    std::vector<IntervalD> hP = std::vector<IntervalD>(3, IntervalD(0));  // sum_P a_j z_jk(T)
    // N_k neurons
    std::vector<std::size_t> Nk_count = std::vector<std::size_t>(3, 0);
    std::vector<IntervalD> CN = std::vector<IntervalD>(3, IntervalD(0));  // sum_{N_k} |a_j(T_N)| z_jk(T)^+
    std::vector<IntervalD> zpos;                // per N neuron: z_jk(T)^+
    std::vector<IntervalD> speed;               // per N neuron: lower bound of |a_j(t)| (Lemma 1; 0 if none)
    std::vector<IntervalD> aN;                  // per N neuron: lower bound of |a_j(T)| (a point)
    std::vector<std::size_t> N;                 // neuron indices
    std::vector<std::size_t> Nsample;           // their sample k (0 or 2)
    // S_i neurons (step 3)
    std::vector<std::size_t> S;                 // neuron indices
    std::vector<std::size_t> Si;                // the extreme sample i (0 or 2) they may be inactive on
    std::vector<IntervalD> sS, bS, aS;          // |theta_j(T)|, b_j, a_j(T)
    std::vector<std::array<IntervalD, 3>> zS;   // z_jk(T)
    IntervalD S2S = IntervalD(0);               // sum_S |theta_j(T)|^2 (upper bound used)
    std::vector<std::size_t> Si_count = std::vector<std::size_t>(3, 0);

    // Add N_k neuron j: zp >= z_jk(T)^+, speed <= |a_j(t)| for t >= T (Lemma 1; 0 if unknown),
    // a_lo <= |a_j(T)|, a_hi >= |a_j(t)| for t >= T (|a_j| is non-increasing after T_N).
    void add_one_sample(std::size_t j, std::size_t k, const IntervalD& zp, const IntervalD& sp, double a_lo, double a_hi) {
        N.push_back(j);
        Nk_count[k]++;
        Nsample.push_back(k);
        zpos.push_back(IntervalD::bounds(0.0, std::max(0.0, upper(zp))));
        speed.push_back(sp);
        aN.push_back(point(std::max(0.0, a_lo)));
        CN[k] += IntervalD::bounds(0.0, upper(point(a_hi) * point(std::max(0.0, upper(zp)))));
    }
    // Add an S_i neuron from its box at T.
    void add_two_sample(std::size_t j, std::size_t i, const IntervalD& a, const IntervalD& w0, const IntervalD& w1,
                        const std::array<IntervalD, 3>& z, const IntervalD& b) {
        S.push_back(j);
        Si.push_back(i);
        const IntervalD sj = sqrt(sqr(a) + sqr(w0) + sqr(w1));
        sS.push_back(sj);
        aS.push_back(a);
        S2S += nonneg_upper(sqr(sj));
        bS.push_back(b);
        zS.push_back(z);
        Si_count[i]++;
    }
    void add_all_active(std::size_t j, const IntervalD& a, const IntervalD& w0, const IntervalD& w1, const std::array<IntervalD, 3>& z,
                        const IntervalD& b) {
        P.push_back(j);
        const IntervalD sj = sqrt(sqr(a) + sqr(w0) + sqr(w1));
        s.push_back(sj);
        S2 += nonneg_upper(sqr(sj));
        aP.push_back(a);
        bP.push_back(b);
        bsum_P += b;
        zP.push_back(z);
        for (std::size_t k = 0; k < 3; ++k) hP[k] += a * z[k];
    }

    // |w_j(t) - w_j(T)| <= int |a_j| |g| <= (s_j / sqrt 2)(e^Gamma - 1) + sqrt(b_j^+ / 2) Gamma, from
    // |a_j| = sqrt((|theta_j|^2 + b_j) / 2) (Lemma 1) and |theta_j(t)| <= s_j e^{Gamma(t)} (steps 3, 4).
    static IntervalD dw(const IntervalD& sj, const IntervalD& bj, const IntervalD& G) {
        const IntervalD bplus = IntervalD::bounds(0.0, std::max(0.0, upper(bj)));
        return sj * expm1(G) / sqrt(IntervalD(2)) + sqrt(bplus / IntervalD(2)) * G;
    }
    // sup |a_j(t)| <= s_j e^Gamma / sqrt 2 + sqrt(b_j^+ / 2)
    static IntervalD amax(const IntervalD& sj, const IntervalD& bj, const IntervalD& G) {
        const IntervalD bplus = IntervalD::bounds(0.0, std::max(0.0, upper(bj)));
        return sj * exp(G) / sqrt(IntervalD(2)) + sqrt(bplus / IntervalD(2));
    }

    // Delta_k(Gamma) = |x_k| S2 (e^{2 Gamma} - 1) / 2 bounds |h_P(x_k)(t) - h_P(x_k)(T)| (step 4).
    IntervalD delta(std::size_t k, const IntervalD& G) const { return xnorm[k] * S2 * expm1(IntervalD(2) * G) / IntervalD(2); }
    // |h_S(x_k)(t)| <= sum_S |a_j| |w_j| |x_k| <= |x_k| S2S e^{2 Gamma} / 2, and h_S(x_k) <= 0 (a_j < 0) (step 3).
    IntervalD hS_bound(std::size_t k, const IntervalD& G) const { return xnorm[k] * S2S * exp(IntervalD(2) * G) / IntervalD(2); }
    // Enclosure of r_k(t) valid for every t >= T in the region (steps 2-4).
    IntervalD residual(std::size_t k, const IntervalD& G) const {
        const IntervalD d = delta(k, G);
        return IntervalD::bounds(lower(hP[k] - d - CN[k] - hS_bound(k, G) - y[k]), upper(hP[k] + d - y[k]));
    }
    // Whether some neuron is not yet in its final regime at T (N_k with z_jk(T) possibly > 0, or any S
    // neuron): then T1 may be > T and the residual bound valid on all of [T, infinity) is residual().
    bool early() const {
        for (const auto& zp : zpos)
            if (upper(zp) > 0) return true;
        return !S.empty();
    }
    // Step 5: for every t >= T and any beta, with p = h - X beta on the data (here beta = sum_{P, S} a_j w_j),
    // E = |v_R|^2 / (2n) + q(p), v = X(beta - beta*) + p, v_R its part in range(X), so
    // |v_R|^2 <= 2n (E(T) + qneg), qneg >= sup -q(p), and r = r* + v_R + <p, r*/|r*|> r*/|r*|:
    // r_k in r*_k +- (|x_k| sqrt(2 (E(T) + qneg) / lambda_min) + |p|).
    // With the leverage lev_k = x_k^T H^{-1} x_k (<= |x_k|^2 / lambda_min) the bound
    // max {<x_k, delta'> : delta'^T H delta' <= 2 (E(T) + qneg)} = sqrt(2 lev_k (E(T) + qneg)) is used
    // (Cauchy-Schwarz in the H inner product), the smaller of the two.
    IntervalD residual_E(std::size_t k, const IntervalD& G) const {
        const IntervalD e2 = IntervalD(2) * (nonneg_upper(E_T) + qneg(G));
        IntervalD dv = xnorm[k] * sqrt(e2 / lambda_min);
        if (k < lev.size()) {
            const IntervalD dl = sqrt(e2 * nonneg_upper(lev[k]));
            if (upper(dl) < upper(dv)) dv = dl;
        }
        const IntervalD d = dv + pnorm(G);
        return IntervalD::bounds(lower(rstar[k] - d), upper(rstar[k] + d));
    }
    // Enclosure of r_k(t) for all t >= T (intersection of the step-4 and step-5 bounds).
    IntervalD residual_all(std::size_t k, const IntervalD& G) const {
        const IntervalD e = residual_E(k, G);
        IntervalD out;
        if (intersect(residual(k, G), e, out)) return out;
        return e;
    }
    IntervalD G0(const IntervalD& G) const {  // sup |g| = |(1/n) X^T r| for t >= T
        IntervalD g2(0);
        for (std::size_t i = 0; i < 2; ++i) {
            IntervalD gi(0);
            for (std::size_t k = 0; k < n; ++k) gi += X[k][i] * residual_all(k, G);
            g2 += sqr(inv_n * gi);
        }
        return IntervalD::bounds(0.0, upper(sqrt(g2)));
    }
    // (i) sum_P a_j^2 >= sum_P (|a_j(T)| - s_j (e^Gamma - 1))_+^2, valid for all t >= T (a point).
    IntervalD A_moving(const IntervalD& G) const {
        const IntervalD e = expm1(G);
        IntervalD B(0);
        for (std::size_t i = 0; i < P.size(); ++i) {
            const IntervalD lo = abs(aP[i]) - s[i] * e;
            if (certainly_positive(lo)) B += sqr(point(lower(lo)));
        }
        return point(lower(B));
    }
    // Step 5: |beta(t) - beta*| <= sqrt(2 (E(T) + qneg) / lambda_min) + |p| / sqrt(n lambda_min) for t >= T
    // (beta = sum_{P, S} a_j w_j, X(beta - beta*) = v_R - P_R p).
    IntervalD dbeta(const IntervalD& G) const {
        return sqrt(IntervalD(2) * (nonneg_upper(E_T) + qneg(G)) / lambda_min) + pnorm(G) / sqrt(IntervalD(static_cast<int>(n)) * lambda_min);
    }
    // (ii) sum_P a_j^2 >= sum_P |a_j| |w_j| + sum_P b_j / 2 >= |beta_P| + sum_P b_j / 2 (Lemma 1)
    // >= |beta*| - |beta - beta*| - |beta_S| + sum_P b_j / 2, |beta_S| <= S2S e^{2 Gamma} / 2
    // (a point, 0 if not positive), for all t >= T.
    IntervalD A_balanced(const IntervalD& G) const {
        const IntervalD v = beta_star_norm - dbeta(G) - S2S * exp(IntervalD(2) * G) / IntervalD(2) + bsum_P / IntervalD(2);
        return certainly_positive(v) ? point(lower(v)) : IntervalD(0);
    }
    // Lower bound of sum_P a_j(t)^2 for all t >= T.
    IntervalD A_all(const IntervalD& G) const {
        const IntervalD a = A_moving(G), b = A_balanced(G);
        return lower(a) >= lower(b) ? a : b;
    }
    // r_k(t) <= -rho_k for t >= T (rho_k <= 0: premise fails).
    IntervalD rho(std::size_t k, const IntervalD& G) const { return -point(upper(residual_all(k, G))); }
    // Step 2: time after which every N_k neuron has z_jk <= 0 (infinite if some neuron has no bound).
    IntervalD tau_pin(const IntervalD& G) const {
        IntervalD t(0);
        for (std::size_t i = 0; i < Nsample.size(); ++i) {
            const double tq = tau_pin_one(i, G);
            if (!std::isfinite(tq)) return infinite_bound();
            t = IntervalD::bounds(0.0, std::max(upper(t), tq));
        }
        return t;
    }
    // Step 2 for N neuron i: while z_jk > 0, z_jk' = -|a_j| |r_k| |x_k|^2 / n <= -|a_j| rho_k |x_k|^2 / n. The
    // smaller of (i) |a_j| >= speed (Lemma 1) and (ii) step 2': d|a_j|/dt = -|r_k| z_jk / n >= -B,
    // B = sup |r_k| z_jk(T)^+ / n (z_jk non-increasing), so |a_j(t)| >= A0 - B (t - T), A0 = |a_j(T)|, and
    // z_jk reaches 0 by tau = 2 Z / (A0 + sqrt(A0^2 - 2 B Z)), Z = z_jk(T)^+ n / (rho_k |x_k|^2), when
    // A0^2 > 2 B Z (then tau <= A0 / B). Returns an upper bound (+infinity: no bound).
    double tau_pin_one(std::size_t i, const IntervalD& G) const {
        if (upper(zpos[i]) <= 0) return 0.0;
        const IntervalD r = rho(Nsample[i], G);
        if (!certainly_positive(r)) return std::numeric_limits<double>::infinity();
        const IntervalD rate = r * inv_n * sqr(xnorm[Nsample[i]]);
        const double t1 = certainly_positive(speed[i]) ? upper(zpos[i] / (speed[i] * rate)) : std::numeric_limits<double>::infinity();
        return std::min(t1, tau_pin_shrinking(i, G));
    }
    // Bound (ii) of tau_pin_one alone (+infinity when A0^2 > 2 B Z is not certain).
    double tau_pin_shrinking(std::size_t i, const IntervalD& G) const {
        const std::size_t k = Nsample[i];
        const IntervalD r = rho(k, G);
        if (!certainly_positive(r)) return std::numeric_limits<double>::infinity();
        const IntervalD zp = point(upper(zpos[i]));
        const IntervalD B = point(mag(residual_all(k, G))) * zp * inv_n;
        return crossing_time_shrinking(aN[i], B, zp / (r * inv_n * sqr(xnorm[k])));
    }
    // Step 3: lower bound of c_i(t) = r_2 <x_i, x_2> + r_i' <x_i, x_i'> (i' the other extreme sample)
    // for all t >= T; z_ji' = (|a_j| / n) c_i while z_ji < 0. Returns a point (may be <= 0).
    IntervalD c_lower(std::size_t i, const IntervalD& G) const {
        const std::size_t o = 2 - i;
        const IntervalD c = residual_all(1, G) * gram[i][1] + residual_all(o, G) * gram[i][o];
        return point(lower(c));
    }
    // Step 3: min over S neurons and their two certainly-active samples k of
    // z_jk(T) - |x_k| dw_j(Gamma) (a point; +infinity if there is no S neuron). A neuron already
    // crossed at T (z_ji(T) >= 0) needs sample i' only: z_ji stays >= 0 (step 3(d)), so
    // z_j2 = alpha_i z_ji + alpha_i' z_ji' >= alpha_i' z_ji' > 0 (step 0).
    IntervalD margin_S(const IntervalD& G, std::size_t* arg_j = nullptr) const {
        double best = std::numeric_limits<double>::infinity();
        for (std::size_t q = 0; q < S.size(); ++q) {
            const IntervalD d = dw(sS[q], bS[q], G);
            const bool crossed = lower(zS[q][Si[q]]) >= 0;
            for (std::size_t k : {std::size_t(1), 2 - Si[q]}) {
                if (k == 1 && crossed) continue;
                const double v = lower(zS[q][k] - xnorm[k] * d);
                if (v < best) {
                    best = v;
                    if (arg_j) *arg_j = S[q];
                }
            }
        }
        return point(best);
    }
    // Step 3: lower bound of |a_j(t)| for an S neuron: a^2 = |w|^2 + b_j >= (z_k / |x_k|)^2 + b_j.
    IntervalD a_lower_S(std::size_t q, const IntervalD& G) const {
        const IntervalD d = dw(sS[q], bS[q], G);
        double best = 0;
        for (std::size_t k : {std::size_t(1), 2 - Si[q]}) {
            const IntervalD zl = point(lower(zS[q][k] - xnorm[k] * d));
            if (!certainly_positive(zl)) continue;
            best = std::max(best, lower(zl / xnorm[k]));
        }
        const IntervalD v = sqr(point(best)) + point(lower(bS[q]));
        return certainly_positive(v) ? point(lower(sqrt(point(lower(v))))) : IntervalD(0);
    }
    // Step 3: time after which every S_i neuron has z_ji >= 0.
    IntervalD tau_S(const IntervalD& G) const {
        IntervalD t(0);
        for (std::size_t q = 0; q < S.size(); ++q) {
            const double zneg = std::max(0.0, -lower(zS[q][Si[q]]));
            if (zneg == 0) continue;
            const IntervalD c = c_lower(Si[q], G);
            const IntervalD al = a_lower_S(q, G);
            if (!certainly_positive(c) || !certainly_positive(margin_S(G))) return infinite_bound();
            double tq = std::numeric_limits<double>::infinity();
            // (i) |a_j| >= a_lo on the way: z_ji' >= a_lo c_lo / n.
            if (certainly_positive(al)) tq = upper(point(zneg) / (al * c * inv_n));
            // (ii) step 3(d'): while z_ji < 0, d|a_j|/dt = <w_j, g> - |r_i| |z_ji| / n >= -|w_j| |g| - |r_i| z_ji(T)^- / n,
            // and |w_j| <= s_j e^{Gamma(t)} (3(a)), so |a_j(t)| >= A0 - B (t - T) with A0 = |a_j(T)| - s_j (e^Gamma - 1),
            // B = sup |r_i| z_ji(T)^- / n. z_ji reaches 0 once (A0 tau - B tau^2 / 2) c_lo / n >= z_ji(T)^-, i.e. at
            // tau = 2 Z / (A0 + sqrt(A0^2 - 2 B Z)), Z = z_ji(T)^- n / c_lo, when A0^2 > 2 B Z (then tau <= A0 / B).
            const IntervalD A0 = point(mig(aS[q])) - sS[q] * (exp(G) - IntervalD(1));
            const IntervalD B = point(mag(residual_all(Si[q], G))) * point(zneg) * inv_n;
            tq = std::min(tq, crossing_time_shrinking(A0, B, point(zneg) / (c * inv_n)));
            if (!std::isfinite(tq)) return infinite_bound();
            t = IntervalD::bounds(0.0, std::max(upper(t), tq));
        }
        return t;
    }
    IntervalD tau(const IntervalD& G) const {
        const IntervalD a = tau_pin(G), b = tau_S(G);
        return IntervalD::bounds(0.0, std::max(upper(a), upper(b)));
    }
    // Step 5: bound of the output perturbation p = h - X beta on [T, T1] per sample, and
    // q_max >= sup (<p, r*/|r*|>^2 + 2 <p, r*>) / (2 n).
    IntervalD pi(std::size_t k, const IntervalD& G) const {
        IntervalD v = nonneg_upper(CN[k]);
        for (std::size_t q = 0; q < S.size(); ++q) {
            if (Si[q] != k) continue;
            const double zneg = std::max(0.0, -lower(zS[q][k]));
            v += nonneg_upper(amax(sS[q], bS[q], G) * point(zneg));
        }
        return nonneg_upper(v);
    }
    // |p| <= sqrt(sum_k pi_k^2)
    IntervalD pnorm(const IntervalD& G) const {
        IntervalD p2(0);
        for (std::size_t k = 0; k < n; ++k) p2 += sqr(pi(k, G));
        return nonneg_upper(sqrt(p2));
    }
    // q(p) = (<p, r*/|r*|>^2 + 2 <p, r*>) / (2n): q_max >= sup q, qneg >= sup -q.
    IntervalD q_max(const IntervalD& G) const {
        IntervalD p2(0), pr(0);
        for (std::size_t k = 0; k < n; ++k) {
            const IntervalD p = pi(k, G);
            p2 += sqr(p);
            pr += p * abs(rstar[k]);
        }
        return nonneg_upper((p2 + IntervalD(2) * pr) * inv_n / IntervalD(2));
    }
    IntervalD qneg(const IntervalD& G) const {
        IntervalD pr(0);
        for (std::size_t k = 0; k < n; ++k) pr += pi(k, G) * abs(rstar[k]);
        return nonneg_upper(pr * inv_n);
    }
    // Step 6: Gamma*(Gamma), an upper bound of int_T^infty |g| while the flow stays in the region
    // (A = A_all(Gamma)). If tau = 0: sqrt(2 E(T) / lambda_min) / A. Otherwise the smaller of
    //   (a) G0 tau + sqrt(2 E(T) / lambda_min) / A;
    //   (b) sqrt(2 E(T) / lambda_min) / A + sqrt(tau q_max / A) + sqrt(2 q_max / lambda_min) / A.
    IntervalD gamma_star(const IntervalD& G) const {
        const IntervalD A = A_all(G);
        if (!certainly_positive(A)) return infinite_bound();
        const IntervalD tp = tau(G);
        if (!std::isfinite(upper(tp))) return tp;
        const IntervalD E = nonneg_upper(E_T);
        const IntervalD main = sqrt(IntervalD(2) * E / lambda_min) / A;
        if (upper(tp) == 0) return nonneg_upper(main);
        const IntervalD q = q_max(G);
        const IntervalD a = G0(G) * tp + main;
        const IntervalD b = main + sqrt(tp * q / A) + sqrt(IntervalD(2) * q / lambda_min) / A;
        return IntervalD::bounds(0.0, std::min(upper(a), upper(b)));
    }
    // Step 4: min over P neurons and samples of z_jk(T) - |x_k| dw_j(Gamma) (a point; 0 if no P neuron).
    IntervalD margin_P(const IntervalD& G, std::size_t* arg_j = nullptr) const {
        double best = std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < P.size(); ++i) {
            const IntervalD d = dw(s[i], bP[i], G);
            for (std::size_t k = 0; k < n; ++k) {
                const double v = lower(zP[i][k] - xnorm[k] * d);
                if (v < best) {
                    best = v;
                    if (arg_j) *arg_j = P[i];
                }
            }
        }
        if (P.empty()) best = 0;
        return point(best);
    }
};

}  // namespace bf::trap
