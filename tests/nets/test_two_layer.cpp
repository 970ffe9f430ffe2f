// Tests of the two-layer model of [BF2025] (lib/flowcert/nets/two_layer.hpp): the Clarke-hull field
// and the GD map enclose exact rational references; frozen neurons; balancedness; seeded init.
#include <catch2/catch.hpp>

#include <gmp.h>
#include <mpfi.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <flowcert/nets.hpp>

#include "../support/figure2_fixture.hpp"

using namespace flowcert;
using namespace flowcert::nets;
using flowcert::test_support::balanced_init;
using flowcert::test_support::figure2_spec;

namespace {

// Exact rationals (GMP) for the reference computations.
struct Q {
    mpq_t v;
    Q() { mpq_init(v); }
    explicit Q(double d) { mpq_init(v); mpq_set_d(v, d); }
    explicit Q(const std::string& s) { mpq_init(v); REQUIRE(!parse_rational(s, v).has_value()); }
    Q(const Q& o) { mpq_init(v); mpq_set(v, o.v); }
    Q& operator=(const Q& o) { mpq_set(v, o.v); return *this; }
    ~Q() { mpq_clear(v); }
    friend Q operator+(const Q& a, const Q& b) { Q r; mpq_add(r.v, a.v, b.v); return r; }
    friend Q operator-(const Q& a, const Q& b) { Q r; mpq_sub(r.v, a.v, b.v); return r; }
    friend Q operator*(const Q& a, const Q& b) { Q r; mpq_mul(r.v, a.v, b.v); return r; }
    int sign() const { return mpq_sgn(v); }
};

bool encloses(const IntervalD& x, const Q& q) {
    Q lo(x.lower()), hi(x.upper());
    return mpq_cmp(lo.v, q.v) <= 0 && mpq_cmp(q.v, hi.v) <= 0;
}
bool encloses(const IntervalMp& x, const Q& q) { return mpfi_is_inside_q(q.v, x.get()) > 0; }

// The Figure-2 data [BF2025, App. B.1] with a fourth sample x = 0.6, y = -0.3 and leak `gamma`.
TwoLayerSpec fig2_four_point_spec(const std::string& gamma = "0") {
    TwoLayerSpec s = figure2_spec();
    s.x.push_back({"0.6"});
    s.y.push_back("-0.3");
    s.gamma = gamma;
    return s;
}

// Exact field at a rational point with a given selection of sigma'(0) where <w_j, x_k> = 0.
struct ExactField {
    std::vector<Q> da, dw;
};
ExactField exact_field(const TwoLayerSpec& spec, const std::vector<Q>& a, const std::vector<Q>& w, std::size_t m,
                       const Q& eta0, const Q& c) {
    const std::size_t n = spec.x.size(), d = spec.x[0].size() + 1;
    std::vector<std::vector<Q>> x(n, std::vector<Q>(d));
    std::vector<Q> y(n);
    for (std::size_t k = 0; k < n; ++k) {
        for (std::size_t i = 0; i + 1 < d; ++i) x[k][i] = Q(spec.x[k][i]);
        x[k][d - 1] = Q(1.0);
        y[k] = Q(spec.y[k]);
    }
    const Q gamma(spec.gamma);
    std::vector<Q> s(m * n);
    for (std::size_t j = 0; j < m; ++j)
        for (std::size_t k = 0; k < n; ++k) {
            Q acc;
            for (std::size_t i = 0; i < d; ++i) acc = acc + w[j * d + i] * x[k][i];
            s[j * n + k] = acc;
        }
    auto sigma = [&](const Q& z) { return z.sign() > 0 ? z : gamma * z; };
    auto sprime = [&](const Q& z) { return z.sign() > 0 ? Q(1.0) : (z.sign() < 0 ? gamma : eta0); };
    std::vector<Q> rho(n);
    for (std::size_t k = 0; k < n; ++k) {
        Q h;
        for (std::size_t j = 0; j < m; ++j) h = h + a[j] * sigma(s[j * n + k]);
        rho[k] = c * (h - y[k]);  // half square: d1 l = h - y
    }
    ExactField f;
    f.da.assign(m, Q());
    f.dw.assign(m * d, Q());
    for (std::size_t j = 0; j < m; ++j)
        for (std::size_t k = 0; k < n; ++k) {
            f.da[j] = f.da[j] - rho[k] * sigma(s[j * n + k]);
            for (std::size_t i = 0; i < d; ++i)
                f.dw[j * d + i] = f.dw[j * d + i] - a[j] * rho[k] * sprime(s[j * n + k]) * x[k][i];
        }
    return f;
}

template <class I>
TwoLayerParams<I> box_around(const std::vector<double>& a, const std::vector<double>& w, std::size_t m, std::size_t d,
                             double r, long bits) {
    using T = IntervalTraits<I>;
    TwoLayerParams<I> th(m, d, T::from_integer(0, bits));
    for (std::size_t j = 0; j < m; ++j) th.a[j] = T::bounds(a[j] - r, a[j] + r, bits);
    for (std::size_t i = 0; i < m * d; ++i) th.w[i] = T::bounds(w[i] - r, w[i] + r, bits);
    return th;
}

}  // namespace

