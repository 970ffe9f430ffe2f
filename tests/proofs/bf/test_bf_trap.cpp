// Tests of the trapping argument of bf/theorem2_three_point in lib/flowcert/proofs/bf (trap_tracking.hpp,
// trap_box.hpp, trap_steps.hpp; proof in docs/bf.md, "bf/theorem2_three_point", steps 1-7).
//
// References: hand-made neuron boxes with known classes; the Assumption-3 data constants computed here
// independently (Cramer's rule on the normal equations, in intervals) against the library's
// three_point_data; the step-5 identity E = |v_R|^2/(2n) + q(p) checked on random instances where the
// true residuals, E and g are computed directly from beta and p (interval arithmetic on exact dyadic
// inputs); a NON-RIGOROUS explicit Euler integration (step 1e-3) of one S neuron's Clarke field under a
// constant residual vector for step 3; the closed-form crossing time of an N_1 neuron for step 2';
// monotonicity in Gamma on a grid.
#include <catch2/catch.hpp>

#include <flowcert/nets.hpp>
#include <flowcert/proofs/bf.hpp>

#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "../../support/three_point_fixture.hpp"

using flowcert::IntervalD;
using namespace flowcert::proofs::bf;

namespace {

IntervalD iv(double lo, double hi) { return IntervalD::bounds(lo, hi); }
IntervalD pt(double v) { return IntervalD::bounds(v, v); }
IntervalD dec(const char* s) { return IntervalD::from_decimal(s); }

// The Assumption-3 data of cases/bf/theorem2_three_point_assumption3.toml (tests/support/three_point_fixture.hpp).
const char* kX[3][2] = {{"-0.95", "1.05"}, {"0.05", "0.98"}, {"0.92", "1.03"}};
const char* kY[3] = {"1.05", "0.08", "1.1"};

struct Data {
    IntervalD X[3][2], y[3], rstar[3], beta_star[2], lmin;
};

// The independent reference: least squares by Cramer's rule on the normal equations, and
// lambda_min(X^T X / 3), in intervals.
Data a3_data() {
    Data d;
    for (int k = 0; k < 3; ++k) {
        d.X[k][0] = dec(kX[k][0]);
        d.X[k][1] = dec(kX[k][1]);
        d.y[k] = dec(kY[k]);
    }
    IntervalD p(0), q(0), r(0), u0(0), u1(0);
    for (int k = 0; k < 3; ++k) {
        p += sqr(d.X[k][0]);
        q += d.X[k][0] * d.X[k][1];
        r += sqr(d.X[k][1]);
        u0 += d.X[k][0] * d.y[k];
        u1 += d.X[k][1] * d.y[k];
    }
    const IntervalD det = p * r - q * q;
    d.beta_star[0] = (u0 * r - q * u1) / det;
    d.beta_star[1] = (p * u1 - q * u0) / det;
    for (int k = 0; k < 3; ++k) d.rstar[k] = d.X[k][0] * d.beta_star[0] + d.X[k][1] * d.beta_star[1] - d.y[k];
    const IntervalD three(3);
    const IntervalD lmax = (p + r + sqrt(sqr(p - r) + IntervalD(4) * q * q)) / IntervalD(2) / three;
    d.lmin = det / (three * three) / lmax;
    return d;
}

// The library's constants of the same data (the verifier's source of the box data); the data is
// already in canonical order (x_2 the middle point).
ThreePointData lib_data() {
    const flowcert::nets::AlignmentData a = flowcert::nets::alignment_data(flowcert::test_support::assumption3_spec());
    REQUIRE(three_point_order(a).identity());
    const LeastSquares ls = least_squares(a);
    REQUIRE(ls.ok);
    return three_point_data(a, ls, 128);
}

// The neurons of a hand-made box at T, in the classes of the trap (TrapNeuron, trap_tracking.hpp).
struct Neurons {
    std::vector<TrapNeuron> list;
    // All-active (P) neuron j from its box at T.
    void all_active(std::size_t j, const IntervalD& a, const IntervalD& w0, const IntervalD& w1, const std::array<IntervalD, 3>& z,
                    const IntervalD& b) {
        TrapNeuron n;
        n.index = j;
        n.cls = NeuronClass::all_active;
        n.a = a, n.w0 = w0, n.w1 = w1, n.b = b, n.z = z;
        list.push_back(n);
    }
    // N_k neuron j: zp >= z_jk(T)^+, speed <= |a_j(t)| (Lemma 1; 0 if unknown), a_lo <= |a_j(T)|, a_hi >= |a_j(t)|.
    void one_sample(std::size_t j, std::size_t k, const IntervalD& zp, const IntervalD& speed, double a_lo, double a_hi) {
        TrapNeuron n;
        n.index = j;
        n.cls = NeuronClass::one_sample;
        n.k = k;
        n.zpos = zp, n.speed = speed, n.a_lo = a_lo, n.a_hi = a_hi;
        list.push_back(n);
    }
    // S_i neuron j from its box at T.
    void two_sample(std::size_t j, std::size_t i, const IntervalD& a, const IntervalD& w0, const IntervalD& w1,
                    const std::array<IntervalD, 3>& z, const IntervalD& b) {
        TrapNeuron n;
        n.index = j;
        n.cls = NeuronClass::two_sample;
        n.k = i;
        n.a = a, n.w0 = w0, n.w1 = w1, n.b = b, n.z = z;
        list.push_back(n);
    }
};

// The data with zero P output and targets y_k = -r_k: the step-4 residual enclosure is then r_k minus the
// N and S terms (a box whose residuals are held at the point r).
ThreePointData with_residuals(ThreePointData data, const double (&r)[3]) {
    for (std::size_t k = 0; k < 3; ++k) data.y[k] = -pt(r[k]);
    return data;
}

// A realistic box at T: P neurons that fit beta* approximately, one N_1 neuron not yet pinned, one S_1
// neuron like neuron 763 of the m = 1000 Assumption-3 run (seed 2).
TrapBox realistic_box(const Data& d, const ThreePointData& data) {
    Neurons ns;
    // P: four balanced neurons a_j = |w_j|, sum a_j w_j ~ beta*
    const double bs0 = mid(d.beta_star[0]), bs1 = mid(d.beta_star[1]);
    for (int j = 0; j < 4; ++j) {
        const double w0 = std::sqrt(0.25) * (bs0 / std::sqrt(std::hypot(bs0, bs1))) * (1 + 0.01 * j);
        const double w1 = std::sqrt(0.25) * (bs1 / std::sqrt(std::hypot(bs0, bs1))) * (1 - 0.01 * j);
        const IntervalD a = sqrt(pt(w0) * pt(w0) + pt(w1) * pt(w1));
        std::array<IntervalD, 3> z;
        for (int k = 0; k < 3; ++k) z[k] = pt(w0) * d.X[k][0] + pt(w1) * d.X[k][1];
        ns.all_active(j, a, pt(w0), pt(w1), z, iv(-1e-20, 1e-20));
    }
    // residuals at T close to r*: E(T) from h = X beta_P
    const TrapBox p_only = make_trap_box(data, ns.list, IntervalD(0));
    IntervalD e(0);
    for (std::size_t k = 0; k < 3; ++k) {
        const IntervalD rk = p_only.hP(k) - d.y[k];
        e += sqr(rk) - sqr(d.rstar[k]);
    }
    // N_1 neuron: z_1(T)^+ = 1e-4, |a| >= 1e-3
    ns.one_sample(7, 0, iv(0, 1e-4), pt(1e-3), 1e-3, 2e-3);
    // S_1 neuron (neuron 763)
    ns.two_sample(763, 0, iv(-1.49e-7, -1.46e-7), iv(-6.0e-8, -5.8e-8), iv(5.5e-8, 5.7e-8),
                  {iv(-1.23e-7, -1.19e-7), iv(2.33e-8, 2.53e-8), iv(1.51e-7, 1.55e-7)}, iv(-1e-30, 1e-30));
    return make_trap_box(data, ns.list, e / IntervalD(6));
}

const NTrack kNoTrack{};

}  // namespace

