// Rigorous GD of v^T (W x)^2 (nets/square_net_gd): containment of 50-digit GD trajectories.
#include <catch2/catch.hpp>

#include <boost/multiprecision/cpp_bin_float.hpp>

#include <flowcert/nets.hpp>

using namespace flowcert;
using namespace flowcert::nets;
using Big = boost::multiprecision::cpp_bin_float_50;
using linalg::IMatrixD;
using linalg::IVectorD;

namespace {

struct Setting {
    Eigen::MatrixXd X;
    Eigen::VectorXd y;
    Eigen::MatrixXd W0;
    Eigen::VectorXd v0;
};

// d = 5, n = 10, m = 4 neurons, 2-neuron square teacher (seed 1), a seeded unit initial direction (scale 1).
Setting small_setting() {
    const int d = 5, n = 10, m = 4;
    const auto teacher = HomogeneousArchitecture::feed_forward(d, {2}, HomActivation::square());
    const SphereTeacherData sd = make_sphere_teacher_data(1, d, n, teacher);
    Setting s{sd.X, sd.y, Eigen::MatrixXd(m, d), Eigen::VectorXd(m)};
    RandomStream rs(1, "kh/theorem18_init", 0);
    Eigen::VectorXd g(m * d + m);
    for (Eigen::Index k = 0; k < g.size(); ++k) g(k) = rs.gaussian();
    g /= g.norm();
    for (int j = 0; j < m; ++j) {
        for (int k = 0; k < d; ++k) s.W0(j, k) = g(j * d + k);
        s.v0(j) = g(m * d + j);
    }
    return s;
}

// `steps` GD steps in 50 digits with c = 1/n and h = 1/50 (the rigorous run uses the same exact reals).
void reference_run(const Setting& s, std::vector<std::vector<Big>>& W, std::vector<Big>& v, int steps) {
    const int m = static_cast<int>(W.size()), d = static_cast<int>(s.X.rows()), n = static_cast<int>(s.X.cols());
    const Big c = Big(1) / n, h = Big(1) / 50;
    for (int it = 0; it < steps; ++it) {
        std::vector<Big> r(n);
        for (int i = 0; i < n; ++i) {
            Big p = 0;
            for (int j = 0; j < m; ++j) {
                Big z = 0;
                for (int k = 0; k < d; ++k) z += W[j][k] * Big(s.X(k, i));
                p += v[j] * z * z;
            }
            r[i] = p - Big(s.y(i));
        }
        std::vector<std::vector<Big>> Wn = W;
        std::vector<Big> vn = v;
        for (int j = 0; j < m; ++j) {
            std::vector<Big> Mw(d, Big(0));
            for (int i = 0; i < n; ++i) {
                Big z = 0;
                for (int k = 0; k < d; ++k) z += W[j][k] * Big(s.X(k, i));
                for (int k = 0; k < d; ++k) Mw[k] += r[i] * z * Big(s.X(k, i));
            }
            Big q = 0;
            for (int k = 0; k < d; ++k) q += W[j][k] * Mw[k];
            for (int k = 0; k < d; ++k) Wn[j][k] = W[j][k] - 4 * c * h * v[j] * Mw[k];
            vn[j] = v[j] - 2 * c * h * q;
        }
        W = Wn;
        v = vn;
    }
}

bool contains_big(const IntervalD& x, const Big& b) { return Big(x.lower()) <= b && b <= Big(x.upper()); }

// Runs the rigorous GD from the box (W0 +- rad on neuron 0) and the references from `points` of that box;
// returns the number of (point, parameter) pairs NOT contained after `steps` steps.
int uncontained(const SquareNetGdOptions& opt, double radius, int steps, int points, double* max_width) {
    const Setting s = small_setting();
    const int m = static_cast<int>(s.W0.rows()), d = static_cast<int>(s.W0.cols());
    IMatrixD W0 = linalg::to_interval(s.W0);
    IVectorD v0 = linalg::to_interval(s.v0);
    for (int k = 0; k < d; ++k) W0(0, k) = inflate(W0(0, k), radius);
    v0(0) = inflate(v0(0), radius);
    SquareNetGd gd(s.X, s.y, IntervalD(1) / IntervalD(10), IntervalD(1) / IntervalD(50), W0, v0, opt);
    for (int it = 0; it < steps; ++it) {
        const GdStepStatus st = gd.step();
        INFO("step " << it << ": " << gd.reason());
        REQUIRE(st == GdStepStatus::ok);
    }
    CHECK(gd.conserved_consistent());
    *max_width = gd.max_width();
    RandomStream rs(7, "test/corners", 0);
    int bad = 0;
    for (int p = 0; p < points; ++p) {
        std::vector<std::vector<Big>> W(m, std::vector<Big>(d));
        std::vector<Big> v(m);
        for (int j = 0; j < m; ++j) {
            for (int k = 0; k < d; ++k) W[j][k] = s.W0(j, k);
            v[j] = s.v0(j);
        }
        if (p > 0) {  // a corner of the box of neuron 0 (p = 0: the centre)
            for (int k = 0; k < d; ++k) W[0][k] += (rs.uniform01() < 0.5 ? -1 : 1) * Big(radius);
            v[0] += (rs.uniform01() < 0.5 ? -1 : 1) * Big(radius);
        }
        reference_run(s, W, v, steps);
        const IMatrixD Wh = gd.weights();
        const IVectorD vh = gd.output_weights();
        for (int j = 0; j < m; ++j) {
            for (int k = 0; k < d; ++k) bad += contains_big(Wh(j, k), W[j][k]) ? 0 : 1;
            bad += contains_big(vh(j), v[j]) ? 0 : 1;
        }
    }
    return bad;
}

}  // namespace

