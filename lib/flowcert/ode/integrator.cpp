// flowcert/ode/integrator.cpp -- the Taylor/Lohner step (see integrator.hpp and docs/integrator.md).
#include <flowcert/ode.hpp>

#include <flowcert/linalg.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
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

namespace {

// Dense interval algebra of the linalg layer (column-major Eigen storage).
template <class I> using Vec = linalg::IVector<I>;
template <class I> using Mat = linalg::IMatrix<I>;
template <class I> I point_mid(const I& x) { return linalg::mid_point_of(x); }
template <class I> std::span<const I> span(const Vec<I>& v) { return {v.data(), static_cast<std::size_t>(v.size())}; }
template <class I> std::vector<I> to_std(const Vec<I>& v) { return {v.data(), v.data() + v.size()}; }

// Q of a QR factorization of M whose leading columns span the columns of largest `weight`
// (Lohner's wrapping control), with a rigorous enclosure of Q^{-1}; the identity (always
// valid, only less tight) when the enclosure fails. Column j is scaled by weight_j / ||M_j||
// so the column pivoting of linalg::orthogonal_basis follows the weights.
template <Interval I>
void lohner_basis(Eigen::MatrixXd M, const std::vector<double>& weight, long bits, Mat<I>& Q, Mat<I>& Qinv) {
    const Eigen::Index n = M.rows();
    for (Eigen::Index j = 0; j < n; ++j) {
        const double norm = M.col(j).norm();
        // a floor keeps zero-width columns (a point initial set) in the factorization
        if (norm > 0) M.col(j) *= std::max(weight[j] / norm, 1e-200);
    }
    auto qr = linalg::orthogonal_basis<I>(M, bits);
    if (qr.status == linalg::QrStatus::proven) {
        Q = std::move(qr.Q);
        Qinv = std::move(qr.Q_inverse);
    } else {
        Q = linalg::identity<I>(n, bits);
        Qinv = Q;
    }
}

Status from_eval(taylor::EvalStatus s) {
    switch (s) {
        case taylor::EvalStatus::ok: return Status::ok;
        case taylor::EvalStatus::relu_kink: return Status::relu_kink;
        case taylor::EvalStatus::domain_error: return Status::domain_error;
        case taylor::EvalStatus::non_finite: return Status::non_finite;
    }
    return Status::non_finite;
}

// A number for a message: %g (six significant digits).
std::string fmt(double x) {
    char b[32];
    std::snprintf(b, sizeof b, "%g", x);
    return b;
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
    double shrink = 0.5;  // on a failure: the factor to shorten the step by
    bool ok() const { return status == Status::ok; }
};

template <Interval I>
class Lohner {
public:
    Lohner(const taylor::VectorField& f, const std::vector<I>& params, const Options& opt, long bits)
        : opt_(opt), bits_(bits), n_(f.dimension()), p_(opt.order), names_(f.variables()),
          ec_(f, params, bits), ex_(f, params, bits), ej_(f, params, bits), ey_(f, params, bits),
          eh_(f, params, bits) {
        eh_.set_kink_hull(true);
        for (int id = 0; id < static_cast<int>(f.nodes().size()); ++id)
            if (f.nodes()[id].op == taylor::Op::Relu) relus_.push_back({id, f.nodes()[id].a});
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
        R_ = Vec<I>::Constant(n_, zero_);
        for (int i = 0; i < n_; ++i) {
            c_[i] = point_mid(x0[i]);
            R0_[i] = x0[i] - c_[i];
        }
        C_ = linalg::identity<I>(n_, bits_);
        B_ = C_;
        Binv_ = C_;
        VA_ = C_;
        VB_ = C_;
        VE_ = Mat<I>::Constant(n_, n_, zero_);
        t_ = zero_;
    }

    std::vector<I> box() const { return to_std<I>(box_vec()); }
    Vec<I> box_vec() const {
        Vec<I> x = c_ + linalg::mul(C_, R0_);
        x += linalg::mul(B_, R_);
        return x;
    }
    const I& time() const { return t_; }
    // D_x0 phi in VA + VB VE (the C^1 analogue of the doubleton, see try_step).
    std::vector<I> derivative() const {
        const Mat<I> V = linalg::mul(VB_, VE_) + VA_;
        std::vector<I> out;
        for (int i = 0; i < n_; ++i)
            for (int j = 0; j < n_; ++j) out.push_back(V(i, j));  // row-major
        return out;
    }

