// flowcert/proofs/rh/w_star_m.hpp -- the m-neuron model with fixed output signs, m even and m+ = m- = m/2
// [docs/rh.md#w-star-m2, "m > 2"]: f(x) = sum_{p < m/2} relu(<w_p, x>) - sum_{p >= m/2} relu(<w_p, x>). [DERIVED]
// 1. Reduction of GD (reduce_to_m2): with the span initialization w_p(0) = X^T (c 1) the neurons of one sign start
//    equal and get equal gradients, so they stay equal. relu is positively homogeneous, so v+- = (m/2) w_p (p of
//    that sign) has relu(X v+-) = (m/2) relu(X w_p) and follows exactly the m = 2 GD on (v+, v-) with step
//    eta' = (m/2) eta and v+-(0) = X^T (c' 1), c' = (m/2) c.
// 2. w* (certify_symmetric_split): with the natural pair (alpha+-, w+-* = X^T alpha+-) of the m = 2 certificate
//    (w_star_m2.hpp), Phi - U_m >= 2 sum_i c_i^(m) sigma_i + (4/m) sum_{i in P} D+_i (2 y_i / lambda_max(G) - alpha+_i)
//    + (4/m) sum_{j in N} D-_j (2 |y_j| / lambda_max(G) - alpha-_j) for every interpolating m-configuration, with
//    c_i^(m) = (2/m)(alpha+_i + alpha-_i), sigma_i the other sign's activity and D+-_i the deficit of the inactive
//    same-sign neurons. So the symmetric split w_p = w+-* / (m/2) is the unique w* of the m-network, with
//    U_m = (2/m) U, when every c_i > 0 (the m = 2 separation) and, for m >= 4, the deficit condition
//    alpha+_i lambda_max(G) < 2 y_i (i in P) and alpha-_j lambda_max(G) < 2 |y_j| (j in N) hold.
// 3. The gap (gap.hpp): ||w(inf) - w*||^2 = (2/m) (||v+(inf) - w+*||^2 + ||v-(inf) - w-*||^2).
// m+ != m- (odd m) would need per-sign step sizes m+- eta in the pipeline and is not covered; neither is a Gaussian
// initialization (same-sign neurons start unequal: GD need not stay at the symmetric split).
#pragma once

#include <flowcert/proofs/rh/w_star_m2.hpp>

namespace flowcert::proofs::rh {

struct ReductionResult {
    ProofResult status = ProofResult::not_proven("not run");  // proven: `reduced` is the m-network's GD exactly
    Instance reduced;              // the m = 2 instance on v+- = (m/2) w_p: eta', a(0), X u, ||u||^2 of neurons 0, m/2 scaled
    IntervalD eta_prime, c_prime;  // (m/2) eta, (m/2) c (enclosures; exact when m/2 is a power of two)
};

// `inst`: the m-network (m even, s_p = +1 for p < m/2); proven iff its same-sign neurons start equal (span init).
ReductionResult reduce_to_m2(const Instance& inst);

struct SymmetricSplitResult {
    int m = 2;
    ProofResult status = ProofResult::not_proven("not run");   // proven: the symmetric split is the unique w*
    ProofResult deficit = ProofResult::not_proven("not run");  // the deficit condition (trivially proven for m = 2)
    IntervalD lambda_max;          // of G
    IntervalD min_deficit_margin;  // min over i of 2 |y_i| - alpha_own,i lambda_max(G)
    int worst_sample = -1;
    IntervalD norm_sq;             // U_m = (2/m) (||w+*||^2 + ||w-*||^2)
    IntervalD min_margin;          // min_i c_i^(m) = (2/m) min_i (alpha+_i + alpha-_i)
};

// `ws`: the m = 2 certificate on an m = 2 instance with the data (G, y) of the m-network (e.g. the reduced one).
SymmetricSplitResult certify_symmetric_split(const Instance& inst, const WStarM2Result& ws, int m);

}  // namespace flowcert::proofs::rh
