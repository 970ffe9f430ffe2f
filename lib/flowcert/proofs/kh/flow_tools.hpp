// lib/flowcert/proofs/kh/flow_tools.hpp -- shared pieces of the kh/theorem10_escape and kh/first_saddle verifiers
// [KH2025] (Kumar & Haupt, JMLR 26, paper 25-1089). Proof wing (issue 15): knows no report; the definitions are in
// flow_tools.cpp, instantiated for IntervalD and IntervalMp.
//
//  * square_loss_derivatives: L(w) = c sum_i (H(x_i; w) - y_i)^2, grad L = 2c J^T r, and
//      Hess L = 2c (J^T J + sum_i r_i Hess H_i)   (r = H(X; w) - y),  from the model layer's enclosures.
//  * the RAY of a single-block KKT point [DERIVED, docs/kh.md]: if the loss flow leaves the ray R_+ w* invariant
//    (weighted squares with w* = e_k; diagonal nets with w* one balanced block), then with rho = ||w||,
//      L(rho w*) = c sum_i (rho^L h_i - y_i)^2,  h = H(X; w*),  so
//      rho' = L rho^{L-1} (N* - S rho^L),   N* = N(w*) = 2c y^T h,   S = 2c ||h||^2.
//    Separating variables, 1/(L rho^{L-1}(N* - S rho^L)) = 1/(L N* rho^{L-1}) + S rho / (L N* (N* - S rho^L)), so
//    the limiting path p(t) = rho_p(t) w* of [KH2025, Thm 4 / Thm 10] is the inverse of
//      t_p(rho) = [ln rho - (1/2) ln(1 - S rho^2 / N*)] / (2 N*)                          (L = 2)
//      t_p(rho) = -rho^{-(L-2)} / (L (L-2) N*) + (S / (L N*)) G(rho),
//                 G(rho) = int_0^rho s/(N* - S s^L) ds = sum_{n>=0} S^n rho^{Ln+2} / (N*^{n+1} (Ln+2))   (L > 2)
//    (the shifts ln(1/delta)/(2N*) and delta^{-(L-2)}/(L(L-2)N*) of p's definition cancel the first terms
//    exactly). t_p is increasing on (0, rho*), rho* = (N*/S)^{1/L} = ||lim p(t)||.
//  * escape brackets from a tube: T_esc = inf{t : ||psi(t)|| >= r}.
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/linalg.hpp>
#include <flowcert/nets.hpp>
#include <flowcert/ode.hpp>
#include <flowcert/taylor.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace flowcert::proofs::kh {

template <Interval I> I cst(long long k, long bits) { return IntervalTraits<I>::from_integer(k, bits); }

template <Interval I> I norm2_sq(const std::vector<I>& v) {
    I s = sqr(v.at(0));
    for (std::size_t i = 1; i < v.size(); ++i) s += sqr(v[i]);
    return s;
}
template <Interval I> I norm2(const std::vector<I>& v) { return sqrt(norm2_sq(v)); }
template <Interval I> std::vector<I> to_std(const nets::Vec<I>& v) { return std::vector<I>(v.data(), v.data() + v.size()); }

// ---- square loss ---------------------------------------------------------------------------------------
template <Interval I>
struct LossDerivatives {
    bool ok = false;
    std::string reason = "not evaluated";
    I value;
    nets::Vec<I> gradient;
    nets::Mat<I> hessian;
};

// [KH2025, eq. (1)-(2)] with c from the normalization; Hessian = 2c (J^T J + sum_i r_i Hess H_i).
template <Interval I>
LossDerivatives<I> square_loss_derivatives(const nets::HomogeneousModel<I>& model, const nets::Vec<I>& w,
                                           const nets::Vec<I>& y, const nets::SquareLossNormalization& norm,
                                           bool with_hessian);

// A single-block KKT point w* (its support is one coordinate of weighted squares or one block u^(1..D)_k of a
// diagonal net), the setting of the ray: theorem10_escape.hpp, first_saddle.hpp decide it.
struct OneBlockSupport {
    bool proven = false;
    int kstar = -1;  // the coordinate / block (when proven)
};

