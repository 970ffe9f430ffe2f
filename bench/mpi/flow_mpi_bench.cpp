// The Figure-2 gradient flow of bench/nets [BF2025, Figure 2 data, balanced Gaussian init, seed 1]
// with its neurons split across MPI ranks (flowcert::mpi::make_flow_partition):
//
//   mpirun -np N bench_flow_mpi M T_END [--lambda L] [--order P] [--threads T] [--sum allgather|reduce]
//                                       [--tube] [--compare-single]
//
// Rank 0 prints one line (ranks, wall time, steps, widths) and the enclosures of the network's
// outputs at T_END, from the gathered state (gather_flow_result: every rank ends with the
// single-process form of the result; --tube also stores and gathers every step's tube).
// --compare-single: rank 0 then runs the same flow in one process and compares the snapshots at
// T_END/4, T_END/2, 3 T_END/4, T_END coordinate by coordinate: every pair of enclosures must
// intersect (both enclose the same solution set); it prints the largest relative width difference.
// Exit: 0 completed (and, with --compare-single, consistent), 1 inconsistent, 2 flow not completed,
// 3 usage.
#include <flowcert/mpi.hpp>

#include "support/figure2_fixture.hpp"  // tests/support, on the include path of this target

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace flowcert;
using namespace flowcert::nets;
using flowcert::test_support::balanced_init;
using flowcert::test_support::figure2_spec;

