// flowcert/ode/integrator.cpp -- the integrator: step-size control, kinks and their switching
// events, output times, budgets (see integrator.hpp and docs/integrator.md). The arithmetic of
// one step is detail::StepKernel (lohner_step.hpp), shared with the re-validation of records.
#include <flowcert/ode.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <type_traits>

#include "lohner_step.hpp"

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
        case Status::time_limit: return "time_limit";
        case Status::arithmetic_error: return "arithmetic_error";
        case Status::invalid_input: return "invalid_input";
    }
    return "?";
}

const char* to_string(EventKind k) {
    switch (k) {
        case EventKind::crossing: return "crossing";
        case EventKind::contact: return "contact";
    }
    return "?";
}

const char* to_string(StepKind k) {
    switch (k) {
        case StepKind::smooth: return "smooth";
        case StepKind::hull: return "hull";
    }
    return "?";
}

namespace {
using detail::LohnerSet;
using detail::Mat;
using detail::Outcome;
using detail::point_mid;
using detail::SmoothImage;
using detail::span;
using detail::to_std;
using detail::Vec;

template <class I> std::vector<I> row_major(const Mat<I>& M) {
    std::vector<I> out;
    for (Eigen::Index i = 0; i < M.rows(); ++i)
        for (Eigen::Index j = 0; j < M.cols(); ++j) out.push_back(M(i, j));
    return out;
}

template <Interval I>
class Lohner {
public:
    Lohner(const taylor::VectorField& f, const std::vector<I>& params, const Options& opt, long bits)
        : opt_(opt), bits_(bits), n_(f.dimension()), p_(opt.order), names_(f.variables()), k_(f, params, opt, bits) {
        for (int id = 0; id < static_cast<int>(f.nodes().size()); ++id)
            if (f.nodes()[id].op == taylor::Op::Relu) relus_.push_back({id, f.nodes()[id].a});
        zero_ = IntervalTraits<I>::from_integer(0, bits);
        tol_ = k_.tolerance();
    }

    void init(const std::vector<I>& x0) {
        S_.c.resize(n_);
        R0_.resize(n_);
        S_.R = Vec<I>::Constant(n_, zero_);
        for (int i = 0; i < n_; ++i) {
            S_.c[i] = point_mid(x0[i]);
            R0_[i] = x0[i] - S_.c[i];
        }
        S_.C = linalg::identity<I>(n_, bits_);
        S_.B = S_.C;
        S_.Binv = S_.C;
        VA_ = S_.C;
        VB_ = S_.C;
        VE_ = Mat<I>::Constant(n_, n_, zero_);
        t_ = zero_;
    }

    std::vector<I> box() const { return to_std<I>(box_vec()); }
    Vec<I> box_vec() const { return S_.box(R0_); }
    const I& time() const { return t_; }
    int last_record() const { return last_record_; }
    // D_x0 phi in VA + VB VE (the C^1 analogue of the doubleton, see c1_step).
    std::vector<I> derivative() const { return row_major<I>(linalg::mul(VB_, VE_) + VA_); }

