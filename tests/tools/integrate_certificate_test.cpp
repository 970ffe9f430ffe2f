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

#include <flowcert/interval.hpp>

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

// ---- switching events, MPFR precision and the tube (issue 19 item 3 for every run) ----------

namespace {
using flowcert::IntervalMp;
using flowcert::Precision;

IntervalMp hex_interval(const json& lohi, long bits = 200) {
    return IntervalMp::bounds(std::strtod(lohi[0].get<std::string>().c_str(), nullptr),
                              std::strtod(lohi[1].get<std::string>().c_str(), nullptr), Precision(bits));
}

// An MPFR bound pair "%Ra" read exactly at `bits`.
IntervalMp mp_interval(const json& lohi, long bits) {
    mpfr_t lo, hi;
    mpfr_inits2(bits, lo, hi, static_cast<mpfr_ptr>(nullptr));
    REQUIRE(mpfr_set_str(lo, lohi[0].get<std::string>().c_str(), 0, MPFR_RNDN) == 0);
    REQUIRE(mpfr_set_str(hi, lohi[1].get<std::string>().c_str(), 0, MPFR_RNDN) == 0);
    const IntervalMp out = IntervalMp::from_mpfr(lo, hi, Precision(bits));
    mpfr_clears(lo, hi, static_cast<mpfr_ptr>(nullptr));
    return out;
}

// x' = relu(x) - 1 from 1/2: x = 1 - e^t / 2 until t* = ln 2, then x = ln 2 - t (closed form).
const std::vector<std::string> kReluDecay = {"--formula", "var:x; fun:relu(x)-1;", "--init", "1/2", "--time", "2"};

std::string rejection(const json& j) {
    const auto c = check_integrate_certificate(j);
    INFO(problems(c));
    CHECK_FALSE(c.accepted);
    return problems(c);
}
}  // namespace

TEST_CASE("switching events are claimed and re-derived: x' = relu(x) - 1 crosses at ln 2, backward too") {
    const Precision p(200);
    const IntervalMp ln2 = IntervalMp::ln2(p);
    SECTION("forward") {
        const json j = certificate(kReluDecay);
        const auto c = check_integrate_certificate(j);
        INFO(problems(c));
        REQUIRE(c.accepted);
        const json& ev = j["claim"]["events"];
        REQUIRE(ev.size() == 1);
        CHECK(ev[0]["kind"] == "crossing");
        CHECK(ev[0]["direction"] == -1);
        CHECK(ev[0]["expression"] == "x");
        CHECK(subset(ln2, hex_interval(ev[0]["time"])));
        CHECK(subset(ln2 - IntervalMp::from_integer(2, p), hex_interval(j["claim"]["final"][0])));
        CHECK(problems(c).empty());
        CHECK(c.checks[3].find("1 crossings and 0 contacts") == 0);
    }
    SECTION("backward: x' = relu(x) - 1 from x(0) = -1 to t = -2 crosses at t = -1, downward in the user's time") {
        const json j = certificate({"--formula", "var:x; fun:relu(x)-1;", "--init", "-1", "--time", "-2"});
        REQUIRE(check_integrate_certificate(j).accepted);
        const json& ev = j["claim"]["events"];
        REQUIRE(ev.size() == 1);
        CHECK(ev[0]["kind"] == "crossing");
        CHECK(ev[0]["direction"] == -1);
        CHECK(subset(IntervalMp::from_integer(-1, p), hex_interval(ev[0]["time"])));
        // x(-2) = e - ... : y(s) = 1 - e^{-(s-1)} at s = 2
        const IntervalMp exact = IntervalMp::from_integer(1, p) - exp(IntervalMp::from_integer(-1, p));
        CHECK(subset(exact, hex_interval(j["claim"]["final"][0])));
    }
}