// ---- the data constants the box uses --------------------------------------------------------

TEST_CASE("the library's three-point constants of the Assumption-3 data contain the independent Cramer's-rule values", "[bf_trap]") {
    const Data d = a3_data();
    const ThreePointData t = lib_data();
    IntervalD dummy;
    for (std::size_t k = 0; k < 3; ++k) {
        CHECK(intersect(t.rstar[k], d.rstar[k], dummy));
        CHECK(intersect(t.y[k], d.y[k], dummy));
        CHECK(width(t.rstar[k]) < 1e-12);
    }
    CHECK(intersect(t.lambda_min, d.lmin, dummy));
    CHECK(intersect(t.beta_star_norm, sqrt(sqr(d.beta_star[0]) + sqr(d.beta_star[1])), dummy));
}

// ---- step 1: classification -----------------------------------------------------------------

TEST_CASE("a neuron certainly inactive on x_1 and x_3 is classified frozen whatever its sign", "[bf_trap]") {
    ResidualSigns rs;
    for (const IntervalD a : {pt(0.3), pt(-0.3), iv(-0.1, 0.1)}) {
        const auto c = classify(a, {pt(-1e-9), iv(-1, 1), pt(-2)}, kNoTrack, rs);
        CHECK(c.cls == NeuronClass::frozen);
    }
}

