// Benchmark of the lumped activation classes [BF2025, Figure 2 data; issue 20, target M1]:
//   bench_lumped_flow tube M SEED T0 T [THREADS] [JOIN_AFTER] [nocompare]
// runs the per-neuron tube on [0, T] and the same tube with the hand-off to the lumped classes at T0,
// and prints both enclosures of h(x_k)(T) = r_k(T) + y_k, their widths and ratio, whether the lumped
// one lies inside the per-neuron one, the class counts and the wall times.
//   bench_lumped_flow reference M SEED T H [NEURON]
// NON-RIGOROUS plain reference: the ReLU gradient flow in long double, RK4 with step H from the
// init midpoints (patterns evaluated at every stage), printing h(x_k)(T) and E(T) = L(T) - L*
// (M2: the certified E(T) is compared with it; run with H and H/2 to see its accuracy), and the state of
// neuron NEURON at T.
//   bench_lumped_flow rate M SEED T0 T [THREADS]
// neuron-steps/s (process CPU time) of the rigorous run on [T0, T] (hand-off at T0) and of a plain-double RK4 run of
// the same shape (same m, same number of steps; proofs::bf::plain_flow_nonrigorous, the reports' comparison run,
// frozen neurons dropped) in the same process, and their ratio.
// Balanced Gaussian init, lambda = 1e-3. Environment: CLASS_TRANSITIONS (any value) sets
// FlowOptions::class_transitions (smooth neurons by their pattern's transition matrix); ALL_ACTIVE_ONLY
// (rate only) lumps only the all-active class (LumpingOptions::all_active_only).
#include <flowcert/nets.hpp>
#include <flowcert/proofs/bf.hpp>

#include "../bench_clock.hpp"
#include "support/figure2_fixture.hpp"  // tests/support, on the include path of this target

#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
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
    if (const char* mj = std::getenv("LUMPED_MAX_JOINS")) o.lumping.max_joins = std::strtoull(mj, nullptr, 10);
    o.class_transitions = std::getenv("CLASS_TRANSITIONS") != nullptr;
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

