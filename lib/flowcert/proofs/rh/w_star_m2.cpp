// The m = 2 minimum-norm interpolator (docs/rh.md#w-star-m2); see w_star_m2.hpp.
#include "flowcert/proofs/rh/w_star_m2.hpp"

#include <algorithm>

namespace flowcert::proofs::rh {

WStarM2Result certify_w_star_m2(const Instance& inst) {
    WStarM2Result res;
    const int n = inst.n;
    if (inst.m != 2 || inst.s.size() != 2 || inst.s[0] != 1 || inst.s[1] != -1)
        return res.status = ProofResult::not_proven("m = 2 with output signs (+1, -1) only"), res;
    for (int i = 0; i < n; ++i)
        if (!certainly_positive(inst.y[i]) && !certainly_negative(inst.y[i]))
            return res.status = res.labels_nonzero =
                       ProofResult::not_proven("label y_" + std::to_string(i) + " in " + to_string(inst.y[i], 6) +
                                               " not certainly nonzero (a zero label adds the pattern 'inactive in both')"),
                   res;
    res.labels_nonzero = ProofResult::proven("every label certainly nonzero");
    IVec neg_y(n);
    std::vector<int> positive(n);
    for (int i = 0; i < n; ++i) {
        neg_y[i] = -inst.y[i];
        positive[i] = 1 - inst.negative[i];
    }
    res.plus = certify_min_norm_qp({inst.G, inst.y, inst.negative});  // X_P w = y_P, X_N w <= 0
    res.minus = certify_min_norm_qp({inst.G, neg_y, positive});       // X_N w = -y_N, X_P w <= 0
    if (!res.plus.kkt.is_proven()) return res.status = ProofResult::not_proven("w+*: " + res.plus.kkt.reason), res;
    if (!res.minus.kkt.is_proven()) return res.status = ProofResult::not_proven("w-*: " + res.minus.kkt.reason), res;
    // c_i = alpha+_i + alpha-_i: the first-order cost of activating the other-sign neuron on sample i.
    res.margin.resize(n);
    IntervalD u(0);
    for (int i = 0; i < n; ++i) {
        res.margin[i] = res.plus.alpha[i] + res.minus.alpha[i];
        if (i == 0 || lower(res.margin[i]) < lower(res.min_margin)) res.worst_sample = i;
        res.min_margin = i == 0 ? res.margin[i] : min(res.min_margin, res.margin[i]);
        // ||w+*||^2 = alpha+ . z+* and z+*_j alpha+_j = 0 off the fitted set: U = sum_i alpha_i target_i
        u += inst.negative[i] ? res.minus.alpha[i] * neg_y[i] : res.plus.alpha[i] * inst.y[i];
    }
    res.norm_sq = u;
    if (!certainly_positive(res.min_margin)) {
        // c_i < 0 with sample i tight for the other-sign neuron's QP (z_other,i* = 0): the path z_other,i = t,
        // z_own,i = target + t (t > 0) is feasible and changes Phi by 2 c_i t + O(t^2) < 0.
        const int w = res.worst_sample;
        const auto& other_tight = inst.negative[w] ? res.plus.tight : res.minus.tight;
        const bool descent = certainly_negative(res.margin[w]) &&
                             std::find(other_tight.begin(), other_tight.end(), w) != other_tight.end();
        res.separation = ProofResult::not_proven(
            "separation margin c_" + std::to_string(res.worst_sample) + " = alpha+ + alpha- in " +
            to_string(res.margin[res.worst_sample], 6) +
            (descent
                 ? " < 0: activating the other-sign neuron on that sample lowers the norm at first order, so the "
                   "natural-pattern QP is provably NOT w* (w* lies in another pattern class, not certified here)"
                 : " not certainly > 0: a pattern class with the other neuron active there may be cheaper"));
        return res.status = res.separation, res;
    }
    res.separation = ProofResult::proven("c_i = alpha+_i + alpha-_i > 0 for every i: every other pattern class "
                                         "costs > U (first-order bound, docs/rh.md#w-star-m2)");
    res.status = ProofResult::proven("w* = (w+*, w-*): natural-pattern QPs KKT-certified and every other pattern "
                                     "class strictly costlier (c_i > 0)");
    return res;
}

}  // namespace flowcert::proofs::rh
