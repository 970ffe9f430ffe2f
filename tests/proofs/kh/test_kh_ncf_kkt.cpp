// Tests of the NCF KKT certification (lib/flowcert/proofs/kh/ncf_kkt.hpp) against closed forms of [KH2025] and spec
// sections 4 and 9.
#include <catch2/catch.hpp>

#include <cmath>

#include <flowcert/nets.hpp>
#include <flowcert/proofs/kh.hpp>  // the whole kh proof wing: the umbrella compiles

using namespace flowcert;
using namespace flowcert::nets;
using namespace flowcert::proofs::kh;
namespace la = flowcert::linalg;

namespace {

template <class T> Ncf<T> make_ncf(const HomogeneousArchitecture& arch, const Eigen::MatrixXd& X,
                                   const Eigen::VectorXd& y, SquareLossNormalization norm, long bits) {
    HomogeneousModel<T> model(arch, convert_matrix<T>(X, bits));
    return Ncf<T>(model, ncf_weights<T>(convert_vector<T>(y, bits), norm));
}

Eigen::VectorXd vec(std::initializer_list<double> v) {
    Eigen::VectorXd out(static_cast<Eigen::Index>(v.size()));
    Eigen::Index i = 0;
    for (double x : v) out(i++) = x;
    return out;
}

}  // namespace

TEMPLATE_TEST_CASE("Example 1: the KKT point (1,0) is certified with N* = 8 and Delta_max = 12", "[ncf]", IntervalD,
                   IntervalMp) {
    using I = TestType;
    const long bits = std::is_same_v<I, IntervalD> ? 53 : 200;
    const Eigen::MatrixXd X = Eigen::MatrixXd::Identity(2, 2);
    const Eigen::VectorXd y = vec({4, 1});
    const auto arch = HomogeneousArchitecture::example1();
    const Ncf<double> nd = make_ncf<double>(arch, X, y, {}, 53);
    const auto cands = find_kkt_points_nonrigorous(nd, {});
    REQUIRE(!cands.empty());
    CHECK(std::abs(cands[0].value - 8) < 1e-12);  // the maximizer +-(1, 0)
    CHECK(std::abs(std::abs(cands[0].u(0)) - 1) < 1e-12);

    const Ncf<I> ncf = make_ncf<I>(arch, X, y, {}, bits);
    const KktExistence<I> ex = prove_kkt_point(ncf, cands[0].u, cands[0].mu);
    REQUIRE(ex.status == ProofStatus::proven);
    CHECK(contains(ex.mu, 8.0));  // lambda* = L N / 2 = 8
    const TangentSpectrum<I> ts = tangent_spectrum(ncf, ex.u);
    REQUIRE(ts.status == ProofStatus::proven);
    CHECK(contains(ts.ncf_value, 8.0));
    CHECK(contains(ts.delta_max, 12.0));
    CHECK(width(ts.delta_max) < 1e-9);
    CHECK(certainly_positive(ts.delta_max));
    const HessianSpectrum<I> hs = hessian_spectrum(ncf, ex.u);
    REQUIRE(hs.status == ProofStatus::proven);
    CHECK(contains(hs.lambda_max, 16.0));  // L(L-1)N = 16
    CHECK(contains(hs.lambda_min, 4.0));
    const EulerResiduals<I> er = euler_residuals(ncf, ex.u, ex.mu);
    CHECK(er.status == ProofStatus::proven);
    // Teeth: a non-KKT box fails the eigen / multiplier identities.
    la::IVector<I> off(2);
    off << IntervalTraits<I>::from_decimal("0.6", bits), IntervalTraits<I>::from_decimal("0.8", bits);
    CHECK(euler_residuals(ncf, off, ex.mu).status == ProofStatus::disproven);
}

