// verifiers/kh/kh_report.hpp -- report text shared by the kh/* verifiers (kh/ncf_kkt, kh/first_saddle,
// kh/theorem18_sparsity). Local to verifiers/kh (not a library header). Plain doubles only: nothing here
// prints an enclosure (those go through to_string / lower_string / upper_string).
#pragma once

#include <flowcert/cert.hpp>

#include <chrono>
#include <cstdio>
#include <string>
#include <utility>

namespace khreport {

// x to `digits` significant digits (printf "%.*g"), for notes and table cells. kh/theorem18_sparsity also
// uses it to pick exhibited constants: the printed decimal is then the exact constant.
inline std::string fmt(double x, int digits = 6) {
    char b[64];
    std::snprintf(b, sizeof b, "%.*g", digits, x);
    return b;
}

// Elapsed wall time since construction (steady clock), for the "wall time" notes and per-run seconds.
class Stopwatch {
public:
    double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
    // Adds the note "<what>: <seconds to `digits` digits> s" (certificate comparisons mask the number after
    // "wall time", so `what` should contain it).
    void note(flowcert::cert::Report& rep, int digits, const std::string& what = "wall time") const {
        rep.note(what + ": " + fmt(seconds(), digits) + " s");
    }

private:
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// A delta sweep drawn on log-log axes (x = delta), certified enclosures as error bars.
inline flowcert::cert::SweepPlot delta_sweep_plot(std::string title, std::string y_label) {
    return {.title = std::move(title), .x_label = "delta", .y_label = std::move(y_label), .log_x = true, .log_y = true,
            .series = {}, .references = {}};
}

}  // namespace khreport
