// flowcert/nets/relu_regression.hpp -- the model of [LWTM2026] as reconstructed in docs/rh.md: seeded
// high-dimensional data, labels, initialization, the rigorous Gram enclosure, and the interval gradient-descent
// map in primal-dual coordinates. The proof steps built on it (pattern stabilization, tail, w*, gap) are in
// flowcert/proofs/rh.
//
// =====================================================================================
// RECONSTRUCTED DEFINITIONS -- the ONE place where they live (struct Reconstruction).
// The body of [LWTM2026] was not available: everything here is the reconstruction of
// docs/rh.md ("Reconstructed definitions", [DERIVED]), NOT the paper's statements, notation or
// constants. Every rh report quotes the strings of Reconstruction verbatim.
// =====================================================================================
//
// Model m = 1: f_w(x) = relu(<w, x>).  Model m = 2: f(x) = relu(<w+, x>) - relu(<w-, x>).
// Model m even: f(x) = sum_{p < m/2} relu(<w_p, x>) - sum_{p >= m/2} relu(<w_p, x>) (fixed output signs).
// Loss L = 1/2 sum_i (f(x_i) - y_i)^2, relu'(0) = 0, GD with an exact step eta:
//   w_p <- w_p - eta s_p X^T D_p r,  r = f(X) - y,  D_p = diag(1[<w_p, x_i> > 0]),  s_+ = +1, s_- = -1.
// Primal-dual coordinates [docs/rh.md#coordinates], shifted so that no G^{-1} is needed:
// w_p = u_p + X^T a_p, where u_p = w_p(0) - X^T a_p(0) is the part of the initialization that is not
// written in data-span coordinates (span init w_p(0) = X^T (c 1): u_p = 0, a_p(0) = c 1; Gaussian init
// w_p(0) = c g_p: u_p = w_p(0), a_p(0) = 0), and beta_p = X w_p = X u_p + G a_p:
//   a_p <- a_p - eta s_p D_p r,   beta_p <- beta_p - eta s_p G D_p r.
//
// Rigour: G = X X^T is enclosed from a double evaluation plus an a priori bound (Higham, Accuracy and
// Stability, Sec. 3.1: |fl(x^T y) - x^T y| <= gamma_d sum |x_k y_k| + d 2^-1074, any summation order, with
// sum |x_k y_k| <= ||x|| ||y|| by Cauchy-Schwarz); the GD map runs in IntervalD.
#pragma once

#if !defined(FLOWCERT_NETS_INTERNAL)
#error "include <flowcert/nets.hpp>, not the internal headers"
#endif

#include <flowcert/interval.hpp>
#include <flowcert/linalg.hpp>
#include <flowcert/nets/covariance.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace flowcert::nets::rh {

