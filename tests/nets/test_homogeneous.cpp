// Tests of the homogeneous models of [KH2025] (lib/flowcert/nets/homogeneous.hpp).
//
// Exact references: an independent forward evaluator of H over GMP rationals (mpq_class), and exact
// derivatives of the polynomial t -> N(u + t e) obtained by Lagrange interpolation at rational nodes
// (exact for polynomials of degree <= #nodes - 1; no finite-difference approximation is involved).
#include <catch2/catch.hpp>

#include <gmpxx.h>
#include <mpfi.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <flowcert/nets.hpp>

using namespace flowcert;
using namespace flowcert::nets;

namespace {

using Q = mpq_class;
using RatVec = std::vector<Q>;

// ---- exact reference evaluator (independent of the library's code paths) ----
Q q_act(const HomActivation& a, const Q& z) {
    switch (a.kind) {
        case HomActivationKind::square: return z * z;
        case HomActivationKind::linear: return z;
        case HomActivationKind::relu: return z > 0 ? z : Q(0);
        case HomActivationKind::relu_power: {
            Q r = z > 0 ? z : Q(0), out = 1;
            for (int i = 0; i < a.p; ++i) out *= r;
            return out;
        }
    }
    return z;
}

// H(x_i; w) for every column of X.
RatVec q_outputs(const HomogeneousArchitecture& A, const std::vector<RatVec>& X, const RatVec& w) {
    RatVec out;
    const int d = A.input_dim;
    for (const RatVec& x : X) {
        Q h = 0;
        if (A.kind == ModelKind::weighted_squares) {
            for (int k = 0; k < d; ++k) h += Q(A.signs[k]) * w[k] * w[k] * x[k];
        } else if (A.kind == ModelKind::diagonal) {
            for (int k = 0; k < d; ++k) {
                Q p = x[k];
                for (int f = 0; f < A.depth; ++f) p *= w[f * d + k];
                h += p;
            }
        } else {
            RatVec a = x;
            int off = 0;
            for (int width : A.hidden) {
                const int cols = static_cast<int>(a.size());
                RatVec an(width);
                for (int j = 0; j < width; ++j) {
                    Q z = 0;
                    for (int c = 0; c < cols; ++c) z += w[off + j * cols + c] * a[c];
                    an[j] = q_act(A.activation, z);
                }
                off += width * cols;
                a = an;
            }
            for (std::size_t j = 0; j < a.size(); ++j) h += w[off + j] * a[j];
        }
        out.push_back(h);
    }
    return out;
}

Q q_ncf(const HomogeneousArchitecture& A, const std::vector<RatVec>& X, const RatVec& yt, const RatVec& w) {
    RatVec out = q_outputs(A, X, w);
    Q n = 0;
    for (std::size_t i = 0; i < out.size(); ++i) n += yt[i] * out[i];
    return n;
}

// Nodes t_k = k h, k = -m..m, and the exact first and second derivative weights at 0 of the Lagrange basis.
struct Interp {
    RatVec t, d1, d2;
};
Interp make_interp(int m, const Q& h) {
    Interp I;
    for (int k = -m; k <= m; ++k) I.t.push_back(Q(k) * h);
    const int n = static_cast<int>(I.t.size());
    for (int k = 0; k < n; ++k) {
        RatVec poly{Q(1)};  // coefficients of l_k(t)
        for (int j = 0; j < n; ++j) {
            if (j == k) continue;
            const Q den = I.t[k] - I.t[j];
            RatVec np(poly.size() + 1, Q(0));
            for (std::size_t c = 0; c < poly.size(); ++c) {
                np[c + 1] += poly[c] / den;
                np[c] -= poly[c] * I.t[j] / den;
            }
            poly = np;
        }
        I.d1.push_back(poly[1]);
        I.d2.push_back(2 * poly[2]);
    }
    return I;
}

struct Exact {
    Q value;
    RatVec grad;
    std::vector<RatVec> hess;
};
// Exact value, gradient and Hessian of a polynomial N (degree <= 2m along every line through u).
template <class F> Exact exact_derivatives(F N, const RatVec& u, int m) {
    // Small nodes, so that no line segment crosses a kink of max(z,0)^p at the random test points.
    const Interp I = make_interp(m, Q(1, 1 << 20));
    const int P = static_cast<int>(u.size());
    auto along = [&](const RatVec& e, Q& g1, Q& g2) {
        g1 = 0;
        g2 = 0;
        for (std::size_t k = 0; k < I.t.size(); ++k) {
            RatVec p = u;
            for (int j = 0; j < P; ++j) p[j] += I.t[k] * e[j];
            const Q v = N(p);
            g1 += I.d1[k] * v;
            g2 += I.d2[k] * v;
        }
    };
    Exact ex;
    ex.value = N(u);
    ex.grad.resize(P);
    ex.hess.assign(P, RatVec(P));
    for (int j = 0; j < P; ++j) {
        RatVec e(P, Q(0));
        e[j] = 1;
        along(e, ex.grad[j], ex.hess[j][j]);
    }
    for (int j = 0; j < P; ++j)
        for (int k = j + 1; k < P; ++k) {
            RatVec e(P, Q(0));
            e[j] = 1;
            e[k] = 1;
            Q g1, g2;
            along(e, g1, g2);  // g2 = H_jj + 2 H_jk + H_kk
            ex.hess[j][k] = ex.hess[k][j] = (g2 - ex.hess[j][j] - ex.hess[k][k]) / 2;
        }
    return ex;
}

// Exact containment of a rational in an interval.
bool q_in(const IntervalD& x, const Q& q) { return Q(x.lower()) <= q && q <= Q(x.upper()); }
bool q_in(const IntervalMp& x, const Q& q) {
    return mpfr_cmp_q(&x.get()->left, q.get_mpq_t()) <= 0 && mpfr_cmp_q(&x.get()->right, q.get_mpq_t()) >= 0;
}

struct TestInstance {
    HomogeneousArchitecture arch;
    Eigen::MatrixXd X;
    Eigen::VectorXd y, w;
};

// Random instance: data and labels in [-1, 1] (exact doubles), w a random point.
TestInstance random_instance(const HomogeneousArchitecture& arch, int n, std::uint64_t seed) {
    RandomStream rs(seed, "test/homogeneous", 0);
    TestInstance in{arch, Eigen::MatrixXd(arch.input_dim, n), Eigen::VectorXd(n), Eigen::VectorXd(arch.parameter_count())};
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < arch.input_dim; ++k) in.X(k, i) = rs.uniform_pm1();
    for (int i = 0; i < n; ++i) in.y(i) = rs.uniform_pm1();
    for (int j = 0; j < in.w.size(); ++j) in.w(j) = rs.uniform_pm1();
    return in;
}