TEMPLATE_TEST_CASE("the Clarke-hull field on a box encloses the exact field at rational points of the box for every "
                   "selection of sigma'(0)",
                   "[two_layer]", IntervalD, IntervalMp) {
    using I = TestType;
    std::mt19937_64 gen(20260);
    std::uniform_real_distribution<double> U(-1.0, 1.0);
    for (const std::string gamma : {"0", "0.25", "1"}) {
        const TwoLayerSpec spec = fig2_four_point_spec(gamma);
        const TwoLayerModel<I> model(spec, 80);
        const std::size_t m = 3, d = 2, n = spec.x.size();
        for (int trial = 0; trial < 40; ++trial) {
            std::vector<double> a(m), w(m * d);
            for (auto& v : a) v = U(gen);
            for (auto& v : w) v = U(gen);
            // trial % 4 == 0: put neuron 0 exactly on the kink of sample 0 (<w, x_1> = 0)
            if (trial % 4 == 0) { w[0] = 1.0; w[1] = 0.75; }
            const double r = trial % 2 ? 0x1p-6 : 0.0;
            const auto th = box_around<I>(a, w, m, d, r, 80);
            const auto F = vector_field(model, th);
            CHECK(F.dtheta.m == m);
            for (int pt = 0; pt < 6; ++pt) {
                std::vector<Q> qa(m), qw(m * d);
                for (std::size_t j = 0; j < m; ++j) qa[j] = Q(a[j] + r * (pt % 3 - 1)) ;
                for (std::size_t i = 0; i < m * d; ++i) qw[i] = Q(w[i] + r * ((pt + static_cast<int>(i)) % 3 - 1));
                for (const std::string eta : {std::string("1"), std::string("0.5"), gamma}) {
                    const Q e(eta), ga(gamma);
                    if (mpq_cmp(e.v, ga.v) < 0) continue;  // eta must lie in [gamma, 1]
                    const ExactField ex = exact_field(spec, qa, qw, m, e, Q("1/" + std::to_string(n)));
                    for (std::size_t j = 0; j < m; ++j) CHECK(encloses(F.dtheta.a[j], ex.da[j]));
                    for (std::size_t i = 0; i < m * d; ++i) CHECK(encloses(F.dtheta.w[i], ex.dw[i]));
                }
            }
        }
    }
}

