// QR for Lohner's method: the enclosure of Q^{-1} contains the exact inverse of the double Q.
#include <catch2/catch.hpp>

#include "reference.hpp"

using namespace flowcert;
using namespace flowcert::linalg;
using namespace flowcert::linalg::test;

TEMPLATE_TEST_CASE("orthogonal_basis encloses the exact inverse of its approximately orthogonal Q", "", IntervalD,
                   IntervalMp) {
    using I = TestType;
    std::mt19937_64 rng(41);
    for (Eigen::Index n : {1, 4, 9}) {
        Eigen::MatrixXd M = random_matrix(n, n, rng);
        if (n == 9) M.col(3) = M.col(2) * 0.5;  // rank-deficient: Q is still orthogonal
        const auto r = orthogonal_basis<I>(M, kBits<I>);
        INFO("n = " << n << ": " << r.reason);
        REQUIRE(r.status == ProofStatus::proven);
        REQUIRE(contains<I>(r.Q, r.Q_double));
        const auto exact = q_solve(to_q(r.Q_double), q_identity(static_cast<std::size_t>(n)));
        REQUIRE(exact);
        for (Eigen::Index i = 0; i < n; ++i)
            for (Eigen::Index j = 0; j < n; ++j) REQUIRE(encloses(r.Q_inverse(i, j), (*exact)[i][j]));
        REQUIRE(max_width<I>(r.Q_inverse) < (std::is_same_v<I, IntervalD> ? 1e-13 : 1e-25));
        // Column pivoting: Q^T M P is upper triangular up to rounding (a sanity check, not rigorous).
        Eigen::MatrixXd MP(n, n);
        for (Eigen::Index j = 0; j < n; ++j) MP.col(j) = M.col(r.permutation(j));
        const Eigen::MatrixXd Rm = r.Q_double.transpose() * MP;
        for (Eigen::Index j = 0; j < n; ++j)
            for (Eigen::Index i = j + 1; i < n; ++i) REQUIRE(std::abs(Rm(i, j)) < 1e-12);
    }
}

TEMPLATE_TEST_CASE("enclose_orthogonal_inverse encloses the exact inverse of a visibly non-orthogonal Q", "", IntervalD,
                   IntervalMp) {
    // Q = orthogonal + 1e-6 noise: delta ~ 1e-5, so the Neumann remainder rho (~1e-10) is what makes the enclosure
    // contain the exact inverse; the IntervalD path (mid-rad arrays) and the generic path both checked against GMP.
    using I = TestType;
    std::mt19937_64 rng(42);
    for (Eigen::Index n : {3, 12, 21}) {
        const auto base = orthogonal_basis<I>(random_matrix(n, n, rng), kBits<I>);
        const Eigen::MatrixXd Q = base.Q_double + 1e-6 * random_matrix(n, n, rng);
        const auto r = enclose_orthogonal_inverse<I>(Q, kBits<I>);
        INFO("n = " << n << ": " << r.reason);
        REQUIRE(r.status == ProofStatus::proven);
        REQUIRE(r.orthogonality_defect > 1e-7);
        const auto exact = q_solve(to_q(Q), q_identity(static_cast<std::size_t>(n)));
        REQUIRE(exact);
        for (Eigen::Index i = 0; i < n; ++i)
            for (Eigen::Index j = 0; j < n; ++j) REQUIRE(encloses(r.Q_inverse(i, j), (*exact)[i][j]));
        REQUIRE(max_width<I>(r.Q_inverse) < 1e-7);
    }
}
