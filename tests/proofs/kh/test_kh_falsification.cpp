// Falsification cases of the KH verifiers (issue 14 item 4): for each shipped negative case a NON-RIGOROUS
// long-double simulation (kh_simulation.hpp: RK4 with small steps, the flows written from the loss here) shows that
// the dynamic statement the verifier would certify is false on that instance, so the case must never be CERTIFIED
// (its expected verdict is OUTSIDE_HYPOTHESES or INCONCLUSIVE; the case tests check the verdict). One test also shows
// a hypothesis TRUE where the old verifier reported it refuted (theorem10_close_blowup_brackets).
#include <catch2/catch.hpp>

#include <flowcert/nets.hpp>

#include <cmath>
#include <string>

#include "kh_simulation.hpp"

using namespace khsim;

namespace {

std::string case_path(const std::string& name) { return std::string(FLOWCERT_CASES_DIR) + "/kh/" + name + ".toml"; }

// The loss flow from delta * unit(w0) to t_end with step h; `observe(t, x)` as in rk4.
Vec flow(const Case& c, const Vec& w0, Real delta, Real t_end, Real h, const std::function<bool(Real, const Vec&)>& obs = {}) {
    Vec x = unit(w0);
    for (Real& v : x) v *= delta;
    return rk4([&](const Vec& w) { return c.loss.flow(c.model, c.data, w); }, x, 0, t_end, h, obs);
}

// First time |psi(t)| >= r (the escape time of the verifiers), by the same RK4.
Real escape_time(const Case& c, const Vec& w0, Real delta, Real r, Real h, Real t_max) {
    Real te = -1;
    flow(c, w0, delta, t_max, h, [&](Real t, const Vec& x) {
        if (norm(x) >= r) {
            te = t;
            return false;
        }
        return true;
    });
    return te;
}

}  // namespace

TEST_CASE("theorem4 Example-1 cases outside S(w*): psi_1 <= 0 for all t, so the Theorem 4 distance to p(t) of "
          "w* = (1, 0) is >= p_1(T~) ~ 2 for every shift", "[kh][falsification]") {
    for (const char* name : {"theorem4_example1_outside_stable_set", "theorem4_example1_mirror_a", "theorem4_example1_mirror_b"}) {
        INFO(name);
        Case c = read_case(case_path(name));
        c.model = Model{.kind = "weighted_squares", .d = 2, .signs = {1, 1}};
        const Vec w0 = numbers(c.t, "initial_direction");
        const Real T = number(c.t, "window");
        for (Real delta : numbers(c.t, "deltas")) {
            Real max_psi1 = -1;
            const Vec end = flow(c, w0, delta, std::log(1 / delta) / 4 + 2, 1e-4L, [&](Real, const Vec& x) {
                max_psi1 = std::max(max_psi1, x[0]);
                return true;
            });
            CHECK(max_psi1 <= 0);                         // the flow never enters the half-plane of w* = (1, 0)
            CHECK(std::abs(end[1]) > 0.99L);              // it escapes along the other axis
            const Real p1 = 2 / std::sqrt(1 + 4 * std::exp(-32 * T));  // p(T~) of w* [KH2025, Example 1]
            CHECK(p1 - max_psi1 > 1.9L);                  // sup_|t|<=T~ |psi(t + s) - p(t)| >= p_1(T~) - psi_1 > 1.9
        }
    }
}

