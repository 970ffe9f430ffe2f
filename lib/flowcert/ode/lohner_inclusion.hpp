// flowcert/ode/lohner_inclusion.hpp -- one C^0 Lohner step of a differential inclusion with a
// bounded input,
//     x' = f(x, u(t)),   u(t) in U (any measurable selection),
// for a polynomial (or any Taylor-evaluable) field given as a taylor::VectorField whose variables
// are x (N of them) followed by u (Nu of them, with right-hand side 0: the input enters the
// Taylor evaluator as a constant), and a set kept in Lohner's doubleton form generalized to several
// exactly propagated parts, x in c + sum_i C_i r_i + B r + e (LohnerSet).
//
// Per step of length h (an enclosure; H = its upper bound), given an a priori box W that contains
// every solution of the inclusion from the set on [0, H] (the caller proves it, e.g. by a Picard
// inclusion coupled with other components):
//  1. the unperturbed ODE x' = f(x, u_c) (u_c a point of U) has, for every x0 in the set,
//       x(s) = sum_{i<=p} x_i(x0) s^i + x_{p+1}(x(xi)) s^{p+1},   x(xi) in W
//     (Taylor coefficients x_i of the solution; W contains the unperturbed solution too, u_c being
//     an admissible input), and by the mean value theorem on the box [X] of the set
//       sum_{i<=p} x_i(x0) s^i in sum_i x_i(c) s^i + (sum_i Dx_i([X]) s^i) (x0 - c);
//  2. a solution of the inclusion and the unperturbed one from the same x0 differ by e(s) with
//       |e_i|' <= J_ii |e_i| + sum_{j != i} |J_ij| |e_j| + C_i,  J in D_x f(W, u_c),
//       C_i >= sup_{W, U} |D_u f (u - u_c)|_i,
//     so |e(s)| <= int_0^s exp(A (s - t)) C dt <= E, A the Metzler majorant of J (component-wise
//     estimate of the differential-inclusion Lohner algorithm: T. Kapela, P. Zgliczynski, "A
//     Lohner-type algorithm for control systems and ordinary differential inclusions", Discrete
//     Contin. Dyn. Syst. Ser. B 11 (2009) 365-385, Sec. 3; the sum is bounded by its series
//     with a geometric tail);
//  3. the new set: c' = mid of the centre part, C_i' = mid(A_T C_i), B' from a QR factorization
//     of mid(A_T B) with a rigorous inverse (linalg::orthogonal_basis), everything else (the
//     roundings of the C_i products, A_T e, the remainders) in r'
//     [Lohner 1987; Zgliczynski, Found. Comput. Math. 2 (2002)].
// The step also returns a Taylor model (ode::TimeTm) of every component on s in [0, H], valid for
// every solution of the inclusion from the set (the coupling sums of a block-structured system use
// it). Failure is a value (evaluator failure, QR not proven, unbounded enclosures).
#pragma once

#if !defined(FLOWCERT_ODE_INTERNAL)
#error "include <flowcert/ode.hpp>, not the internal headers"
#endif

#include <flowcert/interval.hpp>
#include <flowcert/linalg.hpp>
#include <flowcert/taylor.hpp>

#include <Eigen/Core>

#include <string>
#include <vector>

#include "time_taylor_model.hpp"

namespace flowcert::ode {

// x in c + sum_i C_i r_i + B r + e for the true state(s): c, C_i, B exact doubles, r_i, r, e
// interval vectors. The parts C_i r_i are propagated without wrapping (C_i <- mid(A C_i), the
// rounding of the product into r); the part B r is Lohner's QR-stabilized one, which collects each
// step's local errors; append() adds new independent components as a new part (a multi-parallelepiped
// form of Zgliczynski's doubleton). e: shifts not yet absorbed (add(); the next step maps it by its
// Jacobian). The set contains its centre c (every operation keeps 0 in the offset).
struct LohnerSet {
    struct Part {
        Eigen::MatrixXd C;
        linalg::IVectorD r;
    };
    Eigen::VectorXd c;
    std::vector<Part> parts;
    Eigen::MatrixXd B;
    linalg::IVectorD r;
    linalg::IVectorD pending;

    static LohnerSet from_box(const std::vector<IntervalD>& box);
    std::size_t dimension() const { return static_cast<std::size_t>(c.size()); }
    // Interval hull of the set.
    std::vector<IntervalD> box() const;
    // Every state x becomes x + e for some e in `delta` (e.g. a block removed from a sum).
    void add(const std::vector<IntervalD>& delta);
    // New components, independent of the others, in the box `box` (block-diagonal extension).
    void append(const std::vector<IntervalD>& box);
    // The true states have components [first, first + count) exactly 0 (e.g. an empty sum): those
    // rows of c, C_i, B and e become 0 (B may become singular: no step needs its inverse).
    void zero_components(std::size_t first, std::size_t count);
};

struct LohnerStepInput {
    IntervalD h;                     // the step length (an enclosure; H = upper(h))
    int order = 8;                   // Taylor order p (coefficients up to p, remainder at p + 1)
    std::vector<IntervalD> apriori;  // W: every solution from the set on [0, H] (N entries)
    std::vector<IntervalD> input;    // U (Nu entries)
};

struct LohnerStepResult {
    bool ok = false;
    std::string reason;
    LohnerSet end;               // at s = h
    std::vector<TimeTm> model;   // per component, on s in [0, H] (coefficients 0..order)
    std::vector<IntervalD> deviation;  // E: the component-wise bound of step 2
    double last_term = 0;        // max_i |x_p(c)_i| H^p (for step-size heuristics)
};

// `field` has N + Nu variables (N = set.dimension(), Nu = input.size()), the last Nu with
// right-hand side 0; `params` are its parameter values. order <= kTmMaxOrder.
LohnerStepResult lohner_inclusion_step(const taylor::VectorField& field, const std::vector<IntervalD>& params,
                                       const LohnerSet& set, const LohnerStepInput& in);
// The same with a caller-owned evaluator of that field and those parameters, kept across steps (its
// coefficient arrays are allocated once instead of at every step; the result is identical).
LohnerStepResult lohner_inclusion_step(taylor::TaylorEvaluator<IntervalD>& ev, const LohnerSet& set, const LohnerStepInput& in);

// Component-wise deviation bound of step 2: E >= int_0^H exp(A (H - t)) C dt for the Metzler
// majorant A of the interval matrix J (A_ii = sup J_ii, A_ij = sup |J_ij|) and C >= 0.
std::vector<double> deviation_bound(const linalg::IMatrixD& J, const std::vector<double>& C, double H);

}  // namespace flowcert::ode