namespace {

// ---- plain references (NOT rigorous) ----
// The ReLU field of the two-layer flow at theta = (w_j, a_j)_j (S = d + 1 per neuron), c = 1/n.
template <class F>
struct PlainFlow {
    std::size_t m, n, d;
    std::vector<F> x, y;
    F c;
    PlainFlow(const TwoLayerModel<IntervalD>& model, std::size_t m_) : m(m_), n(model.n()), d(model.d()) {
        for (std::size_t k = 0; k < n; ++k) {
            y.push_back(static_cast<F>(mid(model.y(k))));
            for (std::size_t i = 0; i < d; ++i) x.push_back(static_cast<F>(mid(model.x(k, i))));
        }
        c = F(1) / static_cast<F>(n);
    }
    std::vector<F> residuals(const std::vector<F>& th) const {
        std::vector<F> r(n, F(0));
        const std::size_t S = d + 1;
        for (std::size_t j = 0; j < m; ++j)
            for (std::size_t k = 0; k < n; ++k) {
                F z = 0;
                for (std::size_t i = 0; i < d; ++i) z += th[j * S + i] * x[k * d + i];
                if (z > 0) r[k] += th[j * S + d] * z;
            }
        for (std::size_t k = 0; k < n; ++k) r[k] -= y[k];
        return r;
    }
    void field(const std::vector<F>& th, std::vector<F>& f) const {
        const std::size_t S = d + 1;
        const auto r = residuals(th);
        f.resize(th.size());
        std::vector<F> D(d);
        for (std::size_t j = 0; j < m; ++j) {
            for (std::size_t i = 0; i < d; ++i) D[i] = 0;
            for (std::size_t k = 0; k < n; ++k) {
                F z = 0;
                for (std::size_t i = 0; i < d; ++i) z += th[j * S + i] * x[k * d + i];
                if (z > 0)
                    for (std::size_t i = 0; i < d; ++i) D[i] -= c * r[k] * x[k * d + i];
            }
            F wd = 0;
            for (std::size_t i = 0; i < d; ++i) {
                f[j * S + i] = th[j * S + d] * D[i];
                wd += th[j * S + i] * D[i];
            }
            f[j * S + d] = wd;
        }
    }
    void rk4(std::vector<F>& th, F h) const {
        std::vector<F> k1, k2, k3, k4, tmp(th.size());
        field(th, k1);
        for (std::size_t i = 0; i < th.size(); ++i) tmp[i] = th[i] + h / 2 * k1[i];
        field(tmp, k2);
        for (std::size_t i = 0; i < th.size(); ++i) tmp[i] = th[i] + h / 2 * k2[i];
        field(tmp, k3);
        for (std::size_t i = 0; i < th.size(); ++i) tmp[i] = th[i] + h * k3[i];
        field(tmp, k4);
        for (std::size_t i = 0; i < th.size(); ++i) th[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    }
};

template <class F>
std::vector<F> midpoints(const TwoLayerParams<IntervalD>& th, std::size_t d) {
    std::vector<F> v;
    for (std::size_t j = 0; j < th.m; ++j) {
        for (std::size_t i = 0; i < d; ++i) v.push_back(static_cast<F>(mid(th.W(j, i))));
        v.push_back(static_cast<F>(mid(th.a[j])));
    }
    return v;
}

// The least-squares predictions x_k^T beta* of the data (normal equations, long double; d = 2).
std::vector<long double> least_squares_predictions(const PlainFlow<long double>& P) {
    long double A[2][2] = {{0, 0}, {0, 0}}, b[2] = {0, 0};
    for (std::size_t k = 0; k < P.n; ++k)
        for (std::size_t i = 0; i < 2; ++i) {
            b[i] += P.x[k * 2 + i] * P.y[k];
            for (std::size_t l = 0; l < 2; ++l) A[i][l] += P.x[k * 2 + i] * P.x[k * 2 + l];
        }
    const long double det = A[0][0] * A[1][1] - A[0][1] * A[1][0];
    const long double b0 = (A[1][1] * b[0] - A[0][1] * b[1]) / det, b1 = (A[0][0] * b[1] - A[1][0] * b[0]) / det;
    std::vector<long double> p;
    for (std::size_t k = 0; k < P.n; ++k) p.push_back(P.x[k * 2] * b0 + P.x[k * 2 + 1] * b1);
    return p;
}

int reference(std::size_t m, std::uint64_t seed, double T, double H, std::size_t neuron) {
    const TwoLayerModel<IntervalD> model(figure2_spec());
    const auto init = initialize<IntervalD>(balanced_init(m, seed, "1e-3"), model.d());
    const PlainFlow<long double> P(model, m);
    std::vector<long double> th = midpoints<long double>(init.theta, model.d());
    const std::size_t steps = static_cast<std::size_t>(std::llround(T / H));
    for (std::size_t s = 0; s < steps; ++s) P.rk4(th, static_cast<long double>(T) / static_cast<long double>(steps));
    const auto r = P.residuals(th);
    const auto p = least_squares_predictions(P);
    long double L = 0, Ls = 0;
    for (std::size_t k = 0; k < P.n; ++k) {
        L += r[k] * r[k] * P.c / 2;
        Ls += (p[k] - P.y[k]) * (p[k] - P.y[k]) * P.c / 2;
    }
    std::printf("reference (long double RK4, NOT rigorous): m=%zu seed=%llu T=%g steps=%zu\n", m,
                static_cast<unsigned long long>(seed), T, steps);
    for (std::size_t k = 0; k < P.n; ++k)
        std::printf("  h(x_%zu)(T) = %.15Lg   x_k^T beta* = %.15Lg\n", k, r[k] + P.y[k], p[k]);
    std::printf("  L(T) = %.15Lg  L* = %.15Lg  E(T) = L(T) - L* = %.6Lg\n", L, Ls, L - Ls);
    // the plain classification at T (beside the certified one): sign of a_j and the samples with z_jk > 0
    std::map<std::string, std::size_t> classes;
    for (std::size_t j = 0; j < m; ++j) {
        const long double* t = &th[j * (P.d + 1)];
        std::string key = t[P.d] > 0 ? "a>0 active on {" : "a<=0 active on {";
        for (std::size_t k = 0; k < P.n; ++k)
            if (t[0] * P.x[k * 2] + t[1] * P.x[k * 2 + 1] > 0) key += std::to_string(k + 1);
        ++classes[key + "}"];
    }
    for (const auto& [key, count] : classes) std::printf("  %s: %zu\n", key.c_str(), count);
    if (neuron < m) {
        const long double* t = &th[neuron * (P.d + 1)];
        std::printf("  neuron %zu: w = (%.6Lg, %.6Lg), a = %.6Lg, z =", neuron, t[0], t[1], t[2]);
        for (std::size_t k = 0; k < P.n; ++k) std::printf(" %.6Lg", t[0] * P.x[k * 2] + t[1] * P.x[k * 2 + 1]);
        std::printf("\n");
    }
    return 0;
}

// Rigorous lumped phase vs plain-double RK4 of the same shape (m neurons, the same number of steps).
int rate(std::size_t m, std::uint64_t seed, double T0, double T, int threads) {
    const TwoLayerModel<IntervalD> model(figure2_spec());
    const auto init = initialize<IntervalD>(balanced_init(m, seed, "1e-3"), model.d());
    FlowOptions o;
    o.t_end = T;
    o.threads = threads;
    o.store_tube = false;
    o.observer_tube = false;  // the observer below reads only the counts (a verifier's tracker needs the tube)
    o.lumping.from = T0;
    o.lumping.neuron_tubes = false;
    o.class_transitions = std::getenv("CLASS_TRANSITIONS") != nullptr;
    o.lumping.all_active_only = std::getenv("ALL_ACTIVE_ONLY") != nullptr;
    std::size_t steps = 0, lumped_neuron_steps = 0, smooth = 0, hull = 0, parked = 0, frozen = 0, substeps = 0;
    const double cpu_begin = bench::cpu_seconds(), wall_begin = bench::wall_seconds();
    double cpu_start = 0, wall_start = 0;
    bool started = false;
    const auto res = integrate_gradient_flow(model, init.theta, o, [&](const FlowStep& st) {
        if (st.t0 < T0) return;
        if (!started) {  // the phase is timed from the end of its first step (that step's cost is not counted)
            cpu_start = bench::cpu_seconds();
            wall_start = bench::wall_seconds();
            started = true;
            std::fprintf(stderr, "window starts\n");  // a profiler can attach from here
            return;
        }
        ++steps;
        lumped_neuron_steps += st.lumped;
        smooth += st.smooth;
        hull += st.hull;
        parked += st.parked;
        frozen += st.frozen;
        substeps += st.hull_substeps;
    });
    const double sec = started ? bench::cpu_seconds() - cpu_start : 0, wall = started ? bench::wall_seconds() - wall_start : 0;
    if (!res.completed() || steps == 0) {
        std::printf("rate: rigorous run stopped at t = %g: %s\n", res.t_reached, res.reason.c_str());
        return 2;
    }
    // the plain baseline: the reports' comparison run (proofs::bf::plain_flow_nonrigorous: RK4, frozen neurons dropped),
    // `steps` steps over a window of length T - T0 from the rigorous state at T (the midpoints), 1 thread
    const double p0 = bench::cpu_seconds();
    const proofs::bf::PlainRun pr = proofs::bf::plain_flow_nonrigorous(model, res.state, T - T0, (T - T0) / static_cast<double>(steps));
    const double psec = bench::cpu_seconds() - p0;
    const double checksum = pr.loss;
    const double rig = static_cast<double>(m) * static_cast<double>(steps) / sec;
    const double plain = static_cast<double>(m) * static_cast<double>(steps) / psec;
    std::printf("rate m=%zu: before the window ([0, %g] and the first lumped step) %.3g s CPU, %.3g s wall; lumped phase [%g, %g]: "
                "%zu steps, %.3g s CPU (%.3g s wall), %.3g neuron-steps/s (%.1f%% lumped); "
                "plain-double RK4 (1 thread, checksum %.6g): %.3g s CPU, %.3g neuron-steps/s; rigorous/plain (CPU) = %.3g\n",
                m, T0, cpu_start - cpu_begin, wall_start - wall_begin, T0, T, steps, sec, wall, rig,
                100.0 * static_cast<double>(lumped_neuron_steps) / (static_cast<double>(m) * static_cast<double>(steps)),
                checksum, psec, plain, plain / rig);
    std::printf("  neuron-steps in the window: %zu lumped, %zu smooth (individual Taylor models), %zu hull (%zu sub-steps), %zu parked, "
                "%zu frozen\n", lumped_neuron_steps, smooth, hull, substeps, parked, frozen);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc >= 6 && std::string(argv[1]) == "reference")
        return reference(std::strtoull(argv[2], nullptr, 10), std::strtoull(argv[3], nullptr, 10), std::atof(argv[4]), std::atof(argv[5]),
                         argc > 6 ? std::strtoull(argv[6], nullptr, 10) : SIZE_MAX);
    if (argc >= 6 && std::string(argv[1]) == "rate")
        return rate(std::strtoull(argv[2], nullptr, 10), std::strtoull(argv[3], nullptr, 10), std::atof(argv[4]), std::atof(argv[5]),
                    argc > 6 ? std::atoi(argv[6]) : 1);
    if (argc < 6 || std::string(argv[1]) != "tube") {
        std::fprintf(stderr, "usage: %s tube M SEED T0 T [THREADS] [JOIN_AFTER] [nocompare] | reference M SEED T H [NEURON] | rate M SEED T0 T [THREADS]\n", argv[0]);
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
