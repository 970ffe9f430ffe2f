// Verified solve / inverse: exact rational references (Gaussian elimination over Q).
#include <catch2/catch.hpp>

#include "reference.hpp"

using namespace flowcert;
using namespace flowcert::linalg;
using namespace flowcert::linalg::test;

namespace {

template <class I> bool encloses_all(const IMatrix<I>& X, const QMat& exact) {
    for (std::size_t i = 0; i < exact.size(); ++i)
        for (std::size_t j = 0; j < exact[0].size(); ++j)
            if (!encloses(X(i, j), exact[i][j])) return false;
    return true;
}

QMat hilbert(std::size_t n) {
    QMat H(n, std::vector<Q>(n));
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) H[i][j] = Q(1, static_cast<unsigned long>(i + j + 1));
    return H;
}

}  // namespace

TEMPLATE_TEST_CASE("verified_solve encloses the exact solution of random well-conditioned systems", "", IntervalD,
                   IntervalMp) {
    using I = TestType;
    std::mt19937_64 rng(21);
    for (Eigen::Index n : {1, 3, 8, 20}) {
        Eigen::MatrixXd M = random_matrix(n, n, rng);
        M += 3.0 * Eigen::MatrixXd::Identity(n, n);
        const Eigen::MatrixXd b = random_matrix(n, 1, rng);
        const auto r = verified_solve<I>(to_interval<I>(M, kBits<I>), IVector<I>(to_interval<I>(Eigen::VectorXd(b), kBits<I>)));
        INFO("n = " << n << ": " << r.reason);
        REQUIRE(r.status == ProofStatus::proven);
        const auto exact = q_solve(to_q(M), to_q(b));
        REQUIRE(exact);
        REQUIRE(encloses_all<I>(IMatrix<I>(r.x), *exact));
        // Tight: about 2^-bits relative (generous factor for the conditioning).
        REQUIRE(max_width<I>(r.x) < (std::is_same_v<I, IntervalD> ? 1e-12 : 1e-30));
    }
}

TEMPLATE_TEST_CASE("verified_solve encloses the exact solution of Hilbert systems (n = 4..10)", "", IntervalD,
                   IntervalMp) {
    using I = TestType;
    // cond(H_10) ~ 1.6e13, so with the double preconditioner ||I - R A|| ~ 1e-3 and every
    // n <= 10 must be proven; for IntervalD the entries 1/(i+j+1) are themselves 1-ulp intervals,
    // which makes the enclosures wide (about cond * 2^-53 * |x|), but still proven.
    const std::size_t n_proven_max = 10;
    for (std::size_t n = 4; n <= 10; ++n) {
        const QMat H = hilbert(n);
        const QMat ones(n, std::vector<Q>(1, Q(1)));
        const IMatrix<I> A = from_q<I>(H, kBits<I>);
        const IVector<I> b = from_q<I>(ones, kBits<I>).col(0);
        const auto r = verified_solve<I>(A, b);
        INFO("n = " << n << ": " << r.reason);
        if (n <= n_proven_max) REQUIRE(r.status == ProofStatus::proven);
        if (r.status == ProofStatus::proven) {
            const auto exact = q_solve(H, ones);
            REQUIRE(encloses_all<I>(IMatrix<I>(r.x), *exact));
        }
    }
}

TEMPLATE_TEST_CASE("verified_solve returns not_proven for singular and nearly singular matrices", "", IntervalD,
                   IntervalMp) {
    using I = TestType;
    const long p = kBits<I>;
    auto make = [p](std::initializer_list<const char*> v) {
        IMatrix<I> A(2, 2);
        auto it = v.begin();
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j) A(i, j) = IntervalTraits<I>::from_decimal(*it++, p);
        return A;
    };
    const IVector<I> b = from_q<I>(QMat{{Q(1)}, {Q(2)}}, p).col(0);
    {  // exactly singular midpoint
        const auto r = verified_solve<I>(make({"1", "2", "2", "4"}), b);
        REQUIRE(r.status == ProofStatus::not_proven);
        REQUIRE_THAT(r.reason, Catch::Contains("singular"));
    }
    {  // an interval matrix that contains a singular matrix (a22 = 1): must not be "proven"
        IMatrix<I> A = make({"1", "1", "1", "1"});
        A(1, 1) = IntervalTraits<I>::bounds(1 - 1e-10, 1 + 1e-10, p);
        const auto r = verified_solve<I>(A, b);
        INFO(r.reason);
        REQUIRE(r.status == ProofStatus::not_proven);
    }
    {  // nearly singular point matrix [[1, 1], [1, 1 + 1e-30]]: regular, but beyond a double preconditioner
        const auto r = verified_solve<I>(make({"1", "1", "1", "1.000000000000000000000000000001"}), b);
        INFO(r.reason);
        REQUIRE(r.status == ProofStatus::not_proven);
    }
    {  // wrong shapes
        IMatrix<I> A(2, 3);
        A.setZero();
        REQUIRE(verified_solve<I>(A, b).status == ProofStatus::not_proven);
    }
}

TEMPLATE_TEST_CASE("verified_solve encloses the solutions of every member of a wide interval system", "", IntervalD,
                   IntervalMp) {
    using I = TestType;
    std::mt19937_64 rng(22);
    const Eigen::Index n = 6;
    IMatrix<I> A = random_interval_matrix<I>(n, n, rng, 1e-3, 1e-4);
    for (Eigen::Index i = 0; i < n; ++i) A(i, i) += IntervalTraits<I>::from_integer(4, kBits<I>);
    const IVector<I> b = random_interval_matrix<I>(n, 1, rng, 1e-2).col(0);
    const auto r = verified_solve<I>(A, b);
    INFO(r.reason);
    REQUIRE(r.status == ProofStatus::proven);
    for (int k = 0; k < 15; ++k) {
        const QMat Am = random_member<I>(A, rng);
        const QMat bm = random_member<I>(IMatrix<I>(b), rng);
        REQUIRE(encloses_all<I>(IMatrix<I>(r.x), *q_solve(Am, bm)));
    }
    // Too wide: radius 0.5 on a matrix with unit entries contains singular members.
    const IMatrix<I> W = random_interval_matrix<I>(n, n, rng, 0.0, 0.5);
    REQUIRE(verified_solve<I>(W, b).status == ProofStatus::not_proven);
}

TEMPLATE_TEST_CASE("verified_inverse encloses the exact inverse of a random matrix", "", IntervalD, IntervalMp) {
    using I = TestType;
    std::mt19937_64 rng(23);
    const Eigen::MatrixXd M = random_matrix(7, 7, rng) + 2.0 * Eigen::MatrixXd::Identity(7, 7);
    const auto r = verified_inverse<I>(to_interval<I>(M, kBits<I>));
    INFO(r.reason);
    REQUIRE(r.status == ProofStatus::proven);
    REQUIRE(encloses_all<I>(r.X, *q_solve(to_q(M), q_identity(7))));
}
