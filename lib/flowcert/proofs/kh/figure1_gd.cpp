// The certified Figure-1 GD run; see figure1_gd.hpp.
#include "flowcert/proofs/kh/figure1_gd.hpp"

#include <flowcert/nets/homogeneous.hpp>
#include <flowcert/nets/random.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace flowcert::proofs::kh {

IMatrixD SquareNetSetting::W0() const {
    IMatrixD W(W0_direction.rows(), W0_direction.cols());
    for (Eigen::Index j = 0; j < W.rows(); ++j)
        for (Eigen::Index k = 0; k < W.cols(); ++k) W(j, k) = delta * IntervalD::exact(W0_direction(j, k));
    return W;
}
IVectorD SquareNetSetting::v0() const {
    IVectorD v(v0_direction.size());
    for (Eigen::Index j = 0; j < v.size(); ++j) v(j) = delta * IntervalD::exact(v0_direction(j));
    return v;
}

SquareNetSetting seeded_square_net_setting(int m, int d, int n, std::uint64_t data_seed, std::uint64_t init_seed,
                                           const std::string& delta, const std::string& h) {
    using namespace flowcert::nets;
    const auto teacher = HomogeneousArchitecture::feed_forward(d, {2}, HomActivation::square());
    const SphereTeacherData sd = make_sphere_teacher_data(data_seed, d, n, teacher);
    SquareNetSetting s{{sd.X, sd.y, IntervalD(1) / IntervalD(n)}, Eigen::MatrixXd(m, d), Eigen::VectorXd(m),
                       IntervalD::from_decimal(delta), IntervalD::from_decimal(h)};
    RandomStream rs(init_seed, "kh/theorem18_init", 0);
    Eigen::VectorXd g(m * d + m);
    for (Eigen::Index k = 0; k < g.size(); ++k) g(k) = rs.gaussian();
    g /= g.norm();  // in double: the resulting doubles ARE the direction (parameter order W row-major, then v)
    for (int j = 0; j < m; ++j) {
        for (int k = 0; k < d; ++k) s.W0_direction(j, k) = g(j * d + k);
        s.v0_direction(j) = g(m * d + j);
    }
    return s;
}

namespace {
NeuronNorms snapshot(const nets::SquareNetGd& gd) {
    NeuronNorms s;
    s.iteration = gd.iteration();
    s.W = gd.weights();
    s.v = gd.output_weights();
    for (Eigen::Index j = 0; j < s.W.rows(); ++j) {
        IntervalD acc = sqr(s.v(j));
        for (Eigen::Index k = 0; k < s.W.cols(); ++k) acc = acc + sqr(s.W(j, k));
        s.norm.push_back(sqrt(acc));
    }
    return s;
}
}  // namespace

CertifiedGdRun run_certified_gd(const SquareNetSetting& s, long steps, long block, const std::vector<long>& snapshots,
                                const nets::SquareNetGdOptions& options) {
    CertifiedGdRun run;
    nets::SquareNetGd gd(s.data.X, s.data.y, s.data.c, s.h, s.W0(), s.v0(), options);
    LossBlock cur{0, 0, gd.loss()};
    auto take_snapshot = [&] {
        if (std::find(snapshots.begin(), snapshots.end(), gd.iteration()) != snapshots.end())
            run.snapshots.push_back(snapshot(gd));
    };
    take_snapshot();
    for (long it = 1; it <= steps; ++it) {
        if (gd.step() != nets::GdStepStatus::ok) {
            run.reason = "GD step " + std::to_string(it) + ": " + gd.reason();
            run.loss.push_back(cur);
            run.steps = it - 1;
            return run;
        }
        if (cur.last - cur.first + 1 >= block) {
            run.loss.push_back(cur);
            run.conserved_consistent = run.conserved_consistent && gd.conserved_consistent();
            cur = {it, it, gd.loss()};
        } else {
            cur.last = it;
            cur.hull = hull(cur.hull, gd.loss());
        }
        take_snapshot();
    }
    run.loss.push_back(cur);
    run.conserved_consistent = run.conserved_consistent && gd.conserved_consistent();
    run.steps = steps;
    run.completed = true;
    run.max_width = gd.max_width();
    run.lohner_neurons = gd.lohner_count();
    run.reason = "all " + std::to_string(steps) + " steps certified";
    return run;
}

double loss_distance_upper(const CertifiedGdRun& run, long first, long last, const IntervalD& ref) {
    double sup = 0;
    long covered_to = first - 1;
    for (const LossBlock& b : run.loss) {
        if (b.last < first || b.first > last) continue;
        if (b.first > covered_to + 1) return std::numeric_limits<double>::infinity();
        sup = std::max(sup, mag(b.hull - ref));
        covered_to = std::max(covered_to, b.last);
    }
    return covered_to >= last ? sup : std::numeric_limits<double>::infinity();
}

SparsityAt sparsity(const NeuronNorms& snap, double rho_max, double a_min) {
    SparsityAt out;
    out.iteration = snap.iteration;
    for (std::size_t j = 0; j < snap.norm.size(); ++j) {
        const int jj = static_cast<int>(j);
        if (snap.norm[j].upper() < rho_max)
            out.certainly_small.push_back(jj);
        else if (snap.norm[j].lower() > a_min)
            out.certainly_large.push_back(jj);
        else
            out.undecided.push_back(jj);
    }
    return out;
}

}  // namespace flowcert::proofs::kh
