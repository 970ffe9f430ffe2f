// flowcert/interval/traits.hpp -- what generic (templated) code needs to make constants
// of an interval type I at a given precision. For IntervalD the precision is always 53.
#pragma once

#if !defined(FLOWCERT_INTERVAL_INTERNAL)
#error "include <flowcert/interval.hpp>, not the internal headers"
#endif

#include <concepts>
#include <string_view>

namespace flowcert {

template <class I> struct IntervalTraits;

template <> struct IntervalTraits<IntervalD> {
    static constexpr const char* name = "IntervalD";
    static IntervalD from_integer(long long k, long /*bits*/) { return IntervalD(k); }
    static IntervalD from_decimal(std::string_view s, long /*bits*/) { return IntervalD::from_decimal(s); }
    static IntervalD exact(double x, long /*bits*/) { return IntervalD::exact(x); }
    static IntervalD bounds(double lo, double hi, long /*bits*/) { return IntervalD::bounds(lo, hi); }
    static IntervalD pi(long /*bits*/) { return IntervalD::pi(); }
};

template <> struct IntervalTraits<IntervalMp> {
    static constexpr const char* name = "IntervalMp";
    static IntervalMp from_integer(long long k, long bits) { return IntervalMp::from_integer(k, Precision(bits)); }
    static IntervalMp from_decimal(std::string_view s, long bits) { return IntervalMp::from_decimal(s, Precision(bits)); }
    static IntervalMp exact(double x, long bits) { return IntervalMp::exact(x, Precision(bits)); }
    static IntervalMp bounds(double lo, double hi, long bits) { return IntervalMp::bounds(lo, hi, Precision(bits)); }
    static IntervalMp pi(long bits) { return IntervalMp::pi(Precision(bits)); }
};

// The interval types flowcert instantiates its templates for.
template <class I>
concept Interval = std::same_as<I, IntervalD> || std::same_as<I, IntervalMp>;

// A constant of the same type and precision as `like`.
template <Interval I> I constant_like(const I& like, long long k) {
    return IntervalTraits<I>::from_integer(k, precision(like));
}
template <Interval I> I decimal_like(const I& like, std::string_view s) {
    return IntervalTraits<I>::from_decimal(s, precision(like));
}

}  // namespace flowcert