    // Advances the set to the time `stop` (stop number `stop_index`; not before the current time).
    Outcome advance_to(const I& stop, int stop_index, Result<I>& res) {
        at_stop_ = false;
        while (true) {
            // a last step was taken (t = stop): done, even when stop is an interval (stop - t then
            // contains 0 and is possibly positive; going on took steps of size [-w, w] until the
            // budget, e.g. hull steps to an output time within rounding of a kink)
            if (at_stop_) return {};
            const I remaining = stop - t_;
            if (!possibly_positive(remaining)) return {};  // already there (stop == t)
            if (Outcome b = budget(res); !b.ok()) return b;
            const Vec<I> X = box_vec();
            // 1. Taylor coefficients at the centre and over the box. A set on a relu kink (an
            //    argument straddling 0 at the centre or over the set) goes on by hull steps; so
            //    does one whose smooth steps fail at the kink down to hull_h.
            bool kink = false;
            std::string kink_reason;
            if (Outcome o = k_.coefficients(S_.c, X, true, kink, kink_reason); !o.ok())
                return fail(o.status, o.reason, X, res);
            if (kink) {
                if (Outcome o = hull_steps(stop, stop_index, X, res); !o.ok() || at_stop_ || !possibly_positive(stop - t_))
                    return o;
                continue;
            }
            double h = std::min(safety_ * estimate_step(), opt_.max_step);
            // a prediction of 0 (Taylor coefficients beyond the double range, e.g. x' = x + 1e400 at
            // more than 53 bits) would take steps of size 0 until the budget: try the minimum step
            if (!(h > 0)) h = opt_.min_step;
            // right after hull steps the set is still close to the kink: a smooth step of a few
            // hull steps' length is tried first, not a full-length one halved down to it
            if (in_stretch_) h = std::min(h, 16 * next_hull_h_);
            bool first_try = true;
            while (true) {
                h = keep_time_a_point(h);
                // the last step takes the whole remaining interval (a point, or an enclosure of the
                // exact stop time); an intermediate step must end certainly before the stop
                const bool last = !(lower(remaining) > h);
                const I hI = last ? remaining : IntervalTraits<I>::exact(h, bits_);
                Outcome o = try_step(hI, X, res);
                if (o.ok()) {
                    accept(hI, last, stop, stop_index, res);
                    note_smooth_step();
                    // the predictor's safety factor recovers slowly after a rejection
                    if (first_try && !last) safety_ = std::min(1.0, safety_ * 1.02);
                    if (last) return {};
                    break;
                }
                ++res.rejected_steps;
                first_try = false;
                // a remainder too wide by a factor q needs h shorter by about q^(1/(p+1)) (it scales
                // as h^(p+1)); the next predictions are shortened as well
                h = finite_step(last ? upper(remaining) : h) * o.shrink;
                if (o.status == Status::remainder_too_wide) safety_ = std::max(0.05, safety_ * o.shrink);
                if (o.status == Status::relu_kink && !opt_.c1 && h < hull_h(X)) {
                    // the step cannot end before the kink at any size worth taking: through it
                    if (Outcome k = hull_steps(stop, stop_index, X, res); !k.ok()) return k;
                    break;
                }
                if (h < opt_.min_step) {
                    o.reason += " (step size reduced below the minimum " + format_g(opt_.min_step) + ")";
                    return fail(o.status, o.reason, X, res);
                }
                // the budgets bound the rejections too, not only the accepted steps
                if (Outcome b = budget(res); !b.ok()) return b;
            }
        }
    }

    // Closes an open hull stretch at the end of the run: its kinks are contacts.
    void finish() { close_stretch(false); }
    const std::vector<SwitchEvent<I>>& events() const { return events_; }

private:
    struct ReluNode {
        int node, argument;
    };
    // Per relu node, during a stretch of hull steps.
    struct Straddle {
        bool seen = false;
        I t0, t1;       // the span of the hull steps where its argument straddled 0
        int slope = 0;  // the certain sign of d/dt argument over all of them (0: not certain)
    };

    // The step and wall-time budgets (Options::max_steps, max_seconds).
    Outcome budget(const Result<I>& res) const {
        if (res.steps >= opt_.max_steps)
            return {Status::step_limit, "the step budget (" + std::to_string(opt_.max_steps) +
                                            " steps) was used up at t = " + format_g(mid(t_))};
        if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() > opt_.max_seconds)
            return {Status::time_limit, "the wall-time budget (" + format_g(opt_.max_seconds) +
                                            " s) was used up at t = " + format_g(mid(t_))};
        return {};
    }

    // A step size to shrink from: the remaining time's upper bound is +inf when it is beyond the
    // double range (MPFR times above 1.8e308); halving inf would never reach the minimum step.
    static double finite_step(double h) { return std::isfinite(h) ? h : std::numeric_limits<double>::max(); }

    // Keeps the time a point when it is one (IntervalD): h' = fl(t + h) - t is exact when h <= t
    // (Sterbenz), so t + h' is a double; otherwise the time enclosure would gain an ulp per step.
    // (h only chooses the step; the step is validated with h'.)
    double keep_time_a_point(double h) const {
        if constexpr (std::is_same_v<I, IntervalD>) {
            if (t_.lower() == t_.upper()) {
                const double h2 = (t_.lower() + h) - t_.lower();
                if (h2 > 0 && std::isfinite(h2)) return h2;
            }
        }
        return h;
    }

