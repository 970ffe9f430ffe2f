// flowcert/nets/relu_regression.hpp -- high-dimensional ReLU regression by gradient descent
// (the reconstructed setting of docs/rh.md, target paper [LWTM2026]).
//
// =====================================================================================
// RECONSTRUCTED DEFINITIONS -- the ONE place where they live.
// The body of [LWTM2026] was not available. Everything below is the reconstruction of
// spec sections 4-6 ([DERIVED]), NOT the paper's statements, notation or constants.
// Every verifier report quotes the strings in `reconstruction` verbatim.
// =====================================================================================
//
// Model m = 1: f_w(x) = relu(<w, x>).  Model m = 2: f(x) = relu(<w+, x>) - relu(<w-, x>).
// Loss L = 1/2 sum_i (f(x_i) - y_i)^2, relu'(0) = 0, GD with an exact step eta:
//   w_p <- w_p - eta s_p X^T D_p r,  r = f(X) - y,  D_p = diag(1[<w_p, x_i> > 0]),  s_+ = +1, s_- = -1.
// Primal-dual coordinates (spec 4.1, shifted so that no G^{-1} is needed): w_p = u_p + X^T a_p
// with u_p the non-span part of the initialization (u_p = 0 for a span initialization
// w_p(0) = X^T (c 1)), beta_p = X w_p = X u_p + G a_p:
//   a_p <- a_p - eta s_p D_p r,   beta_p <- beta_p - eta s_p G D_p r                   (spec 4.1)
// (the spec's alpha is a + G^{-1} X u; the updates are identical).
// Limit once the pattern is fixed from step K on (active sets S_p, U = union S_p,
// H = sum_p E_p G E_p restricted to U, r_K = r(K) on U):
//   r_U(k) = (I - eta H)^{k-K} r_K,
//   a_p(inf) = a_p(K) - s_p E_p H^{-1} r_K,  beta_p(inf) = beta_p(K) - s_p G E_p H^{-1} r_K,
// which for m = 1 is least squares on the active subset with frozen inactive coefficients,
//   a_S(inf) = G_SS^{-1} (y_S - (X u)_S - G_{S,S^c} a_{S^c}(K))                        (spec 4.2)
// Tail certificate (spec 6.4, generalized to m = 2): beta_p(k) = beta_p(inf) + s_p B_p r_U(k) with
//   B_p = G_{:,S_p} (H^{-1})_{S_p,:}, and ||r_U(k)||_2 <= ||r_K||_2 when rho = ||I - eta H||_2 <= 1.
// Global minimum (spec 4.3 / 6.6): m = 1: min L = 1/2 sum_{y_j <= 0} y_j^2, attained iff
//   X_{P+} w = y_{P+} and X_N w <= 0; m = 2: min L = 0.
// w* (spec 4.3, m = 1 only): w* = argmin ||w||_2 s.t. X_{P+} w = y_{P+}, X_N w <= 0;
//   KKT certificate (spec 6.7): w* = X^T alpha*, alpha* supported on A = P+ u T, G_AA alpha_A =
//   (y_{P+}; 0_T), alpha*_T <= 0, (G alpha*)_{N \ T} <= 0.
// Gap (spec 4.3): ||w(inf) - w*||^2 = ||u||^2 + 2 (X u)^T delta + delta^T G delta, delta = a(inf) - alpha*.
//
// Rigour: G = X X^T is enclosed from a double evaluation plus an a priori bound (Higham, Accuracy
// and Stability, Sec. 3.1: |fl(x^T y) - x^T y| <= gamma_d sum |x_k y_k| + d 2^-1074, any summation
// order, with sum |x_k y_k| <= ||x|| ||y|| by Cauchy-Schwarz); GD runs in IntervalD; inverses and
// solves use an approximate inverse R and the contraction c = ||I - R A||_inf < 1 (Neumann series,
// [Rump 1994, Thm 2.1] without Krawczyk iteration); eigenvalue bounds come from interval Cholesky
// (every symmetric member of an interval matrix whose interval Cholesky succeeds is positive
// definite, by inclusion monotonicity).
#pragma once

#include <flowcert/interval.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace flowcert::nets::rh {

