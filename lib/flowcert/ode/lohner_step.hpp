// flowcert/ode/lohner_step.hpp -- one validated Taylor/Lohner step and one hull step through a
// kink, given their choices (the step size, the a priori box, the new centre and bases). Shared
// by the integrator, which makes the choices (integrator.cpp), and by the re-validation of
// recorded steps, which reads them as hints (revalidate.cpp): the same arithmetic in the same
// order, so an honest record re-validates exactly. Private to the ODE layer (not included by
// <flowcert/ode.hpp>). The method is described in docs/integrator.md.
#pragma once

#include <flowcert/linalg.hpp>
#include <flowcert/ode.hpp>

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "centre_dd.hpp"

namespace flowcert::ode::detail {

// Dense interval algebra of the linalg layer (column-major Eigen storage).
template <class I> using Vec = linalg::IVector<I>;
template <class I> using Mat = linalg::IMatrix<I>;
template <class I> I point_mid(const I& x) { return linalg::mid_point_of(x); }
template <class I> std::span<const I> span(const Vec<I>& v) { return {v.data(), static_cast<std::size_t>(v.size())}; }
template <class I> std::vector<I> to_std(const Vec<I>& v) { return {v.data(), v.data() + v.size()}; }

Status from_eval(taylor::EvalStatus s);
inline bool strictly_inside(const IntervalD& z, const IntervalD& y) { return y.lower() < z.lower() && z.upper() < y.upper(); }
inline bool strictly_inside(const IntervalMp& z, const IntervalMp& y) { return mpfi_is_strictly_inside(z.get(), y.get()) > 0; }

struct Outcome {
    Status status = Status::ok;
    std::string reason;
    double shrink = 0.5;  // on a failure: the factor to shorten the step by
    bool ok() const { return status == Status::ok; }
};

// The doubleton c + C r0 + B r [Lohner 1987; CAPD's C^0 set, Zgliczynski 2002]: r0 in R0 (the
// initial offsets, never wrapped), r in R; Binv encloses B^{-1}.
template <Interval I>
struct LohnerSet {
    Vec<I> c, R;
    Mat<I> C, B, Binv;
    Vec<I> box(const Vec<I>& R0) const {
        Vec<I> x = c + linalg::mul(C, R0);
        x += linalg::mul(B, R);
        return x;
    }
};

// The image of a smooth step before its representation is chosen:
//   x(h) in centre + z + JC r0 + JB r  for every r0 in R0, r in R.
template <Interval I>
struct SmoothImage {
    Vec<I> centre;  // points
    Vec<I> z;
    Mat<I> J, JC, JB;
    bool centre_dd = false;  // the Taylor sum at the centre was taken in double-double
};

// Q of a QR factorization of M whose leading columns span the columns of largest `weight`
// (Lohner's wrapping control), with a rigorous enclosure of Q^{-1}; the identity (always
// valid, only less tight) when the enclosure fails.
template <Interval I>
void lohner_basis(Eigen::MatrixXd M, const std::vector<double>& weight, long bits, Mat<I>& Q, Mat<I>& Qinv);

template <Interval I>
class StepKernel {
public:
    StepKernel(const taylor::VectorField& f, const std::vector<I>& params, const Options& opt, long bits);

    int dimension() const { return n_; }
    double tolerance() const { return tol_; }