std::vector<RatVec> q_columns(const Eigen::MatrixXd& X) {
    std::vector<RatVec> cols;
    for (Eigen::Index i = 0; i < X.cols(); ++i) {
        RatVec c;
        for (Eigen::Index k = 0; k < X.rows(); ++k) c.push_back(Q(X(k, i)));
        cols.push_back(c);
    }
    return cols;
}
RatVec q_vec(const Eigen::VectorXd& v) {
    RatVec q;
    for (Eigen::Index i = 0; i < v.size(); ++i) q.push_back(Q(v(i)));
    return q;
}

std::vector<HomogeneousArchitecture> smooth_architectures() {
    return {
        HomogeneousArchitecture::example1(),
        HomogeneousArchitecture::weighted_squares({1, 1, -1}),
        HomogeneousArchitecture::diagonal(3, 2),
        HomogeneousArchitecture::diagonal(3, 3),
        HomogeneousArchitecture::feed_forward(3, {4}, HomActivation::square()),
        HomogeneousArchitecture::feed_forward(3, {3, 2}, HomActivation::square()),
        HomogeneousArchitecture::feed_forward(3, {2, 3}, HomActivation::linear()),
        HomogeneousArchitecture::feed_forward(3, {3}, HomActivation::relu_power(3)),
        HomogeneousArchitecture::feed_forward(2, {2, 2}, HomActivation::relu_power(3)),
    };
}

template <class I> long bits_for() { return std::is_same_v<I, IntervalD> ? 53 : 200; }

}  // namespace

