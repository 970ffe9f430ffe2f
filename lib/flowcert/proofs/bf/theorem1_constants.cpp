// The constants of Theorem 1 [BF2025, App. D, eqs. (20)-(24), (21), (36)]. See theorem1_constants.hpp.
#include "flowcert/proofs/bf/theorem1_constants.hpp"

#include <algorithm>

namespace flowcert::proofs::bf {

namespace {
using nets::AlignmentData;
using nets::Cones2;
using nets::Cone2;
using nets::Critical;
using nets::QVec;
using nets::SqrtRatio;
using nets::compare;
using nets::cross;
using nets::decimal_string;
using nets::dot;
using nets::is_zero;
IntervalMp to_mp(const Rational& q, long bits) { return enclose(q, bits); }
}  // namespace

Theorem1Constants theorem1_constants(const AlignmentData& data, const Cones2& cones, long bits) {
    Theorem1Constants k;
    if (cones.status != Cones2::Status::exact) {
        k.result = ProofResult::not_proven("no exact cone enumeration: " + cones.reason);
        return k;
    }
    k.n_cones = cones.cones.size();
    // Lemma 2, second part: every family of at most d = 2 vectors d1l(0,y_k) x_k is independent.
    k.lemma2_independence = true;
    for (std::size_t a = 0; a < data.n; ++a) {
        if (is_zero(data.g[a])) k.lemma2_independence = false;
        for (std::size_t b = a + 1; b < data.n; ++b)
            if (cross(data.g[a], data.g[b]).sign() == 0) k.lemma2_independence = false;
    }
    k.lemma2_boundary = true;
    k.no_saddle = true;
    bool have_min = false;
    bool have_G = false;
    SqrtRatio gmax, gmin;
    auto consider_G = [&](const SqrtRatio& v) {
        if (!have_G) {
            gmax = gmin = v;
            have_G = true;
            return;
        }
        if (compare(v, gmax) > 0) gmax = v;
        if (compare(v, gmin) < 0) gmin = v;
    };
    bool have_plus = false, have_minus = false;
    SqrtRatio Mplus, Mminus;
    bool have_d1 = false, have_d2 = false;
    IntervalMp d1;
    SqrtRatio d2;
    for (const Cone2& c : cones.cones) {
        const QVec& D = c.D.D;
        const Rational nD = dot(D, D);
        if (nD > k.D_max_sq) k.D_max_sq = nD;
        if (!c.D.zero_in_set && (!have_min || nD < k.D_min_sq)) {
            k.D_min_sq = nD;
            have_min = true;
        }
        if (c.extremal_pos || c.extremal_neg) ++k.n_extremal;
        if (c.critical == Critical::strict_local_max) ++k.n_local_max;
        if (c.critical == Critical::strict_local_min) ++k.n_local_min;
        if (!c.lemma2_ok) k.lemma2_boundary = false;
        if (c.critical == Critical::degenerate) {
            k.no_saddle = false;
            k.no_saddle_reason += std::string(k.no_saddle_reason.empty() ? "" : "; ") + "degenerate critical point in the " +
                                  (c.is_ray ? "ray" : "sector") + " with direction (" + decimal_string(c.dir[0], 8) +
                                  ", " + decimal_string(c.dir[1], 8) + ")";
        }
        // max / min of G on the circle: attained at a ray or at an interior critical point of a sector
        if (c.is_ray) consider_G({dot(c.dir, D), dot(c.dir, c.dir)});
        else if (c.critical == Critical::strict_local_max || c.critical == Critical::strict_local_min) consider_G(c.G_critical);
        if (c.D.zero_in_set) continue;
        // alpha_{min,+} and alpha_{min,-} [BF2025, eqs. (22)-(24)]: cosines between D_u and cl(A^{-1}(u)) \ {0}
        std::vector<QVec> ends = c.is_ray ? std::vector<QVec>{c.dir} : std::vector<QVec>{c.from, c.to};
        for (const QVec& e : ends) {
            const SqrtRatio cosv{dot(e, D), dot(e, e) * nD};
            if (!c.extremal_pos && (!have_plus || compare(cosv, Mplus) > 0)) {
                Mplus = cosv;
                have_plus = true;
            }
            if (!c.extremal_neg && (!have_minus || compare(cosv, Mminus) < 0)) {
                Mminus = cosv;
                have_minus = true;
            }
        }
        // delta_0 [BF2025, eq. (20)] over cones carrying an extremal vector
        if (c.extremal_pos || c.extremal_neg) {
            for (std::size_t kk = 0; kk < data.n; ++kk) {
                if (c.u[kk] == 0) {
                    if (!c.D.eta[kk]) {
                        k.result = ProofResult::not_proven("delta_0': eta_k^u is not unique (several data on one ray)");
                        return k;
                    }
                    const Rational eta = *c.D.eta[kk];
                    const Rational slack = std::min(Rational(eta - data.gamma), Rational(1 - eta));
                    // sigma_min(Z_u) for a single column = |g_k|
                    const IntervalMp v = sqrt(to_mp(dot(data.g[kk], data.g[kk]), bits)) * to_mp(slack, bits);
                    d1 = have_d1 ? min(d1, v) : v;
                    have_d1 = true;
                } else {
                    const Rational p = dot(D, data.x[kk]);
                    const SqrtRatio v{p.sign() < 0 ? Rational(-p) : p, dot(data.x[kk], data.x[kk])};
                    if (!have_d2 || compare(v, d2) < 0) d2 = v;
                    have_d2 = true;
                }
            }
        }
    }
    if (!have_min) {
        k.result = ProofResult::not_proven("D_u = 0 for every cone (G is identically 0)");
        return k;
    }
    if (!k.lemma2_boundary) {
        k.no_saddle = false;
        if (k.no_saddle_reason.empty()) k.no_saddle_reason = "a sector's D_u lies on one of its boundary lines";
    }
    // the cone u = 0 (w = 0): 0 is in 𝔇_0 for ReLU (every eta_k may be 0), not in general for gamma > 0
    k.D_min_complete = data.gamma.sign() == 0;
    k.D_max = sqrt(to_mp(k.D_max_sq, bits));
    k.D_min = sqrt(to_mp(k.D_min_sq, bits));
    k.max_G = gmax.enclose(bits);
    k.min_G = gmin.enclose(bits);
    k.alpha_plus_empty = !have_plus;
    k.alpha_minus_empty = !have_minus;
    // empty set: the condition it guards is vacuous; take alpha = 1 (documented in docs/bf.md)
    k.alpha_plus_sq = have_plus ? Rational(1 - Mplus.square()) : Rational(1);
    k.alpha_minus_sq = have_minus ? Rational(1 - Mminus.square()) : Rational(1);
    k.alpha_min = sqrt(to_mp(std::min(k.alpha_plus_sq, k.alpha_minus_sq), bits));
    k.delta0_prime_empty = !have_d1;
    k.delta0_second_empty = !have_d2;
    if (have_d1) k.delta0_prime = d1;
    if (have_d2) k.delta0_second = d2.enclose(bits);
    if (!have_d1 && !have_d2) {
        k.result = ProofResult::not_proven("no extremal vector, so delta_0 is undefined");
        return k;
    }
    k.delta0 = have_d1 && have_d2 ? min(k.delta0_prime, k.delta0_second) : (have_d1 ? k.delta0_prime : k.delta0_second);
    k.result = ProofResult::proven("D_max, D_min, alpha_min, delta_0 from the exact min-norm elements of all " +
                                   std::to_string(k.n_cones) + " cones");
    return k;
}

LambdaStar lambda_star(const AlignmentData& data, const Theorem1Constants& k, const std::string& alpha0_s,
                       const std::string& eps_s, long bits) {
    LambdaStar L;
    if (!k.result.is_proven()) {
        L.result = ProofResult::not_proven("constants not certified: " + k.result.reason);
        return L;
    }
    if (!k.D_min_complete) {
        L.result = ProofResult::not_proven("gamma > 0: D_min of eq. (21) includes the cone u = 0, whose 𝔇_0 = sum_k [gamma, 1] g_k "
                                           "may miss 0 and is not computed (the min over the other cones is not a lower bound)");
        return L;
    }
    if (data.c != Rational(1) / Rational(static_cast<long>(data.n))) {
        L.result = ProofResult::not_proven("eq. (21) is stated for the risk (1/n) sum l; this case uses another weight");
        return L;
    }
    const Rational alpha0 = parse_rational_string(alpha0_s), eps = parse_rational_string(eps_s);
    if (alpha0.sign() <= 0 || alpha0 > 1) {
        L.result = ProofResult::not_proven("alpha_0 must lie in (0, 1]");
        return L;
    }
    if (eps.sign() <= 0 || eps >= Rational(1, 3)) {
        L.result = ProofResult::not_proven("epsilon must lie in (0, 1/3)");
        return L;
    }
    Rational S = 0;
    for (const auto& x : data.x) S += dot(x, x);
    const IntervalMp nS = to_mp(Rational(static_cast<long>(data.n)) / S, bits);
    const Rational amin_sq = std::min(k.alpha_plus_sq, k.alpha_minus_sq);
    // [BF2025, eq. (21)]
    L.term_alpha_min = nS * to_mp(amin_sq / 8, bits) * k.D_min;
    L.term_alpha0 = nS * to_mp(alpha0 * alpha0 / 4, bits) * k.D_min;
    L.term_delta0 = nS * k.delta0;
    SqrtRatio lab;
    for (std::size_t kk = 0; kk < data.n; ++kk) {
        const Rational a = data.dl0[kk].sign() < 0 ? Rational(-data.dl0[kk]) : data.dl0[kk];
        const SqrtRatio v{a, dot(data.x[kk], data.x[kk])};
        if (kk == 0 || compare(v, lab) < 0) lab = v;
    }
    L.term_labels = lab.enclose(bits);
    L.inner = min(min(min(L.term_alpha_min, L.term_alpha0), L.term_delta0), L.term_labels);
    if (!certainly_positive(L.inner)) {
        L.result = ProofResult::not_proven("the quantity inside eq. (21) is not certainly positive (lower bound " + lower_string(L.inner, 6) + ")");
        return L;
    }
    const IntervalMp expo = to_mp(Rational(1) / (2 - 4 * eps), bits);
    L.lambda_star = exp(log(L.inner) * expo);
    L.result = ProofResult::proven("every term of eq. (21) enclosed, then exp(log(inner) / (2 - 4 eps))");
    return L;
}

ProofResult lemma2_nondegeneracy(const Theorem1Constants& k) {
    const std::string detail = std::string("families of <= d vectors d1l(0,y_k) x_k independent: ") + (k.lemma2_independence ? "yes" : "no") +
                               "; no D_u on its cone boundary: " + (k.lemma2_boundary ? "yes" : "no") + " (exact)";
    if (k.n_cones == 0) return ProofResult::not_proven("no exact cone enumeration: " + k.result.reason);
    return k.lemma2_independence && k.lemma2_boundary ? ProofResult::proven(detail) : ProofResult::disproven(detail);
}

ProofResult no_saddle(const Theorem1Constants& k) {
    if (k.n_cones == 0) return ProofResult::not_proven("no exact cone enumeration: " + k.result.reason);
    if (k.no_saddle)
        return ProofResult::proven("every Clarke-critical direction of G on the circle with D(w,0) != 0 is a strict local maximum or "
                                   "minimum (exact one-sided derivatives at every ray, exact position of D_u in every sector)");
    return ProofResult::not_proven(k.no_saddle_reason.empty() ? k.result.reason : k.no_saddle_reason);
}

IntervalMp c_alpha0(const AlignmentData& data, const Theorem1Constants& k, const std::string& alpha0_s, long bits) {
    Rational sx = 0;
    for (const auto& x : data.x) sx += dot(x, x);
    const IntervalMp S = to_mp(sx, bits), n = to_mp(Rational(static_cast<long>(data.n)), bits);
    const IntervalMp alpha0 = to_mp(parse_rational_string(alpha0_s), bits), one = to_mp(Rational(1), bits);
    const IntervalMp ma = min(k.alpha_min, alpha0), two = to_mp(Rational(2), bits), four = to_mp(Rational(4), bits);
    return four * k.D_max / min(sqr(k.alpha_min), sqr(alpha0)) * exp(four * sqr(k.D_max) / (sqr(k.D_min) * sqr(ma))) *
               exp(sqrt(two * S / (n * k.D_max * sqr(exp(one))))) +
           sqrt(two / n * k.D_max * S);
}

}  // namespace flowcert::proofs::bf
