// flowcert/proofs/rh/gap.hpp -- the gap between GD's limit and w* [docs/rh.md#gap] (m = 1):
//   ||w(inf) - w*||^2 = ||u||^2 + 2 (X u)^T delta + delta^T G delta,  delta = a(inf) - alpha*,
// and its ratios to sqrt(n_-/d) and sqrt(n/d).
#pragma once

#include <flowcert/proofs/rh/stabilization.hpp>
#include <flowcert/proofs/rh/w_star.hpp>

namespace flowcert::proofs::rh {

struct GapResult {
    ProofResult status = ProofResult::not_proven("not run");  // proven: the enclosures below are valid
    IntervalD gap, gap_sq;
    IntervalD ratio_n_minus, ratio_n;  // gap / sqrt(n_-/d) (when n_- > 0), gap / sqrt(n/d)
};
GapResult enclose_gap(const Instance& inst, const PatternResult& pattern, const WStarResult& wstar);

}  // namespace flowcert::proofs::rh
