// Sensitivity of the plain GD map of v^T (W x)^2 (NON-RIGOROUS, double): how fast do two nearby GD trajectories
// separate? The certified widths of nets::SquareNetGd cannot grow slower than this separation (a tube contains every
// trajectory from its initial box), so a width growth of the same rate is the dynamics', not the enclosure's.
// For each of `DIRS` random unit directions u, the trajectories from theta_0 and theta_0 + eps u are run side by side;
// every `EVERY` steps prints the loss and max over u of |theta_k(eps u) - theta_k| / eps (the finite-difference
// amplification), and its growth factor since the last line.
//   bench_square_net_sensitivity [M] [D] [N] [DELTA] [STEPS] [EVERY] [DATA_SEED] [STEP] [INIT_SEED]
//   defaults 10 20 30 0.1 100000 5000 1 0.005 1
#include <flowcert/nets.hpp>
#include <flowcert/proofs/kh/figure1_gd.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace flowcert;
using namespace flowcert::proofs::kh;

int main(int argc, char** argv) {
    const int m = argc > 1 ? std::atoi(argv[1]) : 10, d = argc > 2 ? std::atoi(argv[2]) : 20;
    const int n = argc > 3 ? std::atoi(argv[3]) : 30;
    const std::string delta = argc > 4 ? argv[4] : "0.1";
    const long steps = argc > 5 ? std::atol(argv[5]) : 100000, every = argc > 6 ? std::atol(argv[6]) : 5000;
    const long data_seed = argc > 7 ? std::atol(argv[7]) : 1;
    const std::string step = argc > 8 ? argv[8] : "0.005";
    const long init_seed = argc > 9 ? std::atol(argv[9]) : 1;
    const SquareNetSetting s = seeded_square_net_setting(m, d, n, static_cast<std::uint64_t>(data_seed),
                                                         static_cast<std::uint64_t>(init_seed), delta, step);
    const double dl = std::atof(delta.c_str()), c = 1.0 / n, h = std::atof(step.c_str()), eps = 1e-9;
    const int dirs = 4;
    Eigen::MatrixXd W = dl * s.W0_direction;
    Eigen::VectorXd v = dl * s.v0_direction;
    std::vector<Eigen::MatrixXd> Wp;
    std::vector<Eigen::VectorXd> vp;
    nets::RandomStream rs(7, "bench/sensitivity", 0);
    for (int u = 0; u < dirs; ++u) {
        Eigen::MatrixXd dW(m, d);
        Eigen::VectorXd dv(m);
        for (int j = 0; j < m; ++j) {
            for (int k = 0; k < d; ++k) dW(j, k) = rs.gaussian();
            dv(j) = rs.gaussian();
        }
        const double nr = std::sqrt(dW.squaredNorm() + dv.squaredNorm());
        Wp.push_back(W + eps * dW / nr);
        vp.push_back(v + eps * dv / nr);
    }
    double last = 1;
    for (long k = 0; k <= steps; ++k) {
        if (k % every == 0) {
            double amp = 0;
            for (int u = 0; u < dirs; ++u)
                amp = std::max(amp, std::sqrt((Wp[u] - W).squaredNorm() + (vp[u] - v).squaredNorm()) / eps);
            const Eigen::MatrixXd Z = W * s.data.X;
            const double L = c * (Z.array().square().matrix().transpose() * v - s.data.y).squaredNorm();
            std::printf("step %7ld  L = %.6e  amplification %.3e  (x%.3g since the last line)\n", k, L, amp, amp / last);
            last = amp;
            // keep the separation in the linear regime: renormalize to eps when it exceeds 1e3 eps
            if (amp > 1e3)
                for (int u = 0; u < dirs; ++u) {
                    const double f = 1.0 / amp;
                    Wp[u] = W + f * (Wp[u] - W);
                    vp[u] = v + f * (vp[u] - v);
                }
            if (amp > 1e3) last = 1;
        }
        nets::square_net_gd_step_double(s.data.X, s.data.y, c, h, W, v);
        for (int u = 0; u < dirs; ++u) nets::square_net_gd_step_double(s.data.X, s.data.y, c, h, Wp[u], vp[u]);
    }
    return 0;
}
