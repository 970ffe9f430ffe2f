// C99 hexadecimal floats as exact input (issue 18): "0x1.999999999999ap-4" is the float64 nearest 0.1,
// exactly, so float64 data from numpy / PyTorch (float.hex()) enters an enclosure without rounding.
#include <catch2/catch.hpp>
#include <flowcert/interval.hpp>

#include <gmp.h>

#include <cstdio>
#include <random>
#include <string>

using namespace flowcert;

namespace {
struct Q {
    mpq_t v;
    Q() { mpq_init(v); }
    ~Q() { mpq_clear(v); }
};
std::string hex(double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%a", x);
    return buf;
}
}  // namespace

TEST_CASE("a hex float parses to the exact value of the double it denotes") {
    std::mt19937_64 rng(18);
    std::uniform_real_distribution<double> u(-1, 1);
    std::uniform_int_distribution<int> e(-1070, 1020);
    for (int i = 0; i < 2000; ++i) {
        const double x = std::ldexp(u(rng), e(rng));
        Q q, r;
        REQUIRE_FALSE(parse_rational(hex(x), q.v).has_value());
        mpq_set_d(r.v, x);  // exact: every double is a dyadic rational
        INFO(hex(x));
        REQUIRE(mpq_equal(q.v, r.v));
        const IntervalD d = IntervalD::from_decimal(hex(x));
        REQUIRE(d.lower() == x);
        REQUIRE(d.upper() == x);
    }
}

TEST_CASE("hex floats: Python's float.hex spellings, signs, no exponent, and the nearest double to 0.1") {
    REQUIRE(IntervalD::from_decimal("0x1.999999999999ap-4").lower() == 0.1);
    REQUIRE(IntervalD::from_decimal("0x0.0p+0").upper() == 0.0);
    REQUIRE(IntervalD::from_decimal("-0x1.8p+1").lower() == -3.0);
    REQUIRE(IntervalD::from_decimal("+0X1P3").lower() == 8.0);
    REQUIRE(IntervalD::from_decimal("0x10").lower() == 16.0);
    REQUIRE(IntervalD::from_decimal("0x.8").lower() == 0.5);
    // a hex float that is not a double (too many digits) is enclosed, not rounded
    const IntervalD x = IntervalD::from_decimal("0x1.00000000000000001p0");
    REQUIRE(x.lower() == 1.0);
    REQUIRE(x.upper() > 1.0);
    const IntervalMp m = IntervalMp::from_decimal("0x1.999999999999ap-4", Precision(200));
    REQUIRE(width(m) == 0);
}

TEST_CASE("malformed hex floats are refused with a message") {
    for (const char* bad : {"0x", "0xg", "0x1.8q3", "0x1p", "0x1p+", "0x1.2.3", "0x1p99999999", "--0x1"}) {
        Q q;
        INFO(bad);
        const auto err = parse_rational(bad, q.v);
        REQUIRE(err.has_value());
        REQUIRE_FALSE(is_number(bad));
    }
}