TEST_CASE("homogeneity order is 1 + p + ... + p^K and H(c w) = c^L H(w) holds exactly", "[homogeneous]") {
    CHECK(HomogeneousArchitecture::example1().homogeneity_order() == 2);
    CHECK(HomogeneousArchitecture::feed_forward(20, {50}, HomActivation::square()).homogeneity_order() == 3);   // Fig. 1
    CHECK(HomogeneousArchitecture::feed_forward(20, {20, 20}, HomActivation::square()).homogeneity_order() == 7);  // Fig. 4
    CHECK(HomogeneousArchitecture::feed_forward(4, {3, 3, 3}, HomActivation::relu_power(3)).homogeneity_order() == 40);
    CHECK(HomogeneousArchitecture::feed_forward(4, {3, 3}, HomActivation::linear()).homogeneity_order() == 3);
    CHECK(HomogeneousArchitecture::diagonal(5, 3).homogeneity_order() == 3);
    CHECK(HomogeneousArchitecture::feed_forward(20, {50}, HomActivation::square()).parameter_count() == 1050);
    for (const auto& arch : smooth_architectures()) {
        const TestInstance in = random_instance(arch, 4, 7);
        const auto X = q_columns(in.X);
        const RatVec w = q_vec(in.w);
        RatVec cw = w;
        const Q c(3, 2);
        for (Q& e : cw) e *= c;
        const RatVec h = q_outputs(arch, X, w), hc = q_outputs(arch, X, cw);
        Q cL = 1;
        for (int k = 0; k < arch.homogeneity_order(); ++k) cL *= c;
        for (std::size_t i = 0; i < h.size(); ++i) CHECK(hc[i] == cL * h[i]);
    }
}

TEMPLATE_TEST_CASE("NCF value, gradient and Hessian enclosures contain the exact rational derivatives", "[homogeneous]",
                   IntervalD, IntervalMp) {
    using I = TestType;
    const long bits = bits_for<I>();
    std::uint64_t seed = 100;
    for (const auto& arch : smooth_architectures()) {
        INFO(arch.describe());
        for (int rep = 0; rep < 2; ++rep) {
            const TestInstance in = random_instance(arch, 5, seed++);
            const HomogeneousModel<I> model(arch, convert_matrix<I>(in.X, bits));
            const Ncf<I> ncf(model, ncf_weights<I>(convert_vector<I>(in.y, bits), SquareLossNormalization::paper()));
            const HessianResult<I> h = ncf.hessian(convert_vector<I>(in.w, bits));
            REQUIRE(h.status == EvalStatus::ok);

            const auto X = q_columns(in.X);
            RatVec yt = q_vec(in.y);
            for (Q& e : yt) e *= 2;  // ytilde = 2y for the paper's loss (p - y)^2
            const int m = (arch.homogeneity_order() + 1) / 2 + 1;
            const Exact ex = exact_derivatives([&](const RatVec& p) { return q_ncf(arch, X, yt, p); }, q_vec(in.w), m);

            CHECK(q_in(h.value, ex.value));
            CHECK(q_in(ncf.value(convert_vector<I>(in.w, bits)).outputs(0), ex.value));
            const int P = arch.parameter_count();
            int bad = 0;
            double wmax = 0;
            for (int j = 0; j < P; ++j) {
                bad += !q_in(h.gradient(j), ex.grad[j]);
                wmax = std::max(wmax, width(h.gradient(j)));
                for (int k = 0; k < P; ++k) {
                    bad += !q_in(h.hessian(j, k), ex.hess[j][k]);
                    wmax = std::max(wmax, width(h.hessian(j, k)));
                }
            }
            CHECK(bad == 0);
            // Tightness (point data): rounding errors only.
            CHECK(wmax < (std::is_same_v<I, IntervalD> ? 1e-12 : 1e-50));
        }
    }
}

TEST_CASE("the double evaluation (non-rigorous) agrees with the exact derivatives to 1e-12", "[homogeneous]") {
    for (const auto& arch : smooth_architectures()) {
        INFO(arch.describe());
        const TestInstance in = random_instance(arch, 5, 999);
        const HomogeneousModel<double> model(arch, in.X);
        const Ncf<double> ncf(model, ncf_weights<double>(in.y, SquareLossNormalization::paper()));
        const HessianResult<double> h = ncf.hessian(in.w);
        REQUIRE(h.status == EvalStatus::ok);
        const auto X = q_columns(in.X);
        RatVec yt = q_vec(in.y);
        for (Q& e : yt) e *= 2;
        const Exact ex = exact_derivatives([&](const RatVec& p) { return q_ncf(arch, X, yt, p); }, q_vec(in.w),
                                           (arch.homogeneity_order() + 1) / 2 + 1);
        for (int j = 0; j < arch.parameter_count(); ++j) {
            CHECK(std::abs(h.gradient(j) - ex.grad[j].get_d()) < 1e-12);
            for (int k = 0; k < arch.parameter_count(); ++k)
                CHECK(std::abs(h.hessian(j, k) - ex.hess[j][k].get_d()) < 1e-12);
        }
    }
}

