// flowcert/proofs/rh/stabilization.hpp -- GD's activation pattern stabilizes at a certified step K and never
// changes again, and its limit w(inf) is a global minimizer of the loss (the reconstructed [LWTM2026] claim,
// docs/rh.md#tail, #global-minimum). Interval GD (nets::rh::gd_step) runs until a tail certificate
// (tail.hpp) succeeds; every sign on the way must be certain.
#pragma once

#include <flowcert/proofs/rh/tail.hpp>

#include <string>
#include <vector>

namespace flowcert::proofs::rh {

struct GdOptions {
    int max_steps = 5000;
    bool record_trace = false;  // keep the enclosures of beta_p(k) for the report's plots
};

struct PatternChange {
    int step;     // the pattern at `step` differs from the one at step - 1 here
    int neuron;
    int sample;
    int active;   // new state
};

struct PatternResult {
    // Step "activation signs certified up to the tail step": every sign determined at steps 0..tail_step.
    ProofResult signs = ProofResult::not_proven("not run");
    int undetermined_step = -1, undetermined_neuron = -1, undetermined_sample = -1;
    // The tail certificate (the conclusion "pattern never changes after K" when proven).
    ProofResult tail = ProofResult::not_proven("not run");
    int K = 0;                          // last step at which the pattern changed (0: never)
    int tail_step = -1;                 // step at which the tail certificate succeeded
    std::vector<PatternChange> changes;
    Pattern pattern;                    // [p][i] final pattern (1 active)
    // The last tail attempt (also when it failed): its rho and smallest signed margin.
    bool tail_attempted = false;
    int tail_attempt_step = -1;
    bool rho_known = false;
    IntervalD rho = IntervalD::entire();
    std::string rho_reason = "no step with a stable pattern";
    bool margin_known = false;
    IntervalD margin = IntervalD::entire();
    std::string margin_reason = "no step with a stable pattern";
    int worst_neuron = -1, worst_sample = -1;
    IntervalD lambda;                   // eigenvalue range of H_UU at the success
    IntervalD r_norm;                   // ||r_K|| on U
    // The limit (valid when tail is proven).
    std::vector<IVec> a_inf, beta_inf;
    IntervalD loss_inf, loss_min;       // L(w(inf)) and the global minimum of L
    IntervalD fit_error;                // max_{i in U} |f_i(inf) - y_i| (an enclosure of 0)
    // when GdOptions::record_trace: trace[k][p][i] encloses <w_p(k), x_i>, k = 0..last step run
    std::vector<std::vector<IVec>> trace;
};

// The GD iteration whose enclosures certify_pattern_and_limit checks step by step: by default the interval map
// nets::rh::gd_step on (a, beta); box_affine.hpp supplies a first-order (affine in E) one on a Gram box. Both must
// enclose a_p(k), beta_p(k) of every member of inst (the tail certificate uses inst.G with these enclosures).
class GdIteration {
public:
    virtual ~GdIteration() = default;
    // Enclosures of a_p(k), beta_p(k) at the current step k.
    virtual void enclose(std::vector<IVec>& a, std::vector<IVec>& beta) const = 0;
    // Advance to step k + 1 with the (certified) activation pattern P of step k.
    virtual void step(const Pattern& P) = 0;
};

PatternResult certify_pattern_and_limit(const Instance& inst, const GdOptions& options = {});
PatternResult certify_pattern_and_limit(const Instance& inst, GdIteration& iteration, const GdOptions& options = {});

// The conclusion "w(inf) is a global minimizer" [docs/rh.md#global-minimum] from a certified tail: m = 1:
// every positive sample active and fitted, every non-positive sample inactive forever (a positive sample
// certified inactive forever disproves it: L(w(inf)) >= min L + y_i^2 / 2); m = 2: every sample with y != 0
// fitted (one inactive in both neurons forever disproves it).
ProofResult global_minimality(const Instance& inst, const PatternResult& pr);

}  // namespace flowcert::proofs::rh
