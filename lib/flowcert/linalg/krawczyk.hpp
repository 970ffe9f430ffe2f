// flowcert/linalg/krawczyk.hpp -- Krawczyk's interval Newton method for F(x) = 0, F: R^n -> R^n.
//
// With X a box, x~ a point of X, R ~ inv(mid J(X)) (double, any matrix is sound) and J(X) an
// enclosure of the Jacobians F'(x) for x in X, the Krawczyk operator is
//   K(X) = x~ - R F(x~) + (I - R J(X)) (X - x~)                  [Krawczyk 1969; Neumaier 1990, Sec. 5.2]
// and
//   * K(X) ⊂ interior(X)  =>  F has exactly one zero in X, and it lies in K(X)  [Rump 1983; Neumaier, Thm 5.2.2
//     with strict inclusion giving nonsingularity of R and of every matrix in J(X)];
//   * every zero of F in X lies in K(X), so K(X) ∩ X = ∅ => F has no zero in X.
// `krawczyk` iterates X <- K(X) ∩ X from the given box: zeros in the ORIGINAL box are kept in
// every iterate, so "no_zero" and "unique_zero" are statements about the box passed in.
// `krawczyk_around` starts from a non-rigorous approximate zero and grows a box by
// epsilon-inflation, Y = X + [-1,1](rel |X - x~| + abs), X <- K(Y) [Rump 1994, Sec. 3].
//
// The callables are evaluated on point boxes (F at x~, as point intervals) and on boxes (J over
// X); they must return rigorous enclosures. An exception thrown by a callable (e.g. a domain
// error) is caught and reported as not_proven with its message.
#pragma once

#if !defined(FLOWCERT_LINALG_INTERNAL)
#error "include <flowcert/linalg.hpp>, not the internal headers"
#endif

#include <functional>
#include <string>

#include "matrix.hpp"

namespace flowcert::linalg {

template <Interval I> using VectorFunction = std::function<IVector<I>(const IVector<I>&)>;
template <Interval I> using JacobianFunction = std::function<IMatrix<I>(const IVector<I>&)>;

enum class KrawczykStatus { not_proven, unique_zero, no_zero };
const char* to_string(KrawczykStatus s);

struct KrawczykOptions {
    int max_iterations = 30;     // Krawczyk steps (krawczyk) / inflation steps (krawczyk_around)
    int tighten_steps = 40;      // at most this many X <- K(X) ∩ X steps after proving uniqueness
                                 // (stops once a step no longer halves the width)
    double inflation_rel = 0.1;  // krawczyk_around: relative inflation of each step
    double inflation_abs = 1e-12; // krawczyk_around: absolute inflation (also the initial radius)
};

template <Interval I>
struct KrawczykResult {
    KrawczykStatus status = KrawczykStatus::not_proven;
    std::string reason = "not run";
    // unique_zero: the unique zero of F in the input box (krawczyk) or in the last inflated box
    // (krawczyk_around) lies in `box`. no_zero: `box` is the input box. not_proven: last box tried.
    IVector<I> box;
    // krawczyk_around only: the box Y in which uniqueness was proven (`box` ⊆ uniqueness_box).
    IVector<I> uniqueness_box;
    int iterations = 0;
    double contraction_bound = 0;  // upper bound on ||I - R J(X)||_inf at the last step
};

template <Interval I>
KrawczykResult<I> krawczyk(const VectorFunction<I>& F, const JacobianFunction<I>& J, const IVector<I>& box,
                           const KrawczykOptions& options = {});

// x_approx: point intervals (e.g. to_interval<I>(x_double, bits)); any box works, its midpoint
// is used as the starting point.
template <Interval I>
KrawczykResult<I> krawczyk_around(const VectorFunction<I>& F, const JacobianFunction<I>& J,
                                  const IVector<I>& x_approx, const KrawczykOptions& options = {});

extern template KrawczykResult<IntervalD> krawczyk(const VectorFunction<IntervalD>&,
                                                   const JacobianFunction<IntervalD>&, const IVectorD&,
                                                   const KrawczykOptions&);
extern template KrawczykResult<IntervalMp> krawczyk(const VectorFunction<IntervalMp>&,
                                                    const JacobianFunction<IntervalMp>&, const IVectorMp&,
                                                    const KrawczykOptions&);
extern template KrawczykResult<IntervalD> krawczyk_around(const VectorFunction<IntervalD>&,
                                                          const JacobianFunction<IntervalD>&, const IVectorD&,
                                                          const KrawczykOptions&);
extern template KrawczykResult<IntervalMp> krawczyk_around(const VectorFunction<IntervalMp>&,
                                                           const JacobianFunction<IntervalMp>&,
                                                           const IVectorMp&, const KrawczykOptions&);

}  // namespace flowcert::linalg
