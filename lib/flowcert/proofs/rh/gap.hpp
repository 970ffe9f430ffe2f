// flowcert/proofs/rh/gap.hpp -- the gap between GD's limit and w* [docs/rh.md#gap] (m = 1):
//   ||w(inf) - w*||^2 = ||u||^2 + 2 (X u)^T delta + delta^T G delta,  delta = a(inf) - alpha*,
// and its ratios to sqrt(n_-/tau) and sqrt(n/tau) for tau = d and tau = ||lambda||_1 = tr Sigma
// ([LWTM2026] v1 vs v2 abstract; equal for the isotropic covariance).
#pragma once

#include <flowcert/proofs/rh/stabilization.hpp>
#include <flowcert/proofs/rh/w_star.hpp>
#include <flowcert/proofs/rh/w_star_m.hpp>
#include <flowcert/proofs/rh/w_star_m2.hpp>

namespace flowcert::proofs::rh {

struct GapResult {
    ProofResult status = ProofResult::not_proven("not run");  // proven: the enclosures below are valid
    IntervalD gap, gap_sq;
    IntervalD ratio_n_minus, ratio_n;              // gap / sqrt(n_-/d) (when n_- > 0), gap / sqrt(n/d)
    IntervalD ratio_n_minus_trace, ratio_n_trace;  // gap / sqrt(n_-/||lambda||_1), gap / sqrt(n/||lambda||_1)
};
GapResult enclose_gap(const Instance& inst, const PatternResult& pattern, const WStarResult& wstar);
// m = 2 [docs/rh.md#w-star-m2]: ||w(inf) - w*||^2 = sum_p ||u_p + X^T (a_p(inf) - alpha_p*)||^2 over both neurons.
GapResult enclose_gap(const Instance& inst, const PatternResult& pattern, const WStarM2Result& wstar);
// Even m [w_star_m.hpp]: on the reduced m = 2 instance, ||w(inf) - w*||^2 = (2/m) x the m = 2 gap^2 of (v+, v-).
GapResult enclose_gap(const Instance& reduced, const PatternResult& pattern, const WStarM2Result& wstar,
                      const SymmetricSplitResult& split);

// The slope of log gap against log d between two gaps of one data seed (evidence for the d^-1/2 scaling of
// docs/rh.md#scaling) is flowcert::loglog_slope(gap1, gap0, IntervalD(d1), IntervalD(d0)) (flowcert/interval.hpp).

}  // namespace flowcert::proofs::rh
