// Tests of the probability layer of the "for every m" certificate (lib/flowcert/proofs/bf/initialization_band.hpp):
// the DKW-Massart tail against its closed form at 200 bits, the Laurent-Massart thresholds against the exact
// chi^2_{2N} tail (closed form e^{-t/2} sum_{i<N} (t/2)^i / i!, 200-bit MPFR), with a planted error (the threshold
// without its 2x term) that must fail the same comparison, the band's total probability and nesting in m, and
// seeded initializations (nets::initialize) inside the band while a band four times too narrow is left.
#include <catch2/catch.hpp>

#include <boost/multiprecision/mpfr.hpp>

#include <cmath>
#include <vector>

#include <flowcert/nets.hpp>
#include "flowcert/proofs/bf/initialization_band.hpp"
#include "../../support/figure2_fixture.hpp"

using namespace flowcert;
using namespace flowcert::proofs::bf;
using Mp = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<200>>;

namespace {
// P(Z >= t) for Z ~ chi^2_{2N}: e^{-t/2} sum_{i<N} (t/2)^i / i! (the Erlang tail), 200 bits.
Mp chi2_even_upper_tail(long long N, const Mp& t) {
    const Mp h = t / 2;
    Mp term = 1, sum = 0;
    for (long long i = 0; i < N; ++i) {
        sum += term;
        term *= h / Mp(i + 1);
    }
    return exp(-h) * sum;
}
}  // namespace

TEST_CASE("dkw_massart_tail encloses 2 exp(-2 m e^2) at 200 bits and dkw_radius meets delta", "[bf][band]") {
    for (long long m : {1LL, 10LL, 1000LL, 200000LL, 1000000000LL}) {
        for (const char* es : {"0.001", "0.01", "0.1", "0.5"}) {
            const IntervalD e = IntervalD::from_decimal(es);
            const IntervalD t = dkw_massart_tail(m, e);
            // the exact real at both ends of the enclosure of e bounds the true value (monotone decreasing in e)
            const Mp hi = 2 * exp(-2 * Mp(m) * Mp(lower(e)) * Mp(lower(e)));
            const Mp lo = 2 * exp(-2 * Mp(m) * Mp(upper(e)) * Mp(upper(e)));
            CHECK(Mp(lower(t)) <= lo);
            CHECK(hi <= Mp(upper(t)));
        }
        const double e = dkw_radius(m, IntervalD::from_decimal("0.01"));
        CHECK(2 * exp(-2 * Mp(m) * Mp(e) * Mp(e)) <= Mp("0.01"));
        CHECK(2 * exp(-2 * Mp(m) * Mp(e) * Mp(e) * Mp("0.98")) > Mp("0.01"));  // e is not much larger than needed
    }
    CHECK_THROWS(dkw_massart_tail(0, IntervalD(1)));
    CHECK_THROWS(dkw_radius(10, IntervalD(2)));
}

TEST_CASE("Laurent-Massart thresholds bound the exact chi-square tails and the planted threshold without 2x fails", "[bf][band]") {
    int planted_failures = 0;
    for (long long N : {1LL, 2LL, 5LL, 50LL, 500LL}) {
        for (const char* xs : {"0.5", "3", "12"}) {
            const IntervalD x = IntervalD::from_decimal(xs);
            const ChiSquareThresholds th = laurent_massart_thresholds(2 * N, x);
            const Mp bound = exp(-Mp(lower(x)));  // e^-x at the smaller end of x (the larger bound)
            const Mp p_up = chi2_even_upper_tail(N, Mp(upper(th.upper)));
            INFO("N = " << N << ", x = " << xs << ": P(Z >= up) = " << p_up.convert_to<double>() << " vs e^-x = " << bound.convert_to<double>());
            CHECK(p_up <= bound);
            if (lower(th.lower) > 0) {
                const Mp p_lo = 1 - chi2_even_upper_tail(N, Mp(lower(th.lower)));  // P(Z <= lower), continuous law
                CHECK(p_lo <= bound);
            }
            // planted: k + 2 sqrt(k x) without the 2x term is not a valid e^-x threshold for small k
            const Mp broken = Mp(2 * N) + 2 * sqrt(Mp(2 * N) * Mp(upper(x)));
            if (chi2_even_upper_tail(N, broken) > bound) ++planted_failures;
        }
    }
    CHECK(planted_failures >= 3);  // the comparison can fail
}

