// The seeded Figure-1 setting across data seeds (NON-RIGOROUS, plain double GD): for each data seed, the teacher's
// output weights, L(0), and the plain run's plateau read-offs (first iterate with L < 0.5 L(0), the loss there
// and at the end). This is how the project's Figure-1 seed was chosen (docs/kh.md, "The seeded setting").
//   bench_figure1_seeds [FIRST] [LAST] [STEPS] [INIT_SEED]     defaults 1 12 250000 1
#include <flowcert/nets.hpp>
#include <flowcert/proofs/kh/figure1_gd.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace flowcert;
using namespace flowcert::proofs::kh;

int main(int argc, char** argv) {
    const long first = argc > 1 ? std::atol(argv[1]) : 1, last = argc > 2 ? std::atol(argv[2]) : 12;
    const long steps = argc > 3 ? std::atol(argv[3]) : 250000;
    const long init_seed = argc > 4 ? std::atol(argv[4]) : 1;
    for (long seed = first; seed <= last; ++seed) {
        const SquareNetSetting s = seeded_square_net_setting(50, 20, 100, static_cast<std::uint64_t>(seed),
                                                             static_cast<std::uint64_t>(init_seed), "0.02", "0.005");
        Eigen::MatrixXd W = 0.02 * s.W0_direction;
        Eigen::VectorXd v = 0.02 * s.v0_direction;
        const double L0 = mid(loss_at_origin(s.data));
        long half = -1, ninety = -1;
        double L = L0, Lhalf = 0;
        const auto teacher = nets::HomogeneousArchitecture::feed_forward(20, {2}, nets::HomActivation::square());
        const nets::SphereTeacherData td = nets::make_sphere_teacher_data(static_cast<std::uint64_t>(seed), 20, 100, teacher);
        const Eigen::Index P = td.teacher_weights.size();
        std::printf("seed %ld: teacher v = (%.4g, %.4g), L(0) = %.6g;", seed, td.teacher_weights(P - 2),
                    td.teacher_weights(P - 1), L0);
        for (long k = 0; k < steps; ++k) {
            L = nets::square_net_gd_step_double(s.data.X, s.data.y, 0.01, 0.005, W, v);
            if (ninety < 0 && L < 0.99 * L0) ninety = k;
            if (half < 0 && L < 0.5 * L0) half = k;
            if (half >= 0 && k == half + 20000) Lhalf = L;
        }
        std::printf(" L < 0.99 L(0) at %ld, L < 0.5 L(0) at %ld, L(half + 20000) = %.6g, L(%ld) = %.6g\n", ninety,
                    half, Lhalf, steps, L);
        std::fflush(stdout);
    }
    return 0;
}
