#include <flowcert/cert.hpp>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

using namespace flowcert;
using namespace flowcert::cert;

namespace {

const CaseSchema schema = {
    {.name = "lambda", .type = KeyType::number, .description = "initialization scale", .constraint = Constraint::positive},
    {.name = "m", .type = KeyType::integer, .description = "neurons", .constraint = Constraint::positive},
    {.name = "init", .type = KeyType::string, .description = "initialization", .required = false, .choices = {"small", "random"}},
    {.name = "x", .type = KeyType::numbers, .description = "data", .required = false},
    {.name = "W", .type = KeyType::matrix, .description = "weights", .required = false},
    {.name = "gamma", .type = KeyType::number, .description = "leak", .required = false, .constraint = Constraint::unit_interval},
    {.name = "flag", .type = KeyType::boolean, .description = "a switch", .required = false},
    {.name = "solver", .type = KeyType::table, .description = "solver settings", .required = false,
     .fields = {{.name = "step", .type = KeyType::number, .description = "step size", .constraint = Constraint::positive}}},
    {.name = "instance", .type = KeyType::tables, .description = "instances", .required = false,
     .fields = {{.name = "seed", .type = KeyType::integer, .description = "seed"}}},
};

const std::string head = "verifier = \"demo/x\"\nexpect = \"certified\"\n";

std::string error_of(const std::string& text) {
    try {
        Case::parse(text, "case.toml", schema);
    } catch (const CaseError& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("a valid case file gives exact values through typed getters", "[cert][case]") {
    const Case c = Case::parse(head + "labels = [\"fast\"]\nprecision = 200\nlambda = \"1e-3\"\nm = 4\ninit = \"small\"\n"
                               "x = [\"0.5\", -1, \"8/3\"]\nW = [[\"1\", \"0\"], [0, 2]]\nflag = true\n"
                               "[solver]\nstep = \"1/64\"\n[[instance]]\nseed = 1\n[[instance]]\nseed = 2\n",
                               "case.toml", schema);
    CHECK(c.verifier() == "demo/x");
    CHECK(c.expect() == Verdict::certified);
    CHECK(c.labels() == std::vector<std::string>{"fast"});
    CHECK(c.precision_bits() == 200);
    CHECK(c.number_string("lambda") == "1e-3");
    const IntervalD l = c.interval_d("lambda");
    CHECK(certainly_less(IntervalD::from_decimal("0.000999"), l));
    CHECK(certainly_less(l, IntervalD::from_decimal("0.001001")));
    CHECK(width(c.interval_mp("lambda", Precision(300))) < 1e-90);
    CHECK(c.integer("m") == 4);
    CHECK(c.string("init") == "small");
    CHECK(c.number_strings("x") == std::vector<std::string>{"0.5", "-1", "8/3"});
    CHECK(c.matrix("W") == std::vector<std::vector<std::string>>{{"1", "0"}, {"0", "2"}});
    CHECK(c.interval_matrix<IntervalD>("W", 53).size() == 2);
    CHECK(c.boolean("flag"));
    CHECK(c.table("solver").number_string("step") == "1/64");
    REQUIRE(c.tables("instance").size() == 2);
    CHECK(c.tables("instance")[1].integer("seed") == 2);
    CHECK_FALSE(c.has("gamma"));
    CHECK(c.sha256().size() == 64);
}

TEST_CASE("case errors name the file, the line, the key and what was expected", "[cert][case]") {
    SECTION("missing key") {
        const auto e = error_of(head + "m = 3\n");
        CHECK_THAT(e, Catch::Contains("case.toml") && Catch::Contains("'lambda'") && Catch::Contains("missing required key"));
    }
    SECTION("wrong type") {
        const auto e = error_of(head + "lambda = \"1\"\nm = \"three\"\n");
        CHECK_THAT(e, Catch::Contains("case.toml:4") && Catch::Contains("'m'") && Catch::Contains("expected an integer"));
    }
    SECTION("non-numeric string") {
        const auto e = error_of(head + "lambda = \"abc\"\nm = 3\n");
        CHECK_THAT(e, Catch::Contains("case.toml:3") && Catch::Contains("'lambda'") && Catch::Contains("is not a number"));
    }
    SECTION("TOML float") {
        const auto e = error_of(head + "lambda = 1e-3\nm = 3\n");
        CHECK_THAT(e, Catch::Contains("'lambda'") && Catch::Contains("write the number as a string"));
    }
    SECTION("negative scale where positive is required") {
        const auto e = error_of(head + "lambda = \"-1e-3\"\nm = 3\n");
        CHECK_THAT(e, Catch::Contains("case.toml:3") && Catch::Contains("must be positive"));
    }
    SECTION("zero scale where positive is required") {
        CHECK_THAT(error_of(head + "lambda = \"0\"\nm = 3\n"), Catch::Contains("must be positive"));
    }
    SECTION("unknown key") {
        const auto e = error_of(head + "lambda = \"1\"\nm = 3\nlamda = \"2\"\n");
        CHECK_THAT(e, Catch::Contains("case.toml:5") && Catch::Contains("'lamda'") && Catch::Contains("unknown key"));
    }
    SECTION("unknown key in a sub-table") {
        CHECK_THAT(error_of(head + "lambda = \"1\"\nm = 3\n[solver]\nstep = \"1\"\nstpe = 2\n"),
                   Catch::Contains("'solver.stpe'") && Catch::Contains("unknown key"));
    }
    SECTION("choice not allowed") {
        CHECK_THAT(error_of(head + "lambda = \"1\"\nm = 3\ninit = \"large\"\n"), Catch::Contains("is not one of"));
    }
    SECTION("ragged matrix") {
        CHECK_THAT(error_of(head + "lambda = \"1\"\nm = 3\nW = [[\"1\"], [\"1\", \"2\"]]\n"), Catch::Contains("'W[1]'"));
    }
    SECTION("unit interval") {
        CHECK_THAT(error_of(head + "lambda = \"1\"\nm = 3\ngamma = \"3/2\"\n"), Catch::Contains("[0, 1]"));
    }
    SECTION("bad expect") {
        CHECK_THAT(error_of("verifier = \"demo/x\"\nexpect = \"maybe\"\nlambda = \"1\"\nm = 3\n"),
                   Catch::Contains("'expect'") && Catch::Contains("not one of"));
    }
    SECTION("empty file") { CHECK_THAT(error_of(""), Catch::Contains("empty")); }
    SECTION("binary garbage") {
        std::string g;
        for (int i = 0; i < 512; ++i) g += static_cast<char>((i * 7919 + 13) % 256);
        CHECK_THAT(error_of(g), Catch::Contains("case.toml") && (Catch::Contains("NUL") || Catch::Contains("not valid TOML")));
        CHECK_THAT(error_of("\xff\xfe\x80 = 1"), Catch::Contains("not valid TOML"));
    }
    SECTION("syntax error reports its line") {
        CHECK_THAT(error_of(head + "lambda = \"1\"\nm = = 3\n"), Catch::Contains("case.toml:4") && Catch::Contains("not valid TOML"));
    }
}

TEST_CASE("an oversized case file is rejected before it is parsed", "[cert][case]") {
    const std::filesystem::path dir = FLOWCERT_TEST_TMP;
    std::filesystem::create_directories(dir);
    const auto f = dir / "huge.toml";
    {
        std::ofstream out(f);
        out << head;
        const std::string line = "# " + std::string(1000, 'x') + "\n";
        for (int i = 0; i < 10 * 1024; ++i) out << line;  // ~10 MB
    }
    try {
        Case::load(f, schema);
        FAIL("no error");
    } catch (const CaseError& e) {
        CHECK_THAT(std::string(e.what()), Catch::Contains("too large"));
    }
    std::filesystem::remove(f);
}

TEST_CASE("keys dotted deeper than the TOML reader can recurse are refused before it parses them", "[cert][case]") {
    // issue 19 (robustness): [a.a.a....] or a.a.a... = 1 with 100,000 parts overflowed toml++'s stack (SIGSEGV)
    std::string deep;
    for (int i = 0; i < 100000; ++i) deep += i ? ".a" : "a";
    for (const std::string& body : {"[" + deep + "]\nb = 1\n", deep + " = 1\n", "solver = {" + deep + " = 1}\n",
                                    "[\"" + deep + "\"]\nx = 1\n" + deep + " = 2\n"}) {
        const std::string e = error_of(head + body);
        INFO(e.substr(0, 300));
        CHECK_THAT(e, Catch::Contains("case.toml:") && Catch::Contains("dotted key with more than 256 parts"));
    }
    // a quoted key with dots is one part, and the limit leaves every real key alone
    std::string d200;
    for (int i = 0; i < 200; ++i) d200 += i ? ".a" : "a";
    CHECK_THAT(error_of(head + "lambda = \"1\"\nm = 3\n\"" + deep + "\" = 1\n"), Catch::Contains("unknown key"));
    CHECK_THAT(error_of(head + "lambda = \"1\"\nm = 3\n" + d200 + " = 1\n"), Catch::Contains("unknown key"));
    CHECK_THAT(error_of(head + "lambda = \"1\"\nm = 3\n# " + deep + "\n"), Catch::Contains("no error"));
}

TEST_CASE("reading an undeclared key is a verifier bug, not a case error", "[cert][case]") {
    const Case c = Case::parse(head + "lambda = \"1\"\nm = 3\n", "case.toml", schema);
    CHECK_THROWS_AS(c.number_string("mu"), std::logic_error);
    CHECK_THROWS_AS(c.integer("lambda"), std::logic_error);
    CHECK_THROWS_AS(c.string("init"), std::logic_error);  // declared, optional, absent
    CHECK_THROWS_WITH(c.fail("m", "must be at least 5"), Catch::Contains("case.toml:4") && Catch::Contains("at least 5"));
}

TEST_CASE("the case header is read without the verifier schema", "[cert][case]") {
    const std::filesystem::path dir = FLOWCERT_TEST_TMP;
    std::filesystem::create_directories(dir);
    const auto f = dir / "header.toml";
    std::ofstream(f) << head << "labels = [\"slow\"]\nanything = \"goes\"\n";
    const CaseHeader h = read_case_header(f);
    CHECK(h.verifier == "demo/x");
    CHECK(h.expect == Verdict::certified);
    CHECK(h.labels == std::vector<std::string>{"slow"});
}
