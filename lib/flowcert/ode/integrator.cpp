// flowcert/ode/integrator.cpp -- the Taylor/Lohner step (see integrator.hpp and docs/integrator.md).
#include <flowcert/ode.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <type_traits>

#include "centre_dd.hpp"

namespace flowcert::ode {

const char* to_string(Status s) {
    switch (s) {
        case Status::not_run: return "not_run";
        case Status::ok: return "ok";
        case Status::no_a_priori_enclosure: return "no_a_priori_enclosure";
        case Status::remainder_too_wide: return "remainder_too_wide";
        case Status::non_finite: return "non_finite";
        case Status::relu_kink: return "relu_kink";
        case Status::domain_error: return "domain_error";
        case Status::step_limit: return "step_limit";
        case Status::invalid_input: return "invalid_input";
    }
    return "?";
}

namespace {

using detail::Mat;
using detail::Vec;

Status from_eval(taylor::EvalStatus s) {
    switch (s) {
        case taylor::EvalStatus::ok: return Status::ok;
        case taylor::EvalStatus::relu_kink: return Status::relu_kink;
        case taylor::EvalStatus::domain_error: return Status::domain_error;
        case taylor::EvalStatus::non_finite: return Status::non_finite;
    }
    return Status::non_finite;
}

inline bool strictly_inside(const IntervalD& z, const IntervalD& y) {
    return y.lower() < z.lower() && z.upper() < y.upper();
}
inline bool strictly_inside(const IntervalMp& z, const IntervalMp& y) {
    return mpfi_is_strictly_inside(z.get(), y.get()) > 0;
}

struct Outcome {
    Status status = Status::ok;
    std::string reason;
    bool ok() const { return status == Status::ok; }
};

template <Interval I>
class Lohner {
public:
    Lohner(const taylor::VectorField& f, const std::vector<I>& params, const Options& opt, long bits)
        : opt_(opt), bits_(bits), n_(f.dimension()), p_(opt.order),
          ec_(f, params, bits), ex_(f, params, bits), ej_(f, params, bits), ey_(f, params, bits) {
        q_ = opt.jacobian_order > 0 ? std::min(opt.jacobian_order, p_) : p_;
        if (opt.c1) q_ = p_;  // the C^1 result needs the full DT_p
        zero_ = IntervalTraits<I>::from_integer(0, bits);
        one_ = IntervalTraits<I>::from_integer(1, bits);
        tol_ = opt.tolerance > 0 ? opt.tolerance : std::ldexp(1.0, -static_cast<int>(std::min(bits, 1000L))) / 100;
        if constexpr (std::is_same_v<I, IntervalD>) {
            dd_.emplace(f, params);
            if (!dd_->supported()) dd_.reset();
        }
    }

    void init(const std::vector<I>& x0) {
        c_.resize(n_);
        R0_.resize(n_);
        R_.assign(n_, zero_);
        for (int i = 0; i < n_; ++i) {
            c_[i] = detail::point_mid(x0[i]);
            R0_[i] = x0[i] - c_[i];
        }
        C_ = detail::identity<I>(n_, bits_);
        B_ = C_;
        Binv_ = C_;
        VA_ = C_;
        VB_ = C_;
        VE_ = Mat<I>(n_, n_, zero_);
        t_ = zero_;
    }

    Vec<I> box() const {
        Vec<I> x = detail::add(detail::add(c_, detail::mul(C_, R0_)), detail::mul(B_, R_));
        return x;
    }
    const I& time() const { return t_; }
    // D_x0 phi in VA + VB VE (the C^1 analogue of the doubleton, see try_step).
    std::vector<I> derivative() const {
        Mat<I> V = detail::mul(VB_, VE_);
        for (std::size_t e = 0; e < V.a.size(); ++e) V.a[e] += VA_.a[e];
        return V.a;
    }

