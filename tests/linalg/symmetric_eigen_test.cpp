// Symmetric eigenvalue enclosures: exact rational matrices with known spectra, and exact
// Sylvester-inertia counts (LDL^T over Q) for random members of interval matrices.
#include <catch2/catch.hpp>

#include <algorithm>

#include "reference.hpp"

using namespace flowcert;
using namespace flowcert::linalg;
using namespace flowcert::linalg::test;

namespace {

// Householder reflection I - 2 v v^T / (v^T v): exactly orthogonal and symmetric over Q.
QMat householder(const std::vector<long>& v) {
    const std::size_t n = v.size();
    Q vv = 0;
    for (long x : v) vv += Q(x) * Q(x);
    QMat H = q_identity(n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) H[i][j] -= Q(2) * Q(v[i]) * Q(v[j]) / vv;
    return H;
}

// A = U diag(d) U^T with U = H1 H2 exactly orthogonal: the spectrum of A is exactly d.
QMat with_spectrum(const std::vector<Q>& d) {
    const std::size_t n = d.size();
    std::vector<long> v1(n), v2(n);
    for (std::size_t i = 0; i < n; ++i) { v1[i] = static_cast<long>(i % 3) + 1; v2[i] = (i % 2 ? -1 : 2) * static_cast<long>(i + 1); }
    const QMat U = q_mul(householder(v1), householder(v2));
    QMat D(n, std::vector<Q>(n, Q(0)));
    for (std::size_t i = 0; i < n; ++i) D[i][i] = d[i];
    return q_mul(q_mul(U, D), q_transpose(U));
}

// Exact check that the k-th smallest eigenvalue of symmetric rational M lies in x.
template <class I> bool kth_eigenvalue_in(const QMat& M, std::size_t k, const I& x) {
    const std::size_t n = M.size();
    QMat negM = M;
    for (auto& row : negM)
        for (auto& e : row) e = -e;
    const auto below_lo = eigenvalues_below(M, lower_q(x));       // #{lambda < lo}
    const auto above_hi = eigenvalues_below(negM, -upper_q(x));   // #{lambda > hi}
    REQUIRE(below_lo);
    REQUIRE(above_hi);
    return static_cast<std::size_t>(*below_lo) <= k && n - static_cast<std::size_t>(*above_hi) >= k + 1;
}

}  // namespace

TEMPLATE_TEST_CASE("symmetric_eigenvalues encloses a known spectrum with clustered and repeated eigenvalues", "",
                   IntervalD, IntervalMp) {
    using I = TestType;
    std::vector<Q> d = {Q(-3), Q(1), Q(1), Q(1) + Q(1, 10000000000), Q(2), Q(2), Q(5), Q(1, 100000000)};
    const QMat A = with_spectrum(d);
    std::sort(d.begin(), d.end());
    const auto r = symmetric_eigenvalues<I>(from_q<I>(A, kBits<I>));
    INFO(r.reason);
    REQUIRE(r.status == ProofStatus::proven);
    REQUIRE_FALSE(r.used_fallback);
    REQUIRE(r.eigenvalues.size() == d.size());
    for (std::size_t k = 0; k < d.size(); ++k) {
        INFO("k = " << k << " enclosure " << to_string(r.eigenvalues[k]));
        REQUIRE(encloses(r.eigenvalues[k], d[k]));
        REQUIRE(width(r.eigenvalues[k]) < 1e-12);
    }
    REQUIRE(encloses(lambda_max_enclosure<I>(from_q<I>(A, kBits<I>)), Q(5)));
    // Teeth: without the Weyl/Ostrowski radius (the bare midpoints) the check fails, e.g. for the
    // eigenvalue 1e-8, which no binary point equals.
    bool some_midpoint_misses = false;
    for (std::size_t k = 0; k < d.size(); ++k)
        if (!encloses(mid_point_of<I>(r.eigenvalues[k]), d[k])) some_midpoint_misses = true;
    REQUIRE(some_midpoint_misses);
}

TEMPLATE_TEST_CASE("symmetric_eigenvalues encloses the spectrum of every symmetric member of a wide interval matrix",
                   "", IntervalD, IntervalMp) {
    using I = TestType;
    std::mt19937_64 rng(31);
    for (Eigen::Index n : {2, 5, 9}) {
        IMatrix<I> A = random_interval_matrix<I>(n, n, rng, 1e-3, 1e-4);
        for (Eigen::Index i = 0; i < n; ++i)
            for (Eigen::Index j = 0; j < i; ++j) A(i, j) = A(j, i);
        const auto r = symmetric_eigenvalues<I>(A);
        INFO(r.reason);
        REQUIRE(r.status == ProofStatus::proven);
        for (int t = 0; t < 6; ++t) {
            const QMat M = random_member<I>(A, rng, /*symmetric=*/true);
            for (std::size_t k = 0; k < static_cast<std::size_t>(n); ++k) REQUIRE(kth_eigenvalue_in(M, k, r.eigenvalues[k]));
        }
    }
}

TEMPLATE_TEST_CASE("certainly_positive_definite proves definiteness only when every eigenvalue is positive", "",
                   IntervalD, IntervalMp) {
    using I = TestType;
    const auto pd = certainly_positive_definite<I>(
        from_q<I>(with_spectrum({Q(1, 1000000), Q(1), Q(2), Q(3), Q(4)}), kBits<I>));
    INFO(pd.reason);
    REQUIRE(pd.status == ProofStatus::proven);
    REQUIRE(encloses(pd.lambda_min, Q(1, 1000000)));
    // Singular and slightly indefinite matrices must never be "proven".
    const auto singular = certainly_positive_definite<I>(from_q<I>(with_spectrum({Q(0), Q(1), Q(2), Q(3)}), kBits<I>));
    REQUIRE(singular.status == ProofStatus::not_proven);
    REQUIRE(encloses(singular.lambda_min, Q(0)));
    const auto indefinite = certainly_positive_definite<I>(
        from_q<I>(with_spectrum({Q(-1, 1000000000000), Q(1), Q(2), Q(3)}), kBits<I>));
    REQUIRE(indefinite.status == ProofStatus::not_proven);
}

TEMPLATE_TEST_CASE("symmetric_eigenvalues refuses an interval matrix without symmetric members", "", IntervalD,
                   IntervalMp) {
    using I = TestType;
    IMatrix<I> A = from_q<I>(QMat{{Q(1), Q(1)}, {Q(3), Q(1)}}, kBits<I>);
    A(0, 1) = IntervalTraits<I>::bounds(1, 2, kBits<I>);
    const auto r = symmetric_eigenvalues<I>(A);
    REQUIRE(r.status == ProofStatus::not_proven);
    REQUIRE_THAT(r.reason, Catch::Contains("no symmetric member"));
}
