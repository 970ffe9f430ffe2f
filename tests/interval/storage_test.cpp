// IntervalMp storage: limbs inside the object up to IntervalMp::kInlineBits, on the heap above.
// Copies, moves, self-assignment, swaps and precision changes across that limit must keep every
// value exactly (checked against MPFR values kept outside the objects) and never touch freed or
// foreign limbs (run under ASan/valgrind in a debug build to see the latter).
#include <catch2/catch.hpp>

#include <flowcert/interval.hpp>

#include <mpfr.h>

#include <random>
#include <utility>
#include <vector>

using namespace flowcert;

namespace {
// [lo, hi] of x equal to the MPFR numbers l, u (exactly).
bool same_bounds(const IntervalMp& x, mpfr_srcptr l, mpfr_srcptr u) {
    return mpfr_equal_p(&x.get()->left, l) && mpfr_equal_p(&x.get()->right, u);
}
IntervalMp thin_third(long bits) { return IntervalMp::from_decimal("1/3", Precision(bits)); }
}  // namespace

TEST_CASE("IntervalMp copies and moves keep the bounds exactly on both sides of the inline limit") {
    for (long bits : {2L, 53L, 64L, 128L, 255L, 256L, 257L, 512L, 2048L}) {
        INFO("bits " << bits);
        const IntervalMp x = thin_third(bits);
        mpfr_t l, u;
        mpfr_inits2(bits, l, u, static_cast<mpfr_ptr>(nullptr));
        mpfi_get_left(l, x.get());
        mpfi_get_right(u, x.get());
        REQUIRE(mpfr_less_p(l, u));
        IntervalMp c(x);  // copy
        REQUIRE(same_bounds(c, l, u));
        IntervalMp m(std::move(c));  // move
        REQUIRE(same_bounds(m, l, u));
        REQUIRE(is_bounded(c));  // a moved-from value is still a valid interval
        c = m;                   // copy-assign into a moved-from value
        REQUIRE(same_bounds(c, l, u));
        for (long other : {53L, 256L, 1024L}) {  // assign over values of every storage kind
            IntervalMp t = thin_third(other) + IntervalMp(7);
            t = x;
            REQUIRE(same_bounds(t, l, u));
            REQUIRE(t.precision() == bits);
            IntervalMp s = thin_third(other);
            s = IntervalMp(x);
            REQUIRE(same_bounds(s, l, u));
        }
        IntervalMp& alias = m;
        m = alias;  // self-assignment
        REQUIRE(same_bounds(m, l, u));
        m = std::move(alias);
        REQUIRE(same_bounds(m, l, u));
        std::vector<IntervalMp> v;
        for (int i = 0; i < 100; ++i) v.push_back(x);  // reallocations move the elements
        for (const auto& e : v) REQUIRE(same_bounds(e, l, u));
        std::swap(v[3], m);
        REQUIRE(same_bounds(v[3], l, u));
        mpfr_clears(l, u, static_cast<mpfr_ptr>(nullptr));
    }
}

TEST_CASE("compound operations raise the precision across the inline limit and enclose the exact result") {
    // x = 1/3 at 128 bits, y = 1/3 at 512 bits: x += y must become 512 bits and contain 2/3.
    IntervalMp x = thin_third(128);
    const IntervalMp y = thin_third(512);
    x += y;
    REQUIRE(x.precision() == 512);
    REQUIRE(subset(IntervalMp::from_decimal("2/3", Precision(2048)), x));
    REQUIRE(width(x) < 1e-38);  // x was a 128-bit enclosure of 1/3
    IntervalMp z = thin_third(64);
    z *= y;
    REQUIRE(z.precision() == 512);
    REQUIRE(subset(IntervalMp::from_decimal("1/9", Precision(2048)), z));
    z -= z;  // aliasing at 512 bits
    REQUIRE(possibly_zero(z));
    IntervalMp w = thin_third(256);
    w *= w;  // aliasing at the limit
    REQUIRE(subset(IntervalMp::from_decimal("1/9", Precision(2048)), w));
}

TEST_CASE("straddling products use an inline temporary and enclose the set product") {
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> d(-4.0, 4.0);
    for (long bits : {24L, 53L, 256L, 300L}) {
        for (int t = 0; t < 200; ++t) {
            const double a = -std::abs(d(rng)) - 0.1, b = std::abs(d(rng)) + 0.1;
            const double c = -std::abs(d(rng)) - 0.1, e = std::abs(d(rng)) + 0.1;
            const IntervalMp x = IntervalMp::bounds(a, b, Precision(bits));
            const IntervalMp y = IntervalMp::bounds(c, e, Precision(bits));
            const IntervalMp p = x * y;
            // the exact set product is [min(ae, bc), max(ac, be)]; its corners must be inside
            const Precision P(512);
            for (const auto& [u, v] : {std::pair{a, e}, std::pair{b, c}, std::pair{a, c}, std::pair{b, e}})
                REQUIRE(subset(IntervalMp::exact(u, P) * IntervalMp::exact(v, P), p));
            IntervalMp q = x;
            q *= y;
            REQUIRE(subset(q, p));
            REQUIRE(subset(p, q));
        }
    }
}
