// Tests of the diagonal data covariances of the rh reconstruction (lib/flowcert/nets/covariance.hpp) and
// of anisotropic instances (x_ik = fl(s_k g_ik)): scales against MPFR at 300 bits, the trace enclosure
// against exact rationals, the Gram enclosure against exact rationals of the scaled rows, bad specs.
#include <catch2/catch.hpp>

#include <mpfr.h>

#include <cmath>
#include <vector>

#include <flowcert/nets.hpp>

#include "../proofs/rh/rh_fixture.hpp"

using namespace flowcert;
using namespace flowcert::nets::rh;
using namespace rh_fixture;

namespace {
CovarianceSpec power_law(const std::string& alpha) {
    CovarianceSpec c;
    c.kind = "power_law";
    c.alpha = alpha;
    return c;
}
// |s - exact| <= 1/2 ulp(exact) (round to nearest), exact = k^(-alpha/2) at 300 bits.
bool nearest_of_pow(double s, long k, double alpha) {
    mpfr_t e, x, diff;
    mpfr_inits2(300, e, x, diff, (mpfr_ptr)nullptr);
    mpfr_set_d(e, -alpha / 2, MPFR_RNDN);
    mpfr_set_si(x, k, MPFR_RNDN);
    mpfr_pow(x, x, e, MPFR_RNDN);
    mpfr_sub_d(diff, x, s, MPFR_RNDN);
    mpfr_abs(diff, diff, MPFR_RNDN);
    const double ex = mpfr_get_d(x, MPFR_RNDN);
    const double half_ulp = (std::nextafter(ex, INFINITY) - ex) / 2;  // ex is no power of two here or the bound is loose
    const bool ok = mpfr_cmp_d(diff, half_ulp * (1 + 1e-9)) <= 0;
    mpfr_clears(e, x, diff, (mpfr_ptr)nullptr);
    return ok;
}
}  // namespace

TEST_CASE("power-law scales are the doubles nearest to k^(-alpha/2) and the trace encloses sum s_k^2 exactly", "[rh]") {
    const long d = 3000;
    const Covariance c = make_covariance(power_law("1/2"), d);
    REQUIRE(c.scale.size() == static_cast<size_t>(d));
    CHECK(c.scale[0] == 1.0);
    CHECK(c.scale[3] == std::sqrt(0.5));  // 4^(-1/4) = 2^(-1/2): RN is the IEEE sqrt(1/2)
    Rat tr = 0, tr2 = 0;
    for (long k = 1; k <= d; ++k) {
        const double s = c.scale[static_cast<size_t>(k - 1)];
        INFO("k = " << k << " s = " << s);
        REQUIRE(nearest_of_pow(s, k, 0.5));
        const Rat l = Rat(s) * Rat(s);
        tr += l;
        tr2 += l * l;
    }
    CHECK(contains_rat(c.trace, tr));
    CHECK(contains_rat(c.trace_sq, tr2));
    CHECK(rad(c.trace) / mid(c.trace) < 1e-12);
    // ||lambda||_1 ~ 2 sqrt(d) << d for alpha = 1/2, with a large effective rank
    CHECK(upper(c.trace) < 2 * std::sqrt(double(d)));
    CHECK(lower(c.rank_r()) > 100);
    CHECK(lower(c.lambda_max) == 1.0);
}

TEST_CASE("the isotropic covariance and an all-ones diagonal give bit-identical instances with tr Sigma = d", "[rh]") {
    InstanceSpec s = spec_of(4, 6, 2500);
    const Instance a = make_instance(s);
    s.covariance.kind = "diagonal";
    s.covariance.diagonal.assign(2500, "1");
    const Instance b = make_instance(s);
    CHECK(a.cov.isotropic);
    CHECK(!b.cov.isotropic);
    CHECK(lower(b.cov.trace) == 2500.0);
    CHECK(upper(b.cov.trace) == 2500.0);
    for (Eigen::Index k = 0; k < a.G.size(); ++k) {
        REQUIRE(lower(a.G(k)) == lower(b.G(k)));
        REQUIRE(upper(a.G(k)) == upper(b.G(k)));
    }
    CHECK(lower(a.eta) == lower(b.eta));
}

