// The data side of Theorem 2 [BF2025, Sec. 4, App. A, Lemma 8]. See theorem2_data.hpp.
#include "flowcert/proofs/bf/theorem2_data.hpp"

#include <algorithm>

namespace flowcert::proofs::bf {

namespace {
using nets::AlignmentData;
using nets::QVec;
using nets::SqrtRatio;
using nets::cross;
using nets::dot;
using nets::is_zero;
using nets::neg;
using nets::rot90;
using nets::solve_exact;
SqrtRatio sqrt_of(const Rational& a) {  // sqrt(a) = a / sqrt(a) for a > 0
    if (a.sign() == 0) return {Rational(0), Rational(1)};
    return {a, a};
}
}  // namespace

LeastSquares least_squares(const AlignmentData& data) {
    LeastSquares ls;
    const std::size_t n = data.n, d = data.d;
    std::vector<QVec> A(d, QVec(d, Rational(0)));
    QVec b(d, Rational(0));
    for (std::size_t k = 0; k < n; ++k)
        for (std::size_t i = 0; i < d; ++i) {
            b[i] += data.x[k][i] * data.y[k];
            for (std::size_t j = 0; j < d; ++j) A[i][j] += data.x[k][i] * data.x[k][j];
        }
    if (!solve_exact(A, b, ls.beta)) {
        ls.reason = "X^T X is singular";
        return ls;
    }
    Rational ss = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const Rational p = dot(data.x[k], ls.beta);
        ls.predictions.push_back(p);
        ls.residuals.push_back(p - data.y[k]);
        ss += (p - data.y[k]) * (p - data.y[k]);
    }
    const Rational nn(static_cast<long>(n));
    ls.loss_paper = ss / (2 * nn);
    ls.loss_code = ss / nn;
    ls.D_star.assign(d, Rational(0));
    for (std::size_t k = 0; k < n; ++k)
        for (std::size_t i = 0; i < d; ++i) ls.D_star[i] += data.y[k] * data.x[k][i] / nn;
    ls.ok = true;
    return ls;
}

Assumption3 check_assumption3(const AlignmentData& data, const std::array<std::size_t, 3>& order) {
    Assumption3 a;
    if (data.n != 3 || data.d != 2) {
        a.wrong_shape = true;
        a.reason = "Assumption 3 is about n = 3 points in R^2";
        return a;
    }
    const std::vector<QVec> x = {data.x[order[0]], data.x[order[1]], data.x[order[2]]};
    const QVec y = {data.y[order[0]], data.y[order[1]], data.y[order[2]]};
    std::vector<std::string> fails;
    // eta-independent (strict or one-sided) conditions [BF2025, Assumption 3]
    if (!(x[0][0] > -1)) fails.push_back("x_1[1] > -1");
    if (!(x[0][1] >= 1)) fails.push_back("x_1[2] >= 1");
    if (!(y[0] >= 1)) fails.push_back("y_1 >= 1");
    if (!(y[1] > 0)) fails.push_back("y_2 > 0");
    if (!(x[2][0] < 1)) fails.push_back("x_3[1] < 1");
    if (!(x[2][1] >= 1)) fails.push_back("x_3[2] >= 1");
    if (!(y[2] >= 1)) fails.push_back("y_3 >= 1");
    auto absq = [](const Rational& q) { return q.sign() < 0 ? Rational(-q) : q; };
    const Rational needs[] = {x[0][0] + 1, x[0][1] - 1, y[0] - 1, absq(x[1][0]), absq(x[1][1] - 1), y[1],
                              1 - x[2][0], x[2][1] - 1, y[2] - 1};
    a.eta_min = 0;
    for (const auto& q : needs) a.eta_min = std::max(a.eta_min, q);
    a.shape_ok = fails.empty();
    for (const auto& f : fails) a.reason += (a.reason.empty() ? "fails: " : ", ") + f;
    if (order != std::array<std::size_t, 3>{0, 1, 2})
        a.reason += std::string(a.reason.empty() ? "" : "; ") + "points relabelled by the cone geometry: x_1, x_2, x_3 = input points " +
                    std::to_string(order[0] + 1) + ", " + std::to_string(order[1] + 1) + ", " + std::to_string(order[2] + 1);
    return a;
}