    // Advances the set to the time `stop` (which must not be before the current time).
    Outcome advance_to(const I& stop, Result<I>& res) {
        while (true) {
            const I remaining = stop - t_;
            if (!possibly_positive(remaining)) return {};  // already there (stop == t)
            if (Outcome b = budget(res); !b.ok()) return b;
            const Vec<I> X = box_vec();
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
            // A set on a relu kink (an argument straddling 0 at the centre or over the set) goes
            // on by hull steps; so does one whose smooth steps fail at the kink down to hull_h.
            bool kink = false;
            std::string kink_reason;
            auto smooth_eval = [&](const taylor::EvalResult& r, const char* where) -> std::optional<Outcome> {
                if (r.ok()) return std::nullopt;
                if (r.status == taylor::EvalStatus::relu_kink && !opt_.c1) {
                    kink = true;
                    kink_reason = r.reason;
                    return std::nullopt;
                }
                return fail(from_eval(r.status), std::string(where) + r.reason, X, res);
            };
            if (!use_dd_ || q_ < p_)
                if (auto o = smooth_eval(ec_.compute(span<I>(c_), p_), "at the centre of the set: ")) return *o;
            if (!kink)
                if (auto o = smooth_eval(q_ < p_ ? ex_.compute(span<I>(X), p_) : ex_.compute_c1(span<I>(X), p_),
                                         "over the set: "))
                    return *o;
            if (!kink && q_ < p_)
                if (auto o = smooth_eval(ej_.compute_c1(span<I>(X), q_), "over the set: ")) return *o;
            if (kink) {
                if (Outcome o = hull_steps(stop, X, res); !o.ok() || !possibly_positive(stop - t_)) return o;
                continue;
            }
            double h = std::min(safety_ * estimate_step(), opt_.max_step);
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
                    accept(hI, last, stop, res);
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
                h = (last ? upper(remaining) : h) * o.shrink;
                if (o.status == Status::remainder_too_wide) safety_ = std::max(0.05, safety_ * o.shrink);
                if (o.status == Status::relu_kink && !opt_.c1 && h < hull_h(X)) {
                    // the step cannot end before the kink at any size worth taking: through it
                    if (Outcome k = hull_steps(stop, X, res); !k.ok()) return k;
                    break;
                }
                if (h < opt_.min_step) {
                    o.reason += " (step size reduced below the minimum " + fmt(opt_.min_step) + ")";
                    return fail(o.status, o.reason, X, res);
                }
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

    // Tube pieces of a smooth step: on each of Options::tube_pieces sub-intervals T_j of [0, h],
    // x(t) in sum_{k<=p} x_k(X) T_j^k + T_j^{p+1} x_{p+1}(Y) (Taylor with the Lagrange remainder,
    // x(xi) in Y), intersected with the a priori enclosure Z of the whole step (both hold).
    void record_tube(const I& hI, const Vec<I>& Z, Result<I>& res) const {
        const int m = std::max(1, opt_.tube_pieces);
        for (int j = 0; j < m; ++j) {
            const I a = hI * IntervalTraits<I>::from_integer(j, bits_) / IntervalTraits<I>::from_integer(m, bits_);
            const I b = j + 1 == m ? hI
                                   : hI * IntervalTraits<I>::from_integer(j + 1, bits_) /
                                         IntervalTraits<I>::from_integer(m, bits_);
            const I T = hull(a, b);
            std::vector<I> box(n_);
            for (int i = 0; i < n_; ++i) {
                I acc = ey_.coeff(i, p_ + 1) * T;
                for (int k = p_; k >= 0; --k) acc = (acc + ex_.coeff(i, k)) * (k > 0 ? T : one_);
                I tight;
                box[i] = intersect(acc, Z[i], tight) ? tight : Z[i];
            }
            res.tube.push_back(TubePiece<I>{t_ + a, t_ + b, std::move(box)});
        }
    }

    // The a priori enclosure iteration: `image` computes Z from Y; verified when Z lies strictly
    // inside Y; otherwise Y grows to hull(Y, Z), inflated by 4 times the previous inflation.
    template <class Image>
    Outcome enclose(Vec<I>& Y, const Vec<I>& Z, std::vector<double>& eps, int iterations, bool& verified, Image image) {
        verified = false;
        for (int it = 0; it < iterations && !verified; ++it) {
            if (Outcome o = image(); !o.ok()) return o;
            verified = true;
            for (int i = 0; i < n_; ++i)
                if (!strictly_inside(Z[i], Y[i])) verified = false;
            if (!verified)
                for (int i = 0; i < n_; ++i) {
                    eps[i] *= 4;
                    Y[i] = inflate(hull(Y[i], Z[i]), eps[i]);
                }
        }
        return {};
    }

    // The step and wall-time budgets (Options::max_steps, max_seconds).
    Outcome budget(const Result<I>& res) const {
        if (res.steps >= opt_.max_steps)
            return {Status::step_limit, "the step budget (" + std::to_string(opt_.max_steps) +
                                            " steps) was used up at t = " + fmt(mid(t_))};
        if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() > opt_.max_seconds)
            return {Status::time_limit, "the wall-time budget (" + fmt(opt_.max_seconds) +
                                            " s) was used up at t = " + fmt(mid(t_))};
        return {};
    }

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

    void accept(const I& hI, bool last, const I& stop, Result<I>& res) {
        const double taken = upper(hI);
        res.min_step = res.steps == 0 ? taken : std::min(res.min_step, taken);
        res.max_step = std::max(res.max_step, taken);
        ++res.steps;
        t_ = last ? stop : t_ + hI;
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
        for (std::size_t k = 0; k < relus_.size(); ++k) side_[k] = ey_.relu_sign(relus_[k].node);
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
            const int after = after_known ? ey_.relu_sign(relus_[k].node) : 0;
            SwitchEvent<I> e;
            e.argument = relus_[k].argument;
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
    Outcome hull_steps(const I& stop, Vec<I> X, Result<I>& res) {
        if (!in_stretch_) {
            in_stretch_ = true;
            straddle_.assign(relus_.size(), Straddle{});
            next_hull_h_ = hull_h(X);
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
                h = (last ? upper(remaining) : h) * 0.5;
                if (h < opt_.min_step)
                    return fail(o.status, o.reason + " (hull step through a kink below the minimum step " +
                                              fmt(opt_.min_step) + ")", X, res);
                continue;
            }
            accept(hI, last, stop, res);
            ++res.hull_steps;
            next_hull_h_ = 2 * upper(hI);
            if (last) return {};
            // back to smooth steps once no kink straddles the set and its centre
            X = box_vec();
            bool on_kink = false;
            if (!eh_.compute(span<I>(X), 0).ok()) return {};
            for (const auto& rn : relus_) on_kink = on_kink || eh_.relu_sign(rn.node) == 0;
            if (!on_kink) return {};
            h = next_hull_h_;
        }
    }

    // One first-order step through a kink [Picard-Lindeloef with the interval extension of f,
    // relu enclosed by its range]: if X + [0,h] f(Y) lies in the interior of Y, then x(t) in Y
    // for t in [0,h], and x(h) in x0 + h f(Y) (f(Y) is a box, so it holds the mean of f along
    // the solution). f is continuous (relu is), so this needs no smoothness.
    Outcome hull_step(const I& hI, const Vec<I>& X, Result<I>& res) {
        const int n = n_;
        const I H = hull(zero_, hI);
        Vec<I> Y(n), Z(n), F(n);
        auto r = eh_.compute(span<I>(X), 1);
        if (!r.ok()) return {from_eval(r.status), "a hull step over the set: " + r.reason};
        std::vector<double> eps(n);
        for (int i = 0; i < n; ++i) {
            Z[i] = X[i] + H * eh_.coeff(i, 1);
            eps[i] = std::max(0.05 * width(Z[i]), 1e2 * opt_.remainder_factor * tol_ * std::max(1.0, mag(Z[i])));
            Y[i] = inflate(Z[i], eps[i]);
        }
        bool verified = false;
        const Outcome image = enclose(Y, Z, eps, 6, verified, [&]() -> Outcome {
            auto e = eh_.compute(span<I>(Y), 2);  // order 2: the nodes' d/dt (coefficient 1) too
            if (!e.ok()) return {from_eval(e.status), "a hull step over its a priori enclosure: " + e.reason};
            for (int i = 0; i < n; ++i) {
                F[i] = eh_.coeff(i, 1);
                Z[i] = X[i] + H * F[i];
            }
            return {};
        });
        if (!image.ok()) return image;
        if (!verified)
            return {Status::no_a_priori_enclosure, "the hull step's enclosure test failed for h = " + fmt(upper(hI))};
        // the step adds h * width(f(Y)); allowed: the error allowance, or 5 % of the set's width
        for (int i = 0; i < n; ++i) {
            const double added = upper(hI) * width(F[i]);
            const double allowed = std::max(opt_.remainder_factor * tol_ * std::max(1.0, mag(X[i])), 0.05 * width(X[i]));
            if (!(added <= allowed))
                return {Status::remainder_too_wide, "the hull step widens " + names_[i] + " by " + fmt(added) +
                                                        " > " + fmt(allowed) + " at h = " + fmt(upper(hI))};
        }
        // the kinks this step straddles, with the sign of d/dt of their argument over Y
        for (std::size_t k = 0; k < relus_.size(); ++k) {
            if (eh_.relu_sign(relus_[k].node) != 0) continue;
            const I& slope = eh_.node_coeff(relus_[k].argument, 1);
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
        // the doubleton keeps its shape: c + C r0 + B r + h f(Y) = c' + C r0 + B (r + B^{-1} z)
        Vec<I> z(n);
        for (int i = 0; i < n; ++i) {
            const I y = c_[i] + hI * F[i];
            const I cn = point_mid(y);
            z[i] = y - cn;
            c_[i] = cn;
        }
        R_ += linalg::mul(Binv_, z);
        for (int i = 0; i < n; ++i)
            if (!is_bounded(R_[i]) || !is_bounded(c_[i])) return {Status::non_finite, "the new set is not finite"};
        if (opt_.record_tubes) res.tube.push_back(TubePiece<I>{t_, t_ + hI, to_std<I>(Z)});
        return {};
    }

    Options opt_;
    long bits_;
    int n_, p_, q_;
    std::vector<std::string> names_;  // of the variables, for messages
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    // centre (C^0, order p), box (C^0, order p), box (C^1, order q), a priori set (order p+1)
    taylor::TaylorEvaluator<I> ec_, ex_, ej_, ey_;
    taylor::TaylorEvaluator<I> eh_;  // kink-hull mode, for hull steps
    std::vector<ReluNode> relus_;
    std::vector<int> side_;          // per relu: sign of its argument over the last smooth step (0: unknown)
    bool in_stretch_ = false;
    std::vector<Straddle> straddle_;
    std::vector<SwitchEvent<I>> events_;
    double next_hull_h_ = 0;
    double safety_ = 1;  // the step predictor's factor, lowered by rejections (non-rigorous: it only chooses h)
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
        res.offending_set = to_std<I>(X);
        return {s, std::move(reason) + " at t = " + fmt(mid(t_))};
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
        const Outcome image = enclose(Y, Z, eps, 4, verified, [&]() -> Outcome {
            auto e = opt_.c1 ? ey_.compute_c1(span<I>(Y), p + 1) : ey_.compute(span<I>(Y), p + 1);
            if (!e.ok()) return {from_eval(e.status), "over the a priori enclosure: " + e.reason};
            for (int i = 0; i < n; ++i) Z[i] = Y0[i] + Hp1 * ey_.coeff(i, p + 1);
            return {};
        });
        if (!image.ok()) return image;
        if (!verified)
            return {Status::no_a_priori_enclosure,
                    "the high-order enclosure test failed for h = " + fmt(upper(hI))};
        // 3. Lagrange remainder h^{p+1} x_{p+1}(x(xi)), x(xi) in Y.
        const I hp1 = pow(hI, p + 1);
        Vec<I> rem(n);
        double worst = 0;  // the largest ratio remainder / allowed
        int worst_i = 0;
        for (int i = 0; i < n; ++i) {
            rem[i] = hp1 * ey_.coeff(i, p + 1);
            if (!is_bounded(rem[i])) return {Status::non_finite, "the remainder is not finite"};
            const double q = mag(rem[i]) / (opt_.remainder_factor * tol_ * std::max(1.0, mag(X[i])));
            if (!(q <= worst)) {
                worst = std::isfinite(q) ? q : 1e300;
                worst_i = i;
            }
        }
        if (worst > 1) {
            const double allowed = opt_.remainder_factor * tol_ * std::max(1.0, mag(X[worst_i]));
            // it scales as h^{p+1} (the a priori set shrinks too, so this is a safe guess)
            const double shrink = std::clamp(0.9 * std::pow(worst, -1.0 / (p + 1)), 0.1, 0.9);
            return {Status::remainder_too_wide,
                    "the Lagrange remainder of " + names_[worst_i] + " is " + fmt(mag(rem[worst_i])) + " > " +
                        fmt(allowed) + " at h = " + fmt(upper(hI)),
                    shrink};
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
            auto r = ec_.compute(span<I>(c_), p_);
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
                c_new[i] = point_mid(y[i]);
                z[i] = y[i] - c_new[i];
            }
        }
        Mat<I> J = Mat<I>::Constant(n, n, zero_);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                I acc = ej.dcoeff(i, q, j);
                for (int k = q - 1; k >= 0; --k) acc = acc * hI + ej.dcoeff(i, k, j);
                J(i, j) = acc;
            }
        // Lohner update of the doubleton c + C r0 + B r [Lohner 1987]:
        //   x(h) in c' + C' r0 + B' r',  c' = mid(y), C' = mid(J C),
        //   r' in (B'^{-1} J B) r + B'^{-1} ((y - c') + (J C - C') r0).
        const Mat<I> JC = linalg::mul(J, C_);
        Mat<I> C_new = JC, dC = JC;
        for (Eigen::Index e = 0; e < JC.size(); ++e) {
            C_new.data()[e] = point_mid(JC.data()[e]);
            dC.data()[e] = JC.data()[e] - C_new.data()[e];
        }
        const Mat<I> JB = linalg::mul(J, B_);
        const Eigen::MatrixXd A = linalg::mid(JB);
        std::vector<double> weight(n, 0.0);
        for (int j = 0; j < n; ++j) weight[j] = A.col(j).norm() * width(R_[j]);
        Mat<I> Q, Qinv;
        lohner_basis<I>(A, weight, bits_, Q, Qinv);
        const Vec<I> err = z + linalg::mul(dC, R0_);
        Vec<I> R_new = linalg::mul(linalg::mul(Qinv, JB), R_);
        R_new += linalg::mul(Qinv, err);
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
            const Mat<I> JA = linalg::mul(Jfull, VA_);
            Mat<I> A_new = JA, dA = JA;
            for (Eigen::Index e = 0; e < JA.size(); ++e) {
                A_new.data()[e] = point_mid(JA.data()[e]);
                dA.data()[e] = JA.data()[e] - A_new.data()[e];
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
            lohner_basis<I>(M, wts, bits_, VQ, VQinv);
            Mat<I> E_new = linalg::mul(linalg::mul(VQinv, JVB), VE_);
            E_new += linalg::mul(VQinv, dA);
            for (Eigen::Index e = 0; e < E_new.size(); ++e)
                if (!is_bounded(E_new.data()[e])) return {Status::non_finite, "the derivative enclosure is not finite"};
            VA_ = std::move(A_new);
            VB_ = std::move(VQ);
            VE_ = std::move(E_new);
        }
        if (opt_.record_tubes) record_tube(hI, Z, res);
        c_ = std::move(c_new);
        C_ = std::move(C_new);
        B_ = std::move(Q);
        Binv_ = std::move(Qinv);
        R_ = std::move(R_new);
        return {};
    }
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
        Snapshot<I> s{time, at.box(), {}};
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
    Outcome o = lohner.advance_to(t_end, res);
    if (!o.ok()) return failed(lohner, o);
    lohner.finish();
    res.events = lohner.events();
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
