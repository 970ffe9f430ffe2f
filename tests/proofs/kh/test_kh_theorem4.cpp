// Tests of the pieces of kh/theorem4_limit_path (lib/flowcert/proofs/kh/theorem4_limit_path.hpp).
//
// References:
//  * the limiting path p(t) = lim psi(t + ln(1/delta)/(2N*), delta w*) [KH2025, Thm 4] is checked against a
//    NON-RIGOROUS classical Runge-Kutta integration in 50-digit binary floating point (boost cpp_bin_float_50)
//    of the loss flow written directly from the loss (not from the derivation of the closed form), at
//    delta = 1e-20 (Lemma 7: |p(t) - psi(t + ln(1/delta)/(2N), delta w*)| = O(delta^2) = 1e-40 here);
//  * the certified window distance for Example 1 against the paper's closed form of psi(t, delta w0)
//    [KH2025, Example 1] evaluated with 200-bit MPFI.
#include <catch2/catch.hpp>

#include <boost/multiprecision/cpp_bin_float.hpp>

#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include "flowcert/nets.hpp"
#include "flowcert/ode.hpp"
#include <flowcert/proofs/kh/theorem4_limit_path.hpp>
#include <flowcert/taylor.hpp>

using namespace flowcert;
namespace pk = flowcert::proofs::kh;
using R = boost::multiprecision::cpp_bin_float_50;

namespace {

constexpr long kBits = 200;

IntervalMp mp(const char* s) { return IntervalMp::from_decimal(s, Precision(kBits)); }

// Classical RK4 (NON-RIGOROUS) of x' = f(x) from x0 over [0, T] with n steps.
std::vector<R> rk4(const std::function<std::vector<R>(const std::vector<R>&)>& f, std::vector<R> x, const R& T, long n) {
    const R h = T / n;
    auto axpy = [](const std::vector<R>& a, const R& s, const std::vector<R>& b) {
        std::vector<R> r(a.size());
        for (std::size_t i = 0; i < a.size(); ++i) r[i] = a[i] + s * b[i];
        return r;
    };
    for (long k = 0; k < n; ++k) {
        const auto k1 = f(x);
        const auto k2 = f(axpy(x, h / 2, k1));
        const auto k3 = f(axpy(x, h / 2, k2));
        const auto k4 = f(axpy(x, h, k3));
        for (std::size_t i = 0; i < x.size(); ++i) x[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    }
    return x;
}

R to_r(const IntervalMp& x) { return R(mid(x)) ; }

// Example 1's loss flow from the loss L(w) = c sum_k (s_k w_k^2 - y_k)^2 (inputs e_k):
// w_k' = -dL/dw_k = -4 c s_k w_k (s_k w_k^2 - y_k).
std::vector<R> weighted_squares_rhs(const std::vector<R>& w, const std::vector<R>& s, const std::vector<R>& y, const R& c) {
    std::vector<R> r(w.size());
    for (std::size_t k = 0; k < w.size(); ++k) r[k] = -4 * c * s[k] * w[k] * (s[k] * w[k] * w[k] - y[k]);
    return r;
}

// Diagonal net H(x_i) = sum_k u_k v_k X_ki, L = c sum_i (H_i - y_i)^2:
// u_k' = -v_k g_k, v_k' = -u_k g_k with g_k = dL/dbeta_k = 2c sum_i X_ki (H_i - y_i).
std::vector<R> diagonal_rhs(const std::vector<R>& w, const std::vector<std::vector<R>>& X, const std::vector<R>& y,
                            const R& c) {
    const std::size_t d = X.size(), n = y.size();
    std::vector<R> r(2 * d), H(n, R(0));
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < d; ++k) H[i] += w[k] * w[d + k] * X[k][i];
    for (std::size_t k = 0; k < d; ++k) {
        R g = 0;
        for (std::size_t i = 0; i < n; ++i) g += 2 * c * X[k][i] * (H[i] - y[i]);
        r[k] = -w[d + k] * g;
        r[d + k] = -w[k] * g;
    }
    return r;
}

// Max over t in {-1, -0.5, 0, 0.5, 1} of |p_closed(t) - RK4 psi(t + ln(1/delta)/(2N), delta w*)|_inf.
double max_path_error(const pk::LogisticLimitPath<IntervalMp>& path,
                      const std::function<std::vector<R>(const std::vector<R>&)>& f, const std::vector<R>& wstar,
                      const R& twoN, double steps_per_unit) {
    const R delta("1e-20");
    double worst = 0;
    for (const char* ts : {"-1", "-0.5", "0", "0.5", "1"}) {
        const R t(ts);
        const R T = t + log(1 / delta) / twoN;
        std::vector<R> x0;
        for (const R& w : wstar) x0.push_back(delta * w);
        const auto x = rk4(f, x0, T, static_cast<long>(std::ceil(static_cast<double>(T) * steps_per_unit)));
        const auto p = path.at(mp(ts));
        for (std::size_t j = 0; j < x.size(); ++j)
            worst = std::max(worst, static_cast<double>(abs(x[j] - to_r(p[j]))));
    }
    return worst;
}

}  // namespace

