#include <flowcert/interval.hpp>

#include <mpfr.h>

#include <cfenv>
#include <cfloat>
#include <functional>
#include <string>

namespace flowcert {

std::string SelfTestResult::summary() const {
    std::string s = "rounding self-test: " + std::to_string(checks_run - static_cast<int>(failures.size())) + "/" +
                    std::to_string(checks_run) + " checks passed";
    for (const auto& f : failures) s += "\n  FAILED: " + f;
    return s;
}

namespace {

// Exact rational value of a double.
void set_q(mpq_t q, double d) { mpq_set_d(q, d); }

// True if the rational `exact` lies in [lo, hi].
bool encloses(double lo, double hi, const mpq_t exact) {
    mpq_t l, u;
    mpq_inits(l, u, nullptr);
    set_q(l, lo);
    set_q(u, hi);
    const bool ok = mpq_cmp(l, exact) <= 0 && mpq_cmp(exact, u) <= 0;
    mpq_clears(l, u, nullptr);
    return ok;
}

}  // namespace

SelfTestResult run_rounding_self_test() {
    SelfTestResult r;
    auto check = [&r](bool ok, const std::string& what) {
        ++r.checks_run;
        if (!ok) r.failures.push_back(what);
    };

    // 1. Environment: the scheme needs round-to-nearest and no excess precision.
    check(std::fegetround() == FE_TONEAREST, "floating-point rounding mode is round-to-nearest");
    check(FLT_EVAL_METHOD == 0, "FLT_EVAL_METHOD == 0 (no excess precision)");
    volatile double tiny = 0x1p-60, one = 1.0;
    check(one + tiny == 1.0 && one - tiny == 1.0, "1 +- 2^-60 rounds to 1 (round to nearest)");

    // 2. IntervalD operations on operands whose exact results are not doubles.
    mpq_t exact, a, b;
    mpq_inits(exact, a, b, nullptr);
    const double xs[] = {0.1, 1.0 / 3.0, -2.7, 1e300, 3e-310, 7.0};
    const double ys[] = {0.2, 3.0, 1e-300, -1e-8, 0x1p-1000, -5.0};
    for (double x : xs)
        for (double y : ys) {
            const IntervalD X = IntervalD::exact(x), Y = IntervalD::exact(y);
            set_q(a, x);
            set_q(b, y);
            const IntervalD s = X + Y;
            mpq_add(exact, a, b);
            check(encloses(s.lower(), s.upper(), exact), "IntervalD add encloses the exact sum");
            const IntervalD p = X * Y;
            mpq_mul(exact, a, b);
            check(std::isinf(p.upper()) || std::isinf(p.lower()) || encloses(p.lower(), p.upper(), exact),
                  "IntervalD mul encloses the exact product");
            const IntervalD q = X / Y;
            mpq_div(exact, a, b);
            check(std::isinf(q.upper()) || std::isinf(q.lower()) || encloses(q.lower(), q.upper(), exact),
                  "IntervalD div encloses the exact quotient");
        }
    // 3. Exact decimal input: [0.1] contains 1/10 and is one ulp wide.
    const IntervalD tenth = IntervalD::from_decimal("0.1");
    mpq_set_ui(exact, 1, 10);
    check(encloses(tenth.lower(), tenth.upper(), exact) && rounding::next_up(tenth.lower()) == tenth.upper(),
          "from_decimal(\"0.1\") is the tightest enclosure of 1/10");
    // 4. sqrt(2) and exp(1) against MPFR at 200 bits.
    mpfr_t ref;
    mpfr_init2(ref, 200);
    const IntervalD r2 = sqrt(IntervalD(2));
    mpfr_sqrt_ui(ref, 2, MPFR_RNDN);
    check(mpfr_cmp_d(ref, r2.lower()) > 0 && mpfr_cmp_d(ref, r2.upper()) < 0, "IntervalD sqrt(2) encloses sqrt 2");
    const IntervalD e1 = exp(IntervalD(1));
    mpfr_set_ui(ref, 1, MPFR_RNDN);
    mpfr_exp(ref, ref, MPFR_RNDN);
    check(mpfr_cmp_d(ref, e1.lower()) > 0 && mpfr_cmp_d(ref, e1.upper()) < 0, "IntervalD exp(1) encloses e");
    // 5. IntervalMp at 128 bits: 1/3 * 3 contains 1, and the enclosure of 1/3 is tight.
    const IntervalMp third = IntervalMp::from_integer(1, Precision(128)) / IntervalMp(3);
    check(contains(third * IntervalMp(3), 1.0), "IntervalMp (1/3)*3 contains 1");
    check(width(third) < 0x1p-126, "IntervalMp 1/3 at 128 bits is tight");
    mpfr_clear(ref);
    mpq_clears(exact, a, b, nullptr);
    r.passed = r.failures.empty() && r.checks_run > 0;
    return r;
}

}  // namespace flowcert
