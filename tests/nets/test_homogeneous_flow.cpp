// Tests of the KH gradient-flow fields (lib/flowcert/nets/homogeneous_flow.hpp).
//
// References: the model layer's own loss gradient and NCF gradient evaluated at 256 bits (independent
// code path: homogeneous.cpp computes derivatives by its own formulas / reverse mode), and the closed
// form of Example 1's flow (each coordinate of s = w^2 is logistic), evaluated with MPFR.
#include <catch2/catch.hpp>

#include <mpfr.h>

#include <random>
#include <vector>

#include <flowcert/nets.hpp>
#include "flowcert/ode.hpp"

using namespace flowcert;
using namespace flowcert::nets;

namespace {

constexpr long kRefBits = 256;

struct Instance {
    const char* name;
    HomogeneousArchitecture arch;
    int n;
};

std::vector<Instance> instances() {
    return {
        {"Example 1 (+1, +1)", HomogeneousArchitecture::example1(), 2},
        {"weighted squares (+1, +1, -1)", HomogeneousArchitecture::weighted_squares({1, 1, -1}), 4},
        {"diagonal depth 2", HomogeneousArchitecture::diagonal(3, 2), 4},
        {"diagonal depth 3", HomogeneousArchitecture::diagonal(2, 3), 3},
        {"one hidden layer, square", HomogeneousArchitecture::feed_forward(3, {2}, HomActivation::square()), 5},
        {"one hidden layer, linear", HomogeneousArchitecture::feed_forward(2, {3}, HomActivation::linear()), 3},
        {"one hidden layer, max(z,0)^3", HomogeneousArchitecture::feed_forward(2, {2}, HomActivation::relu_power(3)),
         4},
        {"one hidden layer, max(z,0)^2", HomogeneousArchitecture::feed_forward(3, {2}, HomActivation::relu_power(2)),
         3},
    };
}

// Dyadic random numbers (exact in double and in every back end).
double dyadic(std::mt19937_64& g) { return static_cast<double>(static_cast<int>(g() % 2001) - 1000) / 512.0; }

}  // namespace

TEST_CASE("loss-flow field encloses minus the model's loss gradient computed at 256 bits", "[homogeneous_flow]") {
    std::mt19937_64 g(7);
    for (const Instance& inst : instances()) {
        INFO(inst.name);
        const int d = inst.arch.input_dim, P = inst.arch.parameter_count();
        Eigen::MatrixXd X(d, inst.n);
        Eigen::VectorXd y(inst.n);
        for (int i = 0; i < inst.n; ++i) {
            for (int k = 0; k < d; ++k) X(k, i) = dyadic(g);
            y(i) = dyadic(g);
        }
        for (const SquareLossNormalization norm : {SquareLossNormalization{false, false},
                                                  SquareLossNormalization{true, true}}) {
            const taylor::VectorField f = homogeneous_loss_flow_field(inst.arch, inst.n, norm);
            REQUIRE(f.dimension() == P);
            taylor::TaylorEvaluator<IntervalD> ev(
                f, homogeneous_flow_parameters<IntervalD>(convert_matrix<IntervalD>(X, 53),
                                                          convert_vector<IntervalD>(y, 53)));
            const HomogeneousModel<IntervalMp> ref(inst.arch, convert_matrix<IntervalMp>(X, kRefBits));
            const Vec<IntervalMp> yr = convert_vector<IntervalMp>(y, kRefBits);
            for (int trial = 0; trial < 5; ++trial) {
                Eigen::VectorXd w(P);
                for (int j = 0; j < P; ++j) w(j) = dyadic(g);
                std::vector<IntervalD> wd(P), out(P);
                for (int j = 0; j < P; ++j) wd[j] = IntervalD::exact(w(j));
                REQUIRE(ev.evaluate(wd, out).ok());
                const LossResult<IntervalMp> L =
                    square_loss(ref, convert_vector<IntervalMp>(w, kRefBits), yr, norm, true);
                REQUIRE(L.status == EvalStatus::ok);
                for (int j = 0; j < P; ++j) {
                    // Both enclose the exact -dL/dw_j, so they intersect; a wrong formula makes them
                    // disjoint (the 256-bit reference has width ~1e-70).
                    const IntervalMp neg = -L.gradient(j);
                    const IntervalD refd = IntervalD::bounds(lower(neg), upper(neg));
                    IntervalD common;
                    INFO("j = " << j << ": field " << to_string(out[j]) << " vs " << to_string(neg));
                    CHECK(intersect(out[j], refd, common));
                    CHECK(width(out[j]) <= 1e-12 * (1 + mag(refd)));
                }
            }
        }
    }
}

