// tests/support/exact_reference.hpp -- exact references for containment tests: a decimal read into a 200-bit MPFI
// interval (narrower than any IntervalD result), and "the IntervalD enclosure x contains the exact value".
#pragma once

#include <flowcert/interval.hpp>

namespace flowcert::test_support {

inline const Precision kReferencePrecision(200);
inline IntervalMp ref(const char* decimal) { return IntervalMp::from_decimal(decimal, kReferencePrecision); }
inline bool contains(const IntervalD& x, const IntervalMp& exact) {
    return subset(exact, to_interval_mp(x, kReferencePrecision));
}

}  // namespace flowcert::test_support
