// Tests of the first saddle of v^T (W x)^2 (proofs/kh/square_net_saddle): exact / 50-digit references.
#include <catch2/catch.hpp>

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <gmpxx.h>

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>

#include "square_net_fixture.hpp"

using namespace flowcert;
using namespace flowcert::proofs::kh;
using Big = boost::multiprecision::cpp_bin_float_50;

namespace {

OneNeuronGuessNonrigorous guess(const SquareNetData& data) { return square_net_fixture::saddle_guess(data); }

// Newton in 50 digits on (M(r) w, |w|^2 - 2 v^2 - C) = 0 from the double guess (an independent code path:
// the system and its analytic Jacobian written again here in Big).
std::vector<Big> reference_saddle(const SquareNetData& data, const Eigen::VectorXd& w0, double v0, Big C) {
    const int d = data.input_dim(), n = data.samples();
    std::vector<Big> x(d + 1);
    for (int k = 0; k < d; ++k) x[k] = w0(k);
    x[d] = v0;
    for (int it = 0; it < 12; ++it) {
        std::vector<Big> z(n), r(n);
        for (int i = 0; i < n; ++i) {
            z[i] = 0;
            for (int k = 0; k < d; ++k) z[i] += x[k] * Big(data.X(k, i));
            r[i] = x[d] * z[i] * z[i] - Big(data.y(i));
        }
        Eigen::Matrix<Big, Eigen::Dynamic, Eigen::Dynamic> J(d + 1, d + 1);
        Eigen::Matrix<Big, Eigen::Dynamic, 1> F(d + 1);
        for (int k = 0; k < d; ++k) {
            F(k) = 0;
            for (int i = 0; i < n; ++i) F(k) += r[i] * z[i] * Big(data.X(k, i));
            for (int l = 0; l < d; ++l) {
                J(k, l) = 0;
                for (int i = 0; i < n; ++i) J(k, l) += (3 * x[d] * z[i] * z[i] - Big(data.y(i))) * Big(data.X(k, i)) * Big(data.X(l, i));
            }
            J(k, d) = 0;
            for (int i = 0; i < n; ++i) J(k, d) += z[i] * z[i] * z[i] * Big(data.X(k, i));
            J(d, k) = 2 * x[k];
        }
        Big nw = 0;
        for (int k = 0; k < d; ++k) nw += x[k] * x[k];
        F(d) = nw - 2 * x[d] * x[d] - C;
        J(d, d) = -4 * x[d];
        const Eigen::Matrix<Big, Eigen::Dynamic, 1> step = J.fullPivLu().solve(F);
        for (int k = 0; k <= d; ++k) x[k] -= step(k);
    }
    return x;
}

bool contains_big(const IntervalD& x, const Big& v) { return Big(x.lower()) <= v && v <= Big(x.upper()); }

}  // namespace

TEST_CASE("L(0) encloses the exact rational c sum y_i^2", "[kh][saddle]") {
    const SquareNetData data = square_net_fixture::data(20, 100);
    mpq_class exact = 0;
    for (int i = 0; i < data.samples(); ++i) exact += mpq_class(data.y(i)) * mpq_class(data.y(i));
    exact /= 100;
    const IntervalD L0 = loss_at_origin(data);
    CHECK(mpq_class(L0.lower()) <= exact);
    CHECK(exact <= mpq_class(L0.upper()));
    CHECK(width(L0) < 1e-14);
    // Teeth: the exact value moved by one part in 1e12 leaves the enclosure.
    CHECK_FALSE(exact * mpq_class(1000000000001, 1000000000000) <= mpq_class(L0.upper()));
}

