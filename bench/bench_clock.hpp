// bench/bench_clock.hpp -- the clocks of the benchmarks: process CPU time and a monotonic wall clock, in seconds.
// Benchmarks report ratios against a baseline run in the same process (docs/design.md), so only differences of
// these readings are meaningful.
#pragma once

#include <chrono>
#include <ctime>

namespace flowcert::bench {

inline double cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

inline double wall_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace flowcert::bench
