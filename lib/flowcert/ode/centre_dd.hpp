// flowcert/ode/centre_dd.hpp -- rigorous double-double Taylor coefficients at the centre of the
// Lohner set, for polynomial vector fields (private to the ODE layer: included by integrator.cpp
// only, never by <flowcert/ode.hpp>).
//
// Why: with IntervalD the Taylor polynomial at the centre, T_p(c, h), is evaluated with an error
// of tens of ulps per step; in the Lohner form that error is a new local error of every step and
// dominated the width of long integrations (Lorenz to T = 10: 2.0e-10 at 53 bits, 2.0e-11 at
// 64 bits). Here every coefficient is a double-double midpoint hi + lo with a rigorous radius r
// (the real number lies in [hi + lo - r, hi + lo + r]), so T_p(c, h) is known to ~u^2 relative
// instead of ~u, and the integrator keeps that error in the r part of the doubleton.
//
// Arithmetic: error-free transformations [T. Ogita, S. M. Rump, S. Oishi, "Accurate sum and dot
// product", SIAM J. Sci. Comput. 26 (2005): TwoSum (Alg. 3.1), TwoProduct (Alg. 3.3)] for the
// leading parts, recursive summation of the low-order parts with the a-priori bound
// |fl(sum t_j) - sum t_j| <= gamma_m sum |t_j| [Higham 2002, Lemma 3.1 / eq. (3.5)], and
// the exact remainder of a division [Bohlender, Walter, Kornerup, Matula, "Semantics for exact
// floating point operations", ARITH 10 (1991)]. The bound constants follow MidRadAcc in
// taylor/evaluator.cpp: gamma_m (1-u)^-m <= (m+1) u for m u <= 2^-30, and a nonnegative expression
// of k roundings is at most (1-u)^-k <= 1 + (k+1) u times its computed value; every rounding that
// may underflow adds eta = 2^-1074 absolute. Any guard failure (overflow, a product below 2^-960,
// a non-finite value) makes compute() return false; the caller then uses interval arithmetic.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include <gmp.h>

#include <flowcert/interval.hpp>
#include <flowcert/taylor.hpp>