TEST_CASE("the band's failure probability meets its split and the band is nested in m", "[bf][band]") {
    const IntervalD da = IntervalD::from_decimal("0.005"), ds = IntervalD::from_decimal("0.005");
    const int K = 16;
    const InitializationBand b0 = balanced_gaussian_band(200000, K, da, ds);
    CHECK(upper(b0.delta) <= 0.01 * (1 + 1e-12));  // the rounding of the two enclosures
    CHECK(upper(b0.delta) > 0.0099);  // the split is used, not wasted
    REQUIRE(b0.cells.size() == 2 * K);
    // non-vacuous at the paper's width: every cell mass within ~1.2e-2 of 1/32, second moments positive
    CHECK(lower(b0.cells[0].mass) > 0.018);
    CHECK(lower(b0.cells[0].second_moment) > 0.03);
    CHECK(upper(b0.cells[0].second_moment) < 0.1);
    long long prev = 200000;
    InitializationBand bp = b0;
    for (long long m : {200001LL, 250000LL, 1000000LL, 100000000LL, 10000000000LL}) {
        const InitializationBand b = balanced_gaussian_band(m, K, da, ds);
        INFO("m = " << m << " inside m = " << prev);
        CHECK(band_inside(b, bp));
        CHECK(band_inside(b, b0));
        bp = b;
        prev = m;
    }
    // the widths go to 0: at m = 1e10 the moment interval is within 1e-3 of 2/32
    const InitializationBand bl = balanced_gaussian_band(10000000000LL, K, da, ds);
    CHECK(upper(bl.cells[5].second_moment) - lower(bl.cells[5].second_moment) < 2e-3);
    CHECK(!band_inside(b0, bl));
}

TEST_CASE("seeded balanced initializations lie in the band and leave a band four times too narrow", "[bf][band]") {
    const int K = 8;
    const long long m = 4000;
    const IntervalD da = IntervalD::from_decimal("0.01"), ds = IntervalD::from_decimal("0.01");
    const InitializationBand band = balanced_gaussian_band(m, K, da, ds);
    // planted: the same band with every half-width divided by 4 around the cell's centre
    InitializationBand narrow = band;
    for (auto& c : narrow.cells) {
        for (IntervalD* v : {&c.mass, &c.second_moment}) {
            const double mid = 0.5 * (lower(*v) + upper(*v)), rad = 0.125 * (upper(*v) - lower(*v));
            *v = IntervalD::bounds(mid - rad, mid + rad);
        }
    }
    int in_band = 0, in_narrow = 0;
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        nets::InitSpec spec;
        spec.seed = seed;
        spec.m = static_cast<std::size_t>(m);
        const auto init = nets::initialize<IntervalD>(spec, 2);
        const auto emp = empirical_cells(spec, init, K);
        double total = 0;
        for (const auto& c : emp) total += 0.5 * (lower(c.mass) + upper(c.mass));
        CHECK(std::abs(total - 1.0) < 1e-9);
        in_band += draw_in_band(emp, band);
        in_narrow += draw_in_band(emp, narrow);
    }
    CHECK(in_band == 6);
    CHECK(in_narrow < 6);
}

TEST_CASE("the outputs at t = 0 of seeded draws lie in the band sums, and a sign-blind sum (planted) misses them", "[bf][band]") {
    const nets::TwoLayerModel<IntervalD> model(test_support::figure2_spec());
    const int K = 16;
    const IntervalD lambda = IntervalD::from_decimal("1e-3");
    for (long long m : {1000LL, 4000LL}) {
        const InitializationBand band = balanced_gaussian_band(m, K, IntervalD::from_decimal("0.01"), IntervalD::from_decimal("0.01"));
        const auto from_band = band_outputs_at_zero(model, lambda, band.cells, K);
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            nets::InitSpec spec;
            spec.seed = seed;
            spec.m = static_cast<std::size_t>(m);
            const auto init = nets::initialize<IntervalD>(spec, 2);
            const auto exact = nets::outputs(model, init.theta);  // per-neuron enclosure of the true h_k(0)
            const auto emp = empirical_cells(spec, init, K);
            REQUIRE(draw_in_band(emp, band));
            const auto from_draw = band_outputs_at_zero(model, lambda, emp, K);
            auto blind = emp;  // planted: every cell counted with sign +1
            for (int c = 0; c < K; ++c) blind[c].second_moment = -emp[c].second_moment;
            bool blind_misses = false;
            for (std::size_t k = 0; k < model.n(); ++k) {
                INFO("m = " << m << ", seed " << seed << ", k = " << k << ": h = " << to_string(exact[k], 6) << ", draw cells "
                            << to_string(from_draw[k], 6) << ", band " << to_string(from_band[k], 6));
                CHECK(lower(from_draw[k]) <= lower(exact[k]));
                CHECK(upper(exact[k]) <= upper(from_draw[k]));
                CHECK(lower(from_band[k]) <= lower(exact[k]));
                CHECK(upper(exact[k]) <= upper(from_band[k]));
                const IntervalD b = band_outputs_at_zero(model, lambda, blind, K)[k];
                blind_misses = blind_misses || upper(b) < lower(exact[k]) || upper(exact[k]) < lower(b);
            }
            CHECK(blind_misses);
        }
    }
}

