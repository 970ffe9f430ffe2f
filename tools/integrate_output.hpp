// tools/integrate_output.hpp -- what `flowcert integrate` writes: the text and JSON results,
// the tube (--tube FILE.csv / FILE.json, exact endpoints as C99 hex floats) and the report
// (--report FILE.html / FILE.md, a tube plot per component and a phase plot).
//
// The plots draw each step enclosure as a rectangle [t0, t1] x [lo, hi] (and [lo, hi] x
// [lo, hi] in the phase plane): the union of the rectangles is the proven tube; nothing
// between the rectangles is interpolated.
#pragma once

#include <flowcert/ode.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace flowcert::tools {

// A file could not be written (exit 3: the user named a path that does not work).
struct OutputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// One finished `flowcert integrate` run, as the writers need it.
template <Interval I>
struct Run {
    const taylor::VectorField* field = nullptr;  // as integrated (reversed backward; interval parameters as states)
    const ode::Result<I>* result = nullptr;      // in the integration time s (s = -t when backward)
    bool backward = false;
    int time_variable = -1;  // the state variable that is time (hidden in the output), or -1
    int shown_states = 0;    // states from this index on are interval parameters (p' = 0), hidden
    long bits = 53;
    int order = 20;
    std::string formula, time_text;
    std::vector<std::string> output_times;
    double wall_seconds = 0;
};

template <Interval I> std::string text_result(const Run<I>& run);
template <Interval I> std::string json_result(const Run<I>& run);
template <Interval I> std::string tube_csv(const Run<I>& run);
template <Interval I> std::string tube_json(const Run<I>& run);
template <Interval I> std::string report_html(const Run<I>& run);
template <Interval I> std::string report_markdown(const Run<I>& run);

// The exact value of a bound as a C99 hexadecimal float ("0x1.8p+1"); lower/upper ends.
std::string hex_lower(const IntervalD& x);
std::string hex_upper(const IntervalD& x);
std::string hex_lower(const IntervalMp& x);
std::string hex_upper(const IntervalMp& x);

bool ends_with(const std::string& s, const std::string& suffix);
void write_file(const std::string& path, const std::string& text);  // throws OutputError

#define FLOWCERT_INTEGRATE_OUTPUT(I)                                        \
    extern template std::string text_result(const Run<I>&);                 \
    extern template std::string json_result(const Run<I>&);                 \
    extern template std::string tube_csv(const Run<I>&);                    \
    extern template std::string tube_json(const Run<I>&);                   \
    extern template std::string report_html(const Run<I>&);                 \
    extern template std::string report_markdown(const Run<I>&);
FLOWCERT_INTEGRATE_OUTPUT(IntervalD)
FLOWCERT_INTEGRATE_OUTPUT(IntervalMp)
#undef FLOWCERT_INTEGRATE_OUTPUT

}  // namespace flowcert::tools
