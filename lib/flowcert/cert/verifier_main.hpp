// flowcert/cert/verifier_main.hpp -- the shared command line of every verifier.
//
//   VERIFIER --case FILE [--out DIR] [--precision BITS] [--json] [--quiet]
//            [--sweep-count | --sweep-points LIST --sweep-out FILE | --sweep-merge PART...]
//            [--export-instance DIR]
//
// 1. runs flowcert::run_rounding_self_test(); exit 4 if it fails;
// 2. loads the case and validates it against spec.schema (+ spec.validate); exit 3 and no
//    report on any problem; the case's `verifier` must equal spec.name;
// 3. runs spec.run with a Context; any exception -> verdict ERROR with its message (exit 5);
// 4. writes DIR/<case stem>.{json,html,md} (DIR defaults to "."), prints a one-line summary
//    (or the JSON with --json) on stdout, and returns the verdict's exit code.
// The --sweep-* options (verifiers with a spec.sweep only) split a sweep into parts and merge them
// (sweep.hpp); a merged run writes the report of the direct run and records the direct run's
// command line (without --sweep-merge and its parts). --export-instance DIR also writes the data and
// initialization the body generated from a seed (instance_export.hpp) after the report.
#pragma once

#if !defined(FLOWCERT_CERT_INTERNAL)
#error "include <flowcert/cert.hpp>, not the internal headers"
#endif

#include <functional>
#include <string>

#include "case.hpp"
#include "instance_export.hpp"
#include "progress.hpp"
#include "report.hpp"
#include "sweep.hpp"

namespace flowcert::cert {

struct Context {
    const Case& input;      // the validated case
    Report& report;         // claim/checks/tables/plots go here
    Progress& progress;     // for runs longer than a few seconds
    long precision_bits;    // --precision, else the case's `precision`, else spec.default_precision_bits
    Precision precision() const { return Precision(precision_bits); }
    detail::SweepDriver* sweep_driver = nullptr;  // set by verifier_main (null: a direct run)
    int threads = 2;        // --threads: worker threads of the engines (results never depend on it)

    // Runs the sweep declared by spec.sweep: the records of points 0..count-1 in index order,
    // each the JSON text fn(i) returned, parsed back (sweep.hpp). In a direct run fn is called for
    // every point (opt.threads at a time); with --sweep-merge the records come from the parts;
    // with --sweep-count / --sweep-points the body ends inside this call. If fn(i) threw for some
    // point, throws std::runtime_error with the message of the lowest such i (after all points).
    std::vector<nlohmann::json> sweep(std::size_t count, const SweepPointFn& fn, const SweepOptions& opt = {});

    // --export-instance (instance_export.hpp): what the body generated from a seed; no-ops without it.
    InstanceExport* instance_export = nullptr;
    void export_array(const std::string& name, std::vector<std::size_t> shape, std::vector<double> values,
                      const std::string& description) const {
        if (instance_export) instance_export->array({name, std::move(shape), std::move(values), description});
    }
    void export_value(const std::string& name, const std::string& exact, const std::string& description) const {
        if (instance_export) instance_export->value({name, exact, description});
    }
};

struct VerifierSpec {
    std::string name;                      // "paper/theorem", e.g. "bf/extremal_vectors"; = the case's `verifier`
    std::string summary;                   // one line for --help
    Claim claim;                           // paper, locator, paper_statement (proven_statement may be set by run)
    CaseSchema schema;                     // the verifier's own keys (common keys are implicit)
    long default_precision_bits = 128;
    std::function<void(const Case&)> validate;  // optional cross-key checks; throw via Case::fail
    std::function<void(Context&)> run;          // the verifier body
    std::string sweep;  // the name of the sweep the body runs through Context::sweep ("lambda"); empty: none
};

int verifier_main(int argc, char** argv, const VerifierSpec& spec);

// A path as certificates record it: relative paths as given, absolute ones relative to the
// working directory when inside it, else only the file name (no machine path is recorded).
std::string portable_path(const std::string& path);
// A command-line argument with such a path made portable (also in "--opt=/path" form).
std::string portable_argument(const std::string& arg);

}  // namespace flowcert::cert
