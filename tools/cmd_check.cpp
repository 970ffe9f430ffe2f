// `flowcert check CERT.json...`: re-validates certificates. From the stored data: schema, digest,
// provenance, the embedded case (its SHA-256 and the keys it states), every relation with exact
// rationals, every implication from its premises, the verdict from the roles and statuses. Then,
// by default for certificates whose run took at most --rerun-budget seconds (always with --rerun,
// never with --no-rerun), a fresh run of the verifier on the embedded case at the recorded
// precision, compared check by check (docs/certificate-format.md, "What flowcert check verifies").
#include <flowcert/cert.hpp>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "command_registry.hpp"
#include "process.hpp"
#include "recheck.hpp"

namespace {

namespace fs = std::filesystem;
namespace cert = flowcert::cert;

// Deepest nesting of arrays/objects in a JSON text, scanned without recursion (strings skipped).
std::size_t json_depth(const std::string& text) {
    std::size_t depth = 0, deepest = 0;
    bool in_string = false, escaped = false;
    for (char c : text) {
        if (in_string) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') in_string = false;
            continue;
        }
        if (c == '"') in_string = true;
        else if (c == '[' || c == '{') deepest = std::max(deepest, ++depth);
        else if ((c == ']' || c == '}') && depth > 0) --depth;
    }
    return deepest;
}

int run_check(int argc, char** argv) {
    namespace ec = cert::exit_code;
    CLI::App app{"Re-validate certificates: from their stored data (schema, digest, embedded case, relations with exact\n"
                 "rationals, implications, verdict) and by a fresh run of the verifier on the embedded case, compared\n"
                 "check by check. Exit 0 if every certificate is accepted, 1 if one is rejected, 3 if one cannot be read."};
    std::vector<std::string> files;
    std::string case_file, verifiers_dir;
    bool quiet = false, rerun = false, no_rerun = false;
    double budget = 60;
    app.add_option("certificates", files, "certificate JSON files")->required();
    app.add_option("--case", case_file, "the case file the certificate must belong to (its SHA-256 and name)");
    auto* o_rerun = app.add_flag("--rerun", rerun, "always re-run the verifier on the embedded case and compare");
    auto* o_no = app.add_flag("--no-rerun", no_rerun, "never re-run (stored data only)");
    o_rerun->excludes(o_no);
    app.add_option("--rerun-budget", budget,
                   "re-run by default when the recorded wall time is at most this many seconds (default 60)")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--verifiers", verifiers_dir, "directory of verifier executables (default: ../verifiers next to flowcert)");
    app.add_flag("--quiet", quiet, "print only rejections");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : ec::bad_input;
    }
    if (!case_file.empty() && files.size() != 1) {
        std::cerr << "flowcert check: --case needs exactly one certificate\n";
        return ec::bad_input;
    }
    using flowcert::tools::RerunMode;
    const flowcert::tools::RecheckSettings settings{
        rerun ? RerunMode::always : no_rerun ? RerunMode::never : RerunMode::automatic, budget,
        verifiers_dir.empty() ? flowcert::tools::default_verifiers_dir() : fs::path(verifiers_dir), case_file};
    int rc = 0;
    for (const auto& f : files) {
        std::error_code err;
        if (!fs::is_regular_file(f, err)) {
            std::cerr << f << ": cannot read: not a regular file\n";
            rc = std::max(rc, ec::bad_input);
            continue;
        }
        const auto size = fs::file_size(f, err);
        if (err || size > (std::uintmax_t{256} << 20)) {
            std::cerr << f << ": " << (err ? "cannot read: " + err.message() : "too large for a certificate") << "\n";
            rc = std::max(rc, ec::bad_input);
            continue;
        }
        std::ifstream in(f, std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        const std::string text = ss.str();
        constexpr std::size_t max_depth = 64;  // a certificate nests at most ~6 levels
        if (json_depth(text) > max_depth) {
            std::cerr << f << ": not a certificate: JSON nested deeper than " << max_depth << " levels\n";
            rc = std::max(rc, ec::bad_input);
            continue;
        }
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(text);
        } catch (const std::exception& e) {
            std::cerr << f << ": not JSON: " << e.what() << "\n";
            rc = std::max(rc, ec::bad_input);
            continue;
        }
        const auto checked = flowcert::tools::recheck(j, settings);
        const auto& r = checked.result;
        const std::string note = checked.note.empty() ? "" : " (" + checked.note + ")";
        if (!r.accepted) {
            std::cout << f << ": " << r.summary() << "\n";
            if (rc == 0) rc = ec::refuted;
        } else if (!quiet) {
            std::cout << f << ": " << r.summary() << " (verdict " << j["verdict"].get<std::string>() << ")" << note << "\n";
        }
    }
    return rc;
}

}  // namespace

FLOWCERT_REGISTER_COMMAND(check, "re-validate certificates: stored exact data, embedded case, and a fresh run", run_check);
