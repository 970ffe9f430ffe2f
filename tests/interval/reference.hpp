// tests/interval/reference.hpp -- exact references and a templated containment checker for
// the interval tests.
//
// Every interval (of any back end) is read back as a pair of MPFR numbers holding its bounds
// exactly. Exact points are drawn inside the operand intervals as MPFR numbers at a reference
// precision >= 4x the working precision (a point only needs to lie in the interval, so any
// representable number between the bounds is a valid exact point). Rational operations are
// then evaluated exactly with GMP rationals; transcendental ones with MPFR at the reference
// precision, rounded down and up, which gives a rigorous enclosure [fD, fU] of f(point). A
// result [lo, hi] passes when lo <= exact <= hi (resp. lo <= fD and fU <= hi; since lo and hi
// are representable at the reference precision this is equivalent to containing f(point)).
//
// The checker is a template over an adapter `TestAdapter<I>` so that the very same code is
// run against a deliberately non-outward interval type (teeth_test.cpp) and must find a
// violation there.
#pragma once

#include <gmp.h>
#include <mpfr.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace flowcert::testing {

// ---- small RAII wrappers --------------------------------------------------------------
struct Real {
    mpfr_t v;
    explicit Real(long prec = 53) { mpfr_init2(v, prec); mpfr_set_zero(v, +1); }
    Real(const Real& o) { mpfr_init2(v, mpfr_get_prec(o.v)); mpfr_set(v, o.v, MPFR_RNDN); }
    Real& operator=(const Real& o) {
        if (this != &o) { mpfr_set_prec(v, mpfr_get_prec(o.v)); mpfr_set(v, o.v, MPFR_RNDN); }
        return *this;
    }
    ~Real() { mpfr_clear(v); }
    long prec() const { return static_cast<long>(mpfr_get_prec(v)); }
    std::string str() const {
        if (mpfr_nan_p(v)) return "nan";
        if (mpfr_inf_p(v)) return mpfr_sgn(v) > 0 ? "inf" : "-inf";
        char* buf = nullptr;
        mpfr_asprintf(&buf, "%.20Rg", v);
        std::string s(buf);
        mpfr_free_str(buf);
        return s;
    }
};

struct Rat {
    mpq_t v;
    Rat() { mpq_init(v); }
    Rat(const Rat& o) { mpq_init(v); mpq_set(v, o.v); }
    Rat& operator=(const Rat& o) { mpq_set(v, o.v); return *this; }
    ~Rat() { mpq_clear(v); }
};

// Exact bounds of an interval. lo/hi may be infinite.
struct Bounds {
    Real lo, hi;
    Bounds(long prec = 53) : lo(prec), hi(prec) {}
    std::string str() const { return "[" + lo.str() + ", " + hi.str() + "]"; }
    bool finite_lo() const { return !mpfr_inf_p(lo.v); }
    bool finite_hi() const { return !mpfr_inf_p(hi.v); }
};

// ---- number formats for random generation -----------------------------------------------
struct Format {
    long bits;       // significand bits of a bound
    long emin, emax; // exponent range (MPFR convention: x = m * 2^e, 0.5 <= |m| < 1)
    bool subnormals; // IEEE double: denormal bounds exist
};
inline constexpr Format kDoubleFormat{53, -1021, 1024, true};
inline Format mp_format(long bits) { return Format{bits, -1200, 1200, false}; }

