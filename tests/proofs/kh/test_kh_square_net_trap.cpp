// Tests of the plateau trap ingredients at the first saddle of v^T (W x)^2 (proofs/kh/square_net_trap).
#include <catch2/catch.hpp>

#include <flowcert/nets.hpp>
#include <flowcert/proofs/kh/square_net_trap.hpp>

#include <Eigen/Eigenvalues>

#include "square_net_fixture.hpp"

using namespace flowcert;
using namespace flowcert::proofs::kh;

namespace {
OneNeuronSaddle figure1_saddle(const SquareNetData& data) {
    const OneNeuronGuessNonrigorous g = square_net_fixture::saddle_guess(data);
    return prove_one_neuron_saddle(data, g.w, g.v, IntervalD(0));
}
}  // namespace

TEST_CASE("the one-neuron loss Hessian at p* is positive definite on the balanced slice but singular on R^{d+1}",
          "[kh][trap]") {
    const SquareNetData data = square_net_fixture::data(20, 100);
    const OneNeuronSaddle p = figure1_saddle(data);
    REQUIRE(p.status == ProofStatus::proven);
    const RestrictedHessian rh = restricted_hessian_positive(data, p);
    INFO(rh.reason);
    REQUIRE(rh.status == ProofStatus::proven);
    CHECK(certainly_positive(rh.lambda_min));
    // Without the restriction the orbit tangent (w, -2v) is a null vector: positive definiteness cannot be proven,
    // and H (w, -2v) encloses 0.
    CHECK(linalg::certainly_positive_definite<IntervalD>(rh.hessian).status != ProofStatus::proven);
    const int d = data.input_dim();
    for (int k = 0; k <= d; ++k) {
        IntervalD acc(0);
        for (int l = 0; l < d; ++l) acc = acc + rh.hessian(k, l) * p.w(l);
        acc = acc - IntervalD(2) * p.v * rh.hessian(k, d);
        CHECK(possibly_zero(acc));
    }
}

TEST_CASE("the small-neuron escape bound holds along a plain GD run from p* with one small neuron", "[kh][trap]") {
    const SquareNetData data = square_net_fixture::data(20, 100);
    const OneNeuronSaddle p = figure1_saddle(data);
    REQUIRE(p.status == ProofStatus::proven);
    IVectorD U(21);
    for (int k = 0; k < 20; ++k) U(k) = inflate(p.w(k), 1e-3);
    U(20) = inflate(p.v, 1e-3);
    const IntervalD b = IntervalD(2) * data.c * IntervalD::from_decimal("0.005");
    const EscapeBound eb = small_neuron_escape_bound(data, U, {0.05}, {0.1}, b);
    INFO(eb.reason);
    REQUIRE(eb.status == ProofStatus::proven);
    REQUIRE(eb.min_steps > 1000);
    CHECK(eb.loss_lower.lower() <= p.loss.lower());
    // NON-RIGOROUS consistency: plain GD from p* plus a small neuron of rho = 0.05 along the top eigenvector of
    // M(r*) (the fastest escape) keeps rho below 0.1 for the certified number of steps.
    const Eigen::MatrixXd Mm = linalg::mid<IntervalD>(p.M);
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(Mm);
    Eigen::MatrixXd W(2, 20);
    Eigen::VectorXd v(2);
    W.row(0) = linalg::mid<IntervalD>(p.w).transpose();
    v(0) = mid(p.v);
    W.row(1) = 0.05 / std::sqrt(1.5) * es.eigenvectors().col(19).transpose();  // |w|^2 + 2 v^2 = 0.05^2
    v(1) = -0.05 / std::sqrt(1.5) / 2;  // v M-eigenvalue sign opposite: grows
    double rho_max_seen = 0;
    for (long it = 0; it < eb.min_steps; ++it) {
        nets::square_net_gd_step_double(data.X, data.y, 0.01, 0.005, W, v);
        rho_max_seen = std::max(rho_max_seen, std::sqrt(W.row(1).squaredNorm() + 2 * v(1) * v(1)));
    }
    CHECK(rho_max_seen < 0.1);
}

