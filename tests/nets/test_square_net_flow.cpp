// The rigorous block flow of v^T (W x)^2 (nets/square_net_flow): containment of high-precision reference
// trajectories (RK4 with Richardson extrapolation in 50 digits / long double), the conserved quantity
// |w_j|^2 - 2 v_j^2, exact zeros of zero neurons, and a broken coupling that the containment test catches.
#include <catch2/catch.hpp>

#include <boost/multiprecision/cpp_bin_float.hpp>

#include <flowcert/nets.hpp>

#include <cmath>

using namespace flowcert;
using namespace flowcert::nets;
using Big = boost::multiprecision::cpp_bin_float_50;
using linalg::IVectorD;

namespace {

struct Setting {
    Eigen::MatrixXd X;  // d x n
    Eigen::VectorXd y;
    std::vector<double> x0;  // W row-major, then v
    int m = 0, d = 0;
    bool frozen = false;  // the NCF: r_i = -y_i held constant, c = 1/2 (SquareNetFlowOptions::frozen_residual)
};

// m neurons on d inputs, n points on the sphere, 2-neuron square teacher (seed `seed`), seeded direction * scale.
Setting make_setting(int m, int d, int n, std::uint64_t seed, double scale) {
    const auto teacher = HomogeneousArchitecture::feed_forward(d, {2}, HomActivation::square());
    const SphereTeacherData sd = make_sphere_teacher_data(seed, d, n, teacher);
    Setting s{sd.X, sd.y, std::vector<double>(static_cast<std::size_t>(m * d + m)), m, d};
    RandomStream rs(seed, "kh/theorem18_init", 0);
    double nn = 0;
    std::vector<double> g(s.x0.size());
    for (double& e : g) e = rs.gaussian(), nn += e * e;
    for (std::size_t k = 0; k < g.size(); ++k) s.x0[k] = scale * g[k] / std::sqrt(nn);
    return s;
}

// The flow field in the scalar T (c = 1/n), layout W row-major then v.
template <class T>
std::vector<T> field(const Setting& s, const std::vector<T>& x) {
    const int m = s.m, d = s.d, n = static_cast<int>(s.X.cols());
    const T c = s.frozen ? T(1) / 2 : T(1) / n;
    std::vector<T> z(static_cast<std::size_t>(m * n)), r(static_cast<std::size_t>(n)), f(x.size(), T(0));
    for (int i = 0; i < n; ++i) {
        T p = 0;
        for (int j = 0; j < m; ++j) {
            T zz = 0;
            for (int k = 0; k < d; ++k) zz += x[j * d + k] * T(s.X(k, i));
            z[j * n + i] = zz;
            p += x[m * d + j] * zz * zz;
        }
        r[i] = s.frozen ? -T(s.y(i)) : p - T(s.y(i));
    }
    for (int j = 0; j < m; ++j) {
        T fv = 0;
        for (int i = 0; i < n; ++i) {
            const T rz = r[i] * z[j * n + i];
            for (int k = 0; k < d; ++k) f[j * d + k] -= 4 * c * x[m * d + j] * rz * T(s.X(k, i));
            fv -= 2 * c * rz * z[j * n + i];
        }
        f[m * d + j] = fv;
    }
    return f;
}

template <class T>
std::vector<T> rk4(const Setting& s, std::vector<T> x, double t, int N) {
    const T h = T(t) / N;
    auto ax = [](const std::vector<T>& a, const T& k, const std::vector<T>& b) {
        std::vector<T> o(a);
        for (std::size_t i = 0; i < o.size(); ++i) o[i] += k * b[i];
        return o;
    };
    for (int it = 0; it < N; ++it) {
        const auto k1 = field(s, x), k2 = field(s, ax(x, h / 2, k1)), k3 = field(s, ax(x, h / 2, k2)),
                   k4 = field(s, ax(x, h, k3));
        for (std::size_t i = 0; i < x.size(); ++i) x[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    }
    return x;
}

// Reference at time t with an error estimate: Richardson on RK4 with N and 2N steps.
template <class T>
void reference(const Setting& s, double t, int N, std::vector<double>& ref, std::vector<double>& err) {
    std::vector<T> x0(s.x0.begin(), s.x0.end());
    const auto a = rk4(s, x0, t, N), b = rk4(s, x0, t, 2 * N);
    ref.resize(a.size());
    err.resize(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        const T e = (b[i] - a[i]) / 15;
        ref[i] = static_cast<double>(b[i] + e);
        err[i] = static_cast<double>(abs(e)) * 0.1 + 1e-18;  // the extrapolated value's error is O(h^5)
    }
}

std::vector<IntervalD> point_start(const Setting& s) {
    std::vector<IntervalD> x;
    for (double e : s.x0) x.push_back(IntervalD::exact(e));
    return x;
}

IVectorD targets(const Setting& s) {
    IVectorD y(s.y.size());
    for (Eigen::Index i = 0; i < y.size(); ++i) y(i) = IntervalD::exact(s.y(i));
    return y;
}

// How many components of the enclosure miss the reference (inflated by its error estimate).
int misses(const std::vector<IntervalD>& box, const std::vector<double>& ref, const std::vector<double>& err) {
    int bad = 0;
    for (std::size_t i = 0; i < box.size(); ++i)
        if (!(lower(box[i]) <= ref[i] + err[i] && ref[i] - err[i] <= upper(box[i]))) ++bad;
    return bad;
}

double max_width(const std::vector<IntervalD>& b) {
    double w = 0;
    for (const auto& x : b) w = std::max(w, width(x));
    return w;
}

}  // namespace

TEST_CASE("square net flow: 4 x 3, n = 8, contains a 50-digit reference (frame, promotion)", "[square_net_flow]") {
    const Setting s = make_setting(4, 3, 8, 1, 1.0);
    const double T = 2.0;
    std::vector<double> ref, err, r1, e1;
    reference<Big>(s, T, 400, ref, err);
    reference<Big>(s, 1.0, 200, r1, e1);
    const IntervalD c = IntervalD(1) / IntervalD(8);
    const bool mean_value = GENERATE(false, true);  // the remainder validation (TM / mean-value form)
    for (int mode = 1; mode < 3; ++mode) {
        SquareNetFlowOptions o;
        o.remainder_mean_value = mean_value;
        o.order = 10;
        if (mode == 1) o.frame_from_start = {0, 1, 2, 3};  // all in the frame
        if (mode == 2) o.promote_norm = 0.3;               // promotion on the way
        SquareNetFlowStats st;
        const auto res = integrate_square_net_flow(s.X, targets(s), c, point_start(s), IntervalD::exact(T),
                                                   {IntervalD::exact(1.0)}, o, &st);
        INFO("mode " << mode << ": " << res.reason);
        REQUIRE(res.ok());
        CHECK(misses(res.final_box, ref, err) == 0);
        CHECK(max_width(res.final_box) < 1e-6);
        CHECK(st.conserved_consistent);
        if (mode == 1) CHECK(st.frame_neurons == 4);
        if (mode == 2) CHECK(st.frame_neurons >= 1);
        // the output at t = 1 against its own reference
        REQUIRE(res.outputs.size() == 1);
        CHECK(misses(res.outputs[0].box, r1, e1) == 0);
        // the tube pieces cover [0, T]
        REQUIRE(!res.tube.empty());
        CHECK(lower(res.tube.front().t0) == 0.0);
        CHECK(upper(res.tube.back().t1) == T);
        WARN("mean value " << mean_value << ", mode " << mode << ": steps " << res.steps << ", width " << max_width(res.final_box) << ", frame "
                     << st.frame_neurons);
    }
}

TEST_CASE("square net flow: 4 x 3, n = 8, small start (the theorem's regime), boxes only", "[square_net_flow]") {
    const Setting s = make_setting(4, 3, 8, 1, 0.1);
    const double T = 3.0;
    std::vector<double> ref, err;
    reference<Big>(s, T, 200, ref, err);
    SquareNetFlowOptions o;
    o.remainder_mean_value = GENERATE(false, true);
    o.promote_norm = 1e9;
    SquareNetFlowStats st;
    const auto res = integrate_square_net_flow(s.X, targets(s), IntervalD(1) / IntervalD(8), point_start(s),
                                               IntervalD::exact(T), {}, o, &st);
    INFO(res.reason);
    REQUIRE(res.ok());
    CHECK(st.frame_neurons == 0);
    CHECK(misses(res.final_box, ref, err) == 0);
    CHECK(max_width(res.final_box) < 1e-10);
    CHECK(st.conserved_consistent);
    WARN("mean value " << o.remainder_mean_value << ", boxes: steps " << res.steps << ", width " << max_width(res.final_box));
}

TEST_CASE("square net flow: a box of initial values (every corner's reference inside)", "[square_net_flow]") {
    Setting s = make_setting(4, 3, 8, 1, 1.0);
    const IntervalD c = IntervalD(1) / IntervalD(8);
    std::vector<IntervalD> x0 = point_start(s);
    const double r = 1e-6;
    for (auto& e : x0) e = IntervalD::bounds(mid(e) - r, mid(e) + r);
    SquareNetFlowOptions o;
    o.remainder_mean_value = GENERATE(false, true);
    o.frame_from_start = {0, 1};
    const auto res = integrate_square_net_flow(s.X, targets(s), c, x0, IntervalD::exact(1.5), {}, o);
    REQUIRE(res.ok());
    for (int corner = 0; corner < 6; ++corner) {
        Setting sc = s;
        for (std::size_t k = 0; k < sc.x0.size(); ++k) sc.x0[k] += ((k + corner) % 3 == 0 ? r : (k + corner) % 3 == 1 ? -r : 0.0);
        std::vector<double> ref, err;
        reference<Big>(sc, 1.5, 300, ref, err);
        CHECK(misses(res.final_box, ref, err) == 0);
    }
}

TEST_CASE("square net flow: the frame Jacobian on sub-intervals contains every corner -- dropping a piece is caught",
          "[square_net_flow]") {
    Setting s = make_setting(4, 3, 8, 1, 1.0);
    const IntervalD c = IntervalD(1) / IntervalD(8);
    std::vector<IntervalD> x0 = point_start(s);
    const double r = 1e-4, T = 1.5;
    for (auto& e : x0) e = IntervalD::bounds(mid(e) - r, mid(e) + r);
    std::vector<std::vector<double>> refs, errs;
    for (int corner = 0; corner < 3; ++corner) {
        Setting sc = s;
        for (std::size_t k = 0; k < sc.x0.size(); ++k) sc.x0[k] += ((k + corner) % 3 == 0 ? r : (k + corner) % 3 == 1 ? -r : 0.0);
        refs.emplace_back(), errs.emplace_back();
        reference<Big>(sc, T, 200, refs.back(), errs.back());
    }
    const bool mean_value = GENERATE(false, true);
    auto run = [&](int pieces, bool drop) {
        SquareNetFlowOptions o;
        o.remainder_mean_value = mean_value;
        o.frame_from_start = {0, 1, 2, 3};
        o.jacobian_pieces = pieces;
        o.test_only_drop_last_piece_UNSOUND = drop;
        const auto res = integrate_square_net_flow(s.X, targets(s), c, x0, IntervalD::exact(T), {}, o);
        INFO(res.reason);
        REQUIRE(res.ok());
        int bad = 0;
        for (std::size_t k = 0; k < refs.size(); ++k) bad += misses(res.final_box, refs[k], errs[k]);
        return std::pair{bad, max_width(res.final_box)};
    };
    const auto [bad1, w1] = run(1, false);
    const auto [bad4, w4] = run(4, false);
    CHECK(bad1 == 0);
    CHECK(bad4 == 0);
    CHECK(w4 <= w1 * 1.01);
    const auto [bad_drop, w_drop] = run(2, true);  // half of every step's linear part left out: caught
    CHECK(bad_drop > 0);
    WARN("pieces 1: width " << w1 << ", pieces 4: " << w4 << ", dropped piece: " << w_drop << " (" << bad_drop << " misses)");
}

TEST_CASE("square net flow: medium size 10 x 6, n = 15, long double reference", "[square_net_flow]") {
    const Setting s = make_setting(10, 6, 15, 2, 1.0);
    const double T = 1.0;
    std::vector<double> ref, err;
    reference<long double>(s, T, 1000, ref, err);
    const IntervalD c = IntervalD(1) / IntervalD(15);
    SquareNetFlowOptions o;
    o.remainder_mean_value = GENERATE(false, true);
    o.promote_norm = 0.4;
    SquareNetFlowStats st;
    const auto res = integrate_square_net_flow(s.X, targets(s), c, point_start(s), IntervalD::exact(T), {}, o, &st);
    INFO(res.reason);
    REQUIRE(res.ok());
    CHECK(misses(res.final_box, ref, err) == 0);
    CHECK(st.conserved_consistent);
    WARN("mean value " << o.remainder_mean_value << ", medium: steps " << res.steps << ", width " << max_width(res.final_box) << ", frame " << st.frame_neurons);
}

TEST_CASE("square net flow: zero neurons stay exactly zero", "[square_net_flow]") {
    Setting s = make_setting(4, 3, 8, 1, 1.0);
    for (int k = 0; k < 3; ++k) s.x0[static_cast<std::size_t>(1 * 3 + k)] = 0.0;  // neuron 1: w = 0, v = 0
    s.x0[static_cast<std::size_t>(4 * 3 + 1)] = 0.0;
    const IntervalD c = IntervalD(1) / IntervalD(8);
    SquareNetFlowOptions o;
    o.remainder_mean_value = GENERATE(false, true);
    o.frame_from_start = {0};  // neurons 2, 3 join the frame after the first step (promote_norm)
    SquareNetFlowStats st;
    const auto res = integrate_square_net_flow(s.X, targets(s), c, point_start(s), IntervalD::exact(2.0), {}, o, &st);
    INFO(res.reason);
    REQUIRE(res.ok());
    CHECK(st.frame_neurons == 3);
    for (const auto& piece : res.tube) {
        for (int k = 0; k < 3; ++k) CHECK((lower(piece.box[3 + k]) == 0.0 && upper(piece.box[3 + k]) == 0.0));
        CHECK((lower(piece.box[13]) == 0.0 && upper(piece.box[13]) == 0.0));
    }
}

TEST_CASE("square net flow: teeth -- the frame ignoring the box neurons' residual part is caught", "[square_net_flow]") {
    const Setting s = make_setting(4, 3, 8, 1, 1.0);
    const double T = 0.25;
    std::vector<double> ref, err;
    reference<Big>(s, T, 100, ref, err);
    const IntervalD c = IntervalD(1) / IntervalD(8);
    SquareNetFlowOptions o;
    o.remainder_mean_value = GENERATE(false, true);
    o.promote_norm = 1e9;
    o.frame_from_start = {0};
    o.test_only_drop_box_input_UNSOUND = true;
    const auto bad = integrate_square_net_flow(s.X, targets(s), c, point_start(s), IntervalD::exact(T), {}, o);
    // the broken coupling completes and its enclosure misses the reference (caught by containment, not by a failure)
    INFO(bad.reason);
    REQUIRE(bad.ok());
    CHECK(misses(bad.final_box, ref, err) > 0);
    o.test_only_drop_box_input_UNSOUND = false;
    const auto good = integrate_square_net_flow(s.X, targets(s), c, point_start(s), IntervalD::exact(T), {}, o);
    REQUIRE(good.ok());
    CHECK(misses(good.final_box, ref, err) == 0);
}

TEST_CASE("square net flow: the double RK4 step keeps |w|^2 - 2 v^2 to high accuracy", "[square_net_flow]") {
    const Setting s = make_setting(4, 3, 8, 1, 1.0);
    Eigen::MatrixXd W(4, 3);
    Eigen::VectorXd v(4);
    for (int j = 0; j < 4; ++j) {
        for (int k = 0; k < 3; ++k) W(j, k) = s.x0[static_cast<std::size_t>(j * 3 + k)];
        v(j) = s.x0[static_cast<std::size_t>(12 + j)];
    }
    const double C0 = W.row(0).squaredNorm() - 2 * v(0) * v(0);
    for (int it = 0; it < 200; ++it) square_net_flow_rk4_step_double(s.X, s.y, 1.0 / 8, 0.01, W, v);
    CHECK(std::abs(W.row(0).squaredNorm() - 2 * v(0) * v(0) - C0) < 1e-8);
    std::vector<double> ref, err;
    reference<Big>(s, 2.0, 400, ref, err);
    for (int k = 0; k < 3; ++k) CHECK(std::abs(W(0, k) - ref[static_cast<std::size_t>(k)]) < 1e-6);
}

TEST_CASE("square net flow: the NCF mode (frozen residuals) contains its reference -- the loss flow differs", "[square_net_flow]") {
    Setting s = make_setting(4, 3, 8, 1, 0.5);
    s.frozen = true;
    const double T = 0.2;  // the NCF of this 3-homogeneous net blows up near t = 0.42 from here
    std::vector<double> ref, err;
    reference<Big>(s, T, 200, ref, err);
    SquareNetFlowOptions o;
    o.remainder_mean_value = GENERATE(false, true);
    o.frozen_residual = true;
    o.frame_from_start = {0};
    SquareNetFlowStats st;
    const auto res = integrate_square_net_flow(s.X, targets(s), IntervalD(1) / IntervalD(2), point_start(s),
                                               IntervalD::exact(T), {}, o, &st);
    INFO(res.reason);
    REQUIRE(res.ok());
    CHECK(misses(res.final_box, ref, err) == 0);
    CHECK(st.conserved_consistent);  // |w_j|^2 - 2 v_j^2 is conserved by the NCF too
    // the same options without frozen residuals integrate the loss flow: it misses the NCF reference
    o.frozen_residual = false;
    const auto loss = integrate_square_net_flow(s.X, targets(s), IntervalD(1) / IntervalD(2), point_start(s),
                                                IntervalD::exact(T), {}, o);
    REQUIRE(loss.ok());
    CHECK(misses(loss.final_box, ref, err) > 0);
}

// The mean-value remainder validation (SquareNetFlowOptions::remainder_mean_value; docs/kh.md, "The mean-value
// remainder validation"): its linear part must enclose J(xi) e for every state xi and remainder e in the boxes. J(xi) e
// is taken by a central difference of the field in 50 digits (h = 1e-20: error ~ h^2, far below the box widths),
// independent of the bound's formulas; the bound drops the weights' term of delta r under the planted switch.
TEST_CASE("square net flow: the mean-value Jacobian product bound holds J e at sampled points -- a dropped term is caught",
          "[square_net_flow]") {
    const int m = 4, d = 3, n = 8, S = d + 1;
    Setting s = make_setting(m, d, n, 1, 2.0);
    const IntervalD c = IntervalD(1) / IntervalD(n);
    const double rs = 1e-3, re = 1e-6;
    std::vector<IntervalD> state(static_cast<std::size_t>(m * S)), e(state.size());
    auto block = [&](int j, int a) { return static_cast<std::size_t>(a < d ? j * d + a : m * d + j); };  // field layout
    for (int j = 0; j < m; ++j)
        for (int a = 0; a < S; ++a) {
            const double x = s.x0[block(j, a)];
            state[static_cast<std::size_t>(j * S + a)] = IntervalD::bounds(x - rs, x + rs);
            e[static_cast<std::size_t>(j * S + a)] = IntervalD::bounds(-re, re);
        }
    RandomStream rng(7, "test/square_net_mean_value", 0);
    auto count_misses = [&](const std::vector<char>& big, bool drop) {
        const auto B = square_net_jacobian_product_bound(s.X, targets(s), c, state, e, {}, big, false, drop);
        int bad = 0;
        for (int sample = 0; sample < 40; ++sample) {
            std::vector<Big> xi(s.x0.size()), dir(s.x0.size());
            for (int j = 0; j < m; ++j)
                for (int a = 0; a < S; ++a) {
                    const std::size_t k = block(j, a);
                    const double u = sample < 8 ? ((sample >> (a % 3)) & 1 ? 1.0 : -1.0) : rng.uniform_pm1();
                    const double w = sample < 8 ? ((sample + j + a) % 2 ? 1.0 : -1.0) : rng.uniform_pm1();
                    xi[k] = Big(s.x0[k]) + Big(rs) * Big(u);
                    dir[k] = Big(re) * Big(w);
                }
            const Big h("1e-20");
            std::vector<Big> xp(xi), xm(xi);
            for (std::size_t k = 0; k < xi.size(); ++k) xp[k] += h * dir[k], xm[k] -= h * dir[k];
            const auto fp = field(s, xp), fm = field(s, xm);
            for (int j = 0; j < m; ++j)
                for (int a = 0; a < S; ++a) {
                    const std::size_t k = block(j, a);
                    const double je = static_cast<double>((fp[k] - fm[k]) / (2 * h));
                    const IntervalD& b = B[static_cast<std::size_t>(j * S + a)];
                    const double slack = 1e-12 * std::abs(je);  // the difference quotient's error and the double cast
                    if (!(lower(b) <= je + slack && je - slack <= upper(b))) ++bad;
                }
        }
        return bad;
    };
    const std::vector<char> all(m, 1), mixed{1, 0, 0, 1}, none(m, 0);
    CHECK(count_misses(all, false) == 0);
    CHECK(count_misses(mixed, false) == 0);
    CHECK(count_misses(none, false) == 0);
    const int dropped = count_misses(all, true);  // the planted failure: must miss
    CHECK(dropped > 0);
    // the pairwise matrices keep the cancellation: the bound with them is narrower than the absolute sums
    const auto Ball = square_net_jacobian_product_bound(s.X, targets(s), c, state, e, {}, all);
    const auto Bnone = square_net_jacobian_product_bound(s.X, targets(s), c, state, e, {}, none);
    double wa = 0, wn = 0;
    for (std::size_t k = 0; k < Ball.size(); ++k) wa += width(Ball[k]), wn += width(Bnone[k]);
    CHECK(wa < wn);
    WARN("mean-value bound: summed width " << wa << " (matrices) against " << wn << " (absolute); dropped term: "
                                           << dropped << " misses");
}

// One step of H = 0.8 with one large neuron (norm ~ 0.6) among small ones, d = 10, n = 60: the TM validation cannot
// close it (the remainders of the 60 residuals summed in absolute value make its Picard map expand), the mean-value
// validation does, and its enclosure holds the 50-digit reference.
TEST_CASE("square net flow: a step the TM remainder validation rejects and the mean-value one accepts", "[square_net_flow]") {
    const int m = 3, d = 10, n = 60;
    Setting s = make_setting(m, d, n, 3, 0.05);
    for (int k = 0; k < d; ++k) s.x0[static_cast<std::size_t>(k)] *= 20;  // neuron 0 large
    s.x0[static_cast<std::size_t>(m * d)] *= 20;
    const IntervalD c = IntervalD(1) / IntervalD(n);
    const double H = 0.8;
    auto one_step = [&](bool mean_value) {
        SquareNetFlowOptions o;
        o.remainder_mean_value = mean_value;
        o.frame_from_start = {0};
        o.promote_norm = 1e9;
        o.steps.h_initial = o.steps.h_min = o.steps.h_max = H;  // exactly one attempt
        return integrate_square_net_flow(s.X, targets(s), c, point_start(s), IntervalD::exact(H), {}, o);
    };
    const auto old_tm = one_step(false);
    CHECK(!old_tm.ok());
    CHECK(old_tm.reason.find("remainder") != std::string::npos);
    const auto mv = one_step(true);
    INFO(mv.reason);
    REQUIRE(mv.ok());
    CHECK(mv.steps == 1);
    std::vector<double> ref, err;
    reference<Big>(s, H, 200, ref, err);
    CHECK(misses(mv.final_box, ref, err) == 0);
    WARN("one step H = 0.8: TM validation: " << old_tm.reason.substr(0, 60) << "; mean-value: width "
                                            << max_width(mv.final_box));
}
