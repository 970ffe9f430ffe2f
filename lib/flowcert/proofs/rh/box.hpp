// flowcert/proofs/rh/box.hpp -- the scale-free box instance of issue 17 item 1 (docs/rh.md#box-certificate;
// the verifier is rh/box_certificate, the probability of the box is concentration.hpp).
//
// Write G = tau (I + E), eta = h / tau, span init w(0) = X^T (c 1) with c = c~ / tau (tau = d, or tr Sigma).
// In the rescaled coordinates a^ = tau a, beta = X w the GD map reads
//   a^ <- a^ - h D r,  beta <- beta - h (I + E) D r,  a^(0) = c~ 1,  beta(0) = c~ (I + E) 1,
// and ||w(inf) - w*||^2 = delta^T G delta = delta^T (I + E) delta^ / tau (delta^ = tau delta), so
// ratio^2 = tau gap^2 / n_- = delta^T (I + E) delta^ / n_- depends on (I + E, h, c~, y) only, not on d.
// box_instance builds a nets::rh::Instance with G = the interval matrix {diag in [1 - kappa, 1 + kappa],
// off-diagonal in [-eps, eps]}, eta = h and a(0) = c~ 1 (each widened by the relative 2^-30 on both sides, so that the
// rounded eta = RD(h / tau), c = RD(c~ / tau) of a data instance are members also when tau = tr Sigma is
// only enclosed, to a relative 1e-11 at d = 1e6), u = 0 and d = tr = 1 (so the gap ratios of
// enclose_gap are ratio = gap^ / sqrt(n_-)). Every step of the rh pipeline (interval GD, the tail
// certificate, the KKT certificate, the gap) is an interval computation with G as data, and the linalg
// primitives it calls enclose their results for every member of an interval matrix (symmetric_eigen.hpp,
// solve.hpp); so what it proves on the box holds for every normalized Gram matrix I + E in the box
// (the box also holds non-symmetric members: a superset, still sound).
#pragma once

#include <flowcert/nets.hpp>

#include <string>

namespace flowcert::proofs::rh {

using nets::rh::Instance;

struct BoxSpec {
    int n = 0;
    std::string labels = "alternating";  // only "alternating" so far (+1, -1, ...)
    std::string kappa = "1/100";         // diagonal of G / tau in [1 - kappa, 1 + kappa]
    std::string eps = "1/100";           // off-diagonal of G / tau in [-eps, eps]
    std::string h = "1/2";               // eta tau
    std::string c = "1/2";               // c~ = c tau (span init)
};

// Throws std::invalid_argument on a bad spec (n < 1, kappa not in [0, 1), eps < 0, h or c <= 0, labels).
Instance box_instance(const BoxSpec& spec);

// The same instance with the point Gram matrix I + E (E symmetric, |E_ii| <= kappa, |E_ij| <= eps is not
// checked here): for tests that sample members of the box.
Instance box_member(const BoxSpec& spec, const linalg::IMatrixD& normalized_gram);

// The hypotheses of the reconstructed claim (docs/rh.md#regime, #step-size, #initialization) at the worst
// symmetric member of the box, in closed form [DERIVED]: near-orthogonality max_{i!=j}|G_ij| / min_i G_ii <=
// eps / (1 - kappa), eta lambda_max(G) <= h lambda_max(I + E) <= h (1 + kappa + (n - 1) eps) (Gershgorin),
// min_i <w(0), x_i> = c~ min_i ((I + E) 1)_i >= c~ (1 - kappa - (n - 1) eps); each bound is attained by a
// symmetric member (E = -+kappa I +- eps (J - I)), so "every member satisfies the hypothesis" is decided
// exactly: proven, or disproven by that member (h and c~ as widened in box_instance).
struct BoxHypotheses {
    IntervalD eps_sup;   // eps / (1 - kappa)
    IntervalD step_sup;  // h (1 + kappa + (n - 1) eps)
    IntervalD init_inf;  // c~ (1 - kappa - (n - 1) eps)
};
BoxHypotheses box_hypotheses(const BoxSpec& spec);

// Whether a data instance (m = 1, span init, alternating labels, n = spec.n) is a member of the box with
// tau = tr Sigma (= d when isotropic): every entry of G / tau certainly in its range and eta tau, c tau in
// the widened h, c~ of box_instance. Not proven (with the first entry that fails) otherwise.
ProofResult data_in_box(const BoxSpec& spec, const Instance& data);

}  // namespace flowcert::proofs::rh
