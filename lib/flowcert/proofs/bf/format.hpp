// flowcert/proofs/bf/format.hpp -- the short number format of the reasons that the BF proof steps return
// (6 significant digits; reasons only, never an enclosure).
#pragma once

#include <cstdio>
#include <string>

namespace flowcert::proofs::bf::detail {

inline std::string fmt(double v) {
    char b[64];
    std::snprintf(b, sizeof b, "%.6g", v);
    return b;
}

}  // namespace flowcert::proofs::bf::detail