namespace flowcert::ode::detail {

// The real numbers hi + lo +- r (r >= 0; hi + lo is the exact real sum of the two doubles).
struct DD {
    double hi = 0, lo = 0, r = 0;
};

// Knuth's TwoSum: s + e == a + b exactly for finite a, b with a finite s.
inline void two_sum(double a, double b, double& s, double& e) noexcept {
    s = a + b;
    const double bb = s - a;
    e = (a - (s - bb)) + (b - bb);
}

constexpr double kDDu = 0x1p-53;
constexpr double kDDEta = std::numeric_limits<double>::denorm_min();

// An upper bound of |x| for every x in the set.
inline double dd_mag(const DD& x) noexcept {
    return rounding::add(rounding::add(std::fabs(x.hi), std::fabs(x.lo), +1), x.r, +1);
}

// Outward IntervalD enclosure of the set.
inline IntervalD dd_to_interval(const DD& x) {
    const double lo = rounding::add(x.hi, rounding::add(x.lo, -x.r, -1), -1);
    const double hi = rounding::add(x.hi, rounding::add(x.lo, x.r, +1), +1);
    return IntervalD::bounds(lo, hi);
}

// The set of an IntervalD [a, b] as a double-double midpoint (a + b)/2 (exact: halving is exact
// for |a|, |b| >= 2^-1021 or 0) and radius (b - a)/2 rounded up. false for infinite bounds.
inline bool dd_from_interval(const IntervalD& x, DD& out) {
    const double a = x.lower(), b = x.upper();
    if (!std::isfinite(a) || !std::isfinite(b)) return false;
    if (a == b) {
        out = {a, 0.0, 0.0};
        return true;
    }
    constexpr double kHalfExact = 0x1p-1020;
    if ((a != 0 && std::fabs(a) < kHalfExact) || (b != 0 && std::fabs(b) < kHalfExact)) {
        out = {a, 0.0, rounding::add(b, -a, +1)};  // [a, b] in a + [0, b - a]
        return true;
    }
    const double ha = 0.5 * a, hb = 0.5 * b;
    two_sum(ha, hb, out.hi, out.lo);
    out.r = rounding::add(hb, -ha, +1);
    return true;
}

// An exact decimal / rational constant as hi + lo +- r with r <= ulp(lo).
inline bool dd_from_text(const std::string& text, DD& out) {
    mpq_t q, t;
    mpq_init(q);
    mpq_init(t);
    bool ok = !parse_rational(text, q).has_value();
    if (ok) {
        out.hi = mpq_get_d(q);  // truncation; the residual is kept exactly
        // beyond the double range mpq_get_d gives +-inf, which mpq_set_d must not see (SIGFPE)
        ok = std::isfinite(out.hi) && std::fabs(out.hi) < std::numeric_limits<double>::max();
    }
    if (ok) {
        mpq_set_d(t, out.hi);
        mpq_sub(q, q, t);
        out.lo = mpq_get_d(q);
        mpq_set_d(t, out.lo);
        mpq_sub(q, q, t);
        mpq_abs(q, q);
        const double rr = mpq_get_d(q);  // <= |residual| (truncation): one step up bounds it
        out.r = mpq_sgn(q) == 0 ? 0.0 : rounding::next_up(rr);
        ok = std::isfinite(out.hi) && std::isfinite(out.lo) && std::isfinite(out.r);
    }
    mpq_clear(q);
    mpq_clear(t);
    return ok;
}

// Accumulates sum_j +- x_j and sum_j x_j y_j of double-double sets (see the header comment).
class DDAcc {
public:
    void add(const DD& x) noexcept {
        double s, e;
        two_sum(p_, x.hi, s, e);
        p_ = s;
        L_ += e;
        L_ += x.lo;
        A_ += std::fabs(e) + std::fabs(x.lo);
        m_ += 2;
        rho_ += x.r;
        ++k_;
    }
    void sub(const DD& x) noexcept { add(DD{-x.hi, -x.lo, x.r}); }
    // += x y: x.hi y.hi exactly by TwoProduct, x.hi y.lo + x.lo y.hi rounded into L, x.lo y.lo and
    // the radii |xm| y.r + x.r (|ym| + y.r) into rho.
    void add_prod(const DD& x, const DD& y) noexcept {
        rounding::TwoProd t{0.0, 0.0};
        if (x.hi != 0.0 && y.hi != 0.0) {
            const double ap = std::fabs(x.hi * y.hi);
            if (!(ap >= rounding::kTiny && ap <= rounding::kProdMax && std::fabs(x.hi) <= rounding::kSplitMax &&
                  std::fabs(y.hi) <= rounding::kSplitMax)) {
                ok_ = false;
                return;
            }
            t = rounding::two_product(x.hi, y.hi);
        }
        double s, e;
        two_sum(p_, t.hi, s, e);
        p_ = s;
        const double c1 = x.hi * y.lo, c2 = x.lo * y.hi;
        L_ += e;
        L_ += t.lo;
        L_ += c1;
        L_ += c2;
        A_ += std::fabs(e) + std::fabs(t.lo) + std::fabs(c1) + std::fabs(c2);
        m_ += 4;
        const double ax = std::fabs(x.hi) + std::fabs(x.lo), ay = std::fabs(y.hi) + std::fabs(y.lo);
        rho_ += std::fabs(x.lo) * std::fabs(y.lo) + ax * y.r + x.r * (ay + y.r);
        ++k_;
    }
    // The enclosure of the accumulated sum; false if a guard failed or a value is not finite.
    bool result(DD& out) const noexcept {
        if (!ok_ || m_ > 100000) return false;
        if (!std::isfinite(p_) || !std::isfinite(L_) || !std::isfinite(A_) || !std::isfinite(rho_)) return false;
        two_sum(p_, L_, out.hi, out.lo);  // exact
        // low-order sum: gamma_m (1-u)^-m A_fl <= (m+1) u A_fl; rho: each of its terms went through at
        // most k + 6 roundings, (1-u)^-(k+6) <= 1 + (k+8) 2^-52 (generous); underflow: eta per rounding.
        // The bound c1 A + c2 rho + eta terms is evaluated in round-to-nearest (three roundings of
        // nonnegative terms: >= (1-u)^3 of the exact value in the normal range, eta/2 absolute below,
        // covered by the extra 8 eta) and multiplied by 1 + 8u: (1-u)^4 (1 + 8u) > 1.
        const double c1 = static_cast<double>(m_ + 1) * kDDu;
        const double c2 = 1.0 + static_cast<double>(k_ + 8) * 0x1p-52;
        const double r = (c1 * A_ + c2 * rho_ + 8.0 * static_cast<double>(m_ + 4 * k_ + 5) * kDDEta) * (1.0 + 0x1p-50);
        if (!std::isfinite(out.hi) || !std::isfinite(out.lo) || !std::isfinite(r)) return false;
        out.r = r;
        return true;
    }

private:
    double p_ = 0, L_ = 0, A_ = 0, rho_ = 0;
    long m_ = 0, k_ = 0;
    bool ok_ = true;
};

// x / d for a positive integer d <= 2^31: q = fl(hi/d), the exact remainder hi - q d
// (representable, computed exactly with TwoProduct and Sterbenz), then (rem + lo)/d in two
// roundings: |error| <= u (|t|/d + |l|) + 2 eta with t = fl(rem + lo), l = fl(t/d).
inline bool dd_div_int(const DD& x, long d, DD& out) noexcept {
    const double dd = static_cast<double>(d);
    const double q = x.hi / dd;
    double rem = 0.0;
    if (x.hi != 0.0) {
        const double aq = std::fabs(q);
        if (!(aq >= rounding::kTiny && aq <= rounding::kSplitMax && std::fabs(x.hi) <= rounding::kProdMax))
            return false;
        const rounding::TwoProd t = rounding::two_product(q, dd);
        rem = (x.hi - t.hi) - t.lo;
    }
    const double t = rem + x.lo;
    const double l = t / dd;
    two_sum(q, l, out.hi, out.lo);
    // r' >= x.r/d + u (|t|/d + |l|) + 2 eta: evaluated in round-to-nearest (nonnegative terms, at most
    // five roundings; multiplied by 1 + 8u as in DDAcc::result, with 8 eta for the subnormal range).
    const double e = 0x1p-52 * (std::fabs(t) / dd + std::fabs(l));
    out.r = (x.r / dd + e + 8 * kDDEta) * (1.0 + 0x1p-50);
    return std::isfinite(out.hi) && std::isfinite(out.lo) && std::isfinite(out.r);
}

// u / v for sets u, v with 0 not in v: q1 = fl(u.hi / v.hi), rho = u - q1 v, q2 = fl(rho.hi / v.hi),
// rho2 = rho - q2 v (both enclosed by DDAcc over the whole sets), and u/v = q1 + q2 + rho2/v with
// |rho2 / v| <= mag(rho2) / mig(v). false if 0 may lie in v or a guard fails.
inline bool dd_div(const DD& u, const DD& v, DD& out) noexcept {
    const double mig = rounding::add(rounding::add(std::fabs(v.hi), -std::fabs(v.lo), -1), -v.r, -1);
    if (!(mig > 0) || !std::isfinite(u.hi)) return false;
    const double q1 = u.hi / v.hi;
    DDAcc a;
    a.add(u);
    a.add_prod(DD{-q1, 0.0, 0.0}, v);
    DD rho, rho2;
    if (!a.result(rho)) return false;
    const double q2 = rho.hi / v.hi;
    DDAcc b;
    b.add(rho);
    b.add_prod(DD{-q2, 0.0, 0.0}, v);
    if (!b.result(rho2)) return false;
    two_sum(q1, q2, out.hi, out.lo);
    out.r = rounding::div(dd_mag(rho2), mig, +1);
    return std::isfinite(out.hi) && std::isfinite(out.lo) && std::isfinite(out.r);
}

// Taylor coefficients x_k(c), k <= order, of the solution through a point c, for fields made of
// + - * sqr, negation, division by a constant, parameters and constants (supported()).
class CentreDD {
public:
    CentreDD(const taylor::VectorField& f, const std::vector<IntervalD>& params)
        : nodes_(f.nodes()), outputs_(f.outputs()), n_(f.dimension()) {
        using taylor::Op;
        supported_ = f.complete();
        consts_.resize(nodes_.size());
        for (std::size_t id = 0; id < nodes_.size() && supported_; ++id) {
            const taylor::Node& nd = nodes_[id];
            switch (nd.op) {
                case Op::Var: case Op::Add: case Op::Sub: case Op::Neg: case Op::Mul: case Op::Sqr: break;
                case Op::Div: supported_ = nodes_[nd.b].constant; break;  // e.g. 8/3, x/3
                case Op::Param:
                    supported_ = nd.index >= 0 && nd.index < static_cast<int>(params.size()) &&
                                 dd_from_interval(params[nd.index], consts_[id]);
                    break;
                case Op::Const:
                    supported_ = dd_from_text(f.constants()[nd.index], consts_[id]);
                    break;
                default: supported_ = false;
            }
        }
    }
    bool supported() const { return supported_; }