    // An accepted step: the time, the step statistics and (record_steps) its record, whose
    // choices try_step / hull_step left in pending_.
    void accept(const I& hI, bool last, const I& stop, int stop_index, Result<I>& res) {
        const double taken = upper(hI);
        res.min_step = res.steps == 0 ? taken : std::min(res.min_step, taken);
        res.max_step = std::max(res.max_step, taken);
        ++res.steps;
        t_ = last ? stop : t_ + hI;
        at_stop_ = last;
        if (!opt_.record_steps) return;
        pending_.from = last_record_;
        pending_.stop = last ? stop_index : -1;
        pending_.h = hI;
        pending_.t1 = t_;
        last_record_ = static_cast<int>(res.records.size());
        res.records.push_back(std::move(pending_));
        pending_ = {};
    }

    // The size below which a smooth step at a kink is given up for hull steps: a hull step of
    // size h adds about h^2 |dg/dt| |df/drelu| to the set, so sqrt of the error allowance.
    double hull_h(const Vec<I>& X) const {
        double scale = 1;
        for (int i = 0; i < n_; ++i) scale = std::max(scale, mag(X[i]));
        return std::max(4 * opt_.min_step, std::sqrt(opt_.remainder_factor * tol_ * scale));
    }

    // After a smooth step: the relu signs over its a priori enclosure are the sides of the kinks.
    void note_smooth_step() {
        if (relus_.empty()) return;
        if (in_stretch_) close_stretch(true);
        side_.resize(relus_.size());
        for (std::size_t k = 0; k < relus_.size(); ++k) side_[k] = k_.apriori_evaluator().relu_sign(relus_[k].node);
        side_record_ = last_record_;
    }

    // Ends a stretch of hull steps. A kink whose argument was on one side before, on the other
    // after (`after_known`: a smooth step follows), with dg/dt of that direction certain on every
    // hull step that straddled it, is a certified transversal crossing; any other is a contact.
    void close_stretch(bool after_known) {
        if (!in_stretch_) return;
        in_stretch_ = false;
        for (std::size_t k = 0; k < relus_.size(); ++k) {
            const Straddle& st = straddle_[k];
            if (!st.seen) continue;
            const int before = k < side_.size() ? side_[k] : 0;
            const int after = after_known ? k_.apriori_evaluator().relu_sign(relus_[k].node) : 0;
            SwitchEvent<I> e;
            e.argument = relus_[k].argument;
            e.relu = relus_[k].node;
            e.before = stretch_before_;
            e.after = after_known ? last_record_ : -1;
            e.t0 = st.t0;
            e.t1 = st.t1;
            if (before != 0 && after != 0 && before != after && st.slope == after) {
                e.kind = EventKind::crossing;
                e.direction = after;
            }
            events_.push_back(e);
        }
    }

    // Hull steps from X until the set is off every kink (a smooth step then follows) or `stop`.
    Outcome hull_steps(const I& stop, int stop_index, Vec<I> X, Result<I>& res) {
        if (!in_stretch_) {
            in_stretch_ = true;
            straddle_.assign(relus_.size(), Straddle{});
            next_hull_h_ = hull_h(X);
            stretch_before_ = side_.empty() ? -1 : side_record_;
        }
        double h = next_hull_h_;
        while (true) {
            const I remaining = stop - t_;
            if (!possibly_positive(remaining)) return {};
            if (Outcome b = budget(res); !b.ok()) return b;
            h = keep_time_a_point(h);
            const bool last = !(lower(remaining) > h);
            const I hI = last ? remaining : IntervalTraits<I>::exact(h, bits_);
            Outcome o = hull_step(hI, X, res);
            if (!o.ok()) {
                h = finite_step(last ? upper(remaining) : h) * 0.5;
                if (h < opt_.min_step)
                    return fail(o.status, o.reason + " (hull step through a kink below the minimum step " +
                                              format_g(opt_.min_step) + ")", X, res);
                continue;
            }
            accept(hI, last, stop, stop_index, res);
            ++res.hull_steps;
            next_hull_h_ = 2 * upper(hI);
            if (last) return {};
            // back to smooth steps once no kink straddles the set and its centre
            X = box_vec();
            bool on_kink = false;
            auto& eh = k_.hull_evaluator();
            if (!eh.compute(span<I>(X), 0).ok()) return {};
            for (const auto& rn : relus_) on_kink = on_kink || eh.relu_sign(rn.node) == 0;
            if (!on_kink) return {};
            h = next_hull_h_;
        }
    }

