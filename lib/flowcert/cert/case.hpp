// flowcert/cert/case.hpp -- case files: TOML (toml++), validated up front against a schema.
//
// Numbers are written as strings and converted exactly or outward (`lambda = "1e-3"`,
// `x = "8/3"`); TOML integers are accepted where a number is expected; TOML floats are
// rejected, because a float literal has already been rounded to binary. Unknown keys are
// rejected. Numbers must lie in the range of doubles (0 or 2.2e-308 <= |x| <= 1.8e308), and
// integers in the key's [min_integer, max_integer]. Only regular files are read. Every error
// names the file, the line, the key and what was expected.
//
// Keys every case has (declared automatically, never in a verifier's schema):
//   verifier    = "demo/sqrt_bounds"           (required) the verifier that runs the case
//   expect      = "certified"                  (required) certified | refuted | inconclusive
//   labels      = ["fast"]                     (optional) CTest labels; "slow" is excluded from scripts/test
//   description = "..."                        (optional)
//   precision   = 128                          (optional) IntervalMp bits; --precision overrides
#pragma once

#if !defined(FLOWCERT_CERT_INTERNAL)
#error "include <flowcert/cert.hpp>, not the internal headers"
#endif

#include <flowcert/interval.hpp>

#include "toml_guard.hpp"

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "verdict.hpp"

namespace flowcert::cert {

enum class KeyType {
    string,    // "text"
    number,    // a number-string "1e-3", "8/3" (or a TOML integer)
    integer,   // a TOML integer
    boolean,   // true / false
    numbers,   // an array of numbers: ["0.5", "-1", 2]
    strings,   // an array of strings
    matrix,    // an array of equally long non-empty arrays of numbers: [["1", "0"], ["0", "1"]]
    table,     // a sub-table [name] checked against `fields`
    tables,    // an array of tables [[name]], each checked against `fields`
};
std::string_view to_string(KeyType t);  // what an error message says was expected

enum class Constraint {
    none,
    positive,       // > 0 (numbers, integers, every element of numbers/matrix)
    nonnegative,    // >= 0
    unit_interval,  // in [0, 1]
    nonempty,       // strings, arrays and tables with at least one element
};

struct KeySpec {
    std::string name;
    KeyType type = KeyType::number;
    std::string description;
    bool required = true;
    Constraint constraint = Constraint::none;
    std::vector<std::string> choices;  // allowed values of a string key (empty: any)
    std::vector<KeySpec> fields;       // schema of a table, or of each table of `tables`
    // Range of an integer key: counts, sizes, seeds and iteration numbers by default, so a
    // negative count or a size that cannot be allocated is refused before any computation.
    long long min_integer = 0;
    long long max_integer = 10'000'000;
};
using CaseSchema = std::vector<KeySpec>;

// A case-file error; what() is "FILE:LINE: key 'KEY': MESSAGE" (line omitted if unknown).
class CaseError : public std::runtime_error {
public:
    CaseError(std::string file, long line, std::string key, std::string message);
    const std::string& file() const noexcept { return file_; }
    long line() const noexcept { return line_; }
    const std::string& key() const noexcept { return key_; }
    const std::string& message() const noexcept { return message_; }

private:
    std::string file_;
    long line_;
    std::string key_, message_;
};

// Largest case file accepted (bytes); larger files are rejected before parsing.
inline constexpr std::size_t max_case_file_bytes = 1 << 20;

namespace detail {
struct CaseData;
struct CaseNode;
}  // namespace detail

class Case {
public:
    // Reads, parses and validates a case file against `schema` (plus the common keys).
    // Throws CaseError on any problem.
    static Case load(const std::filesystem::path& file, const CaseSchema& schema);
    // The same from text in memory (`source` is the name used in messages).
    static Case parse(std::string_view text, const std::string& source, const CaseSchema& schema);

    // ---- common keys (of the whole file, also available from sub-tables) ----
    const std::string& file() const;
    const std::string& sha256() const;  // of the file's bytes
    const std::string& text() const;    // the file's bytes (embedded in the certificate)
    std::string verifier() const;
    Verdict expect() const;
    std::vector<std::string> labels() const;
    std::string description() const;
    std::optional<long> precision_bits() const;

    // ---- typed getters. The key must be declared in the schema with this type (otherwise
    // std::logic_error: a verifier bug); reading an absent optional key is also a verifier
    // bug (std::logic_error), so test with has() first. ----
    bool has(std::string_view key) const;
    std::string string(std::string_view key) const;
    bool boolean(std::string_view key) const;
    long long integer(std::string_view key) const;
    std::string number_string(std::string_view key) const;  // the exact text ("1e-3"; "12" for integer 12)
    IntervalD interval_d(std::string_view key) const;       // tight outward enclosure
    IntervalMp interval_mp(std::string_view key, Precision p) const;
    template <Interval I> I interval(std::string_view key, long bits) const {
        return IntervalTraits<I>::from_decimal(number_string(key), bits);
    }
    std::vector<std::string> number_strings(std::string_view key) const;
    std::vector<std::string> strings(std::string_view key) const;
    std::vector<std::vector<std::string>> matrix(std::string_view key) const;  // rows of number strings
    template <Interval I> std::vector<I> intervals(std::string_view key, long bits) const {
        std::vector<I> out;
        for (const auto& s : number_strings(key)) out.push_back(IntervalTraits<I>::from_decimal(s, bits));
        return out;
    }
    template <Interval I> std::vector<std::vector<I>> interval_matrix(std::string_view key, long bits) const {
        std::vector<std::vector<I>> out;
        for (const auto& row : matrix(key)) {
            out.emplace_back();
            for (const auto& s : row) out.back().push_back(IntervalTraits<I>::from_decimal(s, bits));
        }
        return out;
    }
    Case table(std::string_view key) const;
    std::vector<Case> tables(std::string_view key) const;

    // For cross-key validation in a verifier (VerifierSpec::validate, or the body): throws
    // CaseError naming this file, the key's line and the message, e.g.
    // fail("m", "must be at least n = 3"). verifier_main turns it into exit 3, no report.
    [[noreturn]] void fail(std::string_view key, const std::string& message) const;
    long line_of(std::string_view key) const;  // 0 if unknown

    Case(std::shared_ptr<const detail::CaseData> data, const detail::CaseNode* node);

private:
    std::shared_ptr<const detail::CaseData> data_;
    const detail::CaseNode* node_;
};

// The common keys of a case file, read without the verifier's schema (flowcert certify).
// Throws CaseError if the file cannot be read or the common keys are malformed.
struct CaseHeader {
    std::string file;
    std::string verifier;
    Verdict expect = Verdict::inconclusive;
    std::vector<std::string> labels;
    std::string description;
    long verifier_line = 0;  // line of the `verifier` key
};
CaseHeader read_case_header(const std::filesystem::path& file);
// The same from the text of a case (`file` is the name used in messages).
CaseHeader read_case_header_text(std::string_view text, const std::string& file);

}  // namespace flowcert::cert
