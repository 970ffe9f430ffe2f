// The orthogonal-model gap (docs/rh.md#sweeps); see orthogonal_model.hpp.
#include "flowcert/proofs/rh/orthogonal_model.hpp"

#include <string>

namespace flowcert::proofs::rh {

OrthogonalPrediction orthogonal_model_gap(const IntervalD& h, const IntervalD& c_tilde, const std::vector<IntervalD>& y,
                                          int max_steps) {
    OrthogonalPrediction res;
    if (!certainly_positive(c_tilde)) return res.status = ProofResult::not_proven("c~ not certainly > 0"), res;
    IntervalD sum(0);
    int n_minus = 0;
    for (const IntervalD& yj : y) {
        if (certainly_positive(yj)) {
            // converges to y_j (no contribution) if it stays active: once |b - y| < y it does (|1 - h| < 1)
            if (!certainly_less(abs(IntervalD(1) - h), IntervalD(1)))
                return res.status = ProofResult::not_proven("|1 - h| < 1 not certain"), res;
            IntervalD b = c_tilde;
            int k = 0;
            while (certainly_positive(b) && !certainly_less(abs(b - yj), yj) && k < max_steps) {
                b = b - h * (b - yj);
                ++k;
            }
            if (!certainly_less(abs(b - yj), yj))
                return res.status = ProofResult::not_proven("a positive sample not certainly active forever"), res;
            continue;
        }
        if (!certainly_nonpositive(yj)) return res.status = ProofResult::not_proven("a label of undetermined sign"), res;
        IntervalD b = c_tilde;
        int k = 0;
        while (certainly_positive(b) && k < max_steps) {
            b = b - h * (b - yj);
            ++k;
        }
        if (!certainly_nonpositive(b))
            return res.status = ProofResult::not_proven("b_k(y = " + to_string(yj, 6) + ") not certainly <= 0 after " +
                                                        std::to_string(k) + " steps"),
                   res;
        sum += sqr(b);
        ++n_minus;
    }
    if (n_minus == 0) return res.status = ProofResult::not_proven("n_- = 0"), res;
    res.ratio_n_minus = sqrt(sum / IntervalD(n_minus));
    res.ratio_n = res.ratio_n_minus * sqrt(IntervalD(n_minus) / IntervalD(static_cast<int>(y.size())));
    res.status = ProofResult::proven("orthogonal model G = tau I: every non-positive sample frozen at b_K <= 0");
    return res;
}

}  // namespace flowcert::proofs::rh
