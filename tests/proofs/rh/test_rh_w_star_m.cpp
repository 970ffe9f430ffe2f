// Tests of the m-neuron model with m/2 neurons per output sign (lib/flowcert/proofs/rh/w_star_m.hpp,
// docs/rh.md#w-star-m2): (a) the m-network GD computed directly at ~500 bits equals the reduced m = 2 GD at
// eta' = (m/2) eta, c' = (m/2) c and keeps the same-sign neurons equal; (b) exactly (GMP rationals, n = 4), no
// interpolating m-configuration is below the symmetric split where the conditions hold, and the lower bound of the
// derivation holds at every configuration; (c) a hand-built Gram matrix where the deficit condition fails and a
// cheaper configuration exists, so the certificate must refuse it (dropping the deficit check makes it fail).
#include <catch2/catch.hpp>

#include <flowcert/proofs/rh.hpp>

#include "rh_exact.hpp"
#include "rh_fixture.hpp"

#include <cmath>
#include <random>
#include <vector>

namespace model = flowcert::nets::rh;
using namespace flowcert::proofs::rh;  // Instance, the reduction and the certificates
using namespace rh_exact;              // exact references (Rat via rh_fixture)
using namespace rh_fixture;

namespace {

// The m-network of a seeded instance: n = 4, d = 32, eta d = 1/4 and c = 1/64 (exact dyadics, so eta' and c' are
// exact for every m), alternating labels, span initialization.
Instance seeded_network(std::uint64_t seed, int m) {
    model::InstanceSpec s = spec_of(seed, 4, 32);
    s.m = m;
    s.eta_d = "1/4";
    s.init_scale = "1/64";
    return model::make_instance(s);
}

}  // namespace

TEST_CASE("m-network GD (m = 4, 6) equals the reduced m = 2 GD at eta' = (m/2) eta, c' = (m/2) c", "[rh]") {
    const Mp tol("1e-120");  // 500-bit rounding over 1000 steps; the two runs differ only in summation order
    const int steps = 1000;
    for (const std::uint64_t seed : {1, 2, 3}) {
        for (const int m : {4, 6}) {
            CAPTURE(seed, m);
            const Instance net = seeded_network(seed, m);
            const ReductionResult red = reduce_to_m2(net);
            REQUIRE(red.status.is_proven());
            const int h = m / 2;
            CHECK(lower(red.eta_prime) == upper(red.eta_prime));
            CHECK(Rat(lower(red.eta_prime)) == Rat(h) * Rat(mid(net.eta)));
            CHECK(Rat(lower(red.c_prime)) == Rat(h) * Rat(1, 64));
            const auto Gq = exact_gram(data_rows(seed, 4, 32), 4, 32);
            const MpGd direct = mp_gd(net, Gq, steps), reduced = mp_gd(red.reduced, Gq, steps);
            for (int k = 0; k <= steps; ++k)  // the same activation pattern at every step
                for (int p = 0; p < m; ++p) CHECK(direct.patterns[k][p] == reduced.patterns[k][p < h ? 0 : 1]);
            for (int p = 0; p < m; ++p)
                for (int i = 0; i < 4; ++i) {
                    const int q = p < h ? 0 : 1, first = q * h;
                    CHECK(direct.beta[p][i] == direct.beta[first][i]);  // the same-sign neurons stay equal
                    CHECK(direct.a[p][i] == direct.a[first][i]);
                    CHECK(abs(Mp(h) * direct.beta[p][i] - reduced.beta[q][i]) <= tol);  // v = (m/2) w
                    CHECK(abs(Mp(h) * direct.a[p][i] - reduced.a[q][i]) <= tol);
                }
            // The interval pipeline on the reduced instance encloses the limit that both runs approach: past the tail
            // step beta(k) - beta(inf) = s B r_U(k) with ||r_U(k)|| <= rho^(k - tail) ||r_tail|| (docs/rh.md#tail), so
            // the distance at step `steps` is below 100 rho^(steps - tail) here (||B_i|| ||r|| < 100 on these instances).
            const PatternResult pr = certify_pattern_and_limit(red.reduced, GdOptions{});
            REQUIRE(pr.tail.is_proven());
            const double tail_tol = 100 * std::pow(upper(pr.rho), steps - pr.tail_step);
            REQUIRE(tail_tol < 1e-15);
            for (int q = 0; q < 2; ++q)
                for (int i = 0; i < 4; ++i) CHECK(contains_mp(pr.beta_inf[q][i], Mp(h) * direct.beta[q * h][i], tail_tol));
        }
    }
}