TEST_CASE("bouncing and sliding kinks: every crossing and contact is claimed and re-derived") {
    // x'' = -4 relu(x) + relu(-x): a half-period pi/2 on x > 0 and pi on x < 0
    const json bounce = certificate({"--formula", "var:x,v; fun:v, -4*relu(x)+relu(-x);", "--init", "1,0", "--time", "12"});
    const auto b = check_integrate_certificate(bounce);
    INFO(problems(b));
    REQUIRE(b.accepted);
    std::size_t crossings = 0;
    for (const auto& e : bounce["claim"]["events"]) crossings += e["kind"] == "crossing";
    // from x = 1 at rest: x = cos 2t until pi/4, then half-periods pi (x < 0) and pi/2 (x > 0): zeros at
    // pi/4, 5 pi/4, 7 pi/4, 11 pi/4, 13 pi/4 < 12; each is a crossing of both relu(x) and relu(-x)
    CHECK(crossings == 10);
    // a set on the kink: y' = relu(x) - 2 relu(-x) + 1 with x0 in [-1e-6, 1e-6] (x' = 0): contacts
    const json slide = certificate({"--formula", "var:x,y; fun:0, relu(x)-2*relu(-x)+1;", "--init",
                                    "[-0.000001,0.000001],0", "--time", "1"});
    const auto s = check_integrate_certificate(slide);
    INFO(problems(s));
    REQUIRE(s.accepted);
    REQUIRE(!slide["claim"]["events"].empty());
    for (const auto& e : slide["claim"]["events"]) CHECK(e["kind"] == "contact");
}

TEST_CASE("an edited switching event is rejected with its field named") {
    const json honest = certificate(kReluDecay);
    REQUIRE(check_integrate_certificate(honest).accepted);
    json j = honest;
    json& ev = j["claim"]["events"][0];
    std::string expect;
    SECTION("the crossing time narrowed to its lower end") {
        ev["time"][1] = ev["time"][0];
        expect = "events[0].time";
    }
    SECTION("the crossing time moved off the kink") {
        ev["time"] = json::array({"0x1p-1", "0x1.4p-1"});  // [0.5, 0.625] misses ln 2 = 0.693
        expect = "events[0].time";
    }
    SECTION("the event deleted") {
        j["claim"]["events"] = json::array();
        expect = "no event claims it";
    }
    SECTION("the event claimed twice") {
        j["claim"]["events"].push_back(ev);
        expect = "claimed twice";
    }
    SECTION("the direction reversed") {
        ev["direction"] = 1;
        expect = "events[0].direction";
    }
    SECTION("the stretch it names") {
        ev["before"] = ev["before"].get<int>() - 1;
        expect = "events[0]: no stretch";
    }
    SECTION("another expression") {
        ev["expression"] = "x+1";
        expect = "events[0].expression";
    }
    SECTION("a hull step's a priori box shrunk to its centre") {
        int hull = -1;
        for (std::size_t k = 0; k < j["steps"].size() && hull < 0; ++k)
            if (j["steps"][k]["kind"] == "hull") hull = static_cast<int>(k);
        REQUIRE(hull >= 0);
        auto& s = j["steps"][hull];
        s["apriori"][0] = json::array({s["centre"][0], s["centre"][0]});
        expect = "step " + std::to_string(hull) + ": the hull step's enclosure test failed";
    }
    SECTION("a contact claimed a crossing") {
        json slide = certificate({"--formula", "var:x,y; fun:0, relu(x)-2*relu(-x)+1;", "--init",
                                  "[-0.000001,0.000001],0", "--time", "1"});
        slide["claim"]["events"][0]["kind"] = "crossing";
        slide["claim"]["events"][0]["direction"] = 1;
        j = slide;
        expect = "events[0].kind: the crossing of 'x' = 0 is not proven";
    }
    const std::string why = rejection(j);
    INFO(why);
    CHECK(why.find(expect) != std::string::npos);
}

