// Throughput of the linalg layer: mid-rad versus plain interval products, Gram enclosures,
// verified solve and symmetric eigenvalues (IntervalD), and verified solve at 128 bits.
#include <benchmark/benchmark.h>

#include <flowcert/linalg.hpp>

using namespace flowcert;
using namespace flowcert::linalg;

static IMatrixD random_imatrix(Eigen::Index n) {
    Eigen::MatrixXd M = Eigen::MatrixXd::Random(n, n);
    IMatrixD A = to_interval(M);
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = 0; j < n; ++j) A(i, j) = inflate(A(i, j), 1e-10);
    return A;
}

static void BM_mul_midrad(benchmark::State& s) {
    const IMatrixD A = random_imatrix(s.range(0)), B = random_imatrix(s.range(0));
    for (auto _ : s) benchmark::DoNotOptimize(mul_midrad(A, B));
}
BENCHMARK(BM_mul_midrad)->Arg(50)->Arg(200);

static void BM_mul_plain(benchmark::State& s) {
    const IMatrixD A = random_imatrix(s.range(0)), B = random_imatrix(s.range(0));
    for (auto _ : s) benchmark::DoNotOptimize(mul<IntervalD>(A, B));
}
BENCHMARK(BM_mul_plain)->Arg(50)->Arg(200);

static void BM_gram_enclosure(benchmark::State& s) {
    const Eigen::MatrixXd X = Eigen::MatrixXd::Random(s.range(0), s.range(1));
    for (auto _ : s) benchmark::DoNotOptimize(gram_enclosure(X));
}
BENCHMARK(BM_gram_enclosure)->Args({50, 10000})->Args({100, 100000})->Unit(benchmark::kMillisecond);

static void BM_verified_solve_d(benchmark::State& s) {
    const Eigen::Index n = s.range(0);
    IMatrixD A = random_imatrix(n);
    for (Eigen::Index i = 0; i < n; ++i) A(i, i) += IntervalD(static_cast<int>(n));
    const IVectorD b = to_interval(Eigen::VectorXd(Eigen::VectorXd::Ones(n)));
    for (auto _ : s) benchmark::DoNotOptimize(verified_solve<IntervalD>(A, b));
}
BENCHMARK(BM_verified_solve_d)->Arg(20)->Arg(100);

static void BM_verified_solve_mp128(benchmark::State& s) {
    const Eigen::Index n = s.range(0);
    const Eigen::MatrixXd M = Eigen::MatrixXd::Random(n, n) + n * Eigen::MatrixXd::Identity(n, n);
    const IMatrixMp A = to_interval<IntervalMp>(M, 128);
    const IVectorMp b = to_interval<IntervalMp>(Eigen::VectorXd(Eigen::VectorXd::Ones(n)), 128);
    for (auto _ : s) benchmark::DoNotOptimize(verified_solve<IntervalMp>(A, b));
}
BENCHMARK(BM_verified_solve_mp128)->Arg(10)->Arg(30);

static void BM_symmetric_eigenvalues_d(benchmark::State& s) {
    Eigen::MatrixXd M = Eigen::MatrixXd::Random(s.range(0), s.range(0));
    M = (M + M.transpose()).eval();
    const IMatrixD A = to_interval(M);
    for (auto _ : s) benchmark::DoNotOptimize(symmetric_eigenvalues<IntervalD>(A));
}
BENCHMARK(BM_symmetric_eigenvalues_d)->Arg(20)->Arg(100);

BENCHMARK_MAIN();
