// flowcert/nets/alignment.hpp -- the alignment function of Boursier & Flammarion [BF2025, Sec. 3]:
// D(w, 0), the sets 𝔇_u and their min-norm elements D_u, G(w) = <w, D(w, 0)> (eq. (7)),
// extremal vectors (Definition 1) and the activation cones of the data in d = 2, with the exact
// rational vector helpers they use. The proof quantities built on them (the constants of
// Theorem 1, lambda*, the hypotheses of Theorem 2) are in lib/flowcert/proofs/bf.
//
// The data are exact decimals, so at theta = 0 everything combinatorial is exact: with
// g_k := -c d1 l(0, y_k) x_k (c the risk weight, 1/n in the paper; d1 l(0, y) = -y for the half
// square loss and -y/2 for the logistic loss), 𝔇(w, 0) = { sum_k eta_k g_k } with eta_k = 1 if
// <w,x_k> > 0, gamma if < 0, and [gamma, 1] if = 0 [BF2025, eq. (6)]. D_u, signs, comparisons
// and cosines squared are exact GMP rationals; only square roots (norms) become intervals
// (IntervalMp at a stated precision). Library code: never prints; results carry a status and a reason.
#pragma once

#if !defined(FLOWCERT_NETS_INTERNAL)
#error "include <flowcert/nets.hpp>, not the internal headers"
#endif

#include <flowcert/interval.hpp>
#include <flowcert/nets/two_layer.hpp>

#include <boost/multiprecision/gmp.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace flowcert::nets {

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
// Exact helpers on rational vectors (d = 2 where the name says so).
Rational cross(const QVec& a, const QVec& b);  // a_1 b_2 - a_2 b_1 (d = 2)
QVec rot90(const QVec& a);                      // J a, counter-clockwise by pi/2 (d = 2)
bool is_zero(const QVec& a);
QVec neg(const QVec& a);
// Gauss-Jordan elimination over the rationals: x with A x = b; false if A is singular.
bool solve_exact(std::vector<QVec> A, QVec b, QVec& x);
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

// Decimal strings of an exact rational (rounded outward to `digits` significant digits).
std::string decimal_string(const Rational& q, int digits = 20);

extern template IntervalD G_enclosure(const TwoLayerModel<IntervalD>&, const std::vector<IntervalD>&);
extern template IntervalMp G_enclosure(const TwoLayerModel<IntervalMp>&, const std::vector<IntervalMp>&);

}  // namespace flowcert::nets