    // Advances the set to the time `stop` (which must not be before the current time).
    Outcome advance_to(const I& stop, Result<I>& res) {
        while (true) {
            const I remaining = stop - t_;
            if (!possibly_positive(remaining)) return {};  // already there (stop == t)
            if (res.steps >= opt_.max_steps)
                return {Status::step_limit, "maximum number of steps (" + std::to_string(opt_.max_steps) + ") reached"};
            const Vec<I> X = box();
            // 1. Taylor coefficients at the centre (C^0) and over the box (C^1). IntervalD: at the
            //    centre in double-double with a rigorous radius when the field is polynomial.
            use_dd_ = false;
            if constexpr (std::is_same_v<I, IntervalD>) {
                if (dd_) {
                    cd_.resize(n_);
                    bool point = true;
                    for (int i = 0; i < n_; ++i) {
                        cd_[i] = c_[i].lower();
                        point = point && c_[i].lower() == c_[i].upper();
                    }
                    use_dd_ = point && dd_->compute(cd_, p_);
                }
            }
            taylor::EvalResult r;
            if (!use_dd_ || q_ < p_) {
                r = ec_.compute(c_, p_);
                if (!r.ok()) return fail(from_eval(r.status), "at the centre of the set: " + r.reason, X, res);
            }
            r = q_ < p_ ? ex_.compute(X, p_) : ex_.compute_c1(X, p_);
            if (!r.ok()) return fail(from_eval(r.status), "over the set: " + r.reason, X, res);
            if (q_ < p_) {
                r = ej_.compute_c1(X, q_);
                if (!r.ok()) return fail(from_eval(r.status), "over the set: " + r.reason, X, res);
            }
            double h = std::min(estimate_step(), opt_.max_step);
            while (true) {
                if constexpr (std::is_same_v<I, IntervalD>) {
                    // Keep the time a point when it is one: take h' = fl(t + h) - t (exact when
                    // h <= t, Sterbenz), so t + h' is a double. Otherwise the time enclosure would
                    // gain an ulp per step. (h only chooses the step; the step is validated with h'.)
                    if (t_.lower() == t_.upper()) {
                        const double h2 = (t_.lower() + h) - t_.lower();
                        if (h2 > 0 && std::isfinite(h2)) h = h2;
                    }
                }
                // the last step takes the whole remaining interval (a point, or an enclosure of the
                // exact stop time); an intermediate step must end certainly before the stop
                const bool last = !(lower(remaining) > h);
                const I hI = last ? remaining : IntervalTraits<I>::exact(h, bits_);
                Outcome o = try_step(hI, X, res);
                if (o.ok()) {
                    const double taken = upper(hI);
                    res.min_step = res.steps == 0 ? taken : std::min(res.min_step, taken);
                    res.max_step = std::max(res.max_step, taken);
                    ++res.steps;
                    t_ = last ? stop : t_ + hI;
                    if (last) return {};
                    break;
                }
                h = (last ? upper(remaining) : h) * 0.5;
                if (h < opt_.min_step) {
                    o.reason += " (step size reduced below the minimum " + std::to_string(opt_.min_step) + ")";
                    return fail(o.status, o.reason, X, res);
                }
            }
        }
    }

private:
    Options opt_;
    long bits_;
    int n_, p_, q_;
    // centre (C^0, order p), box (C^0, order p), box (C^1, order q), a priori set (order p+1)
    taylor::TaylorEvaluator<I> ec_, ex_, ej_, ey_;
    I zero_, one_, t_;
    double tol_;
    Vec<I> c_, R0_, R_;
    Mat<I> C_, B_, Binv_;
    Mat<I> VA_, VB_, VE_;  // derivative: point matrix + orthogonal basis x interval error matrix
    std::optional<detail::CentreDD> dd_;  // IntervalD and polynomial fields only
    std::vector<double> cd_;
    bool use_dd_ = false;                 // this step's centre coefficients are dd_'s

    double centre_mag(int i, int k) const {
        if constexpr (std::is_same_v<I, IntervalD>)
            if (use_dd_) return detail::dd_mag(dd_->coeff(i, k));
        return mag(ec_.coeff(i, k));
    }