// The reconstructed definitions, quoted by every report (docs/rh.md#reconstructed-definitions).
struct Reconstruction {
    static constexpr const char* provenance =
        "RECONSTRUCTION ([DERIVED], docs/rh.md#reconstructed-definitions); the body of [LWTM2026] was not "
        "available, so these are NOT the paper's definitions or constants.";
    static constexpr const char* model_m1 =
        "m = 1: f(x) = relu(<w,x>), L(w) = 1/2 sum_i (f(x_i) - y_i)^2, relu'(0) = 0, GD w <- w - eta grad L "
        "[docs/rh.md#model]";
    static constexpr const char* model_m2 =
        "m = 2: f(x) = relu(<w+,x>) - relu(<w-,x>), same loss, relu'(0) = 0, GD on (w+, w-) [docs/rh.md#model]";
    static constexpr const char* model_m_even =
        "m even: f(x) = sum_{p < m/2} relu(<w_p,x>) - sum_{p >= m/2} relu(<w_p,x>) (m/2 neurons of each output "
        "sign), same loss, relu'(0) = 0, GD on every w_p with the same eta [docs/rh.md#w-star-m2]";
    static constexpr const char* coordinates =
        "primal-dual coordinates: w = u + X^T a, beta = X w, a <- a - eta s D (f - y), beta <- beta - eta s G D (f - y); "
        "u = w(0) - X^T a(0) (0 for the span initialization, w(0) for the Gaussian one) [docs/rh.md#coordinates]";
    static constexpr const char* regime =
        "high-dimensional regime (hypothesis): near-orthogonality eps = max_{i!=j} |G_ij| / min_i G_ii <= eps_max "
        "(the case's eps_max <= 1/2; the paper's dimension condition is NOT FOUND), step size eta lambda_max(G) < 2, "
        "and an initialization with <w_p(0), x_i> > 0 for every p, i [docs/rh.md#regime]";
    // Why each hypothesis check is marked reconstructed (cert::CheckBuilder::reconstructed): a conclusion
    // disproven under them refutes this reconstruction, not [LWTM2026] (docs/rh.md#roles).
    static constexpr const char* regime_mark =
        "eps <= eps_max stands for the paper's dimension condition, which is NOT FOUND [docs/rh.md#regime]";
    static constexpr const char* step_size_mark =
        "eta lambda_max(G) < 2 is our stability condition; the paper's step-size condition is NOT FOUND "
        "[docs/rh.md#step-size]";
    static constexpr const char* initialization_mark =
        "an initialization activating every sample is our condition; the paper's is NOT FOUND "
        "[docs/rh.md#initialization]";
    static constexpr const char* limit =
        "w(inf): with the pattern fixed from step K on, a_p(inf) = a_p(K) - s_p E_p H^{-1} r_K, H = sum_p E_p G E_p "
        "on the active samples (m = 1: least squares on the active subset, inactive coefficients frozen) "
        "[docs/rh.md#limit]";
    static constexpr const char* tail =
        "pattern never changes after K: rho = ||I - eta H||_2 < 1, and for every neuron p and sample i "
        "|beta_p,i(inf)| > ||(G E_p H^{-1})_i||_2 ||r_K||_2 with the sign of the pattern at K [docs/rh.md#tail]";
    static constexpr const char* w_star =
        "w*: w* = argmin ||w||_2 subject to X_{P+} w = y_{P+}, X_N w <= 0 (P+ = {y > 0}, N = {y <= 0}); "
        "NOT the linear min-norm interpolator X^T G^{-1} y [docs/rh.md#w-star]";
    static constexpr const char* w_star_m2 =
        "w* (m = 2): w* = argmin ||w+||^2 + ||w-||^2 subject to relu(X w+) - relu(X w-) = y (the union over "
        "activation patterns of convex QPs), labels y_i != 0; certified as the natural-pattern QP pair "
        "(w+ fits P+ with X_N w+ <= 0, w- fits N with X_{P+} w- <= 0) plus a first-order bound on every other "
        "pattern class [docs/rh.md#w-star-m2]";
    static constexpr const char* w_star_m =
        "w* (m even, m/2 neurons per sign): w* = argmin sum_p ||w_p||^2 subject to f(x_i) = y_i for every i, labels "
        "y_i != 0; certified as the symmetric split w_p = w+-* / (m/2) of the m = 2 natural pair, by its first-order "
        "separation margins and the deficit condition alpha_own,i lambda_max(G) < 2 |y_i| [docs/rh.md#w-star-m2]";
    static constexpr const char* global_min =
        "global minimum: m = 1: min L = 1/2 sum_{y_j <= 0} y_j^2, attained iff X_{P+} w = y_{P+} and X_N w <= 0; "
        "m = 2: min L = 0 [docs/rh.md#global-minimum]";
    static constexpr const char* gap =
        "gap: ||w(inf) - w*||_2 and its ratios to sqrt(n_-/tau), sqrt(n/tau) for tau = ||lambda||_1 = tr Sigma and "
        "tau = d (equal when isotropic), n_- = #{y <= 0} [docs/rh.md#gap]";
    static constexpr const char* covariance =
        "data: x_ik = fl(s_k g_ik), g_ik the stream Gaussians, Sigma = diag(lambda), lambda_k := s_k^2 with the double "
        "scales s_k = 1 (isotropic), RN(k^(-alpha/2)) (power_law), s_1 = RN(sqrt(spike)) and s_k = 1 else (spike), "
        "RN(sqrt(lambda_k)) (diagonal); step size eta = eta_tau / tau and, with init_scale_trace, init scale "
        "c = c~ / tau, tau = tr Sigma (= d isotropic); the paper's covariance assumptions are NOT FOUND "
        "[docs/rh.md#covariance]";
};

