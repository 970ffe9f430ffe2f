// `flowcert integrate --certificate` and its check (tools::check_integrate_certificate): honest
// certificates are accepted with every step re-validated; an edited enclosure, hint or formula
// is rejected.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "integrate_cli.hpp"

using flowcert::tools::check_integrate_certificate;
using flowcert::tools::integrate_cli;
using nlohmann::json;

namespace {
json certificate(std::vector<std::string> args) {
    // one file per process and call: ctest runs the test cases in parallel
    static int calls = 0;
    const std::string path = "/tmp/flowcert_integrate_certificate_test_" + std::to_string(getpid()) + "_" +
                             std::to_string(++calls) + ".json";
    std::remove(path.c_str());
    args.insert(args.end(), {"--certificate", path});
    const auto r = integrate_cli(args);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    std::ifstream in(path);
    REQUIRE(in.good());
    json j = json::parse(in);
    std::remove(path.c_str());
    return j;
}

std::string problems(const flowcert::tools::IntegrateCheck& c) {
    std::string s;
    for (const auto& p : c.problems) s += p + "\n";
    return s;
}

const std::vector<std::string> kLorenz = {"--formula", "var:x,y,z; par:s,r,b; fun:s*(y-x), x*(r-z)-y, x*y-b*z;",
                                          "--param", "s=10", "--param", "r=28", "--param", "b=8/3", "--init",
                                          "1,1,1", "--radius", "1e-10", "--time", "2", "--output-times", "1/2,1"};
}  // namespace

TEST_CASE("integrate certificates are accepted with every step re-validated: Lorenz, kinks, backward, interval "
          "parameter, an output time within rounding of T") {
    const std::vector<std::vector<std::string>> runs = {
        kLorenz,
        {"--formula", "var:x,v; par:k; fun:v, -k*relu(x) + relu(-x);", "--param", "k=[3.999,4.001]", "--init",
         "[0.4999,0.5001],0", "--time", "10"},
        {"--formula", "var:x,y; fun:-relu(x-y)+1, -max(x,y)+min(x,0.5);", "--init", "[0.9,1.1],[0.4,0.6]", "--time",
         "3"},
        {"--formula", "var:x; time:t; fun:-t*x;", "--init", "1", "--time", "-1.5", "--output-times", "-1"},
        // an output time within rounding of T: integrated to on a branch of the set
        {"--formula", "var:x; fun:10*x;", "--init", "1", "--time", "1", "--output-times", "0.99999999999999999"},
    };
    long hull = 0;
    for (const auto& args : runs) {
        const json j = certificate(args);
        const auto c = check_integrate_certificate(j);
        INFO(args[1] << "\n" << problems(c));
        CHECK(c.accepted);
        REQUIRE(c.checks.size() >= 4);
        CHECK(c.checks[1].find(std::to_string(j["steps"].size() - j["statistics"]["hull_steps"].get<long>()) +
                               " smooth steps") == 0);
        hull += j["statistics"]["hull_steps"].get<long>();
    }
    CHECK(hull > 0);  // hull steps were re-validated too
}

TEST_CASE("an edited integrate certificate is rejected: enclosures, hints, formula, arguments, malformed fields") {
    const json honest = certificate(kLorenz);
    REQUIRE(check_integrate_certificate(honest).accepted);
    json j = honest;
    std::string expect;
    SECTION("the final enclosure narrowed to one of its bounds") {
        j["claim"]["final"][1][0] = j["claim"]["final"][1][1];
        expect = "claim.final of y";
    }
    SECTION("an output enclosure narrowed") {
        j["claim"]["outputs"][0]["box"][2][1] = j["claim"]["outputs"][0]["box"][2][0];
        expect = "claim.outputs[0] of z";
    }
    SECTION("an a priori hint shrunk to the step's centre") {
        auto& s = j["steps"][5];
        for (std::size_t i = 0; i < 3; ++i) s["apriori"][i] = json::array({s["centre"][i], s["centre"][i]});
        expect = "step 5: the high-order enclosure test failed";
    }
    SECTION("a step size hint 4 times longer") {
        double h = std::strtod(j["steps"][3]["h"].get<std::string>().c_str(), nullptr) * 4;
        char b[40];
        std::snprintf(b, sizeof b, "%a", h);
        j["steps"][3]["h"] = b;
        expect = "step 3: ";
    }
    SECTION("the formula edited (b*z -> b*z + 1/1000)") {
        std::string f = j["arguments"][0];
        f.replace(f.find("b*z"), 3, "b*z+0.001");
        j["arguments"][0] = f;
        expect = "does not contain the re-derived";
    }
    SECTION("the time edited") {
        for (auto& a : j["arguments"])
            if (a == "--time=2") a = "--time=2.01";
        expect = "claim.time";
    }
    SECTION("a hint that is not a finite number, a record chain that loops, an output argument") {
        SECTION("nan") {
            j["steps"][2]["centre"][0] = "nan";
            expect = "steps[2].centre[0]";
        }
        SECTION("from") {
            j["steps"][2]["from"] = 7;
            expect = "steps[2].from: out of range";
        }
        SECTION("tube") {
            j["arguments"].push_back("--tube=/tmp/x.csv");
            expect = "output options";
        }
        SECTION("case file") {
            j["arguments"].push_back("case.toml");
            expect = "not of the form --option=value";
        }
    }
    const auto c = check_integrate_certificate(j);
    INFO(problems(c));
    CHECK_FALSE(c.accepted);
    CHECK(problems(c).find(expect) != std::string::npos);
}

TEST_CASE("damaged integrate certificates are rejected, never accepted or crashed on (seeded, 300 edits)") {
    const json honest = certificate({"--formula", "var:x,y; fun:y, -x - relu(x);", "--init", "[0.9,1.1],0", "--time",
                                     "2"});
    REQUIRE(check_integrate_certificate(honest).accepted);
    const std::vector<json> junk = {nullptr, 1e308, -1, 2147483648LL, "0x1p+1023", "-inf", "0x1.8p+1", json::array(),
                                    json::object(), json::array({"0x1p-1074", "0x1p-1074"}), true};
    std::mt19937 rng(7);
    int rejected = 0;
    for (int trial = 0; trial < 300; ++trial) {
        json j = honest;
        const std::size_t s = rng() % j["steps"].size();
        const std::vector<std::string> keys = {"kind", "from", "stop", "h", "apriori", "centre", "C", "B"};
        const std::string key = keys[rng() % keys.size()];
        if (!j["steps"][s].contains(key)) continue;
        json& target = j["steps"][s][key];
        if (target.is_array() && !target.empty() && rng() % 2) target[rng() % target.size()] = junk[rng() % junk.size()];
        else target = junk[rng() % junk.size()];
        if (j == honest) continue;
        const auto c = check_integrate_certificate(j);  // must not throw
        if (!c.accepted) {
            ++rejected;
            CHECK_FALSE(c.problems.empty());
        }
    }
    CHECK(rejected > 200);
}