    Outcome fail(Status s, std::string reason, const Vec<I>& X, Result<I>& res) {
        res.offending_set = X;
        return {s, std::move(reason)};
    }

    // Step size from the last two Taylor terms at the centre, as in CAPD's last-terms step
    // control: h = min_k (tol * scale / |x_k|)^(1/k), k = p-1, p. Heuristic (non-rigorous):
    // it only proposes h; the step is validated afterwards.
    double estimate_step() const {
        double scale = 1;
        for (int i = 0; i < n_; ++i) scale = std::max(scale, mag(c_[i]));
        double h = std::numeric_limits<double>::infinity();
        for (int k = std::max(1, p_ - 1); k <= p_; ++k) {
            double m = 0;
            for (int i = 0; i < n_; ++i) m = std::max(m, centre_mag(i, k));
            if (m > 0) h = std::min(h, std::pow(tol_ * scale / m, 1.0 / k));
        }
        return h;
    }

    Outcome try_step(const I& hI, const Vec<I>& X, Result<I>& res) {
        const int n = n_, p = p_;
        const I H = hull(zero_, hI);
        // 2. A priori enclosure by the high-order enclosure test [NJC 1999, Sec. 5]:
        //    Z = sum_{k<=p} x_k(X) H^k + H^{p+1} x_{p+1}(Y) strictly inside Y  =>  x(t) in Z, t in H.
        Vec<I> Y0(n), Y(n), Z(n);
        std::vector<double> eps(n);
        for (int i = 0; i < n; ++i) {
            I acc = ex_.coeff(i, p);
            for (int k = p - 1; k >= 0; --k) acc = acc * H + ex_.coeff(i, k);
            Y0[i] = acc;
            eps[i] = std::max(0.05 * width(acc), 1e2 * opt_.remainder_factor * tol_ * std::max(1.0, mag(acc)));
            Y[i] = inflate(acc, eps[i]);
        }
        const I Hp1 = pow(H, p + 1);
        bool verified = false;
        for (int it = 0; it < 4 && !verified; ++it) {
            auto r = opt_.c1 ? ey_.compute_c1(Y, p + 1) : ey_.compute(Y, p + 1);
            if (!r.ok()) return {from_eval(r.status), "over the a priori enclosure: " + r.reason};
            verified = true;
            for (int i = 0; i < n; ++i) {
                Z[i] = Y0[i] + Hp1 * ey_.coeff(i, p + 1);
                if (!strictly_inside(Z[i], Y[i])) verified = false;
            }
            if (!verified)
                for (int i = 0; i < n; ++i) {
                    eps[i] *= 4;
                    Y[i] = inflate(hull(Y[i], Z[i]), eps[i]);
                }
        }
        if (!verified)
            return {Status::no_a_priori_enclosure,
                    "the high-order enclosure test failed for h = " + std::to_string(upper(hI))};
        // 3. Lagrange remainder h^{p+1} x_{p+1}(x(xi)), x(xi) in Y.
        const I hp1 = pow(hI, p + 1);
        Vec<I> rem(n);
        for (int i = 0; i < n; ++i) {
            rem[i] = hp1 * ey_.coeff(i, p + 1);
            if (!is_bounded(rem[i])) return {Status::non_finite, "the remainder is not finite"};
            const double allowed = opt_.remainder_factor * tol_ * std::max(1.0, mag(X[i]));
            if (!(mag(rem[i]) <= allowed))
                return {Status::remainder_too_wide, "the Lagrange remainder of variable " + std::to_string(i) + " is " +
                                                        std::to_string(mag(rem[i])) + " > " + std::to_string(allowed) +
                                                        " at h = " + std::to_string(upper(hI))};
        }
        // 4. Taylor polynomial at the centre and its Jacobian over X (Horner in h). With q < p:
        //    T_p(x0) - T_p(c) = [T_q(x0) - T_q(c)] + sum_{k>q} h^k (x_k(x0) - x_k(c)), the first by
        //    the mean value theorem (DT_q over X), the second enclosed by x_k(X) - x_k(c).
        const int q = q_;
        const taylor::TaylorEvaluator<I>& ej = q < p ? ej_ : ex_;
        //    The new centre is c' = mid(y) and z = y - c' goes into the r part of the doubleton.
        //    With the double-double centre (IntervalD, polynomial fields), T_p(c,h) = hi + lo +- r
        //    and c' = hi, so z = [lo - r, lo + r] + remainder: the centre's rounding error stays
        //    ~u^2 |y| instead of tens of ulps of |y| per step.
        Vec<I> y(n), c_new(n), z(n);
        const I hq1 = pow(hI, q + 1);
        bool dd_done = false;
        if constexpr (std::is_same_v<I, IntervalD>) {
            detail::DD hd, yd;
            if (use_dd_ && detail::dd_from_interval(hI, hd)) {
                dd_done = true;
                for (int i = 0; i < n && dd_done; ++i) {
                    if (!dd_->taylor_sum(i, hd, yd)) {
                        dd_done = false;
                        break;
                    }
                    c_new[i] = IntervalD::exact(yd.hi);
                    z[i] = detail::dd_to_interval(detail::DD{0.0, yd.lo, yd.r}) + rem[i];
                }
            }
        }
        if (use_dd_ && !dd_done && q == p) {  // a guard failed: interval coefficients after all
            use_dd_ = false;
            auto r = ec_.compute(c_, p_);
            if (!r.ok()) return {from_eval(r.status), "at the centre of the set: " + r.reason};
        }
        for (int i = 0; i < n; ++i) {
            if (!dd_done) {
                I acc = ec_.coeff(i, p);
                for (int k = p - 1; k >= 0; --k) acc = acc * hI + ec_.coeff(i, k);
                y[i] = acc + rem[i];
            }
            if (q < p) {
                I tail = ex_.coeff(i, p) - ec_.coeff(i, p);
                for (int k = p - 1; k > q; --k) tail = tail * hI + (ex_.coeff(i, k) - ec_.coeff(i, k));
                if (dd_done) z[i] += tail * hq1;
                else y[i] += tail * hq1;
            }
            if (!dd_done) {
                c_new[i] = detail::point_mid(y[i]);
                z[i] = y[i] - c_new[i];
            }
        }
        Mat<I> J(n, n, zero_);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                I acc = ej.dcoeff(i, q, j);
                for (int k = q - 1; k >= 0; --k) acc = acc * hI + ej.dcoeff(i, k, j);
                J(i, j) = acc;
            }
        // Lohner update of the doubleton c + C r0 + B r [Lohner 1987]:
        //   x(h) in c' + C' r0 + B' r',  c' = mid(y), C' = mid(J C),
        //   r' in (B'^{-1} J B) r + B'^{-1} ((y - c') + (J C - C') r0).
        const Mat<I> JC = detail::mul(J, C_);
        Mat<I> C_new = JC, dC = JC;
        for (std::size_t e = 0; e < JC.a.size(); ++e) {
            C_new.a[e] = detail::point_mid(JC.a[e]);
            dC.a[e] = JC.a[e] - C_new.a[e];
        }
        const Mat<I> JB = detail::mul(J, B_);
        std::vector<double> A(static_cast<std::size_t>(n) * n), weight(n, 0.0);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) A[i * n + j] = mid(JB(i, j));
        for (int j = 0; j < n; ++j) {
            double s = 0;
            for (int i = 0; i < n; ++i) s += A[i * n + j] * A[i * n + j];
            weight[j] = std::sqrt(s) * width(R_[j]);
        }
        const std::vector<double> Qd = detail::householder_q(A, n, weight);
        Mat<I> Q(n, n, zero_), Qinv;
        for (std::size_t e = 0; e < Qd.size(); ++e) Q.a[e] = IntervalTraits<I>::exact(Qd[e], bits_);
        if (!detail::orthogonal_inverse(Q, bits_, Qinv)) {
            // Fall back to the identity basis (always valid, only less tight).
            Q = detail::identity<I>(n, bits_);
            Qinv = Q;
        }
        const Vec<I> err = detail::add(z, detail::mul(dC, R0_));
        Vec<I> R_new = detail::add(detail::mul(detail::mul(Qinv, JB), R_), detail::mul(Qinv, err));
        for (int i = 0; i < n; ++i)
            if (!is_bounded(R_new[i]) || !is_bounded(c_new[i])) return {Status::non_finite, "the new set is not finite"};
        // 5. C^1: Dphi_h in J + h^{p+1} Dx_{p+1}(Y) V(xi), |V(xi)_ij| <= ||V(xi)||_inf <= exp(|h| ||Df(Y)||_inf).
        if (opt_.c1) {
            double L = 0;
            for (int i = 0; i < n; ++i) {
                I row = zero_;
                for (int j = 0; j < n; ++j) row += IntervalTraits<I>::exact(mag(ey_.dcoeff(i, 1, j)), bits_);
                L = std::max(L, upper(row));
            }
            const I hu = IntervalTraits<I>::exact(mag(hI), bits_);
            const double e = upper(exp(IntervalTraits<I>::exact(L, bits_) * hu));
            const I E = IntervalTraits<I>::bounds(-e, e, bits_);
            Mat<I> Jfull = J;
            for (int i = 0; i < n; ++i) {
                I s = zero_;
                for (int k = 0; k < n; ++k) s += IntervalTraits<I>::exact(mag(ey_.dcoeff(i, p + 1, k)), bits_);
                const I rij = hp1 * s * E;
                for (int j = 0; j < n; ++j) Jfull(i, j) += rij;
            }
            // Lohner form for the derivative [Zgliczynski 2002]: V = A + B E,
            //   J V = mid(J A) + [(J A - mid(J A)) + (J B) E],  B' = Q of mid(J B),
            //   E' = B'^{-1} (J A - mid(J A)) + (B'^{-1} J B) E.
            const Mat<I> JA = detail::mul(Jfull, VA_);
            Mat<I> A_new = JA, dA = JA;
            for (std::size_t e = 0; e < JA.a.size(); ++e) {
                A_new.a[e] = detail::point_mid(JA.a[e]);
                dA.a[e] = JA.a[e] - A_new.a[e];
            }
            const Mat<I> JVB = detail::mul(Jfull, VB_);
            std::vector<double> M(static_cast<std::size_t>(n) * n), wts(n, 0.0);
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j) M[i * n + j] = mid(JVB(i, j));
            for (int j = 0; j < n; ++j) {
                double s2 = 0, we = 0;
                for (int i = 0; i < n; ++i) s2 += M[i * n + j] * M[i * n + j];
                for (int m = 0; m < n; ++m) we = std::max(we, width(VE_(j, m)));
                wts[j] = std::sqrt(s2) * we;
            }
            const std::vector<double> Qv = detail::householder_q(M, n, wts);
            Mat<I> VQ(n, n, zero_), VQinv;
            for (std::size_t e = 0; e < Qv.size(); ++e) VQ.a[e] = IntervalTraits<I>::exact(Qv[e], bits_);
            if (!detail::orthogonal_inverse(VQ, bits_, VQinv)) {
                VQ = detail::identity<I>(n, bits_);
                VQinv = VQ;
            }
            Mat<I> E_new = detail::mul(detail::mul(VQinv, JVB), VE_);
            const Mat<I> QdA = detail::mul(VQinv, dA);
            for (std::size_t e = 0; e < E_new.a.size(); ++e) E_new.a[e] += QdA.a[e];
            for (const auto& v : E_new.a)
                if (!is_bounded(v)) return {Status::non_finite, "the derivative enclosure is not finite"};
            VA_ = std::move(A_new);
            VB_ = std::move(VQ);
            VE_ = std::move(E_new);
        }
        if (opt_.record_tubes) res.tube.push_back(TubePiece<I>{t_, t_ + hI, Z});
        c_ = std::move(c_new);
        C_ = std::move(C_new);
        B_ = std::move(Q);
        Binv_ = std::move(Qinv);
        R_ = std::move(R_new);
        return {};
    }
};

}  // namespace

