// flowcert/taylor/expr.cpp -- building the expression DAG of a vector field.
#include <flowcert/taylor.hpp>

#include <flowcert/interval.hpp>

#include <cstdlib>
#include <stdexcept>

namespace flowcert::taylor {

const char* to_string(Op op) {
    switch (op) {
        case Op::Var: return "var";
        case Op::Param: return "par";
        case Op::Const: return "const";
        case Op::Add: return "+";
        case Op::Sub: return "-";
        case Op::Neg: return "neg";
        case Op::Mul: return "*";
        case Op::Div: return "/";
        case Op::Sqr: return "sqr";
        case Op::Sqrt: return "sqrt";
        case Op::Exp: return "exp";
        case Op::Log: return "log";
        case Op::Sin: return "sin";
        case Op::Cos: return "cos";
        case Op::Relu: return "relu";
        case Op::Atan: return "atan";
    }
    return "?";
}

VectorField::VectorField(std::vector<std::string> variables, std::vector<std::string> parameters)
    : variables_(std::move(variables)), parameters_(std::move(parameters)) {
    for (int i = 0; i < dimension(); ++i) nodes_.push_back(Node{Op::Var, -1, -1, i, false});
    for (int j = 0; j < parameter_count(); ++j) {
        param_nodes_.push_back(static_cast<int>(nodes_.size()));
        nodes_.push_back(Node{Op::Param, -1, -1, j, true});
    }
}

VectorField::VectorField(const VectorField&) = default;
VectorField& VectorField::operator=(const VectorField&) = default;

int VectorField::add_node(const Node& n) {
    nodes_.push_back(n);
    return static_cast<int>(nodes_.size()) - 1;
}

Expr VectorField::var(int i) {
    if (i < 0 || i >= dimension()) throw std::invalid_argument("variable index out of range");
    return Expr(this, i);
}
Expr VectorField::par(int j) {
    if (j < 0 || j >= parameter_count()) throw std::invalid_argument("parameter index out of range");
    return Expr(this, param_nodes_[j]);
}
int VectorField::variable_index(const std::string& name) const {
    for (int i = 0; i < dimension(); ++i)
        if (variables_[i] == name) return i;
    return -1;
}
int VectorField::parameter_index(const std::string& name) const {
    for (int j = 0; j < parameter_count(); ++j)
        if (parameters_[j] == name) return j;
    return -1;
}
Expr VectorField::var(const std::string& name) {
    const int i = variable_index(name);
    if (i < 0) throw std::invalid_argument("unknown variable '" + name + "'");
    return var(i);
}
Expr VectorField::par(const std::string& name) {
    const int j = parameter_index(name);
    if (j < 0) throw std::invalid_argument("unknown parameter '" + name + "'");
    return par(j);
}

Expr VectorField::constant(const std::string& text) {
    if (text != "pi" && !is_number(text)) throw std::invalid_argument("not a number: '" + text + "'");
    for (int c = 0; c < static_cast<int>(constants_.size()); ++c)
        if (constants_[c] == text)
            for (int id = 0; id < static_cast<int>(nodes_.size()); ++id)
                if (nodes_[id].op == Op::Const && nodes_[id].index == c) return Expr(this, id);
    constants_.push_back(text);
    return Expr(this, add_node(Node{Op::Const, -1, -1, static_cast<int>(constants_.size()) - 1, true}));
}

Expr VectorField::unary(Op op, Expr a) {
    if (a.field() != this) throw std::invalid_argument("expression from another vector field");
    switch (op) {
        case Op::Neg: case Op::Sqr: case Op::Sqrt: case Op::Exp: case Op::Log: case Op::Sin: case Op::Cos:
        case Op::Relu: case Op::Atan: break;
        default: throw std::invalid_argument(std::string("not a unary operation: ") + to_string(op));
    }
    return Expr(this, add_node(Node{op, a.id(), -1, -1, nodes_[a.id()].constant}));
}

Expr VectorField::binary(Op op, Expr a, Expr b) {
    if (a.field() != this || b.field() != this) throw std::invalid_argument("expression from another vector field");
    switch (op) {
        case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: break;
        default: throw std::invalid_argument(std::string("not a binary operation: ") + to_string(op));
    }
    const bool c = nodes_[a.id()].constant && nodes_[b.id()].constant;
    return Expr(this, add_node(Node{op, a.id(), b.id(), -1, c}));
}

Expr VectorField::power(Expr a, int n) {
    if (n == 0) return constant(1);
    if (n < 0) return binary(Op::Div, constant(1), power(a, -n));
    if (n == 1) return a;
    if (n % 2 == 0) return unary(Op::Sqr, power(a, n / 2));
    return binary(Op::Mul, a, power(a, n - 1));
}

void VectorField::set_rhs(const std::vector<Expr>& components) {
    if (static_cast<int>(components.size()) != dimension())
        throw std::invalid_argument("the vector field needs " + std::to_string(dimension()) + " components, got " +
                                    std::to_string(components.size()));
    outputs_.clear();
    for (const auto& e : components) {
        if (e.field() != this) throw std::invalid_argument("expression from another vector field");
        outputs_.push_back(e.id());
    }
}

namespace {
// Binding strength for parentheses: sums 1, products 2, unary minus 3, atoms and calls 4.
int precedence(Op op) {
    switch (op) {
        case Op::Add: case Op::Sub: return 1;
        case Op::Mul: case Op::Div: return 2;
        case Op::Neg: return 3;
        default: return 4;
    }
}
}  // namespace

std::string VectorField::to_text(int id, std::size_t max_chars) const {
    std::string out;
    // depth-first with an explicit budget: a shared subexpression is printed each time it is
    // used, so the text is cut rather than grown without bound
    auto emit = [&](auto&& self, int k, int depth) -> void {
        if (out.size() > max_chars) return;
        if (depth > 16) {
            out += "...";
            return;
        }
        const Node& n = nodes_[k];
        auto operand = [&](int c, int min_prec) {
            const bool paren = precedence(nodes_[c].op) < min_prec;
            if (paren) out += "(";
            self(self, c, depth + 1);
            if (paren) out += ")";
        };
        switch (n.op) {
            case Op::Var: out += variables_[n.index]; return;
            case Op::Param: out += parameters_[n.index]; return;
            case Op::Const: out += constants_[n.index]; return;
            case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: {
                const int p = precedence(n.op);
                operand(n.a, p);
                out += n.op == Op::Add ? " + " : n.op == Op::Sub ? " - " : n.op == Op::Mul ? "*" : "/";
                operand(n.b, p + 1);
                return;
            }
            case Op::Neg: out += "-"; operand(n.a, 3); return;
            default:
                out += to_string(n.op);
                out += "(";
                self(self, n.a, depth + 1);
                out += ")";
                return;
        }
    };
    if (id >= 0 && id < static_cast<int>(nodes_.size())) emit(emit, id, 0);
    if (out.size() > max_chars) out = out.substr(0, max_chars) + "...";
    return out;
}

Expr operator+(Expr a, Expr b) { return a.field()->binary(Op::Add, a, b); }
Expr operator-(Expr a, Expr b) { return a.field()->binary(Op::Sub, a, b); }
Expr operator*(Expr a, Expr b) { return a.field()->binary(Op::Mul, a, b); }
Expr operator/(Expr a, Expr b) { return a.field()->binary(Op::Div, a, b); }
Expr operator-(Expr a) { return a.field()->unary(Op::Neg, a); }
Expr operator+(Expr a, long long k) { return a + a.field()->constant(k); }
Expr operator+(long long k, Expr a) { return a.field()->constant(k) + a; }
Expr operator-(Expr a, long long k) { return a - a.field()->constant(k); }
Expr operator-(long long k, Expr a) { return a.field()->constant(k) - a; }
Expr operator*(Expr a, long long k) { return a * a.field()->constant(k); }
Expr operator*(long long k, Expr a) { return a.field()->constant(k) * a; }
Expr operator/(Expr a, long long k) { return a / a.field()->constant(k); }
Expr operator/(long long k, Expr a) { return a.field()->constant(k) / a; }
Expr sqr(Expr a) { return a.field()->unary(Op::Sqr, a); }
Expr sqrt(Expr a) { return a.field()->unary(Op::Sqrt, a); }
Expr exp(Expr a) { return a.field()->unary(Op::Exp, a); }
Expr log(Expr a) { return a.field()->unary(Op::Log, a); }
Expr sin(Expr a) { return a.field()->unary(Op::Sin, a); }
Expr cos(Expr a) { return a.field()->unary(Op::Cos, a); }
Expr relu(Expr a) { return a.field()->unary(Op::Relu, a); }
Expr atan(Expr a) { return a.field()->unary(Op::Atan, a); }

VectorField with_parameters_as_states(const VectorField& f, const std::vector<int>& which) {
    std::vector<std::string> vars = f.variables(), pars;
    std::vector<int> new_index(f.parameter_count(), -1);
    for (int j : which) {
        if (j < 0 || j >= f.parameter_count()) throw std::invalid_argument("parameter index out of range");
        new_index[j] = static_cast<int>(vars.size());
        vars.push_back(f.parameters()[j]);
    }
    std::vector<int> kept(f.parameter_count(), -1);
    for (int j = 0; j < f.parameter_count(); ++j)
        if (new_index[j] < 0) {
            kept[j] = static_cast<int>(pars.size());
            pars.push_back(f.parameters()[j]);
        }
    VectorField g(vars, pars);
    std::vector<Expr> v, p;
    for (int i = 0; i < f.dimension(); ++i) v.push_back(g.var(i));
    for (int j = 0; j < f.parameter_count(); ++j) p.push_back(new_index[j] >= 0 ? g.var(new_index[j]) : g.par(kept[j]));
    const auto img = copy_dag(f, g, v, p);
    std::vector<Expr> rhs;
    for (int o : f.outputs()) rhs.push_back(img[o]);
    for (std::size_t k = 0; k < which.size(); ++k) rhs.push_back(g.constant(0));
    g.set_rhs(rhs);
    g.set_time_variable(f.time_variable());
    return g;
}

VectorField reversed(const VectorField& f) {
    VectorField g(f.variables(), f.parameters());
    std::vector<Expr> v, p;
    for (int i = 0; i < f.dimension(); ++i) v.push_back(g.var(i));
    for (int j = 0; j < f.parameter_count(); ++j) p.push_back(g.par(j));
    const auto img = copy_dag(f, g, v, p);
    std::vector<Expr> rhs;
    for (int o : f.outputs()) rhs.push_back(-img[o]);
    g.set_rhs(rhs);
    g.set_time_variable(f.time_variable());
    return g;
}
Expr pow(Expr a, int n) { return a.field()->power(a, n); }

}  // namespace flowcert::taylor