// A random bound in the format: a mix of simple numbers, moderate, huge, tiny and subnormal
// magnitudes, extremes (largest finite, smallest positive) and infinities.
inline void random_bound(std::mt19937_64& rng, const Format& f, mpfr_t out, bool allow_inf) {
    std::uniform_int_distribution<int> kind(0, allow_inf ? 11 : 10);
    const bool neg = (rng() & 1) != 0;
    mpfr_set_prec(out, f.bits);
    auto random_mantissa = [&](long exp) {
        // a random f.bits-bit significand in [0.5, 1), scaled by 2^exp
        mpz_t m;
        mpz_init(m);
        for (long b = 0; b < f.bits; b += 64) {
            mpz_mul_2exp(m, m, 64);
            mpz_add_ui(m, m, static_cast<unsigned long>(rng()));
        }
        mpz_tdiv_q_2exp(m, m, static_cast<unsigned long>((f.bits + 63) / 64 * 64 - f.bits));
        mpz_setbit(m, static_cast<unsigned long>(f.bits - 1));
        mpfr_set_z_2exp(out, m, exp - f.bits, MPFR_RNDN);  // exact
        mpz_clear(m);
    };
    switch (kind(rng)) {
    case 0: mpfr_set_zero(out, +1); break;
    case 1: mpfr_set_si_2exp(out, std::uniform_int_distribution<long>(1, 16)(rng), -3, MPFR_RNDN); break;  // k/8
    case 2: mpfr_set_si(out, std::uniform_int_distribution<long>(1, 3)(rng), MPFR_RNDN); break;
    case 3:
    case 4: random_mantissa(std::uniform_int_distribution<long>(-20, 20)(rng)); break;
    case 5: random_mantissa(std::uniform_int_distribution<long>(f.emax - 80, f.emax)(rng)); break;   // huge
    case 6: random_mantissa(std::uniform_int_distribution<long>(f.emin, f.emin + 80)(rng)); break;   // tiny
    case 7:
        if (f.subnormals) {  // a random subnormal double
            const std::uint64_t bits = rng() & ((std::uint64_t{1} << 52) - 1);
            mpfr_set_d(out, std::bit_cast<double>(bits | 1), MPFR_RNDN);
        } else {
            random_mantissa(f.emin);
        }
        break;
    case 8:  // largest finite
        mpfr_set_inf(out, +1);
        mpfr_nextbelow(out);
        if (f.subnormals) mpfr_set_d(out, std::numeric_limits<double>::max(), MPFR_RNDN);
        else { mpfr_set_ui_2exp(out, 1, f.emax, MPFR_RNDN); mpfr_nextbelow(out); }
        break;
    case 9:  // smallest positive
        if (f.subnormals) mpfr_set_d(out, std::numeric_limits<double>::denorm_min(), MPFR_RNDN);
        else mpfr_set_ui_2exp(out, 1, f.emin - 1, MPFR_RNDN);
        break;
    case 10: random_mantissa(std::uniform_int_distribution<long>(-300, 300)(rng)); break;
    default: mpfr_set_inf(out, +1); break;
    }
    if (neg) mpfr_neg(out, out, MPFR_RNDN);
}

// A random interval with bounds in the format: ordered pairs, points, intervals straddling
// zero, and narrow intervals a few units in the last place wide.
inline Bounds random_bounds(std::mt19937_64& rng, const Format& f, bool allow_inf = true) {
    Bounds b(f.bits);
    const int shape = std::uniform_int_distribution<int>(0, 5)(rng);
    random_bound(rng, f, b.lo.v, allow_inf);
    if (shape == 0 && !mpfr_inf_p(b.lo.v)) {  // a point
        mpfr_set(b.hi.v, b.lo.v, MPFR_RNDN);
        return b;
    }
    if (shape == 1 && !mpfr_inf_p(b.lo.v)) {  // narrow: a few ulps
        const int k = std::uniform_int_distribution<int>(1, 4)(rng);
        if (f.subnormals) {  // IEEE doubles: step through the double grid (subnormals included)
            double h = mpfr_get_d(b.lo.v, MPFR_RNDN);
            for (int i = 0; i < k; ++i) h = std::nextafter(h, std::numeric_limits<double>::infinity());
            mpfr_set_d(b.hi.v, h, MPFR_RNDN);
        } else {
            mpfr_set(b.hi.v, b.lo.v, MPFR_RNDN);
            if (mpfr_zero_p(b.hi.v)) mpfr_set_ui_2exp(b.hi.v, 1, f.emin - 1, MPFR_RNDN);  // not MPFR's own minimum
            else for (int i = 0; i < k; ++i) mpfr_nextabove(b.hi.v);
        }
        return b;
    }
    random_bound(rng, f, b.hi.v, allow_inf);
    if (shape == 2) {  // straddle zero
        mpfr_abs(b.hi.v, b.hi.v, MPFR_RNDN);
        mpfr_abs(b.lo.v, b.lo.v, MPFR_RNDN);
        mpfr_neg(b.lo.v, b.lo.v, MPFR_RNDN);
    }
    if (mpfr_cmp(b.lo.v, b.hi.v) > 0) mpfr_swap(b.lo.v, b.hi.v);
    // [inf, inf] and [-inf, -inf] are not intervals of reals
    if (mpfr_inf_p(b.lo.v) && mpfr_sgn(b.lo.v) > 0) mpfr_set_zero(b.lo.v, +1);
    if (mpfr_inf_p(b.hi.v) && mpfr_sgn(b.hi.v) < 0) mpfr_set_zero(b.hi.v, +1);
    return b;
}

