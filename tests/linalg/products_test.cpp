// Products: exact GMP references for the error-bounded double products and mid-rad products.
#include <catch2/catch.hpp>

#include "reference.hpp"

using namespace flowcert;
using namespace flowcert::linalg;
using namespace flowcert::linalg::test;

namespace {

// Doubles with mixed signs and magnitudes 2^-40 .. 2^40 (cancellation and wide exponents).
Eigen::VectorXd wild_vector(Eigen::Index n, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::uniform_int_distribution<int> e(-40, 40);
    Eigen::VectorXd v(n);
    for (Eigen::Index i = 0; i < n; ++i) v(i) = std::ldexp(u(rng), e(rng));
    return v;
}

Q q_dot(const Eigen::VectorXd& x, const Eigen::VectorXd& y) {
    Q s = 0;
    for (Eigen::Index i = 0; i < x.size(); ++i) s += Q(x(i)) * Q(y(i));
    return s;
}

bool encloses_matrix_product(const IMatrixD& C, const QMat& exact) {
    for (std::size_t i = 0; i < exact.size(); ++i)
        for (std::size_t j = 0; j < exact[0].size(); ++j)
            if (!encloses(C(i, j), exact[i][j])) return false;
    return true;
}

}  // namespace

TEST_CASE("gamma_bound is an upper bound on n u / (1 - n u)") {
    for (long long n : {1LL, 2LL, 3LL, 1000LL, 100000LL, 1LL << 40}) {
        const Q u = Q(1, 1) / Q(mpz_class(1) << 53);
        const Q g = Q(static_cast<long>(n)) * u / (1 - Q(static_cast<long>(n)) * u);
        REQUIRE(Q(gamma_bound(n)) >= g);
        REQUIRE(Q(gamma_bound(n)) <= g * Q(1000001, 1000000));  // and tight
    }
    REQUIRE(std::isinf(gamma_bound(1LL << 52)));
}

TEST_CASE("dot_enclosure encloses the exact dot product of random double vectors, with cancellation") {
    std::mt19937_64 rng(11);
    for (int trial = 0; trial < 30; ++trial) {
        const Eigen::Index n = 1 + trial * 37;
        Eigen::VectorXd x = wild_vector(n, rng), y = wild_vector(n, rng);
        if (trial % 3 == 0) {  // heavy cancellation: y_{2i+1} = -y_{2i}, x_{2i+1} = x_{2i} (1 + tiny)
            for (Eigen::Index i = 0; i + 1 < n; i += 2) { y(i + 1) = -y(i); x(i + 1) = x(i) * (1 + 0x1p-30); }
        }
        const IntervalD d = dot_enclosure(x, y);
        INFO("n = " << n << " enclosure " << to_string(d));
        REQUIRE(encloses(d, q_dot(x, y)));
    }
}

TEST_CASE("dot_enclosure encloses exact dot products whose terms underflow into subnormals") {
    std::mt19937_64 rng(12);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    Eigen::VectorXd x(50), y(50);
    for (int i = 0; i < 50; ++i) { x(i) = std::ldexp(u(rng), -540); y(i) = std::ldexp(u(rng), -540); }
    const IntervalD d = dot_enclosure(x, y);
    REQUIRE(encloses(d, q_dot(x, y)));
    REQUIRE(width(d) < 1e-300);
}

TEST_CASE("mul_enclosure and gram_enclosure enclose the exact products of random double matrices") {
    std::mt19937_64 rng(13);
    const Eigen::MatrixXd A = random_matrix(7, 300, rng), B = random_matrix(300, 5, rng, 1e3);
    const IMatrixD C = mul_enclosure(A, B);
    REQUIRE(encloses_matrix_product(C, q_mul(to_q(A), to_q(B))));
    REQUIRE(max_width(C) < 1e-8);

    const Eigen::MatrixXd X = random_matrix(9, 2000, rng);
    const IMatrixD G = gram_enclosure(X);
    const QMat Xq = to_q(X);
    REQUIRE(encloses_matrix_product(G, q_mul(Xq, q_transpose(Xq))));
    REQUIRE(max_width(G) < 1e-9);
}

