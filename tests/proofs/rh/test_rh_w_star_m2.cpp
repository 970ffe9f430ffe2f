// Tests of the m = 2 minimum-norm interpolator (lib/flowcert/proofs/rh/w_star_m2.hpp) against an exact (GMP
// rational) brute force over every activation-pattern class and every active set of its QP (n = 4: 16 classes x
// 16 active sets), including an instance where another class is cheaper, which must not be certified.
#include <catch2/catch.hpp>

#include <flowcert/proofs/rh.hpp>

#include "rh_exact.hpp"
#include "rh_fixture.hpp"

#include <optional>
#include <vector>

using namespace flowcert;
using namespace flowcert::nets::rh;
using namespace flowcert::proofs::rh;
using namespace rh_fixture;
using namespace rh_exact;

namespace {

struct BruteForce {
    Rat natural, global;      // the natural class's minimum and the least over all classes
    std::vector<Rat> z_star;  // the natural class's minimizer
    bool unique = true;       // no other class reaches `natural` at a point other than z_star
    bool lower_bound_holds = true;  // Phi(z_E) - U >= 2 sum_i c_i s_i at every class minimizer (exact c)
    std::vector<Rat> margin;  // exact c_i = alpha+_i + alpha-_i
};

BruteForce brute_force(const RatMat& G, const std::vector<Rat>& y) {
    const int n = static_cast<int>(y.size());
    BruteForce bf;
    const auto nat = class_minimum(G, y, std::vector<int>(n, 0));
    REQUIRE(nat);
    bf.natural = bf.global = nat->value;
    bf.z_star = nat->z;
    std::vector<Rat> zp(nat->z.begin(), nat->z.begin() + n), zm(nat->z.begin() + n, nat->z.end());
    const auto ap = solve_exact(G, zp), am = solve_exact(G, zm);  // alpha = G^-1 z*
    for (int i = 0; i < n; ++i) bf.margin.push_back(ap[i] + am[i]);
    for (unsigned mask = 1; mask < (1u << n); ++mask) {
        std::vector<int> extra(n);
        for (int i = 0; i < n; ++i) extra[i] = mask >> i & 1u;
        const auto c = class_minimum(G, y, extra);
        if (!c) continue;
        if (c->value < bf.global) bf.global = c->value;
        if (c->value == bf.natural && c->z != bf.z_star) bf.unique = false;
        Rat lin = 0;
        for (int i = 0; i < n; ++i) {
            const Rat s = y[i] > 0 ? c->z[n + i] : c->z[i];  // the other-sign neuron's value
            if (s > 0) lin += 2 * bf.margin[i] * s;
        }
        if (c->value - bf.natural < lin) bf.lower_bound_holds = false;
    }
    return bf;
}

// The certificate against the brute force: enclosures contain the exact values, and a proven certificate
// means the natural class is the unique global minimum.
void check_against(const Instance& inst, const WStarM2Result& ws, const BruteForce& bf) {
    CHECK(bf.lower_bound_holds);  // the first-order lower bound of w_star_m2.hpp, exactly
    if (ws.plus.kkt.is_proven() && ws.minus.kkt.is_proven()) {
        CHECK(contains_rat(ws.norm_sq, bf.natural));
        for (int i = 0; i < inst.n; ++i) CHECK(contains_rat(ws.margin[i], bf.margin[i]));
    }
    if (ws.status.is_proven()) {
        CHECK(bf.global == bf.natural);
        CHECK(bf.unique);
    }
}

}  // namespace

TEST_CASE("m = 2 w*: certified on a near-orthogonal instance, and the exact brute force agrees", "[rh]") {
    const RatMat G = dyadic_gram();
    const std::vector<Rat> y{1, -1, Rat(1, 2), -2};
    const Instance inst = hand_instance(G, y);
    const WStarM2Result ws = certify_w_star_m2(inst);
    REQUIRE(ws.status.is_proven());
    const BruteForce bf = brute_force(G, y);
    check_against(inst, ws, bf);
    CHECK(bf.global == bf.natural);
}