// ---- the ray ODE rho' = L rho^{L-1}(N - S rho^L) and its limiting path ----------------------------------
template <Interval I>
struct Ray {
    int L = 2;
    I N;  // N(w*)
    I S;  // 2c ||H(X; w*)||^2
    long bits = 53;

    // rho* = (N/S)^{1/L}: the norm of lim p(t) (bounded case, S > 0).
    I rho_star() const { return exp(log(N / S) / cst<I>(L, bits)); }

    // t_p(rho) (header comment); throws std::domain_error unless 0 < rho < rho* certainly.
    I time_of(const I& rho) const;

    // Enclosure of rho_p(t) for an exact time t by bisection on exact doubles, using that t_p is increasing:
    // t_p(lo) < t < t_p(hi) certainly  =>  rho_p(t) in [lo, hi].  Returns false if no bracket was found.
    bool radius_at(const I& t, I& out) const;
};

// The ray of a single-block KKT point w* with N(w*) = Nstar (header comment): S = 2c ||H(X; w*)||^2, c the loss
// scale of `norm` on n samples.
template <Interval I>
Ray<I> ray_of(const nets::HomogeneousModel<I>& model, const linalg::IVector<I>& wstar, const I& Nstar,
              const nets::SquareLossNormalization& norm, int n, int L);

// ---- escape brackets --------------------------------------------------------------------------------------
struct EscapeBracket {
    bool ok = false;
    std::string reason = "not run";
    double lo = 0, hi = 0;  // T_esc in [lo, hi]
};

// T_esc = inf{t >= 0 : ||x(t)|| >= r}. Lower bound: every tube piece before it has ||box|| < r certainly (the
// pieces cover [0, t] without gaps). Upper bound: the first piece or output snapshot certainly at or beyond r.
template <Interval I>
EscapeBracket escape_bracket(const ode::Result<I>& run, const I& r);

// Runs x' = f from x0 to t_end with tubes and outputs; then refines the escape bracket `rounds` times by
// re-running with `per_round` output times inside the current bracket (steps are cut there).
template <Interval I>
EscapeBracket refined_escape(const taylor::VectorField& field, const std::vector<I>& params,
                             const std::vector<I>& x0, double t_end, const I& r, const ode::Options& opt0,
                             long bits, int rounds, int per_round, std::string* why = nullptr);

// sup-norm-2 of the Jacobian Df over a box (Frobenius bound), via Taylor-mode C^1 coefficients at order 1.
template <Interval I>
double jacobian_norm_upper(taylor::TaylorEvaluator<I>& ev, const std::vector<I>& box);

#define FLOWCERT_PROOFS_KH_FLOW_TOOLS_DECLARE(I, EXTERN)                                                               \
    EXTERN template struct Ray<I>;                                                                                      \
    EXTERN template LossDerivatives<I> square_loss_derivatives<I>(const nets::HomogeneousModel<I>&, const nets::Vec<I>&, \
                                                                  const nets::Vec<I>&, const nets::SquareLossNormalization&, bool); \
    EXTERN template Ray<I> ray_of<I>(const nets::HomogeneousModel<I>&, const linalg::IVector<I>&, const I&,             \
                                     const nets::SquareLossNormalization&, int, int);                                   \
    EXTERN template EscapeBracket escape_bracket<I>(const ode::Result<I>&, const I&);                                   \
    EXTERN template EscapeBracket refined_escape<I>(const taylor::VectorField&, const std::vector<I>&, const std::vector<I>&, \
                                                    double, const I&, const ode::Options&, long, int, int, std::string*); \
    EXTERN template double jacobian_norm_upper<I>(taylor::TaylorEvaluator<I>&, const std::vector<I>&);

FLOWCERT_PROOFS_KH_FLOW_TOOLS_DECLARE(IntervalD, extern)
FLOWCERT_PROOFS_KH_FLOW_TOOLS_DECLARE(IntervalMp, extern)

}  // namespace flowcert::proofs::kh