TEST_CASE("mul_midrad encloses the product of every member pair of random interval matrices") {
    std::mt19937_64 rng(14);
    for (int trial = 0; trial < 6; ++trial) {
        const double rel = trial % 2 ? 1e-3 : 0.0;
        const IMatrixD A = random_interval_matrix<IntervalD>(6, 8, rng, rel, trial > 3 ? 1e-6 : 0);
        const IMatrixD B = random_interval_matrix<IntervalD>(8, 5, rng, rel);
        const IMatrixD C = mul_midrad(A, B);
        const IMatrixD Cmixed = mul_midrad(A, mid<IntervalD>(B));
        for (int k = 0; k < 8; ++k) {
            const QMat Am = random_member<IntervalD>(A, rng), Bm = random_member<IntervalD>(B, rng);
            REQUIRE(encloses_matrix_product(C, q_mul(Am, Bm)));
        }
        REQUIRE(encloses_matrix_product(Cmixed, q_mul(random_member<IntervalD>(A, rng), to_q(mid<IntervalD>(B)))));
        // Within the factor-1.5 overestimation of [Rump 1999, Prop. 2.4] plus rounding terms.
        const IMatrixD Cplain = mul<IntervalD>(A, B);
        REQUIRE(max_width(C) <= 1.5 * max_width(Cplain) + 1e-13);
    }
}

TEST_CASE("teeth: the mid-rad product without its rounding-error term misses exact products") {
    // Point inputs: the unsound variant returns the bare fl(A B), which is not the exact product
    // for random data. The sound product encloses it. This shows the containment check can fail.
    std::mt19937_64 rng(15);
    const IMatrixD A = to_interval(random_matrix(10, 10, rng)), B = to_interval(random_matrix(10, 10, rng));
    const QMat exact = q_mul(to_q(mid<IntervalD>(A)), to_q(mid<IntervalD>(B)));
    REQUIRE(encloses_matrix_product(mul_midrad(A, B), exact));
    REQUIRE_FALSE(encloses_matrix_product(linalg::detail::mul_midrad_without_rounding_error_UNSOUND(A, B), exact));
}

TEST_CASE("mul_midrad with an ExactMatrix returns the same enclosure as with the plain double matrix") {
    std::mt19937_64 rng(21);
    const Eigen::MatrixXd A = random_matrix(9, 40, rng);
    const ExactMatrix Ae(A);
    for (int trial = 0; trial < 4; ++trial) {
        const IMatrixD B = random_interval_matrix<IntervalD>(40, 1 + trial, rng, trial % 2 ? 1e-4 : 0.0);
        const IMatrixD C = mul_midrad(Ae, B), Cref = mul_midrad(A, B);
        for (Eigen::Index i = 0; i < C.rows(); ++i)
            for (Eigen::Index j = 0; j < C.cols(); ++j) {
                REQUIRE(C(i, j).lower() == Cref(i, j).lower());
                REQUIRE(C(i, j).upper() == Cref(i, j).upper());
            }
        REQUIRE(encloses_matrix_product(C, q_mul(to_q(A), random_member<IntervalD>(B, rng))));
    }
}

namespace {

// Inputs with wide exponents and non-representable products x_k x_l (so hi + lo is not hi).
Eigen::MatrixXd wild_inputs(Eigen::Index d, Eigen::Index n, std::mt19937_64& rng) {
    Eigen::MatrixXd X(d, n);
    for (Eigen::Index i = 0; i < n; ++i) X.col(i) = wild_vector(d, rng) * 0x1p-20;
    return X;
}

// Exact sum_i g_i x_i x_i^T, and (x_i^T A x_i)_i, in rationals.
QMat q_weighted_gram(const Eigen::MatrixXd& X, const std::vector<Q>& g) {
    QMat M(X.rows(), std::vector<Q>(X.rows(), Q(0)));
    for (Eigen::Index i = 0; i < X.cols(); ++i)
        for (Eigen::Index k = 0; k < X.rows(); ++k)
            for (Eigen::Index l = 0; l < X.rows(); ++l) M[k][l] += g[i] * Q(X(k, i)) * Q(X(l, i));
    return M;
}
std::vector<Q> q_quadratic_forms(const Eigen::MatrixXd& X, const QMat& A) {
    std::vector<Q> out(X.cols(), Q(0));
    for (Eigen::Index i = 0; i < X.cols(); ++i)
        for (Eigen::Index k = 0; k < X.rows(); ++k)
            for (Eigen::Index l = 0; l < X.rows(); ++l) out[i] += Q(X(k, i)) * A[k][l] * Q(X(l, i));
    return out;
}

}  // namespace

