// flowcert/proofs/kh/figure1_gd.hpp -- the Figure-1 GD run [KH2025, Fig. 1] certified step by step with
// nets::SquareNetGd, and the statements a report draws from it: the loss at every step (as a band per block of
// steps), the per-neuron norms at requested iterations (the sparsity at i1, i2), and the plateau distances
// sup |L_k - L_ref| over step ranges.
#pragma once

#include <flowcert/nets.hpp>
#include <flowcert/proofs/kh/square_net_saddle.hpp>
#include <flowcert/proofs/kh/square_net_trap.hpp>

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
// permutation_seed != 0: the samples (columns of X with their labels) in a seeded random order (stream
// (permutation_seed, "kh/figure1_sample_order", 0)); the exact GD is the same, only the summation order changes.
SquareNetSetting seeded_square_net_setting(int m, int d, int n, std::uint64_t data_seed, std::uint64_t init_seed,
                                           const std::string& delta, const std::string& h,
                                           std::uint64_t permutation_seed = 0);

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
// Both bounds of sup_k |L_k - ref| over first..last: the lower end is max over blocks of mig(hull - ref) (every
// iterate of a block is at least that far), the upper end max of mag(hull - ref); the upper end is +inf if the
// blocks do not cover the range (a failed run), the lower end then uses the blocks that are there.
IntervalD loss_distance(const CertifiedGdRun& run, long first, long last, const IntervalD& ref);
// Both bounds of sup_k L_k over first..last (as loss_distance with ref = 0; the loss is >= 0).
IntervalD loss_sup(const CertifiedGdRun& run, long first, long last);

// The distance |theta - p*| from the iterate of a snapshot to the one-neuron saddle p* put at neuron `active`
// (every other neuron 0): sqrt(|(w_a, v_a) - (w*, v*)|^2 + sum_{j != a} |(w_j, v_j)|^2) over the hulls.
IntervalD distance_to_saddle(const NeuronNorms& snap, int active, const OneNeuronSaddle& p);

// The same GD in plain double (NON-RIGOROUS; the comparison run of the report): the loss at every `every`-th
// iterate (and the last) and W, v at the requested iterations.
struct PlainGdRun {
    std::vector<long> iterate;
    std::vector<double> loss;
    std::vector<long> snapshot_iterate;
    std::vector<Eigen::MatrixXd> W;
    std::vector<Eigen::VectorXd> v;
};
PlainGdRun run_plain_gd_nonrigorous(const SquareNetSetting& s, long steps, long every, const std::vector<long>& snapshots);

struct SparsityAt {
    long iteration = 0;
    std::vector<int> certainly_small;  // norm < rho_max
    std::vector<int> certainly_large;  // norm > a_min
    std::vector<int> undecided;
};
SparsityAt sparsity(const NeuronNorms& snap, double rho_max, double a_min);

// ---- the pieces of the kh/figure1_gd report (moved from the verifier body, issue 15) ---------------------------

// |w0| of the setting's unit initial direction (normalized in double, so 1 up to rounding), enclosed.
IntervalD direction_norm(const SquareNetSetting& s);

// The neuron of largest upper norm in a snapshot (the first of equal ones) and [max lower, max upper] of the
// other neurons' norms (the sparsity at i1, i2 [KH2025, Fig. 1(b, c)]).
struct TopNeuron {
    int index = 0;
    IntervalD norm, others;
};
TopNeuron top_neuron(const NeuronNorms& s);

// The index of iterate `it` among the plain run's snapshots (-1 if it is not one), and the certified run's
// snapshot at `it` (nullptr if there is none).
int plain_index(const PlainGdRun& p, long it);
const NeuronNorms* certified_snapshot(const CertifiedGdRun& r, long it);

// The `count` neurons of largest |w_j|^2 + v_j^2 at the plain run's last iterate, by index (NON-RIGOROUS: a choice
// of the neurons in the Lohner frame from step 0; any choice is sound, only the widths differ).
std::vector<int> largest_neurons_nonrigorous(const PlainGdRun& p, long count);

// The first saddle p* [docs/kh.md#first-saddle-and-plateau-values]: the active neuron (largest) of the plain run's
// iterate i2 (or its first snapshot when i2 is not one) and its balance C = |w|^2 - 2 v^2 (exact double) give the
// non-rigorous guess; prove_one_neuron_saddle certifies p* on that balanced slice.
struct SaddleFromIterate {
    Eigen::Index active = 0;
    OneNeuronSaddle saddle;
};
SaddleFromIterate saddle_from_plain_iterate(const SquareNetSetting& s, const PlainGdRun& plain, long i2);

// The plateau trap at the certified run's last iterate N [docs/kh.md#plateau-trap]: the hand-off is the snapshot at
// N (active neuron: its top neuron) with the loss band of the last block; `radius` <= 0 uses the default R_b. When
// the run has no snapshot at N (the tube stopped before it), every premise is not proven with the run's reason.
PlateauTrap trap_at_last_iterate(const SquareNetSetting& s, const CertifiedGdRun& run, long N, const OneNeuronSaddle& ps,
                                 const RestrictedHessian& rh, double growth, double radius);

}  // namespace flowcert::proofs::kh
