// flowcert/interval/self_test.hpp -- the rounding self-test every verifier runs and records.
#pragma once

#if !defined(FLOWCERT_INTERVAL_INTERNAL)
#error "include <flowcert/interval.hpp>, not the internal headers"
#endif

#include <string>
#include <vector>

namespace flowcert {

struct SelfTestResult {
    bool passed = false;                 // false until every check has run and passed
    std::vector<std::string> failures;   // one line per failed check
    int checks_run = 0;
    std::string summary() const;         // "rounding self-test: 37/37 checks passed" or the failures
};

// Checks the floating-point environment (round-to-nearest mode, no excess precision, no
// fast-math) and that IntervalD and IntervalMp operations enclose exactly known results,
// comparing against GMP rationals and MPFR. Cheap (well under a millisecond).
SelfTestResult run_rounding_self_test();

}  // namespace flowcert
