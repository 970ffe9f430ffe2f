// The step loop of the block-structured flows (see block_step_control.hpp).
#define FLOWCERT_ODE_INTERNAL
#include "block_step_control.hpp"
#undef FLOWCERT_ODE_INTERNAL

#include <algorithm>
#include <exception>

namespace flowcert::ode {

DriveResult drive_steps(const std::vector<double>& targets, const StepControlOptions& opt, const StepAttemptFn& attempt,
                        const StepAcceptFn& accept) {
    DriveResult res;
    double t = 0, h = std::min(opt.h_initial, opt.h_max);
    std::size_t next_target = 0;
    bool first_step = true;
    try {
        while (next_target < targets.size()) {
            if (res.steps >= opt.max_steps) {
                res.status = DriveStatus::max_steps;
                res.reason = "step budget exhausted at t = " + std::to_string(t);
                break;
            }
            const double target = targets[next_target];
            double t1 = t + h;
            if (t1 >= target - 1e-3 * h) t1 = target;
            const StepAttempt a = attempt(t, t1);
            if (!a.ok) {
                ++res.rejected_steps;
                res.last_rejection = a.reason;
                h = 0.5 * (t1 - t);
                if (h < opt.h_min) {
                    res.status = DriveStatus::step_size_underflow;
                    res.failure = a.failure;
                    res.reason = a.reason + " (at t = " + std::to_string(t) + ", step < h_min)";
                    break;
                }
                continue;
            }
            ++res.steps;
            const double hs = t1 - t;
            if (first_step || hs < res.h_smallest) res.h_smallest = hs;
            res.h_largest = std::max(res.h_largest, hs);
            first_step = false;
            const bool at_target = t1 == target;
            accept(t, t1, a, at_target);
            t = t1;
            res.t_reached = t;
            if (at_target) ++next_target;
            h = std::clamp(a.h_suggest, opt.h_min, opt.h_max);
        }
        if (res.status == DriveStatus::not_run) res.status = DriveStatus::completed;
    } catch (const std::exception& e) {
        res.status = DriveStatus::arithmetic_failure;
        res.reason = std::string("arithmetic failure during a step: ") + e.what();
    }
    return res;
}

}  // namespace flowcert::ode
