// Seeded, time-bounded fuzzing of the formula parser with `flowcert integrate`, and of the
// case reader (issue 19, "Robustness"): every input ends in a result or a bad-input message,
// never a crash, a hang or an internal error. Each part stops after its time budget (about a
// second) or its iteration count, whichever comes first; the seed is fixed, so a failure
// reproduces, and printed.
#include <catch2/catch.hpp>
#include <flowcert/cert.hpp>
#include <flowcert/taylor.hpp>

#include <chrono>
#include <random>
#include <string>
#include <vector>

#include "integrate_cli.hpp"

namespace {

using Clock = std::chrono::steady_clock;
constexpr double budget_seconds = 1.0;

struct Fuzzer {
    std::mt19937_64 rng;
    explicit Fuzzer(std::uint64_t seed) : rng(seed) {}
    std::size_t below(std::size_t n) { return n == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); }
    template <class T> const T& pick(const std::vector<T>& v) { return v[below(v.size())]; }

    // A random expression in x, y and the parameter a (depth-bounded).
    std::string expr(int depth) {
        static const std::vector<std::string> atoms = {"x", "y", "a", "t", "0", "1", "2.5", "1e-3", "1e400", "1e-400",
                                                        "1e309", "0.1", "3", "pi", "-1", "100000"};
        static const std::vector<std::string> unary = {"sqr", "sqrt", "exp", "log", "sin", "cos", "relu", "tanh",
                                                        "atan", "abs", "sigmoid", "logistic", "bogus"};
        static const std::vector<std::string> binary = {"+", "-", "*", "/", "^"};
        if (depth <= 0 || below(4) == 0) return pick(atoms);
        switch (below(5)) {
            case 0: return pick(unary) + "(" + expr(depth - 1) + ")";
            case 1: return (below(2) ? "max(" : "min(") + expr(depth - 1) + "," + expr(depth - 1) + ")";
            case 2: return "(" + expr(depth - 1) + ")";
            case 3: return "-" + expr(depth - 1);
            default: return expr(depth - 1) + pick(binary) + expr(depth - 1);
        }
    }
    // Byte-level damage: insert, delete or replace a few characters.
    std::string mutate(std::string s) {
        static const std::string alphabet = "xya01.e+-*/^(),;:[]= \t\n\x01\xff" "9";
        const int k = 1 + static_cast<int>(below(3));
        for (int i = 0; i < k; ++i) {
            const std::size_t at = below(s.size() + 1);
            switch (below(3)) {
                case 0: s.insert(at, 1, alphabet[below(alphabet.size())]); break;
                case 1: if (at < s.size()) s.erase(at, 1); break;
                default: if (at < s.size()) s[at] = alphabet[below(alphabet.size())];
            }
        }
        return s;
    }
};

}  // namespace

TEST_CASE("fuzz: formulas through the parser and flowcert integrate end in a result or exit 3") {
    Fuzzer fz(20261201);
    const auto start = Clock::now();
    int runs = 0, parsed = 0;
    // the deep cases of the issue first: nesting and sign chains far beyond any real formula
    // (formula, time, precision, expected exit or -1 for any of 0/2/3)
    struct Fixed {
        std::string formula, time, precision;
        int exit;
        std::string says = {};  // in the output
    };
    const std::vector<Fixed> fixed = {
        {"var:x; fun:" + std::string(30000, '(') + "x" + std::string(30000, ')') + ";", "0.1", "53", 3},
        {"var:x; fun:" + std::string(100000, '-') + "x;", "0.1", "53", 0},  // x' = x: an even count of signs
        {"var:x; fun:x+1e400;", "0.1", "53", 3}, {"var:x; fun:1e309*x;", "0.1", "53", 3},
        {"var:x; fun:x/0;", "0.1", "53", 3}, {"var:x; fun:log(0)*x;", "0.1", "53", 3},
        {"var:x; fun:sqrt(-1)+x;", "0.1", "53", 3},
        {"var:x; fun:-x;", "1e400", "53", 3}, {"var:x; fun:-x;", "1e-400", "53", 3},
        // at 64 bits these constants are in range: they must end by the budgets (a hang and steps of size 0
        // before); a final time beyond DBL_MAX is bad input at every precision
        {"var:x; fun:x+1e400;", "0.1", "64", 2, "below the minimum"},
        {"var:x; fun:1e309*x;", "1e-300", "64", 2, "below the minimum"},
        {"var:x; fun:-x;", "1e309", "64", 3}, {"var:x; fun:-x;", "1e400", "64", 3},
    };
    // times and precisions of the random formulas: mostly short, some at and beyond the double range
    const std::vector<std::string> times = {"0.1", "0.1", "0.1", "0.1", "-0.1", "1e300", "1e309", "1e-300", "1e-400"};
    for (std::size_t i = 0; runs < 4000; ++i) {
        if (std::chrono::duration<double>(Clock::now() - start).count() > budget_seconds && i >= fixed.size()) break;
        std::string formula = i < fixed.size() ? fixed[i].formula
                                               : "var:x,y; par:a; fun:" + fz.expr(5) + "," + fz.expr(4) + ";";
        if (i >= fixed.size() && fz.below(2)) formula = fz.mutate(formula);
        const auto p = flowcert::taylor::parse_formula(formula);
        parsed += p.ok();
        ++runs;
        if (!p.ok() && fz.below(4) != 0 && i >= fixed.size()) continue;  // most parse errors need no run
        const bool one = formula.find("var:x;") == 0;
        const std::string time = i < fixed.size() ? fixed[i].time : fz.pick(times);
        const std::string bits = i < fixed.size() ? fixed[i].precision : fz.below(6) == 0 ? "64" : "53";
        std::vector<std::string> args = {"--formula", formula, "--init", one ? "0.5" : "0.5,0.25", "--time", time,
                                         "--precision", bits, "--max-steps", "200", "--max-seconds", "0.05"};
        if (!one) args.insert(args.end(), {"--param", "a=1"});
        const auto t0 = Clock::now();
        const auto r = flowcert::tools::integrate_cli(args);
        const double took = std::chrono::duration<double>(Clock::now() - t0).count();
        INFO("formula: " << formula.substr(0, 200) << " --time " << time << " --precision " << bits << "\nexit "
                         << r.exit_code << " after " << took << " s\n" << r.err.substr(0, 400) << r.out.substr(0, 300));
        REQUIRE((r.exit_code == 0 || r.exit_code == 2 || r.exit_code == 3));
        if (i < fixed.size()) {
            CHECK(r.exit_code == fixed[i].exit);
            CHECK(r.out.find(fixed[i].says) != std::string::npos);
        }
        if (r.exit_code == 3) CHECK(!r.err.empty());
        CHECK(took < 5);  // --max-seconds 0.05: a run ends soon after its budget
    }
    INFO(runs << " formulas, " << parsed << " parsed");
    CHECK(runs >= 50);
}