namespace {
// A hand-off state near p*: the active neuron p* + offset (along e_0), `others` more neurons of norm `rho` along
// seeded directions.
struct HandOff {
    IMatrixD W;
    IVectorD v;
    Eigen::MatrixXd Wd;
    Eigen::VectorXd vd;
};
HandOff hand_off(const OneNeuronSaddle& p, int others, double rho, double offset) {
    const int d = static_cast<int>(p.w.size());
    HandOff h{IMatrixD(others + 1, d), IVectorD(others + 1), Eigen::MatrixXd(others + 1, d), Eigen::VectorXd(others + 1)};
    h.Wd.row(0) = linalg::mid<IntervalD>(p.w).transpose();
    h.Wd(0, 0) += offset;
    h.vd(0) = mid(p.v);
    nets::RandomStream rs(5, "test/trap_handoff", 0);
    for (int j = 1; j <= others; ++j) {
        Eigen::VectorXd g(d + 1);
        for (int k = 0; k <= d; ++k) g(k) = rs.gaussian();
        g *= rho / g.norm();
        h.Wd.row(j) = g.head(d).transpose();
        h.vd(j) = g(d);
    }
    for (int j = 0; j <= others; ++j) {
        for (int k = 0; k < d; ++k) h.W(j, k) = IntervalD::exact(h.Wd(j, k));
        h.v(j) = IntervalD::exact(h.vd(j));
    }
    return h;
}
double plain_loss(const SquareNetData& data, const Eigen::MatrixXd& W, const Eigen::VectorXd& v) {
    const Eigen::MatrixXd Z = W * data.X;
    return mid(data.c) * (Z.array().square().matrix().transpose() * v - data.y).squaredNorm();
}
// The trap input at a hand-off state (active neuron 0, step 0.005), with the loss of its exact doubles widened far
// beyond the double rounding of this small sum.
PlateauTrapInput trap_input(const SquareNetData& data, const HandOff& ho) {
    PlateauTrapInput in;
    in.active = 0;
    in.W = ho.W;
    in.v = ho.v;
    in.h = IntervalD::from_decimal("0.005");
    in.loss = inflate(IntervalD::exact(plain_loss(data, ho.Wd, ho.vd)), 1e-12);
    return in;
}
}  // namespace

TEST_CASE("the plateau trap closes near p* with small other neurons, and the plain GD run stays in its region",
          "[kh][trap]") {
    const SquareNetData data = square_net_fixture::data(10, 20, 3);
    const OneNeuronSaddle p = figure1_saddle(data);
    REQUIRE(p.status == ProofStatus::proven);
    const RestrictedHessian rh = restricted_hessian_positive(data, p);
    REQUIRE(rh.status == ProofStatus::proven);
    const HandOff ho = hand_off(p, 5, 1e-3, 1e-6);
    PlateauTrapInput in;
    in.active = 0;
    in.W = ho.W;
    in.v = ho.v;
    in.h = IntervalD::from_decimal("0.005");
    in.loss = inflate(IntervalD::exact(plain_loss(data, ho.Wd, ho.vd)), 1e-12);  // the test's enclosure (50-digit-free: the
    // loss of exact doubles, widened far beyond the double rounding of this small sum)
    const PlateauTrap t = prove_plateau_trap(data, p, rh, in);
    INFO(t.reason << "; shell: " << t.shell.reason << "; R_b " << t.outer_radius << ", T3 " << t.T3 << ", lambda "
                  << t.lambda << ", K " << t.steps << ", balance band " << t.balance_band << ", sigma " << t.sigma
                  << ", R_s " << t.inner_radius << ", kappa " << t.kappa << ", kappa_a " << t.kappa_active << ", Lambda " << t.Lambda);
    REQUIRE(t.status == ProofStatus::proven);
    REQUIRE(t.steps > 1000);
    // NON-RIGOROUS consistency: the plain run stays in R with its loss in the band for K steps.
    Eigen::MatrixXd W = ho.Wd;
    Eigen::VectorXd v = ho.vd;
    const Eigen::VectorXd a_star = [&] {
        Eigen::VectorXd a(11);
        a.head(10) = linalg::mid<IntervalD>(p.w);
        a(10) = mid(p.v);
        return a;
    }();
    double dmax = 0, rmax = 0, lmin = 1e300, lmax = 0;
    const long K = std::min<long>(t.steps, 200000);
    for (long k = 0; k < K; ++k) {
        const double L = nets::square_net_gd_step_double(data.X, data.y, 0.05, 0.005, W, v);
        lmin = std::min(lmin, L);
        lmax = std::max(lmax, L);
        Eigen::VectorXd a(11);
        a.head(10) = W.row(0).transpose();
        a(10) = v(0);
        dmax = std::max(dmax, (a - a_star).norm());
        for (int j = 1; j < W.rows(); ++j) rmax = std::max(rmax, std::sqrt(W.row(j).squaredNorm() + 2 * v(j) * v(j)));
    }
    CHECK(dmax <= t.outer_radius);
    CHECK(rmax <= 2e-3 * std::sqrt(2.0));
    CHECK(lmin >= t.loss_band.lower());
    CHECK(lmax <= t.loss_band.upper());
}

