// lib/flowcert/proofs/kh/theorem18_units.hpp -- the pieces of kh/theorem18_sparsity that are worth testing on
// their own (tests/proofs/kh/test_kh_theorem18.cpp):
//
//  * field_vanishes_on_subspace: a STRUCTURAL (symbolic) proof that chosen components of a Taylor-DAG
//    vector field x' = f(x; p) vanish identically on the coordinate subspace {x_z = 0}. If every component
//    f_j, j in z, vanishes there, the subspace is invariant in both time directions for a locally
//    Lipschitz f (the solution of the reduced system with x_z == 0 solves the full system, and solutions
//    are unique) -- this is Definition 15 / Lemma 16 of [KH2025] for the given field.
//    Rules (each sound: "vanishes" means "is the zero function on {x_z = 0}, wherever it is defined"):
//      Var j           vanishes iff j in z
//      Const           vanishes iff its exact value is 0
//      Param           vanishes iff its value is given as exactly [0, 0]
//      a + b, a - b    vanish if both operands vanish
//      a * b           vanishes if either operand vanishes
//      a / b           vanishes if a vanishes
//      -a, sqr a, sqrt a, sin a, relu a    vanish if a vanishes   (they map 0 to 0)
//      exp, log, cos   never (exp 0 = cos 0 = 1; log 0 undefined)
//    The analysis is sufficient, not necessary: "does not vanish" means "not proven to vanish".
//  * lemma16_units: the (row, column) units W_l[j,:] U W_{l+1}[:,j] of [KH2025, Lemma 16] (one hidden
//    layer: W_1[j,:] U v[j]) and, for diagonal nets (not of the form (9)), the coordinate blocks
//    {u^(1)_k, ..., u^(D)_k}; and whether a set of parameter indices is a union of such units.
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/nets.hpp>
#include <flowcert/taylor.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace flowcert::proofs::kh {

struct VanishingResult {
    bool proven = false;                  // every requested component vanishes on {x_z = 0}
    std::vector<int> not_proven;          // components (variable indices) that were not shown to vanish
    std::string reason = "not run";
};

