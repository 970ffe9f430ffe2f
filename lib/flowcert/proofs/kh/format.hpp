// flowcert/proofs/kh/format.hpp -- the short number format of the reasons (and exhibited decimals) that the KH
// proof steps return: x to `digits` significant digits (printf "%.*g"); the text of khreport::fmt, so a reason
// moved from a verifier into the library reads the same. Never an enclosure.
#pragma once

#include <cstdio>
#include <string>

namespace flowcert::proofs::kh::detail {

inline std::string fmt(double x, int digits = 6) {
    char b[64];
    std::snprintf(b, sizeof b, "%.*g", digits, x);
    return b;
}

}  // namespace flowcert::proofs::kh::detail