TEST_CASE("Example 1: (0, 1) is a certified first-order KKT point with Delta_max = -12 (not second order)", "[ncf]") {
    const Eigen::MatrixXd X = Eigen::MatrixXd::Identity(2, 2);
    const Eigen::VectorXd y = vec({4, 1});
    const auto arch = HomogeneousArchitecture::example1();
    const Ncf<double> nd = make_ncf<double>(arch, X, y, {}, 53);
    const KktCandidateNonrigorous c = polish_kkt_point_nonrigorous(nd, vec({1e-3, 1}), 10);
    CHECK(c.residual < 1e-14);
    const Ncf<IntervalD> ncf = make_ncf<IntervalD>(arch, X, y, {}, 53);
    const KktExistence<IntervalD> ex = prove_kkt_point(ncf, c.u, c.mu);
    REQUIRE(ex.status == ProofStatus::proven);
    const TangentSpectrum<IntervalD> ts = tangent_spectrum(ncf, ex.u);
    REQUIRE(ts.status == ProofStatus::proven);
    CHECK(contains(ts.ncf_value, 2.0));
    CHECK(contains(ts.delta_max, -12.0));  // L N - 16 = 4 - 16
    CHECK(certainly_negative(ts.delta_max));
}

TEST_CASE("eq. (16) counterexample: Hess N(e1) has eigenvalue -200 while L(L-1)N = 16 (spec section 4)", "[ncf]") {
    const Eigen::MatrixXd X = Eigen::MatrixXd::Identity(3, 3);
    const Eigen::VectorXd y = vec({4, 1, 50});
    const auto arch = HomogeneousArchitecture::weighted_squares({1, 1, -1});
    const Ncf<IntervalD> ncf = make_ncf<IntervalD>(arch, X, y, {}, 53);
    const KktExistence<IntervalD> ex = prove_kkt_point(ncf, vec({1, 0, 0}), 8);
    REQUIRE(ex.status == ProofStatus::proven);
    const TangentSpectrum<IntervalD> ts = tangent_spectrum(ncf, ex.u);
    REQUIRE(ts.status == ProofStatus::proven);
    CHECK(contains(ts.delta_max, 12.0));
    const HessianSpectrum<IntervalD> hs = hessian_spectrum(ncf, ex.u);
    REQUIRE(hs.status == ProofStatus::proven);
    CHECK(contains(hs.lambda_min, -200.0));
    CHECK(contains(hs.lambda_max, 16.0));
}

TEST_CASE("diagonal linear net (spec 9A): Delta_max = |b|_(1) - |b|_(2), N* = |b|_(1)/2", "[ncf]") {
    const Eigen::MatrixXd X = Eigen::MatrixXd::Identity(3, 3);
    const Eigen::VectorXd y = vec({3, 1, 0.5});  // b = X y with loss (1/2)(p - y)^2, ytilde = y
    const auto arch = HomogeneousArchitecture::diagonal(3, 2);
    const SquareLossNormalization half{.half = true, .mean = false};
    const Ncf<double> nd = make_ncf<double>(arch, X, y, half, 53);
    const auto cands = find_kkt_points_nonrigorous(nd, {});
    REQUIRE(!cands.empty());
    CHECK(std::abs(cands[0].value - 1.5) < 1e-12);
    const Ncf<IntervalD> ncf = make_ncf<IntervalD>(arch, X, y, half, 53);
    const KktExistence<IntervalD> ex = prove_kkt_point(ncf, cands[0].u, cands[0].mu);
    REQUIRE(ex.status == ProofStatus::proven);
    const TangentSpectrum<IntervalD> ts = tangent_spectrum(ncf, ex.u);
    REQUIRE(ts.status == ProofStatus::proven);
    CHECK(contains(ts.delta_max, 2.0));
    CHECK(contains(ts.ncf_value, 1.5));
    const ZeroPattern<IntervalD> zp = prove_zero_pattern(ncf, cands[0].u, cands[0].mu, 1e-8, ex.uniqueness_box);
    CHECK(zp.status == ProofStatus::proven);
    CHECK(zp.zero_indices.size() == 4);
    CHECK(zp.inside_uniqueness_box);
}

