// flowcert/interval/interval_d.hpp -- IntervalD: a closed interval with double bounds.
//
// Built on Boost.Interval with the rounding policy of rounding.hpp. The wrapper exists
// because Boost.Interval's converting constructor is implicit and unconstrained
// (`interval<double>(0.1)` is a point that does not contain 1/10, and it confuses
// Eigen's scalar promotion). Here there is no implicit conversion from anything, no
// constructor from a floating-point literal, and no comparison returning bool:
// predicates say what they guarantee (certainly_*, possibly_*).
#pragma once

#if !defined(FLOWCERT_INTERVAL_INTERNAL)
#error "include <flowcert/interval.hpp>, not the internal headers"
#endif

#include <boost/numeric/interval.hpp>

#include <concepts>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "rounding.hpp"

namespace flowcert {

namespace detail {
// Boost.Interval rounding policy: round to nearest, then move outward as needed.
struct WidenRounding {
    using unprotected_rounding = WidenRounding;
    void init() {}
    // Conversions used by Boost.Interval's mixed-type constructors: exact for floating-point
    // sources up to double and integers up to 2^53; other integers are rounded to nearest and
    // then moved one ulp outward (sound: the nearest double is within half an ulp).
    template <class U> static double conv(const U& v, int dir) {
        static_assert(std::is_arithmetic_v<U> && sizeof(U) <= sizeof(double),
                      "WidenRounding: no directed conversion from this type");
        const double d = static_cast<double>(v);
        if constexpr (std::is_integral_v<U>) {
            constexpr double exact_limit = 0x1p53;
            if (d < -exact_limit || d > exact_limit) return dir > 0 ? rounding::next_up(d) : rounding::next_down(d);
        }
        return d;
    }
    template <class U> double conv_down(const U& v) { return conv(v, -1); }
    template <class U> double conv_up(const U& v) { return conv(v, +1); }
    double add_down(double x, double y) { return rounding::add(x, y, -1); }
    double add_up(double x, double y) { return rounding::add(x, y, +1); }
    double sub_down(double x, double y) { return rounding::add(x, -y, -1); }
    double sub_up(double x, double y) { return rounding::add(x, -y, +1); }
    double mul_down(double x, double y) { return rounding::mul(x, y, -1); }
    double mul_up(double x, double y) { return rounding::mul(x, y, +1); }
    double div_down(double x, double y) { return rounding::div(x, y, -1); }
    double div_up(double x, double y) { return rounding::div(x, y, +1); }
    double sqrt_down(double x) { return rounding::sqrt(x, -1); }
    double sqrt_up(double x) { return rounding::sqrt(x, +1); }
    // A point inside [x, y] (Boost's median / bisect rely on it): x/2 + y/2 can fall outside
    // (e.g. [2^-1074, 2^-1074] gives 0) or be NaN for infinite bounds, so it is clamped.
    double median(double x, double y) {
        if (x == -rounding::kInf && y == rounding::kInf) return 0.0;
        if (x == -rounding::kInf) return y < -rounding::kMax ? y : -rounding::kMax;
        if (y == rounding::kInf) return x > rounding::kMax ? x : rounding::kMax;
        const double m = x * 0.5 + y * 0.5;
        return m < x ? x : (m > y ? y : m);
    }
    double int_down(double x) { return std::floor(x); }
    double int_up(double x) { return std::ceil(x); }
};
using BoostIntervalD = boost::numeric::interval<
    double, boost::numeric::interval_lib::policies<WidenRounding, boost::numeric::interval_lib::checking_base<double>>>;
}  // namespace detail

class IntervalD {
public:
    using Bound = double;
    static constexpr long precision_bits = 53;

    // [0, 0]; Eigen and containers need a default value.
    IntervalD() noexcept : v_(0.0, 0.0, true) {}

    // An integer, enclosed exactly (tightly outward when |k| > 2^53).
    template <std::integral T>
    explicit IntervalD(T k) noexcept : v_(from_integer(static_cast<long long>(k))) {}
    // No construction from a floating-point value, not even explicit: IntervalD(0.1) would be
    // the point [0.1, 0.1], which does not contain 1/10 (without this, it compiled through
    // Boost.Interval's implicit converting constructor). Use exact() or from_decimal().
    template <std::floating_point T> explicit IntervalD(T) = delete;

