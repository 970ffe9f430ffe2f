#include <catch2/catch.hpp>
#include <flowcert/taylor.hpp>

using namespace flowcert;
using namespace flowcert::taylor;

TEST_CASE("the Lorenz formula parses into three variables, three parameters and three components") {
    auto r = parse_formula("var:x,y,z; par:s,r,b; fun:s*(y-x), x*(r-z)-y, x*y-b*z;");
    REQUIRE(r.ok());
    REQUIRE(r.field->dimension() == 3);
    REQUIRE(r.field->parameter_count() == 3);
    REQUIRE(r.field->parameters()[2] == "b");
    REQUIRE(r.field->outputs().size() == 3);
}

TEST_CASE("malformed formulas are rejected with the position of the error") {
    struct Case { const char* text; std::size_t pos; const char* words; };
    const Case cases[] = {
        {"var:x,y; fun:x*(y-, x;", 18, "operand"},
        {"var:x,y; fun:x+q, y;", 15, "undefined name 'q'"},
        {"var:x,y; fun:x, y, x;", 13, "3 components"},
        {"var:x; fun:x^1.5;", 13, "integer"},
        {"var:x; fun:foo(x);", 11, "unknown function"},
        {"var:x; fun:max(x,1);", 17, "max"},
        {"var:x fun:x;", 6, "expected ';'"},
        {"fun:x;", 0, "var:"},
        {"var:x; fun:x $ 2;", 13, "expected"},
        {"var:x; fun:(x+1;", 15, "expected ')'"},
    };
    for (const auto& c : cases) {
        auto r = parse_formula(c.text);
        INFO(c.text << " -> " << r.message(c.text));
        REQUIRE_FALSE(r.ok());
        CHECK(r.position == c.pos);
        CHECK(r.error.find(c.words) != std::string::npos);
        CHECK(r.message(c.text).find("position " + std::to_string(c.pos)) != std::string::npos);
    }
}

TEST_CASE("max(expr, 0) and max(0, expr) parse as relu and powers expand exactly") {
    auto r = parse_formula("var:x; fun: max(x,0) + max(0, x) + x^3 + x^(-2) + relu(x);");
    REQUIRE(r.ok());
    int relus = 0;
    for (const auto& n : r.field->nodes()) relus += n.op == Op::Relu;
    REQUIRE(relus == 3);
}
