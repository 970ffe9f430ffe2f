// flowcert/proofs/kh/figure1_gd.hpp -- the Figure-1 GD run [KH2025, Fig. 1] certified step by step with
// nets::SquareNetGd, and the statements a report draws from it: the loss at every step (as a band per block of
// steps), the per-neuron norms at requested iterations (the sparsity at i1, i2), and the plateau distances
// sup |L_k - L_ref| over step ranges.
#pragma once

#include <flowcert/nets/square_net_gd.hpp>
#include <flowcert/proofs/kh/square_net_saddle.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace flowcert::proofs::kh {

// The seeded setting: data of nets::make_sphere_teacher_data(data_seed, d, n, 2-neuron square teacher), the
// project's unit initial direction (stream (init_seed, "kh/theorem18_init", 0), Gaussian, normalized in double:
// those doubles ARE the direction) times the decimal delta, mean loss c = 1/n, decimal step h.
struct SquareNetSetting {
    SquareNetData data;
    Eigen::MatrixXd W0_direction;  // m x d
    Eigen::VectorXd v0_direction;  // m
    IntervalD delta, h;
    IMatrixD W0() const;  // delta * direction, enclosed
    IVectorD v0() const;
};
SquareNetSetting seeded_square_net_setting(int m, int d, int n, std::uint64_t data_seed, std::uint64_t init_seed,
                                           const std::string& delta, const std::string& h);

struct NeuronNorms {
    long iteration = 0;
    std::vector<IntervalD> norm;  // sqrt(|w_j|^2 + v_j^2), enclosures
    IMatrixD W;                   // hulls at that iteration (for the heat map)
    IVectorD v;
};

struct LossBlock {  // the loss enclosures of every iterate first..last, hulled
    long first = 0, last = 0;
    IntervalD hull;
};

struct CertifiedGdRun {
    bool completed = false;     // every requested step was taken
    std::string reason = "not run";
    long steps = 0;
    std::vector<LossBlock> loss;  // consecutive blocks covering iterates 0..steps
    std::vector<NeuronNorms> snapshots;
    bool conserved_consistent = true;  // the C_j drift check held at every block end
    double max_width = 0;              // at the end
    int lohner_neurons = 0;
};

// Runs `steps` certified GD steps; `block` iterates per loss block; snapshots at the given iterations.
CertifiedGdRun run_certified_gd(const SquareNetSetting& s, long steps, long block, const std::vector<long>& snapshots,
                                const nets::SquareNetGdOptions& options = {});

// sup_k |L_k - ref| over the iterates first..last (an upper bound; +inf if the range is not covered), where
// `ref` is an enclosure of the reference value (L(0) or L(p*)).
double loss_distance_upper(const CertifiedGdRun& run, long first, long last, const IntervalD& ref);

struct SparsityAt {
    long iteration = 0;
    std::vector<int> certainly_small;  // norm < rho_max
    std::vector<int> certainly_large;  // norm > a_min
    std::vector<int> undecided;
};
SparsityAt sparsity(const NeuronNorms& snap, double rho_max, double a_min);

}  // namespace flowcert::proofs::kh
