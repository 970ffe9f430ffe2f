// Krawczyk / interval Newton for nonlinear systems; see krawczyk.hpp.
#include "detail.hpp"

#include <exception>
#include <stdexcept>

namespace flowcert::linalg {

const char* to_string(KrawczykStatus s) {
    switch (s) {
        case KrawczykStatus::unique_zero: return "unique_zero";
        case KrawczykStatus::no_zero: return "no_zero";
        case KrawczykStatus::not_proven: return "not_proven";
    }
    return "unknown";
}

namespace {

// One Krawczyk operator evaluation K(X) = x~ - R F(x~) + (I - R J(X)) (X - x~), x~ ∈ X.
// [Krawczyk 1969; Neumaier 1990, Sec. 5.2]. Returns false (with `why`) if R cannot be formed
// or a callable failed.
template <Interval I>
bool krawczyk_operator(const VectorFunction<I>& F, const JacobianFunction<I>& J, const IVector<I>& X,
                       IVector<I>& K, double& contraction, std::string& why) {
    const Eigen::Index n = X.size();
    const long p = working_precision<I>(X);
    const IVector<I> xt = mid_point_of<I>(X);  // a point inside X
    IVector<I> Fx;
    IMatrix<I> JX;
    try {
        Fx = F(xt);
        JX = J(X);
    } catch (const std::exception& e) {
        why = std::string("a callable threw: ") + e.what();
        return false;
    }
    if (Fx.size() != n || JX.rows() != n || JX.cols() != n) {
        why = "F or J returned the wrong size";
        return false;
    }
    if (!all_bounded<I>(Fx) || !all_bounded<I>(JX)) {
        why = "F(x~) or J(X) has unbounded entries";
        return false;
    }
    const auto R = detail::approximate_inverse(mid<I>(JX), why);  // not rigorous (need not be)
    if (!R) {
        why = "Jacobian " + why;
        return false;
    }
    const IMatrix<I> C = identity<I>(n, p) - detail::product(*R, JX, p);
    contraction = norm_inf_upper<I>(C);
    const IMatrix<I> RF = detail::product(*R, IMatrix<I>(Fx), p);
    const IMatrix<I> D = IMatrix<I>(X - xt);
    const IMatrix<I> CD = detail::product(C, D);
    K = xt - IVector<I>(RF.col(0)) + IVector<I>(CD.col(0));
    return true;
}

// After uniqueness is proven: Z <- K(Z) ∩ Z keeps the zero; stop when a step no longer halves
// the largest width (quadratic convergence has ended at the working precision) or after
// `max_steps` steps.
template <Interval I>
void tighten(const VectorFunction<I>& F, const JacobianFunction<I>& J, IVector<I>& Z, int max_steps) {
    for (int s = 0; s < max_steps; ++s) {
        IVector<I> K, T;
        double c = 0;
        std::string why;
        if (!krawczyk_operator<I>(F, J, Z, K, c, why)) return;
        if (!intersect<I>(K, Z, T)) return;  // cannot happen: the zero is in both
        const bool progress = max_width<I>(T) < 0.5 * max_width<I>(Z);
        Z = std::move(T);
        if (!progress) return;
    }
}

}  // namespace

template <Interval I>
KrawczykResult<I> krawczyk(const VectorFunction<I>& F, const JacobianFunction<I>& J, const IVector<I>& box,
                           const KrawczykOptions& opt) {
    KrawczykResult<I> out;
    out.box = box;
    if (!all_bounded<I>(box)) { out.reason = "the box is unbounded"; return out; }
    IVector<I> X = box;
    for (int it = 1; it <= opt.max_iterations; ++it) {
        out.iterations = it;
        IVector<I> K;
        std::string why;
        if (!krawczyk_operator<I>(F, J, X, K, out.contraction_bound, why)) {
            out.box = X;
            out.reason = why + " (iteration " + std::to_string(it) + ")";
            return out;
        }
        if (interior_subset<I>(K, X)) {
            // Unique zero in X (hence in the input box, whose zeros all lie in X), inside K.
            IVector<I> Z = K;
            tighten<I>(F, J, Z, opt.tighten_steps);
            out.box = std::move(Z);
            out.status = KrawczykStatus::unique_zero;
            out.reason = "K(X) ⊂ int(X) at iteration " + std::to_string(it) + " (||I - R J(X)||_inf <= " +
                         format_g(out.contraction_bound, 3) + ")";
            return out;
        }
        IVector<I> Xn;
        if (!intersect<I>(K, X, Xn)) {
            out.box = box;
            out.status = KrawczykStatus::no_zero;
            out.reason = "K(X) ∩ X = ∅ at iteration " + std::to_string(it) + ": no zero in the box";
            return out;
        }
        if (subset<I>(X, Xn)) {  // no progress
            out.box = X;
            out.reason = "Krawczyk iteration stalled at iteration " + std::to_string(it) +
                         ": K(X) not inside int(X) and K(X) ∩ X = X (||I - R J(X)||_inf <= " +
                         format_g(out.contraction_bound, 3) + "); try a smaller box";
            return out;
        }
        X = std::move(Xn);
    }
    out.box = X;
    out.reason = "K(X) not inside int(X) after " + std::to_string(opt.max_iterations) +
                 " iterations (||I - R J(X)||_inf <= " + format_g(out.contraction_bound, 3) + ")";
    return out;
}

template <Interval I>
KrawczykResult<I> krawczyk_around(const VectorFunction<I>& F, const JacobianFunction<I>& J,
                                  const IVector<I>& x_approx, const KrawczykOptions& opt) {
    KrawczykResult<I> out;
    if (!all_bounded<I>(x_approx)) { out.reason = "the starting point is unbounded"; return out; }
    IVector<I> X = mid_point_of<I>(x_approx);
    for (int it = 1; it <= opt.max_iterations; ++it) {
        out.iterations = it;
        // Epsilon-inflation [Rump 1994, Sec. 3].
        IVector<I> Y(X.size());
        for (Eigen::Index i = 0; i < X.size(); ++i)
            Y(i) = flowcert::inflate(X(i), detail::add_up(detail::mul_up(opt.inflation_rel, width(X(i))), opt.inflation_abs));
        IVector<I> K;
        std::string why;
        if (!krawczyk_operator<I>(F, J, Y, K, out.contraction_bound, why)) {
            out.box = Y;
            out.reason = why + " (inflation step " + std::to_string(it) + ")";
            return out;
        }
        if (interior_subset<I>(K, Y)) {
            IVector<I> Z = K;
            tighten<I>(F, J, Z, opt.tighten_steps);
            out.box = std::move(Z);
            out.uniqueness_box = std::move(Y);
            out.status = KrawczykStatus::unique_zero;
            out.reason = "K(Y) ⊂ int(Y) after " + std::to_string(it) + " inflation steps (||I - R J(Y)||_inf <= " +
                         format_g(out.contraction_bound, 3) + ")";
            return out;
        }
        if (!all_bounded<I>(K)) {
            out.box = Y;
            out.reason = "K(Y) became unbounded";
            return out;
        }
        X = std::move(K);
    }
    out.box = X;
    out.reason = "epsilon-inflation failed: K(Y) not inside int(Y) after " + std::to_string(opt.max_iterations) +
                 " steps (||I - R J(Y)||_inf <= " + format_g(out.contraction_bound, 3) + ")";
    return out;
}

template KrawczykResult<IntervalD> krawczyk(const VectorFunction<IntervalD>&, const JacobianFunction<IntervalD>&,
                                            const IVectorD&, const KrawczykOptions&);
template KrawczykResult<IntervalMp> krawczyk(const VectorFunction<IntervalMp>&, const JacobianFunction<IntervalMp>&,
                                             const IVectorMp&, const KrawczykOptions&);
template KrawczykResult<IntervalD> krawczyk_around(const VectorFunction<IntervalD>&,
                                                   const JacobianFunction<IntervalD>&, const IVectorD&,
                                                   const KrawczykOptions&);
template KrawczykResult<IntervalMp> krawczyk_around(const VectorFunction<IntervalMp>&,
                                                    const JacobianFunction<IntervalMp>&, const IVectorMp&,
                                                    const KrawczykOptions&);

}  // namespace flowcert::linalg
