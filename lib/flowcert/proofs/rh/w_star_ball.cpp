// A face-free enclosure of w* and of the gap; see w_star_ball.hpp.
#include "flowcert/proofs/rh/w_star_ball.hpp"

#include <algorithm>
#include <cmath>

namespace flowcert::proofs::rh {

namespace {
// v^T G v >= 0 (an enclosure of a squared norm, intersected with [0, inf)).
IntervalD squared_norm(const Instance& inst, const IVec& v) {
    IntervalD q(0);
    for (int i = 0; i < inst.n; ++i) {
        IntervalD gi(0);
        for (int j = 0; j < inst.n; ++j) gi += inst.G(i, j) * v[j];
        q += v[i] * gi;
    }
    IntervalD out;
    if (!intersect(q, IntervalD::bounds(0.0, rounding::kInf), out)) out = IntervalD(0);  // empty: 0 is the only value
    return out;
}
// [DERIVED] w* = w_P + (I - Pi_P) X_N^T alpha_N with the KKT multipliers alpha_N <= 0 of the negative
// constraints (from X_P w* = y_P), so ||w(inf) - w*||^2 = (a_N - alpha_N)^T S (a_N - alpha_N) exactly, and
// complementarity gives <w*, x_j> = b_j + (S alpha_N)_j = 0 where alpha_j < 0, b_j = <w_P, x_j>. At the j with the
// largest |alpha_j| = A: A (S_jj - sum_{k != j} |S_jk|) <= b_j^+, so A <= max_j sup b_j^+ / inf(S_jj - off_j) when
// the denominators are > 0 (diagonal dominance), and alpha_j in [-B_j, 0], B_j = min(A, (b_j^+ + A off_j) / S_jj).
// The quadratic form on the interval vector a_N + [0, B] encloses the gap; it is intersected with [D - R, D + R].
bool multiplier_form(const Instance& inst, const linalg::IMatrixD& S, const std::vector<int>& N, const std::vector<int>& P,
                     const IVec& alpha, const PatternResult& pattern, IntervalD& out, WStarBall& bounds) {
    const int nn = static_cast<int>(N.size());
    std::vector<IntervalD> bplus(nn), off(nn);
    double A = 0;
    for (int b = 0; b < nn; ++b) {
        IntervalD s(0);
        for (int a : P) s += inst.G(N[b], a) * alpha[a];  // b_j = <w_P, x_j> = (G_NP G_PP^{-1} y_P)_j
        bplus[b] = relu(s);
        off[b] = IntervalD(0);
        for (int e = 0; e < nn; ++e)
            if (e != b) off[b] += abs(S(b, e));
        const IntervalD den = S(b, b) - off[b];
        if (!certainly_positive(den)) return false;
        A = std::max(A, upper(bplus[b] / den));
    }
    IVec v(nn);
    for (int b = 0; b < nn; ++b) {
        const double B = std::min(A, upper((bplus[b] + IntervalD::exact(A) * off[b]) / S(b, b)));
        v[b] = pattern.a_inf[0][N[b]] + IntervalD::bounds(0.0, B);  // a_N - alpha_N, alpha_N in [-B, 0]
    }
    IntervalD q(0);
    for (int b = 0; b < nn; ++b) {
        q += S(b, b) * sqr(v[b]);
        for (int e = 0; e < nn; ++e)
            if (e != b) q += v[b] * S(b, e) * v[e];
    }
    // Gershgorin (S symmetric for every member): lambda_min(S) >= min_b inf(S_bb - off_b) > 0 and lambda_max(S) <=
    // max_b sup(S_bb + off_b), so v^T S v lies in [lambda_min sum mig(v_b)^2, lambda_max sum mag(v_b)^2]; the interval
    // form above loses the correlation of the n_-(n_- - 1) cross terms.
    double lmin = rounding::kInf, lmax = 0;
    IntervalD mig2(0), mag2(0);
    for (int b = 0; b < nn; ++b) {
        lmin = std::min(lmin, lower(S(b, b) - off[b]));
        lmax = std::max(lmax, upper(S(b, b) + off[b]));
        mig2 += sqr(IntervalD::exact(mig(v[b])));
        mag2 += sqr(IntervalD::exact(mag(v[b])));
    }
    const IntervalD gersh = IntervalD::bounds(lower(IntervalD::exact(lmin) * mig2), upper(IntervalD::exact(lmax) * mag2));
    if (!intersect(q, gersh, q)) return false;
    if (!intersect(q, IntervalD::bounds(0.0, rounding::kInf), q)) return false;
    out = sqrt(q);
    bounds.A = A;
    bounds.lambda_min_inf = lmin;
    bounds.off_sup.resize(nn);
    bounds.s_diag_inf.resize(nn);
    for (int b = 0; b < nn; ++b) {
        bounds.off_sup[b] = upper(off[b]);
        bounds.s_diag_inf[b] = lower(S(b, b));
    }
    return true;
}
}  // namespace

WStarBall enclose_gap_by_ball(const Instance& inst, const PatternResult& pattern) {
    WStarBall res;
    if (inst.m != 1) return res.status = ProofResult::not_proven("m = 1 only"), res;
    for (int i = 0; i < inst.n; ++i)
        if (!(lower(inst.Xu[0][i]) == 0 && upper(inst.Xu[0][i]) == 0))
            return res.status = ProofResult::not_proven("span initialization (u = 0) only"), res;
    if (!pattern.tail.is_proven()) return res.status = ProofResult::not_proven("w(inf) not certified: " + pattern.tail.reason), res;
    std::vector<int> P, N;
    for (int i = 0; i < inst.n; ++i) (inst.negative[i] ? N : P).push_back(i);
    const int np = static_cast<int>(P.size()), nn = static_cast<int>(N.size());
    linalg::IMatrixD GPP(np, np);
    for (int a = 0; a < np; ++a)
        for (int b = 0; b < np; ++b) GPP(a, b) = inst.G(P[a], P[b]);
    linalg::IVectorD yP(np);
    for (int a = 0; a < np; ++a) yP(a) = inst.y[P[a]];
    const auto sp = linalg::verified_solve<IntervalD>(GPP, yP);
    if (sp.status != ProofStatus::proven) return res.status = ProofResult::not_proven("G_PP alpha = y_P: " + sp.reason), res;
    IVec alpha(inst.n, IntervalD(0));
    for (int a = 0; a < np; ++a) alpha[P[a]] = sp.x(a);
    // With the global-minimum pattern (positives active and fitted, negatives inactive from K on) the limit is
    // a_P(inf) = G_PP^{-1} (y_P - G_PN a_N(K)), a_N(inf) = a_N(K), and both norms are Schur-complement forms
    // (tighter than v^T G v of the wide tail coefficients).
    const bool schur_ok = global_minimality(inst, pattern).is_proven() && nn > 0;
    linalg::IMatrixD S(nn, nn);
    if (schur_ok) {
        linalg::IMatrixD GPN(np, nn);
        for (int a = 0; a < np; ++a)
            for (int b = 0; b < nn; ++b) GPN(a, b) = inst.G(P[a], N[b]);
        const auto Y = linalg::verified_solve<IntervalD>(GPP, GPN);  // G_PP^{-1} G_PN for every member
        if (Y.status != ProofStatus::proven) return res.status = ProofResult::not_proven("G_PP^{-1} G_PN: " + Y.reason), res;
        for (int b = 0; b < nn; ++b)
            for (int e = 0; e < nn; ++e) {
                IntervalD s = inst.G(N[b], N[e]);
                for (int a = 0; a < np; ++a) s -= inst.G(N[b], P[a]) * Y.X(a, e);
                S(b, e) = s;
            }
    }
    auto schur_form = [&](const IVec& x) {  // x^T S x >= 0 (S is positive semidefinite: a Gram matrix of projections)
        IntervalD q(0);
        for (int b = 0; b < nn; ++b) {
            q += S(b, b) * sqr(x[b]);
            for (int e = 0; e < nn; ++e)
                if (e != b) q += x[b] * S(b, e) * x[e];
        }
        IntervalD out;
        if (!intersect(q, IntervalD::bounds(0.0, rounding::kInf), out)) out = IntervalD(0);
        return out;
    };
    // the witness z: try t = t0, 1.25 t0, 1.25^2 t0, ... (t0 = max_j sup <w_P, x_j>, a non-rigorous guess of
    // the smallest feasible offset; feasibility is checked rigorously). R = t ||(I - Pi_P) X_N^T 1|| grows with t.
    double t0 = 0;
    for (int j : N) {
        IntervalD s(0);
        for (int a = 0; a < np; ++a) s += inst.G(j, P[a]) * alpha[P[a]];
        t0 = std::max(t0, upper(s));
    }
    t0 = std::max(t0, 1e-12);
    std::string why = "no feasible witness";
    for (int attempt = 0; attempt < 24; ++attempt, t0 *= 1.25) {
        const IntervalD t = IntervalD::exact(t0);
        linalg::IVectorD rhs(np);
        for (int a = 0; a < np; ++a) {
            IntervalD s(0);
            for (int j : N) s += inst.G(P[a], j);
            rhs(a) = yP(a) + t * s;
        }
        const auto sz = linalg::verified_solve<IntervalD>(GPP, rhs);
        if (sz.status != ProofStatus::proven) {
            why = "G_PP beta_P = y_P + t G_PN 1: " + sz.reason;
            continue;
        }
        IVec beta(inst.n, IntervalD(0));
        for (int a = 0; a < np; ++a) beta[P[a]] = sz.x(a);
        for (int j : N) beta[j] = -t;
        bool feasible = true;
        for (int j : N) {
            IntervalD s(0);
            for (int i = 0; i < inst.n; ++i) s += inst.G(j, i) * beta[i];
            if (!(upper(s) <= 0)) {
                feasible = false;
                why = "witness not certainly feasible at t = " + std::to_string(t0);
                break;
            }
        }
        if (!feasible) continue;
        res.t = t;
        if (schur_ok) {
            // z - w_P = -t (I - Pi_P) X_N^T 1 and w(inf) - w_P = (I - Pi_P) X_N^T a_N(K): R^2 = t^2 1^T S 1,
            // D^2 = a_N^T S a_N with the Schur complement S = G_NN - G_NP G_PP^{-1} G_PN (w_star_ball.hpp)
            IVec ones(nn, IntervalD(1)), aN(nn);
            for (int b = 0; b < nn; ++b) aN[b] = pattern.a_inf[0][N[b]];
            res.radius = t * sqrt(schur_form(ones));
            res.dist = sqrt(schur_form(aN));
        } else {
            IVec v(inst.n), dv(inst.n);
            for (int i = 0; i < inst.n; ++i) {
                v[i] = beta[i] - alpha[i];
                dv[i] = pattern.a_inf[0][i] - alpha[i];
            }
            res.radius = sqrt(squared_norm(inst, v));
            res.dist = sqrt(squared_norm(inst, dv));
        }
        const double lo = std::max(0.0, lower(res.dist - res.radius));
        res.gap = IntervalD::bounds(lo, upper(res.dist + res.radius));
        if (schur_ok) {
            IntervalD exact_form;
            if (multiplier_form(inst, S, N, P, alpha, pattern, exact_form, res) && intersect(res.gap, exact_form, res.gap)) res.by_multipliers = true;
        }
        if (nn > 0) res.ratio_n_minus = res.gap / sqrt(IntervalD(nn) / IntervalD(inst.d));
        res.status = ProofResult::proven("w* in B(w_P, R): witness z = X^T beta feasible for every member (t = " +
                                         std::to_string(t0) + ")");
        return res;
    }
    res.status = ProofResult::not_proven(why);
    return res;
}

}  // namespace flowcert::proofs::rh
