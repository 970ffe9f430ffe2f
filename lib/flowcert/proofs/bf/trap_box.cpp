// The box at T of the trapping argument [docs/bf.md, steps 1-5]. See trap_box.hpp.
#include "flowcert/proofs/bf/trap_box.hpp"

#include <algorithm>

namespace flowcert::proofs::bf {

namespace {
IntervalD point(double v) { return IntervalD::bounds(v, v); }
IntervalD nonneg_upper(const IntervalD& x) { return IntervalD::bounds(0.0, std::max(0.0, upper(x))); }
IntervalD norm3(const IntervalD& a, const IntervalD& w0, const IntervalD& w1) { return sqrt(sqr(a) + sqr(w0) + sqr(w1)); }
}  // namespace

TrapBox make_trap_box(const ThreePointData& data, const std::vector<TrapNeuron>& neurons, const IntervalD& E_T) {
    TrapBox t;
    t.data_ = data;
    t.E_T_ = E_T;
    for (const TrapNeuron& n : neurons) {
        switch (n.cls) {
            case NeuronClass::frozen: ++t.frozen_; break;
            case NeuronClass::unclassified: ++t.unclassified_; break;
            case NeuronClass::all_active: {
                const IntervalD s = norm3(n.a, n.w0, n.w1);
                t.P_.push_back({n.index, n.a, s, n.b, n.z});
                t.S2_ += nonneg_upper(sqr(s));
                t.bsum_P_ += n.b;
                for (std::size_t k = 0; k < 3; ++k) t.hP_[k] += n.a * n.z[k];
                break;
            }
            case NeuronClass::two_sample: {
                const IntervalD s = norm3(n.a, n.w0, n.w1);
                t.S_.push_back({n.index, n.k, n.a, s, n.b, n.z});
                t.S2S_ += nonneg_upper(sqr(s));
                t.Si_count_[n.k]++;
                break;
            }
            case NeuronClass::negligible: {
                const IntervalD s = norm3(n.a, n.w0, n.w1);
                t.Q_.push_back({n.index, s});
                t.S2Q_ += nonneg_upper(sqr(s));
                break;
            }
            case NeuronClass::one_sample: {
                const double zp = std::max(0.0, upper(n.zpos));
                t.N_.push_back({n.index, n.k, IntervalD::bounds(0.0, zp), n.speed, point(std::max(0.0, n.a_lo))});
                t.Nk_count_[n.k]++;
                t.CN_[n.k] += IntervalD::bounds(0.0, upper(point(n.a_hi) * point(zp)));
                break;
            }
        }
    }
    return t;
}

IntervalD e_at_T(const ThreePointData& data, const std::array<IntervalD, 3>& h) {
    IntervalD e(0);
    for (std::size_t k = 0; k < 3; ++k) {
        const IntervalD d = h[k] - data.prediction[k];
        e += d * (d + IntervalD(2) * data.rstar[k]);
    }
    return e * data.inv_n / IntervalD(2);
}

}  // namespace flowcert::proofs::bf
