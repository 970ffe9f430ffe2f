// tests/support/thread_reducer.hpp -- an in-process stand-in for MPI in the two-layer flow tests:
// P threads, each one "process" with a FlowPartition (lib/flowcert/nets/two_layer_flow.hpp). Every
// collective writes the caller's contribution to its slot, waits at a barrier, combines all slots
// in rank order (so every process gets the same bits), and waits again before the slots are
// reused. Used by tests/nets/test_flow_parking.cpp and test_two_layer_flow.cpp (include it by relative path:
// "../support/thread_reducer.hpp").
#pragma once

#include <flowcert/nets.hpp>

#include <algorithm>
#include <barrier>
#include <cstddef>
#include <thread>
#include <vector>

namespace flowcert::test_support {

class ThreadReducer {
public:
    explicit ThreadReducer(int P) : P_(P), bar_(P), vs_(P), bs_(P), ds_(P) {}
    nets::FlowPartition partition(int rank, std::size_t m) {
        nets::FlowPartition fp;
        fp.begin = m * rank / P_;
        fp.end = m * (rank + 1) / P_;
        fp.allreduce_sum = [this, rank](std::vector<IntervalD>& v) {
            vs_[rank] = v;
            bar_.arrive_and_wait();
            for (std::size_t q = 0; q < v.size(); ++q) {
                IntervalD acc = vs_[0][q];
                for (int r = 1; r < P_; ++r) acc += vs_[r][q];
                v[q] = acc;
            }
            bar_.arrive_and_wait();
        };
        fp.allreduce_and = [this, rank](bool b) {
            bs_[rank] = b ? 1 : 0;
            bar_.arrive_and_wait();
            bool all = true;
            for (int r = 0; r < P_; ++r) all = all && bs_[r] != 0;
            bar_.arrive_and_wait();
            return all;
        };
        fp.allreduce_min = [this, rank](double x) {
            ds_[rank] = x;
            bar_.arrive_and_wait();
            double mn = ds_[0];
            for (int r = 1; r < P_; ++r) mn = std::min(mn, ds_[r]);
            bar_.arrive_and_wait();
            return mn;
        };
        return fp;
    }

private:
    int P_;
    std::barrier<> bar_;
    std::vector<std::vector<IntervalD>> vs_;
    std::vector<char> bs_;
    std::vector<double> ds_;
};

// The flow split over P thread "processes": every rank's own result and, beside it, the same result after
// gather_flow_result (the whole state on every rank).
struct SplitFlow {
    std::vector<nets::FlowResult> owned, gathered;
};
template <class Model, class Theta>
SplitFlow run_split_flow(const Model& model, const Theta& theta, const nets::FlowOptions& o, int P, std::size_t m) {
    ThreadReducer red(P);
    SplitFlow out{std::vector<nets::FlowResult>(P), std::vector<nets::FlowResult>(P)};
    std::vector<std::thread> pool;
    for (int r = 0; r < P; ++r)
        pool.emplace_back([&, r] {
            nets::FlowOptions op = o;
            op.partition = red.partition(r, m);
            out.owned[r] = nets::integrate_gradient_flow(model, theta, op);
            out.gathered[r] = out.owned[r];
            nets::gather_flow_result(out.gathered[r], op.partition);
        });
    for (auto& th : pool) th.join();
    return out;
}

}  // namespace flowcert::test_support
