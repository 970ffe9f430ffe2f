// Benchmark of the rigorous lumped GD (nets/lumped_gd) on the Figure-2 data [BF2025, App. B.1]: balanced Gaussian
// init (seed 3), lambda = 1e-3, step 2e-3, hand-off at iteration 4000. Against plain-double runs of the same shape
// in the same process (NON-RIGOROUS baselines): per-neuron GD (sigma'(0) = 0) and the same lumped moment map.
//   bench_lumped_gd [M] [ITERATIONS] [HANDOFF]      defaults 1000 40000 4000
// Prints, for the rigorous run: CPU s of the per-neuron phase and of the lumped phase, per-neuron steps/s, us per
// lumped step and the effective neuron-steps/s (m * N / CPU); the plain-double costs and the ratios.
#include <flowcert/nets.hpp>

#include "support/figure2_fixture.hpp"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

using namespace flowcert;
using namespace flowcert::nets;

namespace {
double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }  // process CPU time
const double kX[3] = {-0.75, -0.5, 0.125}, kY[3] = {1.1, 0.1, 0.8}, kH = 2e-3, kC = 1.0 / 3;

// plain double per-neuron GD, `iters` iterations; returns a checksum
double plain_per_neuron(std::vector<double> a, std::vector<double> w1, std::vector<double> w2, std::size_t iters) {
    const std::size_t m = a.size();
    for (std::size_t t = 0; t < iters; ++t) {
        double r[3] = {-kY[0], -kY[1], -kY[2]};
        for (std::size_t j = 0; j < m; ++j)
            for (int k = 0; k < 3; ++k) {
                const double z = w1[j] * kX[k] + w2[j];
                if (z > 0) r[k] += a[j] * z;
            }
        for (std::size_t j = 0; j < m; ++j) {
            double D1 = 0, D2 = 0;
            for (int k = 0; k < 3; ++k)
                if (w1[j] * kX[k] + w2[j] > 0) {
                    D1 -= kC * r[k] * kX[k];
                    D2 -= kC * r[k];
                }
            const double wd = w1[j] * D1 + w2[j] * D2;
            w1[j] += kH * a[j] * D1;
            w2[j] += kH * a[j] * D2;
            a[j] += kH * wd;
        }
    }
    return a[0] + w1[0];
}
// plain double lumped moment map M <- A M A^T of the all-active class, `iters` iterations
double plain_lumped(double M[6], std::size_t iters) {  // W11 W12 m1 W22 m2 alpha (moment_index order)
    for (std::size_t t = 0; t < iters; ++t) {
        double D1 = 0, D2 = 0;
        for (int k = 0; k < 3; ++k) {
            const double r = kX[k] * M[2] + M[4] - kY[k];
            D1 -= kC * r * kX[k];
            D2 -= kC * r;
        }
        const double W11 = M[0], W12 = M[1], m1 = M[2], W22 = M[3], m2 = M[4], al = M[5];
        const double WD1 = W11 * D1 + W12 * D2, WD2 = W12 * D1 + W22 * D2, mD = m1 * D1 + m2 * D2, DWD = D1 * WD1 + D2 * WD2;
        M[0] = W11 + kH * 2 * D1 * m1 + kH * kH * al * D1 * D1;
        M[1] = W12 + kH * (D1 * m2 + m1 * D2) + kH * kH * al * D1 * D2;
        M[3] = W22 + kH * 2 * D2 * m2 + kH * kH * al * D2 * D2;
        M[2] = m1 + kH * (WD1 + al * D1) + kH * kH * D1 * mD;
        M[4] = m2 + kH * (WD2 + al * D2) + kH * kH * D2 * mD;
        M[5] = al + 2 * kH * mD + kH * kH * DWD;
    }
    return M[5];
}
}  // namespace

int main(int argc, char** argv) {
    const std::size_t m = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1000;
    const std::size_t N = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 40000;
    const std::size_t H = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 4000;
    const TwoLayerModel<IntervalD> model(test_support::figure2_spec());
    const auto init = initialize<IntervalD>(test_support::balanced_init(m, 3, "1e-3"), model.d());
    LumpedGdOptions o;
    o.iterations = N;
    o.handoff = H;
    double c_handoff = 0;
    const double c0 = cpu_seconds();
    const auto res = lumped_gd(model, init.theta, IntervalD::from_decimal("2e-3"), o, [&](const GdIterationView& v) {
        if (v.t == H) c_handoff = cpu_seconds();
    });
    const double c1 = cpu_seconds();
    if (res.status != GdStatus::completed) {
        std::printf("run stopped: %s\n", res.reason.c_str());
        return 1;
    }
    const double phaseA = c_handoff - c0, phaseB = c1 - c_handoff;
    const double us_lumped = 1e6 * phaseB / static_cast<double>(std::max<std::size_t>(res.stats.lumped_steps, 1));

    std::vector<double> a(m), w1(m), w2(m);
    for (std::size_t j = 0; j < m; ++j) {
        a[j] = mid(init.theta.a[j]);
        w1[j] = mid(init.theta.W(j, 0));
        w2[j] = mid(init.theta.W(j, 1));
    }
    const std::size_t Np = std::max<std::size_t>(1, std::min<std::size_t>(N, 20000000 / std::max<std::size_t>(m, 1)));
    double p0 = cpu_seconds();
    const double chk = plain_per_neuron(a, w1, w2, Np);
    const double ns_plain = 1e9 * (cpu_seconds() - p0) / static_cast<double>(Np * m);
    double M[6] = {0.1, -0.1, 0.3, 0.2, 0.4, 0.6};
    p0 = cpu_seconds();
    const std::size_t Nl = 20000000;
    const double chk2 = plain_lumped(M, Nl);
    const double ns_plain_lumped = 1e9 * (cpu_seconds() - p0) / static_cast<double>(Nl);

    std::printf("lumped GD, Figure-2 data, m = %zu, N = %zu, hand-off %zu (checksums %.3g %.3g)\n", m, N, H, chk, chk2);
    std::printf("  rigorous: per-neuron phase %.2f s CPU, %zu neuron-steps, %.3g neuron-steps/s\n", phaseA, res.stats.neuron_steps,
                static_cast<double>(res.stats.neuron_steps) / std::max(phaseA, 1e-9));
    std::printf("  rigorous: lumped phase %.2f s CPU, %zu steps, %.2f us/step (%zu members: %.3g effective neuron-steps/s)\n", phaseB,
                res.stats.lumped_steps, us_lumped, res.stats.members_at_handoff,
                static_cast<double>(res.stats.members_at_handoff) / (us_lumped * 1e-6));
    std::printf("  rigorous total %.2f s CPU: %.3g effective neuron-steps/s (m N / CPU)\n", c1 - c0, static_cast<double>(m * N) / (c1 - c0));
    std::printf("  plain double per-neuron GD: %.2f ns/neuron-step; rigorous per-neuron phase / plain = %.1f\n", ns_plain,
                1e9 * phaseA / std::max<double>(1, static_cast<double>(res.stats.neuron_steps)) / ns_plain);
    std::printf("  plain double lumped map: %.1f ns/step; rigorous lumped step / plain lumped step = %.0f; rigorous lumped step / plain "
                "per-neuron iteration of all m neurons = %.3g\n",
                ns_plain_lumped, 1e3 * us_lumped / ns_plain_lumped, 1e3 * us_lumped / (ns_plain * static_cast<double>(m)));
    return 0;
}
