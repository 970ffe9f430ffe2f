// flowcert/proofs/bf/balancedness.hpp -- [BF2025, Lemma 1] on a certified tube: the drift of b_j = a_j^2 - |w_j|^2
// relative to the size of the neuron, |b_j(t) - b_j(0)| <= rel_j sup_s |theta_j(s)|^2, from boxes that contain
// theta(t) on their time intervals. An absolute bound would be vacuous for small neurons and weak for large
// ones (b_j is conserved exactly; what a tube can show is a drift small against |theta_j|^2).
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/nets.hpp>

#include <cstddef>
#include <vector>

namespace flowcert::proofs::bf {

class BalancednessDrift {
public:
    explicit BalancednessDrift(const nets::TwoLayerParams<IntervalD>& theta0);
    // A box containing theta(t) for every t of some time interval (a tube step, or the state at one time).
    void add_box(const nets::TwoLayerParams<IntervalD>& box);
    // Upper bound of max_j sup_t |b_j(t) - b_j(0)| / sup_t |theta_j(t)|^2 (the denominator bounded below by the
    // largest lower bound of |theta_j|^2 over the boxes seen); +infinity if some neuron has none > 0. `arg`
    // receives the neuron of the maximum.
    double relative_max(std::size_t* arg = nullptr) const;
    double absolute_max() const;                            // max_j sup_t |b_j(t) - b_j(0)| (upper bound)
    double drift(std::size_t j) const { return drift_[j]; } // sup_t |b_j(t) - b_j(0)| (upper bound)
    double size_lower(std::size_t j) const { return size_lo_[j]; }  // <= sup_t |theta_j(t)|^2

private:
    std::vector<IntervalD> b0_;
    std::vector<double> drift_, size_lo_;
};

}  // namespace flowcert::proofs::bf
