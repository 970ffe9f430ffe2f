// Tests of proofs/kh/lemma23_cap (Lemma 23 on an explicit cap) and proofs/kh/stable_set (the NCF tube into it):
// Example 1, where (28) holds exactly for cos >= (sqrt 5 - 1)/2 [docs/kh.md], so the largest gamma is (3 - sqrt 5)/2;
// a cubic (3-homogeneous) square net, where proven caps are checked against (28), (29) and N > 0 at sampled unit
// vectors (double, non-rigorous) and a too large gamma is refused.
#include <catch2/catch.hpp>

#include <flowcert/nets.hpp>
#include <flowcert/proofs/kh/lemma23_cap.hpp>
#include <flowcert/proofs/kh/ncf_kkt.hpp>
#include <flowcert/proofs/kh/stable_set.hpp>

#include <cmath>
#include <random>

using namespace flowcert;
using namespace flowcert::nets;
namespace pk = flowcert::proofs::kh;

namespace {

struct Instance {
    Ncf<IntervalD> ncf;
    Ncf<double> ncf_d;
    linalg::IVectorD wstar;
    IntervalD Nstar, lambda_min_t, lambda_t, delta_max;
};

Instance certify(const HomogeneousArchitecture& arch, const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                 const Eigen::VectorXd& start) {
    const SquareLossNormalization norm = SquareLossNormalization::paper();
    Ncf<IntervalD> ncf(HomogeneousModel<IntervalD>(arch, convert_matrix<IntervalD>(X, 53)),
                       ncf_weights<IntervalD>(convert_vector<IntervalD>(y, 53), norm));
    Ncf<double> ncf_d(HomogeneousModel<double>(arch, X), ncf_weights<double>(y, norm));
    const auto cand = pk::polish_kkt_point_nonrigorous(ncf_d, start, 20);
    const auto ex = pk::prove_kkt_point(ncf, cand.u, cand.mu);
    REQUIRE(ex.status == ProofStatus::proven);
    const auto ts = pk::tangent_spectrum(ncf, ex.u);
    REQUIRE(ts.status == ProofStatus::proven);
    return {ncf, ncf_d, ex.u, ts.ncf_value, ts.lambda_min_tangent, ts.lambda_max_tangent, ts.delta_max};
}

// The 3-homogeneous square net of two tests (4 neurons, d = 3, n = 8, a 2-neuron teacher, data seed 1) at its top
// KKT point (one active neuron), found by the search and certified.
struct CubicNet {
    HomogeneousArchitecture arch;
    SphereTeacherData sd;
    Instance in;
};

CubicNet cubic_square_net() {
    const auto arch = HomogeneousArchitecture::feed_forward(3, {4}, HomActivation::square());
    const auto teacher = HomogeneousArchitecture::feed_forward(3, {2}, HomActivation::square());
    SphereTeacherData sd = make_sphere_teacher_data(1, 3, 8, teacher);
    const Ncf<double> nd(HomogeneousModel<double>(arch, sd.X), ncf_weights<double>(sd.y, SquareLossNormalization::paper()));
    const auto cands = pk::find_kkt_points_nonrigorous(nd, pk::KktSearchOptions{});
    REQUIRE(!cands.empty());
    Instance in = certify(arch, sd.X, sd.y, cands.front().u);
    return {arch, std::move(sd), std::move(in)};
}

// (28), (29) and N at a unit w, in double.
struct Values {
    double f28, f29, n;
};
Values at(const Instance& in, const Eigen::VectorXd& w, double Delta) {
    const Eigen::VectorXd ws = linalg::mid<IntervalD>(in.wstar);
    const auto g = in.ncf_d.gradient(w);
    const double N = g.value, Ns = mid(in.Nstar), L = in.ncf.order(), c = ws.dot(w), h2 = (w - ws).squaredNorm();
    return {ws.dot(g.gradient) - L * N * c - Delta / 2 * h2, N - Ns + Delta / 4 * h2, N};
}

Eigen::VectorXd random_cap_point(const Eigen::VectorXd& ws, double gamma, std::mt19937_64& rng) {
    std::normal_distribution<double> g;
    std::uniform_real_distribution<double> u(0, 1);
    Eigen::VectorXd b(ws.size());
    for (Eigen::Index j = 0; j < b.size(); ++j) b(j) = g(rng);
    b -= b.dot(ws) * ws;
    b.normalize();
    const double c = 1 - gamma * u(rng);
    return c * ws + std::sqrt(1 - c * c) * b;
}

}  // namespace