TEST_CASE("a neuron certainly active on the three samples is all-active (P) if a may be >= 0, else a crossed S_i neuron", "[bf_trap]") {
    ResidualSigns rs;
    CHECK(classify(pt(0.5), {pt(1e-12), pt(0.2), pt(0.3)}, kNoTrack, rs).cls == NeuronClass::all_active);
    CHECK(classify(iv(-0.1, 0.1), {pt(0.1), pt(0.2), pt(0.3)}, kNoTrack, rs).cls == NeuronClass::all_active);
    // negative: S_i with i the extreme sample nearer its kink (docs/bf.md step 3, tau_S,j = 0)
    const Classified n1 = classify(pt(-0.5), {pt(0.1), pt(0.2), pt(0.3)}, kNoTrack, rs);
    CHECK((n1.cls == NeuronClass::two_sample && n1.k == 0));
    const Classified n3 = classify(pt(-0.5), {pt(0.3), pt(0.2), pt(1e-12)}, kNoTrack, rs);
    CHECK((n3.cls == NeuronClass::two_sample && n3.k == 2));
    // one pre-activation touching 0 is not certainly active
    CHECK(classify(pt(0.5), {iv(0, 0.1), pt(0.2), pt(0.3)}, kNoTrack, rs).cls != NeuronClass::all_active);
}

TEST_CASE("a tracked N_k neuron is N_k only while r_k is certainly negative on every step since T_N", "[bf_trap]") {
    NTrack nt;
    nt.on = true;
    nt.k = 0;
    nt.t = 5.0;
    ResidualSigns rs;
    rs.add_step(1.0, {pt(0.2), pt(-0.1), pt(0.1)});   // before T_N: r_1 > 0 is allowed
    rs.add_step(5.0, {pt(0.1), pt(-0.1), pt(0.1)});   // step ending at T_N
    rs.add_step(6.0, {pt(-0.1), pt(0.1), pt(-0.1)});  // after T_N: r_1 < 0
    const std::array<IntervalD, 3> z{iv(-0.1, 0.1), pt(-0.2), pt(-0.3)};
    const auto c = classify(pt(-0.2), z, nt, rs);
    CHECK(c.cls == NeuronClass::one_sample);
    CHECK(c.k == 0);
    // a later step on which r_1 is certainly positive breaks the N_1 premise
    ResidualSigns bad = rs;
    bad.add_step(7.0, {pt(0.05), pt(0.1), pt(-0.1)});
    CHECK(classify(pt(-0.2), z, nt, bad).cls == NeuronClass::unclassified);
    // and so does a step on which r_1 straddles 0
    ResidualSigns straddle = rs;
    straddle.add_step(7.0, {iv(-0.05, 0.01), pt(0.1), pt(-0.1)});
    CHECK(classify(pt(-0.2), z, nt, straddle).cls == NeuronClass::unclassified);
}

