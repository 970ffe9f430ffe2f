// The gap ||w(inf) - w*|| (docs/rh.md#gap).
#include "flowcert/proofs/rh/gap.hpp"

#include <stdexcept>

namespace flowcert::proofs::rh {

GapResult enclose_gap(const Instance& inst, const PatternResult& pattern, const WStarResult& wstar) {
    GapResult res;
    if (inst.m != 1) {
        res.status = ProofResult::not_proven("w* is reconstructed for m = 1 only");
        return res;
    }
    if (!pattern.tail.is_proven()) {
        res.status = ProofResult::not_proven("w(inf) not certified: " + pattern.tail.reason);
        return res;
    }
    if (!wstar.kkt.is_proven()) {
        res.status = ProofResult::not_proven("w* not certified: " + wstar.kkt.reason);
        return res;
    }
    const int n = inst.n;
    IVec delta(n);
    for (int i = 0; i < n; ++i) delta[i] = pattern.a_inf[0][i] - wstar.alpha[i];
    IntervalD q = inst.uu[0];
    for (int i = 0; i < n; ++i) {
        q += IntervalD(2) * inst.Xu[0][i] * delta[i];
        IntervalD gi(0);
        for (int j = 0; j < n; ++j) gi += inst.G(i, j) * delta[j];
        q += delta[i] * gi;
    }
    IntervalD qq;  // q encloses a squared norm (>= 0)
    if (!intersect(q, IntervalD::bounds(0.0, rounding::kInf), qq))
        throw std::logic_error("rh gap: the enclosure of a squared norm is negative (internal inconsistency)");
    res.gap_sq = qq;
    res.gap = sqrt(qq);
    const IntervalD dd = IntervalD(inst.d);
    if (inst.n_minus > 0) res.ratio_n_minus = res.gap / sqrt(IntervalD(inst.n_minus) / dd);
    res.ratio_n = res.gap / sqrt(IntervalD(n) / dd);
    const IntervalD& tr = inst.cov.trace;  // ||lambda||_1 (= d exactly when isotropic)
    if (inst.n_minus > 0) res.ratio_n_minus_trace = res.gap / sqrt(IntervalD(inst.n_minus) / tr);
    res.ratio_n_trace = res.gap / sqrt(IntervalD(n) / tr);
    res.status = ProofResult::proven("||w(inf) - w*||^2 = ||u||^2 + 2 (Xu)^T delta + delta^T G delta, delta = a(inf) - alpha*");
    return res;
}

IntervalD gap_slope(long d0, const IntervalD& gap0, long d1, const IntervalD& gap1) {
    return log(gap1 / gap0) / log(IntervalD(d1) / IntervalD(d0));
}

}  // namespace flowcert::proofs::rh
