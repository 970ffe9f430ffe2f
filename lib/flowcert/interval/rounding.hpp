// flowcert/interval/rounding.hpp -- the double-interval rounding strategy.
//
// Strategy (documented in docs/arithmetic.md): every operation is evaluated in the
// default round-to-nearest mode; an error-free transformation (TwoSum, TwoProduct,
// exact remainder) then tells on which side of the exact result the rounded value
// lies, and the bound is moved one ulp outward only when needed. No hardware
// rounding-mode switch, so the scheme is thread-safe and cannot be defeated by a
// forgotten RAII guard; it *requires* round-to-nearest, which the self-test checks.
// Where the error term would not be exact (results near underflow, operands near
// overflow) the bound is moved one ulp outward unconditionally, which is always
// sound because a round-to-nearest result is within half an ulp of the exact value.
//
// Reference for the transformations: T. Ogita, S. Rump, S. Oishi, "Accurate sum and
// dot product", SIAM J. Sci. Comput. 26 (2005), Algorithms 3.1 (TwoSum) and 3.3
// (TwoProduct with Dekker's splitting); Boldo & Muller (2011) for the exact remainder.
#pragma once

#if !defined(FLOWCERT_INTERVAL_INTERNAL)
#error "include <flowcert/interval.hpp>, not the internal headers"
#endif

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace flowcert::rounding {

inline constexpr double kMax = std::numeric_limits<double>::max();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

// Smallest double above x (x itself for +inf and NaN).
inline double next_up(double x) noexcept {
    if (!(x < kInf)) return x;  // +inf or NaN
    if (x == 0.0) return std::numeric_limits<double>::denorm_min();
    auto bits = std::bit_cast<std::uint64_t>(x);
    bits = x > 0 ? bits + 1 : bits - 1;
    return std::bit_cast<double>(bits);
}
inline double next_down(double x) noexcept { return -next_up(-x); }

// Error-free transformation domain guards. Below kTiny the error term of a
// product may underflow; above kSplitMax Dekker's splitting (multiplication by
// 2^27 + 1) may overflow; and a product whose magnitude exceeds kProdMax may
// overflow inside TwoProduct (ah * bh can exceed |a b| by a factor 1 + 2^-25),
// which would turn the error term into NaN. Outside these ranges the bound is
// moved one ulp outward unconditionally.
inline constexpr double kTiny = 0x1p-960;
inline constexpr double kSplitMax = 0x1p+995;
inline constexpr double kProdMax = 0x1p+1000;

// Sign of an error term: -1, 0, +1, or 2 ("unknown") when it is not a finite
// number, so that a NaN produced by an unforeseen overflow can never be read as
// "exact" (NaN compares false with everything, which would give sign 0).
inline int error_sign(double e) noexcept {
    if (!(e - e == 0.0)) return 2;  // NaN or +-inf
    return (e > 0) - (e < 0);
}

// Exact sign of (a + b) - fl(a + b), for finite a, b with a finite sum (TwoSum).
inline int sum_error_sign(double a, double b, double s) noexcept {
    const double bb = s - a;
    const double e = (a - (s - bb)) + (b - bb);
    return error_sign(e);
}

// TwoProduct: a*b = hi + lo exactly, provided the guards above hold.
struct TwoProd { double hi, lo; };
inline TwoProd two_product(double a, double b) noexcept {
    const double p = a * b;
#if defined(__FMA__)
    return {p, std::fma(a, b, -p)};
#else
    constexpr double split = 134217729.0;  // 2^27 + 1
    const double ca = split * a, ah = ca - (ca - a), al = a - ah;
    const double cb = split * b, bh = cb - (cb - b), bl = b - bh;
    return {p, al * bl - (((p - ah * bh) - al * bh) - ah * bl)};
#endif
}

// Both directions share one evaluation: `dir` is +1 (round up) or -1 (round down).
// `sign_err` is the sign of exact - rounded, or 2 when it is unknown.
inline double adjust(double r, int sign_err, int dir) noexcept {
    if (sign_err == 2) return dir > 0 ? next_up(r) : next_down(r);
    if (dir > 0) return sign_err > 0 ? next_up(r) : r;
    return sign_err < 0 ? next_down(r) : r;
}

// A finite-operand result that overflowed to +-inf: the exact value is finite.
inline double overflowed(double r, int dir) noexcept {
    if (r > 0) return dir > 0 ? kInf : kMax;
    return dir > 0 ? -kMax : -kInf;
}

inline double add(double a, double b, int dir) noexcept {
    const double s = a + b;
    if (!std::isfinite(s)) {
        if (std::isfinite(a) && std::isfinite(b)) return overflowed(s, dir);
        return s;  // an infinite operand: an unbounded endpoint stays unbounded
    }
    return adjust(s, sum_error_sign(a, b, s), dir);
}

inline double mul(double a, double b, int dir) noexcept {
    if (a == 0.0 || b == 0.0) return 0.0;  // also 0 * inf: 0 times any real number
    const double p = a * b;
    if (!std::isfinite(p)) {
        if (std::isfinite(a) && std::isfinite(b)) return overflowed(p, dir);
        return p;
    }
    const double ap = std::fabs(p);
    if (ap < kTiny || ap > kProdMax || std::fabs(a) > kSplitMax || std::fabs(b) > kSplitMax)
        return adjust(p, 2, dir);
    const TwoProd t = two_product(a, b);
    return adjust(p, error_sign(t.lo), dir);
}

inline double div(double a, double b, int dir) noexcept {
    if (a == 0.0) return 0.0;
    if (std::isinf(b)) return std::isinf(a) ? a / b /*NaN*/ : 0.0;  // limit of a/b as |b| grows
    const double q = a / b;
    if (!std::isfinite(q)) {
        if (std::isfinite(a) && b != 0.0) return overflowed(q, dir);
        return q;
    }
    const double aq = std::fabs(q);
    // q b is close to a, so |a| > kProdMax would let TwoProduct(q, b) overflow.
    if (std::fabs(a) < kTiny || std::fabs(a) > kProdMax || aq < kTiny || aq > kSplitMax || std::fabs(b) > kSplitMax)
        return adjust(q, 2, dir);
    // r = a - q*b, computed so that its sign is exact: a - hi is exact (Sterbenz),
    // and a correctly rounded difference has the sign of the exact one.
    const TwoProd t = two_product(q, b);
    const double r = (a - t.hi) - t.lo;
    const int sr = error_sign(r);
    if (sr == 2) return adjust(q, 2, dir);
    const int sb = b > 0 ? 1 : -1;
    return adjust(q, sr * sb, dir);  // a/b - q = r/b
}

inline double sqrt(double x, int dir) noexcept {
    if (x == 0.0 || std::isinf(x)) return x;
    if (x > 0 && x < kTiny) {
        // Scale into the exact range: x 2^600 and sqrt(x) >= 2^-537 are normal, so
        // fl(sqrt(x 2^600)) 2^-300 = fl(sqrt(x)) and the error has the same sign; scaling
        // by powers of two is exact here, next_up/next_down included.
        return std::ldexp(sqrt(std::ldexp(x, 600), dir), -300);
    }
    const double s = std::sqrt(x);
    // s * s is close to x: for x > kProdMax TwoProduct(s, s) may overflow.
    if (x > kProdMax) return adjust(s, 2, dir);
    const TwoProd t = two_product(s, s);
    const double r = (x - t.hi) - t.lo;  // sign of x - s^2 = sign of sqrt(x) - s
    return adjust(s, error_sign(r), dir);
}

}  // namespace flowcert::rounding