TEST_CASE("N_k tracking needs a_j < 0 on all of [T_N, T]: without a Lemma 1 speed a step box with a_j not certainly "
          "negative drops it (the unbalanced false CERTIFIED of issue 14)", "[bf_trap]") {
    const ThreePointData data = lib_data();
    // w = 0: the Lemma 1 speed is sqrt(b_j) when b_j > 0, none for b_j = 0
    const IntervalD no_speed = IntervalD(0), speed = pt(1e-8);  // sqrt(1e-8) = 1e-4
    // T_N: certainly negative, inactive on x_2, x_3 -> N_1
    const std::array<IntervalD, 3> z0{pt(1e-4), pt(-1e-4), pt(-2e-4)};
    NTrack nt;
    track_step(nt, 1.0, pt(-1e-4), pt(0), pt(0), z0, data, no_speed);
    REQUIRE(nt.on);
    CHECK(nt.k == 0);
    CHECK(nt.t == 1.0);
    CHECK(!certainly_positive(nt.speed));
    // later boxes: a_j grows towards 0 (a_j' >= 0) and crosses it (b_j < 0: unbalanced)
    track_step(nt, 2.0, iv(-5e-5, -1e-5), pt(0), pt(0), z0, data, no_speed);
    CHECK(nt.on);
    track_step(nt, 3.0, iv(-1e-5, 1e-5), pt(0), pt(0), z0, data, no_speed);
    CHECK(!nt.on);  // a_j may be >= 0 here: the neuron may move along +x_k and leave the pattern
    ResidualSigns rs;
    rs.add_step(4.0, {pt(-0.1), pt(0.1), pt(-0.1)});
    // at T it is positive and active on x_2, x_3 (neuron 59 of unbalanced seed 4): unclassified, never N_1
    CHECK(classify(pt(1e-3), {pt(-2e-4), pt(6e-4), pt(1.3e-3)}, nt, rs).cls == NeuronClass::unclassified);
    // re-acquired on a later box where it is certainly negative and N_k-like again
    track_step(nt, 3.5, pt(-2e-5), pt(0), pt(0), z0, data, no_speed);
    CHECK((nt.on && nt.t == 3.5));
    // with a Lemma 1 speed the sign of a_j is proven on [T_N, T] whatever the later (wide) boxes say
    NTrack ns;
    track_step(ns, 1.0, pt(-1e-4), pt(0), pt(0), z0, data, speed);
    REQUIRE(certainly_positive(ns.speed));
    CHECK(lower(ns.speed) <= 1e-4);
    CHECK(lower(ns.speed) >= 1e-4 * (1 - 1e-12));
    track_step(ns, 2.0, iv(-1e-3, 1e-3), pt(0), pt(0), z0, data, speed);
    CHECK((ns.on && ns.t == 1.0));
}

TEST_CASE("the Lemma 1 speed of an N_k neuron is sqrt(|P_perp w|^2 + b_j), 0 when that is not certainly positive", "[bf_trap]") {
    // x_k = (3, 4), |x_k| = 5; w = (4, -3) is orthogonal to x_k: |P_perp w| = 5
    const IntervalD xn = pt(5);
    CHECK(lower(lemma1_speed(pt(4), pt(-3), pt(3), pt(4), xn, pt(0))) <= 5.0);
    CHECK(lower(lemma1_speed(pt(4), pt(-3), pt(3), pt(4), xn, pt(0))) >= 5.0 * (1 - 1e-15));
    CHECK(upper(lemma1_speed(pt(4), pt(-3), pt(3), pt(4), xn, pt(-9))) <= 4.0);
    CHECK(upper(lemma1_speed(pt(4), pt(-3), pt(3), pt(4), xn, pt(-9))) >= 4.0 * (1 - 1e-15));
    CHECK(upper(lemma1_speed(pt(4), pt(-3), pt(3), pt(4), xn, pt(-25))) == 0.0);  // b_j = -|P_perp w|^2
    CHECK(upper(lemma1_speed(pt(3), pt(4), pt(3), pt(4), xn, pt(-1e-9))) == 0.0);  // w along x_k, b_j < 0
}

TEST_CASE("residual signs record the last step whose r_k is not certainly negative", "[bf_trap]") {
    ResidualSigns rs;
    rs.add_step(1.0, {pt(-0.1), pt(0.1), iv(-0.1, 0.0)});
    rs.add_step(2.0, {pt(-0.1), pt(-0.1), pt(-0.2)});
    CHECK(rs.last_not_negative[0] == 0.0);
    CHECK(rs.last_not_negative[1] == 1.0);
    CHECK(rs.last_not_negative[2] == 1.0);  // [-0.1, 0] is not certainly < 0
}

TEST_CASE("one_sample_of needs a certainly negative neuron certainly inactive on the two other samples", "[bf_trap]") {
    CHECK(one_sample_of(pt(-1), {pt(0.1), pt(-0.1), pt(-0.2)}) == 0);
    CHECK(one_sample_of(pt(-1), {pt(-0.1), pt(-0.1), pt(0.2)}) == 2);
    CHECK(one_sample_of(pt(-1), {pt(0.1), iv(-0.1, 0.1), pt(-0.2)}) == 3);
    CHECK(one_sample_of(iv(-1, 1e-9), {pt(0.1), pt(-0.1), pt(-0.2)}) == 3);
    CHECK(one_sample_of(pt(1), {pt(0.1), pt(-0.1), pt(-0.2)}) == 3);
}

