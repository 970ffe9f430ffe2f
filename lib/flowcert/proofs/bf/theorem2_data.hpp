// flowcert/proofs/bf/theorem2_data.hpp -- the data side of [BF2025, Theorem 2, Sec. 4, App. A]: the
// least-squares fit beta* and its residuals, Assumption 3 (with the least admissible eta) and Assumptions
// 4-6 (Lemma 8: Assumption 3 with eta < 1/6 implies them), all in exact rational arithmetic. Square-root
// inequalities (Assumption 5) are returned as exact SqrtRatio pairs for the caller to compare as intervals.
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/nets.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace flowcert::proofs::bf {

struct LeastSquares {
    bool ok = false;
    std::string reason;
    nets::QVec beta;          // beta* = (X^T X)^{-1} X^T y, exact
    nets::QVec predictions;   // x_k^T beta*
    nets::QVec residuals;     // x_k^T beta* - y_k
    Rational loss_paper;  // (1/(2n)) sum r^2
    Rational loss_code;   // (1/n) sum r^2
    nets::QVec D_star;          // (1/n) sum y_k x_k
};
LeastSquares least_squares(const nets::AlignmentData& data);

// Assumption 3 on three points labelled by `order` (x_1 = data.x[order[0]] the left point, x_2 = the middle
// one, x_3 the right one; three_point_order gives it from the cone geometry, so a data set listed in another
// order is recognized): the eta-independent conditions and the least admissible eta.
struct Assumption3 {
    bool shape_ok = false;       // n = 3, d = 2 and the eta-independent (strict) conditions hold
    bool wrong_shape = false;    // n != 3 or d != 2 (the assumption does not apply)
    std::string reason;
    Rational eta_min;      // the least eta for which the data satisfy Assumption 3
};
Assumption3 check_assumption3(const nets::AlignmentData& data, const std::array<std::size_t, 3>& order = {0, 1, 2});

struct Assumptions456 {
    bool a4 = false;
    bool a4_decided = false;     // d = 2: a4 is decided exactly
    std::string a4_reason;
    std::vector<std::size_t> K;          // extreme points (0-based)
    std::vector<nets::SqrtRatio> a5_lhs, a5_rhs;  // per k in K: y_k |x_k|^2 and sqrt(sum y^2) sqrt(sum_{k'!=k} <x_k',x_k>^2)
};
Assumptions456 check_assumptions_456(const nets::AlignmentData& data);

// The Sec. 4 setting (ReLU and the half-square loss): disproven for a leaky slope or the logistic loss.
ProofResult section4_setting(const nets::AlignmentData& data);
// Assumption 4 (d = 2): disproven with the failing condition, not proven for d != 2.
ProofResult assumption4(const Assumptions456& a, std::size_t d);
// Assumption 3's eta-independent conditions: disproven with the failing ones (n = 3, d = 2).
ProofResult assumption3_shape(const Assumption3& a);

}  // namespace flowcert::proofs::bf
