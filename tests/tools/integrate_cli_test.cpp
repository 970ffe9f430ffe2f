#include <catch2/catch.hpp>
#include <flowcert/interval.hpp>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>

#include "integrate_cli.hpp"

using namespace flowcert;
using flowcert::tools::integrate_cli;

namespace {
const std::string kLorenz = "var:x,y,z; par:s,r,b; fun:s*(y-x),x*(r-z)-y,x*y-b*z;";
std::vector<std::string> lorenz_args(std::vector<std::string> extra) {
    std::vector<std::string> a{"--formula", kLorenz, "--param", "s=10", "--param", "r=28", "--param", "b=8/3",
                               "--init", "1,1,1"};
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
}
}  // namespace

TEST_CASE("flowcert integrate --json on Lorenz prints ok, steps and outward decimal bounds, exit 0") {
    auto r = integrate_cli(lorenz_args({"--time", "2", "--output-times", "1,3/2", "--radius", "1e-10", "--json"}));
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    REQUIRE(r.err.empty());
    const auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["status"] == "ok");
    REQUIRE(j["time"] == "2");
    REQUIRE(j["steps"].get<long>() > 0);
    REQUIRE(j["final"].size() == 3);
    for (const auto& b : j["final"]) {
        const IntervalD lo = IntervalD::from_decimal(b["lo"].get<std::string>());
        const IntervalD hi = IntervalD::from_decimal(b["hi"].get<std::string>());
        REQUIRE(certainly_less(lo, hi));
    }
    REQUIRE(j["outputs"].size() == 2);
    REQUIRE(j["outputs"][1]["time"] == "3/2");
}

TEST_CASE("flowcert integrate with --precision above 53 uses the MPFR back end") {
    auto r = integrate_cli({"--formula", "var:x; fun:-x;", "--init", "1", "--time", "1", "--precision", "200",
                            "--order", "30", "--json"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["precision"] == 200);
    REQUIRE(j["max_width"].get<double>() < 1e-50);
    const IntervalMp lo = IntervalMp::from_decimal(j["final"][0]["lo"].get<std::string>(), Precision(300));
    const IntervalMp hi = IntervalMp::from_decimal(j["final"][0]["hi"].get<std::string>(), Precision(300));
    const IntervalMp e = exp(IntervalMp::from_integer(-1, Precision(300)));
    REQUIRE(certainly_less(lo, e));
    REQUIRE(certainly_less(e, hi));
}

TEST_CASE("bad input to flowcert integrate exits 3 with a message and prints nothing on stdout") {
    struct Case { std::vector<std::string> args; const char* words; };
    const std::vector<Case> cases = {
        {{"--formula", "var:x,y; fun:x*(y-, x;", "--init", "1,2", "--time", "1"}, "position 18"},
        {{"--formula", "var:x; fun:x+q;", "--init", "1", "--time", "1"}, "undefined name 'q'"},
        {{"--formula", "var:x; par:a; fun:a*x;", "--init", "1", "--time", "1"}, "parameter 'a' has no value"},
        {{"--formula", "var:x; fun:-x;", "--param", "a=1", "--init", "1", "--time", "1"}, "no parameter 'a'"},
        {lorenz_args({"--time", "1"}), ""},  // valid control (checked below)
        {{"--formula", "var:x,y; fun:-y,x;", "--init", "1,2,3", "--time", "1"}, "3 values but the formula has 2"},
        {{"--formula", "var:x; fun:-x;", "--init", "1", "--time", "0"}, "must not be 0"},
        {{"--formula", "var:x; fun:-x;", "--init", "1", "--time", "-1", "--output-times", "0.5"}, "direction"},
        {{"--formula", "var:x; fun:-x;", "--init", "1", "--time", "ten"}, "not a number"},
        {{"--formula", "var:x; fun:-x;", "--init", "one", "--time", "1"}, "not a number"},
        {{"--formula", "var:x; fun:-x;", "--init", "1"}, "--time is required"},
        {{"--formula", "var:x; fun:-x;", "--init", "1", "--time", "1", "--order", "x"}, "integer"},
        {{"--formula", "var:x; fun:-x;", "--init", "1", "--time", "1", "--output-times", "2"}, "after --time"},
        {{"--formula", "var:x; fun:-x;", "--init", "1", "--time", "1", "--bogus"}, "unknown argument"},
        {{"--formula", "var:x; fun:-x;", "--init", "1", "--time", "1", "--radius", "-1"}, "negative"},
    };
    for (const auto& c : cases) {
        auto r = integrate_cli(c.args);
        if (std::string(c.words).empty()) {
            REQUIRE(r.exit_code == 0);
            continue;
        }
        INFO(c.words << " -> exit " << r.exit_code << " err: " << r.err << " out: " << r.out);
        CHECK(r.exit_code == 3);
        CHECK(r.out.empty());
        CHECK(r.err.find(c.words) != std::string::npos);
    }
}

TEST_CASE("flowcert integrate exits 2 with the failure reason when a step cannot be validated") {
    auto r = integrate_cli({"--formula", "var:x; fun:x^2;", "--init", "1", "--time", "2", "--json"});
    REQUIRE(r.exit_code == 2);
    const auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["status"] != "ok");
    REQUIRE_FALSE(j["reason"].get<std::string>().empty());
    REQUIRE(j["offending_set"].size() == 1);
    // a set on a kink goes through it and the contact is listed
    auto k = integrate_cli({"--formula", "var:x; fun:relu(x)-1;", "--init", "0", "--radius", "0.1", "--time", "1"});
    INFO(k.out << k.err);
    REQUIRE(k.exit_code == 0);
    REQUIRE(k.out.find("event: contact of x = 0") != std::string::npos);
}