TEST_CASE("Example 1: the certified cap reaches the exact gamma (3 - sqrt 5)/2 of (28) and no further", "[kh][lemma23]") {
    Eigen::MatrixXd X = Eigen::MatrixXd::Identity(2, 2);
    Eigen::VectorXd y(2), s(2);
    y << 4, 1;
    s << 1, 0.01;
    const Instance in = certify(HomogeneousArchitecture::example1(), X, y, s);
    const IntervalD Delta = IntervalD(12);  // = Delta_max
    const double exact_gamma = (3 - std::sqrt(5.0)) / 2;
    const auto ok = pk::lemma23_cap<IntervalD>(in.ncf, in.wstar, in.Nstar, in.lambda_min_t, in.lambda_t, Delta, IntervalD::from_decimal("0.37"), 64);
    CHECK(ok.status == ProofStatus::proven);
    const auto bad = pk::lemma23_cap<IntervalD>(in.ncf, in.wstar, in.Nstar, in.lambda_min_t, in.lambda_t, Delta, IntervalD::from_decimal("0.40"), 64);
    CHECK(bad.status == ProofStatus::not_proven);
    // and (28) is really false beyond the exact gamma: at cos = 0.6 < (sqrt 5 - 1)/2
    Eigen::VectorXd w(2);
    w << 0.6, 0.8;
    CHECK(1 - 0.6 > exact_gamma);
    CHECK(at(in, w, 12).f28 < 0);
}

TEST_CASE("a 3-homogeneous square net: proven caps satisfy (28), (29), N > 0 at sampled points, and a large gamma is refused",
          "[kh][lemma23]") {
    const CubicNet net = cubic_square_net();
    const HomogeneousArchitecture& arch = net.arch;
    const SphereTeacherData& sd = net.sd;
    const Instance& in = net.in;
    const IntervalD Delta = IntervalD::exact(lower(in.delta_max));
    const auto cap = pk::lemma23_cap<IntervalD>(in.ncf, in.wstar, in.Nstar, in.lambda_min_t, in.lambda_t, Delta, IntervalD::from_decimal("1e-5"), 64);
    REQUIRE(cap.status == ProofStatus::proven);
    std::mt19937_64 rng(7);
    const Eigen::VectorXd ws = linalg::mid<IntervalD>(in.wstar);
    for (int k = 0; k < 200; ++k) {
        const Values v = at(in, random_cap_point(ws, 1e-5, rng), mid(Delta));
        CHECK(v.f28 >= -1e-12);
        CHECK(v.f29 <= 1e-12);
        CHECK(v.n > 0);
    }
    const auto big = pk::lemma23_cap<IntervalD>(in.ncf, in.wstar, in.Nstar, in.lambda_min_t, in.lambda_t, Delta, IntervalD::from_decimal("0.5"), 64);
    CHECK(big.status == ProofStatus::not_proven);
}

TEST_CASE("Example 1: the certified NCF tube enters the cap from (0.1, 1), is in it from (1, 1), never from (0, 1)",
          "[kh][stable_set]") {
    Eigen::MatrixXd X = Eigen::MatrixXd::Identity(2, 2);
    Eigen::VectorXd y(2), s(2);
    y << 4, 1;
    s << 1, 0.01;
    const Instance in = certify(HomogeneousArchitecture::example1(), X, y, s);
    const auto arch = HomogeneousArchitecture::example1();
    const taylor::VectorField f = ncf_flow_field(arch, 2);
    const auto par = ncf_flow_parameters<IntervalD>(convert_matrix<IntervalD>(X, 53), in.ncf.ytilde());
    const IntervalD gamma = IntervalD::from_decimal("0.38");
    ode::Options o;
    const auto run = [&](double a, double b) {
        return pk::ncf_tube_enters_cap<IntervalD>(f, par, {IntervalD::exact(a), IntervalD::exact(b)}, in.wstar, gamma, 3,
                                                  0.5, true, o, 53);
    };
    const auto inside = run(1, 1);
    CHECK(inside.status == ProofStatus::proven);
    CHECK(inside.flow_time == 0);
    const auto enters = run(0.1, 1);
    REQUIRE(enters.status == ProofStatus::proven);
    // u = (0.1 e^{16t}, e^{4t}): the cosine passes 1 - gamma at t = ln(10 c/sqrt(1 - c^2))/12, c = 0.62
    const double c = 0.62, t_exact = std::log(10 * c / std::sqrt(1 - c * c)) / 12;
    CHECK(enters.flow_time >= t_exact);
    CHECK(enters.flow_time <= t_exact + 0.06);
    CHECK(run(0, 1).status == ProofStatus::not_proven);
}