TEST_CASE("a negative neuron certainly active on x_2 and one extreme sample is S_i, i the other extreme sample", "[bf_trap]") {
    ResidualSigns rs;
    // neuron 763 of the m = 1000 Assumption-3 run, seed 2
    const auto c = classify(iv(-1.49e-7, -1.46e-7), {iv(-1.23e-7, -1.19e-7), iv(2.33e-8, 2.53e-8), iv(1.51e-7, 1.55e-7)}, kNoTrack, rs);
    CHECK(c.cls == NeuronClass::two_sample);
    CHECK(c.k == 0);
    const auto m = classify(pt(-1e-3), {pt(0.1), pt(0.05), iv(-1e-3, 1e-3)}, kNoTrack, rs);
    CHECK(m.cls == NeuronClass::two_sample);
    CHECK(m.k == 2);
    // not S: sign of a not certain, positive a, x_2 not certainly active, both extremes uncertain
    CHECK(classify(iv(-1e-7, 1e-9), {pt(-0.1), pt(0.05), pt(0.1)}, kNoTrack, rs).cls == NeuronClass::unclassified);
    CHECK(classify(pt(1e-3), {pt(-0.1), pt(0.05), pt(0.1)}, kNoTrack, rs).cls == NeuronClass::unclassified);
    CHECK(classify(pt(-1e-3), {pt(-0.1), iv(-1e-3, 0.05), pt(0.1)}, kNoTrack, rs).cls == NeuronClass::unclassified);
    CHECK(classify(pt(-1e-3), {iv(-0.1, 0.1), pt(0.05), iv(-0.1, 0.1)}, kNoTrack, rs).cls == NeuronClass::unclassified);
    // the unclassified box of seed 4 (a straddles 0) stays unclassified
    CHECK(classify(iv(-8.31778e-05, 4.69415e-04), {iv(-2.88961e-04, 5.89231e-04), iv(-1.19026e-04, 3.96372e-04), iv(-2.84165e-04, 5.72970e-04)},
                   kNoTrack, rs)
              .cls == NeuronClass::unclassified);
}

// ---- steps 3-7: bounds as functions of Gamma ------------------------------------------------

TEST_CASE("a crossed S_i neuron (z_i(T) >= 0) needs its margin on x_i' only, an uncrossed one also on x_2", "[bf_trap]") {
    const ThreePointData data = lib_data();
    // z_2 tiny, z_3 comfortable; S_1 with z_1(T) >= 0 (crossed) vs z_1(T) < 0 (not crossed)
    const IntervalD G = pt(0.1);
    Neurons crossed;
    crossed.two_sample(0, 0, pt(-1e-7), pt(-7e-8), pt(7e-8), {pt(1e-10), pt(1e-11), pt(1.4e-7)}, iv(-1e-30, 1e-30));
    CHECK(certainly_positive(s_margin(make_trap_box(data, crossed.list, IntervalD(0)), G)));
    Neurons open;
    open.two_sample(0, 0, pt(-1e-7), pt(-7e-8), pt(7e-8), {pt(-1e-10), pt(1e-11), pt(1.4e-7)}, iv(-1e-30, 1e-30));
    CHECK(!certainly_positive(s_margin(make_trap_box(data, open.list, IntervalD(0)), G)));
}

