// Benchmark of the rigorous gradient flow of v^T (W x)^2 (nets/square_net_flow) [KH2025, eq. (2), Fig. 1]:
// m neurons, d inputs, n points on the sphere (data seed 2, 2-neuron square teacher, mean loss c = 1/n), initial
// point delta * (unit direction of stream kh/theorem18_init, seed 1), as kh/figure1_gd. Integrates to T and prints
// every accepted step, then the cost per step against a plain-double RK4 step of the same shape in this process.
// FRAME > 0 puts the FRAME neurons that are largest at T in a plain RK4 run (NON-RIGOROUS choice; the enclosure is
// sound whatever it is) in the Lohner frame from t = 0 (SquareNetFlowOptions::frame_from_start).
// PIECES: SquareNetFlowOptions::jacobian_pieces (the frame's flow Jacobian as a product over sub-intervals).
// REL: SquareNetFlowOptions::remainder_relative (step-size heuristic).
// MV: 1 = SquareNetFlowOptions::remainder_mean_value (the mean-value remainder validation), 0 = the TM one.
//   bench_square_net_flow [M D N DELTA T ORDER PROMOTE FRAME PIECES REL MV]  defaults: 50 20 100 0.02 10 10 0.05 0 1 0 0
#include <flowcert/nets.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

#include "../bench_clock.hpp"

using flowcert::bench::cpu_seconds;
using flowcert::bench::wall_seconds;

using namespace flowcert;
using namespace flowcert::nets;

namespace {

// The `count` neurons of largest norm sqrt(|w_j|^2 + v_j^2) at T of a plain RK4 run (step 0.01) from (W, v).
std::vector<int> largest_at_nonrigorous(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, double c, double T,
                                        Eigen::MatrixXd W, Eigen::VectorXd v, int count) {
    const long steps = static_cast<long>(std::ceil(T / 0.01));
    for (long k = 0; k < steps; ++k) square_net_flow_rk4_step_double(X, y, c, T / static_cast<double>(steps), W, v);
    std::vector<int> ids(static_cast<std::size_t>(W.rows()));
    for (int j = 0; j < W.rows(); ++j) ids[static_cast<std::size_t>(j)] = j;
    auto norm2 = [&](int j) { return W.row(j).squaredNorm() + v(j) * v(j); };
    std::sort(ids.begin(), ids.end(), [&](int a, int b) { return norm2(a) > norm2(b); });
    ids.resize(static_cast<std::size_t>(std::min<long>(count, W.rows())));
    for (int j : ids) std::printf("frame neuron %d (plain norm at T: %.4g)\n", j, std::sqrt(norm2(j)));
    return ids;
}

}  // namespace