    // One first-order step through a kink (StepKernel::hull_a_priori): x(t) in Z on the step,
    // x(h) in x0 + h f(Y). f is continuous (relu is), so this needs no smoothness.
    Outcome hull_step(const I& hI, const Vec<I>& X, Result<I>& res) {
        const int n = n_;
        Vec<I> Y, Z, F;
        if (Outcome o = k_.hull_a_priori(hI, X, Y, Z, F, true); !o.ok()) return o;
        // the step adds h * width(f(Y)); allowed: the error allowance, or 5 % of the set's width
        for (int i = 0; i < n; ++i) {
            const double added = upper(hI) * width(F[i]);
            const double allowed = std::max(opt_.remainder_factor * tol_ * std::max(1.0, mag(X[i])), 0.05 * width(X[i]));
            if (!(added <= allowed))
                return {Status::remainder_too_wide, "the hull step widens " + names_[i] + " by " + format_g(added) +
                                                        " > " + format_g(allowed) + " at h = " + format_g(upper(hI))};
        }
        Vec<I> c1(n);
        for (int i = 0; i < n; ++i) c1[i] = point_mid(S_.c[i] + hI * F[i]);
        LohnerSet<I> next;
        if (Outcome o = k_.hull_update(hI, F, S_, c1, next); !o.ok()) return o;
        note_straddles(hI);
        const std::size_t tube_begin = res.tube.size();
        if (opt_.record_tubes) res.tube.push_back(TubePiece<I>{t_, t_ + hI, to_std<I>(Z)});
        if (opt_.record_steps)
            pending_ = StepRecord<I>{StepKind::hull, -1, -1, {}, {}, false, to_std<I>(Y), to_std<I>(next.c), {}, {},
                                     to_std<I>(next.R), tube_begin, res.tube.size()};
        S_ = std::move(next);
        return {};
    }

    // The kinks a hull step straddles, with the sign of d/dt of their argument over its Y.
    void note_straddles(const I& hI) {
        const auto& eh = k_.hull_evaluator();
        for (std::size_t k = 0; k < relus_.size(); ++k) {
            if (eh.relu_sign(relus_[k].node) != 0) continue;
            const I& slope = eh.node_coeff(relus_[k].argument, 1);
            const int sg = certainly_positive(slope) ? 1 : certainly_negative(slope) ? -1 : 0;
            Straddle& st = straddle_[k];
            if (!st.seen) {
                st.seen = true;
                st.t0 = t_;
                st.slope = sg;
            } else if (st.slope != sg) {
                st.slope = 0;
            }
            st.t1 = t_ + hI;
        }
    }

    Outcome fail(Status s, std::string reason, const Vec<I>& X, Result<I>& res) {
        res.offending_set = to_std<I>(X);
        return {s, std::move(reason) + " at t = " + format_g(mid(t_))};
    }

    // Step size from the last two Taylor terms at the centre, as in CAPD's last-terms step
    // control: h = min_k (tol * scale / |x_k|)^(1/k), k = p-1, p. Heuristic (non-rigorous):
    // it only proposes h; the step is validated afterwards.
    double estimate_step() const {
        double scale = 1;
        for (int i = 0; i < n_; ++i) scale = std::max(scale, mag(S_.c[i]));
        double h = std::numeric_limits<double>::infinity();
        for (int k = std::max(1, p_ - 1); k <= p_; ++k) {
            double m = 0;
            for (int i = 0; i < n_; ++i) m = std::max(m, k_.centre_mag(i, k));
            if (m > 0) h = std::min(h, std::pow(tol_ * scale / m, 1.0 / k));
        }
        return h;
    }

