// Interval-layer benchmark: IntervalD add / mul / length-1000 dot product against raw double,
// raw Boost.Interval with its default policy (hardware rounding-mode switching) and raw
// Boost.Interval with flowcert's own rounding policy (the wrapper unwrapped); IntervalMp add /
// mul at 128 and 256 bits against raw MPFI and raw MPFR calls on preallocated outputs (the strict
// baseline) and raw MPFR calls that create their result (the fair baseline of `z = x op y`).
// Ratios are reported by scripts in docs/arithmetic.md ("Benchmark").
#include <benchmark/benchmark.h>

#include <flowcert/interval.hpp>

#include <boost/numeric/interval.hpp>

#include <mpfi.h>
#include <mpfr.h>

#include <random>
#include <vector>

using namespace flowcert;

namespace {

constexpr int kN = 1000;
using BoostDefault = boost::numeric::interval<double>;  // rounded_arith_std: switches the FPU mode
using BoostWiden = detail::BoostIntervalD;               // the policy inside IntervalD

std::vector<double> random_doubles(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> d(0.5, 2.0);
    std::vector<double> v(kN);
    for (auto& x : v) x = d(rng);
    return v;
}

template <class I> I make(double lo, double hi);
template <> double make<double>(double lo, double) { return lo; }
template <> IntervalD make<IntervalD>(double lo, double hi) { return IntervalD::bounds(lo, hi); }
template <> BoostDefault make<BoostDefault>(double lo, double hi) { return BoostDefault(lo, hi); }
template <> BoostWiden make<BoostWiden>(double lo, double hi) { return BoostWiden(lo, hi); }

template <class I>
std::vector<I> operands(std::uint64_t seed) {
    const auto v = random_doubles(seed);
    std::vector<I> out;
    out.reserve(kN);
    for (double x : v) out.push_back(make<I>(x, x * (1 + 0x1p-40)));
    return out;
}

// c[i] = a[i] + b[i] over 1000 elements
template <class I>
void BM_add(benchmark::State& st) {
    const auto a = operands<I>(1), b = operands<I>(2);
    std::vector<I> c(kN);
    for (auto _ : st) {
        for (int i = 0; i < kN; ++i) c[i] = a[i] + b[i];
        benchmark::DoNotOptimize(c.data());
        benchmark::ClobberMemory();
    }
    st.SetItemsProcessed(st.iterations() * kN);
}
template <class I>
void BM_mul(benchmark::State& st) {
    const auto a = operands<I>(1), b = operands<I>(2);
    std::vector<I> c(kN);
    for (auto _ : st) {
        for (int i = 0; i < kN; ++i) c[i] = a[i] * b[i];
        benchmark::DoNotOptimize(c.data());
        benchmark::ClobberMemory();
    }
    st.SetItemsProcessed(st.iterations() * kN);
}
// c[i] += b[i], c[i] *= b[i]: the in-place forms
template <class I>
void BM_add_assign(benchmark::State& st) {
    const auto b = operands<I>(2);
    auto c = operands<I>(1);
    for (auto _ : st) {
        for (int i = 0; i < kN; ++i) c[i] += b[i];
        benchmark::DoNotOptimize(c.data());
        benchmark::ClobberMemory();
    }
    st.SetItemsProcessed(st.iterations() * kN);
}
// sum_i a[i] * b[i], length 1000
template <class I>
void BM_dot(benchmark::State& st) {
    const auto a = operands<I>(1), b = operands<I>(2);
    for (auto _ : st) {
        I s = make<I>(0, 0);
        for (int i = 0; i < kN; ++i) s += a[i] * b[i];
        benchmark::DoNotOptimize(s);
    }
    st.SetItemsProcessed(st.iterations() * kN);
}

// ---- IntervalMp vs raw MPFI / MPFR ---------------------------------------------------------
constexpr int kM = 64;

struct RawMpfi {
    std::vector<mpfi_t> a, b, c;
    explicit RawMpfi(long prec) : a(kM), b(kM), c(kM) {
        std::mt19937_64 rng(3);
        std::uniform_real_distribution<double> d(0.5, 2.0);
        for (int i = 0; i < kM; ++i) {
            mpfi_init2(a[i], prec);
            mpfi_init2(b[i], prec);
            mpfi_init2(c[i], prec);
            const double x = d(rng), y = d(rng);
            mpfi_interv_d(a[i], x, x * (1 + 0x1p-40));
            mpfi_interv_d(b[i], y, y * (1 + 0x1p-40));
        }
    }
    ~RawMpfi() {
        for (int i = 0; i < kM; ++i) { mpfi_clear(a[i]); mpfi_clear(b[i]); mpfi_clear(c[i]); }
    }
};

std::vector<IntervalMp> mp_operands(long prec, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> d(0.5, 2.0);
    std::vector<IntervalMp> v;
    for (int i = 0; i < kM; ++i) {
        const double x = d(rng);
        v.push_back(IntervalMp::bounds(x, x * (1 + 0x1p-40), Precision(prec)));
    }
    return v;
}

// raw: two MPFR calls per interval operation with directed rounding (what MPFI does for
// positive operands), on preallocated outputs
void BM_mpfr_add(benchmark::State& st) {
    RawMpfi r(st.range(0));
    for (auto _ : st) {
        for (int i = 0; i < kM; ++i) {
            mpfr_add(&r.c[i]->left, &r.a[i]->left, &r.b[i]->left, MPFR_RNDD);
            mpfr_add(&r.c[i]->right, &r.a[i]->right, &r.b[i]->right, MPFR_RNDU);
        }
        benchmark::ClobberMemory();
    }
    st.SetItemsProcessed(st.iterations() * kM);
}
void BM_mpfr_mul(benchmark::State& st) {
    RawMpfi r(st.range(0));
    for (auto _ : st) {
        for (int i = 0; i < kM; ++i) {
            mpfr_mul(&r.c[i]->left, &r.a[i]->left, &r.b[i]->left, MPFR_RNDD);
            mpfr_mul(&r.c[i]->right, &r.a[i]->right, &r.b[i]->right, MPFR_RNDU);
        }
        benchmark::ClobberMemory();
    }
    st.SetItemsProcessed(st.iterations() * kM);
}
// raw MPFR with a freshly created result, as `c = a + b` on a value type must do: the fair
// baseline of IntervalMp's binary operators (init two bounds, two calls, move into c, clear)
template <bool Mul>
void mpfr_op_alloc(benchmark::State& st) {
    RawMpfi r(st.range(0));
    const long prec = st.range(0);
    for (auto _ : st) {
        for (int i = 0; i < kM; ++i) {
            mpfr_t lo, hi;
            mpfr_init2(lo, prec);
            mpfr_init2(hi, prec);
            if (Mul) {
                mpfr_mul(lo, &r.a[i]->left, &r.b[i]->left, MPFR_RNDD);
                mpfr_mul(hi, &r.a[i]->right, &r.b[i]->right, MPFR_RNDU);
            } else {
                mpfr_add(lo, &r.a[i]->left, &r.b[i]->left, MPFR_RNDD);
                mpfr_add(hi, &r.a[i]->right, &r.b[i]->right, MPFR_RNDU);
            }
            mpfr_swap(&r.c[i]->left, lo);
            mpfr_swap(&r.c[i]->right, hi);
            mpfr_clear(lo);
            mpfr_clear(hi);
        }
        benchmark::ClobberMemory();
    }
    st.SetItemsProcessed(st.iterations() * kM);
}
void BM_mpfr_add_alloc(benchmark::State& st) { mpfr_op_alloc<false>(st); }
void BM_mpfr_mul_alloc(benchmark::State& st) { mpfr_op_alloc<true>(st); }
void BM_mpfi_add(benchmark::State& st) {
    RawMpfi r(st.range(0));
    for (auto _ : st) {
        for (int i = 0; i < kM; ++i) mpfi_add(r.c[i], r.a[i], r.b[i]);
        benchmark::ClobberMemory();
    }
    st.SetItemsProcessed(st.iterations() * kM);
}
void BM_mpfi_mul(benchmark::State& st) {
    RawMpfi r(st.range(0));
    for (auto _ : st) {
        for (int i = 0; i < kM; ++i) mpfi_mul(r.c[i], r.a[i], r.b[i]);
        benchmark::ClobberMemory();
    }
    st.SetItemsProcessed(st.iterations() * kM);
}
// in place, raw: c = c op b with MPFI (the same work as IntervalMp's +=, *=)
void BM_mpfi_add_inplace(benchmark::State& st) {
    RawMpfi r(st.range(0));
    for (auto _ : st) {
        for (int i = 0; i < kM; ++i) mpfi_add(r.a[i], r.a[i], r.b[i]);
        benchmark::ClobberMemory();
    }
    st.SetItemsProcessed(st.iterations() * kM);
}
void BM_mpfi_mul_inplace(benchmark::State& st) {
    RawMpfi r(st.range(0));
    for (int i = 0; i < kM; ++i) mpfi_interv_d(r.b[i], 1.0, 1.0 + 0x1p-50);  // keeps a bounded
    for (auto _ : st) {
        for (int i = 0; i < kM; ++i) mpfi_mul(r.a[i], r.a[i], r.b[i]);
        benchmark::ClobberMemory();
    }
    st.SetItemsProcessed(st.iterations() * kM);
}
// in place, raw MPFR: the two directed-rounding calls of c op= b on the same operands as the
// in-place IntervalMp benchmarks below (the strict baseline of `op=`)
void BM_mpfr_add_inplace(benchmark::State& st) {
    RawMpfi r(st.range(0));
    for (auto _ : st) {
        for (int i = 0; i < kM; ++i) {
            mpfr_add(&r.a[i]->left, &r.a[i]->left, &r.b[i]->left, MPFR_RNDD);
            mpfr_add(&r.a[i]->right, &r.a[i]->right, &r.b[i]->right, MPFR_RNDU);
        }
        benchmark::ClobberMemory();
    }
    st.SetItemsProcessed(st.iterations() * kM);
}
void BM_mpfr_mul_inplace(benchmark::State& st) {
    RawMpfi r(st.range(0));
    for (int i = 0; i < kM; ++i) mpfi_interv_d(r.b[i], 1.0, 1.0 + 0x1p-50);  // keeps a bounded
    for (auto _ : st) {
        for (int i = 0; i < kM; ++i) {
            mpfr_mul(&r.a[i]->left, &r.a[i]->left, &r.b[i]->left, MPFR_RNDD);
            mpfr_mul(&r.a[i]->right, &r.a[i]->right, &r.b[i]->right, MPFR_RNDU);
        }
        benchmark::ClobberMemory();
    }
    st.SetItemsProcessed(st.iterations() * kM);
}
void BM_IntervalMp_add(benchmark::State& st) {  // z = x + y: allocates the result
    const auto a = mp_operands(st.range(0), 1), b = mp_operands(st.range(0), 2);
    std::vector<IntervalMp> c(kM, IntervalMp(Precision(st.range(0))));
    for (auto _ : st) {
        for (int i = 0; i < kM; ++i) c[i] = a[i] + b[i];
        benchmark::ClobberMemory();
    }
    st.SetItemsProcessed(st.iterations() * kM);
}
void BM_IntervalMp_mul(benchmark::State& st) {
    const auto a = mp_operands(st.range(0), 1), b = mp_operands(st.range(0), 2);
    std::vector<IntervalMp> c(kM, IntervalMp(Precision(st.range(0))));
    for (auto _ : st) {
        for (int i = 0; i < kM; ++i) c[i] = a[i] * b[i];
        benchmark::ClobberMemory();
    }
    st.SetItemsProcessed(st.iterations() * kM);
}
void BM_IntervalMp_add_inplace(benchmark::State& st) {
    auto a = mp_operands(st.range(0), 1);
    const auto b = mp_operands(st.range(0), 2);
    for (auto _ : st) {
        for (int i = 0; i < kM; ++i) a[i] += b[i];
        benchmark::ClobberMemory();
    }
    st.SetItemsProcessed(st.iterations() * kM);
}
void BM_IntervalMp_mul_inplace(benchmark::State& st) {
    auto a = mp_operands(st.range(0), 1);
    const std::vector<IntervalMp> b(kM, IntervalMp::bounds(1.0, 1.0 + 0x1p-50, Precision(st.range(0))));
    for (auto _ : st) {
        for (int i = 0; i < kM; ++i) a[i] *= b[i];
        benchmark::ClobberMemory();
    }
    st.SetItemsProcessed(st.iterations() * kM);
}

}  // namespace

