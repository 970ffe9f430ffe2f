// flowcert/nets/flow_engine.hpp (internal) -- one step of the rigorous two-layer gradient flow:
// the Engine and its phases. The argument of every phase is in docs/nonsmooth-flow.md (section
// numbers below); the generic pieces (time Taylor models, block sums, Picard boxes, the step loop)
// are in lib/flowcert/ode.
//
// Files: flow_engine.cpp (the step, cut into its phases), flow_apriori.cpp (section 1),
// flow_smooth_step.cpp (section 3: coupled Taylor models), flow_switching.cpp (sections 4, 4b:
// hull neurons' sub-steps and transversal crossings), flow_parking.cpp (section 4c).
#pragma once

#if !defined(FLOWCERT_NETS_FLOW_INTERNAL)
#error "internal header of the two-layer flow engine"
#endif

#include <flowcert/nets/two_layer_flow.hpp>

#include "flow_parked.hpp"
#include "lumped_state.hpp"
#include "two_layer_field.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace flowcert::nets::flow {

enum class StepFail { none, apriori, apriori_coupling, kink, validation, hull_neuron };

struct StepOutcome {
    StepFail fail = StepFail::none;
    std::string reason;
    double h_suggest = 0;
    std::size_t smooth = 0, hull = 0, frozen = 0, parked = 0, hull_substeps = 0, validation_iterations = 0,
                crossings = 0, lumped = 0;
    double wall_hull = 0;
};

// Neuron kinds on a step (section 2).
enum : unsigned char { kSmooth = 0, kHull = 1, kFrozen = 2, kParked = 3, kLumped = 4 };

class Engine {
public:
    Engine(const Problem& pb, const FlowOptions& opt);

    // One step [t0, t1] from the state X (m * S boxes). On success fills end() and tube(). With
    // lumping, X is updated at t0 (enclosures at t0, whatever the outcome) for the neurons that
    // leave a class; the entries of lumped neurons are not used (their state is the class's).
    StepOutcome step(std::vector<I>& X, double t0, double t1);

    const std::vector<I>& tube() const { return tube_; }
    // After a successful step: X becomes the end state (only the neurons the step moved are copied:
    // frozen neurons never move, committed parked ones keep their anchored box; lumped entries are not
    // used) and the step's parking decisions become the committed ones (a rejected attempt leaves the
    // committed parking untouched; the next step() or state_residual() restores it).
    void accept(std::vector<I>& X);
    // The committed parking, one flag per neuron (restores it first).
    std::vector<char> parked();
    // Frozen neurons (certainly inactive on every sample at some accepted time: constant from then on).
    const std::vector<char>& frozen() const { return frozen_; }
    // The tight-tube residual enclosure of the last successful attempt (every t of the step).
    const std::vector<I>& residual_tube() const { return Rtube_; }
    // Lumping: members' states Phi(t) psi_j written into X (t = the last accepted step's end); the
    // residual at the state (classes by their moments); the classes.
    void recover_lumped(std::vector<I>& X) const { lump_recover(X); }
    std::vector<I> state_residual(const std::vector<I>& X);
    const LumpState& lumping() const { return lump_; }
    const std::vector<char>& lumped() const { return lumped_; }

private:
    // ---- phases of a step (flow_engine.cpp unless noted) ----
    void freeze_inactive(const std::vector<I>& X);
    void choose_parking(const std::vector<I>& X);             // flow_parking.cpp
    bool apriori_phase(std::vector<I>& X, double t0, StepOutcome& out);  // flow_apriori.cpp
    bool classify(StepOutcome& out);
    void hull_constants();
    bool smooth_models(const std::vector<I>& X, StepOutcome& out);   // flow_smooth_step.cpp
    bool remainder_passes(const std::vector<I>& X, bool by_class, StepOutcome& out);  // flow_smooth_step.cpp
    bool hull_boxes_hold(const std::vector<I>& X, StepOutcome& out);  // flow_smooth_step.cpp
    double smooth_results(const std::vector<I>& X);
    bool hull_phase(const std::vector<I>& X, StepOutcome& out);       // flow_switching.cpp
    double suggest_step(double e_max) const;

    // ---- a priori enclosure (section 1, flow_apriori.cpp) ----
    bool apriori_neuron(std::size_t j, const std::vector<I>& X);
    bool apriori_coupled(const std::vector<I>& X, StepOutcome& out);
    bool unpark_failing();
    // Residual enclosure for the neuron boxes (frozen exact, parked anchored, lumped neurons skipped)
    // plus, when `lumped_moments`, the classes' outputs from that moment box.
    void residual_of(const std::vector<I>& boxes, std::vector<I>& out, const std::vector<I>* lumped_moments);