TEST_CASE("m = 2 w*: a cheaper pattern class exists (small label), so the certificate must fail", "[rh]") {
    // x_0 (label 1/64) leans on the negative x_1 (G_01 = 1/4): w-* wants <w-, x_0> > 0, its constraint is tight
    // with multiplier ~ -1/4 and c_0 ~ 1/64 - 1/4 < 0; the class "w- active on sample 0" is cheaper.
    RatMat G = dyadic_gram();
    G[0][1] = G[1][0] = Rat(1, 4);
    const std::vector<Rat> y{Rat(1, 64), -1, 1, -1};
    const Instance inst = hand_instance(G, y);
    const WStarM2Result ws = certify_w_star_m2(inst);
    const BruteForce bf = brute_force(G, y);
    REQUIRE(bf.global < bf.natural);  // the witness: the natural-pattern QP is not w*
    CHECK_FALSE(ws.status.is_proven());  // dropping the separation check makes this fail (docs/rh.md#w-star-m2)
    CHECK(ws.plus.kkt.is_proven());
    CHECK(ws.minus.kkt.is_proven());
    CHECK(certainly_negative(ws.margin[0]));
    CHECK(ws.separation.reason.find("provably NOT w*") != std::string::npos);
    check_against(inst, ws, bf);
}

TEST_CASE("m = 2 w*: seeded instances against the exact Gram matrix", "[rh]") {
    int proven = 0;
    for (std::uint64_t seed : {1ULL, 2ULL, 3ULL, 4ULL, 5ULL, 6ULL}) {
        InstanceSpec s = spec_of(seed, 4, 24);
        s.m = 2;
        const Instance inst = make_instance(s);
        const auto X = data_rows(seed, 4, 24);
        const auto Gq = exact_gram(X, 4, 24);
        RatMat G(4, std::vector<Rat>(4));
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) {
                G[i][j] = Gq[i * 4 + j];
                CHECK(contains_rat(inst.G(i, j), G[i][j]));
            }
        const std::vector<Rat> y{1, -1, 1, -1};
        const WStarM2Result ws = certify_w_star_m2(inst);
        proven += ws.status.is_proven();
        check_against(inst, ws, brute_force(G, y));
    }
    CHECK(proven >= 3);  // non-vacuous: most of these near-orthogonal instances are certified
}

TEST_CASE("m = 2 w*: zero labels and m = 1 are not certified", "[rh]") {
    const RatMat G = dyadic_gram();
    Instance inst = hand_instance(G, {1, -1, 1, -1});
    inst.y[2] = IntervalD(0);
    CHECK_FALSE(certify_w_star_m2(inst).status.is_proven());
    Instance one = hand_instance(G, {1, -1, 1, -1});
    one.m = 1;
    one.s = {1};
    CHECK_FALSE(certify_w_star_m2(one).status.is_proven());
}

TEST_CASE("m = 2 w*: the neuron QPs are not certified on a singular Gram matrix or with a wrong tight set", "[rh]") {
    // rank one: the faces G_PP (w+) and G_NN (w-) are singular, so neither verified solve is proven
    const RatMat ones(4, std::vector<Rat>(4, Rat(1)));
    const WStarM2Result sing = certify_w_star_m2(hand_instance(ones, {1, 1, -1, -1}));
    CHECK_FALSE(sing.plus.solve.is_proven());
    CHECK_FALSE(sing.status.is_proven());
    const WStarM2Result sing_minus = certify_w_star_m2(hand_instance(ones, {1, -1, -1, -1}));
    CHECK_FALSE(sing_minus.minus.solve.is_proven());
    // every tight set of each neuron's QP: exactly one is certified, the others fail the multiplier sign or
    // primal feasibility (both kinds occur)
    RatMat G = dyadic_gram();
    G[0][3] = G[3][0] = Rat(-1, 8);
    const Instance inst = hand_instance(G, {1, -1, Rat(1, 2), -2});
    IVec neg_y;
    std::vector<int> positive;
    for (int i = 0; i < 4; ++i) {
        neg_y.push_back(-inst.y[i]);
        positive.push_back(1 - inst.negative[i]);
    }
    for (int neuron = 0; neuron < 2; ++neuron) {
        const IVec& target = neuron == 0 ? inst.y : neg_y;
        const std::vector<int>& constrained = neuron == 0 ? inst.negative : positive;
        std::vector<int> C;
        for (int i = 0; i < 4; ++i)
            if (constrained[i]) C.push_back(i);
        int proven = 0, bad_multiplier = 0, infeasible = 0;
        for (unsigned mask = 0; mask < (1u << C.size()); ++mask) {
            std::vector<int> T;
            for (size_t t = 0; t < C.size(); ++t)
                if (mask >> t & 1u) T.push_back(C[t]);
            const WStarResult r = certify_min_norm_qp({inst.G, target, constrained}, &T);
            proven += r.kkt.is_proven();
            bad_multiplier += r.has_tight && !certainly_nonpositive(r.max_multiplier);
            infeasible += r.has_slack && !certainly_nonpositive(r.max_slack);
        }
        INFO("neuron " << neuron);
        CHECK(proven == 1);
        CHECK(bad_multiplier >= 1);
        CHECK(infeasible >= 1);
    }
}