BENCHMARK_TEMPLATE(BM_add, double);
BENCHMARK_TEMPLATE(BM_add, BoostDefault);
BENCHMARK_TEMPLATE(BM_add, BoostWiden);
BENCHMARK_TEMPLATE(BM_add, IntervalD);
BENCHMARK_TEMPLATE(BM_add_assign, double);
BENCHMARK_TEMPLATE(BM_add_assign, BoostDefault);
BENCHMARK_TEMPLATE(BM_add_assign, BoostWiden);
BENCHMARK_TEMPLATE(BM_add_assign, IntervalD);
BENCHMARK_TEMPLATE(BM_mul, double);
BENCHMARK_TEMPLATE(BM_mul, BoostDefault);
BENCHMARK_TEMPLATE(BM_mul, BoostWiden);
BENCHMARK_TEMPLATE(BM_mul, IntervalD);
BENCHMARK_TEMPLATE(BM_dot, double);
BENCHMARK_TEMPLATE(BM_dot, BoostDefault);
BENCHMARK_TEMPLATE(BM_dot, BoostWiden);
BENCHMARK_TEMPLATE(BM_dot, IntervalD);
BENCHMARK(BM_mpfr_add)->Arg(128)->Arg(256);
BENCHMARK(BM_mpfr_add_alloc)->Arg(128)->Arg(256);
BENCHMARK(BM_mpfi_add)->Arg(128)->Arg(256);
BENCHMARK(BM_mpfr_add_inplace)->Arg(128)->Arg(256);
BENCHMARK(BM_mpfi_add_inplace)->Arg(128)->Arg(256);
BENCHMARK(BM_IntervalMp_add)->Arg(128)->Arg(256);
BENCHMARK(BM_IntervalMp_add_inplace)->Arg(128)->Arg(256);
BENCHMARK(BM_mpfr_mul)->Arg(128)->Arg(256);
BENCHMARK(BM_mpfr_mul_alloc)->Arg(128)->Arg(256);
BENCHMARK(BM_mpfi_mul)->Arg(128)->Arg(256);
BENCHMARK(BM_mpfr_mul_inplace)->Arg(128)->Arg(256);
BENCHMARK(BM_mpfi_mul_inplace)->Arg(128)->Arg(256);
BENCHMARK(BM_IntervalMp_mul)->Arg(128)->Arg(256);
BENCHMARK(BM_IntervalMp_mul_inplace)->Arg(128)->Arg(256);

BENCHMARK_MAIN();