TEST_CASE("the containment check rejects an exact reference moved by one part in 1e9 (teeth)", "[homogeneous]") {
    const auto arch = HomogeneousArchitecture::feed_forward(3, {3, 2}, HomActivation::square());
    const TestInstance in = random_instance(arch, 5, 4242);
    const HomogeneousModel<IntervalD> model(arch, convert_matrix<IntervalD>(in.X, 53));
    const Ncf<IntervalD> ncf(model, ncf_weights<IntervalD>(convert_vector<IntervalD>(in.y, 53), {}));
    const HessianResult<IntervalD> h = ncf.hessian(convert_vector<IntervalD>(in.w, 53));
    REQUIRE(h.status == EvalStatus::ok);
    const auto X = q_columns(in.X);
    RatVec yt = q_vec(in.y);
    for (Q& e : yt) e *= 2;
    const Exact ex = exact_derivatives([&](const RatVec& p) { return q_ncf(arch, X, yt, p); }, q_vec(in.w), 5);
    CHECK(q_in(h.hessian(0, 7), ex.hess[0][7]));
    CHECK_FALSE(q_in(h.hessian(0, 7), ex.hess[0][7] * Q(1000000001, 1000000000) + Q(1, 1000000000)));
}

TEMPLATE_TEST_CASE("Euler identities u^T grad N = L N and Hess N u = (L-1) grad N hold as enclosures [Lemma 19]",
                   "[homogeneous]", IntervalD, IntervalMp) {
    using I = TestType;
    const long bits = bits_for<I>();
    for (const auto& arch : smooth_architectures()) {
        INFO(arch.describe());
        const TestInstance in = random_instance(arch, 6, 31337);
        const HomogeneousModel<I> model(arch, convert_matrix<I>(in.X, bits));
        const Ncf<I> ncf(model, ncf_weights<I>(convert_vector<I>(in.y, bits), {}));
        const Vec<I> u = convert_vector<I>(in.w, bits);
        const HessianResult<I> h = ncf.hessian(u);
        REQUIRE(h.status == EvalStatus::ok);
        const int L = ncf.order(), P = ncf.dimension();
        I ug = I(0);
        for (int j = 0; j < P; ++j) ug += u(j) * h.gradient(j);
        const I r1 = ug - I(L) * h.value;
        CHECK(possibly_zero(r1));
        CHECK(width(r1) < 1e-10);
        for (int j = 0; j < P; ++j) {
            I hu = I(0);
            for (int k = 0; k < P; ++k) hu += h.hessian(j, k) * u(k);
            const I r2 = hu - I(L - 1) * h.gradient(j);
            CHECK(possibly_zero(r2));
            CHECK(width(r2) < 1e-10);
        }
        // A wrong order is caught: u^T grad N - (L+1) N excludes 0 unless N is tiny.
        if (mag(h.value) > 1e-6) CHECK_FALSE(possibly_zero(ug - I(L + 1) * h.value));
    }
}

TEST_CASE("ReLU nets: the value is defined at kinks, gradient and Hessian refuse with a reason", "[homogeneous]") {
    const auto arch = HomogeneousArchitecture::feed_forward(2, {2}, HomActivation::relu());
    Eigen::MatrixXd X(2, 2);
    X << 1, 0, 0, 1;
    const HomogeneousModel<IntervalD> model(arch, convert_matrix<IntervalD>(X, 53));
    Vec<IntervalD> w(6);
    // Neuron 0: w = (1, -1) has pre-activation 0 on no sample; neuron 1 = (0, 2) has pre-activation 0 on x_1.
    w << IntervalD(1), IntervalD(-1), IntervalD(0), IntervalD(2), IntervalD(3), IntervalD(5);
    const OutputsResult<IntervalD> out = model.outputs(w);
    REQUIRE(out.status == EvalStatus::ok);
    CHECK(contains(out.outputs(0), 3.0));   // 3 relu(1) + 5 relu(0)
    CHECK(contains(out.outputs(1), 10.0));  // 3 relu(-1) + 5 relu(2)
    Vec<IntervalD> r(2);
    r << IntervalD(1), IntervalD(1);
    const GradientResult<IntervalD> g = model.weighted_gradient(w, r);
    CHECK(g.status == EvalStatus::refused);
    CHECK_THAT(g.reason, Catch::Contains("kink"));
    CHECK(model.weighted_hessian(w, r).status == EvalStatus::refused);
    // Away from kinks the ReLU gradient is defined.
    w(2) = IntervalD(1);
    const GradientResult<IntervalD> g2 = model.weighted_gradient(w, r);
    REQUIRE(g2.status == EvalStatus::ok);
    CHECK(contains(g2.gradient(4), 1.0));  // d/dv_0 = relu(1) + relu(-1)
    // A pre-activation enclosure straddling 0 is refused even if the point would not be a kink.
    w(2) = IntervalD::bounds(-1e-3, 1e-3);
    w(3) = IntervalD::bounds(-1e-3, 1e-3);
    CHECK(model.weighted_gradient(w, r).status == EvalStatus::refused);
}