    // ---- the neuron sets (flow_engine.cpp). Every change of the frozen, lumped or parked sets goes
    // through these (or through park_'s methods), so the lists below cannot go stale. ----
    void set_frozen(std::size_t j);
    void set_lumped(std::size_t j, bool on);
    void set_individual(std::size_t j, bool on);
    // Neurons not frozen and not lumped (ascending; kept by set_frozen / set_lumped).
    const std::vector<std::uint32_t>& individuals() const { return indiv_; }
    // Individuals not parked in the current attempt (ascending; rebuilt after any set change).
    const std::vector<std::uint32_t>& active();
    // The committed parking (undoes a rejected attempt's parks and unparks), outputs rewritten.
    void restore_parking();
    // f(p0, p1) for the chunks [p0, p1) of positions in `list` (ode::kBlockChunk each), on the threads.
    template <class F>
    void for_list_chunks(const std::vector<std::uint32_t>& list, F&& f) const {
        const std::size_t L = list.size(), C = (L + ode::kBlockChunk - 1) / ode::kBlockChunk;
        ode::parallel_for(C, pb_.threads, [&](std::size_t ch) { f(ch, ch * ode::kBlockChunk, std::min(L, (ch + 1) * ode::kBlockChunk)); });
    }
    // Sum over the neurons of `list` of a width-vector (add_neuron(j, acc)), chunk partials added in
    // chunk order (deterministic for every thread count; not reduced over processes).
    template <class T, class AddNeuron, class Add>
    std::vector<T> list_sum(const std::vector<std::uint32_t>& list, std::size_t width, const T& zero, AddNeuron&& add_neuron,
                            Add&& add) const {
        const std::size_t C = (list.size() + ode::kBlockChunk - 1) / ode::kBlockChunk;
        std::vector<T> partial(C * width, zero);
        for_list_chunks(list, [&](std::size_t ch, std::size_t p0, std::size_t p1) {
            T* acc = &partial[ch * width];
            for (std::size_t p = p0; p < p1; ++p) add_neuron(list[p], acc);
        });
        std::vector<T> out(width, zero);
        for (std::size_t ch = 0; ch < C; ++ch)
            for (std::size_t q = 0; q < width; ++q) add(out[q], partial[ch * width + q]);
        return out;
    }

    // ---- coupled Taylor models (section 3, flow_smooth_step.cpp) ----
    void recurrence(const std::vector<I>& X, std::size_t U);
    void residual_tm(std::size_t U);
    bool validate_pass(const std::vector<I>& X);
    void pattern_coefficients(const std::vector<I>& Su, std::size_t U, int ord, std::vector<I>& Dc) const;
    void advance_coefficients(TimeTm* th, std::size_t u, int ord, const std::vector<std::vector<I>>& Dc) const;
    void residual_models_from(const std::vector<TimeTm>& Su, std::size_t U);
    bool validate_state(const TimeTm* th, const I* x0, std::size_t u, I* newr) const;
    void widen_remainders(TimeTm* th, const I* newr) const;

    // ---- class transitions (FlowOptions::class_transitions, flow_class_transitions.cpp) ----
    bool class_models(const std::vector<I>& X, StepOutcome& out);
    void class_moments(const std::vector<I>& X, std::size_t U);
    void class_recurrence(std::size_t U);
    void class_residual_tm(std::size_t U);
    bool class_validate_pass(std::size_t U);
    double class_results(const std::vector<I>& X);
    TimeTm* phi_column(std::size_t u, std::size_t col) { return &phi_[(u * pb_.S + col) * pb_.S]; }

    // ---- hull neurons (sections 4, 4b, flow_switching.cpp) ----
    struct Substep;  // one sub-step's a priori box, field box and signs
    bool hull_neuron(std::size_t j, const std::vector<I>& X);
    void hull_first_order(std::size_t j, const std::vector<I>& X);
    bool substep_apriori(const I* Th0, double s0, double s1, const std::vector<TimeTm>& Gs, Substep& sub) const;
    void substep_signs(const I* Th0, Substep& sub) const;
    bool hull_substep(const I* Th0, double s0, double s1, const std::vector<TimeTm>& Gs, I* Th1, I* tube, int depth,
                      std::size_t& budget);
    bool bisect_worthwhile(const I* Th0, const Substep& sub, const I& len, int depth, std::size_t budget) const;
    bool neuron_tm(const I* Th0, double s0, double s1, const unsigned char* codes, const std::vector<TimeTm>& Gs,
                   std::vector<TimeTm>& T, TmPowers& Ps) const;
    bool crossing_substep(const I* Th0, double s0, double s1, const std::vector<TimeTm>& Gs, const Substep& sub,
                          std::size_t k, int old_code, I* Th1, I* tube, int depth, std::size_t& budget);
    struct CrossingWindow;
    bool crossing_window(const std::vector<TimeTm>& T, const TmPowers& Ps, double s0, double s1,
                         const std::vector<TimeTm>& Gs, const std::vector<unsigned char>& codes, std::size_t k,
                         int old_code, CrossingWindow& win) const;
    bool crossing_state(const std::vector<TimeTm>& T, double s0, const std::vector<TimeTm>& Gs, const Substep& sub,
                        const std::vector<unsigned char>& codes, std::size_t k, int old_code, CrossingWindow& win,
                        std::vector<I>& th, std::vector<I>& Y) const;