// The reconstructed definitions, quoted by every report.
struct Reconstruction {
    static constexpr const char* provenance =
        "RECONSTRUCTION (spec lwtm-relu-highdim.md sections 4-6, [DERIVED]); the body of [LWTM2026] was not "
        "available, so these are NOT the paper's definitions or constants.";
    static constexpr const char* model_m1 =
        "m = 1: f(x) = relu(<w,x>), L(w) = 1/2 sum_i (f(x_i) - y_i)^2, relu'(0) = 0, GD w <- w - eta grad L";
    static constexpr const char* model_m2 =
        "m = 2: f(x) = relu(<w+,x>) - relu(<w-,x>), same loss, relu'(0) = 0, GD on (w+, w-)";
    static constexpr const char* coordinates =
        "primal-dual coordinates (spec 4.1): w = u + X^T a, beta = X w, a <- a - eta s D (f - y), "
        "beta <- beta - eta s G D (f - y); u = non-span part of w(0)";
    static constexpr const char* regime =
        "high-dimensional regime (hypothesis): near-orthogonality eps = max_{i!=j} |G_ij| / min_i G_ii <= eps_max "
        "(the case's eps_max <= 1/2; the paper's dimension condition is NOT FOUND), step size eta lambda_max(G) < 2, "
        "and an initialization with <w_p(0), x_i> > 0 for every p, i";
    static constexpr const char* limit =
        "w(inf) (spec 4.2): with the pattern fixed from step K on, a_S(inf) = G_SS^{-1}(y_S - (Xu)_S - "
        "G_{S,S^c} a_{S^c}(K)) (least squares on the active subset, inactive coefficients frozen); m = 2: "
        "a_p(inf) = a_p(K) - s_p E_p H^{-1} r_K, H = sum_p E_p G E_p";
    static constexpr const char* tail =
        "pattern never changes after K (spec 6.4): rho = ||I - eta H||_2 < 1, and for every neuron p and sample i "
        "|beta_p,i(inf)| > ||(G E_p H^{-1})_i||_2 ||r_K||_2 with the sign of the pattern at K";
    static constexpr const char* w_star =
        "w* (spec 4.3): w* = argmin ||w||_2 subject to X_{P+} w = y_{P+}, X_N w <= 0 (P+ = {y > 0}, N = {y <= 0}); "
        "NOT the linear min-norm interpolator X^T G^{-1} y";
    static constexpr const char* global_min =
        "global minimum (spec 4.3 / 6.6): m = 1: min L = 1/2 sum_{y_j <= 0} y_j^2, attained iff X_{P+} w = y_{P+} and "
        "X_N w <= 0; m = 2: min L = 0";
    static constexpr const char* gap =
        "gap (spec 4.3 / 6.8): ||w(inf) - w*||_2 and its ratios to sqrt(n_-/d) and sqrt(n/d), n_- = #{y <= 0}";
};

enum class Status { not_proven, proven, refuted };
const char* to_string(Status s);

// ---- instance ----------------------------------------------------------------------------
struct InstanceSpec {
    std::uint64_t seed = 0;
    int n = 0;                 // samples
    long d = 0;                // dimension
    int m = 1;                 // 1 or 2 neurons
    // "alternating" (y_i = +1 for even i, -1 for odd i), "teacher" (y_i = <w_t, x_i> / sqrt(d) in double,
    // w_t ~ N(0, I) from stream (seed, "teacher", 0)), or n comma-separated decimals / rationals.
    std::string labels = "alternating";
    std::string eta_d = "1/2";  // eta := the double nearest below eta_d / d (an exact binary number)
    std::string init = "span";  // "span": w_p(0) = X^T (c 1); "gaussian": w_p(0) = c g_p, g_p ~ N(0, I_d)
    std::string init_scale = "1/1000";  // c (decimal); for span init c is taken as the double nearest below
    std::vector<int> row_order;         // optional: sample i is stream row row_order[i] (a permutation)
};

// X is never stored: rows come from streams (seed, "X", i), generated in column chunks.
struct Instance {
    InstanceSpec spec;
    int n = 0;
    long d = 0;
    int m = 1;
    std::vector<IntervalD> y;        // labels (enclosures of the given decimals; exact for teacher/alternating)
    std::vector<int> negative;       // 1 if y_i <= 0 (certainly), 0 if y_i > 0 (certainly)
    int n_minus = 0;
    double eta = 0;                  // exact step size
    IntervalD eta_d;                 // eta * d (exact product enclosed)
    std::vector<IntervalD> G;        // n x n row-major enclosure of X X^T
    // per neuron p: output sign, initial a_p, enclosure of X u_p and ||u_p||^2
    std::vector<int> s;
    std::vector<std::vector<IntervalD>> a0, Xu;
    std::vector<IntervalD> uu;
    double gram_max_rel_radius = 0;  // max_ij rad(G_ij) / G_ii (diagnostic)
};

// Throws std::invalid_argument on a bad spec (unknown label mode, wrong number of labels, n < 1, d < n, ...).
Instance make_instance(const InstanceSpec& spec);

// Rigorous enclosure of G = X X^T for X given in row-major doubles (n x d), by the a priori bound
// above; exposed for tests.
std::vector<IntervalD> gram_enclosure_rowmajor(const std::vector<double>& X, int n, long d);

// ---- pattern stabilization and the limit ----------------------------------------------------
struct GdOptions {
    int max_steps = 5000;
    bool record_trace = false;  // keep the enclosures of beta_p(k) for the report's plots
};

