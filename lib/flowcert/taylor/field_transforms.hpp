// flowcert/taylor/field_transforms.hpp -- transformations and a structural analysis of the expression DAG of a
// vector field x' = f(x; p), for any field (moved from the kh proof wing, issue 15):
//  * copy_dag: f's DAG copied into another field with the variables and parameters substituted;
//  * difference_field: the system (p' = f(p), e' = f(p + e) - f(p)) of two solutions of one flow;
//  * restrict_field: f on the coordinate subspace {x_z = 0}, the variables x_z replaced by the constant 0;
//  * field_vanishes_on_subspace: a STRUCTURAL (symbolic) proof that chosen components f_j vanish identically on
//    {x_z = 0}. If every f_j, j in z, vanishes there, the subspace is invariant in both time directions for a
//    locally Lipschitz f (the solution of the reduced system with x_z == 0 solves the full system, and solutions
//    are unique); [KH2025, Def. 15, Lemma 16] uses it for the zero-preserving subsets. The rules (each sound:
//    "vanishes" means "is the zero function on {x_z = 0}, wherever it is defined"):
//      Var j           vanishes iff j in z
//      Const           vanishes iff its exact value is 0
//      Param           vanishes iff its value is given as exactly [0, 0]
//      a + b, a - b    vanish if both operands vanish
//      a * b           vanishes if either operand vanishes
//      a / b           vanishes if a vanishes
//      -a, sqr a, sqrt a, sin a, atan a, relu a    vanish if a vanishes   (they map 0 to 0)
//      exp, log, cos   never (exp 0 = cos 0 = 1; log 0 undefined)
//    The analysis is sufficient, not necessary: "does not vanish" means "not proven to vanish".
// The time-reversed field x' = -f(x) is taylor::reversed (expr.hpp). Part of <flowcert/taylor.hpp>.
#pragma once

#if !defined(FLOWCERT_TAYLOR_INTERNAL)
#error "include <flowcert/taylor.hpp>, not the internal headers"
#endif

#include "expr.hpp"

#include <string>
#include <vector>

namespace flowcert::taylor {

// Copies the DAG of `f` into `g`, with variable i replaced by vars[i] and parameter j by pars[j]; returns the images
// of f's nodes (f's right-hand side is outputs() of them).
std::vector<Expr> copy_dag(const VectorField& f, VectorField& g, const std::vector<Expr>& vars, const std::vector<Expr>& pars);

// The difference system of two solutions p(t), x(t) = p(t) + e(t) of x' = f(x):
//   p' = f(p),   e' = f(p + e) - f(p)
// (variables p_0..p_{n-1}, e_0..e_{n-1}, named "p_" / "e_" + f's names; same parameters). Integrating it keeps
// e = x - p as a state, so its enclosure does not lose the correlation between x and p.
VectorField difference_field(const VectorField& f);

// The restriction of x' = f(x; p) to {x_z = 0}: the field on the remaining variables (in increasing index order,
// same parameters) with every x_j, j in z, replaced by the exact constant 0. When field_vanishes_on_subspace(f, z, z)
// is proven, a solution x_S(t) of the restriction, padded with x_z = 0, solves the full system; by uniqueness it IS
// the full solution from (x_S(0), 0), so an enclosure of x_S padded with exact zeros encloses the full flow.
VectorField restrict_field(const VectorField& f, const std::vector<int>& z);

struct VanishingResult {
    bool proven = false;          // every requested component vanishes on {x_z = 0}
    std::vector<int> not_proven;  // components (variable indices) that were not shown to vanish
    std::string reason = "not run";
};

// `zero_vars`: the subspace {x_j = 0, j in zero_vars}; `components`: the f_j to examine; `zero_params[k]`:
// parameter k is exactly 0 (may be empty: no parameter is known to be 0).
VanishingResult field_vanishes_on_subspace(const VectorField& f, const std::vector<int>& zero_vars,
                                           const std::vector<int>& components, const std::vector<bool>& zero_params = {});

}  // namespace flowcert::taylor
