// flowcert/proofs/bf/trap_box.hpp -- the box at T of the trapping argument (docs/bf.md, steps 1-7): the data
// constants, E(T) = L(theta(T)) - L*, and the neurons of the classes P (all-active), N_k (negative, one
// sample), S_i (negative, two samples), Q (negative, pattern undecided) with the sums the steps use. Immutable once built by make_trap_box; the
// steps are functions of (box, Gamma) in trap_steps.hpp.
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/proofs/bf/three_point.hpp>
#include <flowcert/proofs/bf/trap_tracking.hpp>

#include <array>
#include <cstddef>
#include <vector>

namespace flowcert::proofs::bf {

struct PNeuron {  // all-active at T
    std::size_t index;
    IntervalD a, s, b;            // a_j(T), |theta_j(T)|, b_j = (a^2 - |w|^2)(0)
    std::array<IntervalD, 3> z;   // z_jk(T)
};
struct NNeuron {  // negative, possibly active on sample k only
    std::size_t index, k;
    IntervalD zpos;               // >= z_jk(T)^+ (a point interval [0, .])
    IntervalD speed;              // <= |a_j(t)| while z_jk > 0 (Lemma 1; 0 if none)
    IntervalD a_lo;               // <= |a_j(T)| (a point)
};
struct SNeuron {  // negative, certainly active on x_2 and x_i' at T, possibly inactive on x_i
    std::size_t index, i;
    IntervalD a, s, b;
    std::array<IntervalD, 3> z;
};

struct QNeuron {  // negative for all t (step 3Q(a)), pattern at T undecided
    std::size_t index;
    IntervalD s;                  // |theta_j(T)|
};

class TrapBox {
public:
    const ThreePointData& data() const { return data_; }
    const IntervalD& E_T() const { return E_T_; }
    const std::vector<PNeuron>& P() const { return P_; }
    const std::vector<NNeuron>& N() const { return N_; }
    const std::vector<SNeuron>& S() const { return S_; }
    const std::vector<QNeuron>& Q() const { return Q_; }
    std::size_t frozen() const { return frozen_; }
    std::size_t unclassified() const { return unclassified_; }
    std::size_t N_count(std::size_t k) const { return Nk_count_[k]; }
    std::size_t S_count(std::size_t i) const { return Si_count_[i]; }
    const IntervalD& S2() const { return S2_; }         // sum_P |theta_j(T)|^2 (upper bound used)
    const IntervalD& S2S() const { return S2S_; }       // sum_S |theta_j(T)|^2 (upper bound used)
    const IntervalD& S2Q() const { return S2Q_; }       // sum_Q |theta_j(T)|^2 (upper bound used)
    const IntervalD& bsum_P() const { return bsum_P_; } // sum_P b_j
    const IntervalD& hP(std::size_t k) const { return hP_[k]; }  // sum_P a_j z_jk(T)
    const IntervalD& CN(std::size_t k) const { return CN_[k]; }  // sum_{N_k} a_hi,j z_jk(T)^+

private:
    friend TrapBox make_trap_box(const ThreePointData& data, const std::vector<TrapNeuron>& neurons, const IntervalD& E_T);
    ThreePointData data_;
    IntervalD E_T_;
    std::vector<PNeuron> P_;
    std::vector<NNeuron> N_;
    std::vector<SNeuron> S_;
    std::vector<QNeuron> Q_;
    std::size_t frozen_ = 0, unclassified_ = 0;
    std::array<std::size_t, 3> Nk_count_{0, 0, 0}, Si_count_{0, 0, 0};
    IntervalD S2_ = IntervalD(0), S2S_ = IntervalD(0), S2Q_ = IntervalD(0), bsum_P_ = IntervalD(0);
    std::array<IntervalD, 3> hP_{IntervalD(0), IntervalD(0), IntervalD(0)}, CN_{IntervalD(0), IntervalD(0), IntervalD(0)};
};

// The box at T from the neurons at T (TubeTracker::neuron_at_T, or any source that proves the same facts
// per class) and E(T) (e_at_T). Neurons are taken in the order given.
TrapBox make_trap_box(const ThreePointData& data, const std::vector<TrapNeuron>& neurons, const IntervalD& E_T);

// E(T) = L(theta(T)) - L* = (1/(2n)) sum_k d_k (d_k + 2 r*_k), d_k = h_k(T) - x_k^T beta* (no cancellation
// against L*), from the output enclosures h_k(T).
IntervalD e_at_T(const ThreePointData& data, const std::array<IntervalD, 3>& h);

}  // namespace flowcert::proofs::bf
