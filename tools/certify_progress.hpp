// tools/certify_progress.hpp -- the per-paper roll-up of a `flowcert certify` run.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "certify_mpi.hpp"

namespace flowcert::tools {

// The paper of a case: its directory under --cases ("kh" for kh/theorem4_example1), else the
// verifier's paper.
std::string paper_of(const CaseOutcome& o);

// Per paper (in case order): cases, as expected, verdict counts and the sum of the wall times.
struct PaperRollup {
    std::string paper;
    int cases = 0, ok = 0;
    std::map<std::string, int> verdicts;
    double wall = 0;
    std::string verdict_counts() const;  // "12 CERTIFIED, 2 INCONCLUSIVE"
};
std::vector<PaperRollup> rollup(const std::vector<CaseOutcome>& outs);
}  // namespace flowcert::tools
