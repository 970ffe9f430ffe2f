// flowcert/proofs/rh/w_star_m2.hpp -- the minimum-norm interpolator of the m = 2 model [docs/rh.md#w-star-m2]:
// w* = argmin ||w+||^2 + ||w-||^2 over F = {f(x_i) = y_i for every i}, f = relu(<w+, .>) - relu(<w-, .>).
// F is the union of per-pattern polyhedra (which samples each neuron is active on), so w* is the best of the
// per-pattern convex QPs. [DERIVED] Certificate, for labels y_i != 0 (P = {y > 0}, N = {y < 0}):
// 1. Upper bound: the natural pattern (w+ active exactly on P, w- exactly on N) decouples into two m = 1 QPs,
//    w+* = argmin ||w|| s.t. X_P w = y_P, X_N w <= 0 and w-* = argmin ||w|| s.t. X_N w = -y_N, X_P w <= 0,
//    each KKT-certified (w_star.hpp): w+* = X^T alpha+, w-* = X^T alpha-, U = ||w+*||^2 + ||w-*||^2.
// 2. Lower bound for every other pattern class at once: write z+- = X w+- (min-norm w for given z is X^T G^-1 z,
//    so only z matters) and Phi(z) = z+^T G^-1 z+ + z-^T G^-1 z-. Every (w+, w-) in F has z+_P = y_P + s_P,
//    s_P = relu(z-_P), z-_N = -y_N + s_N, s_N = relu(z+_N), and exactly
//      Phi(z) - U = 2 alpha+ . (z+ - z+*) + 2 alpha- . (z- - z-*) + Q(z+ - z+*) + Q(z- - z-*),  Q >= 0.
//    Per sample, by complementarity (alpha_j z*_j = 0 on the constrained samples, alpha_j <= 0 where tight):
//    the linear terms are >= 2 c_i s_i with the separation margin c_i = alpha+_i + alpha-_i. If c_i > 0 for
//    every i, then Phi(z) > U unless z = z*: the natural QP's optimum is the unique global w*, and every class
//    in which some neuron is active on a sample of the other sign (s_i > 0) costs at least U + 2 c_i s_i.
//    If some c_i is not certainly > 0 the certificate fails (another class may be cheaper: tests show one).
#pragma once

#include <flowcert/proofs/rh/w_star.hpp>

namespace flowcert::proofs::rh {

struct WStarM2Result {
    ProofResult status = ProofResult::not_proven("not run");  // proven: w* = (w+*, w-*), unique
    ProofResult labels_nonzero = ProofResult::not_proven("not run");
    WStarResult plus, minus;         // the two natural-pattern QPs (KKT certificates)
    ProofResult separation = ProofResult::not_proven("not run");  // c_i > 0 for every i
    IVec margin;                     // c_i = alpha+_i + alpha-_i
    IntervalD min_margin;            // min_i c_i
    int worst_sample = -1;
    IntervalD norm_sq;               // U = ||w+*||^2 + ||w-*||^2 (= alpha+_P . y_P - alpha-_N . y_N)
};

// Needs m = 2 with s = (+1, -1) (neuron 0 the positive one).
WStarM2Result certify_w_star_m2(const Instance& inst);

}  // namespace flowcert::proofs::rh