template <Interval I>
Result<I> integrate(const taylor::VectorField& field, const std::vector<I>& params, const std::vector<I>& x0,
                    const I& t_end, const std::vector<I>& output_times, const Options& options, long bits) {
    Result<I> res;
    res.time = IntervalTraits<I>::from_integer(0, bits);
    auto invalid = [&](std::string m) {
        res.status = Status::invalid_input;
        res.reason = std::move(m);
        return res;
    };
    if (!field.complete()) return invalid("the vector field has no right-hand side");
    if (static_cast<int>(x0.size()) != field.dimension())
        return invalid("expected " + std::to_string(field.dimension()) + " initial values, got " +
                       std::to_string(x0.size()));
    if (static_cast<int>(params.size()) != field.parameter_count())
        return invalid("expected " + std::to_string(field.parameter_count()) + " parameter values, got " +
                       std::to_string(params.size()));
    if (options.order < 1) return invalid("the Taylor order must be at least 1");
    if (!certainly_positive(t_end)) return invalid("the final time must be positive");
    for (std::size_t k = 0; k < output_times.size(); ++k) {
        if (!certainly_positive(output_times[k])) return invalid("output times must be positive");
        if (k > 0 && !certainly_less(output_times[k - 1], output_times[k]))
            return invalid("output times must be strictly increasing");
        if (certainly_less(t_end, output_times[k])) return invalid("an output time is after the final time");
    }
    for (const auto& v : x0)
        if (!is_bounded(v)) return invalid("the initial set is unbounded");

    Lohner<I> lohner(field, params, options, bits);
    lohner.init(x0);
    auto snapshot = [&](const Lohner<I>& at, const I& time) {
        Snapshot<I> s{time, at.box(), {}};
        if (options.c1) s.derivative = at.derivative();
        return s;
    };
    auto failed = [&](const Lohner<I>& at, const Outcome& o) {
        res.time = at.time();
        res.status = o.status;
        res.reason = o.reason;
        res.final_box = at.box();
        if (options.c1) res.final_derivative = at.derivative();
        return res;
    };
    for (const I& out : output_times) {
        // Every output time is enclosed at its exact value. One that may reach the final time
        // (an interval around t_end, or a decimal within rounding of it) is integrated to on a
        // copy of the set, so the run to t_end is not disturbed [issue 14: taking it at t_end
        // reported x(T) for x(t), t != T].
        if (certainly_less(out, t_end)) {
            if (Outcome o = lohner.advance_to(out, res); !o.ok()) return failed(lohner, o);
            res.outputs.push_back(snapshot(lohner, out));
        } else {
            Lohner<I> branch = lohner;
            if (Outcome o = branch.advance_to(out, res); !o.ok()) return failed(branch, o);
            res.outputs.push_back(snapshot(branch, out));
        }
    }
    if (Outcome o = lohner.advance_to(t_end, res); !o.ok()) return failed(lohner, o);
    res.time = lohner.time();
    res.final_box = lohner.box();
    if (options.c1) res.final_derivative = lohner.derivative();
    res.status = Status::ok;
    res.reason = "ok";
    return res;
}

template Result<IntervalD> integrate(const taylor::VectorField&, const std::vector<IntervalD>&,
                                     const std::vector<IntervalD>&, const IntervalD&, const std::vector<IntervalD>&,
                                     const Options&, long);
template Result<IntervalMp> integrate(const taylor::VectorField&, const std::vector<IntervalMp>&,
                                      const std::vector<IntervalMp>&, const IntervalMp&,
                                      const std::vector<IntervalMp>&, const Options&, long);

}  // namespace flowcert::ode
