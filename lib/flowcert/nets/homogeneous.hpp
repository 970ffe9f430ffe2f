// flowcert/nets/homogeneous.hpp -- L-positively homogeneous models H(x; w) for Kumar-Haupt [KH2025]
// (JMLR 26, paper 25-1089; spec: shared/papers/kh-beyond-origin.md, sections 3, 4, 6.3, 9).
//
// Models (one architecture struct, three families):
//   * weighted_squares  H(x; w) = sum_k s_k w_k^2 x_k, s_k in {+1, -1}.  L = 2.
//       The paper's Example 1 is s = (+1, +1) [KH2025, Example 1, eq. (7)]; s = (+1, +1, -1) is the
//       counterexample to eq. (16) of Lemma 20 (spec section 4).
//   * diagonal          H(x; u^(1..D)) = sum_k (prod_f u^(f)_k) x_k.  L = D.  D = 2 is spec section 9A,
//       D = 3 is 9B. Parameters are factor-major: w[f*d + k] = u^(f)_k.
//   * feed_forward      H(x; W_1..W_K, v) = v^T s(W_K s(... s(W_1 x))), no biases [KH2025, eq. (9)].
//       Parameters: W_1 (k_1 x d, row-major), W_2 (k_2 x k_1), ..., W_K, then v (k_K).
//       s(z) = z^2 (degree 2), max(z,0)^p (degree p), z (degree 1, deep linear), ReLU (degree 1).
//       Homogeneity order L = 1 + p + ... + p^K (computed, spec section 3): 3 for Figure 1, 7 for Figure 4.
//
// Every evaluation is templated on the scalar T: IntervalD / IntervalMp (rigorous enclosures of the
// exact values over the boxes given) or plain double (NON-RIGOROUS, for searches and starting points).
// Derivatives are exact formulas (weighted_squares, diagonal, feed_forward with K = 1; written out in
// homogeneous.cpp with their derivation) or, for K >= 2, reverse mode for the gradient and
// forward-over-reverse (dual numbers over T) Hessian-vector products with the unit vectors for the
// Hessian. Over intervals both give rigorous enclosures of the derivatives at every point of the box.
//
// Non-smooth activations: the gradient of a ReLU net and the Hessian of a max(z,0)^2 net are not
// defined where a pre-activation is 0. Evaluations that would need them return status `refused`
// with the reason (a pre-activation enclosure that contains 0), never a guessed value.
//
// Loss [KH2025, eq. (1)]: L(w) = c * sum_i (H(x_i; w) - y_i)^2 with c a parameter: the paper uses c = 1
// (no 1/2, a sum; so ytilde = -l'(0, y) = 2y, App. E); the authors' Fig. 1 code uses the mean (c = 1/n).
#pragma once

#if !defined(FLOWCERT_NETS_INTERNAL)
#error "include <flowcert/nets.hpp>, not the internal headers"
#endif

#include <Eigen/Core>

#include <flowcert/linalg.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace flowcert::nets {

template <class T> using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;
template <class T> using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;

enum class HomActivationKind { square, relu_power, linear, relu };

struct HomActivation {
    HomActivationKind kind = HomActivationKind::square;
    int p = 2;  // exponent for relu_power (>= 1); ignored otherwise

    static HomActivation square() { return {HomActivationKind::square, 2}; }
    static HomActivation relu_power(int p) { return {HomActivationKind::relu_power, p}; }
    static HomActivation linear() { return {HomActivationKind::linear, 1}; }
    static HomActivation relu() { return {HomActivationKind::relu, 1}; }
    // Positive-homogeneity degree of s: s(c z) = c^degree s(z) for c >= 0.
    int degree() const;
    // Gradient of the network defined everywhere (s is C^1).
    bool has_continuous_derivative() const;
    // Hessian of the network defined everywhere (s is C^2).
    bool has_continuous_second_derivative() const;
    // "z^2", "max(z,0)^3", "z", "relu".
    std::string name() const;
};

enum class ModelKind { weighted_squares, diagonal, feed_forward };