TEST_CASE("damaged switching certificates never crash the check, and what it accepts is true (seeded, 400 edits)") {
    const json honest = certificate(kReluDecay);
    REQUIRE(check_integrate_certificate(honest).accepted);
    const Precision p(200);
    const IntervalMp ln2 = IntervalMp::ln2(p), final = ln2 - IntervalMp::from_integer(2, p);
    const std::vector<json> junk = {nullptr, -1, 0, 1, 3, 2147483648LL, "0x1p+1023", "nan", "0x1.62e42fefa39efp-1",
                                    "0x1.6p-1", "-0x1p-1", json::array(), json::array({"0x1p-1", "0x1p+0"}), "crossing",
                                    "contact", "hull", "smooth", true};
    std::mt19937 rng(19);
    int rejected = 0, accepted = 0;
    for (int trial = 0; trial < 400; ++trial) {
        json j = honest;
        json* target = nullptr;
        if (rng() % 2) {
            json& ev = j["claim"]["events"][0];
            const std::vector<std::string> keys = {"kind", "relu", "expression", "direction", "before", "after", "time"};
            target = &ev[keys[rng() % keys.size()]];
        } else {
            const std::size_t s = rng() % j["steps"].size();
            const std::vector<std::string> keys = {"kind", "from", "stop", "h", "apriori", "centre", "C", "B"};
            const std::string key = keys[rng() % keys.size()];
            if (!j["steps"][s].contains(key)) continue;
            target = &j["steps"][s][key];
        }
        if (target->is_array() && !target->empty() && rng() % 2) (*target)[rng() % target->size()] = junk[rng() % junk.size()];
        else *target = junk[rng() % junk.size()];
        if (j == honest) continue;
        const auto c = check_integrate_certificate(j);  // must not throw
        if (!c.accepted) {
            ++rejected;
            CHECK_FALSE(c.problems.empty());
            continue;
        }
        ++accepted;  // an edit that is still a proof: its claims must hold
        CHECK(subset(final, hex_interval(j["claim"]["final"][0])));
        const json& ev = j["claim"]["events"][0];
        CHECK(subset(ln2, hex_interval(ev["time"])));
    }
    INFO("accepted " << accepted << ", rejected " << rejected);
    CHECK(rejected > 250);
}

TEST_CASE("MPFR certificates are re-validated at their precision, an inexact or edited number is rejected") {
    // (at 80 bits the default tolerance 2^-80/100 is below what a first-order hull step can pass a kink with)
    const json j = certificate({"--formula", "var:x,v; fun:v, -4*relu(x)+relu(-x);", "--init", "1,0", "--time", "2",
                                "--precision", "80", "--output-times", "1/3", "--tolerance", "1e-16"});
    const auto c = check_integrate_certificate(j);
    INFO(problems(c));
    REQUIRE(c.accepted);
    CHECK(c.checks[0].find("MPFR at 80 bits") != std::string::npos);
    CHECK(j["claim"]["events"].size() == 2);  // x = 0 at pi/4: relu(x) and relu(-x)
    // x = cos(2t) until pi/4: at 1/3, x = cos(2/3)
    const IntervalMp x13 = cos(IntervalMp::from_integer(2, Precision(200)) / IntervalMp::from_integer(3, Precision(200)));
    CHECK(subset(x13, mp_interval(j["claim"]["outputs"][0]["box"][0], 80)));
    const std::string lo = j["claim"]["outputs"][0]["box"][0][0], hi = j["claim"]["outputs"][0]["box"][0][1];
    CHECK(lo.size() > 20);  // more than a double's digits
    json e = j;
    std::string expect;
    SECTION("a bound with more bits than the run's precision") {
        std::string s = e["claim"]["final"][0][0];
        s.insert(s.find('p'), "0000000001");
        e["claim"]["final"][0][0] = s;
        expect = "claim.final[0][0]: '" + s + "' is not exact at 80 bits";
    }
    SECTION("the output box narrowed to its upper bound") {
        e["claim"]["outputs"][0]["box"][0][0] = hi;
        expect = "claim.outputs[0] of x";
    }
    SECTION("the precision changed") {
        for (auto& a : e["arguments"])
            if (a == "--precision=80") a = "--precision=53";
        expect = "not exact at 53 bits";
    }
    const std::string why = rejection(e);
    INFO(why);
    CHECK(why.find(expect) != std::string::npos);
}

TEST_CASE("with --tube the tube is in the certificate and re-validated piece by piece") {
    std::vector<std::string> args = kReluDecay;
    const std::string tube = "/tmp/flowcert_integrate_certificate_test_tube_" + std::to_string(getpid()) + ".json";
    args.insert(args.end(), {"--tube", tube});
    const json honest = certificate(args);
    std::remove(tube.c_str());
    REQUIRE(honest["claim"]["tube"] == true);
    const auto c = check_integrate_certificate(honest);
    INFO(problems(c));
    REQUIRE(c.accepted);
    CHECK(problems(c).empty());
    CHECK(c.checks.back().find("tube: ") == 0);
    json j = honest;
    std::string expect;
    SECTION("a piece's box narrowed") {
        auto& b = j["steps"][3]["tube"][2]["box"][0];
        b[1] = b[0];
        expect = "steps[3].tube[2].box of x";
    }
    SECTION("a piece's time range widened") {
        auto& t = j["steps"][3]["tube"][2]["t"];
        t[1] = j["steps"][3]["tube"][4]["t"][1];
        expect = "steps[3].tube[2].t";
    }
    SECTION("a piece deleted") {
        j["steps"][3]["tube"].erase(0);
        expect = "steps[3].tube: 7 pieces";
    }
    const std::string why = rejection(j);
    INFO(why);
    CHECK(why.find(expect) != std::string::npos);
}

