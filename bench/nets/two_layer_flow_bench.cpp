// Benchmark of the rigorous two-layer gradient flow and GD [BF2025, Figure 2 data].
//   bench_two_layer_flow flow M THREADS [T_END] [LAMBDA] [ORDER] [cross|nocross]
//   bench_two_layer_flow gd M THREADS ITERATIONS
// Prints one line per run: wall time, steps, widths. Balanced Gaussian init, seed 1.
#include <flowcert/nets.hpp>

#include "support/figure2_fixture.hpp"  // tests/support, on the include path of this target

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace flowcert;
using namespace flowcert::nets;
using flowcert::test_support::balanced_init;
using flowcert::test_support::figure2_spec;

namespace {
// Plain-double GD of the same shape (same data, init midpoints, step, chunked residual sums),
// NOT rigorous: the baseline the interval GD is measured against in the same process.
double plain_gd_seconds(const TwoLayerModel<IntervalD>& model, const TwoLayerParams<IntervalD>& th0, std::size_t iters,
                        double& checksum) {
    const std::size_t m = th0.m, d = model.d(), n = model.n();
    std::vector<double> a(m), w(m * d), x(n * d), y(n), z(m * n), g(n);
    for (std::size_t j = 0; j < m; ++j) {
        a[j] = mid(th0.a[j]);
        for (std::size_t i = 0; i < d; ++i) w[j * d + i] = mid(th0.W(j, i));
    }
    for (std::size_t k = 0; k < n; ++k) {
        y[k] = mid(model.y(k));
        for (std::size_t i = 0; i < d; ++i) x[k * d + i] = mid(model.x(k, i));
    }
    const double c = mid(model.risk_weight()), step = 2e-3;
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<double> D(d);
    for (std::size_t it = 0; it < iters; ++it) {
        for (std::size_t k = 0; k < n; ++k) g[k] = 0;
        for (std::size_t j = 0; j < m; ++j)
            for (std::size_t k = 0; k < n; ++k) {
                double s = 0;
                for (std::size_t i = 0; i < d; ++i) s += w[j * d + i] * x[k * d + i];
                z[j * n + k] = s;
                g[k] += a[j] * (s > 0 ? s : 0.0);
            }
        for (std::size_t k = 0; k < n; ++k) g[k] -= y[k];
        for (std::size_t j = 0; j < m; ++j) {
            for (std::size_t i = 0; i < d; ++i) D[i] = 0;
            for (std::size_t k = 0; k < n; ++k)
                if (z[j * n + k] > 0)
                    for (std::size_t i = 0; i < d; ++i) D[i] += g[k] * x[k * d + i];
            double wd = 0;
            for (std::size_t i = 0; i < d; ++i) {
                D[i] *= -c;
                wd += w[j * d + i] * D[i];
            }
            const double aj = a[j];
            for (std::size_t i = 0; i < d; ++i) w[j * d + i] += step * aj * D[i];
            a[j] += step * wd;
        }
    }
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    checksum = 0;
    for (double v : a) checksum += v;
    return sec;
}
}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s flow|gd M THREADS [T_END|ITERATIONS] [LAMBDA] [ORDER] [cross|nocross] [park|nopark]\n", argv[0]);
        return 3;
    }
    const std::string mode = argv[1];
    const std::size_t m = std::strtoull(argv[2], nullptr, 10);
    const int threads = std::atoi(argv[3]);
    const TwoLayerModel<IntervalD> model(figure2_spec());
    const auto init = initialize<IntervalD>(balanced_init(m, 1, argc > 5 ? argv[5] : "1e-3"), model.d());
    const auto t0 = std::chrono::steady_clock::now();
    if (mode == "flow") {
        FlowOptions o;
        o.t_end = argc > 4 ? std::atof(argv[4]) : 10.0;
        o.threads = threads;
        o.store_tube = false;
        if (argc > 6) o.order = std::atoi(argv[6]);
        if (argc > 7) o.transversal_crossings = std::string(argv[7]) != "nocross";
        if (argc > 8) o.park_neurons = std::string(argv[8]) != "nopark";
        const FlowResult r = integrate_gradient_flow(model, init.theta, o);
        const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        double wmax = 0, relmax = 0;
        for (std::size_t j = 0; j < m; ++j) {
            wmax = std::max(wmax, width(r.state.a[j]));
            const double mg = mig(r.state.a[j]);
            if (mg > 0) relmax = std::max(relmax, width(r.state.a[j]) / mg);
        }
        std::printf("flow m=%zu threads=%d status=%s t=%.4g wall=%.3fs steps=%zu rejected=%zu hull_neuron_steps=%zu "
                    "hull_substeps=%zu crossings=%zu parked_neuron_steps=%zu parked=%zu frozen=%zu h=[%.3g,%.3g] max_width_a=%.3g max_rel_width_a=%.3g hull_phase=%.2fs/%.2fs %s\n",
                    m, threads, to_string(r.status).c_str(), r.t_reached, sec, r.stats.steps, r.stats.rejected_steps,
                    r.stats.hull_neuron_steps, r.stats.hull_substeps, r.stats.transversal_crossings, r.stats.parked_neuron_steps, r.stats.parked_neurons, r.stats.frozen_neurons, r.stats.h_smallest,
                    r.stats.h_largest, wmax, relmax, r.stats.wall_hull_phase, r.stats.wall_total, r.reason.c_str());
        const auto out = outputs(model, r.state);
        for (std::size_t k = 0; k < out.size(); ++k) std::printf("  h(x_%zu) in %s\n", k, to_string(out[k], 10).c_str());
    } else {
        GdOptions g;
        g.iterations = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 1000;
        g.threads = threads;
        const auto r = gd_iterate(model, init.theta, IntervalD::from_decimal("2e-3"), g);
        const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        double checksum = 0;
        const double base = plain_gd_seconds(model, init.theta, g.iterations, checksum);
        const double rate = static_cast<double>(m) * static_cast<double>(r.iterations_done) / sec;
        const double base_rate = static_cast<double>(m) * static_cast<double>(g.iterations) / base;
        std::printf("gd m=%zu threads=%d iterations=%zu status=%s wall=%.3fs neuron_steps_per_s=%.3g hull_pairs=%zu "
                    "plain_double_1thread=%.3g/s (%.3fs, checksum %.6g) interval/plain=%.3g\n",
                    m, threads, r.iterations_done, to_string(r.status).c_str(), sec, rate, r.undecided_pair_steps,
                    base_rate, base, checksum, rate / base_rate);
    }
    return 0;
}