    // ---- lumped activation classes (flow_lumping.cpp) ----
    void lump_join(std::vector<I>& X, double t0);
    void lump_rereference(LumpedCohort& co, double t0);
    void sort_by_margin(LumpedCohort& co);
    void lump_D(std::uint64_t key, const std::vector<I>& R, I* D) const;
    void lump_contributions(const std::vector<I>& Mbox, std::vector<I>& out) const;
    bool lump_apriori(StepOutcome& out);
    double lump_screen_delta(const LumpedCohort& co) const;
    void lump_remove(std::size_t c, const std::vector<std::size_t>& leave, std::vector<I>& X);
    bool lump_screen(std::vector<I>& X, double t0);
    bool lump_lohner(StepOutcome& out);
    bool lump_transitions(StepOutcome& out);
    void lump_neuron_states();
    void lump_accept();
    void lump_recover(std::vector<I>& X) const;
    const std::vector<I>* lumped_moments(const std::vector<I>& M) const { return lump_.formed ? &M : nullptr; }

    // ---- parked neurons (section 4c, flow_parking.cpp) ----
    bool try_park(std::size_t j, const std::vector<I>& X, const std::vector<I>& R);
    bool park_sign_holds(const I& a, std::uint32_t k, const std::vector<I>& R) const;

    const Problem& pb_;
    const FlowOptions& opt_;
    int p_;
    TmPowers P_;
    I delta_;  // t1 - t0
    std::vector<I> B_, N_;      // a priori boxes (Picard box) and their image (tight tube)
    std::vector<I> R_;          // residual enclosure l'_k over the step
    std::vector<TimeTm> tm_;    // neuron Taylor models (smooth neurons)
    // Class transitions: per pattern u, the columns of the transition matrix Phi_u(s) (S models each)
    // and the box of M_u = sum over its smooth neurons of theta_j(t0) theta_j(t0)^T (S x S).
    std::vector<TimeTm> phi_;
    std::vector<I> Mu_;
    std::vector<I> newr_;
    std::vector<char> newr_ok_;
    std::vector<unsigned char> code_;  // activation code per (j, k) on N_j
    std::vector<unsigned char> kind_;  // kSmooth, kHull, kFrozen, kParked, kLumped
    std::vector<char> lumped_;         // carried by a lumped class
    std::vector<std::size_t> stable_;  // individual neurons: consecutive accepted smooth steps with one pattern
    std::vector<std::uint64_t> stable_key_;
    std::vector<std::uint32_t> joins_;  // joins of each neuron so far (lumping.max_joins)
    LumpState lump_;
    std::vector<I> Rtube_;             // tight-tube residual of the last successful a priori phase
    std::vector<std::uint32_t> pattern_;
    std::vector<std::uint64_t> pattern_keys_;
    std::vector<I> K_;          // hull-neuron residual contributions (constants over B_j)
    std::vector<TimeTm> G_;     // residual Taylor models l'_k(s)
    std::vector<TimeTm> D_;     // per pattern u, component i: D_u(s)
    std::vector<I> end_, tube_;
    std::vector<std::size_t> hull_sub_, crossings_;
    // Parked neurons (section 4c): neuron j sits on the kink of sample k_j; box = its anchored box
    // P_j (valid from the anchor time on while a_j r_k > 0 stays certain); sigma(<w_j, x_k>) lies in
    // [0, z_j] on its reachable set and sigma(<w_j, x_l>) = 0 for l != k. The current attempt's set
    // with its residual part (flow_parked.hpp); committed by accept(), restored by restore_parking().
    ParkedSet park_;
    std::vector<char> frozen_;                   // frozen neurons (monotone: set_frozen only)
    std::size_t frozen_count_ = 0, lumped_count_ = 0;
    std::vector<std::uint32_t> indiv_, act_;     // individuals(), active()
    std::uint64_t sets_gen_ = 1, act_gen_ = 0, act_park_gen_ = 0;
    std::vector<std::uint32_t> smooth_, hull_;   // this attempt's smooth and hull neurons (classify)
    static thread_local std::size_t crossings_tls_;  // transversal crossings of the current hull neuron
};

}  // namespace flowcert::nets::flow