    // One smooth step of size hI from the current set (box X), validated (StepKernel steps 2-6);
    // the set is replaced only when every part succeeded.
    Outcome try_step(const I& hI, const Vec<I>& X, Result<I>& res) {
        Vec<I> Y, Z, rem;
        if (Outcome o = k_.a_priori(hI, Y, Z, true); !o.ok()) return o;
        if (Outcome o = k_.remainder(hI, X, rem, true); !o.ok()) return o;
        SmoothImage<I> img;
        if (Outcome o = k_.smooth_image(hI, S_, rem, img); !o.ok()) return o;
        Mat<I> C1, B1, B1inv;
        k_.choose_representation(img, S_.R, C1, B1, B1inv);
        LohnerSet<I> next;
        if (Outcome o = k_.represent(img, R0_, S_.R, img.centre, std::move(C1), std::move(B1), std::move(B1inv), next);
            !o.ok())
            return o;
        if (opt_.c1)
            if (Outcome o = c1_step(hI, img.J); !o.ok()) return o;
        const std::size_t tube_begin = res.tube.size();
        if (opt_.record_tubes) k_.pieces(t_, hI, Z, opt_.tube_pieces, res.tube);
        if (opt_.record_steps)
            pending_ = StepRecord<I>{StepKind::smooth, -1, -1, {}, {}, img.centre_dd, to_std<I>(Y), to_std<I>(next.c),
                                     row_major<I>(next.C), row_major<I>(next.B), to_std<I>(next.R), tube_begin,
                                     res.tube.size()};
        S_ = std::move(next);
        return {};
    }

    // 5. C^1: Dphi_h in J + h^{p+1} Dx_{p+1}(Y) V(xi), |V(xi)_ij| <= ||V(xi)||_inf <= exp(|h| ||Df(Y)||_inf),
    // composed in the Lohner form V = A + B E [Zgliczynski 2002]:
    //   J V = mid(J A) + [(J A - mid(J A)) + (J B) E],  B' = Q of mid(J B),
    //   E' = B'^{-1} (J A - mid(J A)) + (B'^{-1} J B) E.
    Outcome c1_step(const I& hI, const Mat<I>& J) {
        const int n = n_, p = p_;
        const auto& ey = k_.apriori_evaluator();
        const I hp1 = pow(hI, p + 1);
        double L = 0;
        for (int i = 0; i < n; ++i) {
            I row = zero_;
            for (int j = 0; j < n; ++j) row += IntervalTraits<I>::exact(mag(ey.dcoeff(i, 1, j)), bits_);
            L = std::max(L, upper(row));
        }
        const I hu = IntervalTraits<I>::exact(mag(hI), bits_);
        const double e = upper(exp(IntervalTraits<I>::exact(L, bits_) * hu));
        const I E = IntervalTraits<I>::bounds(-e, e, bits_);
        Mat<I> Jfull = J;
        for (int i = 0; i < n; ++i) {
            I s = zero_;
            for (int k = 0; k < n; ++k) s += IntervalTraits<I>::exact(mag(ey.dcoeff(i, p + 1, k)), bits_);
            const I rij = hp1 * s * E;
            for (int j = 0; j < n; ++j) Jfull(i, j) += rij;
        }
        const Mat<I> JA = linalg::mul(Jfull, VA_);
        Mat<I> A_new = JA, dA = JA;
        for (Eigen::Index k = 0; k < JA.size(); ++k) {
            A_new.data()[k] = point_mid(JA.data()[k]);
            dA.data()[k] = JA.data()[k] - A_new.data()[k];
        }
        const Mat<I> JVB = linalg::mul(Jfull, VB_);
        const Eigen::MatrixXd M = linalg::mid(JVB);
        std::vector<double> wts(n, 0.0);
        for (int j = 0; j < n; ++j) {
            double we = 0;
            for (int m = 0; m < n; ++m) we = std::max(we, width(VE_(j, m)));
            wts[j] = M.col(j).norm() * we;
        }
        Mat<I> VQ, VQinv;
        detail::lohner_basis<I>(M, wts, bits_, VQ, VQinv);
        Mat<I> E_new = linalg::mul(linalg::mul(VQinv, JVB), VE_);
        E_new += linalg::mul(VQinv, dA);
        for (Eigen::Index k = 0; k < E_new.size(); ++k)
            if (!is_bounded(E_new.data()[k])) return {Status::non_finite, "the derivative enclosure is not finite"};
        VA_ = std::move(A_new);
        VB_ = std::move(VQ);
        VE_ = std::move(E_new);
        return {};
    }

