// flowcert/ode/time_taylor_model.hpp -- univariate Taylor models in the time of one step.
//
// A TimeTm denotes the set of functions f with f(s) in sum_i c_i s^i + r for every s in [0, H]
// (interval coefficients, interval remainder) [Berz & Makino 1998; Makino & Berz 2003]. The
// operations below are the ones the block-structured flows need: sums, products truncated at the
// order p (the truncated terms bounded over [0, H] into the remainder), integration from 0, and the
// remainder needed to contain a model in another one. IntervalD only; inline (inner loops).
#pragma once

#if !defined(FLOWCERT_ODE_INTERNAL)
#error "include <flowcert/ode.hpp>, not the internal headers"
#endif

#include <flowcert/interval.hpp>

#include <algorithm>
#include <array>

namespace flowcert::ode {

inline constexpr int kTmMaxOrder = 16;

struct TimeTm {
    std::array<IntervalD, kTmMaxOrder + 1> c{};
    IntervalD r{};
};

// The order p and the powers of s over [0, H].
struct TmPowers {
    int p = 0;
    IntervalD s;                                         // [0, H]
    std::array<IntervalD, 2 * kTmMaxOrder + 2> pw;       // pw[i] encloses {s^i : s in [0, H]} = [0, H^i]
    void set(int order, double H) {
        p = order;
        s = IntervalD::bounds(0.0, H);
        pw[0] = IntervalD(1);
        const IntervalD hh = IntervalD::exact(H);
        IntervalD acc = IntervalD(1);
        for (int i = 1; i < static_cast<int>(pw.size()); ++i) {
            acc = acc * hh;
            pw[i] = IntervalD::bounds(0.0, acc.upper());
        }
    }
};

// Horner over s in [0, H] (every s^i >= 0).
inline IntervalD poly_range(const std::array<IntervalD, kTmMaxOrder + 1>& c, int deg, const IntervalD& s) {
    IntervalD acc = c[deg];
    for (int i = deg - 1; i >= 0; --i) acc = acc * s + c[i];
    return acc;
}
inline IntervalD poly_at(const std::array<IntervalD, kTmMaxOrder + 1>& c, int deg, const IntervalD& s) {
    return poly_range(c, deg, s);
}
inline IntervalD tm_range(const TimeTm& a, const TmPowers& P) { return poly_range(a.c, P.p, P.s) + a.r; }

inline void tm_zero(TimeTm& a, int p) {
    for (int i = 0; i <= p; ++i) a.c[i] = IntervalD(0);
    a.r = IntervalD(0);
}
inline void tm_add_to(TimeTm& acc, const TimeTm& b, int p) {
    for (int i = 0; i <= p; ++i) acc.c[i] += b.c[i];
    acc.r += b.r;
}
inline void tm_axpy(TimeTm& acc, const IntervalD& k, const TimeTm& b, int p) {
    for (int i = 0; i <= p; ++i) acc.c[i] += k * b.c[i];
    acc.r += k * b.r;
}

// out = a * b truncated at degree p; the terms of degree p+1..2p are bounded over [0, H]
// and go to the remainder with the cross terms of the remainders.
inline void tm_mul(const TimeTm& a, const TimeTm& b, const TmPowers& P, TimeTm& out) {
    const int p = P.p;
    for (int i = 0; i <= p; ++i) {
        IntervalD acc = a.c[0] * b.c[i];
        for (int l = 1; l <= i; ++l) acc += a.c[l] * b.c[i - l];
        out.c[i] = acc;
    }
    IntervalD high = IntervalD(0);
    for (int i = 2 * p; i >= p + 1; --i) {
        IntervalD acc = a.c[i - p] * b.c[p];
        for (int l = i - p + 1; l <= p; ++l) acc += a.c[l] * b.c[i - l];
        high = high * P.s + acc;
    }
    high = high * P.pw[p + 1];
    const IntervalD ra = poly_range(a.c, p, P.s), rb = poly_range(b.c, p, P.s);
    out.r = high + ra * b.r + rb * a.r + a.r * b.r;
}

// out(s) = x0 + int_0^s t(u) du, truncated at degree p (the degree p+1 term goes to the
// remainder); int_0^s r du lies in s * r, inside [0, H] * r.
inline void tm_integrate(const TimeTm& t, const IntervalD& x0, const TmPowers& P, TimeTm& out) {
    const int p = P.p;
    out.c[0] = x0;
    for (int i = 0; i < p; ++i) out.c[i + 1] = t.c[i] / (i + 1);
    out.r = t.r * P.s + (t.c[p] / (p + 1)) * P.pw[p + 1];
}

// The remainder needed so that every function of `image` lies in the TM (guess.c, needed):
// image.r plus the excess of each image coefficient over the guess coefficient times [0, H^i].
inline IntervalD needed_remainder(const TimeTm& image, const TimeTm& guess, const TmPowers& P) {
    IntervalD need = image.r;
    for (int i = 0; i <= P.p; ++i) {
        const double lo =
            std::min((IntervalD::exact(image.c[i].lower()) - IntervalD::exact(guess.c[i].lower())).lower(), 0.0);
        const double hi =
            std::max((IntervalD::exact(image.c[i].upper()) - IntervalD::exact(guess.c[i].upper())).upper(), 0.0);
        if (lo != 0.0 || hi != 0.0) need += IntervalD::bounds(lo, hi) * P.pw[i];
    }
    return need;
}

// Taylor shift: the coefficients of g(s0 + u) in u (same remainder: the shifted model denotes the
// same functions on the shifted interval).
inline void tm_shift(const TimeTm& g, const IntervalD& s0, int p, TimeTm& out) {
    out.c = g.c;
    for (int i = 0; i < p; ++i)
        for (int l = p - 1; l >= i; --l) out.c[l] += s0 * out.c[l + 1];
    out.r = g.r;
}

}  // namespace flowcert::ode
