// One step of the rigorous two-layer gradient flow, cut into its phases (docs/nonsmooth-flow.md,
// "One step"). The phases in other files are named in flow_engine.hpp.
#define FLOWCERT_NETS_FLOW_INTERNAL
#include "flow_engine.hpp"
#undef FLOWCERT_NETS_FLOW_INTERNAL

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

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
    park_ = ParkedSet(pb.m, pb.S, pb.d, pb.n);
    if (opt.test_only_stale_parked_sum_UNSOUND) park_.set_mutation(ParkedSet::Mutation::skip_park_update_UNSOUND);
    frozen_.assign(pb.m, 0);
    lumped_.assign(pb.m, 0);
    indiv_.resize(pb.m);
    std::iota(indiv_.begin(), indiv_.end(), std::uint32_t(0));
    stable_.assign(pb.m, 0);
    stable_key_.assign(pb.m, 0);
    joins_.assign(pb.m, 0);
}

StepOutcome Engine::step(std::vector<I>& X, double t0, double t1) {
    StepOutcome out;
    delta_ = I::exact(t1) - I::exact(t0);
    P_.set(p_, delta_.upper());
    lump_.next.reset();
    restore_parking();                                 // a rejected attempt may have changed it
    freeze_inactive(X);                                // section 2, frozen
    if (t0 >= opt_.lumping.from && (!lump_.formed || opt_.lumping.join_after > 0))
        lump_join(X, t0);                              // hand-off, later joins (lumped classes)
    choose_parking(X);                                 // section 4c
    if (!apriori_phase(X, t0, out)) return out;        // section 1 (+ parking (iii), class screening)
    if (!classify(out)) return out;                    // section 2
    hull_constants();                                  // sections 3, 4c
    if (lump_.formed && !lump_lohner(out)) return out;  // the classes' moments
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

void Engine::accept(std::vector<I>& X) {
    const std::size_t S = pb_.S;
    auto take = [&](std::size_t j) { std::copy(&end_[j * S], &end_[j * S] + S, &X[j * S]); };
    for (std::uint32_t j : active()) take(j);  // smooth and hull neurons
    for (std::uint32_t j : park_.changed())    // parked by this attempt: X_j = the anchored box
        if (park_.on(j)) take(j);
    if (lump_.formed && opt_.lumping.neuron_tubes)
        for (const LumpedCohort& co : lump_.cohorts)
            for (std::size_t j : co.members) take(j);
    park_.commit();
    lump_accept();
}

std::vector<char> Engine::parked() {
    restore_parking();
    std::vector<char> on(pb_.m, 0);
    for (std::uint32_t j : park_.members()) on[j] = 1;
    return on;
}

std::vector<I> Engine::state_residual(const std::vector<I>& X) {
    restore_parking();  // the committed parking (a rejected last attempt may have changed it)
    std::vector<I> r;
    residual_of(X, r, lumped_moments(lump_.M_t0));
    return r;
}

// ---- the neuron sets ----

// indiv_ = {j : not frozen, not lumped}, ascending, kept by these two setters (the only writers of
// frozen_ and lumped_).
void Engine::set_individual(std::size_t j, bool on) {
    const auto it = std::lower_bound(indiv_.begin(), indiv_.end(), static_cast<std::uint32_t>(j));
    const bool present = it != indiv_.end() && *it == j;
    if (on && !present) indiv_.insert(it, static_cast<std::uint32_t>(j));
    if (!on && present) indiv_.erase(it);
    ++sets_gen_;
}

void Engine::set_frozen(std::size_t j) {
    if (frozen_[j]) return;
    frozen_[j] = 1;
    kind_[j] = kFrozen;
    ++frozen_count_;
    set_individual(j, false);
}

void Engine::set_lumped(std::size_t j, bool on) {
    if ((lumped_[j] != 0) == on) return;
    lumped_[j] = on ? 1 : 0;
    if (on) kind_[j] = kLumped;
    on ? ++lumped_count_ : --lumped_count_;
    set_individual(j, !on && !frozen_[j]);
}

const std::vector<std::uint32_t>& Engine::active() {
    const auto& ind = individuals();
    if (act_gen_ != sets_gen_ || act_park_gen_ != park_.generation()) {
        act_.clear();
        for (std::uint32_t j : ind)
            if (!park_.on(j)) act_.push_back(j);
        act_gen_ = sets_gen_;
        act_park_gen_ = park_.generation();
    }
    return act_;
}

// Parked neurons' end states and tubes are their anchored boxes, written when they are parked (try_park)
// and here for the neurons a rollback parks again (a rejected attempt may have stepped them).
void Engine::restore_parking() {
    const std::size_t S = pb_.S;
    for (std::uint32_t j : park_.rollback()) {
        std::copy(park_.box(j), park_.box(j) + S, &end_[j * S]);
        std::copy(park_.box(j), park_.box(j) + S, &tube_[j * S]);
    }
}

// Freezing: ReLU neuron certainly inactive on every sample: the field vanishes on an open
// neighbourhood of its box, so it is exactly constant for all later times; its a priori boxes, end
// state and tube are its state, written once here (nothing writes them again). Committed parked
// neurons are not tested: their box X_j = P_j contains the anchor A_j, on which z_k was not certainly
// negative (try_park), so neither is it on P_j.
void Engine::freeze_inactive(const std::vector<I>& X) {
    const std::size_t S = pb_.S, n = pb_.n;
    if (!pb_.gamma_zero) return;
    std::vector<std::uint32_t> fresh;
    for (std::uint32_t j : individuals()) {
        if (park_.on(j)) continue;
        bool all_neg = true;
        for (std::size_t k = 0; k < n && all_neg; ++k)
            if (!certainly_negative(pb_.preactivation(&X[j * S], k))) all_neg = false;
        if (all_neg) fresh.push_back(j);
    }
    for (std::uint32_t j : fresh) {
        set_frozen(j);
        for (std::size_t i = 0; i < S; ++i) B_[j * S + i] = N_[j * S + i] = end_[j * S + i] = tube_[j * S + i] = X[j * S + i];
    }
}

// Classification on the step tube N_j: frozen, parked, smooth (every sign decided; grouped by
// activation pattern, pattern_ / pattern_keys_) or hull (some sign undecided). Fails in smooth-only
// mode when a neuron straddles a switching hyperplane.
bool Engine::classify(StepOutcome& out) {
    const std::size_t S = pb_.S, n = pb_.n;
    std::map<std::uint64_t, std::uint32_t> pat;
    std::string kink_reason;
    out.lumped = lumped_count_;
    out.frozen = frozen_count_;
    smooth_.clear();
    hull_.clear();
    for (std::uint32_t j : individuals()) {
        if (park_.on(j)) {
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
            hull_.push_back(j);
            ++out.hull;
        } else {
            kind_[j] = kSmooth;
            smooth_.push_back(j);
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
    for (std::uint32_t j : smooth_) {
        std::uint64_t key = 0;
        for (std::size_t k = 0; k < n; ++k) key |= static_cast<std::uint64_t>(code_[j * n + k]) << (2 * k);
        pattern_[j] = pat[key];
    }
    return true;
}

// Hull neurons enter the residual models as constants over their Picard boxes B_j, parked neurons
// as a * [0, z^+_A] on their sample (section 4c; summed once per parking state, park_.contribution()).
void Engine::hull_constants() {
    const std::size_t S = pb_.S, n = pb_.n, d = pb_.d;
    K_ = park_.contribution();
    for (std::uint32_t j : hull_) {
        const I* B = &B_[j * S];
        for (std::size_t k = 0; k < n; ++k) K_[k] += B[d] * leaky_relu(pb_.preactivation(B, k), pb_.gamma);
    }
    pb_.sum(K_);
}

// End states and tubes of the smooth neurons from their models (intersected with the a priori
// tube); returns the largest relative last Taylor term (for the step-size proposal). Frozen and
// parked neurons' end states and tubes are their boxes, written when they freeze or park.
double Engine::smooth_results(const std::vector<I>& X) {
    const std::size_t S = pb_.S;
    double e_max = 0;
    for (std::uint32_t j : smooth_) {
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
