// Lemma 1 on a certified tube [BF2025, Lemma 1]. See balancedness.hpp.
#include "flowcert/proofs/bf/balancedness.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace flowcert::proofs::bf {

BalancednessDrift::BalancednessDrift(const nets::TwoLayerParams<IntervalD>& theta0)
    : b0_(nets::balancedness(theta0)), drift_(theta0.m, 0.0), size_lo_(theta0.m, 0.0) {
    add_box(theta0);
}

void BalancednessDrift::add_box(const nets::TwoLayerParams<IntervalD>& box) {
    const auto b = nets::balancedness(box);
    for (std::size_t j = 0; j < b.size(); ++j) {
        drift_[j] = std::max(drift_[j], mag(b[j] - b0_[j]));
        IntervalD s = sqr(box.a[j]);
        for (std::size_t i = 0; i < box.d; ++i) s += sqr(box.W(j, i));
        size_lo_[j] = std::max(size_lo_[j], lower(s));
    }
}

double BalancednessDrift::relative_max(std::size_t* arg) const {
    double best = 0;
    if (arg) *arg = 0;
    for (std::size_t j = 0; j < drift_.size(); ++j) {
        if (arg && !(size_lo_[j] > 0)) *arg = j;
        if (!(size_lo_[j] > 0)) return std::numeric_limits<double>::infinity();
        const double r = upper(IntervalD::bounds(drift_[j], drift_[j]) / IntervalD::bounds(size_lo_[j], size_lo_[j]));
        if (r > best) {
            best = r;
            if (arg) *arg = j;
        }
    }
    return best;
}

double BalancednessDrift::absolute_max() const {
    double w = 0;
    for (double d : drift_) w = std::max(w, d);
    return w;
}

}  // namespace flowcert::proofs::bf
