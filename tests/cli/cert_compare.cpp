// cert_compare [--ignore-provenance] A.json B.json: exit 0 if the two JSON documents (certificates, or certify's
// summary.json) are equal once the timing fields are removed, and the certificate's top-level
// "digest" (a SHA-256 over everything, timing included; `flowcert check` verifies it); otherwise
// prints the first differing path and exits 1 (exit 3 if a file cannot be read as JSON). Used by
// the MPI tests to compare certificates written by different numbers of ranks. Verifier notes that
// report a wall time ("sweep wall time 0.039 s", "wall time of search + certification: 0.0006 s")
// are compared with the number after "wall time" masked, and table columns named "seconds",
// "time (s)" or "wall ..." are masked, as are the values (not the labels) of a table named "timing".
// --ignore-provenance also drops the whole `provenance` object (build, commit, command line, case path), for
// certificates of two different builds (scripts/compare-certificates: behaviour unchanged by a refactor).
#include <nlohmann/json.hpp>

#include <fstream>
#include <regex>
#include <iostream>
#include <set>
#include <string>

namespace {

// The fields that depend on when and how long a run was, not on what it proved.
const std::set<std::string> kTimingKeys = {"started_utc", "wall_time_seconds"};

void strip(nlohmann::json& j) {
    if (j.is_object()) {
        for (const auto& k : kTimingKeys) j.erase(k);
        if (j.contains("columns") && j["columns"].is_array() && j.contains("rows") && j["rows"].is_array()) {
            static const std::regex timing_column("seconds|.*time \\(s\\)|wall.*", std::regex::icase);
            if (j.value("name", "") == "timing")
                for (auto& row : j["rows"])
                    for (std::size_t c = 1; row.is_array() && c < row.size(); ++c) row[c] = "<time>";
            const auto& cols = j["columns"];
            for (std::size_t c = 0; c < cols.size(); ++c)
                if (cols[c].is_string() && std::regex_match(cols[c].get<std::string>(), timing_column))
                    for (auto& row : j["rows"])
                        if (row.is_array() && c < row.size()) row[c] = "<time>";
        }
        for (auto& [key, v] : j.items()) strip(v);
    } else if (j.is_array()) {
        for (auto& v : j) strip(v);
    } else if (j.is_string()) {
        static const std::regex timing("wall time([^0-9]*)[0-9][0-9.eE+-]*");
        j = std::regex_replace(j.get<std::string>(), timing, "wall time$1<time>");
    }
}

bool first_difference(const nlohmann::json& a, const nlohmann::json& b, const std::string& path) {
    if (a.type() != b.type()) {
        std::cout << path << ": " << a.dump().substr(0, 200) << " vs " << b.dump().substr(0, 200) << "\n";
        return true;
    }
    if (a.is_object()) {
        for (const auto& [k, v] : a.items())
            if (!b.contains(k)) return std::cout << path << "/" << k << ": missing in the second\n", true;
            else if (first_difference(v, b.at(k), path + "/" + k)) return true;
        for (const auto& [k, v] : b.items())
            if (!a.contains(k)) return std::cout << path << "/" << k << ": missing in the first\n", true;
        return false;
    }
    if (a.is_array()) {
        if (a.size() != b.size()) return std::cout << path << ": " << a.size() << " vs " << b.size() << " entries\n", true;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (first_difference(a[i], b[i], path + "/" + std::to_string(i))) return true;
        return false;
    }
    if (a != b) {
        std::cout << path << ": " << a.dump().substr(0, 200) << " vs " << b.dump().substr(0, 200) << "\n";
        return true;
    }
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    const bool ignore_provenance = argc == 4 && std::string(argv[1]) == "--ignore-provenance";
    if (argc != 3 && !ignore_provenance) {
        std::cerr << "usage: cert_compare [--ignore-provenance] A.json B.json\n";
        return 3;
    }
    if (ignore_provenance) ++argv;
    nlohmann::json j[2];
    for (int k = 0; k < 2; ++k) {
        try {
            std::ifstream in(argv[k + 1]);
            j[k] = nlohmann::json::parse(in);
        } catch (const std::exception& e) {
            std::cerr << "cert_compare: " << argv[k + 1] << ": " << e.what() << "\n";
            return 3;
        }
        strip(j[k]);
        if (j[k].is_object()) j[k].erase("digest");
        if (ignore_provenance && j[k].is_object()) j[k].erase("provenance");
    }
    if (first_difference(j[0], j[1], "")) {
        std::cout << "cert_compare: " << argv[1] << " and " << argv[2] << " differ (timing fields ignored)\n";
        return 1;
    }
    return 0;
}
