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
    if (sp.status != linalg::SolveStatus::proven) return res.status = ProofResult::not_proven("G_PP alpha = y_P: " + sp.reason), res;
    IVec alpha(inst.n, IntervalD(0));
    for (int a = 0; a < np; ++a) alpha[P[a]] = sp.x(a);
    // the witness z: try t = t0, 2 t0, 4 t0, ... (t0 a non-rigorous guess; feasibility is checked rigorously)
    double t0 = 0;
    for (int j : N) {
        IntervalD s(0);
        for (int a = 0; a < np; ++a) s += inst.G(j, P[a]) * alpha[P[a]];
        t0 = std::max(t0, std::fabs(upper(s)) + std::fabs(lower(s)));
    }
    t0 = std::max(t0, 1e-12);
    std::string why = "no feasible witness";
    for (int attempt = 0; attempt < 8; ++attempt, t0 *= 2) {
        const IntervalD t = IntervalD::exact(t0);
        linalg::IVectorD rhs(np);
        for (int a = 0; a < np; ++a) {
            IntervalD s(0);
            for (int j : N) s += inst.G(P[a], j);
            rhs(a) = yP(a) + t * s;
        }
        const auto sz = linalg::verified_solve<IntervalD>(GPP, rhs);
        if (sz.status != linalg::SolveStatus::proven) {
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
        IVec v(inst.n), dv(inst.n);
        for (int i = 0; i < inst.n; ++i) {
            v[i] = beta[i] - alpha[i];
            dv[i] = pattern.a_inf[0][i] - alpha[i];
        }
        res.t = t;
        res.radius = sqrt(squared_norm(inst, v));
        res.dist = sqrt(squared_norm(inst, dv));
        const double lo = std::max(0.0, lower(res.dist - res.radius));
        res.gap = IntervalD::bounds(lo, upper(res.dist + res.radius));
        if (nn > 0) res.ratio_n_minus = res.gap / sqrt(IntervalD(nn) / IntervalD(inst.d));
        res.status = ProofResult::proven("w* in B(w_P, R): witness z = X^T beta feasible for every member (t = " +
                                         std::to_string(t0) + ")");
        return res;
    }
    res.status = ProofResult::not_proven(why);
    return res;
}

}  // namespace flowcert::proofs::rh