// ---- exact points inside an interval ------------------------------------------------------
// A finite point of [lo, hi] at precision `prec`: an endpoint, a random interior point, a point
// very close to an endpoint, a tiny point near zero when zero is inside, or (for an infinite
// bound) a point far beyond the double range.
inline Real random_point(std::mt19937_64& rng, const Bounds& b, long prec) {
    Real p(prec);
    const bool fl = b.finite_lo(), fh = b.finite_hi();
    const int kind = std::uniform_int_distribution<int>(0, 7)(rng);
    auto set_far = [&](int sign, const mpfr_t from) {  // from +- 2^e * u, u in [1, 2)
        Real step(prec);
        const long e = std::uniform_int_distribution<long>(0, 1300)(rng);
        mpfr_set_ui_2exp(step.v, (rng() >> 11) | (std::uint64_t{1} << 52), e - 52, MPFR_RNDN);
        if (sign > 0) mpfr_add(p.v, from, step.v, MPFR_RNDN);
        else mpfr_sub(p.v, from, step.v, MPFR_RNDN);
    };
    Real zero(prec);
    if (kind == 0 && fl) { mpfr_set(p.v, b.lo.v, MPFR_RNDN); return p; }
    if (kind == 1 && fh) { mpfr_set(p.v, b.hi.v, MPFR_RNDN); return p; }
    if (!fl && !fh) {
        if (kind < 4) { set_far(kind % 2 ? +1 : -1, zero.v); return p; }
        mpfr_set_si_2exp(p.v, static_cast<long>(rng() % 2001) - 1000, -static_cast<long>(rng() % 12), MPFR_RNDN);
        return p;
    }
    if (!fl) { set_far(-1, b.hi.v); if (kind == 2) mpfr_set(p.v, b.hi.v, MPFR_RNDN); return p; }
    if (!fh) { set_far(+1, b.lo.v); if (kind == 2) mpfr_set(p.v, b.lo.v, MPFR_RNDN); return p; }
    if (kind == 3 && mpfr_sgn(b.lo.v) <= 0 && mpfr_sgn(b.hi.v) >= 0) {  // tiny point near zero
        const long e = std::uniform_int_distribution<long>(-1300, -1)(rng);
        mpfr_set_ui_2exp(p.v, (rng() >> 11) | 1, e - 53, MPFR_RNDN);
        if (rng() & 1) mpfr_neg(p.v, p.v, MPFR_RNDN);
        if (mpfr_cmp(p.v, b.lo.v) < 0 || mpfr_cmp(p.v, b.hi.v) > 0) mpfr_set_zero(p.v, +1);
        return p;
    }
    // lo + t (hi - lo), t in [0, 1] (or t = 2^-k for points near lo), clamped into [lo, hi]
    Real w(prec), t(prec);
    mpfr_sub(w.v, b.hi.v, b.lo.v, MPFR_RNDN);
    if (kind == 4) mpfr_set_ui_2exp(t.v, 1, -static_cast<long>(rng() % 200), MPFR_RNDN);
    else mpfr_set_ui_2exp(t.v, rng() >> 11, -53, MPFR_RNDN);
    mpfr_mul(w.v, w.v, t.v, MPFR_RNDN);
    if (kind == 5) mpfr_sub(p.v, b.hi.v, w.v, MPFR_RNDN);
    else mpfr_add(p.v, b.lo.v, w.v, MPFR_RNDN);
    if (mpfr_cmp(p.v, b.lo.v) < 0) mpfr_set(p.v, b.lo.v, MPFR_RNDN);
    if (mpfr_cmp(p.v, b.hi.v) > 0) mpfr_set(p.v, b.hi.v, MPFR_RNDN);
    return p;
}

inline bool in_bounds(const Bounds& b, mpfr_srcptr x) {
    return mpfr_cmp(b.lo.v, x) <= 0 && mpfr_cmp(x, b.hi.v) <= 0;
}

// ---- reference functions ------------------------------------------------------------------
// A rational operation on exact points (false: the point is outside its domain, skip it).
using RatUnary = std::function<bool(mpq_t out, const mpq_t x)>;
using RatBinary = std::function<bool(mpq_t out, const mpq_t x, const mpq_t y)>;
// A transcendental operation: MPFR function evaluated with directed rounding.
using MpfrUnary = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);

