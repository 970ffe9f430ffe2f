// Tests of the concentration bound delta(d) of the Gram box (lib/flowcert/proofs/rh/concentration.hpp):
// the spectrum sums and erfc against high-precision references, each Laurent-Massart tail and the whole
// bound against Monte Carlo estimates (the estimate must lie below the bound; a bound broken on purpose,
// e^-4x, lies below the estimate, so the comparison can fail), monotonicity in d and the d0 search.
#include <catch2/catch.hpp>

#include <boost/multiprecision/mpfr.hpp>

#include <cmath>
#include <vector>

#include <flowcert/nets.hpp>
#include "flowcert/proofs/rh/concentration.hpp"

using namespace flowcert;
using namespace flowcert::proofs::rh;
using Mp = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<60>>;

namespace {
SpectrumFamily power_law(const char* alpha) {
    SpectrumFamily f;
    f.kind = "power_law";
    f.alpha = IntervalD::from_decimal(alpha);
    return f;
}
bool contains_mp(const IntervalD& x, const Mp& v) { return Mp(lower(x)) <= v && v <= Mp(upper(x)); }

// Monte Carlo (non-rigorous): the fraction of `trials` draws of Y = sum_k a_k (g_k^2 - 1) at or above `hi`
// and at or below `lo`.
std::pair<double, double> chi_square_tails(const std::vector<double>& a, double lo, double hi, int trials, std::uint64_t seed) {
    int above = 0, below = 0;
    std::vector<double> g(a.size());
    for (int t = 0; t < trials; ++t) {
        nets::RandomStream r(seed, "mc", static_cast<std::uint64_t>(t));
        r.fill_gaussian(g);
        double y = 0;
        for (size_t k = 0; k < a.size(); ++k) y += a[k] * (g[k] * g[k] - 1.0);
        above += y >= hi;
        below += y <= lo;
    }
    return {static_cast<double>(below) / trials, static_cast<double>(above) / trials};
}
}  // namespace

TEST_CASE("spectrum sums enclose the exact sums (isotropic exactly, power law by integral bounds)", "[rh][concentration]") {
    const SpectrumSums iso = spectrum_sums(SpectrumFamily{}, 12345);
    CHECK((lower(iso.trace) == 12345 && upper(iso.trace) == 12345 && lower(iso.trace_sq) == 12345));
    for (const char* alpha : {"0", "1/4", "1/2", "1", "3/2"})
        for (long long d : {1LL, 2LL, 10LL, 1000LL, 20000LL}) {
            const SpectrumSums s = spectrum_sums(power_law(alpha), d);
            const Mp a = Mp(IntervalD::from_decimal(alpha).lower());  // the alphas above are exact doubles
            Mp t = 0, t2 = 0;
            for (long long k = 1; k <= d; ++k) {
                t += pow(Mp(k), -a);
                t2 += pow(Mp(k), -2 * a);
            }
            INFO("alpha = " << alpha << ", d = " << d << ": tau in " << to_string(s.trace, 10) << ", S2 in " << to_string(s.trace_sq, 10));
            CHECK(contains_mp(s.trace, t));
            CHECK(contains_mp(s.trace_sq, t2));
            CHECK(upper(s.trace) - lower(s.trace) <= 1.0 + 1e-9);  // the integral bounds differ by at most f(1) = 1
        }
    CHECK_THROWS_AS(spectrum_sums(SpectrumFamily{"spike", IntervalD(0)}, 10), std::invalid_argument);
    CHECK_THROWS_AS(spectrum_sums(SpectrumFamily{}, 0), std::invalid_argument);
}

TEST_CASE("erfc_enclosure contains erfc at 200 bits and is one ulp wide", "[rh][concentration]") {
    using Mp200 = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<200>>;
    for (double z : {0.0, 0.1, 1.0, 2.5, 5.0, 10.0, 26.0}) {
        const IntervalD e = erfc_enclosure(IntervalD::exact(z));
        const Mp200 ref = boost::multiprecision::erfc(Mp200(z));
        CHECK((Mp200(lower(e)) <= ref && ref <= Mp200(upper(e))));
        CHECK(std::nextafter(lower(e), 1.0) >= upper(e));
    }
    CHECK_THROWS_AS(erfc_enclosure(IntervalD::exact(-1.0)), std::invalid_argument);
}

