// The certified Figure-1 GD run; see figure1_gd.hpp.
#include "flowcert/proofs/kh/figure1_gd.hpp"

#include <flowcert/nets.hpp>

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
                                           const std::string& delta, const std::string& h,
                                           std::uint64_t permutation_seed) {
    using namespace flowcert::nets;
    const auto teacher = HomogeneousArchitecture::feed_forward(d, {2}, HomActivation::square());
    SphereTeacherData sd = make_sphere_teacher_data(data_seed, d, n, teacher);
    if (permutation_seed != 0) {  // Fisher-Yates with the seeded stream
        RandomStream ps(permutation_seed, "kh/figure1_sample_order", 0);
        for (int i = n - 1; i > 0; --i) {
            const int k = static_cast<int>(ps.next_u64() % static_cast<std::uint64_t>(i + 1));
            sd.X.col(i).swap(sd.X.col(k));
            std::swap(sd.y(i), sd.y(k));
        }
    }
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

IntervalD loss_distance(const CertifiedGdRun& run, long first, long last, const IntervalD& ref) {
    // The lower end uses the covered blocks only (a sup over the range is at least the sup over a part of it).
    double lo = 0, hi = 0;
    long covered_to = first - 1;
    bool gap = false;
    for (const LossBlock& b : run.loss) {
        if (b.last < first || b.first > last) continue;
        if (b.first > covered_to + 1) gap = true;
        const IntervalD e = b.hull - ref;
        lo = std::max(lo, mig(e));
        hi = std::max(hi, mag(e));
        covered_to = std::max(covered_to, b.last);
    }
    if (gap || covered_to < last) hi = std::numeric_limits<double>::infinity();
    return IntervalD::bounds(lo, hi);
}

IntervalD loss_sup(const CertifiedGdRun& run, long first, long last) {
    return loss_distance(run, first, last, IntervalD(0));
}

IntervalD distance_to_saddle(const NeuronNorms& snap, int active, const OneNeuronSaddle& p) {
    IntervalD acc(0);
    for (Eigen::Index j = 0; j < snap.W.rows(); ++j) {
        if (j == active) {
            for (Eigen::Index k = 0; k < snap.W.cols(); ++k) acc = acc + sqr(snap.W(j, k) - p.w(k));
            acc = acc + sqr(snap.v(j) - p.v);
        } else {
            acc = acc + sqr(snap.norm[static_cast<std::size_t>(j)]);
        }
    }
    return sqrt(acc);
}

PlainGdRun run_plain_gd_nonrigorous(const SquareNetSetting& s, long steps, long every, const std::vector<long>& snapshots) {
    PlainGdRun out;
    Eigen::MatrixXd W(s.W0_direction.rows(), s.W0_direction.cols());
    Eigen::VectorXd v(s.v0_direction.size());
    const IMatrixD W0 = s.W0();
    const IVectorD v0 = s.v0();
    for (Eigen::Index j = 0; j < W.rows(); ++j) {
        for (Eigen::Index k = 0; k < W.cols(); ++k) W(j, k) = mid(W0(j, k));
        v(j) = mid(v0(j));
    }
    const double c = mid(s.data.c), h = mid(s.h);
    for (long k = 0; k <= steps; ++k) {
        if (std::find(snapshots.begin(), snapshots.end(), k) != snapshots.end()) {
            out.snapshot_iterate.push_back(k);
            out.W.push_back(W);
            out.v.push_back(v);
        }
        const double L = nets::square_net_gd_step_double(s.data.X, s.data.y, c, h, W, v);  // loss at iterate k
        if (k % every == 0 || k == steps) {
            out.iterate.push_back(k);
            out.loss.push_back(L);
        }
    }
    return out;
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

IntervalD direction_norm(const SquareNetSetting& s) {
    IntervalD dir2(0);
    for (Eigen::Index j = 0; j < s.v0_direction.size(); ++j) {
        dir2 = dir2 + sqr(IntervalD::exact(s.v0_direction(j)));
        for (Eigen::Index k = 0; k < s.W0_direction.cols(); ++k) dir2 = dir2 + sqr(IntervalD::exact(s.W0_direction(j, k)));
    }
    return sqrt(dir2);
}

TopNeuron top_neuron(const NeuronNorms& s) {
    TopNeuron t;
    for (std::size_t j = 1; j < s.norm.size(); ++j)
        if (s.norm[j].upper() > s.norm[static_cast<std::size_t>(t.index)].upper()) t.index = static_cast<int>(j);
    t.norm = s.norm[static_cast<std::size_t>(t.index)];
    double lo = 0, hi = 0;
    for (std::size_t j = 0; j < s.norm.size(); ++j)
        if (static_cast<int>(j) != t.index) {
            lo = std::max(lo, s.norm[j].lower());
            hi = std::max(hi, s.norm[j].upper());
        }
    t.others = IntervalD::bounds(lo, hi);
    return t;
}

int plain_index(const PlainGdRun& p, long it) {
    const auto f = std::find(p.snapshot_iterate.begin(), p.snapshot_iterate.end(), it);
    return f == p.snapshot_iterate.end() ? -1 : static_cast<int>(f - p.snapshot_iterate.begin());
}

const NeuronNorms* certified_snapshot(const CertifiedGdRun& r, long it) {
    const auto f = std::find_if(r.snapshots.begin(), r.snapshots.end(), [&](const NeuronNorms& sn) { return sn.iteration == it; });
    return f == r.snapshots.end() ? nullptr : &*f;
}

std::vector<int> largest_neurons_nonrigorous(const PlainGdRun& p, long count) {
    const Eigen::VectorXd last = p.W.back().rowwise().squaredNorm() + p.v.back().cwiseAbs2();
    const int m = static_cast<int>(last.size());
    std::vector<int> order(static_cast<std::size_t>(m));
    for (int j = 0; j < m; ++j) order[static_cast<std::size_t>(j)] = j;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return last(a) > last(b); });
    std::vector<int> out;
    for (long k = 0; k < std::min<long>(count, m); ++k) out.push_back(order[static_cast<std::size_t>(k)]);
    std::sort(out.begin(), out.end());
    return out;
}

