// flowcert/cert/check.hpp -- Claim, Check and the relations `flowcert check` can re-verify.
#pragma once

#if !defined(FLOWCERT_CERT_INTERNAL)
#error "include <flowcert/cert.hpp>, not the internal headers"
#endif

#include <string>
#include <vector>

#include "verdict.hpp"

namespace flowcert::cert {

// What is being certified: the paper's statement and the concrete statement this run proves.
struct Claim {
    std::string paper;             // bibliography key, e.g. "BF2025"
    std::string locator;           // e.g. "Theorem 1 (ii)"
    std::string paper_statement;   // the statement in the paper's words
    std::string proven_statement;  // the concrete statement of this run (instances, parameters, horizons)
};

// A named enclosure [lo, hi] as decimal strings rounded outward (lower_string/upper_string),
// or exact decimal/rational strings. "-inf"/"inf" are allowed for unbounded ends.
struct Enclosure {
    std::string name;
    std::string lo;
    std::string hi;
};

// The relation a check asserts between its enclosures. Every relation except `none` is
// re-verified by `flowcert check` from the stored strings with exact rational arithmetic.
enum class Relation {
    none,          // not re-checkable from the stored data (check_true, custom checks)
    less,          // enclosures[0] < enclosures[1]
    less_equal,    // enclosures[0] <= enclosures[1]
    positive,      // enclosures[0] > 0
    nonnegative,   // enclosures[0] >= 0
    subset,        // enclosures[0] is inside enclosures[1] (the value lies in the box)
};
std::string_view to_string(Relation r);  // "none", "less", "less_equal", "positive", "nonnegative", "subset"
bool parse_relation(std::string_view text, Relation& out);

// One named inequality or inclusion of a claim.
struct Check {
    std::string name;        // unique within a report, e.g. "alignment gap at lambda=1e-3"
    std::string citation;    // e.g. "[BF2025, eq. (21)]"
    std::string statement;   // human-readable, e.g. "G(w(T)) <= 1e-2"
    CheckStatus status = CheckStatus::not_run;
    Relation relation = Relation::none;
    std::vector<Enclosure> enclosures;
    std::string reason;      // why it is (not) proven: widths, failed hypotheses, what to try
    std::string witness;     // for disproven checks: the counterexample in words
};

// The status a relation implies for the given enclosures, decided with exact rationals
// (GMP) from the decimal strings. `detail` receives a sentence naming the bounds compared.
// Returns CheckStatus::not_run for Relation::none, and throws std::invalid_argument if a
// string is not a number or the enclosure count is wrong for the relation.
CheckStatus evaluate_relation(Relation r, const std::vector<Enclosure>& enclosures, std::string* detail = nullptr);

}  // namespace flowcert::cert
