// flowcert/cert/verdict.hpp -- verdicts, check roles and statuses, and the exit codes.
//
// A verdict follows mechanically from the roles and statuses of a report's checks
// (compute_verdict; docs/design.md "What certified means"):
//   ERROR               bad input or an internal inconsistency;
//   OUTSIDE_HYPOTHESES  a hypothesis of the theorem is proven false on this instance;
//   REFUTED             every hypothesis is proven and a conclusion check is proven false (a witness),
//                       and the refutation does not rest on a reconstruction: no proven hypothesis and not the
//                       false conclusion is a reconstructed statement, unless that conclusion is the case's
//                       own claimed constant (then the case's claim is refuted, not the paper's theorem);
//   CERTIFIED           every hypothesis, step and conclusion check is proven, and at least one
//                       conclusion check that is not trivially true;
//   INCONCLUSIVE        otherwise (the default).
#pragma once

#if !defined(FLOWCERT_CERT_INTERNAL)
#error "include <flowcert/cert.hpp>, not the internal headers"
#endif

#include <optional>
#include <string_view>
#include <vector>

namespace flowcert::cert {

// The outcome of a verifier run. Never set by hand: Report::verdict() computes it.
enum class Verdict {
    certified,           // every hypothesis, step and conclusion proven; the conclusion not vacuous
    refuted,             // hypotheses proven, the conclusion proven false (a rigorous witness)
    outside_hypotheses,  // a hypothesis of the theorem is proven false on this instance
    inconclusive,        // neither (the default)
    error,               // bad input or an internal failure
};

// Exit codes of every verifier and of `flowcert` (docs/design.md).
namespace exit_code {
inline constexpr int certified = 0;     // (for `flowcert certify`: every verdict as expected)
inline constexpr int refuted = 1;       // (for `flowcert certify` / `check`: a mismatch / a rejected certificate)
inline constexpr int inconclusive = 2;
inline constexpr int bad_input = 3;     // malformed case file or command line; no report written
inline constexpr int environment = 4;   // rounding self-test or environment failure
inline constexpr int internal = 5;      // an exception escaped the verifier body
inline constexpr int outside_hypotheses = 6;  // the instance violates a hypothesis of the theorem
}  // namespace exit_code

// The status of one check: the project-wide proof status (flowcert/interval/proof_status.hpp).
using CheckStatus = flowcert::ProofStatus;

// What a check is in the argument. The role decides what its status means for the verdict.
enum class Role {
    hypothesis,  // a hypothesis of the theorem on this instance: false -> OUTSIDE_HYPOTHESES
    step,        // a step of our own argument (sufficient condition, exhibited constant or time):
                 //   proven or not proven, never false in the verdict's sense
    conclusion,  // the theorem's statement on this instance: false (hypotheses proven) -> REFUTED
    evidence,    // reported beside the claim (e.g. finite slopes of an asymptotic rate); never decides
};

// The status a role admits for a raw status: a step that fails on its whole enclosure is
// "not proven" (a failed sufficient condition is not a counterexample to anything).
CheckStatus status_for_role(Role role, CheckStatus raw);

std::string_view to_string(Verdict v);  // "CERTIFIED", "REFUTED", "OUTSIDE_HYPOTHESES", "INCONCLUSIVE", "ERROR"
std::string_view to_string(Role r);     // "hypothesis", "step", "conclusion", "evidence"
// Accepts "certified" / "CERTIFIED" / "outside_hypotheses" etc.; nullopt otherwise.
std::optional<Verdict> parse_verdict(std::string_view text);
std::optional<CheckStatus> parse_check_status(std::string_view text);
std::optional<Role> parse_role(std::string_view text);
// The exit code a verifier returns for a verdict (error -> exit_code::internal).
int exit_code_for(Verdict v);

// What the verdict needs of one check.
struct CheckSummary {
    Role role = Role::step;
    CheckStatus status = CheckStatus::not_run;
    bool trivial = false;  // labelled trivially true: never counts (neither for nor against)
    bool reconstructed = false;  // states a reconstruction of an unavailable paper text (Check::reconstructed)
    bool case_claim = false;     // a conclusion whose bound is the case's own claimed constant (Check::case_claim)
};
// Whether a refutation by these checks would rest on a reconstruction: a proven reconstructed
// hypothesis, or a disproven reconstructed conclusion, while no disproven conclusion is a case claim.
bool refutation_rests_on_reconstruction(const std::vector<CheckSummary>& checks);
// The verdict implied by the checks, a completion flag and an error flag (shared by
// Report::verdict and `flowcert check`).
Verdict compute_verdict(const std::vector<CheckSummary>& checks, bool completed, bool error);

}  // namespace flowcert::cert
