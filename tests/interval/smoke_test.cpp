#include <catch2/catch.hpp>
#include <flowcert/interval.hpp>

using namespace flowcert;

TEST_CASE("the rounding self-test passes on this machine") {
    const auto r = run_rounding_self_test();
    INFO(r.summary());
    REQUIRE(r.passed);
}

TEST_CASE("from_decimal 0.1 encloses one tenth and is one ulp wide") {
    const auto x = IntervalD::from_decimal("0.1");
    REQUIRE(x.lower() < x.upper());
    REQUIRE(rounding::next_up(x.lower()) == x.upper());
    const auto m = IntervalMp::from_decimal("0.1", Precision(200));
    REQUIRE(width(m) < 1e-59);
}