TEST_CASE("the trap's premises are monotone in Gamma: a larger Gamma never proves what a smaller one failed", "[bf_trap]") {
    const Data d = a3_data();
    const TrapBox t = realistic_box(d, lib_data());
    REQUIRE(t.S().size() == 1);
    REQUIRE(t.P().size() == 4);
    REQUIRE(t.N().size() == 1);
    double prev_margin_P = INFINITY, prev_margin_S = INFINITY, prev_c = INFINITY, prev_al = INFINITY, prev_A = INFINITY;
    double prev_gs = 0, prev_tau = 0, prev_q = 0, prev_rlo[3] = {INFINITY, INFINITY, INFINITY}, prev_rhi[3] = {-INFINITY, -INFINITY, -INFINITY};
    bool some_pass = false;
    for (int i = 0; i <= 60; ++i) {
        const IntervalD G = pt(0.005 * i);
        const double mP = lower(p_margin(t, G)), mS = lower(s_margin(t, G)), c = lower(s_drift_lower(t, 0, G)),
                     al = lower(s_speed_lower(t, 0, G)), A = lower(a_min(t, G)), gs = upper(gamma_star(t, G)),
                     tau = upper(final_regime_time(t, G)), q = upper(q_max(t, G));
        CHECK(mP <= prev_margin_P);
        CHECK(mS <= prev_margin_S);
        CHECK(c <= prev_c);
        CHECK(al <= prev_al);
        CHECK(A <= prev_A);
        CHECK(gs >= prev_gs);
        CHECK(tau >= prev_tau);
        CHECK(q >= prev_q);
        for (std::size_t k = 0; k < 3; ++k) {
            const IntervalD r = residual_bound(t, k, G);
            CHECK(lower(r) <= prev_rlo[k]);
            CHECK(upper(r) >= prev_rhi[k]);
            prev_rlo[k] = lower(r);
            prev_rhi[k] = upper(r);
        }
        // premises that failed at a smaller Gamma stay failed (the values above are monotone)
        if (mS > 0 && mP > 0 && A > 0 && c > 0 && std::isfinite(gs) && gs < 0.005 * i) some_pass = true;
        prev_margin_P = mP;
        prev_margin_S = mS;
        prev_c = c;
        prev_al = al;
        prev_A = A;
        prev_gs = gs;
        prev_tau = tau;
        prev_q = q;
    }
    // the instance is certifiable at some Gamma (the grid is not vacuous) and the S margin fails for
    // large Gamma
    CHECK(some_pass);
    CHECK(lower(s_margin(t, pt(0.3))) < 0);
}

TEST_CASE("step 5: the residual, beta and gradient bounds contain the true values for random beta and perturbations p",
          "[bf_trap]") {
    const Data d = a3_data();
    const ThreePointData data = lib_data();
    std::mt19937_64 gen(12345);
    std::uniform_real_distribution<double> U(-1.0, 1.0);
    int nontrivial = 0;
    for (int it = 0; it < 500; ++it) {
        // perturbation bounds pi_k through C_k = sum_{N_k} a_hi z_jk(T)^+ (one N neuron per sample, a_hi = 1)
        // and a beta near beta*
        Neurons ns;
        const double scale = it % 2 ? 1e-3 : 1e-1;
        double pi[3];
        for (std::size_t k = 0; k < 3; ++k) {
            pi[k] = (it % 3 == 0 && k == 1) ? 0.0 : scale * (0.5 + 0.5 * U(gen));
            ns.one_sample(k, k, pt(pi[k]), IntervalD(0), 0.0, 1.0);
        }
        const double db = (it % 5 == 0 ? 0.3 : 0.03) * U(gen);
        const IntervalD beta[2] = {d.beta_star[0] + pt(db * U(gen)), d.beta_star[1] + pt(db * U(gen))};
        IntervalD r[3], e(0);
        for (std::size_t k = 0; k < 3; ++k) {
            const IntervalD p = pt(pi[k] * U(gen));  // |p_k| <= pi_k, either sign
            r[k] = d.X[k][0] * beta[0] + d.X[k][1] * beta[1] + p - d.y[k];
            e += sqr(r[k]) - sqr(d.rstar[k]);
        }
        // E = L - L* of this state (the bound uses E(t) <= E(T))
        const TrapBox t = make_trap_box(data, ns.list, e / IntervalD(6));
        for (std::size_t k = 0; k < 3; ++k) REQUIRE(upper(t.CN(k)) >= pi[k]);
        const IntervalD G = pt(0.1);
        for (std::size_t k = 0; k < 3; ++k) {
            const IntervalD b = residual_step5(t, k, G);
            CHECK(lower(b) <= lower(r[k]));
            CHECK(upper(r[k]) <= upper(b));
        }
        const IntervalD dbn = sqrt(sqr(beta[0] - d.beta_star[0]) + sqr(beta[1] - d.beta_star[1]));
        CHECK(upper(dbn) <= upper(beta_distance(t, G)));
        // |g|^2 >= 2 lambda_min (E - q_max)
        IntervalD g0(0), g1(0);
        for (std::size_t k = 0; k < 3; ++k) {
            g0 += d.X[k][0] * r[k];
            g1 += d.X[k][1] * r[k];
        }
        const IntervalD g2 = (sqr(g0) + sqr(g1)) / IntervalD(9);
        const IntervalD rhs = IntervalD(2) * d.lmin * (t.E_T() - pt(upper(q_max(t, G))));
        if (upper(rhs) > 0) ++nontrivial;
        CHECK(upper(rhs) <= lower(g2) + 1e-12);
    }
    CHECK(nontrivial > 50);
}