namespace {

// theta' = g(theta) - (theta . g) theta + kick e_0 (kick = 0: the direction flow of docs/kh.md), with the lemma's
// companions c' = (theta . g) c, t' = c^{2-L}: u(t(s)) = c(s) theta(s) for the NCF u' = g(u). RK4 in double.
struct DirectionState {
    Eigen::VectorXd theta;
    double c, t;
};
DirectionState direction_rk4(const Ncf<double>& ncf, Eigen::VectorXd theta, double S, int steps, double kick) {
    const double L = ncf.order();
    const int P = static_cast<int>(theta.size());
    auto rhs = [&](const Eigen::VectorXd& z) {  // z = (theta, c, t)
        const Eigen::VectorXd th = z.head(P);
        const Eigen::VectorXd g = ncf.gradient(th).gradient;
        Eigen::VectorXd d(P + 2);
        d.head(P) = g - th.dot(g) * th;
        d(0) += kick;
        d(P) = th.dot(g) * z(P);
        d(P + 1) = std::pow(z(P), 2 - L);
        return d;
    };
    Eigen::VectorXd z(P + 2);
    z.head(P) = theta;
    z(P) = 1;
    z(P + 1) = 0;
    const double h = S / steps;
    for (int k = 0; k < steps; ++k) {
        const Eigen::VectorXd k1 = rhs(z), k2 = rhs(z + h / 2 * k1), k3 = rhs(z + h / 2 * k2), k4 = rhs(z + h * k3);
        z += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
    }
    return {z.head(P), z(P), z(P + 1)};
}
Eigen::VectorXd ncf_rk4(const Ncf<double>& ncf, Eigen::VectorXd u, double T, int steps) {
    const double h = T / steps;
    auto g = [&](const Eigen::VectorXd& x) { return Eigen::VectorXd(ncf.gradient(x).gradient); };
    for (int k = 0; k < steps; ++k) {
        const Eigen::VectorXd k1 = g(u), k2 = g(u + h / 2 * k1), k3 = g(u + h / 2 * k2), k4 = g(u + h * k3);
        u += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
    }
    return u;
}

}  // namespace

TEST_CASE("a 3-homogeneous square net: the NCF direction flow enters the cap like the renormalized NCF and follows its directions",
          "[kh][stable_set]") {
    const CubicNet net = cubic_square_net();
    const HomogeneousArchitecture& arch = net.arch;
    const SphereTeacherData& sd = net.sd;
    const Instance& in = net.in;
    const Ncf<double>& nd = in.ncf_d;
    const Eigen::VectorXd ws = linalg::mid<IntervalD>(in.wstar);
    std::mt19937_64 rng(11);
    std::normal_distribution<double> gauss;
    Eigen::VectorXd w0(ws.size());
    for (Eigen::Index j = 0; j < w0.size(); ++j) w0(j) = ws(j) + 0.3 * gauss(rng);
    w0.normalize();
    const double cos0 = ws.dot(w0);
    REQUIRE(cos0 < 0.99);

    // the lemma (docs/kh.md): u(t(S)) = c(S) theta(S), checked against a plain RK4 of the NCF to t(S)
    const DirectionState ds = direction_rk4(nd, w0, 0.1, 4000, 0.0);
    INFO("c(S) = " << ds.c << ", t(S) = " << ds.t);
    CHECK(ds.c > 1.5);  // a non-trivial stretch of the NCF
    CHECK(std::abs(ds.theta.norm() - 1) < 1e-9);  // |theta| = 1 is invariant
    const Eigen::VectorXd u = ncf_rk4(nd, w0, ds.t, 4000);
    CHECK((u - ds.c * ds.theta).norm() <= 1e-7 * u.norm());
    // teeth: a non-radial term breaks it
    const DirectionState bad = direction_rk4(nd, w0, 0.1, 4000, 0.1);
    CHECK((ncf_rk4(nd, w0, bad.t, 4000) - bad.c * bad.theta).norm() > 1e-3 * u.norm());

    // the rigorous cap entry: the direction flow and the renormalized NCF chunks both prove it
    const IntervalD Delta = IntervalD::exact(lower(in.delta_max));
    const IntervalD gamma = IntervalD::from_decimal("1e-5");
    const auto cap = pk::lemma23_cap<IntervalD>(in.ncf, in.wstar, in.Nstar, in.lambda_min_t, in.lambda_t, Delta, gamma, 64);
    REQUIRE(cap.status == ProofStatus::proven);
    const auto par = ncf_flow_parameters<IntervalD>(convert_matrix<IntervalD>(sd.X, 53), in.ncf.ytilde());
    std::vector<IntervalD> W0;
    for (Eigen::Index j = 0; j < w0.size(); ++j) W0.push_back(IntervalD::exact(w0(j)));
    ode::Options o;
    const double horizon = 20.0 / lower(in.delta_max);
    const double chunk = 0.25 / (3 * upper(in.Nstar));
    const auto renorm = pk::ncf_tube_enters_cap<IntervalD>(ncf_flow_field(arch, 8), par, W0, in.wstar, gamma, horizon, chunk,
                                                           true, o, 53);
    const auto direction = pk::ncf_tube_enters_cap<IntervalD>(ncf_direction_flow_field(arch, 8), par, W0, in.wstar, gamma,
                                                              horizon, 0.5, false, o, 53);
    CHECK(renorm.status == ProofStatus::proven);
    CHECK(direction.status == ProofStatus::proven);
    INFO("entry: renormalized NCF at flow time " << renorm.flow_time << ", direction flow at s = " << direction.flow_time);
    CHECK(direction.flow_time > 0);
    CHECK(direction.trace.size() < renorm.trace.size());  // fewer chunks: no blow-up to stay ahead of
}
