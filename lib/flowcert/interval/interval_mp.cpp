#include <flowcert/interval.hpp>

#include <mpfr.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>

#include "mpfr_scratch.hpp"

namespace flowcert {

namespace {

constexpr long kIntegerBits = 64;

void check_precision(long bits) {
    if (bits < 2 || bits > 1'000'000)
        throw std::invalid_argument("precision must lie in [2, 1000000] bits, got " + std::to_string(bits));
}

long result_prec(const IntervalMp& x, const IntervalMp& y) { return std::max(x.precision(), y.precision()); }

void check_not_empty(const IntervalMp& r, const char* what) {
    if (mpfi_nan_p(r.get()) || mpfi_is_empty(r.get()))
        throw std::domain_error(std::string(what) + ": result outside the domain (empty or NaN)");
}

double left_double(mpfi_srcptr v) {
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(&(v)->left));
    mpfi_get_left(t, v);
    const double d = mpfr_get_d(t, MPFR_RNDD);
    mpfr_clear(t);
    return d;
}
double right_double(mpfi_srcptr v) {
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(&(v)->left));
    mpfi_get_right(t, v);
    const double d = mpfr_get_d(t, MPFR_RNDU);
    mpfr_clear(t);
    return d;
}

using Unary = int (*)(mpfi_ptr, mpfi_srcptr);
IntervalMp apply(const IntervalMp& x, Unary f, const char* what) {
    IntervalMp r{Precision(x.precision())};
    f(r.get_mutable(), x.get());
    check_not_empty(r, what);
    return r;
}

}  // namespace

IntervalMp::IntervalMp() { init_at(kIntegerBits); }  // [+0, -0]
IntervalMp::IntervalMp(Precision p) {
    check_precision(p.bits);
    init_at(p.bits);
    if (p.bits > kInlineBits) mpfi_set_si(v_, 0);
}
IntervalMp& IntervalMp::operator=(const IntervalMp& o) {
    if (this != &o) {
        if (mpfr_get_prec(&(v_)->left) == mpfr_get_prec(&(o.v_)->left)) {
            mpfi_set(v_, o.v_);  // exact: same precision
        } else {
            destroy();
            copy_from(o);
        }
    }
    return *this;
}
// Outward (here exact: more bits) re-rounding to a larger precision.
void IntervalMp::raise_precision(long bits) {
    IntervalMp t(Uninit{}, bits);
    mpfi_set(t.v_, v_);
    *this = std::move(t);
}