TEST_CASE("fuzz: damaged case files are read or refused with a CaseError naming the file") {
    using namespace flowcert::cert;
    const CaseSchema schema = {
        {.name = "lambda", .type = KeyType::number, .description = "a rate", .constraint = Constraint::positive},
        {.name = "m", .type = KeyType::integer, .description = "a count", .required = false},
        {.name = "gd_iterations", .type = KeyType::integer, .description = "a count", .required = false},
        {.name = "init", .type = KeyType::numbers, .description = "a vector", .required = false},
        {.name = "w", .type = KeyType::matrix, .description = "a matrix", .required = false},
        {.name = "sub", .type = KeyType::table, .description = "a table", .required = false,
         .fields = {{.name = "c", .type = KeyType::number, .description = "a constant"}}},
    };
    const std::string base = "verifier = \"demo/x\"\nexpect = \"certified\"\nlambda = \"1e-3\"\nm = 5\n"
                             "gd_iterations = 10\ninit = [\"1\", \"-2\", 3]\nw = [[\"1\", \"0\"], [\"0\", \"1\"]]\n"
                             "[sub]\nc = \"8/3\"\n";
    const std::vector<std::string> values = {"\"1e-400\"", "\"1e400\"", "-1", "100000000000", "\"nan\"", "\"inf\"",
                                             "1.5", "[[[[", "\"\"", "{}", "[]", "\"0x1p3\"", "9223372036854775807",
                                             "\"1/0\"", "true", "{a.a.a.a.a.a = 1}", "[[[[[[[[[[1]]]]]]]]]]"};
    // The inputs of the issue must be refused naming the key.
    for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
             {"lambda", "\"1e-400\""}, {"gd_iterations", "-1"}, {"m", "100000000000"}}) {
        std::string text = base;
        const std::size_t at = text.find(key + " = ");
        text.replace(at, text.find('\n', at) - at, key + " = " + value);
        try {
            (void)Case::parse(text, "fuzz.toml", schema);
            FAIL("accepted " << key << " = " << value);
        } catch (const CaseError& e) {
            CHECK(e.key() == key);
            CHECK(e.line() > 0);
        }
    }
    // dotted keys of 100,000 parts overflowed toml++'s stack (SIGSEGV): refused naming the line
    std::string deep;
    for (int i = 0; i < 100000; ++i) deep += i ? ".a" : "a";
    for (const std::string& tail : {"[" + deep + "]\nb = 1\n", deep + " = 1\n", "sub = {" + deep + " = 1}\n"}) {
        try {
            (void)Case::parse(base + tail, "fuzz.toml", schema);
            FAIL("accepted a dotted key of 100,000 parts");
        } catch (const CaseError& e) {
            CHECK(e.line() == 10);
            CHECK(std::string(e.what()).find("fuzz.toml:10: ") == 0);
        }
    }
    Fuzzer fz(7);
    const auto start = Clock::now();
    int runs = 0, accepted = 0;
    while (runs < 20000 && std::chrono::duration<double>(Clock::now() - start).count() < budget_seconds) {
        std::string text = base;
        if (fz.below(2)) {  // replace one value by a hostile one
            std::vector<std::size_t> eqs;
            for (std::size_t p = text.find(" = "); p != std::string::npos; p = text.find(" = ", p + 1)) eqs.push_back(p);
            const std::size_t at = fz.pick(eqs) + 3;
            text.replace(at, text.find('\n', at) - at, fz.pick(values));
        } else {
            text = fz.mutate(text);
        }
        ++runs;
        try {
            (void)Case::parse(text, "fuzz.toml", schema);
            ++accepted;
        } catch (const CaseError& e) {
            INFO(text);
            CHECK(std::string(e.what()).find("fuzz.toml") == 0);
        }
    }
    INFO(runs << " case files, " << accepted << " accepted");
    CHECK(runs >= 100);
    CHECK(accepted > 0);
}
