#include <flowcert/cert.hpp>

#include <catch2/catch.hpp>
#include <gmpxx.h>

#include <random>

using namespace flowcert;
using namespace flowcert::cert;

namespace {
mpq_class q(const std::string& s) {
    mpq_class r;
    REQUIRE_FALSE(parse_rational(s, r.get_mpq_t()).has_value());
    return r;
}
mpq_class exact_lower(const IntervalD& x) { return mpq_class(x.lower()); }
mpq_class exact_upper(const IntervalD& x) { return mpq_class(x.upper()); }
}  // namespace

TEST_CASE("a relation check is proven, disproven or not proven exactly as the certainly predicates say", "[cert][checks]") {
    Report r;
    const auto a = IntervalD::from_decimal("1.5"), b = IntervalD::from_decimal("2.5");
    CHECK(r.conclusion("a<=b", "[t]").le(a, b).status == CheckStatus::proven);
    CHECK(r.conclusion("b<=a", "[t]").le(b, a).status == CheckStatus::disproven);
    CHECK(r.conclusion("hull<=a", "[t]").le(hull(a, b), a).status == CheckStatus::not_proven);
    CHECK(r.conclusion("a<a", "[t]").lt(IntervalD(1), IntervalD(1)).status == CheckStatus::disproven);
    CHECK(r.conclusion("1<=1", "[t]").le(IntervalD(1), IntervalD(1)).status == CheckStatus::proven);
    CHECK(r.conclusion("pos", "[t]").positive(a).status == CheckStatus::proven);
    CHECK(r.conclusion("zero not positive", "[t]").positive(IntervalD(0)).status == CheckStatus::disproven);
    CHECK(r.conclusion("zero nonneg", "[t]").nonnegative(IntervalD(0)).status == CheckStatus::proven);
    CHECK(r.conclusion("in", "[t]").inside(a, Operand::exact_interval("box", "1", "2")).status == CheckStatus::proven);
    CHECK(r.conclusion("out", "[t]").inside(a, Operand::exact_interval("box", "3", "4")).status == CheckStatus::disproven);
    CHECK(r.conclusion("partly", "[t]").inside(hull(a, b), Operand::exact_interval("box", "1", "2")).status ==
          CheckStatus::not_proven);
}

TEST_CASE("a decimal bound not representable in binary is compared exactly, not after rounding", "[cert][checks]") {
    Report r;
    // The enclosure of 1/10 straddles 1/10, so "0.1 <= 1/10" cannot be decided from it...
    const auto tenth = IntervalD::from_decimal("0.1");
    CHECK(r.conclusion("tenth", "[t]").le(tenth, exact("1/10")).status == CheckStatus::not_proven);
    // ...but is decided at higher precision against the exact bound 0.1000000000000000001.
    const auto tenth_mp = IntervalMp::from_decimal("0.1", Precision(200));
    CHECK(r.conclusion("tenth mp", "[t]").le(tenth_mp, exact("0.1000000000000000001")).status == CheckStatus::proven);
    CHECK(r.conclusion("tenth below", "[t]").lt(exact("0.0999999999999999999999"), tenth_mp).status == CheckStatus::proven);
}

TEST_CASE("stored decimal strings re-evaluate to the status found from the exact bounds", "[cert][checks]") {
    std::mt19937_64 gen(12345);
    std::uniform_real_distribution<double> u(-2, 2);
    std::uniform_int_distribution<int> bits(2, 300);
    for (int i = 0; i < 400; ++i) {
        Report r;
        const long p = bits(gen);
        // nearby intervals at random precisions: many cases where 17 digits are not enough
        const double x0 = u(gen), d = std::ldexp(u(gen), -static_cast<int>(p) / 2);
        const auto x = IntervalMp::from_decimal(std::to_string(x0), Precision(p));
        const auto y = x + IntervalMp::bounds(d, d, Precision(p));
        for (const auto* c : {&r.conclusion("le", "").le(x, y), &r.conclusion("lt", "").lt(y, x), &r.conclusion("pos", "").positive(y - x),
                              &r.conclusion("within", "").within(x, y, hull(x, y))}) {
            std::string why;
            CHECK(evaluate_relation(c->relation, c->enclosures, &why) == c->status);
        }
    }
}

TEST_CASE("a proven le check holds for the exact values inside its enclosures", "[cert][checks]") {
    // Soundness against GMP: the exact rationals lhs = a/b and rhs = c/d are enclosed by
    // from_decimal; a proven (disproven) verdict must agree with exact comparison.
    std::mt19937_64 gen(7);
    std::uniform_int_distribution<int> num(-1000, 1000), den(1, 997);
    for (int i = 0; i < 2000; ++i) {
        const std::string a = std::to_string(num(gen)) + "/" + std::to_string(den(gen));
        const std::string b = std::to_string(num(gen)) + "/" + std::to_string(den(gen));
        Report r;
        const auto& c = r.conclusion("le", "").le(IntervalD::from_decimal(a), IntervalD::from_decimal(b));
        if (c.status == CheckStatus::proven) CHECK(q(a) <= q(b));
        if (c.status == CheckStatus::disproven) CHECK(q(a) > q(b));
        if (q(a) != q(b)) CHECK(c.status != CheckStatus::not_proven);  // tight enclosures decide distinct rationals
        const auto& e = r.conclusion("exact", "").le(exact(a), exact(b));
        CHECK(e.status == (q(a) <= q(b) ? CheckStatus::proven : CheckStatus::disproven));
    }
}

TEST_CASE("stored enclosures contain the interval they were made from", "[cert][checks]") {
    Report r;
    const auto x = sqrt(IntervalD(2));
    const auto& c = r.conclusion("p", "").positive({"sqrt2", x});
    REQUIRE(c.enclosures.size() == 1);
    CHECK(c.enclosures[0].name == "sqrt2");
    CHECK(q(c.enclosures[0].lo) <= exact_lower(x));
    CHECK(q(c.enclosures[0].hi) >= exact_upper(x));
}

TEST_CASE("a not proven check names the widths of its enclosures", "[cert][checks]") {
    Report r;
    const auto& c = r.conclusion("wide", "[t]").le({"G", IntervalD::bounds(0, 2)}, exact("bound", "1"));
    CHECK(c.status == CheckStatus::not_proven);
    CHECK_THAT(c.reason, Catch::Contains("widths") && Catch::Contains("G ~ 2"));
}

TEST_CASE("record rejects a hand-built check whose status does not follow from its enclosures", "[cert][checks]") {
    Report r;
    Check c;
    c.name = "forged";
    c.relation = Relation::less_equal;
    c.enclosures = {{"a", "2", "3"}, {"b", "1", "1"}};
    c.status = CheckStatus::proven;
    CHECK_THROWS_AS(r.record(c), std::logic_error);
    c.status = CheckStatus::disproven;
    CHECK(r.record(c).status == CheckStatus::disproven);
}

TEST_CASE("a check name cannot be recorded twice", "[cert][checks]") {
    Report r;
    r.conclusion("h", "[t]").holds(true, "ok");
    CHECK_THROWS_AS(r.conclusion("h", "[t]").holds(true, "ok"), std::logic_error);
}

TEST_CASE("malformed exact operands are rejected", "[cert][checks]") {
    CHECK_THROWS_AS(exact("x", "1.2.3"), std::invalid_argument);
    CHECK_THROWS_AS(Operand::exact_interval("box", "2", "1"), std::invalid_argument);
}