    // 1. Taylor coefficients at the centre c (IntervalD, polynomial fields, allow_dd: in
    //    double-double) and over the box X (with the Jacobian up to order q). A relu argument
    //    straddling 0 sets `kink` (when kinks may be crossed, not Options::c1); any other
    //    evaluation failure is returned.
    Outcome coefficients(const Vec<I>& c, const Vec<I>& X, bool allow_dd, bool& kink, std::string& kink_reason);
    // 2. The a priori enclosure [NJC 1999, Sec. 5]: Z = sum_{k<=p} x_k(X) H^k + H^{p+1} x_{p+1}(Y)
    //    strictly inside Y, H = [0, h], proves x(t) in Z for t in H. search: Y grows from the
    //    Taylor polynomial (up to four inflations); otherwise Y is tested as given.
    Outcome a_priori(const I& hI, Vec<I>& Y, Vec<I>& Z, bool search);
    // 3. The Lagrange remainder h^{p+1} x_{p+1}(Y); check_tolerance: remainder_too_wide (with the
    //    shrink factor) above remainder_factor * tol * max(1, |X|).
    Outcome remainder(const I& hI, const Vec<I>& X, Vec<I>& rem, bool check_tolerance) const;
    // 4. The mean-value (Lohner) form of the step from the set S.
    Outcome smooth_image(const I& hI, const LohnerSet<I>& S, const Vec<I>& rem, SmoothImage<I>& out);
    // 5. The representation the integrator chooses: C' = mid(JC), B' = Q of mid(JB) (columns
    //    weighted by the widths of R), with B'^{-1} enclosed.
    void choose_representation(const SmoothImage<I>& img, const Vec<I>& R, Mat<I>& C1, Mat<I>& B1, Mat<I>& B1inv) const;
    // 6. The set in a given representation (c1, C1, B1 with B1inv enclosing B1^{-1}):
    //    r' in (B1^{-1} JB) r + B1^{-1}((centre - c1) + z + (JC - C1) r0).
    Outcome represent(const SmoothImage<I>& img, const Vec<I>& R0, const Vec<I>& R, Vec<I> c1, Mat<I> C1, Mat<I> B1,
                      Mat<I> B1inv, LohnerSet<I>& out) const;
    // Tube pieces of the smooth step from time t: on each of m sub-intervals T_j of [0, h],
    // x(t + s) in sum_{k<=p} x_k(X) T_j^k + T_j^{p+1} x_{p+1}(Y), intersected with Z.
    void pieces(const I& t, const I& hI, const Vec<I>& Z, int m, std::vector<TubePiece<I>>& out) const;

    // Hull step [Picard-Lindeloef with the interval extension of f, relu by its range]: Z =
    // X + [0,h] f(Y) strictly inside Y proves x(t) in Z on the step and x(h) in x0 + h F, F = f(Y).
    Outcome hull_a_priori(const I& hI, const Vec<I>& X, Vec<I>& Y, Vec<I>& Z, Vec<I>& F, bool search);
    // x(h) in c + C r0 + B r + h F = c1 + C r0 + B (r + B^{-1}(c + h F - c1)).
    Outcome hull_update(const I& hI, const Vec<I>& F, const LohnerSet<I>& S, const Vec<I>& c1, LohnerSet<I>& out) const;

    // The evaluators of the last a priori box (smooth: order p + 1; hull: kink-hull mode, order 2).
    const taylor::TaylorEvaluator<I>& apriori_evaluator() const { return ey_; }
    taylor::TaylorEvaluator<I>& hull_evaluator() { return eh_; }
    // An upper bound of |x_k(c)| of variable i at the centre (step-size prediction).
    double centre_mag(int i, int k) const;

private:
    template <class Image>
    Outcome enclose(Vec<I>& Y, Vec<I>& Z, std::vector<double>& eps, int iterations, bool search, Image image);

    Options opt_;
    long bits_;
    int n_, p_, q_;
    double tol_;
    I zero_, one_;
    // centre (C^0, order p), box (C^0, order p), box (C^1, order q), a priori set (order p+1)
    taylor::TaylorEvaluator<I> ec_, ex_, ej_, ey_;
    taylor::TaylorEvaluator<I> eh_;  // kink-hull mode, for hull steps
    std::optional<CentreDD> dd_;      // IntervalD and polynomial fields only
    std::vector<double> cd_;
    bool use_dd_ = false;             // this step's centre coefficients are dd_'s
    std::vector<std::string> names_;  // of the variables, for messages
};

extern template class StepKernel<IntervalD>;
extern template class StepKernel<IntervalMp>;

}  // namespace flowcert::ode::detail
