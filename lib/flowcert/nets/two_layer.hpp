// flowcert/nets/two_layer.hpp -- the two-layer (leaky) ReLU network of Boursier & Flammarion
// [BF2025, eq. (1)]:  h_theta(x) = sum_j a_j sigma(<w_j, x>),  sigma(z) = max(z, gamma z),
// gamma in [0, 1], inputs optionally augmented with a constant 1 (hidden-layer bias), losses
// 1/2 (y_hat - y)^2 [BF2025, eq. (10)] and logistic ln(1 + e^{-y_hat y}), and the risk
// L(theta) = c * sum_k loss(h_theta(x_k), y_k) with c = 1/n by default (the paper's convention;
// the authors' code uses (1/n) sum (h - y)^2, i.e. half_square with c = 2/n).
//
// Everything is templated on the interval type and encloses the exact quantities of the data
// given as decimal strings (the source of truth; they are converted outward, never rounded to
// nearest). The gradient-flow field is the Clarke-hull enclosure of the differential inclusion
// [BF2025, eq. (2), (6)]: where the sign of <w_j, x_k> is undecided on the box, sigma'(0) ranges
// over all of [gamma, 1]. A neuron certainly inactive on every sample with gamma = 0 has exactly
// zero field (it is frozen).
//
// Templates are instantiated for IntervalD and IntervalMp in two_layer.cpp.
#pragma once

#if !defined(FLOWCERT_NETS_INTERNAL)
#error "include <flowcert/nets.hpp>, not the internal headers"
#endif

#include <flowcert/interval.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace flowcert::nets {

enum class LossKind { half_square, logistic };

// The data and model hyper-parameters, every number a decimal or rational string.
struct TwoLayerSpec {
    std::vector<std::vector<std::string>> x;  // n rows of d_in numbers (before the bias coordinate)
    std::vector<std::string> y;               // n labels
    bool bias = false;                        // append the coordinate 1 to every input
    std::string gamma = "0";                  // leaky-ReLU slope in [0, 1]; "0" is ReLU
    LossKind loss = LossKind::half_square;
    std::string risk_weight;                  // c in L = c sum_k loss; empty means "1/n" [BF2025, Sec. 2]
};

// Why a spec is unusable (empty = usable).
std::string spec_problem(const TwoLayerSpec& spec);

enum class Activation { certainly_positive, certainly_negative, undecided };

// Parameters theta = (a_j, w_j)_{j < m}, w stored row-major (m x d).
template <Interval I>
struct TwoLayerParams {
    std::size_t m = 0;
    std::size_t d = 0;
    std::vector<I> a;
    std::vector<I> w;
    TwoLayerParams() = default;
    TwoLayerParams(std::size_t m_, std::size_t d_, const I& zero) : m(m_), d(d_), a(m_, zero), w(m_ * d_, zero) {}
    I& W(std::size_t j, std::size_t i) { return w[j * d + i]; }
    const I& W(std::size_t j, std::size_t i) const { return w[j * d + i]; }
};

template <Interval I>
class TwoLayerModel {
public:
    // Throws std::invalid_argument with spec_problem(spec) if the spec is unusable.
    // `bits` is the precision of the enclosures (ignored for IntervalD).
    explicit TwoLayerModel(const TwoLayerSpec& spec, long bits = 53);

    std::size_t n() const noexcept { return n_; }
    std::size_t d() const noexcept { return d_; }  // input dimension including the bias coordinate
    long bits() const noexcept { return bits_; }
    const I& x(std::size_t k, std::size_t i) const { return x_[k * d_ + i]; }
    const I& y(std::size_t k) const { return y_[k]; }
    const I& gamma() const noexcept { return gamma_; }
    bool gamma_is_zero() const noexcept { return gamma_zero_; }
    const I& risk_weight() const noexcept { return c_; }
    LossKind loss() const noexcept { return loss_; }
    const TwoLayerSpec& spec() const noexcept { return spec_; }
    I zero() const { return constant_like(gamma_, 0); }
    I one() const { return constant_like(gamma_, 1); }

    // sigma(z) = max(z, gamma z) and the Clarke hull of sigma' on z: 1, gamma or [gamma, 1].
    I sigma(const I& z) const;
    I sigma_prime_hull(const I& z) const;
    // d/dy_hat loss(y_hat, y) for the loss of the spec.
    I loss_derivative(const I& y_hat, const I& y) const;
    I loss_value(const I& y_hat, const I& y) const;

private:
    TwoLayerSpec spec_;
    std::size_t n_ = 0, d_ = 0;
    long bits_ = 53;
    std::vector<I> x_, y_;
    I gamma_, c_;
    bool gamma_zero_ = false;
    LossKind loss_ = LossKind::half_square;
};

// s_jk = <w_j, x_k>, m x n row-major.
template <Interval I>
std::vector<I> preactivations(const TwoLayerModel<I>& model, const TwoLayerParams<I>& theta);
// The activation state of every (neuron j, sample k) pair on the box theta, m x n row-major.
template <Interval I>
std::vector<Activation> activation_states(const TwoLayerModel<I>& model, const TwoLayerParams<I>& theta);
// h_theta(x_k), k < n.
template <Interval I>
std::vector<I> outputs(const TwoLayerModel<I>& model, const TwoLayerParams<I>& theta);
// d1 loss(h_theta(x_k), y_k), k < n (for half_square: the residuals h - y).
template <Interval I>
std::vector<I> loss_derivatives(const TwoLayerModel<I>& model, const TwoLayerParams<I>& theta);
// L(theta) = c sum_k loss(h_theta(x_k), y_k).
template <Interval I>
I risk(const TwoLayerModel<I>& model, const TwoLayerParams<I>& theta);