struct HomogeneousArchitecture {
    ModelKind kind = ModelKind::weighted_squares;
    int input_dim = 0;
    std::vector<int> signs;   // weighted_squares: s_k in {+1, -1}, size input_dim
    int depth = 2;            // diagonal: number of factors D >= 1
    std::vector<int> hidden;  // feed_forward: k_1..k_K (K >= 1)
    HomActivation activation;    // feed_forward

    static HomogeneousArchitecture weighted_squares(std::vector<int> signs);
    static HomogeneousArchitecture example1() { return weighted_squares({1, 1}); }  // [KH2025, Example 1]
    static HomogeneousArchitecture diagonal(int input_dim, int depth);
    static HomogeneousArchitecture feed_forward(int input_dim, std::vector<int> hidden, HomActivation activation);

    int parameter_count() const;
    // The homogeneity order L with H(x; c w) = c^L H(x; w), c >= 0, from the architecture.
    int homogeneity_order() const;
    // Throws std::invalid_argument if the description is inconsistent.
    void validate() const;
    std::string describe() const;
    // Human-readable name of parameter j ("W1[3,7]", "v[2]", "u2[5]", "w[1]"), 0-based indices.
    std::string parameter_name(int j) const;

    // feed_forward only: offset of W_l (l = 1..K) and of v (l = K+1) in the parameter vector, and
    // their shapes (rows, cols); v is a 1 x k_K row.
    int layer_offset(int l) const;
    int layer_rows(int l) const;
    int layer_cols(int l) const;
};

enum class EvalStatus { not_evaluated, ok, refused };
const char* to_string(EvalStatus s);

template <class T>
struct OutputsResult {
    EvalStatus status = EvalStatus::not_evaluated;
    std::string reason = "not evaluated";
    Vec<T> outputs;  // H(x_i; w), i = 1..n
};

// Value, gradient (and Hessian) of the weighted output r^T H(X; w) = sum_i r_i H(x_i; w) in w.
template <class T>
struct GradientResult {
    EvalStatus status = EvalStatus::not_evaluated;
    std::string reason = "not evaluated";
    T value{};
    Vec<T> gradient;
};
template <class T>
struct HessianResult {
    EvalStatus status = EvalStatus::not_evaluated;
    std::string reason = "not evaluated";
    T value{};
    Vec<T> gradient;
    Mat<T> hessian;  // symmetric
};

// A homogeneous model with its inputs X (d x n, column i = x_i). Never modifies its inputs.
template <class T>
class HomogeneousModel {
public:
    HomogeneousModel(HomogeneousArchitecture arch, Mat<T> X);

    const HomogeneousArchitecture& architecture() const { return arch_; }
    const Mat<T>& inputs() const { return X_; }
    int sample_count() const { return static_cast<int>(X_.cols()); }
    int parameter_count() const { return arch_.parameter_count(); }
    int homogeneity_order() const { return arch_.homogeneity_order(); }

    // H(X; w) for all samples.
    OutputsResult<T> outputs(const Vec<T>& w) const;
    // r^T H(X; w) and its gradient in w.
    GradientResult<T> weighted_gradient(const Vec<T>& w, const Vec<T>& r) const;
    // r^T H(X; w), its gradient and Hessian in w.
    HessianResult<T> weighted_hessian(const Vec<T>& w, const Vec<T>& r) const;

private:
    HomogeneousArchitecture arch_;
    Mat<T> X_;
};

// Square loss L(w) = c sum_i (p_i - y_i)^2 with c = (half ? 1/2 : 1) * (mean ? 1/n : 1).
// The paper: {half = false, mean = false} [KH2025, Example 1, App. E]; authors' Fig. 1 code: mean.
struct SquareLossNormalization {
    bool half = false;
    bool mean = false;
    static SquareLossNormalization paper() { return {false, false}; }
    std::string describe() const;  // "sum (p - y)^2", "(1/n) sum (p - y)^2", ...
};