Assumptions456 check_assumptions_456(const AlignmentData& data) {
    Assumptions456 r;
    if (data.d != 2) {
        r.a4_reason = "checked for d = 2 only";
        return r;
    }
    r.a4_decided = true;
    const std::size_t n = data.n;
    r.a4 = true;
    if (n < data.d) { r.a4 = false; r.a4_reason += "n < d; "; }
    for (std::size_t k = 0; k < n; ++k) {
        if (!(data.y[k] > 0)) { r.a4 = false; r.a4_reason += "y_" + std::to_string(k + 1) + " <= 0; "; }
        if (is_zero(data.x[k])) { r.a4 = false; r.a4_reason += "x_" + std::to_string(k + 1) + " = 0; "; }
        for (std::size_t j = k + 1; j < n; ++j) {
            if (!(dot(data.x[k], data.x[j]) > 0)) {
                r.a4 = false;
                r.a4_reason += "<x_" + std::to_string(k + 1) + ", x_" + std::to_string(j + 1) + "> <= 0; ";
            }
            if (cross(data.x[k], data.x[j]).sign() == 0) {
                r.a4 = false;
                r.a4_reason += "x_" + std::to_string(k + 1) + ", x_" + std::to_string(j + 1) + " dependent; ";
            }
        }
    }
    // K: points with a supporting w != 0, <w, x_k> = 0, <w, x_k'> >= 0 (in d = 2, w = +-J x_k)
    for (std::size_t k = 0; k < n; ++k) {
        for (int s : {1, -1}) {
            QVec w = rot90(data.x[k]);
            if (s < 0) w = neg(w);
            bool ok = !is_zero(w);
            for (std::size_t j = 0; j < n; ++j) ok = ok && dot(w, data.x[j]) >= 0;
            if (ok) {
                r.K.push_back(k);
                break;
            }
        }
    }
    Rational Y = 0;
    for (const auto& yk : data.y) Y += yk * yk;
    for (std::size_t k : r.K) {
        Rational Sk = 0;
        for (std::size_t j = 0; j < n; ++j)
            if (j != k) Sk += dot(data.x[j], data.x[k]) * dot(data.x[j], data.x[k]);
        const SqrtRatio lhs{data.y[k] * dot(data.x[k], data.x[k]), Rational(1)};
        const SqrtRatio rhs = sqrt_of(Y * Sk);  // sqrt(sum y^2) sqrt(sum_{k' != k} <x_k', x_k>^2)
        r.a5_lhs.push_back(lhs);  // [BF2025, Assumption 5]: lhs > rhs
        r.a5_rhs.push_back(rhs);
    }
    return r;
}

ProofResult section4_setting(const AlignmentData& data) {
    const bool ok = data.gamma.sign() == 0 && data.loss == nets::LossKind::half_square;
    const std::string s = "gamma = " + data.gamma.str() + ", loss = " + (data.loss == nets::LossKind::half_square ? "half_square" : "logistic");
    return ok ? ProofResult::proven(s) : ProofResult::disproven(s + " (Theorem 2 is stated for ReLU and the half-square loss)");
}

ProofResult assumption4(const Assumptions456& a, std::size_t d) {
    if (!a.a4_decided) return ProofResult::not_proven(a.a4_reason.empty() ? "checked for d = 2 only (d = " + std::to_string(d) + ")" : a.a4_reason);
    return a.a4 ? ProofResult::proven("exact rational arithmetic (d = 2)") : ProofResult::disproven(a.a4_reason);
}

ProofResult assumption3_shape(const Assumption3& a) {
    if (a.wrong_shape) return ProofResult::disproven(a.reason);
    return a.shape_ok ? ProofResult::proven("exact rational comparisons" + (a.reason.empty() ? std::string() : "; " + a.reason))
                      : ProofResult::disproven(a.reason);
}

}  // namespace flowcert::proofs::bf
