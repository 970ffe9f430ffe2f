// flowcert/taylor/field_transforms.cpp -- DAG copies, the difference system, the restriction to {x_z = 0} and the
// structural vanishing analysis; see field_transforms.hpp.
#include <flowcert/taylor.hpp>

#include <flowcert/interval.hpp>

namespace flowcert::taylor {

std::vector<Expr> copy_dag(const VectorField& f, VectorField& g, const std::vector<Expr>& vars, const std::vector<Expr>& pars) {
    std::vector<Expr> img;
    img.reserve(f.nodes().size());
    for (const Node& nd : f.nodes()) {
        switch (nd.op) {
            case Op::Var: img.push_back(vars[static_cast<std::size_t>(nd.index)]); break;
            case Op::Param: img.push_back(pars[static_cast<std::size_t>(nd.index)]); break;
            case Op::Const: img.push_back(g.constant(f.constants()[static_cast<std::size_t>(nd.index)])); break;
            case Op::Add: case Op::Sub: case Op::Mul: case Op::Div:
                img.push_back(g.binary(nd.op, img[static_cast<std::size_t>(nd.a)], img[static_cast<std::size_t>(nd.b)]));
                break;
            default: img.push_back(g.unary(nd.op, img[static_cast<std::size_t>(nd.a)])); break;
        }
    }
    return img;
}

namespace {
std::vector<Expr> parameters_of(VectorField& g) {
    std::vector<Expr> p;
    for (int j = 0; j < g.parameter_count(); ++j) p.push_back(g.par(j));
    return p;
}
}  // namespace

VectorField difference_field(const VectorField& f) {
    const int n = f.dimension();
    std::vector<std::string> names;
    for (const auto& v : f.variables()) names.push_back("p_" + v);
    for (const auto& v : f.variables()) names.push_back("e_" + v);
    VectorField g(names, f.parameters());
    std::vector<Expr> pv, xv;
    for (int i = 0; i < n; ++i) pv.push_back(g.var(i));
    for (int i = 0; i < n; ++i) xv.push_back(pv[static_cast<std::size_t>(i)] + g.var(n + i));
    const std::vector<Expr> pars = parameters_of(g);
    const auto fp = copy_dag(f, g, pv, pars);
    const auto fx = copy_dag(f, g, xv, pars);
    std::vector<Expr> rhs;
    for (int o : f.outputs()) rhs.push_back(fp[static_cast<std::size_t>(o)]);
    for (int o : f.outputs()) rhs.push_back(fx[static_cast<std::size_t>(o)] - fp[static_cast<std::size_t>(o)]);
    g.set_rhs(rhs);
    return g;
}

VectorField restrict_field(const VectorField& f, const std::vector<int>& z) {
    std::vector<bool> in_z(static_cast<std::size_t>(f.dimension()), false);
    for (int j : z) in_z[static_cast<std::size_t>(j)] = true;
    std::vector<std::string> names;
    for (int j = 0; j < f.dimension(); ++j)
        if (!in_z[static_cast<std::size_t>(j)]) names.push_back(f.variables()[static_cast<std::size_t>(j)]);
    VectorField g(names, f.parameters());
    std::vector<Expr> vars;
    int next = 0;
    for (int j = 0; j < f.dimension(); ++j) vars.push_back(in_z[static_cast<std::size_t>(j)] ? g.constant("0") : g.var(next++));
    const auto img = copy_dag(f, g, vars, parameters_of(g));
    std::vector<Expr> rhs;
    for (int j = 0; j < f.dimension(); ++j)
        if (!in_z[static_cast<std::size_t>(j)]) rhs.push_back(img[static_cast<std::size_t>(f.outputs()[static_cast<std::size_t>(j)])]);
    g.set_rhs(rhs);
    return g;
}

namespace {
// Constants whose exact value is 0: the text converted outward must be the point [0, 0].
std::vector<bool> zero_constants(const VectorField& f) {
    std::vector<bool> zero(f.constants().size(), false);
    for (std::size_t c = 0; c < f.constants().size(); ++c) {
        try {
            const IntervalD v = IntervalD::from_decimal(f.constants()[c]);
            zero[c] = lower(v) == 0.0 && upper(v) == 0.0;
        } catch (...) {
            zero[c] = false;  // rational or unparsable text: not known to be 0
        }
    }
    return zero;
}
}  // namespace

VanishingResult field_vanishes_on_subspace(const VectorField& f, const std::vector<int>& zero_vars,
                                           const std::vector<int>& components, const std::vector<bool>& zero_params) {
    VanishingResult r;
    if (!f.complete()) {
        r.reason = "the field has no right-hand side";
        return r;
    }
    std::vector<bool> in_z(static_cast<std::size_t>(f.dimension()), false);
    for (int j : zero_vars) {
        if (j < 0 || j >= f.dimension()) {
            r.reason = "zero variable index out of range";
            return r;
        }
        in_z[static_cast<std::size_t>(j)] = true;
    }
    const std::vector<bool> zero_const = zero_constants(f);
    const auto& nodes = f.nodes();
    std::vector<bool> vanish(nodes.size(), false);
    for (std::size_t id = 0; id < nodes.size(); ++id) {
        const auto& nd = nodes[id];
        auto va = [&] { return vanish[static_cast<std::size_t>(nd.a)]; };
        auto vb = [&] { return vanish[static_cast<std::size_t>(nd.b)]; };
        bool v = false;
        switch (nd.op) {
            case Op::Var: v = in_z[static_cast<std::size_t>(nd.index)]; break;
            case Op::Const: v = zero_const[static_cast<std::size_t>(nd.index)]; break;
            case Op::Param:
                v = nd.index >= 0 && static_cast<std::size_t>(nd.index) < zero_params.size() &&
                    zero_params[static_cast<std::size_t>(nd.index)];
                break;
            case Op::Add:
            case Op::Sub: v = va() && vb(); break;
            case Op::Mul: v = va() || vb(); break;
            case Op::Div: v = va(); break;
            case Op::Neg:
            case Op::Sqr:
            case Op::Sqrt:
            case Op::Sin:
            case Op::Atan:
            case Op::Relu: v = va(); break;
            case Op::Exp:
            case Op::Log:
            case Op::Cos: v = false; break;
        }
        vanish[id] = v;
    }
    for (int j : components) {
        if (j < 0 || j >= f.dimension()) {
            r.reason = "component index out of range";
            r.not_proven.push_back(j);
            continue;
        }
        if (!vanish[static_cast<std::size_t>(f.outputs()[static_cast<std::size_t>(j)])]) r.not_proven.push_back(j);
    }
    r.proven = r.not_proven.empty() && !components.empty();
    if (components.empty())
        r.reason = "no component to examine";
    else if (r.proven)
        r.reason = "every examined component is, node by node, a sum of products each containing a factor that is "
                   "0 on the subspace";
    else if (r.reason == "not run")
        r.reason = std::to_string(r.not_proven.size()) + " component(s) not shown to vanish on the subspace";
    return r;
}

}  // namespace flowcert::taylor
