// lib/flowcert/proofs/kh/window_times.hpp -- the output times of the window |t| <= T~ of [KH2025, Thm 10] around
// the shift s: exact doubles whose consecutive pieces cover [s - T~, s + T~] exactly (for every T~ of the
// enclosure), not up to the rounding of s -+ T~. Proof wing (issue 15): header-only, knows no report.
#pragma once

#include <flowcert/interval.hpp>

#include <vector>

namespace flowcert::proofs::kh {

// `grid` >= 2 increasing exact doubles from tau_0 = a double <= s - T~ to tau_last = a double >= s + T~, for every
// T~ in the enclosure `window` (the ends are outward-rounded interval bounds, not the doubles nearest s -+ T~).
inline std::vector<double> window_times(double s, const IntervalD& window, int grid) {
    const double a = lower(IntervalD::exact(s) - window), b = upper(IntervalD::exact(s) + window);
    std::vector<double> t{a};
    for (int j = 1; j + 1 < grid; ++j) {
        const double x = a + (b - a) * j / (grid - 1);
        if (x > t.back() && x < b) t.push_back(x);
    }
    t.push_back(b);
    return t;
}

}  // namespace flowcert::proofs::kh
