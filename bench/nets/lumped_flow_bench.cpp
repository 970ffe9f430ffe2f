// Benchmark of the lumped activation classes [BF2025, Figure 2 data; issue 20, target M1]:
//   bench_lumped_flow tube M SEED T0 T [THREADS]
// runs the per-neuron tube on [0, T] and the same tube with the hand-off to the lumped classes at T0,
// and prints both enclosures of h(x_k)(T) = r_k(T) + y_k, their widths and ratio, whether the lumped
// one lies inside the per-neuron one, the class counts and the wall times. Balanced Gaussian init,
// lambda = 1e-3.
#include <flowcert/nets/two_layer_flow.hpp>

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

struct Run {
    FlowResult res;
    double seconds = 0;
};

Run run(const TwoLayerModel<IntervalD>& model, const TwoLayerParams<IntervalD>& th0, double T, int threads, double T0) {
    FlowOptions o;
    o.t_end = T;
    o.threads = threads;
    o.store_tube = false;
    o.lumping.from = T0;
    o.lumping.neuron_tubes = false;
    const auto t0 = std::chrono::steady_clock::now();
    Run r;
    r.res = integrate_gradient_flow(model, th0, o);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

void print(const char* name, const Run& r, const TwoLayerModel<IntervalD>& model) {
    std::printf("%s: status=%s t=%.4g wall=%.2fs steps=%zu rejected=%zu hull_neuron_steps=%zu parked=%zu frozen=%zu "
                "lumped_neuron_steps=%zu lumped_at_handoff=%zu left=%zu rereferences=%zu %s\n",
                name, to_string(r.res.status).c_str(), r.res.t_reached, r.seconds, r.res.stats.steps,
                r.res.stats.rejected_steps, r.res.stats.hull_neuron_steps, r.res.stats.parked_neurons,
                r.res.stats.frozen_neurons, r.res.stats.lumped_neuron_steps, r.res.stats.lumped_at_handoff,
                r.res.stats.lumped_left, r.res.stats.lumped_rereferences, r.res.reason.c_str());
    for (const auto& c : r.res.classes)
        std::printf("  class pattern %u: %zu members at hand-off, %zu at the end\n", c.pattern, c.members_at_handoff,
                    c.members);
    for (std::size_t k = 0; k < r.res.residual.size(); ++k)
        std::printf("  h(x_%zu) in %s (width %.3g)\n", k, to_string(r.res.residual[k] + model.y(k), 17).c_str(),
                    width(r.res.residual[k]));
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 6 || std::string(argv[1]) != "tube") {
        std::fprintf(stderr, "usage: %s tube M SEED T0 T [THREADS]\n", argv[0]);
        return 3;
    }
    const std::size_t m = std::strtoull(argv[2], nullptr, 10);
    const std::uint64_t seed = std::strtoull(argv[3], nullptr, 10);
    const double T0 = std::atof(argv[4]), T = std::atof(argv[5]);
    const int threads = argc > 6 ? std::atoi(argv[6]) : 1;
    const TwoLayerModel<IntervalD> model(figure2_spec());
    const auto init = initialize<IntervalD>(balanced_init(m, seed, "1e-3"), model.d());
    const Run lumped = run(model, init.theta, T, threads, T0);
    print("lumped", lumped, model);
    const Run per = run(model, init.theta, T, threads, std::numeric_limits<double>::infinity());
    print("per-neuron", per, model);
    if (!lumped.res.completed() || !per.res.completed()) return 2;
    double ratio = std::numeric_limits<double>::infinity();
    bool inside = true;
    for (std::size_t k = 0; k < model.n(); ++k) {
        ratio = std::min(ratio, width(per.res.residual[k]) / width(lumped.res.residual[k]));
        inside = inside && subset(lumped.res.residual[k], per.res.residual[k]);
    }
    std::printf("M1: lumped inside per-neuron: %s; min over k of width(per-neuron) / width(lumped) = %.3g\n",
                inside ? "yes" : "NO", ratio);
    return 0;
}
