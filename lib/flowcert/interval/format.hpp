// flowcert/interval/format.hpp -- the one short number format of the project's texts (reasons, notes, table
// cells, messages): x to `digits` significant digits, printf "%.*g". Text only: never an enclosure (an
// interval is printed by to_string(IntervalD / IntervalMp), which rounds outward).
#pragma once

#if !defined(FLOWCERT_INTERVAL_INTERNAL)
#error "include <flowcert/interval.hpp>, not the internal headers"
#endif

#include <string>

namespace flowcert {

std::string format_g(double x, int digits = 6);

}  // namespace flowcert
