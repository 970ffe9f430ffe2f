// Tests of the plateau trap ingredients at the first saddle of v^T (W x)^2 (proofs/kh/square_net_trap).
#include <catch2/catch.hpp>

#include <flowcert/nets/square_net_gd.hpp>
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
    REQUIRE(p.status == SaddleStatus::proven);
    const RestrictedHessian rh = restricted_hessian_positive(data, p);
    INFO(rh.reason);
    REQUIRE(rh.status == SaddleStatus::proven);
    CHECK(certainly_positive(rh.lambda_min));
    // Without the restriction the orbit tangent (w, -2v) is a null vector: positive definiteness cannot be proven,
    // and H (w, -2v) encloses 0.
    CHECK(linalg::certainly_positive_definite<IntervalD>(rh.hessian).status != linalg::EigenStatus::proven);
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
    REQUIRE(p.status == SaddleStatus::proven);
    IVectorD U(21);
    for (int k = 0; k < 20; ++k) U(k) = inflate(p.w(k), 1e-3);
    U(20) = inflate(p.v, 1e-3);
    const IntervalD b = IntervalD(2) * data.c * IntervalD::from_decimal("0.005");
    const EscapeBound eb = small_neuron_escape_bound(data, U, {0.05}, {0.1}, b);
    INFO(eb.reason);
    REQUIRE(eb.status == SaddleStatus::proven);
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