// `zero_vars`: the subspace {x_j = 0, j in zero_vars}; `components`: the f_j to examine;
// `zero_params[k]`: parameter k is exactly 0 (may be empty: no parameter is known to be 0).
inline VanishingResult field_vanishes_on_subspace(const taylor::VectorField& f,
                                                  const std::vector<int>& zero_vars,
                                                  const std::vector<int>& components,
                                                  const std::vector<bool>& zero_params = {}) {
    using taylor::Op;
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
    // Exact zero constants: the constant text converted outward must be the point [0, 0].
    std::vector<bool> zero_const(f.constants().size(), false);
    for (std::size_t c = 0; c < f.constants().size(); ++c) {
        try {
            const IntervalD v = IntervalD::from_decimal(f.constants()[c]);
            zero_const[c] = lower(v) == 0.0 && upper(v) == 0.0;
        } catch (...) {
            zero_const[c] = false;  // rational or unparsable text: not known to be 0
        }
    }
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

// The zero-preserving units of an architecture (parameter indices), see the header comment.
inline std::vector<std::vector<int>> lemma16_units(const nets::HomogeneousArchitecture& arch) {
    using nets::ModelKind;
    std::vector<std::vector<int>> units;
    if (arch.kind == ModelKind::feed_forward) {
        const int K = static_cast<int>(arch.hidden.size());
        for (int l = 1; l <= K; ++l) {
            const int rows = arch.layer_rows(l), cols = arch.layer_cols(l), off = arch.layer_offset(l);
            const int noff = arch.layer_offset(l + 1), ncols = arch.layer_cols(l + 1);
            for (int j = 0; j < rows; ++j) {
                std::vector<int> u;
                for (int k = 0; k < cols; ++k) u.push_back(off + j * cols + k);       // W_l[j, :]
                for (int i = 0; i < arch.layer_rows(l + 1); ++i) u.push_back(noff + i * ncols + j);  // W_{l+1}[:, j]
                std::sort(u.begin(), u.end());
                units.push_back(u);
            }
        }
    } else if (arch.kind == ModelKind::diagonal) {
        const int d = arch.input_dim;
        for (int k = 0; k < d; ++k) {
            std::vector<int> u;
            for (int f = 0; f < arch.depth; ++f) u.push_back(f * d + k);
            units.push_back(u);
        }
    }
    return units;
}

// Whether `z` (sorted or not) is exactly a union of units; `used` receives the units it consists of.
inline bool is_union_of_units(const std::vector<std::vector<int>>& units, std::vector<int> z,
                              std::vector<int>* used = nullptr) {
    std::sort(z.begin(), z.end());
    z.erase(std::unique(z.begin(), z.end()), z.end());
    std::vector<int> covered;
    for (std::size_t u = 0; u < units.size(); ++u) {
        const bool inside = std::all_of(units[u].begin(), units[u].end(),
                                        [&](int j) { return std::binary_search(z.begin(), z.end(), j); });
        if (!inside) continue;
        if (used) used->push_back(static_cast<int>(u));
        covered.insert(covered.end(), units[u].begin(), units[u].end());
    }
    std::sort(covered.begin(), covered.end());
    covered.erase(std::unique(covered.begin(), covered.end()), covered.end());
    return !z.empty() && covered == z;
}

// The restriction of x' = f(x; p) to the coordinate subspace {x_z = 0}: the field on the remaining
// variables (in increasing index order, same parameters) with every x_j, j in z, replaced by the exact
// constant 0. When field_vanishes_on_subspace(f, z, z) is proven, a solution x_S(t) of the restriction,
// padded with x_z = 0, solves the full system; by uniqueness it IS the full solution from (x_S(0), 0),
// so an enclosure of x_S padded with exact zeros encloses the full flow (the proof of Lemma 16).
inline taylor::VectorField restrict_field(const taylor::VectorField& f, const std::vector<int>& z) {
    using taylor::Expr;
    using taylor::Op;
    std::vector<bool> in_z(static_cast<std::size_t>(f.dimension()), false);
    for (int j : z) in_z[static_cast<std::size_t>(j)] = true;
    std::vector<std::string> vars;
    std::vector<int> new_index(static_cast<std::size_t>(f.dimension()), -1);
    for (int j = 0; j < f.dimension(); ++j)
        if (!in_z[static_cast<std::size_t>(j)]) {
            new_index[static_cast<std::size_t>(j)] = static_cast<int>(vars.size());
            vars.push_back(f.variables()[static_cast<std::size_t>(j)]);
        }
    taylor::VectorField g(vars, f.parameters());
    std::vector<Expr> map;
    map.reserve(f.nodes().size());
    for (const auto& nd : f.nodes()) {
        auto a = [&] { return map[static_cast<std::size_t>(nd.a)]; };
        auto b = [&] { return map[static_cast<std::size_t>(nd.b)]; };
        switch (nd.op) {
            case Op::Var:
                map.push_back(in_z[static_cast<std::size_t>(nd.index)] ? g.constant("0")
                                                                        : g.var(new_index[static_cast<std::size_t>(nd.index)]));
                break;
            case Op::Param: map.push_back(g.par(nd.index)); break;
            case Op::Const: map.push_back(g.constant(f.constants()[static_cast<std::size_t>(nd.index)])); break;
            case Op::Add:
            case Op::Sub:
            case Op::Mul:
            case Op::Div: map.push_back(g.binary(nd.op, a(), b())); break;
            default: map.push_back(g.unary(nd.op, a())); break;
        }
    }
    std::vector<Expr> rhs;
    for (int j = 0; j < f.dimension(); ++j)
        if (!in_z[static_cast<std::size_t>(j)]) rhs.push_back(map[static_cast<std::size_t>(f.outputs()[static_cast<std::size_t>(j)])]);
    g.set_rhs(rhs);
    return g;
}

}  // namespace flowcert::proofs::kh