TEMPLATE_TEST_CASE("a neuron certainly inactive on every sample has exactly zero field and a frozen GD step for ReLU, "
                   "but not for leaky ReLU",
                   "[two_layer]", IntervalD, IntervalMp) {
    using I = TestType;
    using T = IntervalTraits<I>;
    for (const std::string gamma : {"0", "0.1"}) {
        const TwoLayerModel<I> model(fig2_four_point_spec(gamma), 64);
        // neuron 0: w = (0.1, -2) +- 0.01: <w, (x, 1)> < 0 for every x in the data; neuron 1 is active
        const auto th = box_around<I>({0.5, 0.7}, {0.1, -2.0, 0.3, 1.0}, 2, 2, 0.01, 64);
        const auto F = vector_field(model, th);
        const auto states = activation_states(model, th);
        for (std::size_t k = 0; k < model.n(); ++k) CHECK(states[k] == Activation::certainly_negative);
        const auto next = gd_step(model, th, T::from_decimal("0.01", 64));
        if (gamma == "0") {
            CHECK(F.frozen[0] == 1);
            CHECK(is_point(F.dtheta.a[0]));
            CHECK(contains(F.dtheta.a[0], 0.0));
            for (std::size_t i = 0; i < 2; ++i) CHECK((is_point(F.dtheta.W(0, i)) && contains(F.dtheta.W(0, i), 0.0)));
            CHECK((lower(next.a[0]) == lower(th.a[0]) && upper(next.a[0]) == upper(th.a[0])));
            CHECK((lower(next.W(0, 1)) == lower(th.W(0, 1)) && upper(next.W(0, 1)) == upper(th.W(0, 1))));
        } else {
            CHECK(F.frozen[0] == 0);
            // sigma(z) = gamma z != 0: the field is not forced to the exact zero
            CHECK_FALSE((is_point(F.dtheta.a[0]) && contains(F.dtheta.a[0], 0.0)));
        }
        CHECK(F.frozen[1] == 0);
    }
}

TEMPLATE_TEST_CASE("the interval GD map encloses the exact rational gradient-descent step", "[two_layer]", IntervalD,
                   IntervalMp) {
    using I = TestType;
    using T = IntervalTraits<I>;
    std::mt19937_64 gen(7);
    std::uniform_real_distribution<double> U(-1.0, 1.0);
    for (const std::string weight : {"", "2/4"}) {  // the paper's (1/n) sum 1/2 r^2 and the code's (1/n) sum r^2
        TwoLayerSpec spec = fig2_four_point_spec("0.2");
        spec.risk_weight = weight;
        const TwoLayerModel<I> model(spec, 100);
        const Q c(weight.empty() ? "1/4" : weight);
        const Q h("0.001");
        for (int trial = 0; trial < 30; ++trial) {
            const std::size_t m = 4, d = 2;
            std::vector<double> a(m), w(m * d);
            for (auto& v : a) v = U(gen);
            for (auto& v : w) v = U(gen);
            const auto th = box_around<I>(a, w, m, d, 0.0, 100);
            const auto next = gd_step(model, th, T::from_decimal("0.001", 100));
            std::vector<Q> qa, qw;
            for (double v : a) qa.emplace_back(v);
            for (double v : w) qw.emplace_back(v);
            const ExactField ex = exact_field(spec, qa, qw, m, Q("1"), c);
            for (std::size_t j = 0; j < m; ++j) CHECK(encloses(next.a[j], qa[j] + h * ex.da[j]));
            for (std::size_t i = 0; i < m * d; ++i) CHECK(encloses(next.w[i], qw[i] + h * ex.dw[i]));
        }
    }
}

