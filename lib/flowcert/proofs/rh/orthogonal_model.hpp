// flowcert/proofs/rh/orthogonal_model.hpp -- the gap of the orthogonal model [docs/rh.md#sweeps] (m = 1, span
// initialization): data with G = tau I exactly, eta = h / tau, w(0) = X^T (c 1), c = c~ / tau. Then every sample
// evolves alone in b_i = <w, x_i>: b_i(0) = c~, b_i <- b_i - h (b_i - y_i) while b_i > 0; a positive sample
// converges to y_i (= w*'s value), a non-positive one freezes at its first b_K <= 0 (w* has 0 there, its
// constraint slack or tight with multiplier 0), so tau ||w(inf) - w*||^2 = sum_{y_j <= 0} b_K(y_j)^2 and
//   ratio to sqrt(n_-/tau) = sqrt(mean_{y_j <= 0} b_K(y_j)^2)  (independent of n_-/n, of tau and of n),
//   ratio to sqrt(n/tau)   = the same times sqrt(n_-/n).
// The prediction is exact for that model (enclosed); a real instance differs through G - tau I.
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/interval/proof_status.hpp>

#include <vector>

namespace flowcert::proofs::rh {

struct OrthogonalPrediction {
    ProofResult status = ProofResult::not_proven("not run");  // proven: every b_K(y_j) certainly <= 0
    IntervalD ratio_n_minus;  // to sqrt(n_-/tau)
    IntervalD ratio_n;        // to sqrt(n/tau)
};

// h = eta tau, c_tilde = c tau, labels y (n of them); max_steps bounds the per-sample iteration.
OrthogonalPrediction orthogonal_model_gap(const IntervalD& h, const IntervalD& c_tilde, const std::vector<IntervalD>& y,
                                          int max_steps = 10000);

}  // namespace flowcert::proofs::rh
