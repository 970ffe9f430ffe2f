// flowcert/cert/verdict.hpp -- verdicts, check statuses and the exit codes of DESIGN.md.
#pragma once

#if !defined(FLOWCERT_CERT_INTERNAL)
#error "include <flowcert/cert.hpp>, not the internal headers"
#endif

#include <optional>
#include <string_view>

namespace flowcert::cert {

// The outcome of a verifier run. Never set by hand: Report::verdict() computes it.
enum class Verdict {
    certified,     // every registered check ran and was proven, and the run completed
    refuted,       // some check was proven false (a rigorous counterexample)
    inconclusive,  // neither (the default)
    error,         // bad input or an internal failure
};

// Exit codes of every verifier and of `flowcert` (DESIGN.md).
namespace exit_code {
inline constexpr int certified = 0;     // (for `flowcert certify`: every verdict as expected)
inline constexpr int refuted = 1;       // (for `flowcert certify` / `check`: a mismatch / a rejected certificate)
inline constexpr int inconclusive = 2;
inline constexpr int bad_input = 3;     // malformed case file or command line; no report written
inline constexpr int environment = 4;   // rounding self-test or environment failure
inline constexpr int internal = 5;      // an exception escaped the verifier body
}  // namespace exit_code

// The status of one check.
enum class CheckStatus {
    not_run,     // registered (planned) but never evaluated: blocks CERTIFIED
    proven,      // holds for every point of the enclosures
    disproven,   // fails for every point of the enclosures (a rigorous counterexample)
    not_proven,  // neither: the enclosures were too wide, or a hypothesis could not be certified
};

std::string_view to_string(Verdict v);          // "CERTIFIED", "REFUTED", "INCONCLUSIVE", "ERROR"
std::string_view to_string(CheckStatus s);      // "not_run", "proven", "disproven", "not_proven"
// Accepts "certified" / "CERTIFIED" etc.; nullopt otherwise.
std::optional<Verdict> parse_verdict(std::string_view text);
std::optional<CheckStatus> parse_check_status(std::string_view text);
// The exit code a verifier returns for a verdict (error -> exit_code::internal).
int exit_code_for(Verdict v);

}  // namespace flowcert::cert