TEST_CASE("NCF-flow field encloses the model's NCF gradient computed at 256 bits", "[homogeneous_flow]") {
    std::mt19937_64 g(11);
    for (const Instance& inst : instances()) {
        INFO(inst.name);
        const int d = inst.arch.input_dim, P = inst.arch.parameter_count();
        Eigen::MatrixXd X(d, inst.n);
        Eigen::VectorXd yt(inst.n);
        for (int i = 0; i < inst.n; ++i) {
            for (int k = 0; k < d; ++k) X(k, i) = dyadic(g);
            yt(i) = dyadic(g);
        }
        const taylor::VectorField f = ncf_flow_field(inst.arch, inst.n);
        taylor::TaylorEvaluator<IntervalD> ev(f, ncf_flow_parameters<IntervalD>(convert_matrix<IntervalD>(X, 53),
                                                                               convert_vector<IntervalD>(yt, 53)));
        const Ncf<IntervalMp> ncf(HomogeneousModel<IntervalMp>(inst.arch, convert_matrix<IntervalMp>(X, kRefBits)),
                                  convert_vector<IntervalMp>(yt, kRefBits));
        for (int trial = 0; trial < 5; ++trial) {
            Eigen::VectorXd u(P);
            for (int j = 0; j < P; ++j) u(j) = dyadic(g);
            std::vector<IntervalD> ud(P), out(P);
            for (int j = 0; j < P; ++j) ud[j] = IntervalD::exact(u(j));
            REQUIRE(ev.evaluate(ud, out).ok());
            const GradientResult<IntervalMp> G = ncf.gradient(convert_vector<IntervalMp>(u, kRefBits));
            REQUIRE(G.status == EvalStatus::ok);
            for (int j = 0; j < P; ++j) {
                INFO("j = " << j << ": field " << to_string(out[j]) << " vs " << to_string(G.gradient(j)));
                const IntervalD refd = IntervalD::bounds(lower(G.gradient(j)), upper(G.gradient(j)));
                IntervalD common;
                CHECK(intersect(out[j], refd, common));
                CHECK(width(out[j]) <= 1e-12 * (1 + mag(refd)));
            }
        }
    }
}

TEST_CASE("Example 1 loss flow: the certified enclosure at T = 1 contains the closed-form solution",
          "[homogeneous_flow]") {
    // L = (w1^2 - 4)^2 + (w2^2 - 1)^2 [KH2025, Example 1]: s_k = w_k^2 obeys s' = -8 s (s - y_k), so
    // s(t) = y / (1 + (y/s0 - 1) e^{-8 y t}) and w(t) = sqrt(s(t)) for w0 > 0.
    Eigen::MatrixXd X = Eigen::MatrixXd::Identity(2, 2);
    Eigen::VectorXd y(2);
    y << 4, 1;
    const taylor::VectorField f =
        homogeneous_loss_flow_field(HomogeneousArchitecture::example1(), 2, SquareLossNormalization::paper());
    const std::vector<IntervalD> params =
        homogeneous_flow_parameters<IntervalD>(convert_matrix<IntervalD>(X, 53), convert_vector<IntervalD>(y, 53));
    const double w0[2] = {0.0078125, 0.015625};
    const std::vector<IntervalD> x0 = {IntervalD::exact(w0[0]), IntervalD::exact(w0[1])};
    ode::Options opt;
    const ode::Result<IntervalD> r = ode::integrate<IntervalD>(f, params, x0, IntervalD(1), {}, opt, 53);
    REQUIRE(r.ok());
    for (int k = 0; k < 2; ++k) {
        mpfr_t s0, e, s, tmp;
        mpfr_inits2(400, s0, e, s, tmp, static_cast<mpfr_ptr>(nullptr));
        mpfr_set_d(s0, w0[k], MPFR_RNDN);
        mpfr_sqr(s0, s0, MPFR_RNDN);                  // exact at 400 bits
        mpfr_set_d(e, -8.0 * y(k), MPFR_RNDN);        // e^{-8 y t}, t = 1
        mpfr_exp(e, e, MPFR_RNDN);
        mpfr_set_d(tmp, y(k), MPFR_RNDN);
        mpfr_div(tmp, tmp, s0, MPFR_RNDN);
        mpfr_sub_ui(tmp, tmp, 1, MPFR_RNDN);
        mpfr_mul(tmp, tmp, e, MPFR_RNDN);
        mpfr_add_ui(tmp, tmp, 1, MPFR_RNDN);
        mpfr_set_d(s, y(k), MPFR_RNDN);
        mpfr_div(s, s, tmp, MPFR_RNDN);
        mpfr_sqrt(s, s, MPFR_RNDN);
        const double lo = mpfr_get_d(s, MPFR_RNDD), hi = mpfr_get_d(s, MPFR_RNDU);
        INFO("k = " << k << ": enclosure " << to_string(r.final_box[k]) << ", exact ~ " << lo);
        CHECK(lower(r.final_box[k]) <= lo);
        CHECK(hi <= upper(r.final_box[k]));
        CHECK(width(r.final_box[k]) < 1e-10);
        mpfr_clears(s0, e, s, tmp, static_cast<mpfr_ptr>(nullptr));
    }
}

TEST_CASE("a ReLU network or a two-hidden-layer network is refused with a reason", "[homogeneous_flow]") {
    CHECK_THROWS_AS(homogeneous_loss_flow_field(HomogeneousArchitecture::feed_forward(2, {2}, HomActivation::relu()), 2,
                                                SquareLossNormalization::paper()),
                    std::invalid_argument);
    CHECK_THROWS_AS(ncf_flow_field(HomogeneousArchitecture::feed_forward(2, {2, 2}, HomActivation::square()), 2),
                    std::invalid_argument);
}