TEST_CASE("the leverages x_k^T H^{-1} x_k are at most |x_k|^2 / lambda_min and sum to n d", "[bf_trap]") {
    const Data d = a3_data();
    const ThreePointData t = lib_data();
    IntervalD sum(0);
    for (std::size_t k = 0; k < 3; ++k) {
        const IntervalD xnorm2 = sqr(d.X[k][0]) + sqr(d.X[k][1]);
        CHECK(upper(t.lev[k]) <= upper(xnorm2 / d.lmin));
        sum += t.lev[k];
    }
    // sum_k x_k^T (X^T X / n)^{-1} x_k = n trace(I_2) = 6
    CHECK(lower(sum) <= 6.0);
    CHECK(6.0 <= upper(sum));
    CHECK(width(sum) < 1e-9);
}

TEST_CASE("step 5 is not vacuous: without the perturbation term the residual bound misses some true residual", "[bf_trap]") {
    // The same construction with pi_k declared 0 (no N neuron) while |p_k| is up to 0.1: the bound must
    // fail somewhere (otherwise the test above could not detect a dropped |p| term).
    const Data d = a3_data();
    const ThreePointData data = lib_data();
    std::mt19937_64 gen(7);
    std::uniform_real_distribution<double> U(-1.0, 1.0);
    bool missed = false;
    for (int it = 0; it < 200 && !missed; ++it) {
        const IntervalD beta[2] = {d.beta_star[0] + pt(0.01 * U(gen)), d.beta_star[1] + pt(0.01 * U(gen))};
        IntervalD r[3], e(0);
        for (std::size_t k = 0; k < 3; ++k) {
            r[k] = d.X[k][0] * beta[0] + d.X[k][1] * beta[1] + pt(0.1 * U(gen)) - d.y[k];
            e += sqr(r[k]) - sqr(d.rstar[k]);
        }
        const TrapBox t = make_trap_box(data, {}, e / IntervalD(6));
        for (std::size_t k = 0; k < 3; ++k) {
            const IntervalD b = residual_step5(t, k, pt(0.1));
            if (upper(r[k]) > upper(b) || lower(r[k]) < lower(b)) missed = true;
        }
    }
    CHECK(missed);
}

TEST_CASE("step 3: an S_1 neuron under constant residuals reaches z_1 >= 0 by tau_S and never goes back (Euler, non-rigorous)",
          "[bf_trap]") {
    const Data d = a3_data();
    // constant residuals near r* (r_1, r_3 < 0 < r_2); the box's step-4 residual bound is the point r
    double r[3];
    for (int k = 0; k < 3; ++k) r[k] = mid(d.rstar[k]) + (k == 1 ? 0.003 : -0.003);
    const ThreePointData data = with_residuals(lib_data(), r);
    // neuron: a < 0, w with z_1 < 0 < z_2, z_3
    double a = -2e-3, w[2] = {1.2e-3, 0.3e-3};
    std::array<IntervalD, 3> z;
    for (std::size_t k = 0; k < 3; ++k) z[k] = pt(w[0]) * d.X[k][0] + pt(w[1]) * d.X[k][1];
    REQUIRE(certainly_negative(z[0]));
    REQUIRE(certainly_positive(z[1]));
    REQUIRE(certainly_positive(z[2]));
    const IntervalD b0 = pt(a) * pt(a) - pt(w[0]) * pt(w[0]) - pt(w[1]) * pt(w[1]);
    Neurons ns;
    ns.two_sample(0, 0, pt(a), pt(w[0]), pt(w[1]), z, b0);
    // E(T) = 1: the step-5 bound is wide, the residual enclosure is the step-4 one (the point r)
    const TrapBox t = make_trap_box(data, ns.list, pt(1.0));
    double g[2] = {0, 0};
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < 2; ++i) g[i] += mid(d.X[k][i]) * r[k] / 3;
    const double gn = std::hypot(g[0], g[1]);
    const double h = 1e-3;
    // Gamma budget: |g| is constant, so Gamma(t) = |g| t; the run below lasts 1.2 tau_S
    const double G = 0.05;
    const IntervalD tauS = s_crossing_time(t, pt(G));
    REQUIRE(std::isfinite(upper(tauS)));
    REQUIRE(upper(tauS) > 1.0);
    REQUIRE(gn * 1.2 * upper(tauS) <= G);
    const double s0 = std::sqrt(a * a + w[0] * w[0] + w[1] * w[1]);
    double tt = 0, min_after = INFINITY;
    for (; tt < 1.2 * upper(tauS); tt += h) {
        const double zz[3] = {w[0] * mid(d.X[0][0]) + w[1] * mid(d.X[0][1]), w[0] * mid(d.X[1][0]) + w[1] * mid(d.X[1][1]),
                              w[0] * mid(d.X[2][0]) + w[1] * mid(d.X[2][1])};
        if (tt >= upper(tauS)) min_after = std::min(min_after, zz[0]);
        // Clarke field; on the kink z_1 ~ 0 the Euler scheme chatters around it (sliding)
        double D[2] = {0, 0};
        for (int k = 0; k < 3; ++k)
            if (zz[k] > 0)
                for (int i = 0; i < 2; ++i) D[i] -= r[k] * mid(d.X[k][i]) / 3;
        const double da = w[0] * D[0] + w[1] * D[1];
        w[0] += h * a * D[0];
        w[1] += h * a * D[1];
        a += h * da;
        CHECK(zz[1] > 0);
        CHECK(zz[2] > 0);
        // step 3(a): |theta(t)| <= s e^{Gamma(t)}
        CHECK(std::sqrt(a * a + w[0] * w[0] + w[1] * w[1]) <= s0 * std::exp(gn * (tt + h)) * (1 + 1e-9));
    }
    CHECK(a < 0);
    CHECK(min_after >= -1e-3 * 1e-3 * 10);  // chattering of size O(h |a| |D| |x_1|)
}