namespace {
// P(m S_c >= s) for the cell sum Y = sum_j rho_j [u_j in c], m draws, p = 1/C: sum_N Binom(m, p)(N) P(chi^2_{2N} >= s).
Mp compound_upper_tail(long long m, int C, const Mp& s) {
    const Mp p = Mp(1) / C;
    Mp total = 0, binom = pow(1 - p, m);  // N = 0 contributes 0 (Y = 0 < s)
    for (long long N = 1; N <= m; ++N) {
        binom *= Mp(m - N + 1) / Mp(N) * p / (1 - p);
        total += binom * chi2_even_upper_tail(N, s);
    }
    return total;
}
}  // namespace

TEST_CASE("the Chernoff cell tails bound the exact compound tail at 200 bits and a quadrupled exponent (planted) does not", "[bf][band]") {
    int planted_failures = 0;
    for (long long m : {20LL, 200LL}) {
        for (int C : {4, 16}) {
            const double p = 1.0 / C;
            for (double f : {1.5, 2.5, 4.0}) {  // v = f * 2p above the mean, and 2p / f below it
                for (int side = 0; side < 2; ++side) {
                    const double v = side == 0 ? f * 2 * p : 2 * p / f;
                    // t from a coarse grid; any t > 0 (t < 1/2 above) gives a valid bound
                    for (double t : {0.05, 0.2, 0.4}) {
                        const IntervalD b = side == 0 ? chernoff_upper_tail(m, C, t, v) : chernoff_lower_tail(m, C, t * 10, v);
                        if (upper(b) >= 1) continue;
                        const Mp up = compound_upper_tail(m, C, Mp(m) * Mp(v));
                        const Mp exact = side == 0 ? up : 1 - up;  // continuous law above 0: P(Y <= s) = 1 - P(Y >= s); Y = 0 has mass (1-p)^m, included
                        INFO("m = " << m << ", C = " << C << ", v = " << v << ", side " << side << ": exact " << exact.convert_to<double>()
                                    << ", bound " << upper(b));
                        CHECK(exact <= Mp(upper(b)));
                        if (exact > pow(Mp(upper(b)), 4)) ++planted_failures;  // planted exp(-4 m J): must fall below the exact tail somewhere
                    }
                }
            }
        }
    }
    INFO("planted exp(-4 m J) bounds below the exact tail: " << planted_failures);
    CHECK(planted_failures >= 3);  // the comparison can fail
}

TEST_CASE("the Chernoff band meets delta, is narrower than the DKW band and holds seeded draws", "[bf][band]") {
    const int K = 16;
    const InitializationBand ch = chernoff_band(200000, K, IntervalD::from_decimal("0.01"));
    const InitializationBand dkw = balanced_gaussian_band(200000, K, IntervalD::from_decimal("0.005"), IntervalD::from_decimal("0.005"));
    CHECK(upper(ch.delta) <= 0.01);
    const IntervalD& s = ch.cells[0].second_moment;
    INFO("Chernoff S_c band at m0 = 2e5, K = 16: " << to_string(s, 8) << "; DKW " << to_string(dkw.cells[0].second_moment, 8));
    CHECK(lower(s) < 0.0625);
    CHECK(upper(s) > 0.0625);
    CHECK(upper(s) - lower(s) < 0.25 * (upper(dkw.cells[0].second_moment) - lower(dkw.cells[0].second_moment)));
    // the same endpoints are valid at every m >= m0 (each tail exp(-m J) decreases in m); a wider m0 gives a narrower band
    const InitializationBand ch1 = chernoff_band(1000000, K, IntervalD::from_decimal("0.01"));
    CHECK(band_inside(ch1, ch));
    // seeded draws at m = 4000 in the m0 = 4000 band, and a band four times too narrow is left
    const InitializationBand b4 = chernoff_band(4000, 8, IntervalD::from_decimal("0.01"));
    int in_band = 0, in_narrow = 0;
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        nets::InitSpec spec;
        spec.seed = seed;
        spec.m = 4000;
        const auto emp = empirical_cells(spec, nets::initialize<IntervalD>(spec, 2), 8);
        in_band += draw_in_band(emp, b4);
        InitializationBand narrow = b4;
        for (auto& c : narrow.cells) {
            const double mid = 0.0625 * 2, rad = 0.125 * (upper(c.second_moment) - lower(c.second_moment));
            c.second_moment = IntervalD::bounds(mid - rad, mid + rad);
        }
        in_narrow += draw_in_band(emp, narrow);
    }
    CHECK(in_band == 6);
    CHECK(in_narrow < 6);
}
