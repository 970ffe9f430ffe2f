// bench_ode -- Lorenz (s=10, r=28, b=8/3) from (1,1,1) and from the box of radius 1e-10 to
// T = 1, 5, 10 with the rigorous integrator (IntervalD, order 20), and the same problem with
// Boost.Odeint runge_kutta_dopri5 (non-rigorous), and the MPFR back end (BM_RigorousMp/T/bits).
// Counters: steps, max width at T.
// Run: build-*/bench/ode/bench_ode --benchmark_counters_tabular=true   (see bench/ode/README.md)
#include <benchmark/benchmark.h>

#include <flowcert/ode.hpp>

#include <boost/numeric/odeint.hpp>

#include <array>
#include <cmath>
#include <string>

using namespace flowcert;

namespace {

const char* kLorenz = "var:x,y,z; par:s,r,b; fun:s*(y-x), x*(r-z)-y, x*y-b*z;";

void BM_Rigorous(benchmark::State& state) {
    const int T = static_cast<int>(state.range(0));
    const bool box = state.range(1) != 0;
    const int order = static_cast<int>(state.range(2));
    auto parsed = taylor::parse_formula(kLorenz);
    const auto& f = *parsed.field;
    std::vector<IntervalD> p{IntervalD(10), IntervalD(28), IntervalD::from_decimal("8/3")};
    const IntervalD r = box ? IntervalD::from_decimal("1e-10") : IntervalD(0);
    std::vector<IntervalD> x0(3, IntervalD(1) + hull(-r, r));
    ode::Options opt;
    opt.order = order;
    ode::Result<IntervalD> res;
    for (auto _ : state) {
        res = ode::integrate(f, p, x0, IntervalD(T), {}, opt, 53);
        benchmark::DoNotOptimize(res.final_box.data());
    }
    double w = 0;
    for (const auto& x : res.final_box) w = std::max(w, width(x));
    state.counters["steps"] = static_cast<double>(res.steps);
    state.counters["max_width"] = w;
    state.counters["ok"] = res.ok() ? 1 : 0;
}
BENCHMARK(BM_Rigorous)
    ->ArgsProduct({{1, 5, 10}, {0, 1}, {20}})
    ->Args({10, 0, 15})
    ->Args({10, 0, 25})
    ->Unit(benchmark::kMillisecond);

// The MPFR back end (IntervalMp at `bits`), from the point (1,1,1), order 20.
void BM_RigorousMp(benchmark::State& state) {
    const int T = static_cast<int>(state.range(0));
    const long bits = state.range(1);
    auto parsed = taylor::parse_formula(kLorenz);
    const auto& f = *parsed.field;
    const Precision P(bits);
    std::vector<IntervalMp> p{IntervalMp::from_integer(10, P), IntervalMp::from_integer(28, P),
                              IntervalMp::from_decimal("8/3", P)};
    std::vector<IntervalMp> x0(3, IntervalMp::from_integer(1, P));
    ode::Result<IntervalMp> res;
    for (auto _ : state) {
        res = ode::integrate(f, p, x0, IntervalMp::from_integer(T, P), {}, ode::Options{}, bits);
        benchmark::DoNotOptimize(res.final_box.data());
    }
    double w = 0;
    for (const auto& x : res.final_box) w = std::max(w, width(x));
    state.counters["steps"] = static_cast<double>(res.steps);
    state.counters["max_width"] = w;
    state.counters["ok"] = res.ok() ? 1 : 0;
}
BENCHMARK(BM_RigorousMp)->Args({10, 53})->Args({1, 128})->Unit(benchmark::kMillisecond);

using State3 = std::array<double, 3>;
void lorenz(const State3& x, State3& dx, double) {
    dx[0] = 10.0 * (x[1] - x[0]);
    dx[1] = x[0] * (28.0 - x[2]) - x[1];
    dx[2] = x[0] * x[1] - (8.0 / 3.0) * x[2];
}

void BM_Dopri5(benchmark::State& state) {
    namespace odeint = boost::numeric::odeint;
    const double T = static_cast<double>(state.range(0));
    const double tol = std::pow(10.0, -static_cast<double>(state.range(1)));
    State3 x{};
    std::size_t steps = 0;
    for (auto _ : state) {
        x = {1.0, 1.0, 1.0};
        steps = odeint::integrate_adaptive(
            odeint::make_controlled(tol, tol, odeint::runge_kutta_dopri5<State3>()), lorenz, x, 0.0, T, 1e-3);
        benchmark::DoNotOptimize(x.data());
    }
    // error against a reference computed with a much tighter tolerance (non-rigorous)
    State3 ref{1.0, 1.0, 1.0};
    odeint::integrate_adaptive(odeint::make_controlled(1e-15, 1e-15, odeint::runge_kutta_dopri5<State3>()), lorenz,
                               ref, 0.0, T, 1e-4);
    double err = 0;
    for (int i = 0; i < 3; ++i) err = std::max(err, std::fabs(x[i] - ref[i]));
    state.counters["steps"] = static_cast<double>(steps);
    state.counters["error_vs_1e-15_run"] = err;
}
BENCHMARK(BM_Dopri5)->ArgsProduct({{1, 5, 10}, {10, 12, 13}})->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