TEST_CASE("the Example 1 limit path closed form matches a 50-digit RK4 integration from delta w* with the shift",
          "[kh4]") {
    // Example 1: s = (1, 1), y = (4, 1), c = 1, w* = e_1, N* = 8.
    const std::vector<R> s = {1, 1}, y = {4, 1};
    const R c = 1;
    auto f = [&](const std::vector<R>& w) { return weighted_squares_rhs(w, s, y, c); };
    const auto path = pk::weighted_squares_limit_path<IntervalMp>(2, 0, 1, mp("4"), mp("1"));
    // RK4 error: steps of 1/16384 at rates <= 32 give about (32 h)^4 T ~ 1e-11; the tolerance 1e-9 leaves a margin
    // of 100, and a closed form off by one part in 1e6 of B moves p by >= 1e-7 at t = 0 (teeth below).
    const double err = max_path_error(path, f, {1, 0}, 16, 16384);
    CHECK(err < 1e-9);
    auto wrong = path;
    wrong.B = wrong.B * mp("1.000001");
    CHECK(max_path_error(wrong, f, {1, 0}, 16, 16384) > 1e-8);
    // the paper's printed p(0) = (2/sqrt 5, 0)
    const auto p0 = path.at(mp("0"));
    CHECK(subset(p0[0], IntervalMp::bounds(0.894427190999915, 0.894427190999916, Precision(kBits))));
    CHECK(lower(p0[1]) == 0);
    CHECK(upper(p0[1]) == 0);
}

