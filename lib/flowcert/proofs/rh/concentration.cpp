// The concentration bound delta(d) of the Gram box; see concentration.hpp.
#include "flowcert/proofs/rh/concentration.hpp"

#include <mpfr.h>

#include <stdexcept>

namespace flowcert::proofs::rh {

namespace {

// int_1^D x^-p dx at an exact double p: log D (p = 1), (D^(1-p) - 1) / (1 - p) otherwise.
IntervalD power_integral(const IntervalD& D, double p) {
    if (p == 1.0) return log(D);
    const IntervalD q = IntervalD(1) - IntervalD::exact(p);
    return (exp(q * log(D)) - IntervalD(1)) / q;
}

// The same for p in an interval: the integral is non-increasing in p.
IntervalD power_integral(const IntervalD& D, const IntervalD& p) {
    return hull(power_integral(D, upper(p)), power_integral(D, lower(p)));
}

// sum_{k <= d} k^-p in [int_1^{d+1} x^-p dx, 1 + int_1^d x^-p dx] (x^-p is non-increasing for p >= 0).
IntervalD power_sum(long long d, const IntervalD& p) {
    const IntervalD lo = power_integral(IntervalD(d + 1), p), hi = IntervalD(1) + power_integral(IntervalD(d), p);
    return IntervalD::bounds(lower(lo), upper(hi));
}

double mpfr_erfc_at(double z, mpfr_rnd_t rnd) {
    mpfr_t x;
    mpfr_init2(x, 53);
    mpfr_set_d(x, z, MPFR_RNDN);  // exact: z is a double
    mpfr_erfc(x, x, rnd);         // correctly rounded in the direction rnd
    const double v = mpfr_get_d(x, rnd);
    mpfr_clear(x);
    return v;
}

}  // namespace

SpectrumSums spectrum_sums(const SpectrumFamily& family, long long d) {
    if (d < 1) throw std::invalid_argument("spectrum: d must be >= 1");
    SpectrumSums s;
    s.lambda_max = IntervalD(1);
    if (family.kind == "isotropic") {
        s.trace = IntervalD(d);
        s.trace_sq = IntervalD(d);
        return s;
    }
    if (family.kind != "power_law") throw std::invalid_argument("spectrum: unknown kind '" + family.kind + "'");
    if (!certainly_nonnegative(family.alpha)) throw std::invalid_argument("spectrum: alpha must be >= 0");
    s.trace = power_sum(d, family.alpha);
    s.trace_sq = power_sum(d, IntervalD(2) * family.alpha);
    return s;
}

IntervalD erfc_enclosure(const IntervalD& z) {
    if (!certainly_nonnegative(z)) throw std::invalid_argument("erfc_enclosure: z must be >= 0");
    // erfc is decreasing: erfc([a, b]) = [erfc(b), erfc(a)]
    return IntervalD::bounds(mpfr_erfc_at(upper(z), MPFR_RNDD), mpfr_erfc_at(lower(z), MPFR_RNDU));
}

BoxProbability box_failure_bound(int n, const IntervalD& kappa, const IntervalD& eps, const SpectrumSums& sums,
                                 const IntervalD& theta) {
    if (n < 1) throw std::invalid_argument("box_failure_bound: n must be >= 1");
    if (!certainly_positive(kappa) || !certainly_positive(eps) || !certainly_positive(theta))
        throw std::invalid_argument("box_failure_bound: kappa, eps and theta must be > 0");
    BoxProbability b;
    const IntervalD& tau = sums.trace;
    const IntervalD& S2 = sums.trace_sq;
    const IntervalD& l1 = sums.lambda_max;
    const IntervalD a = sqrt(S2);  // ||lambda||_2
    // [LaurentMassart2000, Lemma 1], upper tail: the positive root of 2 l1 s^2 + 2 a s = kappa tau, written
    // without cancellation as s = kappa tau / (a + sqrt(a^2 + 2 l1 kappa tau))
    const IntervalD s = kappa * tau / (a + sqrt(S2 + IntervalD(2) * l1 * kappa * tau));
    b.s2_diag_upper = sqr(s);
    b.x_diag_lower = sqr(kappa * tau) / (IntervalD(4) * S2);  // lower tail: 2 a sqrt(x) = kappa tau
    b.x_variance = theta * b.x_diag_lower;
    // V = S2 + 2 l1 sqrt(S2 x_v) + 2 l1^2 x_v >= sum a_k + 2 ||a||_2 sqrt(x_v) + 2 ||a||_inf x_v for a = lambda^2
    const IntervalD V = S2 + IntervalD(2) * l1 * sqrt(S2 * b.x_variance) + IntervalD(2) * sqr(l1) * b.x_variance;
    b.variance_level = V / sqr(tau);
    const IntervalD nn(n);
    b.p_diag_upper = nn * exp(-b.s2_diag_upper);
    b.p_diag_lower = nn * exp(-b.x_diag_lower);
    b.p_variance = IntervalD(n - 1) * exp(-b.x_variance);
    // 2 Phi^c(t) = erfc(t / sqrt 2), t = eps tau / sqrt(V): erfc(eps tau / sqrt(2 V)) = erfc(eps / sqrt(2 V / tau^2))
    const IntervalD z = eps / sqrt(IntervalD(2) * b.variance_level);
    b.p_offdiag = IntervalD(n) * IntervalD(n - 1) / IntervalD(2) * erfc_enclosure(z);
    b.delta = b.p_diag_upper + b.p_diag_lower + b.p_variance + b.p_offdiag;
    return b;
}

long long smallest_dimension(int n, const IntervalD& kappa, const IntervalD& eps, const SpectrumFamily& family,
                             double target, const IntervalD& theta) {
    auto ok = [&](long long d) { return upper(box_failure_bound(n, kappa, eps, spectrum_sums(family, d), theta).delta) <= target; };
    constexpr long long dmax = 1LL << 52;
    long long hi = 1;
    while (hi < dmax && !ok(hi)) hi *= 2;
    if (!ok(hi)) return -1;
    long long lo = hi / 2;  // ok(lo) is false (or lo = 0)
    while (hi - lo > 1) {
        const long long mid = lo + (hi - lo) / 2;
        (ok(mid) ? hi : lo) = mid;
    }
    return hi;
}

}  // namespace flowcert::proofs::rh