namespace {


double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double max_width_a(const TwoLayerParams<IntervalD>& p) {
    double w = 0;
    for (std::size_t j = 0; j < p.m; ++j) w = std::max(w, width(p.a[j]));
    return w;
}

struct Comparison {
    std::size_t coordinates = 0, disjoint = 0;
    double max_rel_width_diff = 0;
};

// Both results enclose the same solution set, so every pair of enclosures must intersect.
void compare(const TwoLayerParams<IntervalD>& x, const TwoLayerParams<IntervalD>& y, Comparison& c) {
    for (std::size_t j = 0; j < x.m; ++j)
        for (std::size_t i = 0; i <= x.d; ++i) {
            const IntervalD& a = i < x.d ? x.W(j, i) : x.a[j];
            const IntervalD& b = i < x.d ? y.W(j, i) : y.a[j];
            IntervalD both;
            ++c.coordinates;
            if (!intersect(a, b, both)) ++c.disjoint;
            const double scale = std::max(width(b), 1e-300);
            c.max_rel_width_diff = std::max(c.max_rel_width_diff, std::fabs(width(a) - width(b)) / scale);
        }
}

}  // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, P = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    auto usage = [&] {
        if (rank == 0)
            std::fprintf(stderr, "usage: mpirun -np N %s M T_END [--lambda L] [--order P] [--threads T] "
                                 "[--sum allgather|reduce] [--tube] [--compare-single]\n", argv[0]);
        MPI_Finalize();
        return 3;
    };
    if (argc < 3) return usage();
    const std::size_t m = std::strtoull(argv[1], nullptr, 10);
    const double t_end = std::atof(argv[2]);
    std::string lambda = "1e-3", sum = "allgather";
    int order = 8, threads = 1;
    bool tube = false, compare_single = false;
    for (int k = 3; k < argc; ++k) {
        const std::string a = argv[k];
        const bool has_value = k + 1 < argc;
        if (a == "--lambda" && has_value) lambda = argv[++k];
        else if (a == "--order" && has_value) order = std::atoi(argv[++k]);
        else if (a == "--threads" && has_value) threads = std::atoi(argv[++k]);
        else if (a == "--sum" && has_value) sum = argv[++k];
        else if (a == "--tube") tube = true;
        else if (a == "--compare-single") compare_single = true;
        else return usage();
    }
    if (m == 0 || !(t_end > 0) || (sum != "allgather" && sum != "reduce")) return usage();

    const TwoLayerModel<IntervalD> model(figure2_spec());
    const auto init = initialize<IntervalD>(balanced_init(m, 1, lambda), model.d());
    FlowOptions o;
    o.t_end = t_end;
    o.output_times = {t_end / 4, t_end / 2, 3 * t_end / 4, t_end};
    o.order = order;
    o.threads = threads;
    o.store_tube = tube;

    FlowOptions od = o;
    od.partition = mpi::make_flow_partition(
        MPI_COMM_WORLD, m, sum == "reduce" ? mpi::SumOrder::reduce_then_broadcast : mpi::SumOrder::allgather_rank_order);
    MPI_Barrier(MPI_COMM_WORLD);
    const auto t0 = std::chrono::steady_clock::now();
    FlowResult r = integrate_gradient_flow(model, init.theta, od);
    const double t_flow = seconds_since(t0);
    const std::size_t owned = r.owned_end - r.owned_begin;
    double t_min = t_flow, t_max = t_flow;  // load balance: the ranks wait for each other every step
    MPI_Reduce(&t_flow, &t_min, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(&t_flow, &t_max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    gather_flow_result(r, od.partition);
    const double t_total = seconds_since(t0);

    int rc = r.completed() ? 0 : 2;
    if (rank == 0) {
        std::printf("flow_mpi ranks=%d m=%zu owned_on_rank0=%zu t_end=%g order=%d threads=%d sum=%s status=%s "
                    "t=%.4g wall=%.3fs (flow %.3fs + gather %.3fs) steps=%zu rejected=%zu hull_neuron_steps=%zu "
                    "frozen=%zu max_width_a=%.3g %s\n",
                    P, m, owned, t_end, order, threads, sum.c_str(), to_string(r.status).c_str(),
                    r.t_reached, t_total, t_flow, t_total - t_flow, r.stats.steps, r.stats.rejected_steps,
                    r.stats.hull_neuron_steps, r.stats.frozen_neurons, max_width_a(r.state), r.reason.c_str());
        if (P > 1) std::printf("  flow wall time over the ranks: min %.3fs, max %.3fs\n", t_min, t_max);
        const auto out = outputs(model, r.state);
        for (std::size_t k = 0; k < out.size(); ++k) std::printf("  h(x_%zu) in %s\n", k, to_string(out[k], 10).c_str());
        if (tube) std::printf("  tube: %zu steps gathered\n", r.tube.size());
        if (compare_single) {
            const auto t1 = std::chrono::steady_clock::now();
            const FlowResult s = integrate_gradient_flow(model, init.theta, o);
            Comparison c;
            bool consistent = s.completed() == r.completed() && s.snapshots.size() == r.snapshots.size();
            for (std::size_t q = 0; consistent && q < s.snapshots.size(); ++q) {
                consistent = s.snapshots[q].t == r.snapshots[q].t;
                compare(r.snapshots[q].state, s.snapshots[q].state, c);
            }
            std::size_t same_grid = 0;
            if (tube && s.tube.size() == r.tube.size()) {
                same_grid = 1;
                for (std::size_t q = 0; q < s.tube.size(); ++q) {
                    if (s.tube[q].t0 != r.tube[q].t0 || s.tube[q].t1 != r.tube[q].t1) { same_grid = 0; continue; }
                    compare(r.tube[q].tube, s.tube[q].tube, c);
                }
            }
            consistent = consistent && c.disjoint == 0 && c.coordinates > 0;
            std::printf("single-process: status=%s wall=%.3fs steps=%zu frozen=%zu; distributed vs single: %zu "
                        "coordinates compared (snapshots%s), %zu disjoint, max relative width difference %.3g -> %s\n",
                        to_string(s.status).c_str(), seconds_since(t1), s.stats.steps, s.stats.frozen_neurons,
                        c.coordinates, same_grid ? " and every tube step" : "", c.disjoint, c.max_rel_width_diff,
                        consistent ? "CONSISTENT" : "INCONSISTENT");
            if (!consistent) rc = 1;
        }
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
