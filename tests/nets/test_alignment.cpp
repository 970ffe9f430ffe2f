// Tests of the alignment function and activation cones of [BF2025] (lib/flowcert/nets/alignment.hpp); the
// constants built on them are tested in tests/proofs/bf/test_bf_data_constants.cpp.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <flowcert/nets.hpp>

#include "../support/figure2_fixture.hpp"

using namespace flowcert;
using namespace flowcert::nets;
using flowcert::test_support::figure2_spec;
using flowcert::test_support::xor8_spec;

namespace {

QVec random_w(std::mt19937_64& gen) {
    std::uniform_int_distribution<int> U(-1000, 1000);
    return {Rational(U(gen), 97), Rational(U(gen), 89)};
}
QVec add(QVec a, const QVec& b, const Rational& t) {
    for (std::size_t i = 0; i < a.size(); ++i) a[i] += t * b[i];
    return a;
}

}  // namespace

TEST_CASE("G_exact equals <w, D(w,0)> and the interval G encloses it at random rational directions", "[alignment]") {
    std::mt19937_64 gen(3);
    for (const std::string gamma : {"0", "0.3"}) {
        TwoLayerSpec s = xor8_spec();
        s.gamma = gamma;
        const AlignmentData a = alignment_data(s);
        const TwoLayerModel<IntervalMp> model(s, 128);
        for (int t = 0; t < 200; ++t) {
            const QVec w = random_w(gen);
            const MinNorm D = D_at(a, w);
            REQUIRE(D.status == MinNorm::Status::exact);
            CHECK(G_exact(a, w) == dot(w, D.D));  // [BF2025, eq. (7)] and its closed form
            std::vector<IntervalMp> wi = {IntervalMp::from_decimal(w[0].str(), Precision(128)),
                                          IntervalMp::from_decimal(w[1].str(), Precision(128))};
            const IntervalMp G = G_enclosure(model, wi);
            const IntervalMp ref = IntervalMp::from_decimal(G_exact(a, w).str(), Precision(200));
            CHECK(subset(ref, inflate(G, 0.0)));
        }
    }
}

TEST_CASE("D_u is the min-norm element of its set: no element on a fine eta grid is shorter, and it lies in the set",
          "[alignment]") {
    for (const std::string gamma : {"0", "1/5"}) {
        TwoLayerSpec s = figure2_spec();
        s.gamma = gamma;
        const AlignmentData a = alignment_data(s);
        const Cones2 c = activation_cones_2d(a);
        REQUIRE(c.status == Cones2::Status::exact);
        for (const auto& k : c.cones) {
            if (!k.is_ray) continue;
            std::size_t z = 0;
            while (k.u[z] != 0) ++z;
            REQUIRE(k.D.eta[z].has_value());
            CHECK(*k.D.eta[z] >= a.gamma);
            CHECK(*k.D.eta[z] <= 1);
            for (int t = 0; t <= 64; ++t) {
                const Rational eta = a.gamma + (1 - a.gamma) * Rational(t, 64);
                QVec D(2, Rational(0));
                for (std::size_t kk = 0; kk < a.n; ++kk) {
                    const Rational e = kk == z ? eta : (k.u[kk] > 0 ? Rational(1) : a.gamma);
                    D = add(D, a.g[kk], e);
                }
                CHECK(dot(D, D) >= dot(k.D.D, k.D.D));
            }
        }
    }
}

TEST_CASE("every activation pattern of a random direction is one of the enumerated cones", "[alignment]") {
    std::mt19937_64 gen(11);
    const AlignmentData a = alignment_data(xor8_spec());
    const Cones2 c = activation_cones_2d(a);
    REQUIRE(c.status == Cones2::Status::exact);
    std::set<std::vector<int>> U;
    for (const auto& k : c.cones) U.insert(k.u);
    CHECK(U.size() == c.cones.size());  // the cones are distinct
    CHECK(c.cones.size() == 32);        // 16 distinct rays for 8 pairwise independent inputs
    for (int t = 0; t < 500; ++t) CHECK(U.count(activation_pattern(a, random_w(gen))) == 1);
}