// Outcome of a containment run: checks made and violations found (the first few described).
struct CheckReport {
    long checks = 0;
    long violations = 0;
    long domain_throws = 0;
    std::vector<std::string> examples;
    void fail(const std::string& s) {
        ++violations;
        if (examples.size() < 5) examples.push_back(s);
    }
    std::string summary() const {
        std::string s = std::to_string(checks) + " checks, " + std::to_string(violations) + " violations";
        for (const auto& e : examples) s += "\n  " + e;
        return s;
    }
};

// Does [lo, hi] contain the rational q?
inline bool contains_q(const Bounds& r, const mpq_t q) {
    return mpfr_cmp_q(r.lo.v, q) <= 0 && mpfr_cmp_q(r.hi.v, q) >= 0;
}
inline std::string q_str(const mpq_t q) {
    Real t(80);
    mpfr_set_q(t.v, q, MPFR_RNDN);
    return t.str();
}

// ---- the checker ------------------------------------------------------------------------
// Adapter requirements (see TestAdapter<IntervalD> etc.):
//   static I make(const Bounds& b, long prec);        // an interval with exactly these bounds
//   static Bounds bounds(const I& x);                 // exact bounds of x
//   static Format format(long prec);                  // bound format at this working precision
template <class I, class A>
struct ContainmentChecker {
    std::mt19937_64 rng;
    long prec;
    long ref_prec;
    int points_per_draw = 4;

    explicit ContainmentChecker(long working_prec, std::uint64_t seed = 0x5eedf10c)
        : rng(seed), prec(working_prec), ref_prec(std::max(4 * working_prec, 256L)) {}

    Bounds draw(bool allow_inf = true) { return random_bounds(rng, A::format(prec), allow_inf); }

    // Unary operation with a rational reference. `domain_empty(b)` tells whether a
    // domain_error thrown by f is justified (no point of b is in the domain).
    template <class F>
    void unary_q(CheckReport& rep, const char* name, F f, const RatUnary& exact, int draws,
                 const std::function<bool(const Bounds&)>& domain_empty = {}) {
        for (int d = 0; d < draws; ++d) {
            const Bounds xb = draw();
            const I x = A::make(xb, prec);
            Bounds rb;
            try {
                rb = A::bounds(f(x));
            } catch (const std::domain_error&) {
                ++rep.domain_throws;
                ++rep.checks;
                if (!domain_empty || !domain_empty(xb)) rep.fail(std::string(name) + " threw on " + xb.str());
                continue;
            }
            Rat px, out;
            for (int k = 0; k < points_per_draw; ++k) {
                const Real p = random_point(rng, xb, ref_prec);
                mpfr_get_q(px.v, p.v);
                if (!exact(out.v, px.v)) continue;
                ++rep.checks;
                if (!contains_q(rb, out.v))
                    rep.fail(std::string(name) + " x=" + xb.str() + " point " + p.str() + " exact " + q_str(out.v) +
                             " not in " + rb.str());
            }
        }
    }

    // Unary operation with a transcendental reference (MPFR, directed rounding at ref_prec).
    // `in_domain(point)` filters points outside the function's domain.
    template <class F>
    void unary_mpfr(CheckReport& rep, const char* name, F f, MpfrUnary g, int draws,
                    const std::function<bool(mpfr_srcptr)>& in_domain = {},
                    const std::function<bool(const Bounds&)>& domain_empty = {}) {
        for (int d = 0; d < draws; ++d) {
            const Bounds xb = draw();
            const I x = A::make(xb, prec);
            Bounds rb;
            try {
                rb = A::bounds(f(x));
            } catch (const std::domain_error&) {
                ++rep.domain_throws;
                ++rep.checks;
                if (!domain_empty || !domain_empty(xb)) rep.fail(std::string(name) + " threw on " + xb.str());
                continue;
            }
            Real lo(ref_prec), hi(ref_prec);
            for (int k = 0; k < points_per_draw; ++k) {
                const Real p = random_point(rng, xb, ref_prec);
                if (in_domain && !in_domain(p.v)) continue;
                g(lo.v, p.v, MPFR_RNDD);
                g(hi.v, p.v, MPFR_RNDU);
                ++rep.checks;
                if (mpfr_cmp(rb.lo.v, lo.v) > 0 || mpfr_cmp(hi.v, rb.hi.v) > 0)
                    rep.fail(std::string(name) + " x=" + xb.str() + " point " + p.str() + " f in [" + lo.str() + ", " +
                             hi.str() + "] not in " + rb.str());
            }
        }
    }