// Issue 19 / docs/integrator.md ("Not covered"): an output time that may equal T is integrated on
// a copy of the set; the copy's switching events were neither listed nor claimed. Closed form
// with a kink: x' = relu(-x) - 1 from 1/2 is x = 1/2 - t until t* = 1/2 exactly (a crossing of
// -x = 0 upward), then x = e^(1/2 - t) - 1.
TEST_CASE("the events of the copy integrated to an output time are listed, claimed and re-derived") {
    const flowcert::Precision bits(200);
    using flowcert::IntervalMp;
    auto mp = [&](const std::string& s) { return IntervalMp::from_decimal(s, bits); };
    auto contains = [&](const json& lohi, const IntervalMp& v) {  // {"lo": decimal, "hi": decimal}
        return !flowcert::certainly_less(v, mp(lohi["lo"].get<std::string>())) &&
               !flowcert::certainly_less(mp(lohi["hi"].get<std::string>()), v);
    };
    const std::vector<std::string> base = {"--formula", "var:x; fun:relu(-x)-1;", "--init", "1/2"};
    // 1. T = 1, output at 1: the copy crosses at t* = 1/2; the output box holds e^(-1/2) - 1
    {
        auto args = base;
        args.insert(args.end(), {"--time", "1", "--output-times", "1", "--json"});
        const auto r = integrate_cli(args);
        INFO(r.err);
        REQUIRE(r.exit_code == 0);
        const json out = json::parse(r.out)["outputs"][0];
        REQUIRE(out["events"].size() == 1);
        const json& e = out["events"][0];
        CHECK(e["kind"] == "crossing");
        CHECK(e["direction"] == 1);
        CHECK(e["expression"] == "-x");
        CHECK(contains(e["time"], mp("1/2")));
        CHECK(contains(out["box"][0], exp(mp("-1/2")) - mp("1")));
    }
    // 2. T = 1/2, output within rounding of it: the copy ends on the kink, a contact at 1/2
    {
        auto args = base;
        args.insert(args.end(), {"--time", "1/2", "--output-times", "0.4999999999999999999", "--json"});
        const auto r = integrate_cli(args);
        INFO(r.err);
        REQUIRE(r.exit_code == 0);  // it ran 10^6 hull steps of size [-w, w] to the step budget before
        const json out = json::parse(r.out)["outputs"][0];
        REQUIRE(out["events"].size() == 1);
        CHECK(out["events"][0]["kind"] == "contact");
        CHECK(contains(out["events"][0]["time"], mp("1/2")));
        CHECK(contains(out["box"][0], mp("0.5") - mp("0.4999999999999999999")));
    }
    // 3. the certificate claims the copy's event; the check re-derives it and refuses it edited or missing
    auto args = base;
    args.insert(args.end(), {"--time", "1", "--output-times", "1"});
    const json honest = certificate(args);
    REQUIRE(honest["claim"]["outputs"][0]["events"].size() == 1);
    const auto c = check_integrate_certificate(honest);
    INFO(problems(c));
    REQUIRE(c.accepted);
    auto rejected = [&](const json& j, const std::string& says) {
        const auto k = check_integrate_certificate(j);
        INFO(says << "\n" << problems(k));
        CHECK(!k.accepted);
        CHECK(problems(k).find(says) != std::string::npos);
    };
    json gone = honest;
    gone["claim"]["outputs"][0]["events"] = json::array();
    rejected(gone, "claim.outputs[0].events: the kink of '-x' straddles 0");
    json late = honest;
    late["claim"]["outputs"][0]["events"][0]["time"] = json::array({"0x1.2p-1", "0x1.4p-1"});  // [0.5625, 0.625]
    rejected(late, "claim.outputs[0].events[0].time");
    json twice = honest;
    twice["claim"]["outputs"][0]["events"].push_back(twice["claim"]["outputs"][0]["events"][0]);
    rejected(twice, "claim.outputs[0].events[1]: the event of '-x' in this stretch is claimed twice");
    json turned = honest;
    turned["claim"]["outputs"][0]["events"][0]["direction"] = -1;
    rejected(turned, "claim.outputs[0].events[0].direction");
}