TEST_CASE("deep diagonal net (spec 9B): single-coordinate KKT points have Delta_max = L N", "[ncf]") {
    const Eigen::MatrixXd X = Eigen::MatrixXd::Identity(2, 2);
    const Eigen::VectorXd y = vec({3, 2});
    const auto arch = HomogeneousArchitecture::diagonal(2, 3);
    const SquareLossNormalization half{.half = true, .mean = false};
    const Ncf<double> nd = make_ncf<double>(arch, X, y, half, 53);
    const auto cands = find_kkt_points_nonrigorous(nd, {});
    REQUIRE(!cands.empty());
    const double Nstar = 3 * std::pow(3.0, -1.5);
    CHECK(std::abs(cands[0].value - Nstar) < 1e-12);
    const Ncf<IntervalMp> ncf = make_ncf<IntervalMp>(arch, X, y, half, 128);
    const KktExistence<IntervalMp> ex = prove_kkt_point(ncf, cands[0].u, cands[0].mu);
    REQUIRE(ex.status == ProofStatus::proven);
    const TangentSpectrum<IntervalMp> ts = tangent_spectrum(ncf, ex.u);
    REQUIRE(ts.status == ProofStatus::proven);
    CHECK(possibly_zero(ts.delta_max - IntervalMp(3) * ts.ncf_value));
    CHECK(width(ts.delta_max) < 1e-12);
}

TEST_CASE("a tie for the top NCF value (Delta = 0) is not certified", "[ncf]") {
    const Eigen::MatrixXd X = Eigen::MatrixXd::Identity(2, 2);
    const Eigen::VectorXd y = vec({1, 1});
    const auto arch = HomogeneousArchitecture::diagonal(2, 2);
    const Ncf<double> nd = make_ncf<double>(arch, X, y, {}, 53);
    Eigen::VectorXd u = vec({std::sqrt(0.5), 0, std::sqrt(0.5), 0});
    const KktCandidateNonrigorous c = polish_kkt_point_nonrigorous(nd, u, 5);
    const Ncf<IntervalD> ncf = make_ncf<IntervalD>(arch, X, y, {}, 53);
    const KktExistence<IntervalD> ex = prove_kkt_point(ncf, c.u, c.mu);
    // The KKT set is a circle (any unit (u_1, u_2) with u = v), so no box has a unique zero.
    CHECK(ex.status == ProofStatus::not_proven);
    CHECK_FALSE(ex.reason.empty());
}

TEST_CASE("two-layer square net: top KKT point has one active neuron, Lemma 17 balance, exact zero pattern",
          "[ncf]") {
    const auto teacher = HomogeneousArchitecture::feed_forward(4, {2}, HomActivation::square());
    const SphereTeacherData data = make_sphere_teacher_data(3, 4, 12, teacher);
    const auto arch = HomogeneousArchitecture::feed_forward(4, {3}, HomActivation::square());
    const Ncf<double> nd = make_ncf<double>(arch, data.X, data.y, {}, 53);
    const auto cands = find_kkt_points_nonrigorous(nd, {.starts = 12});
    REQUIRE(!cands.empty());
    const Ncf<IntervalD> ncf = make_ncf<IntervalD>(arch, data.X, data.y, {}, 53);
    const KktExistence<IntervalD> ex = prove_kkt_point(ncf, cands[0].u, cands[0].mu);
    REQUIRE(ex.status == ProofStatus::proven);
    const TangentSpectrum<IntervalD> ts = tangent_spectrum(ncf, ex.u);
    REQUIRE(ts.status == ProofStatus::proven);
    CHECK(certainly_positive(ts.ncf_value));
    const ZeroPattern<IntervalD> zp = prove_zero_pattern(ncf, cands[0].u, cands[0].mu, 1e-8, ex.uniqueness_box);
    REQUIRE(zp.status == ProofStatus::proven);
    CHECK(zp.zero_indices.size() == 10);  // two silent neurons: 2 x (4 + 1) entries
    CHECK(zp.inside_uniqueness_box);
    const auto bal = lemma17_balance(arch, zp.u);
    REQUIRE(bal.size() == 3);
    int exact = 0;
    for (const auto& e : bal) {
        CHECK(possibly_zero(e.residual));
        exact += e.exact_zero_pair;
    }
    CHECK(exact == 2);
    // Teeth: p = 1 instead of 2 breaks the balance of the active neuron.
    auto wrong = arch;
    wrong.activation = HomActivation::linear();
    int broken = 0;
    for (const auto& e : lemma17_balance(wrong, zp.u)) broken += !possibly_zero(e.residual);
    CHECK(broken == 1);
}

