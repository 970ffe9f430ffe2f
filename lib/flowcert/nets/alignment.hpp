// flowcert/nets/alignment.hpp -- the alignment function of Boursier & Flammarion [BF2025, Sec. 3]:
// D(w, 0), the sets 𝔇_u and their min-norm elements D_u, G(w) = <w, D(w, 0)> (eq. (7)),
// extremal vectors (Definition 1), the activation cones of the data in d = 2, the constants
// D_max, D_min, alpha_min, delta_0 and the explicit lambda*_{alpha_0} of eq. (21), and the data
// hypotheses of Theorem 2 (Assumptions 3-6, Lemma 8) with the least-squares quantities.
//
// The data are exact decimals, so at theta = 0 everything combinatorial is exact: with
// g_k := -c d1 l(0, y_k) x_k (c the risk weight, 1/n in the paper; d1 l(0, y) = -y for the half
// square loss and -y/2 for the logistic loss), 𝔇(w, 0) = { sum_k eta_k g_k } with eta_k = 1 if
// <w,x_k> > 0, gamma if < 0, and [gamma, 1] if = 0 [BF2025, eq. (6)]. D_u, signs, comparisons
// and cosines squared are exact GMP rationals; only square roots (norms) become intervals
// (IntervalMp at a stated precision). Library code: never prints; results carry a status and a reason.
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/nets/two_layer.hpp>

#include <boost/multiprecision/gmp.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace flowcert::nets {

using Rational = boost::multiprecision::mpq_rational;
using QVec = std::vector<Rational>;

// The exact data at theta = 0.
struct AlignmentData {
    std::size_t n = 0, d = 0;         // d includes the bias coordinate
    std::vector<QVec> x;              // augmented inputs
    QVec y;
    Rational gamma, c;                // leaky slope, risk weight
    LossKind loss = LossKind::half_square;
    QVec dl0;                         // d1 l(0, y_k)
    std::vector<QVec> g;              // g_k = -c d1 l(0, y_k) x_k
};
// Throws std::invalid_argument (spec_problem) on an unusable spec.
AlignmentData alignment_data(const TwoLayerSpec& spec);

Rational dot(const QVec& a, const QVec& b);
// A(w) = (sign <w, x_k>)_k with sign(0) = 0 [BF2025, Sec. 3].
std::vector<int> activation_pattern(const AlignmentData& data, const QVec& w);
// G(w) = -c sum_k d1 l(0, y_k) sigma(<w, x_k>) = <w, D(w, 0)>, exact for rational w (not normalized;
// G is positively 1-homogeneous, so G on the sphere is G(w)/|w|).
Rational G_exact(const AlignmentData& data, const QVec& w);
// The same closed form over intervals (an enclosure of G on a box of w).
template <Interval I>
I G_enclosure(const TwoLayerModel<I>& model, const std::vector<I>& w);

// The min-norm element D_u of 𝔇_u [BF2025, Sec. 1]. Exact when the generators g_k with u_k = 0 are
// all parallel (always true in d = 2 for w != 0, and for |Z| <= 1 in any d): then 𝔇_u is a segment
// b + [t_lo, t_hi] v and the minimizer is the clamped projection, certified by its KKT condition.
struct MinNorm {
    enum class Status { not_proven, exact, unsupported };
    Status status = Status::not_proven;
    std::string reason;
    QVec D;                             // D_u
    std::vector<std::optional<Rational>> eta;  // eta_k realizing D_u (unique when |Z| <= 1; empty optional otherwise)
    bool zero_in_set = false;           // 0 in 𝔇_u  (iff D_u = 0)
};
MinNorm min_norm_element(const AlignmentData& data, const std::vector<int>& u);
// D(w, 0) = D_{A(w)}.
MinNorm D_at(const AlignmentData& data, const QVec& w);

// s = p / sqrt(q) with q > 0: a signed square-root ratio compared exactly (cosines, G on the sphere).
struct SqrtRatio {
    Rational p, q;
    int sign() const { return p.sign(); }
    Rational square() const { return p * p / q; }
    IntervalMp enclose(long bits) const;
};
int compare(const SqrtRatio& a, const SqrtRatio& b);  // -1, 0, +1

enum class Critical {
    none,             // no Clarke-critical point of G on the circle in this cone
    strict_local_max,
    strict_local_min,
    flat,             // D_u = 0 on a 2-d sector: G = 0 on the whole sector (dead neurons)
    zero_D,           // a ray with D_u = 0 (boundary of a dead sector)
    degenerate        // a critical point on a cone boundary or a one-sided zero derivative (Lemma 2 fails)
};
const char* to_string(Critical c);