TEST_CASE("the one-neuron saddle box contains the 50-digit Newton zero, L(p*) and grad L = 0 on the zero block",
          "[kh][saddle]") {
    for (const auto [d, n] : {std::pair{10, 30}, std::pair{20, 100}}) {
        const SquareNetData data = square_net_fixture::data(d, n);
        const OneNeuronGuessNonrigorous g = guess(data);
        REQUIRE(g.residual < 1e-12);
        const OneNeuronSaddle p = prove_one_neuron_saddle(data, g.w, g.v, IntervalD(0));
        INFO("d = " << d << ", n = " << n << ": " << p.reason);
        REQUIRE(p.status == ProofStatus::proven);
        const std::vector<Big> ref = reference_saddle(data, g.w, g.v, Big(0));
        for (int k = 0; k < d; ++k) CHECK(contains_big(p.w(k), ref[k]));
        CHECK(contains_big(p.v, ref[d]));
        double wmax = 0;
        for (int k = 0; k < d; ++k) wmax = std::max(wmax, width(p.w(k)));
        CHECK(wmax < 1e-11);
        // L(p*) against the 50-digit reference.
        Big Lref = 0;
        for (int i = 0; i < n; ++i) {
            Big z = 0;
            for (int k = 0; k < d; ++k) z += ref[k] * Big(data.X(k, i));
            const Big r = ref[d] * z * z - Big(data.y(i));
            Lref += r * r;
        }
        Lref /= n;
        CHECK(contains_big(p.loss, Lref));
        CHECK(certainly_less(p.loss, loss_at_origin(data)));
        // Teeth: the balance C = 1e-6 gives a different point, which the C = 0 box excludes.
        const std::vector<Big> ref_c = reference_saddle(data, g.w, g.v, Big("1e-6"));
        bool all_in = contains_big(p.v, ref_c[d]);
        for (int k = 0; k < d; ++k) all_in = all_in && contains_big(p.w(k), ref_c[k]);
        CHECK_FALSE(all_in);
        // grad L of the 5-neuron net at p* (neuron 2 active, the others exact zeros): the zero block is [0, 0].
        const int m = 5;
        IMatrixD W = IMatrixD::Constant(m, d, IntervalD(0));
        IVectorD v = IVectorD::Constant(m, IntervalD(0));
        W.row(2) = p.w.transpose();
        v(2) = p.v;
        const SquareNetGradient gr = square_net_gradient(data, W, v);
        for (int j = 0; j < m; ++j) {
            if (j == 2) continue;
            for (int k = 0; k < d; ++k) CHECK((gr.gW(j, k).lower() == 0 && gr.gW(j, k).upper() == 0));
            CHECK((gr.gv(j).lower() == 0 && gr.gv(j).upper() == 0));
        }
        // On the active block the gradient enclosure contains 0 and is small.
        for (int k = 0; k < d; ++k) CHECK((possibly_zero(gr.gW(2, k)) && mag(gr.gW(2, k)) < 1e-10));
        // The eigenvalues of M(r*) enclose those of the 50-digit M.
        REQUIRE(p.M_eigenvalues_proven);
        Eigen::MatrixXd Mref(d, d);
        for (int k = 0; k < d; ++k)
            for (int l = 0; l < d; ++l) {
                Big acc = 0;
                for (int i = 0; i < n; ++i) {
                    Big z = 0;
                    for (int q = 0; q < d; ++q) z += ref[q] * Big(data.X(q, i));
                    acc += (ref[d] * z * z - Big(data.y(i))) * Big(data.X(k, i)) * Big(data.X(l, i));
                }
                Mref(k, l) = static_cast<double>(acc);
            }
        const Eigen::VectorXd ev = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(Mref).eigenvalues();
        for (int k = 0; k < d; ++k) CHECK(std::fabs(ev(k) - mid(p.M_eigenvalues[static_cast<std::size_t>(k)])) <= rad(p.M_eigenvalues[static_cast<std::size_t>(k)]) + 1e-13);
    }
}

TEST_CASE("p* has a certified third-order descent and ascent direction along a zero neuron", "[kh][saddle]") {
    const SquareNetData data = square_net_fixture::data(20, 100);
    const OneNeuronGuessNonrigorous g = guess(data);
    const OneNeuronSaddle p = prove_one_neuron_saddle(data, g.w, g.v, IntervalD(0));
    REQUIRE(p.status == ProofStatus::proven);
    const SaddleDirection down = saddle_direction(data, p, true), up = saddle_direction(data, p, false);
    INFO(down.reason << " / " << up.reason);
    REQUIRE(down.status == ProofStatus::proven);
    REQUIRE(up.status == ProofStatus::proven);
    CHECK(certainly_negative(down.change));
    CHECK(certainly_positive(up.change));
    // Independent check: L of the 2-neuron net (active p*, second neuron s (u, t)) in 50 digits is below L(p*).
    const std::vector<Big> ref = reference_saddle(data, g.w, g.v, Big(0));
    Big Ls = 0;
    for (int i = 0; i < data.samples(); ++i) {
        Big z = 0, zu = 0;
        for (int k = 0; k < data.input_dim(); ++k) {
            z += ref[k] * Big(data.X(k, i));
            zu += Big(down.s) * Big(down.u(k)) * Big(data.X(k, i));
        }
        const Big r = ref[data.input_dim()] * z * z + Big(down.s) * Big(down.t) * zu * zu - Big(data.y(i));
        Ls += r * r;
    }
    Ls /= data.samples();
    CHECK(Ls < Big(p.loss.lower()));
    CHECK(contains_big(p.loss + down.change, Ls));
}