TEST_CASE("the plateau trap is not proven when the other neurons are large or the hand-off is far from p*", "[kh][trap]") {
    const SquareNetData data = square_net_fixture::data(10, 20, 3);
    const OneNeuronSaddle p = figure1_saddle(data);
    const RestrictedHessian rh = restricted_hessian_positive(data, p);
    REQUIRE(rh.status == ProofStatus::proven);
    for (const auto& [rho, offset] : {std::pair{0.1, 1e-6}, std::pair{1e-3, 0.05}}) {
        const HandOff ho = hand_off(p, 5, rho, offset);
        PlateauTrapInput in;
        in.W = ho.W;
        in.v = ho.v;
        in.h = IntervalD::from_decimal("0.005");
        in.loss = inflate(IntervalD::exact(plain_loss(data, ho.Wd, ho.vd)), 1e-12);
        const PlateauTrap t = prove_plateau_trap(data, p, rh, in);
        INFO("rho " << rho << ", offset " << offset << ": " << t.reason);
        CHECK(t.status != ProofStatus::proven);
    }
}


TEST_CASE("the restricted Hessian is not positive definite at a one-neuron critical point that is a saddle of L1",
          "[kh][trap]") {
    // Inputs e1, e2 with targets 4, 1 (c = 1/2): the neuron w = (0, b), v b^2 = 1 fits the smaller target only.
    // With balance 0 (b^2 = 2 v^2): v = 2^{-1/3}. It is a zero of F (M(r) = diag(-4, 0), M w = 0) with a
    // non-singular Jacobian, so Krawczyk proves it; but along w_1 (tangent to the slice) L1 = c (v w_1^2 - 4)^2 + ...
    // curves down (d^2/dw_1^2 = -16 c v < 0): p is a saddle of L1 on the slice, not the minimum a trap needs.
    const SquareNetData data{Eigen::Matrix2d::Identity(), Eigen::Vector2d(4, 1), IntervalD(1) / IntervalD(2)};
    const double v = std::cbrt(0.5), b = std::sqrt(2.0) * v;
    const OneNeuronSaddle p = prove_one_neuron_saddle(data, Eigen::Vector2d(0, b), v, IntervalD(0));
    INFO(p.reason);
    REQUIRE(p.status == ProofStatus::proven);
    const RestrictedHessian rh = restricted_hessian_positive(data, p);
    INFO(rh.reason);
    CHECK(rh.status != ProofStatus::proven);
    CHECK(rh.lambda_min.upper() < 0);  // certified indefinite: lambda_min(P H P + n n^T/|n|^2) < 0
    // The same routine proves the minimum w = (a, b) with v a^2 = 4, v b^2 = 1 (zero loss) on its slice.
    const double vm = std::cbrt(2.5);  // balance 0: a^2 + b^2 = 2 v^2 with a^2 = 4 / v, b^2 = 1 / v
    const OneNeuronSaddle pm = prove_one_neuron_saddle(data, Eigen::Vector2d(2 / std::sqrt(vm), 1 / std::sqrt(vm)), vm, IntervalD(0));
    REQUIRE(pm.status == ProofStatus::proven);
    CHECK(restricted_hessian_positive(data, pm).status == ProofStatus::proven);
}