TEST_CASE("OuterProductTable encloses the exact X diag(g) X^T and x_i^T A x_i for members of the boxes") {
    std::mt19937_64 rng(22);
    for (int trial = 0; trial < 6; ++trial) {
        const Eigen::Index d = 3 + trial, n = 7 + 5 * trial;
        const Eigen::MatrixXd X = trial % 2 ? wild_inputs(d, n, rng) : random_matrix(d, n, rng);
        const OuterProductTable table(X);
        // gram / grams over an interval box of weights (point weights when trial == 0).
        const IMatrixD G = random_interval_matrix<IntervalD>(n, 2, rng, trial ? 1e-3 : 0.0);
        const std::vector<IMatrixD> grams = table.grams(G);
        REQUIRE(grams.size() == 2);
        for (int c = 0; c < 2; ++c) {
            const IMatrixD g1 = table.gram(G.col(c));
            for (int k = 0; k < 5; ++k) {
                const QMat gm = random_member<IntervalD>(IMatrixD(G.col(c)), rng);
                std::vector<Q> g(n);
                for (Eigen::Index i = 0; i < n; ++i) g[i] = gm[i][0];
                const QMat exact = q_weighted_gram(X, g);
                REQUIRE(encloses_matrix_product(grams[static_cast<std::size_t>(c)], exact));
                REQUIRE(encloses_matrix_product(g1, exact));
            }
        }
        // quadratic forms of symmetric members of a symmetric interval box.
        IMatrixD A = random_interval_matrix<IntervalD>(d, d, rng, trial ? 1e-3 : 0.0);
        for (Eigen::Index k = 0; k < d; ++k)
            for (Eigen::Index l = 0; l < k; ++l) A(k, l) = A(l, k);
        const IVectorD qf = table.quadratic_forms(A);
        for (int k = 0; k < 5; ++k) {
            const std::vector<Q> exact = q_quadratic_forms(X, random_member<IntervalD>(A, rng, true));
            for (Eigen::Index i = 0; i < n; ++i) REQUIRE(encloses(qf(i), exact[static_cast<std::size_t>(i)]));
        }
        const Eigen::MatrixXd Aabs = mid<IntervalD>(A).cwiseAbs();
        for (Eigen::Index i = 0; i < n; ++i) {  // not vacuous: width ~ the box's 2e-3 relative to |x|^T |A| |x|
            const double scale = X.col(i).cwiseAbs().dot(Aabs * X.col(i).cwiseAbs());
            REQUIRE(width(qf(i)) <= 1e-2 * scale + 1e-300);
        }
    }
    // A box that contains no symmetric matrix is refused.
    IMatrixD B = to_interval(Eigen::MatrixXd(Eigen::MatrixXd::Identity(3, 3)));
    B(0, 1) = IntervalD(1);
    REQUIRE_THROWS(OuterProductTable(random_matrix(3, 4, rng)).quadratic_forms(B));
}

TEST_CASE("teeth: OuterProductTable quadratic forms without the off-diagonal weight 2 miss the exact values") {
    std::mt19937_64 rng(23);
    const Eigen::MatrixXd X = random_matrix(5, 12, rng);
    OuterProductTable table(X);
    Eigen::MatrixXd Am = random_matrix(5, 5, rng);
    Am = (Am + Am.transpose()).eval();
    const IMatrixD A = to_interval(Am);
    const std::vector<Q> exact = q_quadratic_forms(X, to_q(Am));
    const IVectorD good = table.quadratic_forms(A);
    table.test_only_drop_offdiagonal_weight_UNSOUND = true;
    const IVectorD bad = table.quadratic_forms(A);
    int missed = 0;
    for (Eigen::Index i = 0; i < X.cols(); ++i) {
        REQUIRE(encloses(good(i), exact[static_cast<std::size_t>(i)]));
        missed += encloses(bad(i), exact[static_cast<std::size_t>(i)]) ? 0 : 1;
    }
    REQUIRE(missed > 0);
}

