// One step of the rigorous two-layer gradient flow, cut into its phases (docs/nonsmooth-flow.md,
// "One step"). The phases in other files are named in flow_engine.hpp.
#define FLOWCERT_NETS_FLOW_INTERNAL
#include "flow_engine.hpp"
#undef FLOWCERT_NETS_FLOW_INTERNAL

#include <algorithm>
#include <cmath>
#include <map>

namespace flowcert::nets::flow {

Engine::Engine(const Problem& pb, const FlowOptions& opt) : pb_(pb), opt_(opt), p_(opt.order) {
    const std::size_t N = pb.m * pb.S;
    B_.resize(N);
    N_.resize(N);
    tm_.resize(N);
    newr_.resize(N);
    newr_ok_.resize(pb.m);
    code_.resize(pb.m * pb.n);
    kind_.resize(pb.m);
    pattern_.resize(pb.m);
    end_.resize(N);
    tube_.resize(N);
    hull_sub_.resize(pb.m);
    crossings_.resize(pb.m);
    park_.on.assign(pb.m, 0);
    park_.k.assign(pb.m, 0);
    park_.box.resize(N);
    park_.z.assign(pb.m, 0.0);
    tpark_ = park_;
    lumped_.assign(pb.m, 0);
    stable_.assign(pb.m, 0);
    stable_key_.assign(pb.m, 0);
    joins_.assign(pb.m, 0);
}

StepOutcome Engine::step(std::vector<I>& X, std::vector<char>& frozen, double t0, double t1) {
    StepOutcome out;
    delta_ = I::exact(t1) - I::exact(t0);
    P_.set(p_, delta_.upper());
    lump_.next.reset();
    freeze_inactive(X, frozen);                        // section 2, frozen
    if (t0 >= opt_.lumping.from && (!lump_.formed || opt_.lumping.join_after > 0))
        lump_join(X, frozen, t0);                      // hand-off, later joins (lumped classes)
    choose_parking(X, frozen);                         // section 4c
    if (!apriori_phase(X, frozen, t0, out)) return out;  // section 1 (+ parking (iii), class screening)
    if (!classify(frozen, out)) return out;            // section 2
    hull_constants();                                  // sections 3, 4c
    if (lump_.formed && !lump_lohner(frozen, out)) return out;  // the classes' moments
    const bool by_class = opt_.class_transitions;      // section 3c, else section 3
    if (!(by_class ? class_models(X, out) : smooth_models(X, out))) return out;
    if (!hull_boxes_hold(X, out)) return out;          // section 3, hull part of the Schauder set
    const double e_max = by_class ? class_results(X) : smooth_results(X);
    if (!hull_phase(X, out)) return out;               // sections 4, 4b
    if (lump_.formed) {
        if (!lump_transitions(out)) return out;        // the classes' transition matrices
        if (opt_.lumping.neuron_tubes) lump_neuron_states();
    }
    out.h_suggest = suggest_step(std::max(e_max, lump_.last_term));
    return out;
}

std::vector<I> Engine::state_residual(const std::vector<I>& X, const std::vector<char>& frozen) {
    tpark_ = park_;  // the committed parking (a rejected last attempt may have changed tpark_)
    std::vector<I> r;
    residual_of(X, frozen, r, lumped_moments(lump_.M_t0));
    return r;
}

// Freezing: ReLU neuron certainly inactive on every sample: the field vanishes on an open
// neighbourhood of its box, so it is exactly constant for all later times.
void Engine::freeze_inactive(const std::vector<I>& X, std::vector<char>& frozen) {
    const std::size_t m = pb_.m, S = pb_.S, n = pb_.n;
    if (pb_.gamma_zero)
        for (std::size_t j = 0; j < m; ++j) {
            if (frozen[j] || lumped_[j]) continue;  // a lumped neuron is active on some sample
            bool all_neg = true;
            for (std::size_t k = 0; k < n && all_neg; ++k)
                if (!certainly_negative(pb_.preactivation(&X[j * S], k))) all_neg = false;
            if (all_neg) frozen[j] = 1;
        }
    for (std::size_t j = 0; j < m; ++j)
        if (frozen[j])
            for (std::size_t i = 0; i < S; ++i) B_[j * S + i] = N_[j * S + i] = X[j * S + i];
}

// Classification on the step tube N_j: frozen, parked, smooth (every sign decided; grouped by
// activation pattern, pattern_ / pattern_keys_) or hull (some sign undecided). Fails in smooth-only
// mode when a neuron straddles a switching hyperplane.
bool Engine::classify(const std::vector<char>& frozen, StepOutcome& out) {
    const std::size_t m = pb_.m, S = pb_.S, n = pb_.n;
    std::map<std::uint64_t, std::uint32_t> pat;
    std::string kink_reason;
    for (std::size_t j = 0; j < m; ++j) {
        if (lumped_[j]) {
            kind_[j] = kLumped;
            ++out.lumped;
            continue;
        }
        if (frozen[j]) {
            kind_[j] = kFrozen;
            ++out.frozen;
            continue;
        }
        if (tpark_.on[j]) {
            kind_[j] = kParked;
            ++out.parked;
            continue;
        }
        std::uint64_t key = 0;
        bool undecided = false;
        for (std::size_t k = 0; k < n; ++k) {
            const int code = sign_code(pb_.preactivation(&N_[j * S], k));
            code_[j * n + k] = static_cast<unsigned char>(code);
            if (code == 2) undecided = true;
            key |= static_cast<std::uint64_t>(code) << (2 * k);
        }
        if (undecided) {
            if (!opt_.allow_hull) {
                if (kink_reason.empty()) {
                    std::size_t kk = 0;
                    while (code_[j * n + kk] != 2) ++kk;
                    kink_reason = "neuron " + pb_.neuron_name(j) + " straddles the switching hyperplane <w_j, x_" +
                                  std::to_string(kk) + "> = 0 on the step tube and Clarke-hull steps are disabled";
                }
                continue;
            }
            kind_[j] = kHull;
            ++out.hull;
        } else {
            kind_[j] = kSmooth;
            ++out.smooth;
            pat.emplace(key, 0);
        }
    }
    if (!opt_.allow_hull && !pb_.all(kink_reason.empty())) {
        out.fail = StepFail::kink;
        out.reason = kink_reason.empty() ? "a neuron of another process straddles a switching hyperplane on the step "
                                           "tube and Clarke-hull steps are disabled"
                                         : kink_reason;
        return false;
    }
    pattern_keys_.clear();
    for (auto& [key, idx] : pat) {
        idx = static_cast<std::uint32_t>(pattern_keys_.size());
        pattern_keys_.push_back(key);
    }
    for (std::size_t j = 0; j < m; ++j)
        if (kind_[j] == kSmooth) {
            std::uint64_t key = 0;
            for (std::size_t k = 0; k < n; ++k) key |= static_cast<std::uint64_t>(code_[j * n + k]) << (2 * k);
            pattern_[j] = pat[key];
        }
    return true;
}

// Hull neurons enter the residual models as constants over their Picard boxes B_j, parked neurons
// as a * [0, z^+_A] on their sample (section 4c).
void Engine::hull_constants() {
    const std::size_t m = pb_.m, S = pb_.S, n = pb_.n, d = pb_.d;
    K_.assign(n, I(0));
    for (std::size_t j = 0; j < m; ++j) {
        if (kind_[j] == kParked) {
            K_[tpark_.k[j]] += tpark_.box[j * S + d] * I::bounds(0.0, tpark_.z[j]);
            continue;
        }
        if (kind_[j] != kHull) continue;
        const I* B = &B_[j * S];
        for (std::size_t k = 0; k < n; ++k) K_[k] += B[d] * leaky_relu(pb_.preactivation(B, k), pb_.gamma);
    }
    pb_.sum(K_);
}

// End states and tubes of the smooth neurons from their models (intersected with the a priori
// tube), of the frozen and parked ones; returns the largest relative last Taylor term (for the
// step-size proposal).
double Engine::smooth_results(const std::vector<I>& X) {
    const std::size_t m = pb_.m, S = pb_.S;
    double e_max = 0;
    for (std::size_t j = 0; j < m; ++j) {
        if (kind_[j] == kFrozen) {
            for (std::size_t i = 0; i < S; ++i) end_[j * S + i] = tube_[j * S + i] = X[j * S + i];
            continue;
        }
        if (kind_[j] == kParked) {  // parked: the anchored box, for every t while (iii) holds
            for (std::size_t i = 0; i < S; ++i) end_[j * S + i] = tube_[j * S + i] = tpark_.box[j * S + i];
            continue;
        }
        if (kind_[j] != kSmooth) continue;
        double scale = 0;
        for (std::size_t i = 0; i < S; ++i) scale = std::max(scale, mag(X[j * S + i]));
        for (std::size_t i = 0; i < S; ++i) {
            const TimeTm& t = tm_[j * S + i];
            I e = ode::poly_at(t.c, p_, delta_) + t.r, tb = ode::tm_range(t, P_), o;
            end_[j * S + i] = intersect(e, N_[j * S + i], o) ? o : e;
            tube_[j * S + i] = intersect(tb, N_[j * S + i], o) ? o : tb;
            if (scale > 0) e_max = std::max(e_max, mag(t.c[p_]) * std::pow(P_.s.upper(), p_) / scale);
        }
    }
    return e_max;
}

// Heuristic (non-rigorous) step-size suggestion from the size of the last Taylor term.
double Engine::suggest_step(double e_max) const {
    const double H = P_.s.upper();
    double factor = 2.0;
    if (e_max > 0) factor = std::clamp(0.9 * std::pow(opt_.tolerance / e_max, 1.0 / p_), 0.5, 2.0);
    return pb_.min(H * factor);  // collective: the largest e_max over all processes decides
}

}  // namespace flowcert::nets::flow