TEST_CASE("theorem4_weighted_squares_3d_wide_window: E(delta) ~ sqrt 3 on the whole sweep, so E <= C~ delta^kappa "
          "with C~ through the first delta is false", "[kh][falsification]") {
    Case c = read_case(case_path("theorem4_weighted_squares_3d_wide_window"));
    const Vec w0 = unit(numbers(c.t, "initial_direction"));
    const Real c0 = w0[1], Nstar = 10, kappa = 8.0L / 88;  // w* = e2, N* = 10, Delta_max = 8 (case comment)
    const Real T = number(c.t, "window");
    std::vector<Real> E;
    for (Real delta : {1e-2L, 1e-6L}) {
        const Real s = std::log(1 / (c0 * delta)) / (2 * Nstar);  // the exhibited shift of the verifier
        Real sup = 0;
        flow(c, w0, delta, s + T, 1e-5L, [&](Real t, const Vec& x) {
            if (t >= s - T) {
                const Real tt = t - s;
                const Real p2 = std::sqrt(5 / (1 + 5 * std::exp(-40 * tt)));  // p(t) of w* = e2 (Q = 5, c = 1)
                sup = std::max(sup, std::sqrt(x[0] * x[0] + (x[1] - p2) * (x[1] - p2) + x[2] * x[2]));
            }
            return true;
        });
        E.push_back(sup);
    }
    CHECK(E[0] > 1.5L);                               // coordinate 1 has left the origin inside the window
    CHECK(std::abs(E[1] - std::sqrt(3.0L)) < 0.05L);
    CHECK(E[1] > E[0] * std::pow(1e-4L, kappa) * 1.5L);  // far above C~ delta^kappa with C~ = E(1e-2)/1e-2^kappa
}

TEST_CASE("theorem10 cases outside S(w*): psi escapes along block 1 and never comes near r w*, the point of p(t) at "
          "t_p(r) inside the window", "[kh][falsification]") {
    for (const char* name : {"theorem10_outside_stable_set", "theorem10_outside_stable_set_unbalanced",
                             "theorem10_outside_stable_set_close"}) {
        INFO(name);
        Case c = read_case(case_path(name));
        const Vec w0 = numbers(c.t, "init_direction");
        const Real r = number(c.t, "escape_radius"), delta = 1e-2L;
        const int d = c.model.d, D = c.model.depth;
        const Real te = escape_time(c, w0, delta, r, 1e-3L, 1e4L);
        REQUIRE(te > 0);
        Vec ws(static_cast<std::size_t>(D * d), 0);  // w* = block 0, balanced, unit
        for (int f = 0; f < D; ++f) ws[static_cast<std::size_t>(f * d)] = 1 / std::sqrt(static_cast<Real>(D));
        Real closest = 1e9, block1_at_escape = 0, block0_at_escape = 0;
        flow(c, w0, delta, 3 * te, 1e-3L, [&](Real t, const Vec& x) {
            Real dist = 0;
            for (std::size_t j = 0; j < x.size(); ++j) dist += (x[j] - r * ws[j]) * (x[j] - r * ws[j]);
            closest = std::min(closest, std::sqrt(dist));
            if (std::abs(t - te) < 1e-3L) {
                for (int f = 0; f < D; ++f) {
                    block0_at_escape += x[static_cast<std::size_t>(f * d)] * x[static_cast<std::size_t>(f * d)];
                    block1_at_escape += x[static_cast<std::size_t>(f * d + 1)] * x[static_cast<std::size_t>(f * d + 1)];
                }
            }
            return true;
        });
        CHECK(block1_at_escape > block0_at_escape);  // block 1 blew up first
        CHECK(closest > 0.3L);                       // so sup_|t|<=T~ |psi(t + s) - p(t)| > 0.3 for every shift s
    }
}

TEST_CASE("theorem10_close_blowup_brackets: the NCF flow from w0 blows up in block 0 first (w0 IS in S(w*)), so the "
          "REFUTED of the old bracket inference was false", "[kh][falsification]") {
    Case c = read_case(case_path("theorem10_close_blowup_brackets"));
    const Vec w0 = unit(numbers(c.t, "init_direction"));
    const int d = c.model.d, D = c.model.depth;
    Real t_blow = -1;
    Vec at;
    rk4([&](const Vec& u) { return c.loss.ncf_flow(c.model, c.data, u); }, w0, 0, 1, 1e-6L, [&](Real t, const Vec& u) {
        if (norm(u) > 1e4L) {
            t_blow = t;
            at = u;
            return false;
        }
        return true;
    });
    REQUIRE(t_blow > 0);
    Real b0 = 0, b1 = 0;
    for (int f = 0; f < D; ++f) {
        b0 += at[static_cast<std::size_t>(f * d)] * at[static_cast<std::size_t>(f * d)];
        b1 += at[static_cast<std::size_t>(f * d + 1)] * at[static_cast<std::size_t>(f * d + 1)];
    }
    CHECK(b0 > 1e4L * b1);  // block 0 dominates at the blow-up: phi/|phi| -> w* (block 0)
}

