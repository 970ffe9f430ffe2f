// Benchmark of the lumped activation classes [BF2025, Figure 2 data; issue 20, target M1]:
//   bench_lumped_flow tube M SEED T0 T [THREADS] [JOIN_AFTER] [nocompare]
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

Run run(const TwoLayerModel<IntervalD>& model, const TwoLayerParams<IntervalD>& th0, double T, int threads, double T0,
        std::size_t join_after) {
    FlowOptions o;
    o.t_end = T;
    o.threads = threads;
    o.store_tube = false;
    if (std::getenv("LUMPED_TRACE"))
        for (double t = 1; t < T; t += 1) o.output_times.push_back(t);
    o.lumping.from = T0;
    o.lumping.neuron_tubes = false;
    o.lumping.join_after = join_after;
    const auto t0 = std::chrono::steady_clock::now();
    Run r;
    r.res = integrate_gradient_flow(model, th0, o);
    for (const auto& sn : r.res.snapshots) {
        double w = 0;
        for (const auto& x : sn.residual) w = std::max(w, width(x));
        std::printf("    t=%g residual width %.3g\n", sn.t, w);
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

void print(const char* name, const Run& r, const TwoLayerModel<IntervalD>& model) {
    std::printf("%s: status=%s t=%.4g wall=%.2fs steps=%zu rejected=%zu hull_neuron_steps=%zu parked=%zu frozen=%zu "
                "lumped_neuron_steps=%zu lumped_at_handoff=%zu joined=%zu left=%zu cohorts<=%zu rereferences=%zu %s\n",
                name, to_string(r.res.status).c_str(), r.res.t_reached, r.seconds, r.res.stats.steps,
                r.res.stats.rejected_steps, r.res.stats.hull_neuron_steps, r.res.stats.parked_neurons,
                r.res.stats.frozen_neurons, r.res.stats.lumped_neuron_steps, r.res.stats.lumped_at_handoff,
                r.res.stats.lumped_joined, r.res.stats.lumped_left, r.res.stats.lumped_max_cohorts, r.res.stats.lumped_rereferences, r.res.reason.c_str());
    for (const auto& c : r.res.classes)
        std::printf("  class pattern %u: %zu members at hand-off, %zu joined later, %zu at the end\n", c.pattern, c.members_at_handoff, c.joined,
                    c.members);
    {
        // parked neurons' output bound on their sample: |a| sup z^+ (the width they add to the residual)
        double pw = 0, lw = 0;
        for (std::size_t j = 0; j < r.res.state.m; ++j) {
            double zmax = 0;
            for (std::size_t k = 0; k < model.n(); ++k)
                zmax = std::max(zmax, (r.res.state.W(j, 0) * model.x(k, 0) + r.res.state.W(j, 1) * model.x(k, 1)).upper());
            if (r.res.parked[j]) pw += mag(r.res.state.a[j]) * zmax;
            if (!r.res.lumped.empty() && r.res.lumped[j]) lw = std::max(lw, width(r.res.state.a[j]) / mig(r.res.state.a[j]));
        }
        std::printf("  parked output bound sum_j |a_j| sup z_j^+ = %.3g; lumped neurons' max relative width of a: %.3g\n", pw, lw);
    }
    for (std::size_t k = 0; k < r.res.residual.size(); ++k)
        std::printf("  h(x_%zu) in %s (width %.3g)\n", k, to_string(r.res.residual[k] + model.y(k), 17).c_str(),
                    width(r.res.residual[k]));
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 6 || std::string(argv[1]) != "tube") {
        std::fprintf(stderr, "usage: %s tube M SEED T0 T [THREADS] [JOIN_AFTER] [nocompare]\n", argv[0]);
        return 3;
    }
    const std::size_t m = std::strtoull(argv[2], nullptr, 10);
    const std::uint64_t seed = std::strtoull(argv[3], nullptr, 10);
    const double T0 = std::atof(argv[4]), T = std::atof(argv[5]);
    const int threads = argc > 6 ? std::atoi(argv[6]) : 1;
    const std::size_t join_after = argc > 7 ? std::strtoull(argv[7], nullptr, 10) : 2;
    const bool compare = !(argc > 8 && std::string(argv[8]) == "nocompare");
    const TwoLayerModel<IntervalD> model(figure2_spec());
    const auto init = initialize<IntervalD>(balanced_init(m, seed, "1e-3"), model.d());
    const Run lumped = run(model, init.theta, T, threads, T0, join_after);
    print("lumped", lumped, model);
    if (!compare) return lumped.res.completed() ? 0 : 2;
    const Run per = run(model, init.theta, T, threads, std::numeric_limits<double>::infinity(), 0);
    print("per-neuron", per, model);
    for (std::size_t i = 0; i < std::min(lumped.res.snapshots.size(), per.res.snapshots.size()); ++i) {
        const auto& a = lumped.res.snapshots[i].residual;
        const auto& b = per.res.snapshots[i].residual;
        bool meet = true;
        for (std::size_t k = 0; k < a.size(); ++k) {
            IntervalD o;
            meet = meet && intersect(a[k], b[k], o);
        }
        std::printf("  t=%g lumped and per-neuron residuals %s\n", lumped.res.snapshots[i].t, meet ? "intersect" : "DISJOINT");
    }
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