// c as an enclosure (or double), computed in T.
template <class T> T loss_scale(const SquareLossNormalization& norm, int n, const T& like);
// ytilde = -l'(0, y) = 2 c y (entrywise) [KH2025, eq. (3)]: the NCF weights.
template <class T> Vec<T> ncf_weights(const Vec<T>& y, const SquareLossNormalization& norm);

template <class T>
struct LossResult {
    EvalStatus status = EvalStatus::not_evaluated;
    std::string reason = "not evaluated";
    T value{};
    Vec<T> gradient;  // empty unless requested
};
// L(w) and (optionally) grad L(w) = J(X; w)^T l'(H(X; w), y) [KH2025, eq. (2)].
template <class T>
LossResult<T> square_loss(const HomogeneousModel<T>& model, const Vec<T>& w, const Vec<T>& y,
                          const SquareLossNormalization& norm, bool with_gradient);

// The neural correlation function N(u) = ytilde^T H(X; u) [KH2025, eq. (3)], with gradient and Hessian.
template <class T>
class Ncf {
public:
    Ncf(HomogeneousModel<T> model, Vec<T> ytilde) : model_(std::move(model)), ytilde_(std::move(ytilde)) {}
    const HomogeneousModel<T>& model() const { return model_; }
    const Vec<T>& ytilde() const { return ytilde_; }
    int dimension() const { return model_.parameter_count(); }
    int order() const { return model_.homogeneity_order(); }
    GradientResult<T> gradient(const Vec<T>& u) const { return model_.weighted_gradient(u, ytilde_); }
    HessianResult<T> hessian(const Vec<T>& u) const { return model_.weighted_hessian(u, ytilde_); }
    // N(u) alone (via the outputs).
    OutputsResult<T> value(const Vec<T>& u) const;

private:
    HomogeneousModel<T> model_;
    Vec<T> ytilde_;
};

// ---- seeded data sets (flowcert::nets::RandomStream; NOT rigorous: they define exact data) ----
// n inputs in R^d: column i is a Gaussian vector of stream (seed, "kh/inputs", i) divided by its norm
// (in double; the resulting doubles ARE the data). Labels from a feed-forward teacher of the given
// architecture with Gaussian weights of stream (seed, "kh/teacher", 0), evaluated in double.
struct SphereTeacherData {
    Eigen::MatrixXd X;  // d x n
    Eigen::VectorXd y;  // n
    Eigen::VectorXd teacher_weights;
};
SphereTeacherData make_sphere_teacher_data(std::uint64_t seed, int d, int n, const HomogeneousArchitecture& teacher);

// ---- conversions ----
// Exact conversion of a double matrix / vector to T (point intervals at `bits` for IntervalMp).
template <class T> Mat<T> convert_matrix(const Eigen::MatrixXd& M, long bits);
template <class T> Vec<T> convert_vector(const Eigen::VectorXd& v, long bits);

#define FLOWCERT_NETS_HOMOGENEOUS_DECLARE(T, EXTERN)                                                       \
    EXTERN template class HomogeneousModel<T>;                                                            \
    EXTERN template class Ncf<T>;                                                                          \
    EXTERN template T loss_scale<T>(const SquareLossNormalization&, int, const T&);                       \
    EXTERN template Vec<T> ncf_weights<T>(const Vec<T>&, const SquareLossNormalization&);                 \
    EXTERN template LossResult<T> square_loss<T>(const HomogeneousModel<T>&, const Vec<T>&, const Vec<T>&, \
                                                 const SquareLossNormalization&, bool);                    \
    EXTERN template Mat<T> convert_matrix<T>(const Eigen::MatrixXd&, long);                              \
    EXTERN template Vec<T> convert_vector<T>(const Eigen::VectorXd&, long);

FLOWCERT_NETS_HOMOGENEOUS_DECLARE(double, extern)
FLOWCERT_NETS_HOMOGENEOUS_DECLARE(IntervalD, extern)
FLOWCERT_NETS_HOMOGENEOUS_DECLARE(IntervalMp, extern)

}  // namespace flowcert::nets