TEST_CASE("step 2': an N_1 neuron with no Lemma 1 speed is pinned by tau_pin, which bounds the exact crossing time",
          "[bf_trap]") {
    // Under a constant residual r_1 = -rho the N_1 system is linear: u = |a_j|, u' = -(rho/n) z_1,
    // z_1' = -(rho/n) |x_1|^2 u, so z_1(t) = z0 cosh(kt) - u0 |x_1| sinh(kt), k = rho |x_1| / n, and z_1
    // reaches 0 at t* = atanh(z0 / (u0 |x_1|)) / k (closed form, exact up to libm rounding).
    const Data d = a3_data();
    double r[3];
    for (int k = 0; k < 3; ++k) r[k] = mid(d.rstar[k]) + (k == 1 ? 0.003 : -0.003);
    REQUIRE(r[0] < 0);
    const ThreePointData data = with_residuals(lib_data(), r);  // the residual enclosure is the step-4 one (the point r)
    const IntervalD E_T = pt(1.0);
    const double x1 = upper(data.xnorm[0]), rho = -r[0], kk = rho * x1 / 3;
    const double u0 = 2e-3;
    const auto box_with = [&](double z0, const IntervalD& speed) {
        Neurons ns;
        ns.one_sample(0, 0, pt(z0), speed, u0, u0);
        return make_trap_box(data, ns.list, E_T);
    };
    for (const double ratio : {0.1, 0.3, 0.5, 0.65}) {  // z0 / (u0 |x_1|); (ii) needs ratio < 1/sqrt 2
        const double tau = upper(pinning_time(box_with(ratio * u0 * x1, pt(0)), pt(0.01)));
        REQUIRE(std::isfinite(tau));
        const double tstar = std::atanh(ratio) / kk;
        CHECK(tau >= tstar * (1 + 1e-12));
        // the bound without the shrinking of |a_j| (B = 0, tau = Z / A0 = ratio / k) would be below t*
        CHECK(ratio / kk < tstar);
        CHECK(tau <= 1.5 * tstar);  // and the bound is not vacuous
    }
    // ratio 0.8: A0^2 > 2 B Z fails, (ii) proves nothing and without a Lemma 1 speed tau_pin is infinite
    CHECK(!std::isfinite(upper(pinning_time(box_with(0.8 * u0 * x1, pt(0)), pt(0.01)))));
    // with a Lemma 1 speed (a premise here, not true of this system) the smaller of the two bounds is used
    CHECK(upper(pinning_time(box_with(0.5 * u0 * x1, pt(u0)), pt(0.01))) <= 0.5 / kk * (1 + 1e-9));
}