int main(int argc, char** argv) {
    const int m = argc > 1 ? std::atoi(argv[1]) : 50, d = argc > 2 ? std::atoi(argv[2]) : 20,
              n = argc > 3 ? std::atoi(argv[3]) : 100;
    const std::string ds = argc > 4 ? argv[4] : "0.02";
    const double T = argc > 5 ? std::atof(argv[5]) : 10.0;
    const int order = argc > 6 ? std::atoi(argv[6]) : 10;
    const double promote = argc > 7 ? std::atof(argv[7]) : 0.05;
    const int frame = argc > 8 ? std::atoi(argv[8]) : 0, pieces = argc > 9 ? std::atoi(argv[9]) : 1;
    const int P = m * d + m;
    const auto teacher = HomogeneousArchitecture::feed_forward(d, {2}, HomActivation::square());
    const SphereTeacherData sd = make_sphere_teacher_data(2, d, n, teacher);
    Eigen::VectorXd g(P);
    RandomStream rs(1, "kh/theorem18_init", 0);
    for (int k = 0; k < P; ++k) g(k) = rs.gaussian();
    g /= g.norm();
    const IntervalD delta = IntervalD::from_decimal(ds);
    std::vector<IntervalD> x0(static_cast<std::size_t>(P));
    for (int k = 0; k < P; ++k) x0[static_cast<std::size_t>(k)] = delta * IntervalD::exact(g(k));
    linalg::IVectorD y(n);
    for (int i = 0; i < n; ++i) y(i) = IntervalD::exact(sd.y(i));
    Eigen::MatrixXd W(m, d);
    Eigen::VectorXd v(m);
    for (int j = 0; j < m; ++j) {
        for (int k = 0; k < d; ++k) W(j, k) = mid(x0[static_cast<std::size_t>(j * d + k)]);
        v(j) = mid(x0[static_cast<std::size_t>(m * d + j)]);
    }

    SquareNetFlowOptions o;
    o.order = order;
    o.promote_norm = promote;
    o.jacobian_pieces = pieces;
    o.remainder_relative = argc > 10 ? std::atof(argv[10]) : 0.0;
    o.remainder_mean_value = argc > 11 && std::atoi(argv[11]) != 0;
    std::printf("remainder validation: %s\n", o.remainder_mean_value ? "mean-value" : "Taylor-model");
    if (frame > 0) o.frame_from_start = largest_at_nonrigorous(sd.X, sd.y, 1.0 / n, T, W, v, frame);
    o.record_tubes = false;
    const double c0 = cpu_seconds(), w0 = wall_seconds();
    o.on_step = [&](double t, long steps, long rej, int frame, double wf, double wb, double nb) {
        std::printf("step %5ld  t = %-12.6g rejected %3ld  frame %3d  width frame %.3e boxes %.3e  box norm %.3e  (%.1f s CPU)\n",
                    steps, t, rej, frame, wf, wb, nb, cpu_seconds() - c0);
        std::fflush(stdout);
    };
    o.on_reject = [&](double t0, double t1, const std::string& why) {
        std::printf("  rejected [%.6g, %.6g]: %s\n", t0, t1, why.c_str());
        std::fflush(stdout);
    };
    SquareNetFlowStats st;
    const auto res = integrate_square_net_flow(sd.X, y, IntervalD(1) / IntervalD(n), x0, IntervalD::exact(T), {}, o, &st);
    const double rig_cpu = cpu_seconds() - c0, rig_wall = wall_seconds() - w0;
    std::printf("square_net_flow m=%d d=%d n=%d (P=%d) delta=%s T=%g order=%d: %s %s\n", m, d, n, P, ds.c_str(), T, order,
                res.ok() ? "ok" : "FAILED", res.reason.c_str());
    std::printf("  reached t = %.6g, steps %ld (rejected %ld), frame %d, conserved %s, max width %.3e\n", upper(res.time),
                res.steps, res.rejected_steps, st.frame_neurons, st.conserved_consistent ? "consistent" : "INCONSISTENT",
                st.max_width_end);
    const long steps = std::max<long>(1, res.steps + res.rejected_steps);
    // Plain double RK4 (NON-RIGOROUS baseline): same shape, same formulas.
    const long reps = 2000;
    const double h = T / static_cast<double>(std::max<long>(1, res.steps));
    const double c1 = cpu_seconds();
    for (long it = 0; it < reps; ++it) square_net_flow_rk4_step_double(sd.X, sd.y, 1.0 / n, h / 100, W, v);
    const double plain_cpu = (cpu_seconds() - c1) / reps;
    std::printf("  rigorous     : %.4f s/step CPU (attempts incl. rejected), %.1f s CPU, %.1f s wall in all\n",
                rig_cpu / static_cast<double>(steps), rig_cpu, rig_wall);
    std::printf("  plain RK4    : %.2f us/step CPU (checksum %.6g)\n", 1e6 * plain_cpu, v.sum());
    std::printf("  ratio (CPU)  : %.0f\n", rig_cpu / static_cast<double>(steps) / plain_cpu);
    return res.ok() ? 0 : 1;
}
