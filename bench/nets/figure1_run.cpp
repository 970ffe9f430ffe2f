// The seeded Figure-1 GD run [KH2025, Fig. 1] certified with proofs::kh::run_certified_gd: the numbers of
// docs/kh.md ("The seeded Figure-1 run") in one command (about 10 min CPU at m = 50, d = 20, n = 100).
//   bench_figure1_run [STEPS] [I1] [I2] [M] [N] [DELTA]     defaults 752000 733500 750550 50 100 0.02
// Prints the loss enclosure of every 1000th block end, the certified neuron norms at I1 and I2 (largest
// three and the largest of the rest), and the CPU time.
#include <flowcert/proofs/kh/figure1_gd.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <numeric>
#include <string>

using namespace flowcert;
using namespace flowcert::proofs::kh;

int main(int argc, char** argv) {
    const long steps = argc > 1 ? std::atol(argv[1]) : 752000;
    const long i1 = argc > 2 ? std::atol(argv[2]) : 733500, i2 = argc > 3 ? std::atol(argv[3]) : 750550;
    const int m = argc > 4 ? std::atoi(argv[4]) : 50, n = argc > 5 ? std::atoi(argv[5]) : 100;
    const std::string delta = argc > 6 ? argv[6] : "0.02";
    const SquareNetSetting s = seeded_square_net_setting(m, 20, n, 1, 1, delta, "0.005");
    const std::clock_t c0 = std::clock();
    const CertifiedGdRun run = run_certified_gd(s, steps, 100, {i1, i2});
    const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
    std::printf("%s; %ld steps, %.0f s CPU, max width %.3e, %d frame neurons, drift check %s\n", run.reason.c_str(),
                run.steps, cpu, run.max_width, run.lohner_neurons, run.conserved_consistent ? "held" : "FAILED");
    std::printf("L(0) in [%.15g, %.15g]\n", loss_at_origin(s.data).lower(), loss_at_origin(s.data).upper());
    for (std::size_t k = 0; k < run.loss.size(); k += 10)
        std::printf("iterates %7ld..%7ld: L in [%.12g, %.12g]\n", run.loss[k].first, run.loss[k].last,
                    run.loss[k].hull.lower(), run.loss[k].hull.upper());
    for (const NeuronNorms& snap : run.snapshots) {
        std::vector<int> idx(snap.norm.size());
        std::iota(idx.begin(), idx.end(), 0);
        std::sort(idx.begin(), idx.end(), [&](int a, int b) { return snap.norm[a].upper() > snap.norm[b].upper(); });
        std::printf("iterate %ld:", snap.iteration);
        for (int r = 0; r < 4 && r < static_cast<int>(idx.size()); ++r)
            std::printf("  neuron %d |theta_j| in [%.8g, %.8g]", idx[r], snap.norm[idx[r]].lower(), snap.norm[idx[r]].upper());
        std::printf("\n");
    }
    return run.completed ? 0 : 1;
}