TEST_CASE("add_scaled_rows_midrad and rowwise_dot_midrad enclose the exact results for members of the boxes") {
    std::mt19937_64 rng(24);
    for (int trial = 0; trial < 6; ++trial) {
        const Eigen::Index m = 3 + trial, d = 4 + 3 * trial;
        const double rel = trial % 3 == 0 ? 0.0 : 1e-4;
        IMatrixD W = random_interval_matrix<IntervalD>(m, d, rng, rel), G = random_interval_matrix<IntervalD>(m, d, rng, rel);
        if (trial % 2) {  // wide exponents: rows scaled by 2^+-30
            for (Eigen::Index j = 0; j < m; ++j)
                for (Eigen::Index k = 0; k < d; ++k) G(j, k) = G(j, k) * IntervalD::exact(std::ldexp(1.0, (j % 3 - 1) * 30));
        }
        const IVectorD sv = random_interval_matrix<IntervalD>(m, 1, rng, rel).col(0);
        const IMatrixD Y = add_scaled_rows_midrad(W, sv, G);
        const IVectorD q = rowwise_dot_midrad(W, G);
        for (int p = 0; p < 6; ++p) {
            const QMat Wm = random_member<IntervalD>(W, rng), Gm = random_member<IntervalD>(G, rng);
            const QMat sm = random_member<IntervalD>(IMatrixD(sv), rng);
            for (Eigen::Index j = 0; j < m; ++j) {
                Q dot = 0;
                for (Eigen::Index k = 0; k < d; ++k) {
                    REQUIRE(encloses(Y(j, k), Wm[j][k] + sm[j][0] * Gm[j][k]));
                    dot += Wm[j][k] * Gm[j][k];
                }
                REQUIRE(encloses(q(j), dot));
            }
        }
        // Not vacuous: within a small factor of the plain interval evaluation (plus rounding terms).
        for (Eigen::Index j = 0; j < m; ++j)
            for (Eigen::Index k = 0; k < d; ++k) {
                const IntervalD plain = W(j, k) + sv(j) * G(j, k);
                REQUIRE(width(Y(j, k)) <= 1.5 * width(plain) + 1e-14 * (std::fabs(mid(plain)) + 1e-300));
            }
    }
}

TEST_CASE("teeth: add_scaled_rows_midrad without its rounding-error term misses exact results") {
    std::mt19937_64 rng(25);
    const IMatrixD W = to_interval(random_matrix(8, 8, rng)), G = to_interval(random_matrix(8, 8, rng));
    const IVectorD sv = to_interval(Eigen::MatrixXd(random_matrix(8, 1, rng))).col(0);
    const IMatrixD good = add_scaled_rows_midrad(W, sv, G);
    const IMatrixD bad = linalg::detail::add_scaled_rows_midrad_without_rounding_error_UNSOUND(W, sv, G);
    int missed = 0;
    for (Eigen::Index j = 0; j < 8; ++j)
        for (Eigen::Index k = 0; k < 8; ++k) {
            const Q exact = Q(mid(W(j, k))) + Q(mid(sv(j))) * Q(mid(G(j, k)));
            REQUIRE(encloses(good(j, k), exact));
            missed += encloses(bad(j, k), exact) ? 0 : 1;
        }
    REQUIRE(missed > 0);
}

TEMPLATE_TEST_CASE("interval matrix products (mul and Eigen's operator*) enclose every member product", "",
                   IntervalD, IntervalMp) {
    using I = TestType;
    std::mt19937_64 rng(16);
    const IMatrix<I> A = random_interval_matrix<I>(5, 4, rng, 1e-2);
    const IMatrix<I> B = random_interval_matrix<I>(4, 3, rng, 1e-2);
    const IVector<I> x = random_interval_matrix<I>(4, 1, rng, 1e-2).col(0);
    const IMatrix<I> C1 = mul<I>(A, B);
    const IMatrix<I> C2 = A * B;  // Eigen through NumTraits
    const IVector<I> y1 = mul<I>(A, x);
    const IVector<I> y2 = A * x;
    for (int k = 0; k < 10; ++k) {
        const QMat Am = random_member<I>(A, rng), Bm = random_member<I>(B, rng);
        const QMat P = q_mul(Am, Bm);
        const QMat xm = random_member<I>(IMatrix<I>(x), rng);
        const QMat yq = q_mul(Am, xm);
        for (std::size_t i = 0; i < P.size(); ++i) {
            for (std::size_t j = 0; j < P[0].size(); ++j) {
                REQUIRE(encloses(C1(i, j), P[i][j]));
                REQUIRE(encloses(C2(i, j), P[i][j]));
            }
            REQUIRE(encloses(y1(i), yq[i][0]));
            REQUIRE(encloses(y2(i), yq[i][0]));
        }
    }
}

TEMPLATE_TEST_CASE("to_interval is exact and mid_point_of returns points inside each entry", "", IntervalD,
                   IntervalMp) {
    using I = TestType;
    std::mt19937_64 rng(17);
    const Eigen::MatrixXd M = random_matrix(4, 4, rng);
    const IMatrix<I> A = to_interval<I>(M, kBits<I>);
    REQUIRE(contains<I>(A, M));
    REQUIRE(max_width<I>(A) == 0);
    const IMatrix<I> W = random_interval_matrix<I>(4, 4, rng, 0.1, 1e-3);
    const IMatrix<I> P = mid_point_of<I>(W);
    REQUIRE(max_width<I>(P) == 0);
    REQUIRE(subset<I>(P, W));
    REQUIRE(subset<I>(W, hull<I>(W, P)));
}
