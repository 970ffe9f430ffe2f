// tools/recheck.hpp -- re-validating a certificate: its stored data (cert::recheck_certificate)
// and a fresh run of its verifier on the embedded case (cert::compare_rerun). Shared by
// `flowcert check` and `flowcert certify --check`.
#pragma once

#include <flowcert/cert.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace flowcert::tools {

enum class RerunMode {
    automatic,  // a fresh run when the recorded wall time is at most budget_seconds
    always,     // always (a missing verifier executable rejects the certificate)
    never,      // stored data only
};

struct RecheckSettings {
    RerunMode mode = RerunMode::automatic;
    double budget_seconds = 60;
    std::filesystem::path verifiers;  // directory of verifier executables
    std::string case_file;            // optional: the case file the certificate must belong to
};

struct Recheck {
    cert::RecheckResult result;
    std::string note;  // e.g. why no fresh run was made
};

Recheck recheck(const nlohmann::json& certificate, const RecheckSettings& settings);

// The result as the sidecar `<case>.check.json` that `flowcert certify --check` writes.
nlohmann::json recheck_json(const Recheck& r);

}  // namespace flowcert::tools
