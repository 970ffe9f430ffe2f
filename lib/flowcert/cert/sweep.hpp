// flowcert/cert/sweep.hpp -- sweeps whose points can be computed apart and merged (issue 7).
//
// A verifier with a sweep (over lambda, (n, d, seed), ...) declares it in its VerifierSpec
// (`.sweep = "lambda"`) and runs its sweep loop through Context::sweep:
//
//   std::vector<nlohmann::json> recs = ctx.sweep(count, [&](std::size_t i) { ... return record; });
//
// fn(i) computes point i and returns a JSON record of what the point contributes (intervals
// written with exact_json, doubles with exact_string); the verifier's assembly code then reads
// the records in index order and builds the report (checks, tables, plots, notes). Records
// always make the round trip through JSON text, in a direct run too, so a merged run and a direct
// run assemble the same report from the same bytes.
//
// verifier_main gives every sweep verifier these options (docs/writing-a-verifier.md, "Sweeps"):
//   --sweep-count                        print the number of points of the case, exit 0
//   --sweep-points LIST --sweep-out FILE compute only those points (LIST: "0,3,5-9"); write their
//                                        records to FILE (a part); no report, no verdict
//   --sweep-merge PART...                read the points from parts instead of computing them and
//                                        write the report of a normal run; exit 4 (no report) if a
//                                        point is missing or duplicated, or a part belongs to
//                                        another case file, build, precision or sweep, or fails
//                                        its digest.
// The verifier body must do nothing expensive before calling ctx.sweep (--sweep-count runs it up
// to that call) and must call it at most once.
#pragma once

#if !defined(FLOWCERT_CERT_INTERNAL)
#error "include <flowcert/cert.hpp>, not the internal headers"
#endif

#include <flowcert/interval.hpp>

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace flowcert::cert {

// ---- exact encodings for records -----------------------------------------------------------
// A double as a C99 hexadecimal floating-point string ("0x1.999999999999ap-4"), or "inf" /
// "-inf": converts back to the same bits. Throws std::invalid_argument for NaN.
std::string exact_string(double x);
// The double written by exact_string (or any hexadecimal float literal); throws
// std::invalid_argument unless the whole string is one and it is exactly representable.
double parse_exact_double(const std::string& text);
// An IntervalD as ["lo", "hi"] in exact_string form, and back (throws std::invalid_argument on a
// malformed value or lo > hi).
nlohmann::json exact_json(const IntervalD& x);
IntervalD interval_d_from_json(const nlohmann::json& j);
// An IntervalMp as {"bits": p, "lo": "...", "hi": "..."} (bounds in MPFR's hexadecimal "%Ra"
// form, exact at p bits), and back at the same precision, bit for bit (throws
// std::invalid_argument on a malformed, inexact or non-canonical value, or lo > hi).
nlohmann::json exact_json(const IntervalMp& x);
IntervalMp interval_mp_from_json(const nlohmann::json& j);
// A ProofResult as {"status": "proven" (to_string of the status), "reason": "..."}, and back (throws
// std::invalid_argument on an unknown status, nlohmann::json's exception on a missing field).
nlohmann::json exact_json(const ProofResult& r);
ProofResult proof_result_from_json(const nlohmann::json& j);

// ---- options of Context::sweep ----------------------------------------------------------------
struct SweepOptions {
    int threads = 1;  // points computed at once (each fn(i) call must then be thread-safe)
    // Optional estimate of the cost of point i, used only to start expensive points first
    // (non-rigorous; the records and the report do not depend on it).
    std::function<double(std::size_t)> cost;
};
using SweepPointFn = std::function<nlohmann::json(std::size_t)>;

// A merge that cannot be trusted (missing / duplicated point, foreign part, bad digest):
// verifier_main exits 4 (the run is incomplete) without a report.
class SweepMergeError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// ---- parts -----------------------------------------------------------------------------------
inline constexpr const char* sweep_part_format = "flowcert-sweep-part";
inline constexpr int sweep_part_format_version = 1;

// What identifies the run a part belongs to; a merge accepts only parts with the same identity.
struct SweepIdentity {
    std::string verifier;      // spec.name
    std::string case_sha256;   // of the case file's bytes
    std::string build_id;      // verifier_build_id()
    long precision_bits = 0;
    std::string sweep;         // spec.sweep
    std::size_t count = 0;     // points of the whole sweep
};

// The records of some points of a sweep. A point whose fn threw carries the message instead of
// a record (a merge then fails the same way as a direct run).
struct SweepPart {
    SweepIdentity identity;
    std::string source;  // where it was read from (for messages)
    struct Point {
        std::size_t index = 0;
        bool failed = false;
        std::string error;   // if failed
        std::string record;  // the record's JSON text (compact dump), if not failed
    };
    std::vector<Point> points;
};

// JSON of a part with a SHA-256 digest over the rest (docs/certificate-format.md, "Sweep parts").
nlohmann::json to_json(const SweepPart& part);
// Back from JSON; throws SweepMergeError naming the problem (format, digest, fields).
SweepPart sweep_part_from_json(const nlohmann::json& j);
void write_sweep_part(const SweepPart& part, const std::filesystem::path& file);
SweepPart read_sweep_part(const std::filesystem::path& file);  // throws SweepMergeError

// The points of all parts by index, after checking that every part has `expected` as identity and
// that every index 0..count-1 occurs exactly once; throws SweepMergeError otherwise.
std::map<std::size_t, SweepPart::Point> merge_sweep_parts(const std::vector<SweepPart>& parts,
                                                          const SweepIdentity& expected);

// "0,3,5-9" -> {0, 3, 5, 6, 7, 8, 9} (sorted, no duplicates); throws std::invalid_argument.
std::vector<std::size_t> parse_point_list(const std::string& text);

// SHA-256 of this program's executable (/proc/self/exe): parts from another build are refused.
const std::string& verifier_build_id();

namespace detail {
// How verifier_main runs the body (one per run); Context::sweep consults it.
struct SweepDriver {
    enum class Mode { direct, count, points, merge } mode = Mode::direct;
    SweepIdentity identity;                  // count filled in by Context::sweep
    std::vector<std::size_t> points;         // Mode::points
    std::filesystem::path out;               // Mode::points
    std::vector<SweepPart> parts;            // Mode::merge
    bool called = false;
    std::size_t written = 0;                 // Mode::points: points written
};
// --sweep-points names a point the sweep does not have (exit 3).
struct SweepUsageError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};
// Thrown by Context::sweep to end the body early in Mode::count and Mode::points.
struct SweepStop {
    std::size_t count = 0;
};
}  // namespace detail

}  // namespace flowcert::cert