    // [lo, hi] from two doubles taken as exact binary numbers; throws std::invalid_argument
    // unless lo <= hi (NaN rejected). For decimal constants use from_decimal.
    static IntervalD bounds(double lo, double hi);
    // The point [x, x], x taken as an exact binary number (not as a decimal literal).
    static IntervalD exact(double x) { return bounds(x, x); }
    // Tight outward enclosure of a decimal ("0.1", "-2.5e-7") or rational ("8/3") string;
    // throws std::invalid_argument naming the problem on malformed input.
    static IntervalD from_decimal(std::string_view text);
    static IntervalD entire() noexcept { return IntervalD(detail::BoostIntervalD::whole()); }
    // Correctly rounded enclosures of constants (from MPFR).
    static IntervalD pi();
    static IntervalD ln2();

    double lower() const noexcept { return v_.lower(); }
    double upper() const noexcept { return v_.upper(); }

    IntervalD& operator+=(const IntervalD& y) { v_ += y.v_; return *this; }
    IntervalD& operator-=(const IntervalD& y) { v_ -= y.v_; return *this; }
    IntervalD& operator*=(const IntervalD& y) { v_ *= y.v_; return *this; }
    IntervalD& operator/=(const IntervalD& y) { v_ = checked_div(v_, y.v_); return *this; }

    friend IntervalD operator+(const IntervalD& x, const IntervalD& y) { return IntervalD(x.v_ + y.v_); }
    friend IntervalD operator-(const IntervalD& x, const IntervalD& y) { return IntervalD(x.v_ - y.v_); }
    friend IntervalD operator*(const IntervalD& x, const IntervalD& y) { return IntervalD(x.v_ * y.v_); }
    friend IntervalD operator/(const IntervalD& x, const IntervalD& y) { return IntervalD(checked_div(x.v_, y.v_)); }
    friend IntervalD operator-(const IntervalD& x) { return IntervalD(-x.v_); }
    friend IntervalD operator+(const IntervalD& x) { return x; }

    // Mixed operations with integers only (exact operands); there are none with double.
    template <std::integral T> friend IntervalD operator+(const IntervalD& x, T k) { return x + IntervalD(k); }
    template <std::integral T> friend IntervalD operator+(T k, const IntervalD& x) { return IntervalD(k) + x; }
    template <std::integral T> friend IntervalD operator-(const IntervalD& x, T k) { return x - IntervalD(k); }
    template <std::integral T> friend IntervalD operator-(T k, const IntervalD& x) { return IntervalD(k) - x; }
    template <std::integral T> friend IntervalD operator*(const IntervalD& x, T k) { return x * IntervalD(k); }
    template <std::integral T> friend IntervalD operator*(T k, const IntervalD& x) { return IntervalD(k) * x; }
    template <std::integral T> friend IntervalD operator/(const IntervalD& x, T k) { return x / IntervalD(k); }
    template <std::integral T> friend IntervalD operator/(T k, const IntervalD& x) { return IntervalD(k) / x; }

    // No ordering or equality operators: see certainly_* / possibly_* below.
    template <class T> friend bool operator<(const IntervalD&, const T&) = delete;
    template <class T> friend bool operator<=(const IntervalD&, const T&) = delete;
    template <class T> friend bool operator>(const IntervalD&, const T&) = delete;
    template <class T> friend bool operator>=(const IntervalD&, const T&) = delete;
    template <class T> friend bool operator==(const IntervalD&, const T&) = delete;
    template <class T> friend bool operator!=(const IntervalD&, const T&) = delete;