TEST_CASE("the logistic-loss field on a box encloses the 256-bit point field", "[two_layer]") {
    TwoLayerSpec spec = fig2_four_point_spec("0");
    spec.y = {"1", "-1", "1", "-1"};
    spec.loss = LossKind::logistic;
    const TwoLayerModel<IntervalD> md(spec);
    const TwoLayerModel<IntervalMp> mp(spec, 256);
    const std::vector<double> a = {0.3, -0.8}, w = {0.4, -0.2, -0.9, 0.5};
    const auto Fd = vector_field(md, box_around<IntervalD>(a, w, 2, 2, 1e-3, 53));
    const auto Fm = vector_field(mp, box_around<IntervalMp>(a, w, 2, 2, 0.0, 256));
    for (std::size_t j = 0; j < 2; ++j) {
        CHECK(lower(Fd.dtheta.a[j]) <= lower(Fm.dtheta.a[j]));
        CHECK(upper(Fm.dtheta.a[j]) <= upper(Fd.dtheta.a[j]));
        CHECK(width(Fm.dtheta.a[j]) < 1e-60);
    }
    for (std::size_t i = 0; i < 4; ++i) {
        CHECK(lower(Fd.dtheta.w[i]) <= lower(Fm.dtheta.w[i]));
        CHECK(upper(Fm.dtheta.w[i]) <= upper(Fd.dtheta.w[i]));
    }
    // risk: ln 2 at theta = 0
    const TwoLayerParams<IntervalMp> zero(2, 2, IntervalMp::from_integer(0, Precision(256)));
    const IntervalMp L = risk(mp, zero);
    CHECK(subset(L, inflate(IntervalMp::ln2(Precision(256)), 1e-70)));
}

TEMPLATE_TEST_CASE("balanced Gaussian initialization has a_j^2 - |w_j|^2 enclosing 0 and dominated initialization "
                   "has it certainly positive",
                   "[two_layer][init]", IntervalD, IntervalMp) {
    using I = TestType;
    InitSpec s = balanced_init(200, 42, "1e-3");
    const auto bal = initialize<I>(s, 2, 80);
    REQUIRE(bal.theta.m == 200);
    CHECK(bal.eq4_holds);
    for (const I& b : balancedness(bal.theta)) {
        CHECK(contains(b, 0.0));
        CHECK(width(b) < 1e-20);
    }
    s.kind = InitKind::dominated_uniform_ball;
    const auto dom = initialize<I>(s, 2, 80);
    CHECK(dom.eq4_holds);
    CHECK(dom.eq5_certified);  // a~_j^2 = 1
    for (const I& b : balancedness(dom.theta)) CHECK(certainly_positive(b));
    s.kind = InitKind::unbalanced_gaussian;
    const auto unb = initialize<I>(s, 2, 80);
    CHECK_FALSE(unb.eq4_holds);
    CHECK(unb.eq4_violations > 0);
}

TEST_CASE("initialization is reproducible: neuron j depends only on (seed, j)", "[two_layer][init]") {
    InitSpec s;
    s.seed = 7;
    s.m = 10;
    const auto small = initialize<IntervalD>(s, 3);
    s.m = 50;
    const auto big = initialize<IntervalD>(s, 3);
    for (std::size_t i = 0; i < 30; ++i) CHECK(small.w_tilde[i] == big.w_tilde[i]);
    for (std::size_t j = 0; j < 10; ++j) CHECK(small.a_sign[j] == big.a_sign[j]);
    // the scale lambda / sqrt(m) differs, so the parameters differ by exactly sqrt(5)
    CHECK(contains(small.theta.W(3, 1) / big.theta.W(3, 1) - sqrt(IntervalD(5)), 0.0));
    s.seed = 8;
    const auto other = initialize<IntervalD>(s, 3);
    CHECK(other.w_tilde[0] != big.w_tilde[0]);
}

TEST_CASE("an unusable spec is refused with a reason", "[two_layer]") {
    TwoLayerSpec s = fig2_four_point_spec();
    s.gamma = "1.5";
    CHECK(spec_problem(s) == "gamma must lie in [0, 1]");
    CHECK_THROWS_AS(TwoLayerModel<IntervalD>(s), std::invalid_argument);
    s = fig2_four_point_spec();
    s.y.pop_back();
    CHECK_FALSE(spec_problem(s).empty());
    s = fig2_four_point_spec();
    s.x[1][0] = "0.1.2";
    CHECK_FALSE(spec_problem(s).empty());
}
