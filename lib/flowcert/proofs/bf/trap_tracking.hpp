// flowcert/proofs/bf/trap_tracking.hpp -- what the trapping argument of docs/bf.md (steps 1-2) needs from
// the certified tube on [0, T] of three-point data in canonical order (three_point.hpp; x_2 the middle
// point): the N_k tracking of negative one-sample neurons, the residual signs along the tube, and the
// classification of every neuron at T into the classes of the trap (trap_box.hpp).
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/proofs/bf/three_point.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace flowcert::proofs::bf {

// Neuron classes at T (docs/bf.md#step-1): F frozen, P all-active, N_k negative one-sample, S_i negative
// two-sample, Q negative of undecided pattern (step 3Q: a_j(t) < 0 for all t proven from the initialization,
// typically a tiny neuron whose box at T straddles its kinks).
enum class NeuronClass { frozen, all_active, one_sample, two_sample, negligible, unclassified };

// N_k tracking (docs/bf.md#step-2): the first step box on which a neuron is certainly negative and certainly
// inactive on both samples l != k. Step 2 needs a_j < 0 on all of [T_N, T] (for a_j > 0 the neuron moves
// along +x_k and may become active on the other samples): `speed` > 0 (Lemma 1: |a_j| >= sqrt(|P_perp w_j|^2
// + b_j) while the pattern holds) proves it, otherwise every later step box must show a_j certainly < 0
// (track_step drops the tracking at the first one that does not).
struct NTrack {
    bool on = false;
    std::size_t k = 0;
    double t = 0;  // T_N: start time of that step
    IntervalD a, w0, w1;
    IntervalD speed = IntervalD(0);  // lower bound of |a_j| on [T_N, T] from Lemma 1 (0: none)
};

// The sample k in {0, 2} on which a certainly negative neuron with pre-activation box z may be active while
// certainly inactive on the two others; 3 if none.
std::size_t one_sample_of(const IntervalD& a, const std::array<IntervalD, 3>& z);

// The N_k speed of Lemma 1 for a neuron tracked on sample k from the box (w0, w1) at T_N: |P_perp w_j| =
// |det(w_j, x_k)| / |x_k| is constant while w_j moves along x_k, and a_j^2 = |w_j|^2 + b_j >= |P_perp w_j|^2
// + b_j [BF2025, Lemma 1]. A point (0 if not certainly positive).
IntervalD lemma1_speed(const IntervalD& w0, const IntervalD& w1, const IntervalD& xk0, const IntervalD& xk1,
                       const IntervalD& xnorm_k, const IntervalD& b);

// One step box of neuron j for its N_k tracking: keeps a tracking whose sign premise still holds (Lemma 1
// speed, or a_j certainly < 0 on this box), drops it otherwise, and starts one on the first box where the
// neuron is N_k-like (one_sample_of) with the Lemma 1 speed of that box.
void track_step(NTrack& nt, double t0, const IntervalD& a, const IntervalD& w0, const IntervalD& w1,
                const std::array<IntervalD, 3>& z, const ThreePointData& data, const IntervalD& b);

// Residual signs along the tube: last_not_negative[k] = largest step end t1 at which the enclosure of
// r_k = h(x_k) - y_k is not certainly < 0 (0 if none).
struct ResidualSigns {
    std::array<double, 3> last_not_negative{0.0, 0.0, 0.0};
    void add_step(double t1, const std::array<IntervalD, 3>& r);
};

// Step 1 classification of the box (a_j(T), z_j(T)) of one neuron; for one_sample `k` is the sample the
// neuron may still be active on, for two_sample the extreme sample i on which it may be inactive. Uses x_2
// in the open cone of x_1, x_3 (step 0): z_1, z_3 < 0 implies z_2 < 0.
struct Classified {
    NeuronClass cls = NeuronClass::unclassified;
    std::size_t k = 3;
};
Classified classify(const IntervalD& a, const std::array<IntervalD, 3>& z, const NTrack& nt, const ResidualSigns& rs);

// A neuron at T as the trap takes it (trap_box.hpp): its box, b_j = (a^2 - |w|^2)(0) and its class with
// its sample k (as in Classified). For N_k neurons also zpos >= z_jk(T)^+, speed (Lemma 1; 0 if none),
// a_lo <= |a_j(T)| (0 unless a_j(T) < 0 is certain) and a_hi >= |a_j(t)| for all t >= T.
struct TrapNeuron {
    std::size_t index = 0;
    NeuronClass cls = NeuronClass::unclassified;
    std::size_t k = 3;
    IntervalD a, w0, w1, b;
    std::array<IntervalD, 3> z;
    IntervalD zpos = IntervalD(0), speed = IntervalD(0);
    double a_lo = 0, a_hi = 0;
    std::string note;  // unclassified: why (the box, the lost tracking)
};

// The tube seen by the trap: fed every step box of [0, T] (add_step), it keeps the N_k tracking of every
// neuron, the residual signs and the upper bounds of r_k per step; at T it turns each neuron's box into a
// TrapNeuron (neuron_at_T).
class TubeTracker {
public:
    TubeTracker(ThreePointData data, std::vector<IntervalD> b0);
    // One accepted step [t0, t1]: a_j, w_j (m x 2) and z_jk (m x 3) boxes valid on the whole step, and the
    // residual enclosures r_k on it.
    void add_step(double t0, double t1, const std::vector<IntervalD>& a, const std::vector<IntervalD>& w,
                  const std::vector<IntervalD>& z, const std::array<IntervalD, 3>& r);
    // Neuron j at T from its box at T (steps 1-2): class, and for N_k the bound of z_jk(T)^+ from the
    // tracked box (z_jk non-increasing after T_N, reduced by the Lemma 1 speed times the integral of the
    // upper bounds of r_k over the steps after T_N) intersected with the box at T.
    TrapNeuron neuron_at_T(std::size_t j, const IntervalD& a, const IntervalD& w0, const IntervalD& w1,
                           const std::array<IntervalD, 3>& z) const;
    const ResidualSigns& residual_signs() const { return signs_; }
    // Step 3Q: negative_forever[j] = a_j(t) < 0 is proven for every t >= 0 (a_j(0) certainly < 0 and
    // b_j = (a_j^2 - |w_j|^2)(0) >= 0, i.e. eq. (4) proven at initialization; docs/bf.md step 3Q(a)). A neuron
    // that fits no other class at T is then of class Q instead of unclassified. Without this call no neuron is Q.
    void set_negative_forever(std::vector<bool> negative_forever) { negative_forever_ = std::move(negative_forever); }

private:
    struct RStep {
        double t0, t1;
        std::array<double, 3> rup;  // upper bounds of r_k on the step box
    };
    ThreePointData data_;
    std::vector<IntervalD> b0_;
    std::vector<NTrack> track_;
    ResidualSigns signs_;
    std::vector<RStep> steps_;
    std::vector<bool> negative_forever_;
};

// Step 3Q(a): the neurons whose sign is negative for all t >= 0: a_j(0) certainly < 0, given that eq. (4)
// (b_j >= 0) is proven for the initialization (eq4_proven); all false otherwise.
std::vector<bool> negative_forever(const std::vector<IntervalD>& a0, bool eq4_proven);

}  // namespace flowcert::proofs::bf
