#include "recheck.hpp"

#include <unistd.h>

#include <fstream>
#include <optional>
#include <regex>

#include "process.hpp"

namespace flowcert::tools {

namespace {

namespace fs = std::filesystem;

std::string portable(const fs::path& p) { return cert::portable_path(p.string()); }

struct RerunSettings {
    fs::path verifiers;
    double timeout = 0;
};

// Runs the certificate's verifier on its embedded case in a fresh directory; returns the fresh
// certificate, or an explanation of why there is none.
std::optional<nlohmann::json> fresh_run(const nlohmann::json& j, const RerunSettings& rs, std::string& why,
                                        bool& unavailable) {
    unavailable = false;
    static const std::regex name_re("[A-Za-z0-9_]+/[A-Za-z0-9_]+");
    static const std::regex stem_re("[A-Za-z0-9_.-]+");
    const std::string verifier = j["verifier"], stem = j["case"]["name"];
    if (!std::regex_match(verifier, name_re)) return why = "verifier name '" + verifier + "' is malformed", std::nullopt;
    if (!std::regex_match(stem, stem_re) || stem == "." || stem == "..")
        return why = "case name '" + stem + "' is malformed", std::nullopt;
    const fs::path exe = rs.verifiers / verifier;
    if (!fs::exists(exe)) {
        unavailable = true;
        return why = "no verifier executable " + portable(exe), std::nullopt;
    }
    char tmpl[] = "/tmp/flowcert-check-XXXXXX";
    if (!mkdtemp(tmpl)) return why = "cannot create a temporary directory", std::nullopt;
    const fs::path dir(tmpl);
    const fs::path case_file = dir / (stem + ".toml");
    {
        std::ofstream out(case_file, std::ios::binary);
        out << j["case"]["source"].get<std::string>();
    }
    const int rc = flowcert::tools::run_process(
        exe, {"--case", case_file.string(), "--out", (dir / "out").string(), "--precision",
              std::to_string(j["provenance"]["precision_bits"].get<long>()), "--quiet"},
        dir / "log.txt", rs.timeout);
    std::optional<nlohmann::json> fresh;
    const fs::path out = dir / "out" / (stem + ".json");
    if (rc == -1000) why = "the fresh run took longer than " + std::to_string(rs.timeout) + " s";
    else if (rc < 0 || !fs::exists(out)) why = "the fresh run ended with code " + std::to_string(rc) + " and no certificate";
    else {
        std::ifstream in(out);
        try {
            fresh = nlohmann::json::parse(in);
        } catch (const std::exception& e) {
            why = std::string("the fresh certificate is not JSON: ") + e.what();
        }
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
    return fresh;
}

}  // namespace

Recheck recheck(const nlohmann::json& j, const RecheckSettings& s) {
    Recheck out;
    out.result = cert::recheck_certificate(j, {.case_file = s.case_file});
    if (!out.result.problems.empty() || s.mode == RerunMode::never) return out;
    const double recorded = j["provenance"]["wall_time_seconds"].get<double>();
    if (s.mode == RerunMode::automatic && recorded > s.budget_seconds) {
        out.note = "no fresh run: the run took " + std::to_string(static_cast<long>(recorded)) +
                   " s, more than the budget (flowcert check --rerun)";
        return out;
    }
    RerunSettings rs{s.verifiers, std::max(600.0, 10 * recorded)};
    std::string why;
    bool unavailable = false;
    if (const auto fresh = fresh_run(j, rs, why, unavailable)) cert::compare_rerun(j, *fresh, out.result);
    else if (unavailable && s.mode == RerunMode::automatic) out.note = "no fresh run: " + why;
    else {
        out.result.problems.push_back("fresh run: " + why);
        out.result.accepted = false;
    }
    return out;
}

nlohmann::json recheck_json(const Recheck& r) {
    nlohmann::json checks = nlohmann::json::array();
    for (const auto& c : r.result.checks)
        checks.push_back({{"name", c.name}, {"role", std::string(cert::to_string(c.role))}, {"decisive", c.decisive},
                          {"rederived", c.how}});
    return {{"accepted", r.result.accepted}, {"rerun", r.result.rerun}, {"decisive", r.result.decisive()},
            {"decisive_rederived", r.result.decisive_rederived()}, {"problems", r.result.problems},
            {"summary", r.result.summary()}, {"note", r.note}, {"checks", checks}};
}

}  // namespace flowcert::tools