TEST_CASE("a Gaussian initialization (same-sign neurons unequal) is not reduced to m = 2", "[rh]") {
    model::InstanceSpec s = spec_of(4, 4, 32);
    s.m = 4;
    s.init = "gaussian";
    s.init_scale = "1/64";
    CHECK_FALSE(reduce_to_m2(model::make_instance(s)).status.is_proven());
    s.m = 3;
    CHECK_THROWS_AS(model::make_instance(s), std::invalid_argument);  // odd m (m+ != m-): not a model here
}

namespace {

// The exact natural pair of the m = 2 model on (G, y): alpha+- = G^-1 z+-*, U+- = ||w+-*||^2.
struct NaturalPair {
    std::vector<Rat> zp, zm, ap, am;
    Rat Up, Um;
};
NaturalPair natural_pair(const RatMat& G, const std::vector<Rat>& y) {
    const int n = static_cast<int>(y.size());
    const auto nat = class_minimum(G, y, std::vector<int>(n, 0));
    REQUIRE(nat);
    NaturalPair np;
    np.zp.assign(nat->z.begin(), nat->z.begin() + n);
    np.zm.assign(nat->z.begin() + n, nat->z.end());
    np.ap = solve_exact(G, np.zp);
    np.am = solve_exact(G, np.zm);
    for (int i = 0; i < n; ++i) np.Up += np.ap[i] * np.zp[i], np.Um += np.am[i] * np.zm[i];
    return np;
}

Rat relu(const Rat& x) { return x > 0 ? x : Rat(0); }

// A feasible m-configuration z[p] (p < mp: sign +, else -): random values or values near the symmetric split, some
// same-sign neuron switched off; then per sample the last neuron of the own sign (or, if that cannot work, of the
// other sign) is solved for so that sum_+ relu(z) - sum_- relu(z) = y_i exactly.
std::vector<std::vector<Rat>> configuration(std::mt19937_64& rng, const NaturalPair& np, const std::vector<Rat>& y,
                                            int mp, int mm, bool near) {
    const int n = static_cast<int>(y.size()), m = mp + mm;
    auto small = [&](int den) { return Rat(static_cast<long>(rng() % 129) - 64, den); };
    std::vector<std::vector<Rat>> z(m, std::vector<Rat>(n));
    for (int p = 0; p < m; ++p)
        for (int i = 0; i < n; ++i)
            z[p][i] = near ? (p < mp ? np.zp[i] / mp : np.zm[i] / mm) + small(512) : small(16);
    for (int i = 0; i < n; ++i) {
        const bool pos = y[i] > 0;
        const int own0 = pos ? 0 : mp, own_n = pos ? mp : mm, oth0 = pos ? mp : 0, oth_n = pos ? mm : mp;
        if (near && own_n >= 2 && rng() % 3 == 0) z[own0 + static_cast<int>(rng() % own_n)][i] = -relu(small(64));
        Rat own(0), oth(0);
        for (int k = 0; k + 1 < own_n; ++k) own += relu(z[own0 + k][i]);
        for (int k = 0; k < oth_n; ++k) oth += relu(z[oth0 + k][i]);
        const Rat target = pos ? y[i] : Rat(-y[i]);
        Rat& last_own = z[own0 + own_n - 1][i];
        if (target + oth - own > 0) {
            last_own = target + oth - own;
            continue;
        }
        last_own = -relu(small(64));  // switched off; the other sign takes up own - target
        Rat rest(0);
        for (int k = 0; k + 1 < oth_n; ++k) rest += relu(z[oth0 + k][i]);
        z[oth0 + oth_n - 1][i] = own - target - rest;  // >= 0 here
    }
    return z;
}

RatMat inverse(const RatMat& G) {
    const size_t n = G.size();
    RatMat Gi(n, std::vector<Rat>(n));
    for (size_t j = 0; j < n; ++j) {
        std::vector<Rat> e(n);
        e[j] = 1;
        const auto col = solve_exact(G, e);
        for (size_t i = 0; i < n; ++i) Gi[i][j] = col[i];
    }
    return Gi;
}

Rat quad(const RatMat& Gi, const std::vector<Rat>& z) {
    Rat s = 0;
    for (size_t i = 0; i < z.size(); ++i)
        for (size_t j = 0; j < z.size(); ++j) s += z[i] * Gi[i][j] * z[j];
    return s;
}

struct SplitCheck {
    int configurations = 0, below_split = 0, bound_violations = 0;
    bool conditions_hold = false;
};

// Phi(z) = sum_p z_p^T G^-1 z_p against U_m = U+/m+ + U-/m- and the lower bound of docs/rh.md#w-star-m2 with
// Lambda >= lambda_max(G) (a valid bound: the spread term only grows when lambda_max is replaced by Lambda).
SplitCheck check_split(const RatMat& G, const std::vector<Rat>& y, const Rat& Lambda, int mp, int mm, int count) {
    const int n = static_cast<int>(y.size());
    const NaturalPair np = natural_pair(G, y);
    const RatMat Gi = inverse(G);
    const Rat U = np.Up / mp + np.Um / mm;
    SplitCheck sc;
    sc.conditions_hold = true;
    for (int i = 0; i < n; ++i) {
        const bool pos = y[i] > 0;
        sc.conditions_hold = sc.conditions_hold && np.ap[i] / mp + np.am[i] / mm > 0;
        const int own_n = pos ? mp : mm;
        const Rat alpha = pos ? np.ap[i] : np.am[i], t = pos ? y[i] : Rat(-y[i]);
        if (own_n >= 2) sc.conditions_hold = sc.conditions_hold && alpha * Lambda < 2 * t;
    }
    std::mt19937_64 rng(20261203);
    for (int c = 0; c < count; ++c) {
        const auto z = configuration(rng, np, y, mp, mm, c % 2 == 1);
        Rat phi = 0, bound = 0;
        for (int p = 0; p < mp + mm; ++p) phi += quad(Gi, z[p]);
        for (int i = 0; i < n; ++i) {
            Rat Sp = 0, Sm = 0, Dp = 0, Dm = 0;
            for (int p = 0; p < mp + mm; ++p) {
                (p < mp ? Sp : Sm) += relu(z[p][i]);
                (p < mp ? Dp : Dm) += relu(-z[p][i]);
            }
            REQUIRE(Sp - Sm == y[i]);  // an interpolating configuration
            const bool pos = y[i] > 0;
            bound += 2 * (np.ap[i] / mp + np.am[i] / mm) * (pos ? Sm : Sp);
            if (pos) bound += Rat(2, mp) * Dp * (2 * y[i] / Lambda - np.ap[i]);
            else bound += Rat(2, mm) * Dm * (2 * (-y[i]) / Lambda - np.am[i]);
        }
        ++sc.configurations;
        if (phi - U < bound) ++sc.bound_violations;
        if (phi < U) ++sc.below_split;
    }
    return sc;
}

// Lambda := the upper end of the verified lambda_max(G) of the hand instance (>= the exact lambda_max).
Rat lambda_upper(const RatMat& G, const std::vector<Rat>& y) { return Rat(upper(lambda_max(hand_instance(G, y).G))); }

}  // namespace

