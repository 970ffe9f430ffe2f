// flowcert/taylor/expr.hpp -- a vector field x' = f(x; p) as an expression DAG.
//
// Nodes are stored in topological order (an operand always precedes its user); the first
// `dimension()` nodes are the state variables. Constants are kept as exact decimal or
// rational strings and converted (outward, for interval back ends) when an evaluator is
// built, so no number enters an enclosure through a round-to-nearest conversion.
#pragma once

#if !defined(FLOWCERT_TAYLOR_INTERNAL)
#error "include <flowcert/taylor.hpp>, not the internal headers"
#endif

#include <cstdint>
#include <string>
#include <vector>

namespace flowcert::taylor {

enum class Op : std::uint8_t { Var, Param, Const, Add, Sub, Neg, Mul, Div, Sqr, Sqrt, Exp, Log, Sin, Cos, Relu, Atan };
const char* to_string(Op op);

struct Node {
    Op op = Op::Const;
    int a = -1;              // first operand (node id)
    int b = -1;              // second operand (node id)
    int index = -1;          // Var: variable index; Param: parameter index; Const: constant index
    bool constant = false;   // depends on no state variable (its Taylor series is [value, 0, 0, ...])
};

class VectorField;

// A handle to a node of a VectorField under construction; arithmetic builds new nodes.
class Expr {
public:
    Expr(VectorField* field, int id) : field_(field), id_(id) {}
    int id() const { return id_; }
    VectorField* field() const { return field_; }

private:
    VectorField* field_;
    int id_;
};

class VectorField {
public:
    // State variables (their nodes come first) and parameter names; parameter values are
    // given to the evaluator, so one field serves many parameter values.
    explicit VectorField(std::vector<std::string> variables, std::vector<std::string> parameters = {});
    VectorField(const VectorField&);
    VectorField& operator=(const VectorField&);
    VectorField(VectorField&&) noexcept = default;
    VectorField& operator=(VectorField&&) noexcept = default;

    Expr var(int i);
    Expr par(int j);
    Expr var(const std::string& name);  // throws std::invalid_argument for an unknown name
    Expr par(const std::string& name);
    // An exact constant: integer, decimal ("0.1", "-2.5e-3") or rational ("8/3"), or "pi"
    // (enclosed, not exact, by the evaluators); throws std::invalid_argument when the text is
    // not a number.
    Expr constant(const std::string& text);
    Expr constant(long long k) { return constant(std::to_string(k)); }

    // Node builders (also reachable through the operators below).
    Expr unary(Op op, Expr a);
    Expr binary(Op op, Expr a, Expr b);
    Expr power(Expr a, int n);  // integer power by repeated squaring; n < 0 gives 1/a^|n|

    // f_i is outputs()[i]; there must be exactly dimension() of them.
    void set_rhs(const std::vector<Expr>& components);

    int dimension() const { return static_cast<int>(variables_.size()); }
    int parameter_count() const { return static_cast<int>(parameters_.size()); }
    const std::vector<std::string>& variables() const { return variables_; }
    const std::vector<std::string>& parameters() const { return parameters_; }
    const std::vector<std::string>& constants() const { return constants_; }
    const std::vector<Node>& nodes() const { return nodes_; }
    const std::vector<int>& outputs() const { return outputs_; }
    bool complete() const { return static_cast<int>(outputs_.size()) == dimension(); }
    // The subexpression of node `id` in formula syntax with the declared names, for messages
    // ("sqrt(x - 1)"); cut with "..." past about max_chars characters.
    std::string to_text(int id, std::size_t max_chars = 60) const;
    int parameter_index(const std::string& name) const;  // -1 if absent
    // The state variable that is time (x_i' = 1, from `time:t;`), or -1.
    int time_variable() const { return time_variable_; }
    void set_time_variable(int i) { time_variable_ = i; }
    int variable_index(const std::string& name) const;   // -1 if absent

private:
    int add_node(const Node& n);
    std::vector<std::string> variables_, parameters_, constants_;
    std::vector<Node> nodes_;
    std::vector<int> outputs_;
    std::vector<int> param_nodes_;
    int time_variable_ = -1;
};

// x' = -f(x): the time-reversed field (its flow at s is the flow of f at -s); a time
// variable keeps its role (t' = -1 in the reversed field).
VectorField reversed(const VectorField& f);

// The field with the parameters `which` (indices) turned into state variables p' = 0, appended
// after the variables in the order given (the remaining parameters keep their order). With an
// interval parameter this lets a Lohner method track the dependence of x on p instead of
// re-adding the parameter's width at every step.
VectorField with_parameters_as_states(const VectorField& f, const std::vector<int>& which);

Expr operator+(Expr a, Expr b);
Expr operator-(Expr a, Expr b);
Expr operator*(Expr a, Expr b);
Expr operator/(Expr a, Expr b);
Expr operator-(Expr a);
Expr operator+(Expr a, long long k);
Expr operator+(long long k, Expr a);
Expr operator-(Expr a, long long k);
Expr operator-(long long k, Expr a);
Expr operator*(Expr a, long long k);
Expr operator*(long long k, Expr a);
Expr operator/(Expr a, long long k);
Expr operator/(long long k, Expr a);
Expr sqr(Expr a);
Expr sqrt(Expr a);
Expr exp(Expr a);
Expr log(Expr a);
Expr sin(Expr a);
Expr cos(Expr a);
Expr relu(Expr a);  // max(a, 0); non-smooth at 0 (see ode/ for steps through the kink)
Expr atan(Expr a);
Expr pow(Expr a, int n);

}  // namespace flowcert::taylor
