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
