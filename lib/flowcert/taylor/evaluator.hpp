// flowcert/taylor/evaluator.hpp -- Taylor-mode automatic differentiation of a vector field.
//
// For x' = f(x), the Taylor coefficients x_k = x^{(k)}(0)/k! of the solution through x0 obey
// x_{k+1} = f_k / (k+1), where f_k is the k-th coefficient of t -> f(x(t)); f_k is computed
// node by node from the coefficients 0..k of the operands with the classical recurrences
// (Moore 1966, ch. 11; Griewank & Walther, "Evaluating Derivatives", 2nd ed. 2008, Table 13.1).
// The C^1 mode also carries d x_k / d x0 (the Taylor coefficients of the variational
// equation V' = Df(x) V, V(0) = I), by differentiating each recurrence.
//
// Scalar types: IntervalD and IntervalMp (rigorous: every coefficient encloses the exact one
// for every initial value in the box x0), and double (NOT rigorous: a predictor only).
// Buffers are kept between calls, so repeated evaluations do not allocate.
#pragma once

#if !defined(FLOWCERT_TAYLOR_INTERNAL)
#error "include <flowcert/taylor.hpp>, not the internal headers"
#endif

#include <memory>
#include <span>
#include <string>
#include <vector>

#include <flowcert/interval.hpp>

#include "expr.hpp"

namespace flowcert::taylor {

enum class EvalStatus {
    ok,
    relu_kink,     // a relu argument's enclosure contains 0: the field is not smooth there
    domain_error,  // sqrt/log of a set touching <= 0, or division by a set containing 0
    non_finite,    // an unbounded or NaN coefficient
};
const char* to_string(EvalStatus s);

struct EvalResult {
    EvalStatus status = EvalStatus::ok;
    std::string reason;  // names the subexpression and variables as written in the formula
    int node = -1;       // the failing node (relu_kink, domain_error), -1 otherwise
    bool ok() const { return status == EvalStatus::ok; }
};

template <class T>
class TaylorEvaluator {
public:
    // `params` are the parameter values in the field's order; `bits` is the precision used to
    // convert the field's constants (ignored for double and IntervalD).
    TaylorEvaluator(const VectorField& field, std::vector<T> params, long bits = 53);

    int dimension() const { return n_; }
    int order() const { return order_; }

    // Coefficients x_0 = x0, ..., x_order of the solution through every point of x0.
    EvalResult compute(std::span<const T> x0, int order);
    // The same plus dx_k/dx0 (seeded with the identity at k = 0).
    EvalResult compute_c1(std::span<const T> x0, int order);
    // One evaluation of f (order 0) at x0, written to out (size dimension()).
    EvalResult evaluate(std::span<const T> x0, std::span<T> out);

    // x_k of variable i (0 <= k <= order()).
    const T& coeff(int i, int k) const { return val_[static_cast<std::size_t>(i) * stride_ + k]; }
    // Coefficient k of node `id` (after a compute of order > k; for the state variables, x_k).
    const T& node_coeff(int id, int k) const { return val_[static_cast<std::size_t>(id) * stride_ + k]; }
    // The sign of a relu node's argument over the last computation: +1, -1, or 0 when it
    // straddled 0 (only in kink-hull mode).
    int relu_sign(int id) const { return relu_sign_[id]; }
    // Kink-hull mode: a relu whose argument straddles 0 is enclosed by its range [0, max(0, u)]
    // at order 0 and by [0, 1] u_k at order k >= 1 (the Clarke derivative: valid for k = 1
    // only, so in this mode only orders <= 1 of the result are meaningful).
    void set_kink_hull(bool on) { kink_hull_ = on; }

    // d (x_k)_i / d (x0)_j, after compute_c1.
    const T& dcoeff(int i, int k, int j) const {
        return der_[(static_cast<std::size_t>(i) * stride_ + k) * n_ + j];
    }

private:
    std::shared_ptr<const VectorField> field_;  // for messages
    std::vector<Node> nodes_;
    std::vector<int> outputs_;
    std::vector<T> const_values_;  // per node (Const and Param nodes)
    int n_ = 0;
    int order_ = -1;
    std::size_t stride_ = 0;  // coefficients per node
    std::vector<T> val_, der_, aux_, aux_der_;
    std::vector<signed char> relu_sign_;
    bool kink_hull_ = false;
    T unit_;  // [0, 1], for kink-hull mode
    std::vector<T> one_;  // 1 and 0 at the right precision, for seeding
    // IntervalD only: midpoint-radius copies of val_/der_ for the fast convolution kernel.
    std::vector<double> vm_, vr_, dm_, dr_;
    void fill_midrad(int id, int k, bool c1);
    bool fast_mul(int id, int k, bool c1);

    void reserve(int order);
    EvalResult run(std::span<const T> x0, int order, bool c1);
    EvalResult eval_node(int id, int k, bool c1);  // dispatches on the node's operation:
    struct Operands {  // the coefficient arrays of a node w = op(u, v) and of its operands
        T* w;
        T* dw;
        const T* u;
        const T* du;
        const T* v;   // nullptr for unary operations
        const T* dv;
        bool ca, cb;  // u, v constant
    };
    EvalResult eval_arith(const Node& nd, int id, int k, bool c1, const Operands& o);
    EvalResult eval_elementary(const Node& nd, int id, int k, bool c1, const Operands& o);
    EvalResult eval_trig(const Node& nd, int id, int k, bool c1, const Operands& o);
    EvalResult eval_relu(const Node& nd, int id, int k, bool c1, const Operands& o);
};

extern template class TaylorEvaluator<double>;
extern template class TaylorEvaluator<IntervalD>;
extern template class TaylorEvaluator<IntervalMp>;

}  // namespace flowcert::taylor
