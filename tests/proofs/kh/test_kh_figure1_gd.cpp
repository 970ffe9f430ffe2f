// Tests of the certified square-net GD run driver (proofs/kh/figure1_gd) on a small seeded setting.
#include <catch2/catch.hpp>

#include <boost/multiprecision/cpp_bin_float.hpp>

#include <flowcert/proofs/kh/figure1_gd.hpp>

#include <algorithm>
#include <cmath>

using namespace flowcert;
using namespace flowcert::proofs::kh;
using Big = boost::multiprecision::cpp_bin_float_50;

namespace {
// 50-digit GD from the same exact reals (delta = 1, h = 1/50, c = 1/n); returns the loss at every iterate and
// the neuron norms at the end.
std::vector<Big> reference_losses(const SquareNetSetting& s, int steps, std::vector<Big>& norms) {
    const int m = static_cast<int>(s.W0_direction.rows()), d = static_cast<int>(s.W0_direction.cols());
    const int n = s.data.samples();
    std::vector<std::vector<Big>> W(m, std::vector<Big>(d));
    std::vector<Big> v(m), L;
    for (int j = 0; j < m; ++j) {
        for (int k = 0; k < d; ++k) W[j][k] = s.W0_direction(j, k);
        v[j] = s.v0_direction(j);
    }
    const Big c = Big(1) / n, h = Big(1) / 50;
    for (int it = 0; it <= steps; ++it) {
        std::vector<Big> r(n);
        Big loss = 0;
        for (int i = 0; i < n; ++i) {
            Big p = 0;
            for (int j = 0; j < m; ++j) {
                Big z = 0;
                for (int k = 0; k < d; ++k) z += W[j][k] * Big(s.data.X(k, i));
                p += v[j] * z * z;
            }
            r[i] = p - Big(s.data.y(i));
            loss += r[i] * r[i];
        }
        L.push_back(c * loss);
        if (it == steps) break;
        auto Wn = W;
        auto vn = v;
        for (int j = 0; j < m; ++j) {
            std::vector<Big> Mw(d, Big(0));
            for (int i = 0; i < n; ++i) {
                Big z = 0;
                for (int k = 0; k < d; ++k) z += W[j][k] * Big(s.data.X(k, i));
                for (int k = 0; k < d; ++k) Mw[k] += r[i] * z * Big(s.data.X(k, i));
            }
            Big q = 0;
            for (int k = 0; k < d; ++k) q += W[j][k] * Mw[k];
            for (int k = 0; k < d; ++k) Wn[j][k] -= 4 * c * h * v[j] * Mw[k];
            vn[j] -= 2 * c * h * q;
        }
        W = Wn;
        v = vn;
    }
    norms.clear();
    for (int j = 0; j < m; ++j) {
        Big a = v[j] * v[j];
        for (int k = 0; k < d; ++k) a += W[j][k] * W[j][k];
        norms.push_back(sqrt(a));
    }
    return L;
}
bool in(const IntervalD& x, const Big& b) { return Big(x.lower()) <= b && b <= Big(x.upper()); }
}  // namespace

TEST_CASE("the certified GD run encloses the 50-digit losses block by block and the norms at its snapshots",
          "[kh][figure1_gd]") {
    const SquareNetSetting s = seeded_square_net_setting(4, 5, 10, 1, 1, "1", "0.02");
    nets::SquareNetGdOptions opt;
    opt.lohner_from_start = {0, 1, 2, 3};
    const CertifiedGdRun run = run_certified_gd(s, 300, 25, {0, 300}, opt);
    INFO(run.reason);
    REQUIRE(run.completed);
    CHECK(run.conserved_consistent);
    std::vector<Big> norms;
    const std::vector<Big> L = reference_losses(s, 300, norms);
    long covered = -1;
    for (const LossBlock& b : run.loss) {
        CHECK(b.first == covered + 1);
        covered = b.last;
        for (long k = b.first; k <= b.last; ++k) CHECK(in(b.hull, L[static_cast<std::size_t>(k)]));
    }
    CHECK(covered == 300);
    REQUIRE(run.snapshots.size() == 2);
    for (std::size_t j = 0; j < norms.size(); ++j) CHECK(in(run.snapshots[1].norm[j], norms[j]));
    // The plateau distance bounds the reference one, and a range outside the run is not covered.
    const IntervalD L0 = loss_at_origin(s.data);
    const double dist = loss_distance_upper(run, 0, 300, L0);
    Big ref = 0;
    for (const Big& l : L) ref = std::max(ref, abs(l - Big(mid(L0))));
    CHECK(Big(dist) >= ref - Big(1e-15));
    CHECK(std::isinf(loss_distance_upper(run, 0, 301, L0)));
    // Sparsity classification: rho_max between the two smallest reference norms, a_min between the two largest.
    std::vector<double> sorted;
    for (const Big& b : norms) sorted.push_back(static_cast<double>(b));
    std::sort(sorted.begin(), sorted.end());
    const SparsityAt sp = sparsity(run.snapshots[1], 0.5 * (sorted[0] + sorted[1]), 0.5 * (sorted[2] + sorted[3]));
    REQUIRE(sp.certainly_small.size() == 1);
    REQUIRE(sp.certainly_large.size() == 1);
    CHECK(sp.undecided.size() == 2);
    CHECK(static_cast<double>(norms[static_cast<std::size_t>(sp.certainly_small[0])]) == sorted[0]);
    CHECK(static_cast<double>(norms[static_cast<std::size_t>(sp.certainly_large[0])]) == sorted[3]);
}

