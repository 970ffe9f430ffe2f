// flowcert/taylor/evaluator.cpp -- Taylor coefficient recurrences, C^0 and C^1.
//
// Recurrences for w = op(u, v) at order k (Moore 1966, ch. 11; Griewank & Walther 2008,
// Table 13.1); d denotes the derivative with respect to the initial condition:
//   mul   w_k = sum_{i=0..k} u_i v_{k-i}
//   div   w_k = (u_k - sum_{i=1..k} v_i w_{k-i}) / v_0
//   sqrt  w_k = (u_k - sum_{i=1..k-1} w_i w_{k-i}) / (2 w_0)
//   exp   k w_k = sum_{i=1..k} i u_i w_{k-i}
//   log   k u_0 w_k = k u_k - sum_{i=1..k-1} i w_i u_{k-i}
//   sin/cos  k s_k = sum i u_i c_{k-i},  k c_k = -sum i u_i s_{k-i}
// The derivative recurrences are these identities differentiated term by term.
#include <flowcert/taylor.hpp>

#include <gmp.h>

#include <cmath>
#include <limits>
#include <type_traits>
#include <stdexcept>

namespace flowcert::taylor {

const char* to_string(EvalStatus s) {
    switch (s) {
        case EvalStatus::ok: return "ok";
        case EvalStatus::relu_kink: return "relu_kink";
        case EvalStatus::domain_error: return "domain_error";
        case EvalStatus::non_finite: return "non_finite";
    }
    return "?";
}

namespace {

// ---- scalar adapters: double (non-rigorous), IntervalD, IntervalMp -------------------
template <class T> struct Scalar;

template <> struct Scalar<double> {
    static double constant(const std::string& text, long) {
        if (text == "pi") return 3.141592653589793;  // a non-rigorous predictor only
        mpq_t q;
        mpq_init(q);
        if (auto err = parse_rational(text, q)) {
            mpq_clear(q);
            throw std::invalid_argument(*err);
        }
        const double d = mpq_get_d(q);  // round toward zero: a non-rigorous predictor only
        mpq_clear(q);
        return d;
    }
    static double one(long) { return 1.0; }
    static int sign(double x) { return x > 0 ? 1 : (x < 0 ? -1 : 0); }
    static bool positive(double x) { return x > 0; }
    static bool nonzero(double x) { return x != 0; }
    static bool finite(double x) { return std::isfinite(x); }
    static double sq(double x) { return x * x; }
};

template <> struct Scalar<IntervalD> {
    static IntervalD constant(const std::string& text, long) {
        return text == "pi" ? IntervalD::pi() : IntervalD::from_decimal(text);
    }
    static IntervalD one(long) { return IntervalD(1); }
    static int sign(const IntervalD& x) { return certainly_positive(x) ? 1 : (certainly_negative(x) ? -1 : 0); }
    static bool positive(const IntervalD& x) { return certainly_positive(x); }
    static bool nonzero(const IntervalD& x) { return certainly_nonzero(x); }
    static bool finite(const IntervalD& x) { return is_bounded(x); }
    static IntervalD sq(const IntervalD& x) { return sqr(x); }
};

template <> struct Scalar<IntervalMp> {
    static IntervalMp constant(const std::string& text, long bits) {
        return text == "pi" ? IntervalMp::pi(Precision(bits)) : IntervalMp::from_decimal(text, Precision(bits));
    }
    static IntervalMp one(long bits) { return IntervalMp::from_integer(1, Precision(bits)); }
    static int sign(const IntervalMp& x) { return certainly_positive(x) ? 1 : (certainly_negative(x) ? -1 : 0); }
    static bool positive(const IntervalMp& x) { return certainly_positive(x); }
    static bool nonzero(const IntervalMp& x) { return certainly_nonzero(x); }
    static bool finite(const IntervalMp& x) { return is_bounded(x); }
    static IntervalMp sq(const IntervalMp& x) { return sqr(x); }
};

// ---- fast convolution for IntervalD (midpoint-radius, round to nearest) ---------------
// For intervals a_i in <am_i, ar_i>, b_i in <bm_i, br_i> (|a_i - am_i| <= ar_i):
//   sum a_i b_i in s +- R,  s = fl(sum fl(am_i bm_i)),
//   R >= gamma_n sum |am_i bm_i| + sum (|am_i| br_i + ar_i (|bm_i| + br_i)) + underflow,
// [Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., Lemma 3.1 and eq. (3.5):
//  |fl(x^T y) - x^T y| <= gamma_n |x|^T |y|; Rump, "Fast and parallel interval arithmetic",
//  BIT 39 (1999), midpoint-radius products]. With u = 2^-53 and n u < 0.01:
//  sum |am bm| <= (1-u)^-n A_fl with A_fl = fl(sum |fl(am bm)|), so the error of s is at most
//  gamma_n (1-u)^-n A_fl <= n u (1 + 2nu)^2 A_fl <= (n+1) u A_fl (5 n^2 u <= 1 for n <= 10^5); a nonnegative sum/product
//  expression of k roundings satisfies true <= fl (1-u)^-k, so rho_true <= (1 + (n+4)u) rho_fl;
//  every product that underflows errs by at most eta/2 in
//  absolute terms, covered by 8(n+1) eta. The final combination is rounded upward.
struct MidRadAcc {
    double s = 0, A = 0, rho = 0;
    int n = 0;
    void add(double am, double ar, double bm, double br) {
        const double p = am * bm;
        s += p;
        A += std::fabs(p);
        rho += std::fabs(am) * br + ar * (std::fabs(bm) + br);
        ++n;
    }
    // false if something is not finite (then the caller uses interval arithmetic).
    bool result(IntervalD& out) const {
        if (!std::isfinite(s) || !std::isfinite(A) || !std::isfinite(rho) || n > 100000) return false;  // n u <= 2^-30
        constexpr double u = 0x1p-53;
        const double eta = std::numeric_limits<double>::denorm_min();
        const double c1 = static_cast<double>(n + 1) * u;  // exact; >= gamma_n (1-u)^-n
        const double c2 = 1.0 + static_cast<double>((n + 5) / 2) * 0x1p-52;  // exact; >= 1 + (n+4)u >= (1-u)^-(n+3)
        // R >= c1 A + c2 rho + 8(n+1) eta, evaluated in round-to-nearest: the nonnegative sum of
        // three roundings is >= (1-u)^3 times its exact value in the normal range, and each rounding
        // in the subnormal range errs by at most eta/2 (covered by the extra 8 eta); the final
        // product by 1 + 2^-50 = 1 + 8u, itself rounded, gives (1-u)^4 (1 + 8u) > 1.
        const double R = (c1 * A + c2 * rho + (8.0 * (n + 1) + 8.0) * eta) * (1.0 + 0x1p-50);
        if (!std::isfinite(R)) return false;
        out = IntervalD::bounds(rounding::add(s, -R, -1), rounding::add(s, R, +1));
        return true;
    }
};

inline void midrad(const IntervalD& x, double& m, double& r) {
    const double lo = x.lower(), hi = x.upper();
    m = 0.5 * lo + 0.5 * hi;  // a double in [lo, hi] (halving is exact above the subnormal range)
    if (!(m >= lo && m <= hi)) m = lo;  // subnormal corner case or infinite bounds
    // upward: [lo,hi] in m +- r. d = fl(max(hi - m, m - lo)) >= (1-u) times the exact difference
    // (normal range; absolute eta/2 below it); fl(d (1 + 4u)) >= (1-u)^2 (1 + 4u) exact > exact, and
    // adding 2 eta (exact in the subnormal range, monotone above it) covers the subnormal case.
    // Infinite bounds give r = inf or NaN, which the kernel rejects (non-finite -> interval code).
    r = std::max(hi - m, m - lo) * (1.0 + 0x1p-51) + 2 * std::numeric_limits<double>::denorm_min();
}

// x / d for a positive integer d (the 1/(k+1) of x_{k+1} = f_k/(k+1)). IntervalD: d = 1 is exact;
// otherwise each bound is divided in round-to-nearest and moved one ulp outward (a correctly
// rounded quotient is within half a gap of the exact one, so one step outward bounds it), except
// that 0 stays 0. Cheaper than the general outward division, at most one ulp wider.
template <class T>
inline T div_count(const T& x, int d) {
    return x / d;
}
// IntervalMp: each bound divided by d with directed rounding (two mpfr_div_ui calls, no temporary;
// the result keeps x's precision). The representation stays MPFI's: +-0 / d keeps its sign.
template <>
inline IntervalMp div_count(const IntervalMp& x, int d) {
    if (d == 1) return x;
    IntervalMp r{Precision(x.precision())};
    mpfr_div_ui(&r.get_mutable()->left, &x.get()->left, static_cast<unsigned long>(d), MPFR_RNDD);
    mpfr_div_ui(&r.get_mutable()->right, &x.get()->right, static_cast<unsigned long>(d), MPFR_RNDU);
    return r;
}
template <>
inline IntervalD div_count(const IntervalD& x, int d) {
    if (d == 1) return x;
    const double dd = static_cast<double>(d), lo = x.lower(), hi = x.upper();
    const double l = lo == 0.0 ? 0.0 : rounding::next_down(lo / dd);
    const double h = hi == 0.0 ? 0.0 : rounding::next_up(hi / dd);
    return IntervalD::bounds(l, h);
}

}  // namespace

template <class T>
void TaylorEvaluator<T>::fill_midrad(int id, int k, bool c1) {
    if constexpr (std::is_same_v<T, IntervalD>) {
        const std::size_t e = static_cast<std::size_t>(id) * stride_ + k;
        midrad(val_[e], vm_[e], vr_[e]);
        if (c1)
            for (int j = 0; j < n_; ++j) midrad(der_[e * n_ + j], dm_[e * n_ + j], dr_[e * n_ + j]);
    } else {
        (void)id, (void)k, (void)c1;
    }
}

template <class T>
TaylorEvaluator<T>::TaylorEvaluator(const VectorField& field, std::vector<T> params, long bits)
    : field_(std::make_shared<const VectorField>(field)), nodes_(field.nodes()), outputs_(field.outputs()),
      n_(field.dimension()) {
    if (!field.complete()) throw std::invalid_argument("the vector field has no right-hand side");
    if (static_cast<int>(params.size()) != field.parameter_count())
        throw std::invalid_argument("expected " + std::to_string(field.parameter_count()) + " parameter values, got " +
                                    std::to_string(params.size()));
    const_values_.resize(nodes_.size());
    for (std::size_t id = 0; id < nodes_.size(); ++id) {
        const Node& nd = nodes_[id];
        if (nd.op == Op::Param) const_values_[id] = params[nd.index];
        if (nd.op == Op::Const) const_values_[id] = Scalar<T>::constant(field.constants()[nd.index], bits);
    }
    one_ = {Scalar<T>::one(bits), Scalar<T>::one(bits) - Scalar<T>::one(bits)};
    if constexpr (std::is_same_v<T, double>) unit_ = 1.0;  // the predictor never runs in hull mode
    else unit_ = hull(one_[1], one_[0]);
    relu_sign_.assign(nodes_.size(), 0);
}

template <class T>
void TaylorEvaluator<T>::reserve(int order) {
    const std::size_t need = static_cast<std::size_t>(order) + 2;
    if (need <= stride_) return;
    stride_ = need;
    const std::size_t N = nodes_.size();
    val_.assign(N * stride_, one_[1]);
    aux_.assign(N * stride_, one_[1]);
    der_.assign(N * stride_ * n_, one_[1]);
    aux_der_.assign(N * stride_ * n_, one_[1]);
    if constexpr (std::is_same_v<T, IntervalD>) {
        vm_.assign(N * stride_, 0.0);
        vr_.assign(N * stride_, 0.0);
        dm_.assign(N * stride_ * n_, 0.0);
        dr_.assign(N * stride_ * n_, 0.0);
    }
    for (std::size_t id = 0; id < N; ++id)
        if (nodes_[id].op == Op::Param || nodes_[id].op == Op::Const) val_[id * stride_] = const_values_[id];
}

template <class T>
EvalResult TaylorEvaluator<T>::compute(std::span<const T> x0, int order) {
    return run(x0, order, false);
}
template <class T>
EvalResult TaylorEvaluator<T>::compute_c1(std::span<const T> x0, int order) {
    return run(x0, order, true);
}

template <class T>
EvalResult TaylorEvaluator<T>::evaluate(std::span<const T> x0, std::span<T> out) {
    EvalResult r = run(x0, 0, false);
    if (!r.ok()) return r;
    // f(x0) is the order-0 coefficient of each output node.
    for (int i = 0; i < n_; ++i) out[i] = val_[static_cast<std::size_t>(outputs_[i]) * stride_];
    return r;
}

template <class T>
EvalResult TaylorEvaluator<T>::run(std::span<const T> x0, int order, bool c1) {
    if (static_cast<int>(x0.size()) != n_) throw std::invalid_argument("initial value of the wrong dimension");
    if (order < 0) throw std::invalid_argument("negative Taylor order");
    reserve(order);
    order_ = order;
    const std::size_t N = nodes_.size();
    for (int i = 0; i < n_; ++i) {
        val_[i * stride_] = x0[i];
        if (c1)
            for (int j = 0; j < n_; ++j) der_[(i * stride_) * n_ + j] = one_[i == j ? 0 : 1];
        fill_midrad(i, 0, c1);
    }
    // For order 0 we still evaluate the nodes once, so evaluate() can read f(x0).
    const int kmax = order == 0 ? 0 : order - 1;
    for (int k = 0; k <= kmax; ++k) {
        for (std::size_t id = n_; id < N; ++id) {
            EvalResult r = eval_node(static_cast<int>(id), k, c1);
            if (!r.ok()) return r;
            fill_midrad(static_cast<int>(id), k, c1 && !nodes_[id].constant);
        }
        if (order == 0) break;
        // x_{k+1} = f_k / (k+1)
        for (int i = 0; i < n_; ++i) {
            const std::size_t o = static_cast<std::size_t>(outputs_[i]);
            val_[i * stride_ + k + 1] = div_count(val_[o * stride_ + k], k + 1);
            if (c1)
                for (int j = 0; j < n_; ++j)
                    der_[(i * stride_ + k + 1) * n_ + j] = div_count(der_[(o * stride_ + k) * n_ + j], k + 1);
            fill_midrad(i, k + 1, c1);
        }
    }
    for (int i = 0; i < n_; ++i)
        for (int k = 0; k <= order; ++k)
            if (!Scalar<T>::finite(val_[i * stride_ + k]))
                return {EvalStatus::non_finite, "Taylor coefficient " + std::to_string(k) + " of " +
                                                    field_->variables()[i] + " is not finite"};
    return {};
}

// Mul/Sqr node at order k with the midpoint-radius kernel (IntervalD only); false if it
// could not be used (non-finite data), then the interval code runs.
template <class T>
bool TaylorEvaluator<T>::fast_mul(int id, int k, bool c1) {
    if constexpr (std::is_same_v<T, IntervalD>) {
        if (k <= 1) return false;  // short sums: directed interval arithmetic is tighter
        const Node& nd = nodes_[id];
        const int b = nd.op == Op::Sqr ? nd.a : nd.b;
        const std::size_t S = stride_, n = static_cast<std::size_t>(n_);
        const std::size_t ua = static_cast<std::size_t>(nd.a) * S, vb = static_cast<std::size_t>(b) * S;
        MidRadAcc acc;
        for (int i = 0; i <= k; ++i) acc.add(vm_[ua + i], vr_[ua + i], vm_[vb + k - i], vr_[vb + k - i]);
        IntervalD w;
        if (!acc.result(w)) return false;
        if (c1)
            for (std::size_t m = 0; m < n; ++m) {
                MidRadAcc d;
                for (int i = 0; i <= k; ++i) {
                    const std::size_t ei = (ua + i) * n + m, fk = (vb + k - i) * n + m;
                    d.add(dm_[ei], dr_[ei], vm_[vb + k - i], vr_[vb + k - i]);
                    d.add(vm_[ua + i], vr_[ua + i], dm_[fk], dr_[fk]);
                }
                // written in place: only the mid-rad copies of the operands are read here, and on
                // failure the interval code below overwrites everything
                if (!d.result(der_[(static_cast<std::size_t>(id) * S + k) * n + m])) return false;
            }
        val_[static_cast<std::size_t>(id) * S + k] = w;
        return true;
    } else {
        (void)id, (void)k, (void)c1;
        return false;
    }
}

// d[kk * n + m]: the derivative with respect to x_m of Taylor coefficient kk in a node's derivative block.
template <class T>
struct DerivativeAt {
    int n;
    const T& operator()(const T* d, int kk, int m) const { return d[kk * n + m]; }
    T& operator()(T* d, int kk, int m) const { return d[kk * n + m]; }
};

// Taylor coefficient k of + - unary - * sqr / (and their first derivatives when c1).
template <class T>
EvalResult TaylorEvaluator<T>::eval_arith(const Node& nd, int id, int k, bool c1, const Operands& o) {
    const auto& [w, dw, u, du, v, dv, ca, cb] = o;
    const int n = n_;
    const DerivativeAt<T> D{n}, Dw{n};
    switch (nd.op) {
        case Op::Add:
            w[k] = (cb && k > 0) ? u[k] : (ca && k > 0) ? v[k] : u[k] + v[k];
            if (c1)
                for (int m = 0; m < n; ++m)
                    Dw(dw, k, m) = cb ? D(du, k, m) : ca ? D(dv, k, m) : D(du, k, m) + D(dv, k, m);
            return {};
        case Op::Sub:
            w[k] = (cb && k > 0) ? u[k] : (ca && k > 0) ? -v[k] : u[k] - v[k];
            if (c1)
                for (int m = 0; m < n; ++m)
                    Dw(dw, k, m) = cb ? D(du, k, m) : ca ? -D(dv, k, m) : D(du, k, m) - D(dv, k, m);
            return {};
        case Op::Neg:
            w[k] = -u[k];
            if (c1)
                for (int m = 0; m < n; ++m) Dw(dw, k, m) = -D(du, k, m);
            return {};
        case Op::Mul:
            if (ca) {
                w[k] = u[0] * v[k];
                if (c1)
                    for (int m = 0; m < n; ++m) Dw(dw, k, m) = u[0] * D(dv, k, m);
            } else if (cb) {
                w[k] = u[k] * v[0];
                if (c1)
                    for (int m = 0; m < n; ++m) Dw(dw, k, m) = D(du, k, m) * v[0];
            } else {
                if constexpr (std::is_same_v<T, IntervalD>) {
                    if (fast_mul(id, k, c1)) return {};
                }
                T acc = u[0] * v[k];
                for (int i = 1; i <= k; ++i) acc += u[i] * v[k - i];
                w[k] = acc;
                if (c1)
                    for (int m = 0; m < n; ++m) {
                        T d = D(du, 0, m) * v[k] + u[0] * D(dv, k, m);
                        for (int i = 1; i <= k; ++i) d += D(du, i, m) * v[k - i] + u[i] * D(dv, k - i, m);
                        Dw(dw, k, m) = d;
                    }
            }
            return {};
        case Op::Sqr: {
            if constexpr (std::is_same_v<T, IntervalD>) {
                if (fast_mul(id, k, c1)) return {};
            }
            // w_k = 2 sum_{i < k-i} u_i u_{k-i} + u_{k/2}^2 (k even)
            T acc = (k % 2 == 0) ? Scalar<T>::sq(u[k / 2]) : u[0] * u[k];
            if (k % 2 == 0) {
                if (k > 0) {
                    T s = u[0] * u[k];
                    for (int i = 1; i < k - i; ++i) s += u[i] * u[k - i];
                    acc += s + s;
                }
            } else {
                T s = acc;
                for (int i = 1; i < k - i; ++i) s += u[i] * u[k - i];
                acc = s + s;
            }
            w[k] = acc;
            if (c1)
                for (int m = 0; m < n; ++m) {
                    T d = D(du, 0, m) * u[k];
                    for (int i = 1; i <= k; ++i) d += D(du, i, m) * u[k - i];
                    Dw(dw, k, m) = d + d;
                }
            return {};
        }
        case Op::Div: {
            if (k == 0 && !Scalar<T>::nonzero(v[0]))
                return {EvalStatus::domain_error, "division by a set that contains 0 in " + field_->to_text(id), id};
            if (cb) {
                w[k] = u[k] / v[0];
                if (c1)
                    for (int m = 0; m < n; ++m) Dw(dw, k, m) = D(du, k, m) / v[0];
                return {};
            }
            T acc = u[k];
            for (int i = 1; i <= k; ++i) acc -= v[i] * w[k - i];
            w[k] = acc / v[0];
            if (c1)
                for (int m = 0; m < n; ++m) {
                    T d = D(du, k, m);
                    for (int i = 0; i <= k; ++i) d -= D(dv, i, m) * w[k - i];
                    for (int i = 1; i <= k; ++i) d -= v[i] * D(dw, k - i, m);
                    Dw(dw, k, m) = d / v[0];
                }
            return {};
        }
        default: return {};
    }
}

// Taylor coefficient k of sqrt, exp and log: the recurrences of (w^2)' = u', w' = w u', u w' = u'.
template <class T>
EvalResult TaylorEvaluator<T>::eval_elementary(const Node& nd, int id, int k, bool c1, const Operands& o) {
    using std::exp;
    using std::log;
    using std::sqrt;
    const auto& [w, dw, u, du, v, dv, ca, cb] = o;
    const int n = n_;
    const DerivativeAt<T> D{n}, Dw{n};
    switch (nd.op) {
        case Op::Sqrt: {
            if (k == 0) {
                if (!Scalar<T>::positive(u[0]))
                    return {EvalStatus::domain_error, "sqrt of a set that is not certainly positive in " +
                                                          field_->to_text(id), id};
                w[0] = sqrt(u[0]);
                if (c1)
                    for (int m = 0; m < n; ++m) Dw(dw, 0, m) = D(du, 0, m) / (w[0] + w[0]);
                return {};
            }
            T acc = u[k];
            for (int i = 1; i <= k - 1; ++i) acc -= w[i] * w[k - i];
            const T two_w0 = w[0] + w[0];
            w[k] = acc / two_w0;
            if (c1)
                for (int m = 0; m < n; ++m) {
                    T s = w[1] * D(dw, k - 1, m);
                    for (int i = 2; i <= k; ++i) s += w[i] * D(dw, k - i, m);
                    Dw(dw, k, m) = (D(du, k, m) - (s + s)) / two_w0;
                }
            return {};
        }
        case Op::Exp: {
            if (k == 0) {
                w[0] = exp(u[0]);
                if (c1)
                    for (int m = 0; m < n; ++m) Dw(dw, 0, m) = w[0] * D(du, 0, m);
                return {};
            }
            T acc = u[1] * w[k - 1];
            for (int i = 2; i <= k; ++i) acc += (u[i] * w[k - i]) * i;
            w[k] = acc / k;
            if (c1)
                for (int m = 0; m < n; ++m) {
                    T d = D(du, 1, m) * w[k - 1] + u[1] * D(dw, k - 1, m);
                    for (int i = 2; i <= k; ++i) d += (D(du, i, m) * w[k - i] + u[i] * D(dw, k - i, m)) * i;
                    Dw(dw, k, m) = d / k;
                }
            return {};
        }
        case Op::Log: {
            if (k == 0) {
                if (!Scalar<T>::positive(u[0]))
                    return {EvalStatus::domain_error, "log of a set that is not certainly positive in " +
                                                          field_->to_text(id), id};
                w[0] = log(u[0]);
                if (c1)
                    for (int m = 0; m < n; ++m) Dw(dw, 0, m) = D(du, 0, m) / u[0];
                return {};
            }
            T acc = u[k];
            if (k >= 2) {
                T s = w[1] * u[k - 1];
                for (int i = 2; i <= k - 1; ++i) s += (w[i] * u[k - i]) * i;
                acc -= s / k;
            }
            w[k] = acc / u[0];
            if (c1)
                for (int m = 0; m < n; ++m) {
                    T s = w[1] * D(du, k - 1, m);
                    for (int i = 2; i <= k; ++i) s += (w[i] * D(du, k - i, m)) * i;
                    for (int i = 1; i <= k - 1; ++i) s += (D(dw, i, m) * u[k - i]) * i;
                    Dw(dw, k, m) = (D(du, k, m) - s / k) / u[0];
                }
            return {};
        }
        default: return {};
    }
}

// Taylor coefficient k of sin, cos (the pair carried together) and atan.
template <class T>
EvalResult TaylorEvaluator<T>::eval_trig(const Node& nd, int id, int k, bool c1, const Operands& o) {
    using std::cos;
    using std::sin;
    const std::size_t S = stride_;
    const auto& [w, dw, u, du, v, dv, ca, cb] = o;
    const int n = n_;
    const DerivativeAt<T> D{n}, Dw{n};
    switch (nd.op) {
        case Op::Sin:
        case Op::Cos: {
            // w holds sin (Op::Sin) or cos (Op::Cos); aux holds the other one.
            const bool is_sin = nd.op == Op::Sin;
            T* s = is_sin ? w : &aux_[id * S];
            T* c = is_sin ? &aux_[id * S] : w;
            T* ds = is_sin ? dw : &aux_der_[id * S * n];
            T* dc = is_sin ? &aux_der_[id * S * n] : dw;
            if (k == 0) {
                s[0] = sin(u[0]);
                c[0] = cos(u[0]);
                if (c1)
                    for (int m = 0; m < n; ++m) {
                        Dw(ds, 0, m) = c[0] * D(du, 0, m);
                        Dw(dc, 0, m) = -(s[0] * D(du, 0, m));
                    }
                return {};
            }
            T as = u[1] * c[k - 1], ac = u[1] * s[k - 1];
            for (int i = 2; i <= k; ++i) {
                as += (u[i] * c[k - i]) * i;
                ac += (u[i] * s[k - i]) * i;
            }
            s[k] = as / k;
            c[k] = -(ac / k);
            if (c1)
                for (int m = 0; m < n; ++m) {
                    T a1 = D(du, 1, m) * c[k - 1] + u[1] * D(dc, k - 1, m);
                    T a2 = D(du, 1, m) * s[k - 1] + u[1] * D(ds, k - 1, m);
                    for (int i = 2; i <= k; ++i) {
                        a1 += (D(du, i, m) * c[k - i] + u[i] * D(dc, k - i, m)) * i;
                        a2 += (D(du, i, m) * s[k - i] + u[i] * D(ds, k - i, m)) * i;
                    }
                    Dw(ds, k, m) = a1 / k;
                    Dw(dc, k, m) = -(a2 / k);
                }
            return {};
        }
        case Op::Atan: {
            // w = atan(u), (1 + u^2) w' = u'. With d = 1 + u^2 (kept in aux):
            //   k d_0 w_k = k u_k - sum_{i=1..k-1} i w_i d_{k-i},
            // and its derivative term by term (dd = 2 u du).
            using std::atan;
            T* d = &aux_[id * S];
            T* dd = &aux_der_[id * S * n];
            {
                T acc = u[0] * u[k];
                for (int i = 1; i <= k; ++i) acc += u[i] * u[k - i];
                d[k] = k == 0 ? acc + one_[0] : acc;
                if (c1)
                    for (int m = 0; m < n; ++m) {
                        T s2 = D(du, 0, m) * u[k];
                        for (int i = 1; i <= k; ++i) s2 += D(du, i, m) * u[k - i];
                        Dw(dd, k, m) = s2 + s2;
                    }
            }
            if (k == 0) {
                w[0] = atan(u[0]);
                if (c1)
                    for (int m = 0; m < n; ++m) Dw(dw, 0, m) = D(du, 0, m) / d[0];
                return {};
            }
            T acc = u[k] * k;
            for (int i = 1; i <= k - 1; ++i) acc -= (w[i] * d[k - i]) * i;
            const T kd0 = d[0] * k;
            w[k] = acc / kd0;
            if (c1)
                for (int m = 0; m < n; ++m) {
                    T s2 = D(du, k, m) * k - D(dd, 0, m) * w[k] * k;
                    for (int i = 1; i <= k - 1; ++i) s2 -= (D(dw, i, m) * d[k - i] + w[i] * D(dd, k - i, m)) * i;
                    Dw(dw, k, m) = s2 / kd0;
                }
            return {};
        }
        default: return {};
    }
}

// Taylor coefficient k of relu: fixed by the sign of the argument at k = 0 (or the kink hull).
template <class T>
EvalResult TaylorEvaluator<T>::eval_relu(const Node& nd, int id, int k, bool c1, const Operands& o) {
    const auto& [w, dw, u, du, v, dv, ca, cb] = o;
    const int n = n_;
    const DerivativeAt<T> D{n}, Dw{n};
    switch (nd.op) {
        case Op::Relu: {
            if (k == 0) {
                const int sg = Scalar<T>::sign(u[0]);
                if (sg == 0 && !kink_hull_)
                    return {EvalStatus::relu_kink,
                            "the enclosure of the argument of " + field_->to_text(id) +
                                " contains 0: the step straddles the kink", id};
                relu_sign_[id] = static_cast<signed char>(sg);
            }
            if constexpr (!std::is_same_v<T, double>) {
                if (relu_sign_[id] == 0) {  // kink-hull mode, argument straddling 0
                    if (k == 0) w[0] = relu(u[0]);  // the range [0, max(0, hi)] of max(u, 0)
                    else w[k] = unit_ * u[k];
                    if (c1)
                        for (int m = 0; m < n; ++m) Dw(dw, k, m) = unit_ * D(du, k, m);
                    return {};
                }
            }
            if (relu_sign_[id] > 0) {
                w[k] = u[k];
                if (c1)
                    for (int m = 0; m < n; ++m) Dw(dw, k, m) = D(du, k, m);
            } else {
                w[k] = one_[1];
                if (c1)
                    for (int m = 0; m < n; ++m) Dw(dw, k, m) = one_[1];
            }
            return {};
        }
        default: return {};
    }
}

template <class T>
EvalResult TaylorEvaluator<T>::eval_node(int id, int k, bool c1) {
    const Node& nd = nodes_[id];
    if (nd.constant) {
        if (k > 0) return {};
        c1 = false;
    }
    if (nd.op == Op::Param || nd.op == Op::Const || nd.op == Op::Var) return {};
    const std::size_t S = stride_;
    const std::size_t n = static_cast<std::size_t>(n_);
    const Operands o{&val_[id * S], &der_[id * S * n], &val_[nd.a * S], &der_[nd.a * S * n],
                     nd.b >= 0 ? &val_[nd.b * S] : nullptr, nd.b >= 0 ? &der_[nd.b * S * n] : nullptr,
                     nodes_[nd.a].constant, nd.b >= 0 && nodes_[nd.b].constant};
    switch (nd.op) {
        case Op::Add: case Op::Sub: case Op::Neg: case Op::Mul: case Op::Sqr: case Op::Div:
            return eval_arith(nd, id, k, c1, o);
        case Op::Sqrt: case Op::Exp: case Op::Log: return eval_elementary(nd, id, k, c1, o);
        case Op::Sin: case Op::Cos: case Op::Atan: return eval_trig(nd, id, k, c1, o);
        case Op::Relu: return eval_relu(nd, id, k, c1, o);
        case Op::Var: case Op::Param: case Op::Const: return {};
    }
    return {};
}

template class TaylorEvaluator<double>;
template class TaylorEvaluator<IntervalD>;
template class TaylorEvaluator<IntervalMp>;

}  // namespace flowcert::taylor
