// tests/interval/adapters.hpp -- TestAdapter<I> for the two flowcert back ends: build an
// interval with given exact bounds and read its bounds back exactly (see reference.hpp).
#pragma once

#include <flowcert/interval.hpp>

#include <stdexcept>

#include "reference.hpp"

namespace flowcert::testing {

struct AdapterD {
    static Format format(long) { return kDoubleFormat; }
    static IntervalD make(const Bounds& b, long) {
        const double lo = mpfr_get_d(b.lo.v, MPFR_RNDN), hi = mpfr_get_d(b.hi.v, MPFR_RNDN);
        if (mpfr_cmp_d(b.lo.v, lo) != 0 || mpfr_cmp_d(b.hi.v, hi) != 0)
            throw std::logic_error("test bug: bounds are not doubles: " + b.str());
        return IntervalD::bounds(lo, hi);
    }
    static Bounds bounds(const IntervalD& x) {
        Bounds b(53);
        mpfr_set_d(b.lo.v, x.lower(), MPFR_RNDN);
        mpfr_set_d(b.hi.v, x.upper(), MPFR_RNDN);
        return b;
    }
};

struct AdapterMp {
    static Format format(long prec) { return mp_format(prec); }
    static IntervalMp make(const Bounds& b, long prec) {
        IntervalMp x = IntervalMp::from_mpfr(b.lo.v, b.hi.v, Precision(prec));
        // the bounds must be taken exactly, or the test would check the wrong thing
        const Bounds back = bounds(x);
        if (mpfr_cmp(back.lo.v, b.lo.v) != 0 || mpfr_cmp(back.hi.v, b.hi.v) != 0)
            throw std::logic_error("test bug: bounds not exact at " + std::to_string(prec) + " bits: " + b.str());
        return x;
    }
    static Bounds bounds(const IntervalMp& x) {
        Bounds b(x.precision());
        mpfi_get_left(b.lo.v, x.get());
        mpfi_get_right(b.hi.v, x.get());
        return b;
    }
};

}  // namespace flowcert::testing