    const detail::BoostIntervalD& boost() const noexcept { return v_; }
    // Checks the result is not empty. Inline: it wraps every arithmetic result, and an
    // out-of-line call here doubled the cost of IntervalD + (bench/interval).
    explicit IntervalD(const detail::BoostIntervalD& v) : v_(v) {
        if (!(v.lower() <= v.upper())) [[unlikely]] throw_empty();
    }

private:
    detail::BoostIntervalD v_;
    [[noreturn]] static void throw_empty();
    static detail::BoostIntervalD from_integer(long long k) noexcept;
    static detail::BoostIntervalD checked_div(const detail::BoostIntervalD& x, const detail::BoostIntervalD& y);
};

// ---- accessors ----------------------------------------------------------------------
inline double lower(const IntervalD& x) noexcept { return x.lower(); }
inline double upper(const IntervalD& x) noexcept { return x.upper(); }
inline long precision(const IntervalD&) noexcept { return IntervalD::precision_bits; }
double mid(const IntervalD& x) noexcept;    // a double inside x (the rounded midpoint)
double rad(const IntervalD& x) noexcept;    // an upper bound on the radius, so x is inside [mid-rad, mid+rad]
double width(const IntervalD& x) noexcept;  // an upper bound on upper - lower
double mag(const IntervalD& x) noexcept;    // max |x|
double mig(const IntervalD& x) noexcept;    // min |x|

// ---- arithmetic and elementary functions ---------------------------------------------
IntervalD sqr(const IntervalD& x);
IntervalD sqrt(const IntervalD& x);  // restricted to x >= 0; throws std::domain_error if x < 0
IntervalD pow(const IntervalD& x, int n);  // integer power; n < 0 divides
IntervalD exp(const IntervalD& x);
IntervalD expm1(const IntervalD& x);
IntervalD log(const IntervalD& x);    // restricted to x > 0 (lower = -inf when x touches 0)
IntervalD log1p(const IntervalD& x);  // restricted to x > -1
IntervalD sin(const IntervalD& x);
IntervalD cos(const IntervalD& x);
IntervalD atan(const IntervalD& x);
IntervalD abs(const IntervalD& x);
IntervalD min(const IntervalD& x, const IntervalD& y);
IntervalD max(const IntervalD& x, const IntervalD& y);
IntervalD relu(const IntervalD& x);                          // max(x, 0)
IntervalD leaky_relu(const IntervalD& x, const IntervalD& gamma);  // max(x, gamma x), gamma in [0, 1]
IntervalD hull(const IntervalD& x, const IntervalD& y);
// Intersection; false when the two are disjoint (then `out` is untouched).
bool intersect(const IntervalD& x, const IntervalD& y, IntervalD& out);
// x widened by r >= 0 on both sides (outward rounded).
IntervalD inflate(const IntervalD& x, double r);

// ---- predicates (true only if the property holds for every point) ------------------
inline bool certainly_positive(const IntervalD& x) noexcept { return x.lower() > 0; }
inline bool certainly_negative(const IntervalD& x) noexcept { return x.upper() < 0; }
inline bool certainly_nonnegative(const IntervalD& x) noexcept { return x.lower() >= 0; }
inline bool certainly_nonpositive(const IntervalD& x) noexcept { return x.upper() <= 0; }
inline bool certainly_nonzero(const IntervalD& x) noexcept { return x.lower() > 0 || x.upper() < 0; }
inline bool certainly_less(const IntervalD& x, const IntervalD& y) noexcept { return x.upper() < y.lower(); }
inline bool certainly_less_equal(const IntervalD& x, const IntervalD& y) noexcept { return x.upper() <= y.lower(); }
// ... true if the property holds for at least one point.
inline bool possibly_zero(const IntervalD& x) noexcept { return x.lower() <= 0 && x.upper() >= 0; }
inline bool possibly_positive(const IntervalD& x) noexcept { return x.upper() > 0; }
inline bool possibly_negative(const IntervalD& x) noexcept { return x.lower() < 0; }
inline bool possibly_less(const IntervalD& x, const IntervalD& y) noexcept { return x.lower() < y.upper(); }
inline bool contains(const IntervalD& x, double v) noexcept { return x.lower() <= v && v <= x.upper(); }
inline bool subset(const IntervalD& inner, const IntervalD& outer) noexcept {
    return outer.lower() <= inner.lower() && inner.upper() <= outer.upper();
}
inline bool is_point(const IntervalD& x) noexcept { return x.lower() == x.upper(); }
inline bool is_bounded(const IntervalD& x) noexcept {
    return x.lower() > -rounding::kInf && x.upper() < rounding::kInf;
}

// ---- exact output ------------------------------------------------------------------
// Decimal strings rounded outward (lower toward -inf, upper toward +inf), so a printed
// enclosure is still an enclosure. `digits` significant digits (17 round-trips a double).
std::string lower_string(const IntervalD& x, int digits = 17);
std::string upper_string(const IntervalD& x, int digits = 17);
std::string to_string(const IntervalD& x, int digits = 17);  // "[lo, hi]"

}  // namespace flowcert
