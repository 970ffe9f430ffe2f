// Benchmark of the rigorous GD of v^T (W x)^2 (nets/square_net_gd) at the Figure-1 size [KH2025, Fig. 1]:
// m = 50, d = 20, n = 100 (1050 parameters), seeded data (seed 1) and initial direction, delta = 0.02, h = 0.005,
// mean loss. Cost per GD step and its ratio to a plain-double step of the same shape in the same process.
//   bench_square_net_gd [STEPS] [LOHNER]     LOHNER = number of neurons in the Lohner frame from step 0 (default 0)
// Prints CPU and wall microseconds per step for both and the CPU ratio.
#include <flowcert/nets.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "../bench_clock.hpp"

using flowcert::bench::cpu_seconds;
using flowcert::bench::wall_seconds;

using namespace flowcert;
using namespace flowcert::nets;


int main(int argc, char** argv) {
    const long steps = argc > 1 ? std::atol(argv[1]) : 2000;
    const int lohner = argc > 2 ? std::atoi(argv[2]) : 0;
    const int m = 50, d = 20, n = 100, P = m * d + m;
    const auto teacher = HomogeneousArchitecture::feed_forward(d, {2}, HomActivation::square());
    const SphereTeacherData sd = make_sphere_teacher_data(1, d, n, teacher);
    Eigen::VectorXd g(P);
    RandomStream rs(1, "kh/theorem18_init", 0);
    for (int k = 0; k < P; ++k) g(k) = rs.gaussian();
    g /= g.norm();
    const IntervalD delta = IntervalD::from_decimal("0.02");
    linalg::IMatrixD W0(m, d);
    linalg::IVectorD v0(m);
    Eigen::MatrixXd W = Eigen::MatrixXd(m, d);
    Eigen::VectorXd v(m);
    for (int j = 0; j < m; ++j) {
        for (int k = 0; k < d; ++k) W0(j, k) = delta * IntervalD::exact(g(j * d + k));
        v0(j) = delta * IntervalD::exact(g(m * d + j));
    }
    W = linalg::mid<IntervalD>(W0);
    v = linalg::mid<IntervalD>(v0);

    // Plain double (NON-RIGOROUS baseline): same shape, same formulas.
    double checksum = 0;
    double c0 = cpu_seconds(), w0 = wall_seconds();
    for (long it = 0; it < steps * 20; ++it) checksum += square_net_gd_step_double(sd.X, sd.y, 1.0 / n, 0.005, W, v);
    const double plain_cpu = (cpu_seconds() - c0) / static_cast<double>(steps * 20);
    const double plain_wall = (wall_seconds() - w0) / static_cast<double>(steps * 20);

    SquareNetGdOptions opt;
    for (int j = 0; j < lohner; ++j) opt.lohner_from_start.push_back(j);
    SquareNetGd gd(sd.X, sd.y, IntervalD(1) / IntervalD(n), IntervalD::from_decimal("0.005"), W0, v0, opt);
    c0 = cpu_seconds();
    w0 = wall_seconds();
    for (long it = 0; it < steps; ++it)
        if (gd.step() != GdStepStatus::ok) {
            std::printf("rigorous step failed: %s\n", gd.reason().c_str());
            return 1;
        }
    const double rig_cpu = (cpu_seconds() - c0) / static_cast<double>(steps);
    const double rig_wall = (wall_seconds() - w0) / static_cast<double>(steps);
    std::printf("square_net_gd m=%d d=%d n=%d (P=%d) lohner=%d steps=%ld\n", m, d, n, P, lohner, steps);
    std::printf("  plain double : %8.2f us/step CPU, %8.2f us wall (checksum %.6g)\n", 1e6 * plain_cpu, 1e6 * plain_wall,
                checksum);
    std::printf("  rigorous     : %8.2f us/step CPU, %8.2f us wall; max width %.3e\n", 1e6 * rig_cpu, 1e6 * rig_wall,
                gd.max_width());
    std::printf("  ratio (CPU)  : %.1f\n", rig_cpu / plain_cpu);
    return 0;
}