TEST_CASE("the diagonal-net limit path closed form matches a 50-digit RK4 integration (X X^T diagonal, c = 1)",
          "[kh4]") {
    // X = diag(2, 1, 1), y = (1.5, 1, 0.5), loss sum (p - y)^2 (c = 1): b = 2 X y = (6, 2, 1), S_1 = 2c*4 = 8,
    // N* = b_1/2 = 3, w* = (e_1, e_1)/sqrt 2.
    const std::vector<std::vector<R>> X = {{2, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    const std::vector<R> y = {R("1.5"), 1, R("0.5")};
    const R c = 1;
    auto f = [&](const std::vector<R>& w) { return diagonal_rhs(w, X, y, c); };
    const auto path = pk::diagonal_limit_path<IntervalMp>(3, 0, 1, mp("6"), mp("8"));
    const R r2 = 1 / sqrt(R(2));
    const std::vector<R> wstar = {r2, 0, 0, r2, 0, 0};
    CHECK(max_path_error(path, f, wstar, 6, 4096) < 1e-9);
    auto wrong = path;
    wrong.A = wrong.A * mp("1.000001");
    CHECK(max_path_error(wrong, f, wstar, 6, 4096) > 1e-8);
}

TEST_CASE("the difference field is (f(p), f(p + e) - f(p)) and the reversed field is -f", "[kh4]") {
    const auto arch = nets::HomogeneousArchitecture::diagonal(2, 2);
    const taylor::VectorField f = nets::homogeneous_loss_flow_field(arch, 2, nets::SquareLossNormalization::paper());
    const std::vector<IntervalMp> params = {mp("1"), mp("0.5"), mp("-0.25"), mp("2"), mp("3"), mp("-1")};
    const taylor::VectorField g = taylor::difference_field(f), rv = taylor::reversed(f);
    taylor::TaylorEvaluator<IntervalMp> ef(f, params, kBits), eg(g, params, kBits), er(rv, params, kBits);
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<int> num(-900, 900);
    for (int rep = 0; rep < 20; ++rep) {
        std::vector<IntervalMp> p, e, x;
        for (int j = 0; j < 4; ++j) {
            p.push_back(IntervalMp::from_decimal(std::to_string(num(rng)) + "e-3", Precision(kBits)));
            e.push_back(IntervalMp::from_decimal(std::to_string(num(rng)) + "e-5", Precision(kBits)));
            x.push_back(p.back() + e.back());
        }
        std::vector<IntervalMp> fp(4, mp("0")), fx(4, mp("0")), gz(8, mp("0")), rp(4, mp("0")), z = p;
        z.insert(z.end(), e.begin(), e.end());
        REQUIRE(ef.evaluate(p, fp).ok());
        REQUIRE(ef.evaluate(x, fx).ok());
        REQUIRE(eg.evaluate(z, gz).ok());
        REQUIRE(er.evaluate(p, rp).ok());
        for (int j = 0; j < 4; ++j) {
            CHECK(width(gz[j] - fp[j]) < 1e-50);
            CHECK(possibly_zero(gz[j] - fp[j]));
            CHECK(possibly_zero(gz[4 + j] - (fx[j] - fp[j])));
            CHECK(width(gz[4 + j]) < 1e-50);
            CHECK(possibly_zero(rp[j] + fp[j]));
        }
    }
}

TEST_CASE("the certified Example 1 window tubes contain the paper's closed-form psi and p, and E(delta) is tight",
          "[kh4]") {
    const auto arch = nets::HomogeneousArchitecture::example1();
    const taylor::VectorField f = nets::homogeneous_loss_flow_field(arch, 2, nets::SquareLossNormalization::paper());
    const std::vector<IntervalD> params = {IntervalD(1), IntervalD(0), IntervalD(0), IntervalD(1), IntervalD(4), IntervalD(1)};
    const auto path = pk::weighted_squares_limit_path<IntervalD>(2, 0, 1, IntervalD(4), IntervalD(1));
    for (const char* ds : {"1e-3", "1e-6"}) {
        const IntervalD delta = IntervalD::from_decimal(ds);
        const IntervalD w = sqrt(IntervalD(2)) / IntervalD(2);
        const IntervalD shift = log(sqrt(IntervalD(2)) / delta) / IntervalD(16);  // T1 = ln 2/32, b = 1
        const auto wd = pk::certified_window_distance<IntervalD>(f, params, {delta * w, delta * w}, path, shift,
                                                                  IntervalD(1), 100, ode::Options{}, 53);
        REQUIRE(wd.ok);
        // paper's closed forms at 200 bits: psi(tau, delta w0) = (2 delta/sqrt(delta^2 + (8 - delta^2) e^{-32 tau}),
        // delta/sqrt(delta^2 + (2 - delta^2) e^{-8 tau})), p(t) = (2/sqrt(1 + 4 e^{-32 t}), 0)
        const IntervalMp dm = mp(ds), two = mp("2");
        const IntervalMp sm = log(sqrt(two) / dm) / mp("16");
        auto psi = [&](const IntervalMp& tau) {
            return std::vector<IntervalMp>{
                two * dm / sqrt(sqr(dm) + (mp("8") - sqr(dm)) * exp(-(mp("32") * tau))),
                dm / sqrt(sqr(dm) + (two - sqr(dm)) * exp(-(mp("8") * tau)))};
        };
        int checked = 0;
        for (const auto& pc : wd.pieces) {
            if (pc.t_lo < -1 || pc.t_hi > 1) continue;
            const double tm = 0.5 * (pc.t_lo + pc.t_hi);
            const IntervalMp t = IntervalMp::exact(tm, Precision(kBits));
            const auto x = psi(t + sm);
            const IntervalMp p0 = two / sqrt(mp("1") + mp("4") * exp(-(mp("32") * t)));
            CHECK(lower(pc.x[0]) <= lower(x[0]));
            CHECK(upper(x[0]) <= upper(pc.x[0]));
            CHECK(lower(pc.x[1]) <= lower(x[1]));
            CHECK(upper(x[1]) <= upper(pc.x[1]));
            CHECK(lower(pc.p[0]) <= lower(p0));
            CHECK(upper(p0) <= upper(pc.p[0]));
            const IntervalMp dist = sqrt(sqr(x[0] - p0) + sqr(x[1]));
            CHECK(lower(pc.distance) <= lower(dist));
            CHECK(upper(dist) <= upper(pc.distance));
            ++checked;
        }
        CHECK(checked > 50);
        // sup over the window is at t = 1 (both coordinates of the error grow): E(delta) = |psi(1 + s) - p(1)|
        const auto x1 = psi(mp("1") + sm);
        const IntervalMp E1 = sqrt(sqr(x1[0] - two / sqrt(mp("1") + mp("4") * exp(-mp("32")))) + sqr(x1[1]));
        CHECK(wd.sup_lower <= lower(E1));
        CHECK(upper(E1) <= wd.sup_upper);
        CHECK(wd.sup_upper <= wd.sup_lower * (1 + 1e-6));
    }
}

namespace {

// Lemma 23 (28), (29) and Lemma 24 (32) (N > 0) at a unit w, evaluated with the model layer's N and grad N
// (an independent code path from the cap criterion in theorem4_limit_path.cpp).
struct CapValues {
    IntervalMp lhs28, lhs29, N;
};
CapValues cap_values(const nets::Ncf<IntervalMp>& ncf, const nets::Vec<IntervalMp>& w, const nets::Vec<IntervalMp>& ws,
                     const IntervalMp& Nstar, const IntervalMp& Delta) {
    const auto g = ncf.gradient(w);
    IntervalMp dot = mp("0"), wsg = mp("0"), dist2 = mp("0");
    for (Eigen::Index j = 0; j < w.size(); ++j) {
        dot += ws(j) * w(j);
        wsg += ws(j) * g.gradient(j);
        dist2 += sqr(w(j) - ws(j));
    }
    return {wsg - mp("2") * g.value * dot - Delta / mp("2") * dist2, g.value - Nstar + Delta / mp("4") * dist2, g.value};
}

// Random unit w = c w* + s b (b unit, orthogonal to w*) with c in [c_min, 1]; returns min over samples of the
// three certified signs (true when every sample satisfies (28) >= 0, (29) <= 0, N > 0).
struct CapSampleResult {
    bool all28 = true, all29 = true, allN = true;
};
CapSampleResult sample_cap(const nets::Ncf<IntervalMp>& ncf, const std::vector<double>& wstar, double c_min,
                           const IntervalMp& Nstar, const IntervalMp& Delta, int samples) {
    const int P = static_cast<int>(wstar.size());
    std::mt19937_64 rng(11);
    std::normal_distribution<double> nd;
    std::uniform_real_distribution<double> ud(c_min, 1.0);
    nets::Vec<IntervalMp> ws(P);
    for (int j = 0; j < P; ++j) ws(j) = IntervalMp::exact(wstar[static_cast<std::size_t>(j)], Precision(kBits));
    IntervalMp wn = mp("0");
    for (int j = 0; j < P; ++j) wn += sqr(ws(j));
    for (int j = 0; j < P; ++j) ws(j) = ws(j) / sqrt(wn);
    CapSampleResult r;
    for (int k = 0; k < samples; ++k) {
        nets::Vec<IntervalMp> b(P);
        IntervalMp proj = mp("0");
        for (int j = 0; j < P; ++j) {
            b(j) = IntervalMp::exact(nd(rng), Precision(kBits));
            proj += b(j) * ws(j);
        }
        IntervalMp bn = mp("0");
        for (int j = 0; j < P; ++j) {
            b(j) = b(j) - proj * ws(j);
            bn += sqr(b(j));
        }
        // the boundary c = c_min is sampled every other time, where the bounds are tightest
        const IntervalMp c = IntervalMp::exact(k % 2 ? c_min : ud(rng), Precision(kBits));
        const IntervalMp s = sqrt(mp("1") - sqr(c));
        nets::Vec<IntervalMp> w(P);
        for (int j = 0; j < P; ++j) w(j) = c * ws(j) + s * b(j) / sqrt(bn);
        const CapValues v = cap_values(ncf, w, ws, Nstar, Delta);
        r.all28 = r.all28 && certainly_nonnegative(v.lhs28);
        r.all29 = r.all29 && certainly_nonpositive(v.lhs29);
        r.allN = r.allN && certainly_positive(v.N);
    }
    return r;
}

nets::Ncf<IntervalMp> identity_ncf(const nets::HomogeneousArchitecture& arch, const std::vector<const char*>& y,
                                   nets::SquareLossNormalization norm) {
    const int d = static_cast<int>(y.size());
    nets::Mat<IntervalMp> X(d, d);
    nets::Vec<IntervalMp> yy(d);
    for (int i = 0; i < d; ++i) {
        for (int k = 0; k < d; ++k) X(k, i) = mp(i == k ? "1" : "0");
        yy(i) = mp(y[static_cast<std::size_t>(i)]);
    }
    return nets::Ncf<IntervalMp>(nets::HomogeneousModel<IntervalMp>(arch, X), nets::ncf_weights<IntervalMp>(yy, norm));
}

}  // namespace

TEST_CASE("on the certified caps, Lemma 23 (28)-(29) and N > 0 hold at sampled unit vectors, and the diagonal "
          "net's N > 0 condition is needed at gamma = 0.38",
          "[kh4]") {
    // Example 1: w* = e_1, N* = 8, Delta = Delta_max = 12, gamma = 0.38 (c = 0.62): all three hold.
    const auto ex1 = identity_ncf(nets::HomogeneousArchitecture::example1(), {"4", "1"},
                                  nets::SquareLossNormalization::paper());
    const auto r1 = sample_cap(ex1, {1, 0}, 0.62, mp("8"), mp("12"), 200);
    CHECK(r1.all28);
    CHECK(r1.all29);
    CHECK(r1.allN);
    // Diagonal net, b = (3, 1, 0.5), loss 1/2: w* = (e_1, e_1)/sqrt 2, N* = 1.5, Delta_max = 2.
    const auto dg = identity_ncf(nets::HomogeneousArchitecture::diagonal(3, 2), {"3", "1", "0.5"},
                                 nets::SquareLossNormalization{true, false});
    const std::vector<double> wd = {1, 0, 0, 1, 0, 0};
    const auto r2 = sample_cap(dg, wd, 0.75, mp("1.5"), mp("2"), 200);  // gamma = 0.25, the case's
    CHECK(r2.all28);
    CHECK(r2.all29);
    CHECK(r2.allN);
    // gamma = 0.38 (c = 0.62) keeps (28)-(29) but not N > 0: (e_1, -e_1)/sqrt 2 has Hessian value -3 = -2N*.
    const auto r3 = sample_cap(dg, wd, 0.62, mp("1.5"), mp("2"), 400);
    CHECK(r3.all28);
    CHECK(r3.all29);
    CHECK_FALSE(r3.allN);
    // and (28) fails beyond the criterion's cap for Example 1: c = 0.6 < (sqrt 5 - 1)/2
    const auto r4 = sample_cap(ex1, {1, 0}, 0.6, mp("8"), mp("12"), 50);
    CHECK_FALSE(r4.all28);
}