// ---- instance ----------------------------------------------------------------------------
struct InstanceSpec {
    std::uint64_t seed = 0;
    int n = 0;                 // samples
    long d = 0;                // dimension
    int m = 1;                 // 1, or an even number of neurons (s_p = +1 for p < m/2, -1 else)
    // "alternating" (y_i = +1 for even i, -1 for odd i), "teacher" (y_i = <w_t, x_i> / sqrt(d) in double,
    // w_t ~ N(0, I) from stream (seed, "teacher", 0)), or n comma-separated decimals / rationals.
    std::string labels = "alternating";
    // eta := the lower end of the enclosure of eta_d / tau (an exact double), tau = tr Sigma (= d when isotropic)
    std::string eta_d = "1/2";
    std::string init = "span";  // "span": w_p(0) = X^T (c 1); "gaussian": w_p(0) = c g_p, g_p ~ N(0, I_d)
    std::string init_scale = "1/1000";  // c (decimal); for span init c is taken as the double nearest below
    bool init_per_trace = false;        // true: init_scale is c~ = c tau, c := enclosure of c~ / tau
    std::vector<int> row_order;         // optional: sample i is stream row row_order[i] (a permutation)
    CovarianceSpec covariance;          // data x_ik = fl(s_k g_ik) [covariance.hpp]
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
    IntervalD eta;                   // step size: the exact double of the spec (a point interval)
    IntervalD eta_d;                 // eta * d (exact product enclosed)
    IntervalD eta_trace;             // eta * tr Sigma (= eta_d when isotropic)
    IntervalD init_c;                // the init scale c used (span: an exact double)
    Covariance cov;                  // the data covariance (trace = ||lambda||_1, effective ranks)
    linalg::IMatrixD G;              // n x n enclosure of X X^T (symmetric entrywise)
    // per neuron p: output sign, initial a_p, enclosure of X u_p and ||u_p||^2
    std::vector<int> s;
    std::vector<std::vector<IntervalD>> a0, Xu;
    std::vector<IntervalD> uu;
    double gram_max_rel_radius = 0;  // max_ij rad(G_ij) / G_ii (diagnostic)
};

// The explicit label list of InstanceSpec::labels: the entries between commas, spaces dropped.
std::vector<std::string> split_commas(const std::string& s);

// Throws std::invalid_argument on a bad spec (unknown label mode, wrong number of labels, n < 1, d < n,
// teacher labels with a non-isotropic covariance, a bad covariance, ...).
Instance make_instance(const InstanceSpec& spec);

// Rigorous enclosure of G = X X^T for X given in row-major doubles (n x d), by the a priori bound
// above; exposed for tests.
linalg::IMatrixD gram_enclosure_rowmajor(const std::vector<double>& X, int n, long d);

// ---- the interval GD map [docs/rh.md#interval-gd] -----------------------------------------
using IVec = std::vector<IntervalD>;
using Pattern = std::vector<std::vector<int>>;  // [p][i]: 1 if <w_p, x_i> > 0

// beta_p(0) = X u_p + G a_p(0).
std::vector<IVec> initial_predictions(const Instance& inst);
// r = f(X) - y for the pattern P: r_i = sum_{p: P[p][i]} s_p beta_p,i - y_i.
IVec residual(const Instance& inst, const Pattern& P, const std::vector<IVec>& beta);
// One GD step with pattern P and residual r = residual(inst, P, beta): a_p -= eta s_p D_p r and
// beta_p -= eta s_p G D_p r, with the diagonal term grouped with beta_p,i itself (no dependency effect):
//   beta_p,i <- (1 - eta G_ii D_p,i) beta_p,i - eta s_p G_ii D_p,i rbar_p,i - eta s_p sum_{j != i} G_ij D_p,j r_j,
// rbar_p,i = sum_{q != p} s_q D_q,i beta_q,i - y_i (so r_i = s_p D_p,i beta_p,i + rbar_p,i exactly).
void gd_step(const Instance& inst, const Pattern& P, const IVec& r, std::vector<IVec>& a, std::vector<IVec>& beta);

}  // namespace flowcert::nets::rh
