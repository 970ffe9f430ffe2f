// `flowcert check CERT.json`: re-validates a certificate from its own data (schema,
// provenance, digest, every recorded relation with exact rationals, the verdict).
#include <flowcert/cert.hpp>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "command_registry.hpp"

namespace {

// Certificates nest a few levels; the digest and re-check recurse per level, so deeper
// input is refused before any recursive processing (an iterative scan of the text).
constexpr int max_json_depth = 64;

// The deepest nesting of [ and { outside strings, stopping once it passes `limit`.
int json_nesting_depth(const std::string& text, int limit) {
    int depth = 0, deepest = 0;
    bool in_string = false, escaped = false;
    for (const char c : text) {
        if (in_string) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
            if (deepest > limit) break;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return deepest;
}

int run_check(int argc, char** argv) {
    namespace ec = flowcert::cert::exit_code;
    CLI::App app{"Re-validate certificates from their stored data, without re-running anything.\n"
                 "Exit 0 if every certificate is accepted, 1 if one is rejected, 3 if one cannot be read."};
    std::vector<std::string> files;
    bool quiet = false;
    app.add_option("certificates", files, "certificate JSON files")->required();
    app.add_flag("--quiet", quiet, "print only rejections");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : ec::bad_input;
    }
    int rc = 0;
    for (const auto& f : files) {
        std::error_code err;
        if (!std::filesystem::is_regular_file(f, err)) {
            std::cerr << f << ": cannot read: not a regular file\n";
            rc = std::max(rc, ec::bad_input);
            continue;
        }
        const auto size = std::filesystem::file_size(f, err);
        if (err) {
            std::cerr << f << ": cannot read: " << err.message() << "\n";
            rc = std::max(rc, ec::bad_input);
            continue;
        }
        if (size > (std::uintmax_t{256} << 20)) {
            std::cerr << f << ": too large for a certificate (" << size << " bytes)\n";
            rc = std::max(rc, ec::bad_input);
            continue;
        }
        std::ifstream in(f, std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        if (json_nesting_depth(ss.str(), max_json_depth) > max_json_depth) {
            std::cerr << f << ": not a certificate: JSON nested deeper than " << max_json_depth << " levels\n";
            rc = std::max(rc, ec::bad_input);
            continue;
        }
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(ss.str());
        } catch (const std::exception& e) {
            std::cerr << f << ": not JSON: " << e.what() << "\n";
            rc = std::max(rc, ec::bad_input);
            continue;
        }
        const auto r = flowcert::cert::recheck_certificate(j);
        if (!r.accepted) {
            std::cout << f << ": " << r.summary() << "\n";
            if (rc == 0) rc = ec::refuted;
        } else if (!quiet) {
            std::cout << f << ": " << r.summary() << " (verdict " << j["verdict"].get<std::string>() << ")\n";
        }
    }
    return rc;
}

}  // namespace

FLOWCERT_REGISTER_COMMAND(check, "re-validate certificates (JSON) from their stored exact data", run_check);
