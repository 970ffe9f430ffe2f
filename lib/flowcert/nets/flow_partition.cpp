// Gathering a partitioned flow's results (docs/nonsmooth-flow.md, "Splitting the neurons across
// processes"): every entry is its owner's enclosure plus exact zeros from the other processes.
#include "flowcert/nets/two_layer_flow.hpp"

#include <algorithm>

namespace flowcert::nets {

void gather_owned(TwoLayerParams<IntervalD>& params, const FlowPartition& part) {
    if (!part.distributed()) return;
    const std::size_t m = params.m, d = params.d, S = d + 1;
    const std::size_t jb = std::min(part.begin, m), je = std::min(part.end, m);
    std::vector<IntervalD> v(m * S, IntervalD(0));
    for (std::size_t j = jb; j < je; ++j) {
        for (std::size_t i = 0; i < d; ++i) v[j * S + i] = params.W(j, i);
        v[j * S + d] = params.a[j];
    }
    part.allreduce_sum(v);  // x + [0, 0] is exact (IntervalD addition of an exact zero)
    for (std::size_t j = 0; j < m; ++j) {
        for (std::size_t i = 0; i < d; ++i) params.W(j, i) = v[j * S + i];
        params.a[j] = v[j * S + d];
    }
}

void gather_flow_result(FlowResult& res, const FlowPartition& part) {
    if (!part.distributed()) return;
    gather_owned(res.state, part);
    for (auto& sn : res.snapshots) gather_owned(sn.state, part);
    for (auto& st : res.tube) gather_owned(st.tube, part);
    // counts (exact integers < 2^53) and frozen flags
    std::vector<IntervalD> v;
    auto push = [&](std::size_t c) { v.push_back(IntervalD(static_cast<long long>(c))); };
    push(res.stats.smooth_neuron_steps);
    push(res.stats.hull_neuron_steps);
    push(res.stats.hull_substeps);
    push(res.stats.transversal_crossings);
    push(res.stats.parked_neuron_steps);
    for (const auto& st : res.tube) {
        push(st.smooth);
        push(st.hull);
        push(st.frozen);
        push(st.parked);
        push(st.hull_substeps);
        push(st.crossings);
    }
    for (char f : res.frozen) push(f ? 1 : 0);
    res.parked.resize(res.frozen.size(), 0);
    for (char f : res.parked) push(f ? 1 : 0);
    part.allreduce_sum(v);
    std::size_t q = 0;
    auto pop = [&] { return static_cast<std::size_t>(v[q++].lower()); };
    res.stats.smooth_neuron_steps = pop();
    res.stats.hull_neuron_steps = pop();
    res.stats.hull_substeps = pop();
    res.stats.transversal_crossings = pop();
    res.stats.parked_neuron_steps = pop();
    for (auto& st : res.tube) {
        st.smooth = pop();
        st.hull = pop();
        st.frozen = pop();
        st.parked = pop();
        st.hull_substeps = pop();
        st.crossings = pop();
    }
    for (auto& f : res.frozen) f = pop() != 0 ? 1 : 0;
    for (auto& f : res.parked) f = pop() != 0 ? 1 : 0;
    res.stats.frozen_neurons = static_cast<std::size_t>(std::count(res.frozen.begin(), res.frozen.end(), 1));
    res.stats.parked_neurons = static_cast<std::size_t>(std::count(res.parked.begin(), res.parked.end(), 1));
    res.owned_begin = 0;
    res.owned_end = res.state.m;
}

}  // namespace flowcert::nets