    // Binary operation with a rational reference; `aliased` runs it as x op x (both
    // operands the same object), for which every pair of points of x is checked.
    // Precisions the second operand may take (mixed-precision operations); empty: `prec`.
    std::vector<long> other_precs;
    // If set, draws the second operand (e.g. a leaky-ReLU slope inside [0, 1]).
    std::function<Bounds(std::mt19937_64&, long)> draw_second;

    long second_prec() {
        if (other_precs.empty()) return prec;
        return other_precs[rng() % other_precs.size()];
    }

    template <class F>
    void binary_q(CheckReport& rep, const char* name, F f, const RatBinary& exact, int draws, bool aliased = false,
                  const std::function<bool(const Bounds&, const Bounds&)>& domain_empty = {}) {
        for (int d = 0; d < draws; ++d) {
            const Bounds xb = draw();
            const long p2 = aliased ? prec : second_prec();
            const Bounds yb = aliased ? xb : draw_second ? draw_second(rng, p2) : random_bounds(rng, A::format(p2));
            const I x = A::make(xb, prec);
            const I y = A::make(yb, aliased ? prec : p2);
            Bounds rb;
            try {
                rb = aliased ? A::bounds(f(x, x)) : A::bounds(f(x, y));
            } catch (const std::domain_error&) {
                ++rep.domain_throws;
                ++rep.checks;
                if (!domain_empty || !domain_empty(xb, yb))
                    rep.fail(std::string(name) + " threw on " + xb.str() + ", " + yb.str());
                continue;
            }
            Rat px, py, out;
            for (int k = 0; k < points_per_draw; ++k) {
                const Real p = random_point(rng, xb, ref_prec);
                const Real q = random_point(rng, yb, ref_prec);
                mpfr_get_q(px.v, p.v);
                mpfr_get_q(py.v, q.v);
                if (!exact(out.v, px.v, py.v)) continue;
                ++rep.checks;
                if (!contains_q(rb, out.v))
                    rep.fail(std::string(name) + (aliased ? " (aliased)" : "") + " x=" + xb.str() + " y=" + yb.str() +
                             " points " + p.str() + ", " + q.str() + " exact " + q_str(out.v) + " not in " + rb.str());
            }
        }
    }
};

// ---- rational references ------------------------------------------------------------------
inline bool q_add(mpq_t o, const mpq_t x, const mpq_t y) { mpq_add(o, x, y); return true; }
inline bool q_sub(mpq_t o, const mpq_t x, const mpq_t y) { mpq_sub(o, x, y); return true; }
inline bool q_mul(mpq_t o, const mpq_t x, const mpq_t y) { mpq_mul(o, x, y); return true; }
inline bool q_div(mpq_t o, const mpq_t x, const mpq_t y) {
    if (mpq_sgn(y) == 0) return false;  // 0 is outside the domain of x / y
    mpq_div(o, x, y);
    return true;
}
inline bool q_min(mpq_t o, const mpq_t x, const mpq_t y) { mpq_set(o, mpq_cmp(x, y) <= 0 ? x : y); return true; }
inline bool q_max(mpq_t o, const mpq_t x, const mpq_t y) { mpq_set(o, mpq_cmp(x, y) >= 0 ? x : y); return true; }
inline bool q_sqr(mpq_t o, const mpq_t x) { mpq_mul(o, x, x); return true; }
inline bool q_abs(mpq_t o, const mpq_t x) { mpq_abs(o, x); return true; }
inline bool q_neg(mpq_t o, const mpq_t x) { mpq_neg(o, x); return true; }
inline bool q_relu(mpq_t o, const mpq_t x) {
    if (mpq_sgn(x) > 0) mpq_set(o, x); else mpq_set_ui(o, 0, 1);
    return true;
}
// leaky relu max(x, g x) with g the second operand
inline bool q_leaky(mpq_t o, const mpq_t x, const mpq_t g) {
    mpq_t gx;
    mpq_init(gx);
    mpq_mul(gx, g, x);
    mpq_set(o, mpq_cmp(x, gx) >= 0 ? x : gx);
    mpq_clear(gx);
    return true;
}
inline RatUnary q_pow(int n) {
    return [n](mpq_t o, const mpq_t x) {
        if (n < 0 && mpq_sgn(x) == 0) return false;
        mpq_set_ui(o, 1, 1);
        for (int i = 0; i < std::abs(n); ++i) mpq_mul(o, o, x);
        if (n < 0) mpq_inv(o, o);
        return true;
    };
}

}  // namespace flowcert::testing
