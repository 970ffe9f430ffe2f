// flowcert/ode/block_step_control.hpp -- the step loop of a one-step-at-a-time rigorous
// integrator: steps land exactly on the target times, a failed attempt halves the step (down to
// h_min), an accepted one proposes the next size (heuristic; it never affects soundness: every
// step is validated by the attempt itself). Failure is a value. Used by the block-structured flows
// (nets::integrate_gradient_flow).
#pragma once

#if !defined(FLOWCERT_ODE_INTERNAL)
#error "include <flowcert/ode.hpp>, not the internal headers"
#endif

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace flowcert::ode {

struct StepControlOptions {
    double h_initial = 0.01;
    double h_min = 1e-9;
    double h_max = 0.25;
    std::size_t max_steps = 1000000;
};

// The outcome of one step attempt on [t0, t1].
struct StepAttempt {
    bool ok = false;
    int failure = 0;        // caller's failure code when !ok (reported back on underflow)
    std::string reason;     // why the attempt failed
    double h_suggest = 0;   // when ok: proposed next step length (heuristic)
};

enum class DriveStatus { not_run, completed, step_size_underflow, max_steps, arithmetic_failure };

struct DriveResult {
    DriveStatus status = DriveStatus::not_run;
    int failure = 0;         // the failure code of the last attempt on step_size_underflow
    std::string reason;      // empty when completed
    double t_reached = 0;    // every accepted step ends at or before this time
    std::size_t steps = 0, rejected_steps = 0;
    double h_smallest = 0, h_largest = 0;
    std::string last_rejection;
};

using StepAttemptFn = std::function<StepAttempt(double t0, double t1)>;
// Called after every accepted attempt; `at_target` says t1 is one of the targets.
using StepAcceptFn = std::function<void(double t0, double t1, const StepAttempt&, bool at_target)>;

// Integrates from 0 through the increasing `targets` (the last one is the end time). An exception
// thrown by an attempt or by `accept` ends the run with arithmetic_failure (its message in reason).
DriveResult drive_steps(const std::vector<double>& targets, const StepControlOptions& options,
                        const StepAttemptFn& attempt, const StepAcceptFn& accept);

}  // namespace flowcert::ode