TEST_CASE("diagonal_gap_closed_form: |b|_(1) - |b|_(2) of b = X ytilde, ordered only when the top two are separated") {
    // X (3 x 2), ytilde = (1, -2): b = (1*1 - 2*3, 0*1 - 2*1, 2*1 - 2*(-1)) = (-5, -2, 4); |b| sorted 5, 4, 2: gap 1.
    Mat<IntervalD> X(3, 2);
    X << IntervalD(1), IntervalD(3), IntervalD(0), IntervalD(1), IntervalD(2), IntervalD(-1);
    Vec<IntervalD> yt(2);
    yt << IntervalD(1), IntervalD(-2);
    const DiagonalGap<IntervalD> g = diagonal_gap_closed_form(X, yt);
    CHECK(g.ordered);
    CHECK(contains(g.gap, 1.0));
    CHECK(width(g.gap) == 0);
    // A tie |b|_(1) = |b|_(2) (b = (-5, -2, 5)): the order is not certain.
    X(2, 1) = IntervalD::exact(-1.5);
    const DiagonalGap<IntervalD> t = diagonal_gap_closed_form(X, yt);
    CHECK_FALSE(t.ordered);
    // One coordinate: no second-largest entry, never ordered.
    const DiagonalGap<IntervalD> one = diagonal_gap_closed_form<IntervalD>(X.topRows(1), yt);
    CHECK_FALSE(one.ordered);
}

// ---- the quantities moved from the kh/ncf_kkt verifier body (issue 15), in both interval types.
TEST_CASE("radial_hessian_eigenvalue, distance_exponent and balance_residual_hull", "[kh][ncf_kkt]") {
    // L(L-1) N: 2 * 8 = 16 and 6 * 2 = 12; Delta/(Delta + 2 L^2 N): 6/(6 + 8 * 8) = 6/70 and 1/(1 + 18) = 1/19.
    CHECK(contains(radial_hessian_eigenvalue(IntervalD(8), 2), 16.0));
    CHECK(contains(radial_hessian_eigenvalue(IntervalD(2), 3), 12.0));
    CHECK(contains(distance_exponent(IntervalD(6), IntervalD(8), 2) * IntervalD(70), 6.0));  // 6/70
    const Precision pr(200);
    const IntervalMp k = distance_exponent(IntervalMp::from_decimal("1", pr), IntervalMp::from_decimal("1", pr), 3);
    CHECK(width(k * IntervalMp::from_decimal("19", pr)) < 1e-50);  // 1/19, tight at 200 bits
    CHECK(contains(k * IntervalMp::from_decimal("19", pr), 1.0));
    std::vector<BalanceEntry<IntervalD>> bal(3);
    bal[0].residual = IntervalD::bounds(-1e-10, 2e-10);
    bal[1].residual = IntervalD::bounds(-3e-10, 1e-10);
    bal[2].residual = IntervalD(0);
    const IntervalD h = balance_residual_hull(bal);
    CHECK(h.lower() == -3e-10);
    CHECK(h.upper() == 2e-10);
}