TEST_CASE("the small-neuron escape bound is not proven over a region whose residuals are unbounded", "[kh][trap]") {
    // The bound needs finite enclosures of M(r_a) over the active box U: a trap radius so large that
    // v (w^T x)^2 overflows over U gives no kappa and so no escape steps.
    const SquareNetData data = square_net_fixture::data(10, 20, 3);
    const OneNeuronSaddle p = figure1_saddle(data);
    REQUIRE(p.status == ProofStatus::proven);
    const IntervalD b = IntervalD(2) * data.c * IntervalD::from_decimal("0.005");
    for (const double radius : {1e-3, 1e150}) {
        IVectorD U(11);
        for (int k = 0; k < 10; ++k) U(k) = inflate(p.w(k), radius);
        U(10) = inflate(p.v, radius);
        const EscapeBound eb = small_neuron_escape_bound(data, U, {0.05}, {0.1}, b);
        INFO("radius " << radius << ": " << eb.reason);
        CHECK((eb.status == ProofStatus::proven) == (radius < 1));
    }
}

TEST_CASE("the trap's kappa_a and T3 bound ||M(r_a)|| and |D^3 L1[u^3]| at sampled points of the trap ball", "[kh][trap]") {
    const SquareNetData data = square_net_fixture::data(10, 20, 3);
    const OneNeuronSaddle p = figure1_saddle(data);
    REQUIRE(p.status == ProofStatus::proven);
    const RestrictedHessian rh = restricted_hessian_positive(data, p);
    REQUIRE(rh.status == ProofStatus::proven);
    PlateauTrapInput in = trap_input(data, hand_off(p, 5, 1e-3, 1e-6));
    in.radius = 0.02;
    const PlateauTrap t = prove_plateau_trap(data, p, rh, in);
    REQUIRE(t.kappa_active > 0);
    REQUIRE(t.T3 > 0);
    const int d = 10, n = 20;
    const double c = 1.0 / n;
    Eigen::VectorXd a_star(d + 1);
    a_star.head(d) = linalg::mid<IntervalD>(p.w);
    a_star(d) = mid(p.v);
    nets::RandomStream rs(11, "test/trap_bounds", 0);
    double kmax = 0, t3max = 0;
    for (int sample = 0; sample < 300; ++sample) {
        Eigen::VectorXd e(d + 1), u(d + 1);
        for (int k = 0; k <= d; ++k) {
            e(k) = rs.gaussian();
            u(k) = rs.gaussian();
        }
        const Eigen::VectorXd xi = a_star + (0.02 * (sample % 3 == 0 ? 1.0 : rs.uniform01()) / e.norm()) * e;
        u.normalize();
        const Eigen::VectorXd w = xi.head(d), dw = u.head(d);
        const double v = xi(d), dv = u(d);
        const Eigen::VectorXd z = data.X.transpose() * w, s = data.X.transpose() * dw;
        const Eigen::VectorXd r = v * z.array().square().matrix() - data.y;
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(data.X * r.asDiagonal() * data.X.transpose());
        kmax = std::max(kmax, es.eigenvalues().cwiseAbs().maxCoeff());
        double d3 = 0;  // c sum (6 r' r'' + 2 r r''') along u
        for (int i = 0; i < n; ++i) {
            const double r1 = 2 * v * z(i) * s(i) + z(i) * z(i) * dv, r2 = 2 * v * s(i) * s(i) + 4 * z(i) * s(i) * dv;
            d3 += c * (6 * r1 * r2 + 2 * r(i) * 6 * dv * s(i) * s(i));
        }
        t3max = std::max(t3max, std::abs(d3));
    }
    INFO("kappa_a " << t.kappa_active << " vs sampled " << kmax << "; T3 " << t.T3 << " vs sampled " << t3max);
    CHECK(kmax <= t.kappa_active);
    CHECK(t3max <= t.T3);
    // Not vacuous: both bounds within a factor 10 of the sampled values.
    CHECK(t.kappa_active < 10 * kmax);
    CHECK(t.T3 < 10 * t3max);
}