// ---- the pieces moved from the kh/figure1_gd verifier body (issue 15).
TEST_CASE("top_neuron, snapshot lookup and the Lohner-frame choice on hand-made snapshots", "[kh][figure1_gd]") {
    NeuronNorms s;
    s.iteration = 7;
    s.norm = {IntervalD::bounds(0.1, 0.2), IntervalD::bounds(2, 3), IntervalD::bounds(0.3, 0.5), IntervalD::bounds(0.05, 0.4)};
    const TopNeuron t = top_neuron(s);
    CHECK(t.index == 1);
    CHECK(t.norm.lower() == 2);
    CHECK(t.others.lower() == 0.3);  // max of the other lower ends
    CHECK(t.others.upper() == 0.5);  // max of the other upper ends
    CertifiedGdRun run;
    run.snapshots = {s};
    CHECK(certified_snapshot(run, 7) == &run.snapshots[0]);
    CHECK(certified_snapshot(run, 8) == nullptr);
    PlainGdRun p;
    p.snapshot_iterate = {3, 9};
    CHECK(plain_index(p, 9) == 1);
    CHECK(plain_index(p, 4) == -1);
    p.W = {Eigen::MatrixXd::Zero(3, 2)};
    p.v = {Eigen::VectorXd::Zero(3)};
    p.W.back() << 1, 0, 0, 3, 2, 0;  // |w_j|^2 + v_j^2 = 1, 9 + 1, 4
    p.v.back() << 0, 1, 0;
    CHECK(largest_neurons_nonrigorous(p, 2) == std::vector<int>{1, 2});
    CHECK(largest_neurons_nonrigorous(p, 5) == std::vector<int>{0, 1, 2});
}

TEST_CASE("direction_norm, the saddle from the plain run and the trap without a hand-off iterate", "[kh][figure1_gd]") {
    const SquareNetSetting s = seeded_square_net_setting(4, 5, 10, 1, 1, "1", "0.02");
    const IntervalD n = direction_norm(s);
    CHECK(n.lower() > 1 - 1e-14);
    CHECK(n.upper() < 1 + 1e-14);
    // |w0|^2 recomputed in 50 digits from the same doubles
    Big r = 0;
    for (Eigen::Index j = 0; j < s.v0_direction.size(); ++j) {
        r += Big(s.v0_direction(j)) * Big(s.v0_direction(j));
        for (Eigen::Index k = 0; k < s.W0_direction.cols(); ++k) r += Big(s.W0_direction(j, k)) * Big(s.W0_direction(j, k));
    }
    CHECK(in(n, sqrt(r)));
    // The tube stopped before N: every trap premise is not proven, naming the run's reason.
    CertifiedGdRun run;
    run.reason = "stopped at 12";
    run.loss = {LossBlock{0, 12, IntervalD::bounds(0, 1)}};
    const PlateauTrap t = trap_at_last_iterate(s, run, 100, OneNeuronSaddle{}, RestrictedHessian{}, 2, 0);
    for (const ProofResult* q : {&t.handoff, &t.escape, &t.descent, &t.step_inside, &t.shell}) {
        CHECK_FALSE(q->is_proven());
        CHECK(q->reason == "no hand-off iterate: stopped at 12");
    }
}