TEST_CASE("each Laurent-Massart tail lies above a Monte Carlo estimate, and e^-4x (broken) does not", "[rh][concentration]") {
    // Y = sum_k lambda_k (g_k^2 - 1) for the isotropic d = 100 and the power law lambda_k = k^-1/2, d = 200.
    for (int fam = 0; fam < 2; ++fam) {
        const int d = fam == 0 ? 100 : 200;
        std::vector<double> a(d);
        for (int k = 0; k < d; ++k) a[k] = fam == 0 ? 1.0 : 1.0 / std::sqrt(static_cast<double>(k + 1));
        double s2 = 0, amax = 0;
        for (double v : a) s2 += v * v, amax = std::max(amax, v);
        const double x = 1.0;
        const double hi = 2 * std::sqrt(s2 * x) + 2 * amax * x, lo = -2 * std::sqrt(s2 * x);
        const auto [below, above] = chi_square_tails(a, lo, hi, 20000, 17 + fam);
        const double bound = upper(exp(-IntervalD::exact(x)));
        INFO("family " << fam << ": MC P(Y >= hi) = " << above << ", P(Y <= lo) = " << below << ", bound e^-x = " << bound);
        CHECK(above < bound);
        CHECK(below < bound);
        CHECK(above > std::exp(-4 * x));  // a bound four times too steep in the exponent would fail the comparison
        CHECK(below > std::exp(-4 * x));
        // the library's per-entry diagonal terms (n = 1) at kappa tau = hi: the same tails through box_failure_bound
        const SpectrumSums sums = spectrum_sums(fam == 0 ? SpectrumFamily{} : power_law("1/2"), d);
        const IntervalD kappa = IntervalD::exact(hi) / sums.trace;
        const BoxProbability p = box_failure_bound(1, kappa, kappa, sums);
        const auto [below_k, above_k] = chi_square_tails(a, -hi, hi, 20000, 27 + fam);
        INFO("library: e^-s^2 = " << upper(p.p_diag_upper) << " (s^2 = " << to_string(p.s2_diag_upper, 6) << "), e^-x_- = "
                                  << upper(p.p_diag_lower) << "; MC " << above_k << ", " << below_k);
        CHECK(above_k < upper(p.p_diag_upper));
        CHECK(below_k < upper(p.p_diag_lower));
        CHECK(upper(p.p_diag_upper) < 0.45);  // s^2 ~ 1 here: the comparison is not vacuous
    }
}

TEST_CASE("delta(d) lies above a Monte Carlo estimate of P(G / tau not in the box)", "[rh][concentration]") {
    // n = 4; isotropic d = 400 with kappa = eps = 1/5, power law k^-1/2 at d = 4000 (tau ~ 125) with 1/10.
    const int n = 4, trials = 4000;
    for (int fam = 0; fam < 2; ++fam) {
        const int d = fam == 0 ? 400 : 4000;
        const double box = fam == 0 ? 0.2 : 0.1;
        const IntervalD kappa = IntervalD::from_decimal(fam == 0 ? "1/5" : "1/10"), eps = kappa;
        const SpectrumSums sums = spectrum_sums(fam == 0 ? SpectrumFamily{} : power_law("1/2"), d);
        const BoxProbability p = box_failure_bound(n, kappa, eps, sums);
        std::vector<double> sc(d);
        double tau = 0;
        for (int k = 0; k < d; ++k) {
            sc[k] = fam == 0 ? 1.0 : std::pow(static_cast<double>(k + 1), -0.25);
            tau += sc[k] * sc[k];
        }
        int out = 0;
        std::vector<std::vector<double>> x(n, std::vector<double>(d));
        for (int t = 0; t < trials; ++t) {
            for (int i = 0; i < n; ++i) {
                nets::RandomStream r(99 + fam, "box", static_cast<std::uint64_t>(t * n + i));
                r.fill_gaussian(x[i]);
                for (int k = 0; k < d; ++k) x[i][k] *= sc[k];
            }
            bool inside = true;
            for (int i = 0; i < n && inside; ++i)
                for (int j = 0; j <= i && inside; ++j) {
                    double g = 0;
                    for (int k = 0; k < d; ++k) g += x[i][k] * x[j][k];
                    g /= tau;
                    inside = i == j ? std::abs(g - 1) <= box : std::abs(g) <= box;
                }
            out += !inside;
        }
        const double estimate = static_cast<double>(out) / trials;
        INFO("family " << fam << ": MC P(not in box) = " << estimate << ", delta = " << upper(p.delta) << " (diag+ "
                       << upper(p.p_diag_upper) << ", diag- " << upper(p.p_diag_lower) << ", var " << upper(p.p_variance)
                       << ", off " << upper(p.p_offdiag) << ")");
        CHECK(estimate > 0);  // the comparison is not against an empty event
        CHECK(estimate < upper(p.delta));
        CHECK(upper(p.delta) < 1);  // the bound is not vacuous here
    }
}

TEST_CASE("delta(d) is non-increasing in d and the d0 search returns the first d below the target", "[rh][concentration]") {
    const IntervalD kappa = IntervalD::from_decimal("1/100"), eps = kappa;
    for (const SpectrumFamily& f : {SpectrumFamily{}, power_law("1/2"), power_law("1/4")}) {
        double prev = 1e300;
        for (long long d = 1; d <= (1LL << 40); d = d * 3 + 1) {
            const double v = upper(box_failure_bound(16, kappa, eps, spectrum_sums(f, d)).delta);
            CHECK(v <= prev);
            prev = v;
        }
        const long long d0 = smallest_dimension(16, kappa, eps, f, 0.01);
        REQUIRE(d0 > 1);
        CHECK(upper(box_failure_bound(16, kappa, eps, spectrum_sums(f, d0)).delta) <= 0.01);
        CHECK(upper(box_failure_bound(16, kappa, eps, spectrum_sums(f, d0 - 1)).delta) > 0.01);
    }
    // isotropic, kappa = 1/100, n = 16: 2n e^-(kappa^2 d / 4) ~ 0.01 near d ~ 3.3e5
    const long long d_iso = smallest_dimension(16, kappa, eps, SpectrumFamily{}, 0.01);
    CHECK((d_iso > 200000 && d_iso < 500000));
    CHECK(smallest_dimension(16, kappa, eps, power_law("2"), 0.01) == -1);  // tau stays bounded: no d works
    CHECK_THROWS_AS(box_failure_bound(16, IntervalD(0), eps, spectrum_sums(SpectrumFamily{}, 10)), std::invalid_argument);
}
