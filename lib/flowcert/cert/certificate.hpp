// flowcert/cert/certificate.hpp -- the certificate: versioned JSON, HTML, Markdown, and
// re-validation from the stored data (`flowcert check`). Format: docs/certificate-format.md.
#pragma once

#if !defined(FLOWCERT_CERT_INTERNAL)
#error "include <flowcert/cert.hpp>, not the internal headers"
#endif

#include <nlohmann/json_fwd.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "report.hpp"

namespace flowcert::cert {

inline constexpr const char* certificate_format = "flowcert-certificate";
inline constexpr int certificate_format_version = 3;  // 3: checks carry reconstructed, case_claim

// The certificate as JSON, including its computed verdict and an integrity digest
// (SHA-256 of the canonical dump of everything else).
nlohmann::json to_json(const Report& report);
// Back to a Report (throws std::invalid_argument naming the field on malformed input).
// The verdict of the result is recomputed from the checks, not read.
Report report_from_json(const nlohmann::json& j);
// Schema problems of a certificate (empty if it is well formed).
std::vector<std::string> schema_problems(const nlohmann::json& j);
// SHA-256 of the canonical dump of `j` without its "digest" member.
std::string certificate_digest(const nlohmann::json& j);

// What a report page knows beyond the certificate: where the index is and what a fresh
// `flowcert check` found (the sidecar <case>.check.json that `flowcert certify --check` writes).
struct PageContext {
    std::string index_href;  // link back to the index page (e.g. "../index.html#kh/theorem4_example1"); empty: none
    // check name -> how the fresh check re-derived it ("rerun", "relation", "implied_by", "none");
    // empty: not re-checked (the page then marks what is re-derivable from the stored data)
    std::map<std::string, std::string> rederived;
    std::string recheck_summary;  // one sentence of the re-check (e.g. "35 of 35 decisive checks recomputed ...")
    bool recheck_accepted = true;
};
// The case page: a summary first (claim, verdict, decisive numbers, main plot), then the checks
// by role (re-checkable ones marked), then the details (plots, tables, notes, provenance, the
// embedded case file). Self-contained (inline CSS + SVG, no scripts); long sections collapse.
std::string render_html(const Report& report, const PageContext& page = {});
std::string render_markdown(const Report& report, const PageContext& page = {});

struct WrittenFiles {
    std::filesystem::path json, html, markdown;
};
// Writes DIR/STEM.json, DIR/STEM.html and DIR/STEM.md (creating DIR).
WrittenFiles write_report(const Report& report, const std::filesystem::path& dir, const std::string& stem);
// Rewrites DIR/STEM.html and DIR/STEM.md of a written report with a page context (the JSON is
// left as it is).
void write_pages(const Report& report, const std::filesystem::path& dir, const std::string& stem, const PageContext& page);

// `flowcert check`: re-validates a certificate from its own data, and (compare_rerun) against
// a fresh run of the verifier on the embedded case.
// How one check was re-derived by the checker:
//   relation   - its status re-evaluated from the stored enclosures with exact rationals (this shows the
//                stored numbers are consistent, not that they are right: an edited enclosure stays consistent)
//   implied_by - its status re-derived from the stored statuses of its premises
//   rerun      - recomputed by a fresh run of the verifier on the embedded case: same status and enclosures
//   none       - not re-derived
struct CheckRederivation {
    std::string name;
    Role role = Role::conclusion;
    bool decisive = false;    // counts for the verdict (not evidence, not trivially true)
    std::string how = "none";
};
struct RecheckOptions {
    std::string case_file;  // if set: its bytes must be the embedded case (SHA-256) and its stem the case name
};
struct RecheckResult {
    bool accepted = false;            // false until every step passed
    std::vector<std::string> problems;
    std::vector<CheckRederivation> checks;
    bool rerun = false;               // compare_rerun was applied
    int count(const std::string& how, bool decisive_only = true) const;
    int decisive() const;
    int decisive_rederived() const;   // recomputed by a fresh run (compare_rerun)
    std::string summary() const;
};
RecheckResult recheck_certificate(const nlohmann::json& j, const RecheckOptions& options = {});
// Compares a certificate with the one a fresh run of its verifier wrote for the embedded case
// (same verifier, case, precision): verdict, and for every check role, status, relation,
// enclosures, premises and the trivially-true label. Marks matching checks "rerun"; every
// difference is a problem (and the certificate is rejected).
void compare_rerun(const nlohmann::json& stored, const nlohmann::json& fresh, RecheckResult& result);

}  // namespace flowcert::cert