TEST_CASE("first_saddle cases with a bad exhibited time: the corollary's inequalities are false at T_delta = T_esc + tau",
          "[kh][falsification]") {
    for (const char* name : {"first_saddle_example1_after_the_saddle", "first_saddle_example1_at_escape"}) {
        INFO(name);
        Case c = read_case(case_path(name));
        const Vec w0 = numbers(c.t, "init_direction");
        const Real eps = number(c.t, "epsilon"), tau = number(c.t, "time_after_escape"), r = number(c.t, "escape_radius");
        for (Real delta : numbers(c.t, "deltas")) {
            const Real te = escape_time(c, w0, delta, r, 1e-4L, 100);
            REQUIRE(te > 0);
            const Vec x = flow(c, w0, delta, te + tau, 1e-4L);
            const Real dist = std::sqrt((x[0] - 2) * (x[0] - 2) + x[1] * x[1]);  // p* = (2, 0)
            CHECK(dist > 2 * eps);
        }
    }
    Case c = read_case(case_path("first_saddle_logistic_too_early"));
    const Vec w0 = numbers(c.t, "init_direction");
    const Real eps = number(c.t, "epsilon"), tau = number(c.t, "time_after_escape"), r = number(c.t, "escape_radius");
    for (Real delta : numbers(c.t, "deltas")) {
        const Real te = escape_time(c, w0, delta, r, 1e-4L, 100);
        REQUIRE(te > 0);
        CHECK(norm(flow(c, w0, delta, te + tau, 1e-4L)) < 1 / (2 * eps));  // |psi(T_delta)| >= 1/(2 eps) is false
    }
}

TEST_CASE("theorem18 claimed zero sets that are no union of Lemma 16 units: the claimed entry leaves 0", "[kh][falsification]") {
    struct Claim {
        const char* name;
        int index;  // the claimed parameter (v[j] of the 4-neuron net with d = 3 is 12 + j; u1[0] of the diagonal net is 0)
    };
    for (const Claim& cl : {Claim{"theorem18_not_zero_preserving", 12}, Claim{"theorem18_not_zero_preserving_seed2", 14},
                            Claim{"theorem18_diagonal_not_zero_preserving", 0}}) {
        INFO(cl.name);
        Case c = read_case(case_path(cl.name));
        if (c.t["data"].value_or(std::string()) == "sphere_teacher") {
            const auto arch = flowcert::nets::HomogeneousArchitecture::feed_forward(
                static_cast<int>(c.t["input_dim"].value_or(0LL)), {2}, flowcert::nets::HomActivation::square());
            const auto sd = flowcert::nets::make_sphere_teacher_data(static_cast<std::uint64_t>(c.t["data_seed"].value_or(0LL)),
                                                                     static_cast<int>(c.t["input_dim"].value_or(0LL)),
                                                                     static_cast<int>(c.t["samples"].value_or(0LL)), arch);
            c.data.x.clear();
            c.data.y.clear();
            for (Eigen::Index i = 0; i < sd.X.cols(); ++i) {
                Vec x;
                for (Eigen::Index k = 0; k < sd.X.rows(); ++k) x.push_back(sd.X(k, i));
                c.data.x.push_back(x);
                c.data.y.push_back(sd.y(i));
            }
            c.model.d = static_cast<int>(sd.X.rows());
        }
        const int P = c.model.parameters();
        flowcert::nets::RandomStream rs(static_cast<std::uint64_t>(c.t["init_seed"].value_or(0LL)), "kh/theorem18_init", 0);
        Vec w0(static_cast<std::size_t>(P));
        for (Real& v : w0) v = rs.gaussian();
        w0 = unit(w0);
        REQUIRE(cl.index < P);
        w0[static_cast<std::size_t>(cl.index)] = 0;  // the claimed set starts at exactly 0
        const Real delta = number(c.t, "invariance_delta");
        Vec x = w0;
        for (Real& v : x) v *= delta;
        x = rk4([&](const Vec& w) { return c.loss.flow(c.model, c.data, w); }, x, 0, 1, 1e-4L);
        CHECK(std::abs(x[static_cast<std::size_t>(cl.index)]) > 1e-9L);  // not zero-preserving (Definition 15 fails)
    }
}
