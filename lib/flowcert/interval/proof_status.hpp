// flowcert/interval/proof_status.hpp -- the one status type of a proof statement, shared by
// every layer: what a rigorous computation established about one statement on one instance.
// Library proof code returns a ProofResult (status + reason) and never a report; the
// certificate layer decides what a status means for the verdict from the statement's role
// (hypothesis, step of our argument, conclusion; cert/check.hpp).
#pragma once

#if !defined(FLOWCERT_INTERVAL_INTERNAL)
#error "include <flowcert/interval.hpp>, not the internal headers"
#endif

#include <string>
#include <string_view>
#include <utility>

namespace flowcert {

enum class ProofStatus {
    not_run,     // planned, never evaluated
    proven,      // holds for every point of the enclosures
    disproven,   // fails for every point of the enclosures (a rigorous witness of its negation)
    not_proven,  // neither: the enclosures were too wide, or a premise could not be established
};

std::string_view to_string(ProofStatus s);  // "not_run", "proven", "disproven", "not_proven"

// The result of a library routine that proves (or fails to prove) one statement.
struct ProofResult {
    ProofStatus status = ProofStatus::not_run;
    std::string reason;  // why: the bounds compared, the widths, what to try

    static ProofResult proven(std::string why) { return {ProofStatus::proven, std::move(why)}; }
    static ProofResult disproven(std::string why) { return {ProofStatus::disproven, std::move(why)}; }
    static ProofResult not_proven(std::string why) { return {ProofStatus::not_proven, std::move(why)}; }
    bool is_proven() const noexcept { return status == ProofStatus::proven; }
};

}  // namespace flowcert
