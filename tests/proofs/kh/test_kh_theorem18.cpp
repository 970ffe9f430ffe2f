// Tests of the pieces of kh/theorem18_sparsity (lib/flowcert/proofs/kh/theorem18_units.hpp): the Lemma 16 units, and
// the generic zero-preservation analysis and restriction of flowcert/taylor/field_transforms.hpp on the kh flow
// fields (the rules themselves: tests/taylor/field_transforms_test.cpp). References: exact evaluations of the fields
// at random dyadic points (double arithmetic on small dyadic numbers is exact here).
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include <flowcert/proofs/kh/theorem18_units.hpp>
#include <flowcert/nets.hpp>
#include <flowcert/taylor.hpp>

using namespace flowcert;
namespace pk = flowcert::proofs::kh;
using namespace flowcert::nets;

namespace {

double dyadic(std::mt19937_64& g) { return static_cast<double>(static_cast<int>(g() % 65) - 32) / 16.0; }

// Order-0 evaluation of the field at a point (intervals of point data).
std::vector<IntervalD> eval_field(const taylor::VectorField& f, const std::vector<double>& x, const std::vector<double>& p) {
    std::vector<IntervalD> xi, pi;
    for (double v : x) xi.push_back(IntervalD::exact(v));
    for (double v : p) pi.push_back(IntervalD::exact(v));
    taylor::TaylorEvaluator<IntervalD> ev(f, pi, 53);
    auto r = ev.compute(xi, 1);  // coefficients x_0, x_1 = f(x0)
    REQUIRE(r.ok());
    std::vector<IntervalD> out;
    for (int i = 0; i < f.dimension(); ++i) out.push_back(ev.coeff(i, 1));
    return out;
}

}  // namespace

TEST_CASE("a neuron's row and column together are proven zero-preserving for the one-hidden-layer square net",
          "[kh18]") {
    const auto arch = HomogeneousArchitecture::feed_forward(3, {3}, HomActivation::square());
    const auto f = homogeneous_loss_flow_field(arch, 4, SquareLossNormalization::paper());
    const auto units = pk::lemma16_units(arch);
    REQUIRE(units.size() == 3);
    for (const auto& u : units) {
        REQUIRE(u.size() == 4);  // W1[j, 0..2] and v[j]
        CHECK(taylor::field_vanishes_on_subspace(f, u, u).proven);
    }
    // and the NCF field
    const auto nf = ncf_flow_field(arch, 4);
    CHECK(taylor::field_vanishes_on_subspace(nf, units[1], units[1]).proven);
}

TEST_CASE("the outgoing weight alone is not proven zero-preserving, and its field component is really nonzero",
          "[kh18]") {
    const auto arch = HomogeneousArchitecture::feed_forward(2, {2}, HomActivation::square());
    const auto f = homogeneous_loss_flow_field(arch, 3, SquareLossNormalization::paper());
    const int v0 = arch.layer_offset(2);
    const auto r = taylor::field_vanishes_on_subspace(f, {v0}, {v0});
    CHECK_FALSE(r.proven);
    REQUIRE(r.not_proven == std::vector<int>{v0});
    // witness: v0 = 0, W1[0,:] != 0 gives v0' != 0
    std::vector<double> x = {1, 0.5, 0.25, -1, 0, 0.5};  // W1 (2x2), v
    x[static_cast<std::size_t>(v0)] = 0;
    const std::vector<double> p = {1, 0, 0, 1, 0.5, 0.5, 1, 2, -1};  // x_0, x_1, x_2, y
    const auto fx = eval_field(f, x, p);
    CHECK(certainly_nonzero(fx[static_cast<std::size_t>(v0)]));
    // the incoming row alone IS invariant for z^2 (its gradient is linear in the row)
    CHECK(taylor::field_vanishes_on_subspace(f, {0, 1}, {0, 1}).proven);
}

TEST_CASE("whenever the analysis proves vanishing, the field components are exactly zero at random points of the subspace",
          "[kh18]") {
    std::mt19937_64 g(11);
    const auto arch = HomogeneousArchitecture::feed_forward(3, {3}, HomActivation::square());
    const int n = 4;
    const auto f = homogeneous_loss_flow_field(arch, n, SquareLossNormalization::paper());
    const auto units = pk::lemma16_units(arch);
    for (int trial = 0; trial < 20; ++trial) {
        std::vector<double> x(static_cast<std::size_t>(arch.parameter_count())), p(static_cast<std::size_t>(4 * n));
        for (auto& v : x) v = dyadic(g);
        for (auto& v : p) v = dyadic(g);
        const auto& u = units[static_cast<std::size_t>(trial % 3)];
        for (int j : u) x[static_cast<std::size_t>(j)] = 0;
        const auto fx = eval_field(f, x, p);
        for (int j : u) CHECK((lower(fx[static_cast<std::size_t>(j)]) == 0.0 && upper(fx[static_cast<std::size_t>(j)]) == 0.0));
    }
}

TEST_CASE("the restricted field equals the full field with the zero set substituted", "[kh18]") {
    std::mt19937_64 g(5);
    const auto arch = HomogeneousArchitecture::diagonal(3, 2);
    const int n = 3;
    const auto f = homogeneous_loss_flow_field(arch, n, SquareLossNormalization::paper());
    const std::vector<int> z = {1, 4};  // u1[1], u2[1]
    REQUIRE(pk::is_union_of_units(pk::lemma16_units(arch), z));
    REQUIRE(taylor::field_vanishes_on_subspace(f, z, z).proven);
    const auto rf = taylor::restrict_field(f, z);
    REQUIRE(rf.dimension() == 4);
    for (int trial = 0; trial < 10; ++trial) {
        std::vector<double> x(6), p(static_cast<std::size_t>(4 * n));
        for (auto& v : x) v = dyadic(g);
        for (auto& v : p) v = dyadic(g);
        x[1] = x[4] = 0;
        const auto full = eval_field(f, x, p);
        const auto red = eval_field(rf, {x[0], x[2], x[3], x[5]}, p);
        const int map[] = {0, 2, 3, 5};
        for (int k = 0; k < 4; ++k) {
            CHECK(lower(red[static_cast<std::size_t>(k)]) == lower(full[static_cast<std::size_t>(map[k])]));
            CHECK(upper(red[static_cast<std::size_t>(k)]) == upper(full[static_cast<std::size_t>(map[k])]));
        }
    }
}

TEST_CASE("a set is a union of Lemma 16 units only if it contains whole rows with their columns", "[kh18]") {
    const auto arch = HomogeneousArchitecture::feed_forward(2, {3}, HomActivation::square());
    const auto units = pk::lemma16_units(arch);  // {0,1,6}, {2,3,7}, {4,5,8}
    CHECK(pk::is_union_of_units(units, {0, 1, 6}));
    CHECK(pk::is_union_of_units(units, {8, 4, 5, 2, 3, 7}));
    CHECK_FALSE(pk::is_union_of_units(units, {6}));
    CHECK_FALSE(pk::is_union_of_units(units, {0, 1, 6, 7}));
    CHECK_FALSE(pk::is_union_of_units(units, {}));
}