    // false: a guard failed (the caller falls back to interval arithmetic).
    bool compute(const std::vector<double>& c, int order) {
        using taylor::Op;
        if (!supported_ || static_cast<int>(c.size()) != n_) return false;
        const std::size_t need = static_cast<std::size_t>(order) + 2;
        if (need > stride_) {
            stride_ = need;
            val_.assign(nodes_.size() * stride_, DD{});
        }
        order_ = order;
        const std::size_t S = stride_;
        for (std::size_t id = 0; id < nodes_.size(); ++id) {
            if (nodes_[id].op == Op::Param || nodes_[id].op == Op::Const) val_[id * S] = consts_[id];
        }
        for (int i = 0; i < n_; ++i) {
            if (!std::isfinite(c[i])) return false;
            val_[i * S] = DD{c[i], 0.0, 0.0};
        }
        for (int k = 0; k < order; ++k) {
            for (std::size_t id = static_cast<std::size_t>(n_); id < nodes_.size(); ++id) {
                const taylor::Node& nd = nodes_[id];
                if (nd.op == Op::Param || nd.op == Op::Const) continue;
                DD& w = val_[id * S + k];
                if (nd.constant && k > 0) {
                    w = DD{};
                    continue;
                }
                const DD* u = &val_[static_cast<std::size_t>(nd.a) * S];
                const DD* v = nd.b >= 0 ? &val_[static_cast<std::size_t>(nd.b) * S] : nullptr;
                const bool ca = nodes_[nd.a].constant, cb = nd.b >= 0 && nodes_[nd.b].constant;
                if (nd.op == Op::Div) {  // constant divisor: w_k = u_k / v_0
                    if (!dd_div(u[k], v[0], w)) return false;
                    continue;
                }
                DDAcc acc;
                switch (nd.op) {
                    case Op::Add:
                        if (!(ca && k > 0)) acc.add(u[k]);
                        if (!(cb && k > 0)) acc.add(v[k]);
                        break;
                    case Op::Sub:
                        if (!(ca && k > 0)) acc.add(u[k]);
                        if (!(cb && k > 0)) acc.sub(v[k]);
                        break;
                    case Op::Neg: acc.sub(u[k]); break;
                    case Op::Mul:
                        if (ca) acc.add_prod(u[0], v[k]);
                        else if (cb) acc.add_prod(u[k], v[0]);
                        else
                            for (int i = 0; i <= k; ++i) acc.add_prod(u[i], v[k - i]);
                        break;
                    case Op::Sqr:
                        for (int i = 0; i <= k; ++i) acc.add_prod(u[i], u[k - i]);
                        break;
                    default: return false;
                }
                if (!acc.result(w)) return false;
            }
            // x_{k+1} = f_k / (k + 1)
            for (int i = 0; i < n_; ++i)
                if (!dd_div_int(val_[static_cast<std::size_t>(outputs_[i]) * S + k], k + 1, val_[i * S + k + 1]))
                    return false;
        }
        return true;
    }
    const DD& coeff(int i, int k) const { return val_[static_cast<std::size_t>(i) * stride_ + k]; }

    // sum_{k <= order} x_k(c) h^k by Horner's rule (h a set hi + lo +- r).
    bool taylor_sum(int i, const DD& h, DD& out) const {
        out = coeff(i, order_);
        for (int k = order_ - 1; k >= 0; --k) {
            DDAcc acc;
            acc.add_prod(out, h);
            acc.add(coeff(i, k));
            if (!acc.result(out)) return false;
        }
        return true;
    }

private:
    std::vector<taylor::Node> nodes_;
    std::vector<int> outputs_;
    int n_ = 0, order_ = 0;
    bool supported_ = false;
    std::vector<DD> consts_;
    std::size_t stride_ = 0;
    std::vector<DD> val_;
};

}  // namespace flowcert::ode::detail