void IntervalMp::set_integer(long long k) {
    mp_limb_t limb[(kIntegerBits + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS];
    mpfr_t t;
    mpfr_custom_init_set(t, MPFR_ZERO_KIND, 0, kIntegerBits, limb);  // on the stack: no heap
    mpfr_set_sj(t, k, MPFR_RNDN);  // exact: 64 bits hold any long long
    mpfi_set_fr(v_, t);
}

IntervalMp IntervalMp::from_integer(long long k, Precision p) {
    IntervalMp r(p);
    mpfr_t t;
    mpfr_init2(t, kIntegerBits);
    mpfr_set_sj(t, k, MPFR_RNDN);
    mpfi_set_fr(r.v_, t);  // rounded outward to p bits if p < 64
    mpfr_clear(t);
    return r;
}

IntervalMp IntervalMp::bounds(double lo, double hi, Precision p) {
    if (!(lo <= hi)) throw std::invalid_argument("IntervalMp::bounds: need lo <= hi (and no NaN)");
    if (lo == std::numeric_limits<double>::infinity() || hi == -std::numeric_limits<double>::infinity())
        throw std::invalid_argument("IntervalMp::bounds: an interval of reals cannot be [inf, inf]");
    IntervalMp r(p);
    mpfi_interv_d(r.v_, lo, hi);  // outward if p < 53
    return r;
}

IntervalMp IntervalMp::from_decimal(std::string_view text, Precision p) {
    mpq_t q;
    mpq_init(q);
    if (auto err = parse_rational(text, q)) {
        mpq_clear(q);
        throw std::invalid_argument(*err);
    }
    IntervalMp r(p);
    mpfi_set_q(r.v_, q);  // tight outward enclosure
    mpq_clear(q);
    return r;
}

IntervalMp IntervalMp::entire(Precision p) {
    IntervalMp r(p);
    mpfr_t lo, hi;
    mpfr_inits2(p.bits, lo, hi, static_cast<mpfr_ptr>(nullptr));
    mpfr_set_inf(lo, -1);
    mpfr_set_inf(hi, +1);
    mpfi_interv_fr(r.v_, lo, hi);
    mpfr_clears(lo, hi, static_cast<mpfr_ptr>(nullptr));
    return r;
}
IntervalMp IntervalMp::pi(Precision p) { IntervalMp r(p); mpfi_const_pi(r.v_); return r; }
IntervalMp IntervalMp::ln2(Precision p) { IntervalMp r(p); mpfi_const_log2(r.v_); return r; }
IntervalMp IntervalMp::from_mpfr(mpfr_srcptr lo, mpfr_srcptr hi, Precision p) {
    if (!(mpfr_lessequal_p(lo, hi))) throw std::invalid_argument("IntervalMp::from_mpfr: need lo <= hi");
    if ((mpfr_inf_p(lo) && mpfr_sgn(lo) > 0) || (mpfr_inf_p(hi) && mpfr_sgn(hi) < 0))
        throw std::invalid_argument("IntervalMp::from_mpfr: an interval of reals cannot be [inf, inf]");
    IntervalMp r(p);
    mpfi_interv_fr(r.v_, lo, hi);
    return r;
}

IntervalMp IntervalMp::rounded_to(Precision p) const {
    IntervalMp r(p);
    mpfi_set(r.v_, v_);  // outward
    return r;
}
double IntervalMp::lower_double() const { return left_double(v_); }
double IntervalMp::upper_double() const { return right_double(v_); }

// ---- + - * on the endpoints ---------------------------------------------------------------
// The endpoint formulas of interval arithmetic with outward (directed) rounding [Moore 1966;
// N. Revol, F. Rouillier, Reliable Computing 11 (2005)], written directly with MPFR calls so the
// hot operations cost two MPFR calls, as MPFI's mpfi_add/mpfi_mul do but without their extra
// checks and, for in-place products, without their heap temporary. The representation is MPFI's
// (the functions below leave values that every mpfi_* function accepts): a zero lower bound is
// +0 and a zero upper bound is -0. Unbounded or NaN operands go to MPFI itself.
namespace {

inline bool finite_fr(mpfr_srcptr v) { return !mpfr_nan_p(v) && !mpfr_inf_p(v); }
inline bool bounded(mpfi_srcptr x) { return finite_fr(&x->left) && finite_fr(&x->right); }

inline void fix_zero_signs(mpfi_ptr r) {  // as MPFI: no -0 lower bound, no +0 upper bound
    if (mpfr_zero_p(&r->left) && mpfr_signbit(&r->left)) mpfr_neg(&r->left, &r->left, MPFR_RNDU);
    if (mpfr_zero_p(&r->right) && !mpfr_signbit(&r->right)) mpfr_neg(&r->right, &r->right, MPFR_RNDD);
}

// r = x + y; r may alias x and/or y (each bound reads only the same-side bounds).
inline void add_into(mpfi_ptr r, mpfi_srcptr x, mpfi_srcptr y) {
    mpfr_add(&r->left, &x->left, &y->left, MPFR_RNDD);
    mpfr_add(&r->right, &x->right, &y->right, MPFR_RNDU);
    fix_zero_signs(r);
}
// r = x - y = [xl - yu, xu - yl]; r must not alias y (it may alias x).
inline void sub_into(mpfi_ptr r, mpfi_srcptr x, mpfi_srcptr y) {
    mpfr_sub(&r->left, &x->left, &y->right, MPFR_RNDD);
    mpfr_sub(&r->right, &x->right, &y->left, MPFR_RNDU);
    fix_zero_signs(r);
}
// r = x * y by the signs of the bounds (Moore's nine cases); r must not alias x or y.
inline void mul_into(mpfi_ptr r, mpfi_srcptr x, mpfi_srcptr y) {
    if (!bounded(x) || !bounded(y)) {  // 0 * inf cases: MPFI's own rules
        mpfi_mul(r, x, y);
        return;
    }
    mpfr_srcptr a = &x->left, b = &x->right, c = &y->left, d = &y->right;
    mpfr_srcptr lo1, lo2, hi1, hi2;  // lower = lo1 * lo2 (down), upper = hi1 * hi2 (up)
    if (mpfr_sgn(a) >= 0) {          // x >= 0
        if (mpfr_sgn(c) >= 0) { lo1 = a; lo2 = c; hi1 = b; hi2 = d; }
        else if (mpfr_sgn(d) <= 0) { lo1 = b; lo2 = c; hi1 = a; hi2 = d; }
        else { lo1 = b; lo2 = c; hi1 = b; hi2 = d; }
    } else if (mpfr_sgn(b) <= 0) {  // x <= 0
        if (mpfr_sgn(c) >= 0) { lo1 = a; lo2 = d; hi1 = b; hi2 = c; }
        else if (mpfr_sgn(d) <= 0) { lo1 = b; lo2 = d; hi1 = a; hi2 = c; }
        else { lo1 = a; lo2 = d; hi1 = a; hi2 = c; }
    } else {  // 0 in the interior of x
        if (mpfr_sgn(c) >= 0) { lo1 = a; lo2 = d; hi1 = b; hi2 = d; }
        else if (mpfr_sgn(d) <= 0) { lo1 = b; lo2 = c; hi1 = a; hi2 = c; }
        else {  // both straddle 0: [min(ad, bc), max(ac, bd)], one temporary (inline limbs)
            const mpfr_prec_t p = mpfr_get_prec(&r->left);
            if (p > IntervalMp::kInlineBits) {
                mpfi_mul(r, x, y);
                return;
            }
            mp_limb_t limbs[(IntervalMp::kInlineBits + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS];
            mpfr_t t;
            mpfr_custom_init_set(t, MPFR_ZERO_KIND, 0, p, limbs);
            mpfr_mul(t, a, d, MPFR_RNDD);
            mpfr_mul(&r->left, b, c, MPFR_RNDD);
            if (mpfr_less_p(t, &r->left)) mpfr_set(&r->left, t, MPFR_RNDD);  // exact: same precision
            mpfr_mul(t, a, c, MPFR_RNDU);
            mpfr_mul(&r->right, b, d, MPFR_RNDU);
            if (mpfr_greater_p(t, &r->right)) mpfr_set(&r->right, t, MPFR_RNDU);
            fix_zero_signs(r);
            return;
        }
    }
    mpfr_mul(&r->left, lo1, lo2, MPFR_RNDD);
    mpfr_mul(&r->right, hi1, hi2, MPFR_RNDU);
    fix_zero_signs(r);
}

}  // namespace

// In-place operations keep the larger precision.
IntervalMp& IntervalMp::operator+=(const IntervalMp& y) {
    if (y.precision() > precision()) raise_precision(y.precision());
    add_into(v_, v_, y.v_);
    return *this;
}
IntervalMp& IntervalMp::operator-=(const IntervalMp& y) {
    if (y.precision() > precision()) raise_precision(y.precision());
    if (this == &y) {
        const IntervalMp t(y);
        sub_into(v_, v_, t.v_);
    } else {
        sub_into(v_, v_, y.v_);
    }
    return *this;
}
IntervalMp& IntervalMp::operator*=(const IntervalMp& y) {
    // In place when the sign case lets each bound be written after the other is no longer read;
    // the other cases (and x *= x) go through a temporary.
    if (this != &y && y.precision() <= precision() && bounded(v_) && bounded(y.v_)) {
        mpfr_ptr a = &v_->left, b = &v_->right;
        mpfr_srcptr c = &y.v_->left, d = &y.v_->right;
        const int sa = mpfr_sgn(a), sb = mpfr_sgn(b), sc = mpfr_sgn(c), sd = mpfr_sgn(d);
        bool done = true;
        if (sa >= 0 && sc >= 0) {  // x >= 0, y >= 0: [ac, bd]
            mpfr_mul(a, a, c, MPFR_RNDD);
            mpfr_mul(b, b, d, MPFR_RNDU);
        } else if (sa >= 0 && sd > 0) {  // x >= 0, 0 inside y: [bc, bd]
            mpfr_mul(a, b, c, MPFR_RNDD);
            mpfr_mul(b, b, d, MPFR_RNDU);
        } else if (sb <= 0 && sc >= 0) {  // x <= 0, y >= 0: [ad, bc]
            mpfr_mul(a, a, d, MPFR_RNDD);
            mpfr_mul(b, b, c, MPFR_RNDU);
        } else if (sb <= 0 && sd > 0) {  // x <= 0, 0 inside y: [ad, ac]
            mpfr_mul(b, a, c, MPFR_RNDU);
            mpfr_mul(a, a, d, MPFR_RNDD);
        } else if (sa < 0 && sb > 0 && sc >= 0) {  // 0 inside x, y >= 0: [ad, bd]
            mpfr_mul(a, a, d, MPFR_RNDD);
            mpfr_mul(b, b, d, MPFR_RNDU);
        } else {
            done = false;
        }
        if (done) {
            fix_zero_signs();
            return *this;
        }
    }
    IntervalMp t(Uninit{}, result_prec(*this, y));  // inline limbs up to kInlineBits: no heap
    mul_into(t.v_, v_, y.v_);
    *this = std::move(t);
    return *this;
}

IntervalMp& IntervalMp::operator/=(const IntervalMp& y) {
    *this = *this / y;
    return *this;
}

IntervalMp operator*(const IntervalMp& x, const IntervalMp& y) {
    IntervalMp r(IntervalMp::Uninit{}, result_prec(x, y));
    mul_into(r.v_, x.v_, y.v_);
    return r;
}
IntervalMp operator/(const IntervalMp& x, const IntervalMp& y) {
    if (mpfi_is_zero(y.v_)) throw std::domain_error("division by the interval [0, 0]");
    IntervalMp r{Precision(result_prec(x, y))};
    // [0, 0] / y = [0, 0] for any y other than [0, 0] (set semantics); MPFI returns the whole
    // line when 0 is in y, as IntervalD (Boost.Interval) does not.
    if (mpfi_is_zero(x.v_)) return r;
    // MPFI, like IntervalD, returns the hull of the set quotient when 0 is in y.
    mpfi_div(r.v_, x.v_, y.v_);
    check_not_empty(r, "division");
    return r;
}
IntervalMp operator-(const IntervalMp& x) {
    IntervalMp r{Precision(x.precision())};
    mpfi_neg(r.v_, x.v_);
    return r;
}

IntervalMp mid_point(const IntervalMp& x) {
    mpfr_t m;
    mpfr_init2(m, x.precision() + 1);  // (l + u)/2 is exact at one more bit
    mpfi_mid(m, x.get());
    IntervalMp r{Precision(x.precision() + 1)};
    mpfi_set_fr(r.get_mutable(), m);
    mpfr_clear(m);
    return r;
}
double mid(const IntervalMp& x) {
    mpfr_t m;
    mpfr_init2(m, x.precision() + 1);
    mpfi_mid(m, x.get());
    const double d = mpfr_get_d(m, MPFR_RNDN);
    mpfr_clear(m);
    return d;
}
double rad(const IntervalMp& x) {
    // The radius about mid_point(x), max(m - l, u - m) rounded up. Half the width is not
    // enough: mid_point rounds (l + u)/2 to precision + 1 bits, which is inexact when the
    // bounds' exponents differ (e.g. [3.5, 6] at 3 bits: m = 5, half width 1.25).
    if (!is_bounded(x)) return std::numeric_limits<double>::infinity();
    const IntervalMp m = mid_point(x);
    mpfr_t l, u, mv, d1, d2;
    mpfr_inits2(x.precision(), l, u, static_cast<mpfr_ptr>(nullptr));
    mpfr_inits2(m.precision(), mv, static_cast<mpfr_ptr>(nullptr));
    mpfr_inits2(53, d1, d2, static_cast<mpfr_ptr>(nullptr));
    mpfi_get_left(l, x.get());
    mpfi_get_right(u, x.get());
    mpfi_get_left(mv, m.get());
    mpfr_sub(d1, mv, l, MPFR_RNDU);
    mpfr_sub(d2, u, mv, MPFR_RNDU);
    const double r = std::max(mpfr_get_d(d1, MPFR_RNDU), mpfr_get_d(d2, MPFR_RNDU));
    mpfr_clears(l, u, mv, d1, d2, static_cast<mpfr_ptr>(nullptr));
    return r;
}
double width(const IntervalMp& x) {
    mpfr_t d;
    mpfr_init2(d, x.precision());
    mpfi_diam_abs(d, x.get());
    const double r = mpfr_get_d(d, MPFR_RNDU);
    mpfr_clear(d);
    return r;
}
double mag(const IntervalMp& x) {
    mpfr_t d;
    mpfr_init2(d, x.precision());
    mpfi_mag(d, x.get());
    const double r = mpfr_get_d(d, MPFR_RNDU);
    mpfr_clear(d);
    return r;
}
double mig(const IntervalMp& x) {
    mpfr_t d;
    mpfr_init2(d, x.precision());
    mpfi_mig(d, x.get());
    const double r = mpfr_get_d(d, MPFR_RNDD);
    mpfr_clear(d);
    return r;
}

IntervalMp sqr(const IntervalMp& x) { return apply(x, mpfi_sqr, "sqr"); }
IntervalMp sqrt(const IntervalMp& x) {
    if (certainly_negative(x)) throw std::domain_error("sqrt of a negative interval");
    if (!possibly_negative(x)) return apply(x, mpfi_sqrt, "sqrt");
    // Restricted to the domain: sqrt([l, u]) with l < 0 is sqrt([0, u]).
    mpfr_t z, u;
    mpfr_inits2(x.precision(), z, u, static_cast<mpfr_ptr>(nullptr));
    mpfr_set_zero(z, +1);
    mpfi_get_right(u, x.get());
    IntervalMp y{Precision(x.precision())};
    mpfi_interv_fr(y.get_mutable(), z, u);
    mpfr_clears(z, u, static_cast<mpfr_ptr>(nullptr));
    return apply(y, mpfi_sqrt, "sqrt");
}
IntervalMp pow(const IntervalMp& x, int n) {
    if (n < 0) return IntervalMp(1) / pow(x, -n);
    if (n == 0) return IntervalMp::from_integer(1, Precision(x.precision()));
    const long p = x.precision();
    mpfr_t lo, hi;
    mpfr_inits2(p, lo, hi, static_cast<mpfr_ptr>(nullptr));
    if (n % 2 == 1) {  // odd powers are increasing: power the endpoints
        mpfi_get_left(lo, x.get());
        mpfi_get_right(hi, x.get());
        mpfr_pow_si(lo, lo, n, MPFR_RNDD);
        mpfr_pow_si(hi, hi, n, MPFR_RNDU);
    } else {  // even powers: [mig^n, mag^n]
        mpfi_mig(lo, x.get());
        mpfi_mag(hi, x.get());
        mpfr_pow_si(lo, lo, n, MPFR_RNDD);
        mpfr_pow_si(hi, hi, n, MPFR_RNDU);
    }
    IntervalMp r{Precision(p)};
    mpfi_interv_fr(r.get_mutable(), lo, hi);
    mpfr_clears(lo, hi, static_cast<mpfr_ptr>(nullptr));
    return r;
}
IntervalMp exp(const IntervalMp& x) { return apply(x, mpfi_exp, "exp"); }
IntervalMp expm1(const IntervalMp& x) { return apply(x, mpfi_expm1, "expm1"); }
namespace {
// Restrict x to (floor, +inf) for log-type functions: returns [-inf, f(upper)] when x reaches floor.
IntervalMp log_like(const IntervalMp& x, long floor, Unary f, const char* what) {
    const IntervalMp fl = IntervalMp::from_integer(floor, Precision(x.precision()));
    if (certainly_less_equal(x, fl)) throw std::domain_error(std::string(what) + " of an interval outside its domain");
    if (possibly_less(x, fl) || !certainly_less(fl, x)) {
        mpfr_t u;
        mpfr_init2(u, x.precision());
        mpfi_get_right(u, x.get());
        IntervalMp top{Precision(x.precision())};
        mpfi_set_fr(top.get_mutable(), u);
        top = apply(top, f, what);
        mpfr_t lo;
        mpfr_init2(lo, x.precision());
        mpfr_set_inf(lo, -1);
        mpfi_get_right(u, top.get());
        IntervalMp r{Precision(x.precision())};
        mpfi_interv_fr(r.get_mutable(), lo, u);
        mpfr_clears(u, lo, static_cast<mpfr_ptr>(nullptr));
        return r;
    }
    return apply(x, f, what);
}
}  // namespace
IntervalMp log(const IntervalMp& x) { return log_like(x, 0, mpfi_log, "log"); }
IntervalMp log1p(const IntervalMp& x) { return log_like(x, -1, mpfi_log1p, "log1p"); }
IntervalMp sin(const IntervalMp& x) {
    if (!is_bounded(x)) return IntervalMp::bounds(-1, 1, Precision(x.precision()));
    return apply(x, mpfi_sin, "sin");
}
IntervalMp cos(const IntervalMp& x) {
    if (!is_bounded(x)) return IntervalMp::bounds(-1, 1, Precision(x.precision()));
    return apply(x, mpfi_cos, "cos");
}
IntervalMp atan(const IntervalMp& x) { return apply(x, mpfi_atan, "atan"); }
IntervalMp abs(const IntervalMp& x) { return apply(x, mpfi_abs, "abs"); }

namespace {
// Bounds of x as MPFR numbers at x's precision.
struct Ends {
    mpfr_t l, u;
    explicit Ends(const IntervalMp& x) {
        mpfr_inits2(x.precision(), l, u, static_cast<mpfr_ptr>(nullptr));
        mpfi_get_left(l, x.get());
        mpfi_get_right(u, x.get());
    }
    ~Ends() { mpfr_clears(l, u, static_cast<mpfr_ptr>(nullptr)); }
};
IntervalMp from_ends(mpfr_srcptr l, mpfr_srcptr u, long p) {
    IntervalMp r{Precision(p)};
    mpfi_interv_fr(r.get_mutable(), l, u);
    return r;
}
}  // namespace

IntervalMp min(const IntervalMp& x, const IntervalMp& y) {
    Ends a(x), b(y);
    return from_ends(mpfr_lessequal_p(a.l, b.l) ? a.l : b.l, mpfr_lessequal_p(a.u, b.u) ? a.u : b.u, result_prec(x, y));
}
IntervalMp max(const IntervalMp& x, const IntervalMp& y) {
    Ends a(x), b(y);
    return from_ends(mpfr_greaterequal_p(a.l, b.l) ? a.l : b.l, mpfr_greaterequal_p(a.u, b.u) ? a.u : b.u,
                     result_prec(x, y));
}
IntervalMp relu(const IntervalMp& x) { return max(x, IntervalMp(Precision(x.precision()))); }
IntervalMp leaky_relu(const IntervalMp& x, const IntervalMp& gamma) {
    const IntervalMp unit = IntervalMp::bounds(0, 1, Precision(2));
    if (!subset(gamma, unit)) throw std::domain_error("leaky_relu: gamma must lie in [0, 1]");
    Ends e(x), g(gamma);
    const long p = result_prec(x, gamma);
    mpfr_t lo, hi;
    mpfr_inits2(p, lo, hi, static_cast<mpfr_ptr>(nullptr));
    if (mpfr_sgn(e.l) >= 0) mpfr_set(lo, e.l, MPFR_RNDD); else mpfr_mul(lo, g.u, e.l, MPFR_RNDD);
    if (mpfr_sgn(e.u) >= 0) mpfr_set(hi, e.u, MPFR_RNDU); else mpfr_mul(hi, g.l, e.u, MPFR_RNDU);
    IntervalMp r = from_ends(lo, hi, p);
    mpfr_clears(lo, hi, static_cast<mpfr_ptr>(nullptr));
    return r;
}
IntervalMp hull(const IntervalMp& x, const IntervalMp& y) {
    IntervalMp r{Precision(result_prec(x, y))};
    mpfi_union(r.get_mutable(), x.get(), y.get());
    return r;
}
bool intersect(const IntervalMp& x, const IntervalMp& y, IntervalMp& out) {
    IntervalMp r{Precision(result_prec(x, y))};
    mpfi_intersect(r.get_mutable(), x.get(), y.get());
    if (mpfi_is_empty(r.get())) return false;
    out = std::move(r);
    return true;
}
IntervalMp inflate(const IntervalMp& x, double r) {
    if (!(r >= 0)) throw std::invalid_argument("inflate: radius must be >= 0");
    return x + IntervalMp::bounds(-r, r, Precision(x.precision()));
}

bool certainly_positive(const IntervalMp& x) { return mpfi_is_strictly_pos(x.get()) > 0; }
bool certainly_negative(const IntervalMp& x) { return mpfi_is_strictly_neg(x.get()) > 0; }
bool certainly_nonnegative(const IntervalMp& x) { return mpfi_is_nonneg(x.get()) > 0; }
bool certainly_nonpositive(const IntervalMp& x) { return mpfi_is_nonpos(x.get()) > 0; }
bool certainly_nonzero(const IntervalMp& x) { return !mpfi_has_zero(x.get()); }
bool certainly_less(const IntervalMp& x, const IntervalMp& y) { Ends a(x), b(y); return mpfr_less_p(a.u, b.l); }
bool certainly_less_equal(const IntervalMp& x, const IntervalMp& y) { Ends a(x), b(y); return mpfr_lessequal_p(a.u, b.l); }
bool possibly_zero(const IntervalMp& x) { return mpfi_has_zero(x.get()) != 0; }
bool possibly_positive(const IntervalMp& x) { Ends a(x); return mpfr_sgn(a.u) > 0; }
bool possibly_negative(const IntervalMp& x) { Ends a(x); return mpfr_sgn(a.l) < 0; }
bool possibly_less(const IntervalMp& x, const IntervalMp& y) { Ends a(x), b(y); return mpfr_less_p(a.l, b.u); }
bool contains(const IntervalMp& x, double v) { return mpfi_is_inside_d(v, x.get()) > 0; }
bool subset(const IntervalMp& inner, const IntervalMp& outer) { return mpfi_is_inside(inner.get(), outer.get()) > 0; }
bool is_point(const IntervalMp& x) { Ends a(x); return mpfr_equal_p(a.l, a.u); }
bool is_bounded(const IntervalMp& x) { return mpfi_bounded_p(x.get()) != 0; }

std::string lower_string(const IntervalMp& x, int digits) { Ends a(x); return internal::format_bound(a.l, digits, MPFR_RNDD); }
std::string upper_string(const IntervalMp& x, int digits) { Ends a(x); return internal::format_bound(a.u, digits, MPFR_RNDU); }
std::string to_string(const IntervalMp& x, int digits) {
    return "[" + lower_string(x, digits) + ", " + upper_string(x, digits) + "]";
}

IntervalD to_interval_d(const IntervalMp& x) { return IntervalD::bounds(x.lower_double(), x.upper_double()); }
IntervalMp to_interval_mp(const IntervalD& x, Precision p) { return IntervalMp::bounds(x.lower(), x.upper(), p); }

}  // namespace flowcert