TEST_CASE("the symmetric split is the minimum where c_i^(m) > 0 and the deficit condition hold (exact, n = 4)", "[rh]") {
    const std::vector<Rat> alt = {1, -1, 1, -1}, sizes = {Rat(1, 2), -2, Rat(3, 2), -1};
    std::vector<std::pair<RatMat, std::vector<Rat>>> instances = {{dyadic_gram(), alt}, {dyadic_gram(), sizes}};
    for (const std::uint64_t seed : {1, 2, 3}) {
        const auto Gq = exact_gram(data_rows(seed, 4, 96), 4, 96);
        RatMat G(4, std::vector<Rat>(4));
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) G[i][j] = Gq[i * 4 + j] / 96;  // normalized: G_ii near 1
        instances.push_back({G, alt});
    }
    int checked = 0;
    for (const auto& [G, y] : instances)
        for (const auto& [mp, mm] : std::vector<std::pair<int, int>>{{2, 2}, {3, 3}, {2, 3}, {1, 3}}) {
            CAPTURE(checked, mp, mm);
            const SplitCheck sc = check_split(G, y, lambda_upper(G, y), mp, mm, 300);
            CHECK(sc.bound_violations == 0);  // the lower bound of the derivation, exactly
            REQUIRE(sc.conditions_hold);      // these near-orthogonal instances satisfy the conditions
            CHECK(sc.below_split == 0);
            ++checked;
        }
    CHECK(checked == 20);
}