SaddleFromIterate saddle_from_plain_iterate(const SquareNetSetting& s, const PlainGdRun& plain, long i2) {
    const std::size_t q = static_cast<std::size_t>(std::max(0, plain_index(plain, i2)));
    SaddleFromIterate out;
    (plain.W[q].rowwise().squaredNorm() + plain.v[q].cwiseAbs2()).maxCoeff(&out.active);
    const Eigen::VectorXd wg = plain.W[q].row(out.active).transpose();
    const double vg = plain.v[q](out.active), Cg = wg.squaredNorm() - 2 * vg * vg;
    const OneNeuronGuessNonrigorous g = one_neuron_saddle_guess_nonrigorous(s.data, wg, vg, Cg, 0);
    out.saddle = prove_one_neuron_saddle(s.data, g.w, g.v, IntervalD::exact(Cg));
    return out;
}

PlateauTrap trap_at_last_iterate(const SquareNetSetting& s, const CertifiedGdRun& run, long N, const OneNeuronSaddle& ps,
                                 const RestrictedHessian& rh, double growth, double radius) {
    PlateauTrapInput ti;
    if (!run.snapshots.empty() && run.snapshots.back().iteration == N) {
        ti.active = top_neuron(run.snapshots.back()).index;
        ti.W = run.snapshots.back().W;
        ti.v = run.snapshots.back().v;
    }
    ti.loss = run.loss.back().hull;  // contains L at the last iterate
    ti.h = s.h;
    ti.growth = growth;
    if (radius > 0) ti.radius = radius;
    PlateauTrap t;
    if (ti.W.size())
        t = prove_plateau_trap(s.data, ps, rh, ti);
    else  // the tube stopped before the last iterate: there is no hand-off iterate to start the trap from
        for (ProofResult* r : {&t.handoff, &t.escape, &t.descent, &t.step_inside, &t.shell})
            *r = ProofResult::not_proven("no hand-off iterate: " + run.reason);
    return t;
}

}  // namespace flowcert::proofs::kh
