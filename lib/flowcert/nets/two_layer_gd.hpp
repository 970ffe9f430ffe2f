// flowcert/nets/two_layer_gd.hpp -- rigorous gradient descent of the two-layer (leaky) ReLU
// network of [BF2025, eq. (1)] (both losses), in IntervalD or IntervalMp. docs/nonsmooth-flow.md,
// "Gradient descent".
#pragma once

#if !defined(FLOWCERT_NETS_INTERNAL)
#error "include <flowcert/nets.hpp>, not the internal headers"
#endif

#include <flowcert/nets/two_layer.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace flowcert::nets {

// theta_{t+1} = theta_t - step * g_t for every g_t in the Clarke hull (sigma'(0) anywhere in
// [gamma, 1], which covers PyTorch's sigma'(0) = 0 for ReLU), in the per-neuron form
// w+ = w + step a D, a+ = a + step <w, D> with one common D in the set [BF2025, eq. (6)].
// Balancedness drift per step, exactly: (a+)^2 - |w+|^2 - (a^2 - |w|^2) = step^2 (<w,D>^2 - a^2 |D|^2).
// The outcome of a rigorous GD run (this per-neuron iteration and the lumped one of lumped_gd.hpp).
enum class GdStatus { not_run, completed, invalid_input, diverged };
std::string to_string(GdStatus s);

struct GdOptions {
    std::size_t iterations = 0;
    int threads = 1;
    bool track_drift = false;  // per-neuron balancedness drift enclosures (costs ~30%)
};

template <Interval I>
struct GdResult {
    GdStatus status = GdStatus::not_run;
    std::string reason;
    std::size_t iterations_done = 0;
    TwoLayerParams<I> theta;
    std::size_t undecided_pair_steps = 0;  // (neuron, sample, step) triples that used the Clarke hull
    // When track_drift: per neuron j,
    std::vector<I> drift_sum;          // encloses sum over steps of the exact per-step drift
    std::vector<double> drift_step_max;  // >= max over steps of |per-step drift|
    std::vector<double> drift_constant;  // >= max over steps of |D|^2 max(a^2, |w|^2): |drift| <= step^2 * this
};

// Iterates the GD map; `step` > 0 (an enclosure of the learning rate in the paper's convention).
// Both losses of the model: D = -c sum_k eta_k l'_k x_k with l'_k = h(x_k) - y_k (half square) or
// -y_k / (1 + exp(h(x_k) y_k)) (logistic).
template <Interval I>
GdResult<I> gd_iterate(const TwoLayerModel<I>& model, const TwoLayerParams<I>& theta0, const I& step,
                       const GdOptions& options);

extern template GdResult<IntervalD> gd_iterate(const TwoLayerModel<IntervalD>&, const TwoLayerParams<IntervalD>&,
                                               const IntervalD&, const GdOptions&);
extern template GdResult<IntervalMp> gd_iterate(const TwoLayerModel<IntervalMp>&, const TwoLayerParams<IntervalMp>&,
                                                const IntervalMp&, const GdOptions&);

}  // namespace flowcert::nets
