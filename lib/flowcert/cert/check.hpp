// flowcert/cert/check.hpp -- Claim, Check and the relations `flowcert check` can re-verify.
#pragma once

#if !defined(FLOWCERT_CERT_INTERNAL)
#error "include <flowcert/cert.hpp>, not the internal headers"
#endif

#include <optional>
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
    none,          // not re-checkable from the stored data (the verifier's or a library routine's decision)
    less,          // enclosures[0] < enclosures[1]
    less_equal,    // enclosures[0] <= enclosures[1]
    positive,      // enclosures[0] > 0
    nonnegative,   // enclosures[0] >= 0
    subset,        // enclosures[0] is inside enclosures[1], an exact box (numbers as written in the case)
    within,        // enclosures[1] <= enclosures[0] <= enclosures[2] for computed bounds: decided with the
                   //   inner bounds of the bound enclosures (sup lower <= inf x, sup x <= inf upper)
    implied_by,    // proven iff every check named in Check::implied_by is proven (a step of the argument
                   //   "these premises imply this statement"); never disproven
};
std::string_view to_string(Relation r);  // "none", "less", ..., "within", "implied_by"
bool parse_relation(std::string_view text, Relation& out);

// One named statement of a claim: a hypothesis, a step of the argument, a conclusion or evidence.
struct Check {
    std::string name;        // unique within a report, e.g. "alignment gap at lambda=1e-3"
    std::string citation;    // e.g. "[BF2025, eq. (21)]" or "[docs/bf.md#step-3]"
    std::string statement;   // human-readable, e.g. "G(w(T)) <= 1e-2"
    Role role = Role::conclusion;
    CheckStatus status = CheckStatus::not_run;
    Relation relation = Relation::none;
    std::vector<Enclosure> enclosures;
    std::vector<std::string> implied_by;  // Relation::implied_by: the premises (names of earlier checks)
    std::string reason;      // why it is (not) proven: widths, failed hypotheses, what to try
    std::string witness;     // for a false hypothesis or conclusion: the counterexample in words
    std::string trivial;     // non-empty: why this check holds for every input (shown "trivially true";
                             //   it never counts for the verdict)
    std::string reconstructed;  // non-empty: this check states a reconstruction (an item of the paper whose text
                                //   is not available: docs/rh.md#reconstruction), and why. A conclusion disproven
                                //   under a proven reconstructed hypothesis refutes the reconstruction, not the
                                //   theorem: INCONCLUSIVE (compute_verdict)
    std::string case_claim;     // conclusions only, non-empty: the bound is the case file's own claimed constant, not
                                //   the paper's (which of the case's fields): its refutation is the case's, and stands
                                //   whatever the reconstruction
    std::optional<double> margin;  // slack relative to the bound (> 0: holds with that room; display only)
};

// The relative slack of a relation on its enclosures (display only): (inf rhs - sup lhs) / scale
// for <, <=; inf x / sup |x| for > 0, >= 0; the smaller distance to a bound over the half-width
// of the bounds for subset / within. nullopt for none, implied_by or unbounded enclosures.
std::optional<double> relation_margin(Relation r, const std::vector<Enclosure>& enclosures);

// The status a relation implies for the given enclosures, decided with exact rationals
// (GMP) from the decimal strings. `detail` receives a sentence naming the bounds compared.
// Returns CheckStatus::not_run for Relation::none and Relation::implied_by, and throws std::invalid_argument if a
// string is not a number or the enclosure count is wrong for the relation.
CheckStatus evaluate_relation(Relation r, const std::vector<Enclosure>& enclosures, std::string* detail = nullptr);

}  // namespace flowcert::cert
