// cert_forge MODE IN.json OUT.json: writes a forged copy of a certificate whose stored data stays
// self-consistent (statuses agree with the edited enclosures, the verdict with the statuses, the
// digest with everything), to show that `flowcert check` rejects it by its fresh run or by the case.
//   all-proven            every <= check that is not proven: its first enclosure moved to make the
//                         relation hold (lhs := [rhs.lo - 1e-9, rhs.lo - 1e-10]); every check without a
//                         relation that is not proven: status proven
//   relabel=NAME          the case name changed to NAME
// In every mode the verdict and its reason are recomputed, then the digest.
#include <flowcert/cert.hpp>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>

int main(int argc, char** argv) {
    namespace cert = flowcert::cert;
    if (argc != 4) {
        std::cerr << "usage: cert_forge all-proven|relabel=NAME IN.json OUT.json\n";
        return 3;
    }
    const std::string mode = argv[1];
    std::ifstream in(argv[2]);
    nlohmann::json j = nlohmann::json::parse(in);
    for (auto& c : j["checks"]) {
        if (mode == "all-proven" && c["status"] != "proven" && c["relation"] == "less_equal") {
            const std::string lo = c["enclosures"][1]["lo"];
            auto g17 = [](double x) {
                char b[40];
                std::snprintf(b, sizeof b, "%.17g", x);
                return std::string(b);
            };
            c["enclosures"][0]["lo"] = g17(std::stod(lo) - 1e-9);
            c["enclosures"][0]["hi"] = g17(std::stod(lo) - 1e-10);
            c["status"] = "proven";
            c["witness"] = "";
        }
        if (mode == "all-proven" && c["relation"] == "none" && c["status"] == "not_proven") c["status"] = "proven";
    }
    if (mode.rfind("relabel=", 0) == 0) j["case"]["name"] = mode.substr(8);
    const cert::Report r = cert::report_from_json(j);
    j["verdict"] = std::string(cert::to_string(r.verdict()));
    j["verdict_reason"] = r.verdict_reason();
    j["digest"] = cert::certificate_digest(j);
    std::ofstream(argv[3]) << j.dump(2) << "\n";
    std::cout << "forged " << argv[3] << ": verdict " << j["verdict"].get<std::string>() << "\n";
    return 0;
}