// One activation cone of the data in d = 2: a ray (some u_k = 0) or an open sector.
struct Cone2 {
    std::vector<int> u;
    bool is_ray = false;
    QVec dir;             // ray: its direction; sector: an interior direction
    QVec from, to;        // sector: the boundary rays, counter-clockwise from -> to
    MinNorm D;
    bool extremal_pos = false;  // D_u != 0 and D_u in A^{-1}(u)   [BF2025, Def. 1]
    bool extremal_neg = false;  // D_u != 0 and D_u in -A^{-1}(u)
    Critical critical = Critical::none;
    QVec critical_dir;          // where (a direction) the critical point of G lies
    SqrtRatio G_critical;       // G at critical_dir / |critical_dir|
    // Lemma 2 (deterministic part) for a sector: D_u != 0 is not on the line of either boundary ray.
    bool lemma2_ok = true;
};

struct Cones2 {
    enum class Status { not_proven, exact, bad_input, unsupported };
    Status status = Status::not_proven;
    std::string reason;
    std::vector<Cone2> cones;  // counter-clockwise: ray, sector, ray, sector, ...
};
// Every u in A(R^2 \ {0}) from the angular order of the data directions (exact).
Cones2 activation_cones_2d(const AlignmentData& data);

// ---- the constants of Theorem 1 [BF2025, App. D, eqs. (20)-(24)] ---------------------------
struct Constants {
    enum class Status { not_proven, certified, not_applicable };
    Status status = Status::not_proven;
    std::string reason;
    std::size_t n_cones = 0, n_extremal = 0, n_local_max = 0, n_local_min = 0;
    bool no_saddle = false;                // every Clarke-critical direction with D != 0 is a strict extremum
    std::string no_saddle_reason;
    bool lemma2_independence = false;      // every family of <= 2 vectors d1l(0,y_k) x_k is independent
    bool lemma2_boundary = false;          // no sector's D_u on its boundary lines
    Rational D_max_sq, D_min_sq;           // exact squares
    IntervalMp D_max, D_min;
    IntervalMp max_G, min_G;               // max and min of G on the circle
    bool alpha_plus_empty = true, alpha_minus_empty = true;
    Rational alpha_plus_sq, alpha_minus_sq;  // 1 - (max cos)^2, 1 - (min cos)^2 (eqs. (22)-(24))
    IntervalMp alpha_min;
    bool delta0_prime_empty = true, delta0_second_empty = true;
    IntervalMp delta0_prime, delta0_second, delta0;  // eq. (20)
};
Constants theorem1_constants(const AlignmentData& data, const Cones2& cones, long bits = 128);

// lambda*_{alpha_0} of eq. (21); a certified enclosure (use its lower bound).
struct LambdaStar {
    enum class Status { not_proven, certified, not_applicable };
    Status status = Status::not_proven;
    std::string reason;
    IntervalMp inner;         // the quantity raised to 1/(2 - 4 eps)
    IntervalMp term_alpha_min, term_alpha0, term_delta0, term_labels;
    IntervalMp lambda_star;
};
LambdaStar lambda_star(const AlignmentData& data, const Constants& k, const std::string& alpha0,
                       const std::string& epsilon, long bits = 128);

// ---- least squares and the hypotheses of Theorem 2 [BF2025, Sec. 4, App. A] ---------------
struct LeastSquares {
    bool ok = false;
    std::string reason;
    QVec beta;          // beta* = (X^T X)^{-1} X^T y, exact
    QVec predictions;   // x_k^T beta*
    QVec residuals;     // x_k^T beta* - y_k
    Rational loss_paper;  // (1/(2n)) sum r^2
    Rational loss_code;   // (1/n) sum r^2
    QVec D_star;          // (1/n) sum y_k x_k
};
LeastSquares least_squares(const AlignmentData& data);

struct Assumption3 {
    bool shape_ok = false;       // n = 3, d = 2 and the eta-independent (strict) conditions hold
    std::string reason;
    Rational eta_min;            // the least eta for which the data satisfy Assumption 3
    bool eta_below_one_sixth = false;  // eta_min < 1/6: Assumption 3 holds with some eta < 1/6
};
Assumption3 check_assumption3(const AlignmentData& data);

struct Assumptions456 {
    bool a4 = false;
    std::string a4_reason;
    std::vector<std::size_t> K;          // extreme points (0-based)
    bool a5 = false;
    std::vector<SqrtRatio> a5_lhs, a5_rhs;  // per k in K: y_k |x_k|^2 and sqrt(sum y^2) sqrt(sum_{k'!=k} <x_k',x_k>^2)
    std::vector<bool> a5_holds;
    bool a6_sign = false;                // <beta*, x_k> < y_k for k in K (the cone condition is not checked)
    // Lemma 8 facts (three points): x_2 = alpha_1 x_1 + alpha_3 x_3
    bool has_x2_decomposition = false;
    Rational alpha1, alpha3;
};
Assumptions456 check_assumptions_456(const AlignmentData& data, const LeastSquares& ls);

// Decimal strings of an exact rational (rounded outward to `digits` significant digits).
std::string decimal_string(const Rational& q, int digits = 20);

extern template IntervalD G_enclosure(const TwoLayerModel<IntervalD>&, const std::vector<IntervalD>&);
extern template IntervalMp G_enclosure(const TwoLayerModel<IntervalMp>&, const std::vector<IntervalMp>&);

}  // namespace flowcert::nets
