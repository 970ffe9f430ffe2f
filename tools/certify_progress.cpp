#include "certify_progress.hpp"

#include <algorithm>
#include <cstdio>

namespace flowcert::tools {

std::string paper_of(const CaseOutcome& o) {
    const std::string& s = o.rel.find('/') != std::string::npos ? o.rel : o.verifier;
    return s.substr(0, s.find('/'));
}

std::vector<PaperRollup> rollup(const std::vector<CaseOutcome>& outs) {
    std::vector<PaperRollup> r;
    for (const auto& o : outs) {
        const std::string p = paper_of(o);
        auto it = std::find_if(r.begin(), r.end(), [&](const PaperRollup& x) { return x.paper == p; });
        if (it == r.end()) it = r.insert(r.end(), PaperRollup{p});
        ++it->cases;
        it->ok += o.ok;
        ++it->verdicts[o.verdict];
        it->wall += o.wall_time;
    }
    return r;
}

std::string PaperRollup::verdict_counts() const {
    std::string s;
    for (const auto& [v, n] : verdicts) s += (s.empty() ? "" : ", ") + std::to_string(n) + " " + v;
    return s;
}

}  // namespace flowcert::tools