    Options opt_;
    long bits_;
    int n_, p_;
    std::vector<std::string> names_;  // of the variables, for messages
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    detail::StepKernel<I> k_;
    std::vector<ReluNode> relus_;
    std::vector<int> side_;          // per relu: sign of its argument over the last smooth step (0: unknown)
    int side_record_ = -1;           // the record of that smooth step
    bool in_stretch_ = false;
    bool at_stop_ = false;           // the last accepted step ended at the stop of advance_to
    int stretch_before_ = -1;        // the record of the smooth step before the open stretch
    std::vector<Straddle> straddle_;
    std::vector<SwitchEvent<I>> events_;
    double next_hull_h_ = 0;
    double safety_ = 1;  // the step predictor's factor, lowered by rejections (non-rigorous: it only chooses h)
    I zero_, t_;
    double tol_;
    LohnerSet<I> S_;
    Vec<I> R0_;
    Mat<I> VA_, VB_, VE_;  // derivative: point matrix + orthogonal basis x interval error matrix
    int last_record_ = -1;   // record_steps: the record of the last accepted step
    StepRecord<I> pending_;  // the accepted step's choices, completed by accept()
};

}  // namespace

// The run after the input checks (below integrate).
template <Interval I>
Result<I> run_integration(const taylor::VectorField& field, const std::vector<I>& params, const std::vector<I>& x0,
                          const I& t_end, const std::vector<I>& output_times, const Options& options, long bits,
                          Result<I>& res);

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

    try {
        return run_integration(field, params, x0, t_end, output_times, options, bits, res);
    } catch (const std::exception& e) {  // an arithmetic exception is a failure of the run, not a crash
        res.status = Status::arithmetic_error;
        res.reason = std::string("arithmetic failure during a step: ") + e.what();
        return res;
    }
}

template <Interval I>
Result<I> run_integration(const taylor::VectorField& field, const std::vector<I>& params, const std::vector<I>& x0,
                          const I& t_end, const std::vector<I>& output_times, const Options& options, long bits,
                          Result<I>& res) {
    Lohner<I> lohner(field, params, options, bits);
    lohner.init(x0);
    auto snapshot = [&](const Lohner<I>& at, const I& time) {
        Snapshot<I> s{time, at.box(), {}, at.last_record()};
        if (options.c1) s.derivative = at.derivative();
        return s;
    };
    auto failed = [&](Lohner<I> at, const Outcome& o) {
        at.finish();
        res.events = at.events();
        res.time = at.time();
        res.status = o.status;
        res.reason = o.reason;
        res.final_box = at.box();
        if (options.c1) res.final_derivative = at.derivative();
        return res;
    };
    for (int k = 0; k < static_cast<int>(output_times.size()); ++k) {
        const I& out = output_times[k];
        // Every output time is enclosed at its exact value. One that may reach the final time
        // (an interval around t_end, or a decimal within rounding of it) is integrated to on a
        // copy of the set, so the run to t_end is not disturbed [issue 14: taking it at t_end
        // reported x(T) for x(t), t != T].
        if (certainly_less(out, t_end)) {
            if (Outcome o = lohner.advance_to(out, k, res); !o.ok()) return failed(lohner, o);
            res.outputs.push_back(snapshot(lohner, out));
        } else {
            // the copy's own events (those after the copy) are listed with its snapshot; a
            // stretch of hull steps it ends in is a contact [they were not listed before]
            const std::size_t known = lohner.events().size();
            Lohner<I> branch = lohner;
            if (Outcome o = branch.advance_to(out, k, res); !o.ok()) return failed(branch, o);
            branch.finish();
            Snapshot<I> s = snapshot(branch, out);
            s.events.assign(branch.events().begin() + static_cast<std::ptrdiff_t>(known), branch.events().end());
            res.outputs.push_back(std::move(s));
        }
    }
    Outcome o = lohner.advance_to(t_end, static_cast<int>(output_times.size()), res);
    if (!o.ok()) return failed(lohner, o);
    lohner.finish();
    res.events = lohner.events();
    res.time = lohner.time();
    res.final_box = lohner.box();
    res.final_record = lohner.last_record();
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
