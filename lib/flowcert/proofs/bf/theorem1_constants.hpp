// flowcert/proofs/bf/theorem1_constants.hpp -- the data constants of [BF2025, Theorem 1, App. D] in d = 2,
// exact from the activation cones (nets/alignment.hpp): the hypotheses Lemma 2 (deterministic part) and "G
// has no saddle", D_max, D_min, max/min of G, alpha_min (eqs. (22)-(24)), delta_0 (eq. (20)), the explicit
// lambda*_{alpha_0} of eq. (21) and the constant c_{alpha_0} of eq. (36).
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/nets.hpp>

#include <cstddef>
#include <string>

namespace flowcert::proofs::bf {

struct Theorem1Constants {
    ProofResult result;                    // proven: every constant below is certified
    std::size_t n_cones = 0, n_extremal = 0, n_local_max = 0, n_local_min = 0;
    bool no_saddle = false;                // every Clarke-critical direction with D != 0 is a strict extremum
    std::string no_saddle_reason;
    bool lemma2_independence = false;      // every family of <= 2 vectors d1l(0,y_k) x_k is independent
    bool lemma2_boundary = false;          // no sector's D_u on its boundary lines
    Rational D_max_sq, D_min_sq;     // exact squares
    IntervalMp D_max, D_min;
    // D_min of eq. (21) is a min over every u with 0 not in 𝔇_u, the cone u = 0 (w = 0) included. For ReLU
    // 0 is in 𝔇_0 (eta_k = 0), so the min over the other cones is D_min; for gamma > 0, 𝔇_0 is a zonotope
    // that may miss 0 and have a smaller min-norm element (not computed): D_min is then only an upper bound
    // and eq. (21) is refused.
    bool D_min_complete = false;
    IntervalMp max_G, min_G;               // max and min of G on the circle
    bool alpha_plus_empty = true, alpha_minus_empty = true;
    Rational alpha_plus_sq, alpha_minus_sq;  // 1 - (max cos)^2, 1 - (min cos)^2 (eqs. (22)-(24))
    IntervalMp alpha_min;
    bool delta0_prime_empty = true, delta0_second_empty = true;
    IntervalMp delta0_prime, delta0_second, delta0;  // eq. (20)
};
Theorem1Constants theorem1_constants(const nets::AlignmentData& data, const nets::Cones2& cones, long bits);

// The hypotheses of Theorem 1 on the data: Lemma 2 (deterministic part; disproven exactly when a family of
// <= 2 vectors d1l(0,y_k) x_k is dependent or a sector's D_u lies on its boundary line) and "G has no saddle"
// (proven or not proven: a degenerate critical point is not a counterexample to anything).
ProofResult lemma2_nondegeneracy(const Theorem1Constants& k);
ProofResult no_saddle(const Theorem1Constants& k);

// lambda*_{alpha_0} of eq. (21), for epsilon in (0, 1/3) and alpha_0 in (0, 1] (decimal strings); a certified
// enclosure (use its lower bound).
struct LambdaStar {
    ProofResult result;
    IntervalMp inner;         // the quantity raised to 1/(2 - 4 eps)
    IntervalMp term_alpha_min, term_alpha0, term_delta0, term_labels;
    IntervalMp lambda_star;
};
LambdaStar lambda_star(const nets::AlignmentData& data, const Theorem1Constants& k, const std::string& alpha0,
                       const std::string& epsilon, long bits);

// c_{alpha_0} of eq. (36) (the constant of the O(lambda^{eps |D| / D_max}) alignment gap of Theorem 1 (ii)):
// 4 D_max / min(alpha_min^2, alpha_0^2) exp(4 D_max^2 / (D_min^2 min(alpha_min, alpha_0)^2))
// exp(sqrt(2 sum |x_k|^2 / (n D_max e^2))) + sqrt((2/n) D_max sum |x_k|^2).
IntervalMp c_alpha0(const nets::AlignmentData& data, const Theorem1Constants& k, const std::string& alpha0, long bits);

}  // namespace flowcert::proofs::bf
