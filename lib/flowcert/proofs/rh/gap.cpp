// The gap ||w(inf) - w*|| (docs/rh.md#gap).
#include "flowcert/proofs/rh/gap.hpp"

#include <stdexcept>

namespace flowcert::proofs::rh {

namespace {

// ||u_p + X^T (a_p(inf) - alpha)||^2 = ||u_p||^2 + 2 (X u_p)^T delta + delta^T G delta, delta = a_p(inf) - alpha.
IntervalD neuron_gap_sq(const Instance& inst, const PatternResult& pattern, int p, const IVec& alpha) {
    const int n = inst.n;
    IVec delta(n);
    for (int i = 0; i < n; ++i) delta[i] = pattern.a_inf[p][i] - alpha[i];
    IntervalD q = inst.uu[p];
    for (int i = 0; i < n; ++i) {
        q += IntervalD(2) * inst.Xu[p][i] * delta[i];
        IntervalD gi(0);
        for (int j = 0; j < n; ++j) gi += inst.G(i, j) * delta[j];
        q += delta[i] * gi;
    }
    return q;
}

// The gap and its ratios from an enclosure q of the squared gap.
GapResult gap_from_square(const Instance& inst, const IntervalD& q, const std::string& how) {
    GapResult res;
    IntervalD qq;  // q encloses a squared norm (>= 0)
    if (!intersect(q, IntervalD::bounds(0.0, rounding::kInf), qq))
        throw std::logic_error("rh gap: the enclosure of a squared norm is negative (internal inconsistency)");
    res.gap_sq = qq;
    res.gap = sqrt(qq);
    const int n = inst.n;
    const IntervalD dd = IntervalD(inst.d);
    if (inst.n_minus > 0) res.ratio_n_minus = res.gap / sqrt(IntervalD(inst.n_minus) / dd);
    res.ratio_n = res.gap / sqrt(IntervalD(n) / dd);
    const IntervalD& tr = inst.cov.trace;  // ||lambda||_1 (= d exactly when isotropic)
    if (inst.n_minus > 0) res.ratio_n_minus_trace = res.gap / sqrt(IntervalD(inst.n_minus) / tr);
    res.ratio_n_trace = res.gap / sqrt(IntervalD(n) / tr);
    res.status = ProofResult::proven(how);
    return res;
}

}  // namespace

GapResult enclose_gap(const Instance& inst, const PatternResult& pattern, const WStarResult& wstar) {
    GapResult res;
    if (inst.m != 1) {
        res.status = ProofResult::not_proven("w* is reconstructed for m = 1 here (m = 2: the WStarM2Result overload)");
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
    return gap_from_square(inst, neuron_gap_sq(inst, pattern, 0, wstar.alpha),
                           "||w(inf) - w*||^2 = ||u||^2 + 2 (Xu)^T delta + delta^T G delta, delta = a(inf) - alpha*");
}

GapResult enclose_gap(const Instance& inst, const PatternResult& pattern, const WStarM2Result& wstar) {
    GapResult res;
    if (inst.m != 2) return res.status = ProofResult::not_proven("m = 2 only"), res;
    if (!pattern.tail.is_proven()) return res.status = ProofResult::not_proven("w(inf) not certified: " + pattern.tail.reason), res;
    if (!wstar.status.is_proven()) return res.status = ProofResult::not_proven("w* not certified: " + wstar.status.reason), res;
    const IntervalD q = neuron_gap_sq(inst, pattern, 0, wstar.plus.alpha) + neuron_gap_sq(inst, pattern, 1, wstar.minus.alpha);
    return gap_from_square(inst, q, "||w(inf) - w*||^2 = sum over w+, w- of ||u_p||^2 + 2 (Xu_p)^T delta_p + delta_p^T G delta_p");
}

GapResult enclose_gap(const Instance& reduced, const PatternResult& pattern, const WStarM2Result& wstar,
                      const SymmetricSplitResult& split) {
    if (!split.status.is_proven()) {
        GapResult res;
        return res.status = ProofResult::not_proven("w* of the m-network not certified: " + split.status.reason), res;
    }
    const GapResult v = enclose_gap(reduced, pattern, wstar);  // ||v+(inf) - w+*||^2 + ||v-(inf) - w-*||^2
    if (!v.status.is_proven()) return v;
    // w_p(inf) - w_p* = (v+-(inf) - w+-*) / (m/2) for each of the m/2 neurons of a sign
    return gap_from_square(reduced, IntervalD(2) / IntervalD(split.m) * v.gap_sq,
                           "||w(inf) - w*||^2 = (2/m) (||v+(inf) - w+*||^2 + ||v-(inf) - w-*||^2), m = " +
                               std::to_string(split.m) + " (the reduction of w_star_m.hpp)");
}

}  // namespace flowcert::proofs::rh