TEST_CASE("an anisotropic instance's Gram enclosure contains the exact Gram matrix of x_ik = fl(s_k g_ik)", "[rh]") {
    for (const char* kind : {"power_law", "spike"}) {
        InstanceSpec s = spec_of(5, 5, 4500);  // more than two generation chunks
        s.covariance.kind = kind;
        s.covariance.alpha = "3/4";
        s.covariance.spike = "1e4";
        if (std::string(kind) == "spike") s.covariance.alpha.clear();
        const Instance inst = make_instance(s);
        std::vector<double> X = data_rows(5, 5, 4500);
        for (int i = 0; i < 5; ++i)
            for (long k = 0; k < 4500; ++k) X[i * 4500 + k] *= inst.cov.scale[static_cast<size_t>(k)];
        const auto Gq = exact_gram(X, 5, 4500);
        for (int t = 0; t < 25; ++t) {
            INFO(kind << " entry " << t << " " << to_string(inst.G(t / 5, t % 5)));
            CHECK(contains_rat(inst.G(t / 5, t % 5), Gq[t]));
        }
        // the step size is normalized by tr Sigma: eta tr Sigma encloses eta_d = 1/2 from below
        CHECK(upper(inst.eta_trace) <= 0.5);
        CHECK(lower(inst.eta_trace) > 0.5 * (1 - 1e-12));
        // the data really are scaled: the spike makes G_00 about 1e4 g_00^2 + d
        if (std::string(kind) == "spike") CHECK(inst.cov.scale[0] == 100.0);
    }
}

TEST_CASE("the init scale per trace is c~ / tr Sigma (span: the double below)", "[rh]") {
    InstanceSpec s = spec_of(5, 4, 1000);
    s.covariance = power_law("1/2");
    s.init_scale = "10";
    s.init_per_trace = true;
    const Instance inst = make_instance(s);
    CHECK(lower(inst.init_c * inst.cov.trace) <= 10.0);
    CHECK(upper(inst.init_c * inst.cov.trace) > 10.0 * (1 - 1e-12));
    CHECK(lower(inst.a0[0][0]) == lower(inst.init_c));
}

TEST_CASE("bad covariance specifications are rejected with a reason", "[rh]") {
    CHECK_THROWS_AS(make_covariance(power_law("9"), 10), std::invalid_argument);
    CHECK_THROWS_AS(make_covariance(power_law("-1"), 10), std::invalid_argument);
    CHECK_THROWS_AS(make_covariance(power_law("x"), 10), std::invalid_argument);
    CHECK_THROWS_AS(make_covariance(power_law(""), 10), std::invalid_argument);
    CovarianceSpec c;
    c.kind = "wishart";
    CHECK_THROWS_AS(make_covariance(c, 10), std::invalid_argument);
    c.kind = "spike";
    c.spike = "0";
    CHECK_THROWS_AS(make_covariance(c, 10), std::invalid_argument);
    c.kind = "diagonal";
    c.diagonal = {"1", "2"};
    CHECK_THROWS_AS(make_covariance(c, 3), std::invalid_argument);
    c.diagonal = {"1", "-2", "3"};
    CHECK_THROWS_AS(make_covariance(c, 3), std::invalid_argument);
    c.diagonal = {"1", "2", "3"};
    CHECK_NOTHROW(make_covariance(c, 3));
    InstanceSpec s = spec_of(1, 4, 100);
    s.covariance = power_law("1");
    s.labels = "teacher";
    CHECK_THROWS_AS(make_instance(s), std::invalid_argument);  // teacher labels are isotropic only
}
