#include <flowcert/interval.hpp>

#include <mpfr.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "mpfr_scratch.hpp"

namespace flowcert {

namespace bi = boost::numeric;
using detail::BoostIntervalD;

void IntervalD::throw_empty() {
    throw std::domain_error("interval operation outside its domain (empty result)");
}

IntervalD IntervalD::bounds(double lo, double hi) {
    if (!(lo <= hi)) throw std::invalid_argument("IntervalD::bounds: need lo <= hi (and no NaN)");
    if (lo == rounding::kInf || hi == -rounding::kInf)
        throw std::invalid_argument("IntervalD::bounds: an interval of reals cannot be [inf, inf]");
    return IntervalD(BoostIntervalD(lo, hi, true));
}

BoostIntervalD IntervalD::from_integer(long long k) noexcept {
    constexpr long long exact_limit = 1LL << 53;
    if (k >= -exact_limit && k <= exact_limit) {
        const double d = static_cast<double>(k);
        return BoostIntervalD(d, d, true);
    }
    internal::MpfrScratch s(64);
    mpfr_set_sj(s.a, k, MPFR_RNDN);  // exact at 64 bits
    return BoostIntervalD(mpfr_get_d(s.a, MPFR_RNDD), mpfr_get_d(s.a, MPFR_RNDU), true);
}

BoostIntervalD IntervalD::checked_div(const BoostIntervalD& x, const BoostIntervalD& y) {
    if (y.lower() == 0.0 && y.upper() == 0.0) throw std::domain_error("division by the interval [0, 0]");
    // Boost.Interval's documented result for 0 in y: the hull of the set quotient, i.e. a
    // half-line or the whole line.
    return x / y;
}

IntervalD IntervalD::from_decimal(std::string_view text) {
    mpq_t q;
    mpq_init(q);
    if (auto err = parse_rational(text, q)) {
        mpq_clear(q);
        throw std::invalid_argument(*err);
    }
    internal::MpfrScratch s(53);
    mpfr_set_q(s.a, q, MPFR_RNDD);
    mpfr_set_q(s.b, q, MPFR_RNDU);
    mpq_clear(q);
    // Directed roundings compose: RNDD then RNDD to double (subnormals) is still a lower bound.
    return IntervalD(BoostIntervalD(mpfr_get_d(s.a, MPFR_RNDD), mpfr_get_d(s.b, MPFR_RNDU), true));
}

IntervalD IntervalD::pi() {
    internal::MpfrScratch s(53);
    mpfr_const_pi(s.a, MPFR_RNDD);
    mpfr_const_pi(s.b, MPFR_RNDU);
    return IntervalD(BoostIntervalD(mpfr_get_d(s.a, MPFR_RNDD), mpfr_get_d(s.b, MPFR_RNDU), true));
}

IntervalD IntervalD::ln2() {
    internal::MpfrScratch s(53);
    mpfr_const_log2(s.a, MPFR_RNDD);
    mpfr_const_log2(s.b, MPFR_RNDU);
    return IntervalD(BoostIntervalD(mpfr_get_d(s.a, MPFR_RNDD), mpfr_get_d(s.b, MPFR_RNDU), true));
}

double mid(const IntervalD& x) noexcept {
    const double l = x.lower(), u = x.upper();
    if (l == -rounding::kInf && u == rounding::kInf) return 0.0;
    if (l == -rounding::kInf) return std::min(u, -rounding::kMax);
    if (u == rounding::kInf) return std::max(l, rounding::kMax);
    return std::clamp(l * 0.5 + u * 0.5, l, u);
}
double rad(const IntervalD& x) noexcept {
    const double m = mid(x);
    return std::max(rounding::add(m, -x.lower(), +1), rounding::add(x.upper(), -m, +1));
}
double width(const IntervalD& x) noexcept { return rounding::add(x.upper(), -x.lower(), +1); }
double mag(const IntervalD& x) noexcept { return std::max(-x.lower(), x.upper()); }
double mig(const IntervalD& x) noexcept {
    if (x.lower() > 0) return x.lower();
    if (x.upper() < 0) return -x.upper();
    return 0.0;
}

IntervalD sqr(const IntervalD& x) { return IntervalD(bi::square(x.boost())); }
IntervalD sqrt(const IntervalD& x) {
    if (x.upper() < 0) throw std::domain_error("sqrt of a negative interval");
    return IntervalD(bi::sqrt(x.boost()));
}
IntervalD pow(const IntervalD& x, int n) {
    // x^0 = 1 for every real x, 0 included (IEEE 1788 pown); Boost.Interval returns the
    // empty set for [0, 0]^0, so n = 0 is handled here.
    if (n == 0) return IntervalD(1);
    if (n < 0) return IntervalD(1) / pow(x, -n);
    return IntervalD(bi::pow(x.boost(), n));
}
IntervalD abs(const IntervalD& x) { return IntervalD(bi::abs(x.boost())); }
IntervalD min(const IntervalD& x, const IntervalD& y) { return IntervalD(bi::min(x.boost(), y.boost())); }
IntervalD max(const IntervalD& x, const IntervalD& y) { return IntervalD(bi::max(x.boost(), y.boost())); }
IntervalD relu(const IntervalD& x) {
    return IntervalD::bounds(std::max(x.lower(), 0.0), std::max(x.upper(), 0.0));
}
IntervalD leaky_relu(const IntervalD& x, const IntervalD& gamma) {
    if (gamma.lower() < 0 || gamma.upper() > 1) throw std::domain_error("leaky_relu: gamma must lie in [0, 1]");
    // max(z, g z) is non-decreasing in z for g in [0, 1]; for z < 0 it is g z.
    const double l = x.lower(), u = x.upper();
    const double lo = l >= 0 ? l : rounding::mul(gamma.upper(), l, -1);
    const double hi = u >= 0 ? u : rounding::mul(gamma.lower(), u, +1);
    return IntervalD::bounds(lo, hi);
}
IntervalD hull(const IntervalD& x, const IntervalD& y) { return IntervalD(bi::hull(x.boost(), y.boost())); }
bool intersect(const IntervalD& x, const IntervalD& y, IntervalD& out) {
    const double l = std::max(x.lower(), y.lower()), u = std::min(x.upper(), y.upper());
    if (!(l <= u)) return false;
    out = IntervalD::bounds(l, u);
    return true;
}
IntervalD inflate(const IntervalD& x, double r) {
    if (!(r >= 0)) throw std::invalid_argument("inflate: radius must be >= 0");
    return IntervalD::bounds(rounding::add(x.lower(), -r, -1), rounding::add(x.upper(), r, +1));
}

// ---- elementary functions: MPFI at 53 bits, bounds rounded outward to double --------
namespace {
using MpfiFn = int (*)(mpfi_ptr, mpfi_srcptr);
IntervalD via_mpfi(const IntervalD& x, MpfiFn f) {
    internal::MpfiScratch s(53);
    mpfi_interv_d(s.in, x.lower(), x.upper());
    f(s.out, s.in);
    mpfr_t lo, hi;
    mpfr_inits2(53, lo, hi, static_cast<mpfr_ptr>(nullptr));
    mpfi_get_left(lo, s.out);
    mpfi_get_right(hi, s.out);
    const double l = mpfr_get_d(lo, MPFR_RNDD), u = mpfr_get_d(hi, MPFR_RNDU);
    mpfr_clears(lo, hi, static_cast<mpfr_ptr>(nullptr));
    if (std::isnan(l) || std::isnan(u)) throw std::domain_error("elementary function outside its domain");
    return IntervalD::bounds(l, u);
}
}  // namespace

IntervalD exp(const IntervalD& x) { return via_mpfi(x, mpfi_exp); }
IntervalD expm1(const IntervalD& x) { return via_mpfi(x, mpfi_expm1); }
IntervalD log(const IntervalD& x) {
    if (x.upper() <= 0) throw std::domain_error("log of an interval with no positive point");
    if (x.lower() <= 0) {  // restricted to the domain: log((0, u]) = [-inf, log u]
        if (x.upper() == rounding::kInf) return IntervalD::entire();
        const IntervalD top = via_mpfi(IntervalD::exact(x.upper()), mpfi_log);
        return IntervalD::bounds(-rounding::kInf, top.upper());
    }
    return via_mpfi(x, mpfi_log);
}
IntervalD log1p(const IntervalD& x) {
    if (x.upper() <= -1) throw std::domain_error("log1p of an interval with no point above -1");
    if (x.lower() <= -1) {
        if (x.upper() == rounding::kInf) return IntervalD::entire();
        const IntervalD top = via_mpfi(IntervalD::exact(x.upper()), mpfi_log1p);
        return IntervalD::bounds(-rounding::kInf, top.upper());
    }
    return via_mpfi(x, mpfi_log1p);
}
IntervalD sin(const IntervalD& x) {
    if (!is_bounded(x)) return IntervalD::bounds(-1, 1);
    return via_mpfi(x, mpfi_sin);
}
IntervalD cos(const IntervalD& x) {
    if (!is_bounded(x)) return IntervalD::bounds(-1, 1);
    return via_mpfi(x, mpfi_cos);
}
IntervalD atan(const IntervalD& x) { return via_mpfi(x, mpfi_atan); }

// ---- output ---------------------------------------------------------------------------
namespace internal {
std::string format_bound(mpfr_srcptr v, int digits, mpfr_rnd_t rnd) {
    if (mpfr_inf_p(v)) return mpfr_sgn(v) > 0 ? "inf" : "-inf";
    if (mpfr_nan_p(v)) return "nan";
    char* buf = nullptr;
    const int n = mpfr_asprintf(&buf, "%.*R*e", std::max(digits - 1, 0), rnd, v);
    std::string out = n >= 0 ? std::string(buf) : std::string("nan");
    mpfr_free_str(buf);
    return out;
}
}  // namespace internal

std::string lower_string(const IntervalD& x, int digits) {
    internal::MpfrScratch s(53);
    mpfr_set_d(s.a, x.lower(), MPFR_RNDN);  // exact
    return internal::format_bound(s.a, digits, MPFR_RNDD);
}
std::string upper_string(const IntervalD& x, int digits) {
    internal::MpfrScratch s(53);
    mpfr_set_d(s.a, x.upper(), MPFR_RNDN);
    return internal::format_bound(s.a, digits, MPFR_RNDU);
}
std::string to_string(const IntervalD& x, int digits) {
    return "[" + lower_string(x, digits) + ", " + upper_string(x, digits) + "]";
}

}  // namespace flowcert