struct PatternChange {
    int step;     // the pattern at `step` differs from the one at step - 1 here
    int neuron;
    int sample;
    int active;   // new state
};

struct PatternResult {
    Status init_active = Status::not_proven;  // every (neuron, sample) active at step 0
    IntervalD init_min_beta = IntervalD::entire();  // min over (p, i) of <w_p(0), x_i>
    std::string init_reason = "not run";
    int init_witness_neuron = -1, init_witness_sample = -1;
    IntervalD init_witness_beta;

    Status signs = Status::not_proven;  // every sign determined at every step 0..tail_step
    std::string signs_reason = "not run";
    int undetermined_step = -1, undetermined_neuron = -1, undetermined_sample = -1;
    IntervalD undetermined_beta;

    Status tail = Status::not_proven;   // pattern never changes after tail_step (spec 6.4)
    std::string tail_reason = "not run";
    int K = 0;                          // last step at which the pattern changed (0: never)
    int tail_step = -1;                 // step at which the tail certificate succeeded
    std::vector<PatternChange> changes;
    std::vector<std::vector<int>> pattern;  // [p][i] final pattern (1 active)
    IntervalD lambda_min, lambda_max;       // of H_UU (valid when tail == proven)
    IntervalD r_norm;                       // ||r_K|| on U
    // The last tail attempt (also when it failed): rho = ||I - eta H_UU||_2 of its pattern, and the
    // smallest signed margin min_{p,i} s (beta_p,i(inf) -+ ||B_p,i|| ||r||) (> 0 for every (p, i)
    // proves the pattern for all later steps; s = +1 active, -1 inactive).
    bool tail_attempted = false;
    int tail_attempt_step = -1;
    bool rho_known = false;
    IntervalD rho = IntervalD::entire();
    std::string rho_reason = "no step with a stable pattern";
    bool margin_known = false;
    IntervalD margin = IntervalD::entire();
    std::string margin_reason = "no step with a stable pattern";
    double tail_margin = 0;                 // lower(margin)
    int worst_neuron = -1, worst_sample = -1;

    // limit (valid when tail == proven)
    std::vector<std::vector<IntervalD>> a_inf, beta_inf;
    IntervalD loss_inf;
    Status global_min = Status::not_proven;  // spec 6.6
    std::string global_min_reason = "not run";
    IntervalD loss_min;                      // the global minimum value
    IntervalD fit_error;                     // max_{i in U} |beta-combination(inf) - y_i| (should be ~0)
    // cross-check of spec 4.2 (m = 1): the enclosure of a_S(inf) from G_SS^{-1}(...) intersects ours
    Status ls_crosscheck = Status::not_proven;
    // when GdOptions::record_trace: trace[k][p][i] encloses <w_p(k), x_i>, k = 0..last step run
    std::vector<std::vector<std::vector<IntervalD>>> trace;
};

PatternResult certify_pattern_and_limit(const Instance& inst, const GdOptions& options = {});

// ---- w* and the gap (m = 1) ------------------------------------------------------------------
struct WStarResult {
    Status status = Status::not_proven;  // proven = the KKT certificate holds (all three parts below)
    std::string reason = "not run";
    std::vector<int> tight;              // T (indices into N)
    int active_set_iterations = 0;       // of the non-rigorous active-set guess
    bool solved = false;                 // the verified solve of G_AA alpha_A = (y_P+; 0_T) succeeded
    std::string solve_reason = "not run";
    std::vector<IntervalD> alpha;        // n, zero outside A = P+ u T (when solved)
    std::vector<IntervalD> beta;         // G alpha (predictions of w*)
    bool has_tight = false, has_slack = false;
    IntervalD max_multiplier;            // max_{j in T} alpha*_j (dual feasibility: <= 0), when has_tight
    IntervalD max_slack;                 // max_{j in N \ T} <w*, x_j> (primal feasibility: <= 0), when has_slack
};
// tight_guess: use this T instead of the active-set guess (tests: a wrong T is not certified).
WStarResult certify_w_star(const Instance& inst, const std::vector<int>* tight_guess = nullptr);

// eta * lambda_max(G) (verified symmetric eigenvalue bounds; entire if they fail). The reconstructed
// step-size hypothesis is eta * lambda_max(G) < 2.
IntervalD step_size_ratio(const Instance& inst);

struct NearOrthogonality {
    IntervalD eps;  // max_{i != j} |G_ij| / min_i G_ii
};
NearOrthogonality near_orthogonality(const Instance& inst);

struct GapResult {
    Status status = Status::not_proven;
    std::string reason = "not run";
    IntervalD gap, ratio_n_minus, ratio_n;  // ||w(inf) - w*||, / sqrt(n_-/d), / sqrt(n/d)
    IntervalD gap_sq;
};
GapResult enclose_gap(const Instance& inst, const PatternResult& pattern, const WStarResult& wstar);


}  // namespace flowcert::nets::rh
