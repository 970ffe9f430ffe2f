// Fast rigorous products in round-to-nearest with a priori error bounds; see products.hpp.
#include "detail.hpp"

#include <Eigen/Core>

#include <cmath>
#include <stdexcept>
#include <utility>

namespace flowcert::linalg {

namespace {

using detail::add_down;
using detail::add_up;
using detail::div_up;
using detail::mul_up;

constexpr double kU = 0x1p-53;      // unit roundoff of binary64, round to nearest
constexpr double kEta = 0x1p-1074;  // smallest positive subnormal

// A priori bound for dot products of length k evaluated in any order (products.hpp):
//   |fl(x^T y) - x^T y| <= gamma_k S + k eta,  S = |x|^T|y| <= (S~ + k eta) / (1 - gamma_k),
// where S~ >= 0 is the computed fl(|x|^T |y|). Returns an upper bound on the error; +inf when
// S~ is not finite or gamma_k is unusable. [Higham 2002, Lemma 3.1 / eq. (3.5); underflow term
// as in Rump, Ogita, Oishi]
struct DotErrorBound {
    double gamma, one_minus_gamma, k_eta;
    explicit DotErrorBound(long long k) {
        gamma = gamma_bound(k);
        one_minus_gamma = add_down(1.0, -gamma);
        k_eta = mul_up(static_cast<double>(k), kEta);
    }
    // Upper bound on the exact sum of nonnegative terms whose fl-sum is s_tilde.
    double exact_nonneg_sum_upper(double s_tilde) const {
        if (!(s_tilde < rounding::kInf) || !(one_minus_gamma > 0)) return rounding::kInf;
        return div_up(add_up(s_tilde, k_eta), one_minus_gamma);
    }
    // Upper bound on |fl(x^T y) - x^T y| given S~ = fl(|x|^T|y|).
    double error_upper(double s_tilde) const {
        const double S = exact_nonneg_sum_upper(s_tilde);
        return add_up(mul_up(gamma, S), k_eta);
    }
};

IntervalD ball(double m, double r) {
    if (!std::isfinite(m) || !(r < rounding::kInf)) return IntervalD::entire();
    return IntervalD::bounds(rounding::add(m, -r, -1), rounding::add(m, r, +1));
}

// The radius of a mid-rad result (argument at its use in midrad_arrays): S~ = fl(|x|^T |y|) of the centre's dot
// products of length k, V~ = fl of the radius terms (inner nonnegative terms; inner = 0: none).
Eigen::MatrixXd radius_bound(const Eigen::ArrayXXd& S, const Eigen::ArrayXXd& V, long long k, long long inner) {
    const DotErrorBound eb(std::max<long long>(k, 1));
    const DotErrorBound eb2(std::max<long long>(inner, 1));
    const bool usable = eb.one_minus_gamma > 0 && eb2.one_minus_gamma > 0;
    const double g1 = usable ? div_up(eb.gamma, eb.one_minus_gamma) : rounding::kInf;
    const double g0 = usable ? div_up(1.0, eb2.one_minus_gamma) : rounding::kInf;
    constexpr double kMinNormal = 0x1p-1022;
    double C0 = add_up(mul_up(eb.k_eta, g1), eb.k_eta);
    if (inner > 0) C0 = add_up(C0, mul_up(eb2.k_eta, g0));
    C0 = std::max(C0, kMinNormal);
    Eigen::ArrayXXd R = inner > 0 ? Eigen::ArrayXXd((S * g1 + V * g0) + C0) : Eigen::ArrayXXd(S * g1 + C0);
    R = R * (1.0 + 14 * kU) + kMinNormal;
    return R.matrix();
}

// Core of the midpoint-radius product: A = <mA, rA>, B = <mB, rB>, rA/rB empty = 0.
//   A B ⊆ < fl(mA mB), err(mA mB) + |mA| rB + rA (|mB| + rB) >     [Rump 1999, Thm 2.2]
// The radius terms are nonnegative sums, bounded through their fl-values by
// DotErrorBound::exact_nonneg_sum_upper (inner dimension 2k for the concatenated product).
// Centre C and radius R (double matrices) with A B inside C +- R entrywise; R without the rounding-error
// terms when !with_rounding_error (TEST ONLY).
void midrad_arrays(const Eigen::MatrixXd& mA, const Eigen::MatrixXd& rA, const Eigen::MatrixXd& mB,
                   const Eigen::MatrixXd& rB, bool with_rounding_error, const Eigen::MatrixXd* absA_cached,
                   Eigen::MatrixXd& C, Eigen::MatrixXd& R_out) {
    const Eigen::Index m = mA.rows(), k = mA.cols(), n = mB.cols();
    if (mB.rows() != k) throw std::invalid_argument("mul_midrad: inner dimensions differ");
    const bool hasA = rA.size() != 0, hasB = rB.size() != 0;
    C = mA * mB;                                                         // fl(mA mB)
    // |mA| computed here, or the caller's cached copy (ExactMatrix: the same values, computed once).
    Eigen::MatrixXd absA_local;
    if (!absA_cached) absA_local = mA.cwiseAbs();
    const Eigen::MatrixXd& absA = absA_cached ? *absA_cached : absA_local;
    const Eigen::MatrixXd absB = mB.cwiseAbs();
    const Eigen::MatrixXd S = absA * absB;                               // fl(|mA| |mB|)
    // Radius part V = |mA| rB + rA T with T = |mB| + rB rounded upward (entrywise).
    Eigen::MatrixXd V = Eigen::MatrixXd::Zero(m, n);
    long long inner = 0;
    if (hasA && hasB) {
        Eigen::MatrixXd T(k, n);
        for (Eigen::Index j = 0; j < n; ++j)
            for (Eigen::Index i = 0; i < k; ++i) T(i, j) = add_up(absB(i, j), rB(i, j));
        Eigen::MatrixXd L(m, 2 * k), Rr(2 * k, n);
        L << absA, rA;
        Rr << rB, T;
        V = L * Rr;  // one GEMM for both terms
        inner = 2 * k;
    } else if (hasB) {
        V = absA * rB;
        inner = k;
    } else if (hasA) {
        V = rA * absB;
        inner = k;
    }
    if (!with_rounding_error) {  // TEST ONLY: unsound
        R_out = V;
        return;
    }
    // Radius E = gamma_k S + k eta + Vexact with S <= (S~ + k eta)/(1 - gamma_k), Vexact <= (V~ + k2 eta)/(1 - gamma_k2):
    //   E <= S~ g1 + V~ g0 + C0,   g1 >= gamma_k/(1 - gamma_k), g0 >= 1/(1 - gamma_k2),
    //   C0 >= k eta g1 + k eta + k2 eta g0, and C0 >= 2^-1022 (a NORMAL upper bound, computed once upward),
    // so no entrywise operation has a subnormal operand (those take a microcode assist on x86: point inputs,
    // rA = rB = 0, made every entry of the old expression (V~ + k2 eta) g0 subnormal and the product ~10x slower).
    // Evaluated in round-to-nearest, two products and two additions of nonnegative doubles (fused or not):
    // fl >= E (1-u)^3 - eta (each product loses at most eta/2 to underflow, additions none), so
    // E <= (fl + eta)(1 + 4u); and fl(fl(fl * (1 + 14u)) + T) with T = 2^-1022 >= (fl (1 + 14u)(1-u) - eta/2 + T)(1-u)
    // >= fl (1 + 4u) + eta (1 + 4u) since (1 + 14u)(1-u)^2 >= 1 + 4u and (T - eta/2)(1-u) >= eta (1 + 4u).
    // Entrywise, vectorized, no directed operation per entry.
    R_out = radius_bound(S.array(), V.array(), k, inner);
}

IMatrixD midrad_core(const Eigen::MatrixXd& mA, const Eigen::MatrixXd& rA, const Eigen::MatrixXd& mB,
                     const Eigen::MatrixXd& rB, bool with_rounding_error, const Eigen::MatrixXd* absA_cached = nullptr) {
    Eigen::MatrixXd C, R;
    midrad_arrays(mA, rA, mB, rB, with_rounding_error, absA_cached, C, R);
    IMatrixD out(C.rows(), C.cols());
    for (Eigen::Index j = 0; j < C.cols(); ++j)
        for (Eigen::Index i = 0; i < C.rows(); ++i) out(i, j) = ball(C(i, j), R(i, j));
    return out;
}

void split(const IMatrixD& A, Eigen::MatrixXd& mA, Eigen::MatrixXd& rA) {
    mA = mid<IntervalD>(A);
    rA = rad<IntervalD>(A);  // upper bounds on the radius about mid (interval_d.cpp)
}

}  // namespace

double gamma_bound(long long n) {
    if (n <= 0) return 0.0;
    const double nu = mul_up(static_cast<double>(n), kU);  // exact for n < 2^53
    if (!(nu < 0.5)) return rounding::kInf;
    return div_up(nu, add_down(1.0, -nu));
}

IntervalD dot_enclosure(const Eigen::VectorXd& x, const Eigen::VectorXd& y) {
    if (x.size() != y.size()) throw std::invalid_argument("dot_enclosure: sizes differ");
    const double s = x.dot(y);                               // any order
    const double St = x.cwiseAbs().dot(y.cwiseAbs());        // fl(|x|^T |y|)
    const DotErrorBound eb(std::max<Eigen::Index>(x.size(), 1));
    return ball(s, eb.error_upper(St));
}

IMatrixD mul_enclosure(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) {
    return midrad_core(A, Eigen::MatrixXd(), B, Eigen::MatrixXd(), true);
}

IMatrixD gram_enclosure(const Eigen::MatrixXd& X) {
    const Eigen::Index n = X.rows();
    // Lower triangles of fl(X X^T) and fl(|X| |X|^T) (symmetric rank-k updates: half the work).
    Eigen::MatrixXd G = Eigen::MatrixXd::Zero(n, n), S = Eigen::MatrixXd::Zero(n, n);
    G.selfadjointView<Eigen::Lower>().rankUpdate(X);
    const Eigen::MatrixXd absX = X.cwiseAbs();
    S.selfadjointView<Eigen::Lower>().rankUpdate(absX);
    const DotErrorBound eb(std::max<Eigen::Index>(X.cols(), 1));
    IMatrixD out(n, n);
    for (Eigen::Index j = 0; j < n; ++j)
        for (Eigen::Index i = j; i < n; ++i) {
            out(i, j) = ball(G(i, j), eb.error_upper(S(i, j)));  // encloses the exact x_i^T x_j = G_ji
            if (i != j) out(j, i) = out(i, j);
        }
    return out;
}

IMatrixD mul_midrad(const IMatrixD& A, const IMatrixD& B) {
    if (A.cols() != B.rows()) throw std::invalid_argument("mul_midrad: inner dimensions differ");
    if (!all_bounded(A) || !all_bounded(B)) return mul(A, B);  // mid-rad needs finite radii
    Eigen::MatrixXd mA, rA, mB, rB;
    split(A, mA, rA);
    split(B, mB, rB);
    return midrad_core(mA, rA, mB, rB, true);
}
IVectorD mul_midrad(const IMatrixD& A, const IVectorD& x) {
    const IMatrixD X = x;  // n x 1
    const IMatrixD y = mul_midrad(A, X);
    return y.col(0);
}
IMatrixD mul_midrad(const Eigen::MatrixXd& A, const IMatrixD& B) {
    if (A.cols() != B.rows()) throw std::invalid_argument("mul_midrad: inner dimensions differ");
    if (!all_bounded(B) || !A.allFinite()) return mul(to_interval(A), B);
    Eigen::MatrixXd mB, rB;
    split(B, mB, rB);
    return midrad_core(A, Eigen::MatrixXd(), mB, rB, true);
}
IMatrixD mul_midrad(const IMatrixD& A, const Eigen::MatrixXd& B) {
    if (A.cols() != B.rows()) throw std::invalid_argument("mul_midrad: inner dimensions differ");
    if (!all_bounded(A) || !B.allFinite()) return mul(A, to_interval(B));
    Eigen::MatrixXd mA, rA;
    split(A, mA, rA);
    return midrad_core(mA, rA, B, Eigen::MatrixXd(), true);
}

ExactMatrix::ExactMatrix(Eigen::MatrixXd A) : value_(std::move(A)), abs_(value_.cwiseAbs()) {
    if (!value_.allFinite()) throw std::invalid_argument("ExactMatrix: entries must be finite");
}

IMatrixD mul_midrad(const ExactMatrix& A, const IMatrixD& B) {
    if (A.value().cols() != B.rows()) throw std::invalid_argument("mul_midrad: inner dimensions differ");
    if (!all_bounded(B)) return mul(to_interval(A.value()), B);
    Eigen::MatrixXd mB, rB;
    split(B, mB, rB);
    return midrad_core(A.value(), Eigen::MatrixXd(), mB, rB, true, &A.abs());
}

OuterProductTable::OuterProductTable(const Eigen::MatrixXd& X) : d_(X.rows()), n_(X.cols()) {
    for (int k = 0; k < d_; ++k)
        for (int l = k; l < d_; ++l) pairs_.emplace_back(k, l);
    const Eigen::Index p = static_cast<Eigen::Index>(pairs_.size());
    hi_.resize(p, n_);
    lo_abs_.resize(p, n_);
    for (Eigen::Index i = 0; i < n_; ++i)
        for (Eigen::Index r = 0; r < p; ++r) {
            const double a = X(pairs_[r].first, i), b = X(pairs_[r].second, i);
            // TwoProduct is exact inside the guards of rounding.hpp; refuse data outside them.
            if (!std::isfinite(a) || !std::isfinite(b) || std::fabs(a) > rounding::kSplitMax ||
                std::fabs(b) > rounding::kSplitMax)
                throw std::invalid_argument("OuterProductTable: an input entry is not finite or too large to split");
            const rounding::TwoProd t = rounding::two_product(a, b);
            if ((t.hi != 0 && std::fabs(t.hi) < rounding::kTiny) || std::fabs(t.hi) > rounding::kProdMax)
                throw std::invalid_argument("OuterProductTable: an input product x_ki x_li cannot be split exactly");
            hi_(r, i) = t.hi;
            lo_abs_(r, i) = std::fabs(t.lo);  // x_k x_l = hi + lo lies in <hi, |lo|>
        }
    hi_abs_ = hi_.cwiseAbs();
    hiT_ = hi_.transpose();
    lo_absT_ = lo_abs_.transpose();
    hi_absT_ = hi_abs_.transpose();
}

std::vector<IMatrixD> OuterProductTable::grams(const IMatrixD& G) const {
    if (G.rows() != n_) throw std::invalid_argument("OuterProductTable::grams: G must have n rows");
    std::vector<IMatrixD> out;
    // packed(r, c) = sum_i (x_k x_l)_i G_ic for the pair r = (k, l): one mid-rad product with <hi, |lo|>.
    IMatrixD packed;
    if (!all_bounded(G)) {
        packed = IMatrixD::Constant(static_cast<Eigen::Index>(pairs_.size()), G.cols(), IntervalD::entire());
    } else {
        Eigen::MatrixXd mG, rG;
        split(G, mG, rG);
        packed = midrad_core(hi_, lo_abs_, mG, rG, true, &hi_abs_);
    }
    for (Eigen::Index c = 0; c < G.cols(); ++c) {
        IMatrixD M(d_, d_);
        for (std::size_t r = 0; r < pairs_.size(); ++r)
            M(pairs_[r].first, pairs_[r].second) = M(pairs_[r].second, pairs_[r].first) = packed(static_cast<Eigen::Index>(r), c);
        out.push_back(std::move(M));
    }
    return out;
}

IMatrixD OuterProductTable::gram(const IVectorD& g) const {
    const IMatrixD G = g;
    return grams(G)[0];
}

IVectorD OuterProductTable::quadratic_forms(const IMatrixD& A) const {
    if (A.rows() != d_ || A.cols() != d_) throw std::invalid_argument("OuterProductTable::quadratic_forms: A must be d x d");
    IMatrixD a(static_cast<Eigen::Index>(pairs_.size()), 1);
    const IntervalD two(2);
    for (std::size_t r = 0; r < pairs_.size(); ++r) {
        const auto [k, l] = pairs_[r];
        IntervalD e = A(k, l);
        if (k != l) {
            IntervalD both;
            if (!intersect(A(k, l), A(l, k), both))
                throw std::invalid_argument("OuterProductTable::quadratic_forms: A does not enclose a symmetric matrix");
            e = both;
            e = test_only_drop_offdiagonal_weight_UNSOUND ? e : two * e;  // exact scaling by 2
        }
        a(static_cast<Eigen::Index>(r), 0) = e;
    }
    if (!all_bounded(a)) return IVectorD::Constant(n_, IntervalD::entire());
    Eigen::MatrixXd ma, ra;
    split(a, ma, ra);
    return midrad_core(hiT_, lo_absT_, ma, ra, true, &hi_absT_).col(0);
}

namespace {

IMatrixD to_balls(const Eigen::MatrixXd& C, const Eigen::MatrixXd& R) {
    IMatrixD out(C.rows(), C.cols());
    for (Eigen::Index j = 0; j < C.cols(); ++j)
        for (Eigen::Index i = 0; i < C.rows(); ++i) out(i, j) = ball(C(i, j), R(i, j));
    return out;
}

// W + diag(s) G entrywise: W_jk * 1 + s_j G_jk, a dot product of length 2 per entry (k = 2); its radius terms
// rW + |s| rG + r_s |G| + r_s rG (inner = 4; exact deviation of members, as in mid-rad multiplication).
IMatrixD add_scaled_rows_impl(const IMatrixD& W, const IVectorD& s, const IMatrixD& G, bool with_rounding_error) {
    if (W.rows() != G.rows() || W.cols() != G.cols() || s.size() != G.rows())
        throw std::invalid_argument("add_scaled_rows_midrad: shapes differ");
    if (!all_bounded(W) || !all_bounded(G) || !all_bounded(IMatrixD(s)))
        return IMatrixD::Constant(W.rows(), W.cols(), IntervalD::entire());
    Eigen::MatrixXd mW, rW, mG, rG, ms, rs;
    split(W, mW, rW);
    split(G, mG, rG);
    split(IMatrixD(s), ms, rs);
    const Eigen::ArrayXXd msb = ms.col(0).replicate(1, G.cols()).array(), rsb = rs.col(0).replicate(1, G.cols()).array();
    const Eigen::ArrayXXd aG = mG.array().abs();
    const Eigen::MatrixXd C = (mW.array() + msb * mG.array()).matrix();
    const Eigen::ArrayXXd V = rW.array() + msb.abs() * rG.array() + rsb * aG + rsb * rG.array();
    if (!with_rounding_error) return to_balls(C, V.matrix());  // TEST ONLY
    const Eigen::ArrayXXd S = mW.array().abs() + msb.abs() * aG;
    return to_balls(C, radius_bound(S, V, 2, 4));
}

}  // namespace

IMatrixD add_scaled_rows_midrad(const IMatrixD& W, const IVectorD& s, const IMatrixD& G) {
    return add_scaled_rows_impl(W, s, G, true);
}

IVectorD rowwise_dot_midrad(const IMatrixD& A, const IMatrixD& B) {
    if (A.rows() != B.rows() || A.cols() != B.cols()) throw std::invalid_argument("rowwise_dot_midrad: shapes differ");
    if (!all_bounded(A) || !all_bounded(B)) return IVectorD::Constant(A.rows(), IntervalD::entire());
    Eigen::MatrixXd mA, rA, mB, rB;
    split(A, mA, rA);
    split(B, mB, rB);
    const Eigen::ArrayXXd aA = mA.array().abs(), aB = mB.array().abs();
    // Row j: a dot product of length k = cols (centre), radius terms |mA| rB + rA |mB| + rA rB (inner = 3 cols).
    const Eigen::MatrixXd C = (mA.array() * mB.array()).rowwise().sum().matrix();
    const Eigen::ArrayXXd S = (aA * aB).rowwise().sum();
    const Eigen::ArrayXXd V = (aA * rB.array() + rA.array() * aB + rA.array() * rB.array()).rowwise().sum();
    return to_balls(C, radius_bound(S, V, A.cols(), 3 * A.cols())).col(0);
}

namespace detail {
void midrad_product_arrays(const Eigen::MatrixXd& mA, const Eigen::MatrixXd& rA, const Eigen::MatrixXd& mB,
                           const Eigen::MatrixXd& rB, Eigen::MatrixXd& C, Eigen::MatrixXd& R) {
    if (mA.cols() != mB.rows()) throw std::invalid_argument("midrad_product_arrays: inner dimensions differ");
    midrad_arrays(mA, rA, mB, rB, true, nullptr, C, R);
}
IMatrixD add_scaled_rows_midrad_without_rounding_error_UNSOUND(const IMatrixD& W, const IVectorD& s, const IMatrixD& G) {
    return add_scaled_rows_impl(W, s, G, false);
}
IMatrixD mul_midrad_without_rounding_error_UNSOUND(const IMatrixD& A, const IMatrixD& B) {
    Eigen::MatrixXd mA, rA, mB, rB;
    split(A, mA, rA);
    split(B, mB, rB);
    return midrad_core(mA, rA, mB, rB, false);
}
}  // namespace detail

}  // namespace flowcert::linalg
