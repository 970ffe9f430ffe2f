// The a priori phase of a step (docs/nonsmooth-flow.md, section 1): per-neuron Picard boxes with a
// fixed residual enclosure R, R grown until it contains the residuals of all boxes (coupling), and
// the parking condition (iii) on the tight tube (section 4c).
#define FLOWCERT_NETS_FLOW_INTERNAL
#include "flow_engine.hpp"
#undef FLOWCERT_NETS_FLOW_INTERNAL

#include <algorithm>

namespace flowcert::nets::flow {

using ode::widen;

bool Engine::apriori_neuron(std::size_t j, const std::vector<I>& X) {
    const std::size_t S = pb_.S;
    I F[16];
    std::vector<I> Fbig;
    I* Fp = F;
    if (S > 16) {
        Fbig.resize(S);
        Fp = Fbig.data();
    }
    auto field = [&](const I* B, I* Fo) { field_box(pb_, B, R_.data(), Fo); };
    return ode::picard_block(S, &X[j * S], P_.s, field, &B_[j * S], &N_[j * S], Fp);
}

// out_k encloses l'_k = h(x_k) - y_k for every theta in the product of the boxes (frozen: exact X,
// output 0; parked: their anchored reachable set, section 4c, summed once per parking state).
void Engine::residual_of(const std::vector<I>& boxes, std::vector<I>& out, const std::vector<I>* lumped_moments) {
    const std::size_t n = pb_.n, S = pb_.S, d = pb_.d;
    out = list_sum<I>(
        active(), n, I(0),
        [&](std::size_t j, I* acc) {
            const I* B = &boxes[j * S];
            for (std::size_t k = 0; k < n; ++k) acc[k] += B[d] * leaky_relu(pb_.preactivation(B, k), pb_.gamma);
        },
        [](I& o, const I& v) { o += v; });
    // parked: a sigma(z_k) in a * [0, z^+_A] on sample k, exactly 0 elsewhere (section 4c)
    const std::vector<I>& parked = park_.contribution();
    for (std::size_t k = 0; k < n; ++k) out[k] += parked[k];
    if (lumped_moments) lump_contributions(*lumped_moments, out);
    pb_.sum(out);  // over processes: a sum of enclosures encloses the sum
    for (std::size_t k = 0; k < n; ++k) out[k] -= pb_.y[k];
}

// Per-neuron Picard boxes with R fixed, R grown until it contains the residuals of all boxes (C).
// Parked neurons enter by their anchored boxes (valid while (iii) holds on R, checked by the caller).
bool Engine::apriori_coupled(const std::vector<I>& X, StepOutcome& out) {
    const std::size_t n = pb_.n;
    residual_of(B_, R_, lumped_moments(lump_.M_t0));
    for (auto& r : R_) r = widen(r, 0.1, 1e-300);
    std::vector<I> Rb;
    for (int outer = 0; outer < 12; ++outer) {
        const std::vector<std::uint32_t>& act = active();
        std::vector<char> okv(act.size(), 1);
        for_list_chunks(act, [&](std::size_t, std::size_t p0, std::size_t p1) {
            for (std::size_t p = p0; p < p1; ++p) okv[p] = apriori_neuron(act[p], X) ? 1 : 0;
        });
        if (lump_.formed && !pb_.all(lump_apriori(out))) return false;
        const auto bad = std::find(okv.begin(), okv.end(), 0);
        if (!pb_.all(bad == okv.end())) {  // collective: every process rejects the step
            out.fail = StepFail::apriori;
            out.reason = bad != okv.end() ? "a priori enclosure of neuron " +
                                                pb_.neuron_name(act[static_cast<std::size_t>(bad - okv.begin())]) +
                                                " failed (Picard inclusion)"
                                          : "a priori enclosure failed on another process (Picard inclusion)";
            return false;
        }
        residual_of(B_, Rb, lumped_moments(lump_.W));
        bool coupled = true;
        for (std::size_t k = 0; k < n; ++k)
            if (!subset(Rb[k], R_[k])) coupled = false;
        if (coupled) return true;
        for (std::size_t k = 0; k < n; ++k) R_[k] = widen(hull(R_[k], Rb[k]), 0.2, 1e-300);
    }
    out.fail = StepFail::apriori_coupling;
    out.reason = "a priori residual enclosure not consistent with the neuron boxes";
    return false;
}

// Parking condition (iii), a r_k > 0 on the step, for every parked neuron, checked on the residual
// Rn of the tight tube (N_j for the others, the anchored set for parked neurons): on [0, t*] (first
// exit from prod B_j) every solution has theta_j in N_j, so r is in Rn, and Rn strictly signed
// carries the sign past t* by continuity (section 4c). Neurons failing it are unparked (they
// continue from their state X_j, a valid enclosure at t0). Returns whether any process unparked
// a neuron (collective): then the a priori phase is redone.
bool Engine::unpark_failing() {
    residual_of(N_, Rtube_, lumped_moments(lump_.NW));
    // (iii) depends only on the sample and the sign of a: the members are visited only when a
    // non-empty group fails
    bool all_hold = true;
    for (std::size_t k = 0; k < pb_.n; ++k) {
        if (park_.group_size(k, 0) > 0 && !certainly_positive(Rtube_[k])) all_hold = false;
        if (park_.group_size(k, 1) > 0 && !certainly_negative(Rtube_[k])) all_hold = false;
        if (park_.group_size(k, 2) > 0) all_hold = false;
    }
    std::vector<std::uint32_t> fail;
    if (!all_hold)
        for (std::uint32_t j : park_.members())
            if (!park_sign_holds(park_.box(j)[pb_.d], park_.sample(j), Rtube_)) fail.push_back(j);
    for (std::uint32_t j : fail) park_.unpark(j);
    return !pb_.all(fail.empty());
}

// A priori enclosure of the step (section 1) with the parking condition and the screening of the
// lumped classes: repeated while some process unparks a neuron or a member leaves its class. The a
// priori boxes of the other neurons are not read (frozen: output 0; parked: anchored box; lumped:
// the class moments).
bool Engine::apriori_phase(std::vector<I>& X, double t0, StepOutcome& out) {
    const std::size_t S = pb_.S;
    for (;;) {
        for (std::uint32_t j : active())
            for (std::size_t i = 0; i < S; ++i) B_[j * S + i] = N_[j * S + i] = X[j * S + i];
        if (!apriori_coupled(X, out)) return false;
        if (lump_.formed && lump_screen(X, t0)) continue;  // members left their class at t0: redo
        if (!unpark_failing()) return true;
    }
}

}  // namespace flowcert::nets::flow
