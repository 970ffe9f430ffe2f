// flowcert/cert/verifier_main.hpp -- the shared command line of every verifier.
//
//   VERIFIER --case FILE [--out DIR] [--precision BITS] [--json] [--quiet]
//
// 1. runs flowcert::run_rounding_self_test(); exit 4 if it fails;
// 2. loads the case and validates it against spec.schema (+ spec.validate); exit 3 and no
//    report on any problem; the case's `verifier` must equal spec.name;
// 3. runs spec.run with a Context; any exception -> verdict ERROR with its message (exit 5);
// 4. writes DIR/<case stem>.{json,html,md} (DIR defaults to "."), prints a one-line summary
//    (or the JSON with --json) on stdout, and returns the verdict's exit code.
#pragma once

#if !defined(FLOWCERT_CERT_INTERNAL)
#error "include <flowcert/cert.hpp>, not the internal headers"
#endif

#include <functional>
#include <string>

#include "case.hpp"
#include "progress.hpp"
#include "report.hpp"

namespace flowcert::cert {

struct Context {
    const Case& input;      // the validated case
    Report& report;         // claim/checks/tables/plots go here
    Progress& progress;     // for runs longer than a few seconds
    long precision_bits;    // --precision, else the case's `precision`, else spec.default_precision_bits
    Precision precision() const { return Precision(precision_bits); }
};

struct VerifierSpec {
    std::string name;                      // "paper/theorem", e.g. "bf/extremal_vectors"; = the case's `verifier`
    std::string summary;                   // one line for --help
    Claim claim;                           // paper, locator, paper_statement (proven_statement may be set by run)
    CaseSchema schema;                     // the verifier's own keys (common keys are implicit)
    long default_precision_bits = 128;
    std::function<void(const Case&)> validate;  // optional cross-key checks; throw via Case::fail
    std::function<void(Context&)> run;          // the verifier body
};

int verifier_main(int argc, char** argv, const VerifierSpec& spec);

}  // namespace flowcert::cert