TEST_CASE("rigorous square-net GD encloses the 50-digit GD from the point initialization (boxes and Lohner)",
          "[nets][square_gd]") {
    double w = 0;
    SquareNetGdOptions boxes;
    boxes.promote_norm = 1e300;  // every neuron stays a box
    CHECK(uncontained(boxes, 0.0, 100, 1, &w) == 0);  // boxes alone lose the enclosure near step 280 here
    CHECK(w < 1e-10);
    SquareNetGdOptions lohner;
    lohner.lohner_from_start = {0, 1, 2, 3};
    CHECK(uncontained(lohner, 0.0, 300, 1, &w) == 0);
    CHECK(w < 1e-10);
}

TEST_CASE("rigorous square-net GD encloses every GD trajectory from a box, dropping dF_w/dv breaks it",
          "[nets][square_gd]") {
    double w = 0;
    SquareNetGdOptions opt;
    opt.lohner_from_start = {0};
    CHECK(uncontained(opt, 1e-7, 300, 9, &w) == 0);
    opt.test_only_drop_cross_derivatives_UNSOUND = true;
    CHECK(uncontained(opt, 1e-7, 300, 9, &w) > 0);
}

TEST_CASE("the loss enclosure of the square-net GD contains the plain double loss of the same run",
          "[nets][square_gd]") {
    const Setting s = small_setting();
    SquareNetGd gd(s.X, s.y, IntervalD(1) / IntervalD(10), IntervalD(1) / IntervalD(50), linalg::to_interval(s.W0),
                   linalg::to_interval(s.v0));
    Eigen::MatrixXd W = s.W0;
    Eigen::VectorXd v = s.v0;
    for (int it = 0; it < 200; ++it) {
        const double L = square_net_gd_step_double(s.X, s.y, 0.1, 0.02, W, v);
        CHECK(std::fabs(L - mid(gd.loss())) <= rad(gd.loss()) + 1e-12 * L);
        REQUIRE(gd.step() == GdStepStatus::ok);
    }
}
