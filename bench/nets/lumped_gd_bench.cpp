// Benchmark of the rigorous lumped GD (nets/lumped_gd) on the Figure-2 data [BF2025, App. B.1]: balanced Gaussian
// init (seed 3), lambda = 1e-3, step 2e-3, hand-off at iteration 4000. Against plain-double runs of the same shape
// in the same process (NON-RIGOROUS baselines): per-neuron GD (sigma'(0) = 0; proofs::bf::plain_gd_nonrigorous, the
// comparison run of the bf reports: frozen neurons dropped, two neurons per SSE2 vector) and the same lumped moment map.
//   bench_lumped_gd [M] [ITERATIONS] [HANDOFF]      defaults 1000 40000 4000
// Prints, for the rigorous run: CPU s of the per-neuron phase and of the lumped phase, per-neuron steps/s, us per
// lumped step and the effective neuron-steps/s (m * N / CPU); the plain-double costs and the ratios. The ratio of the
// lumped phase (issue 20: goal <= 5) is the rigorous CPU time of iterations HANDOFF..N over the plain per-neuron GD's
// CPU time for the same iterations of the same m neurons (plain runs to HANDOFF and to N, the difference).
#include <flowcert/nets.hpp>
#include <flowcert/proofs/bf.hpp>

#include "support/figure2_fixture.hpp"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "../bench_clock.hpp"

using flowcert::bench::cpu_seconds;

using namespace flowcert;
using namespace flowcert::nets;

namespace {
const double kX[3] = {-0.75, -0.5, 0.125}, kY[3] = {1.1, 0.1, 0.8}, kH = 2e-3, kC = 1.0 / 3;

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

    // plain double per-neuron GD of the same seed: iterations 0..H and 0..N (the window H..N is the difference)
    const proofs::bf::PlainRun pH = proofs::bf::plain_gd_nonrigorous(model, init.theta, 2e-3, H);
    const proofs::bf::PlainRun pN = proofs::bf::plain_gd_nonrigorous(model, init.theta, 2e-3, N);
    const double plain_window = std::max(pN.seconds - pH.seconds, 1e-9), plain_first = std::max(pH.seconds, 1e-9);
    const double chk = pN.loss;
    double M[6] = {0.1, -0.1, 0.3, 0.2, 0.4, 0.6};
    const double p0 = cpu_seconds();
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
    std::printf("  plain double per-neuron GD (same m, frozen neurons dropped): iterations 0..%zu %.2f s CPU, %zu..%zu %.2f s CPU (%.2f us/iteration, "
                "%.3g neuron-steps/s of all m neurons)\n",
                H, pH.seconds, H, N, plain_window, 1e6 * plain_window / static_cast<double>(N - H), static_cast<double>(m * (N - H)) / plain_window);
    std::printf("  ratio rigorous / plain, per-neuron phase 0..%zu: %.1f; lumped phase %zu..%zu: %.3g\n", H, phaseA / plain_first, H, N,
                phaseB / plain_window);
    std::printf("  plain double lumped map: %.1f ns/step; rigorous lumped step / plain lumped step = %.0f\n", ns_plain_lumped,
                1e3 * us_lumped / ns_plain_lumped);
    return 0;
}
