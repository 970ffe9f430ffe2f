// N_k tracking, residual signs and the step-1 classification of the trap [docs/bf.md#step-1, #step-2].
#include "flowcert/proofs/bf/trap_tracking.hpp"

#include <algorithm>
#include <stdexcept>


namespace flowcert::proofs::bf {

namespace {
}  // namespace

std::size_t one_sample_of(const IntervalD& a, const std::array<IntervalD, 3>& z) {
    if (!certainly_negative(a)) return 3;
    if (certainly_negative(z[1]) && certainly_negative(z[2])) return 0;
    if (certainly_negative(z[0]) && certainly_negative(z[1])) return 2;
    return 3;
}

IntervalD lemma1_speed(const IntervalD& w0, const IntervalD& w1, const IntervalD& xk0, const IntervalD& xk1,
                       const IntervalD& xnorm_k, const IntervalD& b) {
    const IntervalD q = abs(w0 * xk1 - w1 * xk0) / xnorm_k;
    const IntervalD q2b = sqr(q) + b;
    if (!certainly_positive(q2b)) return IntervalD(0);
    return sqrt(IntervalD::bounds(lower(q2b), lower(q2b)));
}

void track_step(NTrack& nt, double t0, const IntervalD& a, const IntervalD& w0, const IntervalD& w1,
                const std::array<IntervalD, 3>& z, const ThreePointData& data, const IntervalD& b) {
    if (nt.on) {
        if (certainly_positive(nt.speed) || certainly_negative(a)) return;
        nt = NTrack{};  // a_j may have reached 0 on this box: step 2 no longer applies from T_N
    }
    const std::size_t k = one_sample_of(a, z);
    if (k == 3) return;
    nt = {true, k, t0, a, w0, w1, lemma1_speed(w0, w1, data.X[k][0], data.X[k][1], data.xnorm[k], b)};
}

void ResidualSigns::add_step(double t1, const std::array<IntervalD, 3>& r) {
    for (std::size_t k = 0; k < 3; ++k)
        if (!certainly_negative(r[k])) last_not_negative[k] = std::max(last_not_negative[k], t1);
}

Classified classify(const IntervalD& a, const std::array<IntervalD, 3>& z, const NTrack& nt, const ResidualSigns& rs) {
    if (certainly_negative(z[0]) && certainly_negative(z[2])) return {NeuronClass::frozen, 3};
    if (certainly_positive(z[0]) && certainly_positive(z[1]) && certainly_positive(z[2])) {
        // A negative all-active neuron is an S_i neuron that has already crossed (docs/bf.md step 3 with
        // z_ji(T) >= 0, tau_S,j = 0): it then needs margins on two samples only, not three (tiny negative
        // neurons sit close to a kink). i = the extreme sample nearer its kink.
        if (certainly_negative(a))
            return {NeuronClass::two_sample, lower(z[0]) <= lower(z[2]) ? std::size_t(0) : std::size_t(2)};
        return {NeuronClass::all_active, 3};
    }
    // N_k: tracked since T_N (sign of a_j proven on [T_N, T]), and r_k certainly < 0 on every step box from T_N to T
    if (nt.on && nt.k != 1 && nt.k < 3 && rs.last_not_negative[nt.k] <= nt.t) return {NeuronClass::one_sample, nt.k};
    // S_i: certainly negative, certainly active on x_2 and on the other extreme sample
    if (certainly_negative(a) && certainly_positive(z[1])) {
        if (certainly_positive(z[2])) return {NeuronClass::two_sample, 0};
        if (certainly_positive(z[0])) return {NeuronClass::two_sample, 2};
    }
    return {NeuronClass::unclassified, 3};
}

TubeTracker::TubeTracker(ThreePointData data, std::vector<IntervalD> b0)
    : data_(std::move(data)), b0_(std::move(b0)), track_(b0_.size()) {}

void TubeTracker::add_step(double t0, double t1, const std::vector<IntervalD>& a, const std::vector<IntervalD>& w,
                           const std::vector<IntervalD>& z, const std::array<IntervalD, 3>& r) {
    RStep rs{t0, t1, {upper(r[0]), upper(r[1]), upper(r[2])}};
    signs_.add_step(t1, r);
    steps_.push_back(rs);
    for (std::size_t j = 0; j < track_.size(); ++j)
        track_step(track_[j], t0, a[j], w[j * 2], w[j * 2 + 1], {z[j * 3], z[j * 3 + 1], z[j * 3 + 2]}, data_, b0_[j]);
}

TrapNeuron TubeTracker::neuron_at_T(std::size_t j, const IntervalD& a, const IntervalD& w0, const IntervalD& w1,
                                    const std::array<IntervalD, 3>& z) const {
    TrapNeuron tn;
    tn.index = j;
    tn.a = a;
    tn.w0 = w0;
    tn.w1 = w1;
    tn.z = z;
    tn.b = b0_[j];
    const NTrack& nt = track_[j];
    const Classified c = classify(a, z, nt, signs_);
    tn.cls = c.cls;
    tn.k = c.k;
    if (j < negative_forever_.size() && negative_forever_[j] && certainly_positive(a))  // two proven facts disagree: a bug
        throw std::logic_error("neuron " + std::to_string(j) + ": a_j(T) certainly > 0 although a_j(t) < 0 for all t (Lemma 1, eq. (4))");
    if (c.cls == NeuronClass::unclassified && j < negative_forever_.size() && negative_forever_[j]) {
        tn.cls = NeuronClass::negligible;  // step 3Q: negative for all t, pattern undecided
        return tn;
    }
    if (c.cls == NeuronClass::unclassified) {
        tn.note = "neuron " + std::to_string(j) + ": a = " + to_string(a, 6) + ", z = (" + to_string(z[0], 6) + ", " +
                  to_string(z[1], 6) + ", " + to_string(z[2], 6) + ")" +
                  (nt.on ? ", N_" + std::to_string(nt.k + 1) + " since t = " + format_g(nt.t) + " but r_" + std::to_string(nt.k + 1) +
                               " not certainly < 0 up to t = " + format_g(signs_.last_not_negative[nt.k])
                         : "");
        return tn;
    }
    if (c.cls != NeuronClass::one_sample) return tn;
    // N_k: z_jk is non-increasing after T_N and the neuron's output a_j sigma(z_jk) shrinks in magnitude
    const std::size_t k = c.k;
    const IntervalD zN = nt.w0 * data_.X[k][0] + nt.w1 * data_.X[k][1];
    IntervalD zp = IntervalD::bounds(0.0, std::max(0.0, upper(zN)));
    tn.speed = nt.speed;
    if (certainly_positive(nt.speed)) {
        // while z_jk > 0: dz_jk/dt = a_j (-r_k / n) |x_k|^2 <= -|a_j| (-r_k^+ / n) |x_k|^2, r_k^+ the upper bound
        // of r_k on the step box (< 0 after T_N): z_jk(T) <= (z_jk(T_N)^+ - drop)^+
        IntervalD drop(0);
        for (const auto& rs : steps_) {
            if (rs.t0 < nt.t) continue;
            const IntervalD dt = IntervalD::bounds(rs.t1, rs.t1) - IntervalD::bounds(rs.t0, rs.t0);
            drop += dt * IntervalD::bounds(-rs.rup[k], -rs.rup[k]);
        }
        drop = drop * nt.speed * data_.inv_n * sqr(data_.xnorm[k]);
        zp = IntervalD::bounds(0.0, std::max(0.0, upper(zp - drop)));
    }
    // the tube's own box at T bounds z_jk(T) too; |a_j| is non-increasing after T_N (a_j < 0, a_j' >= 0)
    tn.zpos = IntervalD::bounds(0.0, std::max(0.0, std::min(upper(zp), upper(z[k]))));
    // |a_j(T)| from the box at T only where it certainly has the sign the argument needs (a_j < 0): step 2'
    // must not start from |a_j(T)| of a neuron that may have turned positive
    tn.a_lo = certainly_negative(a) ? mig(a) : 0.0;
    tn.a_hi = std::min(mag(nt.a), mag(a));
    return tn;
}

std::vector<bool> negative_forever(const std::vector<IntervalD>& a0, bool eq4_proven) {
    // [BF2025, Lemma 1]: b_j = a_j^2 - |w_j|^2 is constant; with b_j >= 0, a_j(t) = 0 would force theta_j(t) = 0,
    // which no solution from theta_j(0) != 0 reaches (|theta_j|' >= -|D_j| |theta_j|, Gronwall): sign(a_j) is constant.
    std::vector<bool> v(a0.size(), false);
    if (!eq4_proven) return v;
    for (std::size_t j = 0; j < a0.size(); ++j) v[j] = certainly_negative(a0[j]);
    return v;
}

}  // namespace flowcert::proofs::bf