TEST_CASE("a TOML case file gives the same fields as the options, and options override it") {
    const std::string path = "/tmp/flowcert_cli_test_case.toml";
    {
        std::ofstream f(path);
        f << "formula = \"var:x,y,z; par:s,r,b; fun:s*(y-x),x*(r-z)-y,x*y-b*z;\"\n"
          << "params = { s = 10, r = \"28\", b = \"8/3\" }\n"
          << "init = [\"1\", \"1\", 1]\ntime = \"1/2\"\noutput_times = [\"0.25\"]\n";
    }
    auto r = integrate_cli({path, "--json"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["time"] == "1/2");
    REQUIRE(j["outputs"].size() == 1);
    auto o = integrate_cli({path, "--time", "1", "--json"});
    REQUIRE(o.exit_code == 0);
    REQUIRE(nlohmann::json::parse(o.out)["time"] == "1");
    {
        std::ofstream f(path);
        f << "formula = \"var:x; fun:-x;\"\ninit = [1]\ntime = 0.1\n";
    }
    auto bad = integrate_cli({path});
    REQUIRE(bad.exit_code == 3);
    REQUIRE(bad.out.empty());
    REQUIRE(bad.err.find("not exact") != std::string::npos);
    std::remove(path.c_str());
}

// Issue 14 (containment failure): an output time within rounding of the final time was
// reported with the box of the final time. Reference: e^(10 t) at the exact decimal t,
// MPFR at 400 bits.
TEST_CASE("an output time within rounding of the final time is enclosed at its exact value") {
    struct Case { std::string time, out, precision; };
    const std::vector<Case> cases = {
        {"1", "0.9999999999999999", "53"},
        {"1.0000000000000003", "1.0000000000000002", "53"},
        {"1", "1", "53"},
        {"1", "0.99999999999999999999999999999999999", "100"},
        {"1.00000000000000000000000000000000002", "1.00000000000000000000000000000000001", "100"},
    };
    const Precision ref_bits(400);
    for (const auto& c : cases) {
        auto r = integrate_cli({"--formula", "var:x; fun:10*x;", "--init", "1", "--time", c.time, "--output-times",
                                c.out, "--precision", c.precision, "--json"});
        INFO(c.time << " / " << c.out << " at " << c.precision << " bits: " << r.err);
        REQUIRE(r.exit_code == 0);
        const auto j = nlohmann::json::parse(r.out);
        REQUIRE(j["outputs"].size() == 1);
        const auto& b = j["outputs"][0]["box"][0];
        const IntervalMp lo = IntervalMp::from_decimal(b["lo"].get<std::string>(), ref_bits);
        const IntervalMp hi = IntervalMp::from_decimal(b["hi"].get<std::string>(), ref_bits);
        const IntervalMp ref = exp(IntervalMp::from_integer(10, ref_bits) * IntervalMp::from_decimal(c.out, ref_bits));
        CHECK(certainly_less(lo, ref));
        CHECK(certainly_less(ref, hi));
        // the final box stays the final time's
        const auto& f = j["final"][0];
        const IntervalMp ref_T = exp(IntervalMp::from_integer(10, ref_bits) * IntervalMp::from_decimal(c.time, ref_bits));
        CHECK(certainly_less(IntervalMp::from_decimal(f["lo"].get<std::string>(), ref_bits), ref_T));
        CHECK(certainly_less(ref_T, IntervalMp::from_decimal(f["hi"].get<std::string>(), ref_bits)));
    }
    // an output time exactly after the final time, however close, is bad input
    auto r = integrate_cli({"--formula", "var:x; fun:10*x;", "--init", "1", "--time", "1", "--output-times",
                            "1.0000000000000002", "--json"});
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("after --time") != std::string::npos);
}