// The enclosure of the gradient-flow inclusion  d theta / dt in -Clarke d L(theta)  on a box:
// for every theta in the box and every selection eta_jk in {1 if s_jk > 0, gamma if s_jk < 0,
// [gamma, 1] if s_jk = 0}, the field  da_j = -c sum_k l'_k sigma(s_jk),
// dw_j = -a_j c sum_k l'_k eta_jk x_k  [BF2025, eq. (6)] lies in `dtheta`.
template <Interval I>
struct FieldEnclosure {
    TwoLayerParams<I> dtheta;
    std::vector<char> frozen;          // neuron j certainly inactive on every sample with gamma = 0: field exactly 0
    std::size_t undecided_pairs = 0;   // (j, k) pairs whose sign is undecided on the box (kinks possible)
};
template <Interval I>
FieldEnclosure<I> vector_field(const TwoLayerModel<I>& model, const TwoLayerParams<I>& theta);

// One gradient-descent step  theta - step * g  for every theta in the box and every element g of
// the Clarke hull (covers any implementation choice of sigma'(0) in [gamma, 1]). `step` > 0.
template <Interval I>
TwoLayerParams<I> gd_step(const TwoLayerModel<I>& model, const TwoLayerParams<I>& theta, const I& step);

// a_j^2 - |w_j|^2, conserved along gradient flow [BF2025, Lemma 1].
template <Interval I>
std::vector<I> balancedness(const TwoLayerParams<I>& theta);

// ---- seeded initialization [BF2025, eqs. (3)-(5)] ------------------------------------------
enum class InitKind {
    balanced_gaussian,       // w~_j ~ N(0, I_d), a~_j = s_j |w~_j|, s_j uniform in {-1, +1} (the paper's code)
    dominated_uniform_ball,  // a~_j = s_j in {-1, +1}, w~_j uniform in the open unit ball (the paper's example)
    unbalanced_gaussian      // a~_j ~ N(0, 1), w~_j ~ N(0, I_d) (the Stewart experiment; violates eq. (4))
};
struct InitSpec {
    InitKind kind = InitKind::balanced_gaussian;
    std::uint64_t seed = 0;
    std::size_t m = 0;
    std::string lambda = "1e-3";  // the scale lambda of eq. (3), a decimal string
    bool divide_by_sqrt_m = true; // (a, w) = (lambda / sqrt(m)) (a~, w~); false gives the lazy scaling lambda (a~, w~)
};
// Random streams used (lib/flowcert/nets/random.hpp): (seed, "bf.init.w", j) for w~_j (and, for
// dominated_uniform_ball, the rejection sampling), (seed, "bf.init.a", j) for s_j or a~_j.
// Neuron j depends only on (seed, j), so the first m neurons of a wider init are the same.
template <Interval I>
struct Initialization {
    TwoLayerParams<I> theta;        // encloses the exact (lambda/sqrt m)(a~, w~)
    std::vector<double> w_tilde;    // exact generated data, m x d
    std::vector<double> a_sign;     // s_j (balanced, dominated) or a~_j itself (unbalanced)
    // Eq. (4): |a~_j| >= |w~_j| for every j. balanced: holds with equality by construction
    // (a~_j is defined as s_j |w~_j|); dominated: strict, certified when sampling; unbalanced: checked.
    bool eq4_holds = false;
    std::size_t eq4_violations = 0;  // neurons certified to violate eq. (4) (unbalanced kind)
    // Eq. (5): max_k (1/k) sum_{j<=k} a~_j^2, enclosed; eq5_certified if certainly <= 1.
    I eq5_max_running_mean;
    bool eq5_certified = false;
};
template <Interval I>
Initialization<I> initialize(const InitSpec& spec, std::size_t d, long bits = 53);

extern template class TwoLayerModel<IntervalD>;
extern template class TwoLayerModel<IntervalMp>;
#define FLOWCERT_TWO_LAYER_EXTERN(I)                                                                    \
    extern template std::vector<I> preactivations(const TwoLayerModel<I>&, const TwoLayerParams<I>&);   \
    extern template std::vector<Activation> activation_states(const TwoLayerModel<I>&,                 \
                                                              const TwoLayerParams<I>&);               \
    extern template std::vector<I> outputs(const TwoLayerModel<I>&, const TwoLayerParams<I>&);          \
    extern template std::vector<I> loss_derivatives(const TwoLayerModel<I>&, const TwoLayerParams<I>&); \
    extern template I risk(const TwoLayerModel<I>&, const TwoLayerParams<I>&);                          \
    extern template FieldEnclosure<I> vector_field(const TwoLayerModel<I>&, const TwoLayerParams<I>&);  \
    extern template TwoLayerParams<I> gd_step(const TwoLayerModel<I>&, const TwoLayerParams<I>&,        \
                                              const I&);                                               \
    extern template std::vector<I> balancedness(const TwoLayerParams<I>&);                              \
    extern template Initialization<I> initialize(const InitSpec&, std::size_t, long);
FLOWCERT_TWO_LAYER_EXTERN(IntervalD)
FLOWCERT_TWO_LAYER_EXTERN(IntervalMp)
#undef FLOWCERT_TWO_LAYER_EXTERN

}  // namespace flowcert::nets