TEST_CASE("max(z,0)^2 nets: gradient is defined at 0, the Hessian is refused there", "[homogeneous]") {
    const auto arch = HomogeneousArchitecture::feed_forward(2, {1}, HomActivation::relu_power(2));
    Eigen::MatrixXd X(2, 1);
    X << 1, 1;
    const HomogeneousModel<IntervalD> model(arch, convert_matrix<IntervalD>(X, 53));
    Vec<IntervalD> w(3), r(1);
    w << IntervalD(1), IntervalD(-1), IntervalD(2);
    r << IntervalD(1);
    const GradientResult<IntervalD> g = model.weighted_gradient(w, r);
    REQUIRE(g.status == EvalStatus::ok);
    CHECK(contains(g.gradient(0), 0.0));
    const HessianResult<IntervalD> h = model.weighted_hessian(w, r);
    CHECK(h.status == EvalStatus::refused);
    CHECK_THAT(h.reason, Catch::Contains("kink 0"));
}

TEST_CASE("Example 1: loss (w1^2-4)^2 + (w2^2-1)^2, ytilde = 2y, N = 8 w1^2 + 2 w2^2 [KH2025, eq. (7)]",
          "[homogeneous]") {
    Eigen::MatrixXd X = Eigen::MatrixXd::Identity(2, 2);
    Eigen::VectorXd y(2);
    y << 4, 1;
    const HomogeneousModel<IntervalMp> model(HomogeneousArchitecture::example1(), convert_matrix<IntervalMp>(X, 128));
    const Vec<IntervalMp> yv = convert_vector<IntervalMp>(y, 128);
    Vec<IntervalMp> w(2);
    w << IntervalMp::from_decimal("0.3", Precision(128)), IntervalMp::from_decimal("-1.7", Precision(128));
    const LossResult<IntervalMp> l = square_loss(model, w, yv, SquareLossNormalization::paper(), true);
    REQUIRE(l.status == EvalStatus::ok);
    const Q w1(3, 10), w2(-17, 10);
    const Q L = (w1 * w1 - 4) * (w1 * w1 - 4) + (w2 * w2 - 1) * (w2 * w2 - 1);
    CHECK(q_in(l.value, L));
    CHECK(q_in(l.gradient(0), 4 * w1 * (w1 * w1 - 4)));  // dL/dw1 = 4 w1 (w1^2 - 4)
    CHECK(q_in(l.gradient(1), 4 * w2 * (w2 * w2 - 1)));
    const Vec<IntervalMp> yt = ncf_weights<IntervalMp>(yv, SquareLossNormalization::paper());
    CHECK(contains(yt(0), 8.0));
    CHECK(contains(yt(1), 2.0));
    const LossResult<IntervalMp> lm = square_loss(model, w, yv, {.half = true, .mean = true}, false);
    CHECK(q_in(lm.value, L / 4));
    const Ncf<IntervalMp> ncf(model, yt);
    CHECK(q_in(ncf.value(w).outputs(0), 8 * w1 * w1 + 2 * w2 * w2));
}

TEST_CASE("sphere-teacher data are reproducible, unit-norm, and labelled by the teacher", "[homogeneous]") {
    const auto teacher = HomogeneousArchitecture::feed_forward(20, {2}, HomActivation::square());
    const SphereTeacherData a = make_sphere_teacher_data(1, 20, 100, teacher);
    const SphereTeacherData b = make_sphere_teacher_data(1, 20, 100, teacher);
    const SphereTeacherData c = make_sphere_teacher_data(2, 20, 100, teacher);
    CHECK(a.X == b.X);
    CHECK(a.y == b.y);
    CHECK(a.X != c.X);
    for (int i = 0; i < 100; ++i) CHECK(std::abs(a.X.col(i).norm() - 1.0) < 1e-15);
    for (int i = 0; i < 100; ++i) {
        double h = 0;
        for (int j = 0; j < 2; ++j) {
            const double z = a.teacher_weights.segment(20 * j, 20).dot(a.X.col(i));
            h += a.teacher_weights(40 + j) * z * z;
        }
        CHECK(std::abs(h - a.y(i)) < 1e-12);
    }
}
