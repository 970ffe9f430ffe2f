// flowcert/cert/certificate.hpp -- the certificate: versioned JSON, HTML, Markdown, and
// re-validation from the stored data (`flowcert check`). Format: docs/certificate-format.md.
#pragma once

#if !defined(FLOWCERT_CERT_INTERNAL)
#error "include <flowcert/cert.hpp>, not the internal headers"
#endif

#include <nlohmann/json_fwd.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "report.hpp"

namespace flowcert::cert {

inline constexpr const char* certificate_format = "flowcert-certificate";
inline constexpr int certificate_format_version = 1;

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

std::string render_html(const Report& report);      // self-contained (inline CSS + SVG, no scripts)
std::string render_markdown(const Report& report);

struct WrittenFiles {
    std::filesystem::path json, html, markdown;
};
// Writes DIR/STEM.json, DIR/STEM.html and DIR/STEM.md (creating DIR).
WrittenFiles write_report(const Report& report, const std::filesystem::path& dir, const std::string& stem);

// `flowcert check`: re-validates a certificate from its own data.
struct RecheckResult {
    bool accepted = false;            // false until every step passed
    std::vector<std::string> problems;
    int checks_rechecked = 0;         // relations re-verified with exact rationals
    int checks_not_recheckable = 0;   // Relation::none
    std::string summary() const;
};
RecheckResult recheck_certificate(const nlohmann::json& j);

}  // namespace flowcert::cert