namespace {

// docs/rh.md#w-star-m2: a small positive label next to a strongly anti-correlated positive sample: alpha+_0 lambda_max(G)
// is far above 2 y_0, while every separation margin is positive (the m = 2 natural pair is w*).
RatMat deficit_gram() {
    return {{1, Rat(-1, 2), Rat(1, 16), Rat(-1, 32)},
            {Rat(-1, 2), 1, Rat(1, 32), Rat(1, 16)},
            {Rat(1, 16), Rat(1, 32), 1, Rat(-1, 16)},
            {Rat(-1, 32), Rat(1, 16), Rat(-1, 16), 1}};
}
const std::vector<Rat> kDeficitLabels = {Rat(1, 64), 1, -1, -1};

}  // namespace

TEST_CASE("the deficit condition is needed: switching a + neuron off is cheaper, and m = 4 is not certified", "[rh]") {
    const RatMat G = deficit_gram();
    const auto& y = kDeficitLabels;
    const Instance inst = hand_instance(G, y);
    const WStarM2Result ws = certify_w_star_m2(inst);
    REQUIRE(ws.status.is_proven());  // m = 2: the natural pair is the unique w*
    CHECK(certify_symmetric_split(inst, ws, 2).status.is_proven());
    const SymmetricSplitResult split = certify_symmetric_split(inst, ws, 4);
    CHECK_FALSE(split.deficit.is_proven());
    CHECK_FALSE(split.status.is_proven());
    CHECK(split.worst_sample == 0);
    // The cheaper configuration, exactly: + neurons (y_0, 1/2 + t, ...) and (-s, 1/2 - t, ...), s = 9/32, t = -5/64,
    // the rest at the symmetric split; U_4 = U/2.
    const NaturalPair np = natural_pair(G, y);
    const Rat s(9, 32), t(-5, 64);
    const std::vector<Rat> z1 = {y[0], Rat(1, 2) + t, np.zp[2] / 2, np.zp[3] / 2};
    const std::vector<Rat> z2 = {-s, Rat(1, 2) - t, np.zp[2] / 2, np.zp[3] / 2};
    std::vector<Rat> zminus(4);
    for (int i = 0; i < 4; ++i) zminus[i] = np.zm[i] / 2;
    const RatMat Gi = inverse(G);
    for (int i = 0; i < 4; ++i)  // interpolates: relu(z1) + relu(z2) - 2 relu(z-) = y
        CHECK(relu(z1[i]) + relu(z2[i]) - 2 * relu(zminus[i]) == y[i]);
    const Rat phi = quad(Gi, z1) + quad(Gi, z2) + 2 * quad(Gi, zminus);
    const Rat U4 = (np.Up + np.Um) / 2;
    CHECK(phi < U4);
    CHECK(contains_rat(split.norm_sq, U4));
    const SplitCheck sc = check_split(G, y, lambda_upper(G, y), 2, 2, 300);
    CHECK_FALSE(sc.conditions_hold);
    CHECK(sc.bound_violations == 0);  // the lower bound still holds; it is just not >= 0 here
}
