// Alignment function and activation cones of [BF2025, Sec. 3]. See alignment.hpp.
#include "flowcert/nets/alignment.hpp"

#include <gmp.h>

#include <algorithm>
#include <stdexcept>

namespace flowcert::nets {

namespace {

Rational parse_q(const std::string& s) { return parse_rational_string(s); }
IntervalMp to_mp(const Rational& q, long bits) { return enclose(q, bits); }
int sgn(const Rational& q) { return q.sign(); }
int half(const QVec& v) { return (v[1].sign() > 0 || (v[1].sign() == 0 && v[0].sign() > 0)) ? 0 : 1; }
bool angle_less(const QVec& a, const QVec& b) {
    const int ha = half(a), hb = half(b);
    if (ha != hb) return ha < hb;
    return cross(a, b).sign() > 0;
}
bool same_direction(const QVec& a, const QVec& b) { return cross(a, b).sign() == 0 && dot(a, b).sign() > 0; }

}  // namespace

Rational cross(const QVec& a, const QVec& b) { return a[0] * b[1] - a[1] * b[0]; }
QVec rot90(const QVec& a) { return {-a[1], a[0]}; }
bool is_zero(const QVec& a) {
    return std::all_of(a.begin(), a.end(), [](const Rational& q) { return q.sign() == 0; });
}
QVec neg(const QVec& a) {
    QVec r(a);
    for (auto& q : r) q = -q;
    return r;
}

bool solve_exact(std::vector<QVec> A, QVec b, QVec& x) {
    const std::size_t n = b.size();
    for (std::size_t col = 0; col < n; ++col) {
        std::size_t piv = col;
        while (piv < n && A[piv][col].sign() == 0) ++piv;
        if (piv == n) return false;
        std::swap(A[piv], A[col]);
        std::swap(b[piv], b[col]);
        for (std::size_t r = 0; r < n; ++r) {
            if (r == col || A[r][col].sign() == 0) continue;
            const Rational f = A[r][col] / A[col][col];
            for (std::size_t c = col; c < n; ++c) A[r][c] -= f * A[col][c];
            b[r] -= f * b[col];
        }
    }
    x.assign(n, Rational(0));
    for (std::size_t i = 0; i < n; ++i) x[i] = b[i] / A[i][i];
    return true;
}

Rational dot(const QVec& a, const QVec& b) {
    Rational s = 0;
    for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
    return s;
}

IntervalMp SqrtRatio::enclose(long bits) const {
    if (p.sign() == 0) return IntervalMp::from_integer(0, Precision(bits));
    return to_mp(p, bits) / sqrt(to_mp(q, bits));
}

int compare(const SqrtRatio& a, const SqrtRatio& b) {
    const int sa = a.sign(), sb = b.sign();
    if (sa != sb) return sa < sb ? -1 : 1;
    if (sa == 0) return 0;
    // same sign: compare squares, reversed when negative
    const Rational a2 = a.square(), b2 = b.square();
    const int c = a2 < b2 ? -1 : (a2 > b2 ? 1 : 0);
    return sa > 0 ? c : -c;
}

const char* to_string(Critical c) {
    switch (c) {
        case Critical::none: return "none";
        case Critical::strict_local_max: return "strict local max";
        case Critical::strict_local_min: return "strict local min";
        case Critical::flat: return "flat (D_u = 0)";
        case Critical::zero_D: return "D_u = 0";
        case Critical::degenerate: return "degenerate";
    }
    return "?";
}

AlignmentData alignment_data(const TwoLayerSpec& spec) {
    if (const std::string p = spec_problem(spec); !p.empty()) throw std::invalid_argument(p);
    AlignmentData a;
    a.n = spec.x.size();
    a.d = spec.x.front().size() + (spec.bias ? 1 : 0);
    a.gamma = parse_q(spec.gamma);
    a.c = spec.risk_weight.empty() ? Rational(1) / Rational(static_cast<long>(a.n)) : parse_q(spec.risk_weight);
    a.loss = spec.loss;
    for (std::size_t k = 0; k < a.n; ++k) {
        QVec xk;
        for (const auto& s : spec.x[k]) xk.push_back(parse_q(s));
        if (spec.bias) xk.push_back(Rational(1));
        a.x.push_back(xk);
        a.y.push_back(parse_q(spec.y[k]));
        // d1 l(0, y): half square: -y; logistic: -y / (1 + e^0) = -y/2
        const Rational dl0 = spec.loss == LossKind::half_square ? Rational(-a.y[k]) : Rational(-a.y[k] / 2);
        a.dl0.push_back(dl0);
        QVec gk(xk);
        for (auto& q : gk) q *= -a.c * dl0;
        a.g.push_back(gk);
    }
    return a;
}

std::vector<int> activation_pattern(const AlignmentData& data, const QVec& w) {
    std::vector<int> u(data.n);
    for (std::size_t k = 0; k < data.n; ++k) u[k] = sgn(dot(w, data.x[k]));
    return u;
}

Rational G_exact(const AlignmentData& data, const QVec& w) {
    Rational G = 0;
    for (std::size_t k = 0; k < data.n; ++k) {
        const Rational z = dot(w, data.x[k]);
        const Rational s = z.sign() > 0 ? z : Rational(data.gamma * z);
        G += -data.c * data.dl0[k] * s;  // [BF2025, proof of Lemma 3]
    }
    return G;
}

template <Interval I>
I G_enclosure(const TwoLayerModel<I>& model, const std::vector<I>& w) {
    I G = model.zero();
    for (std::size_t k = 0; k < model.n(); ++k) {
        I z = model.zero();
        for (std::size_t i = 0; i < model.d(); ++i) z += w[i] * model.x(k, i);
        G -= model.risk_weight() * model.loss_derivative(model.zero(), model.y(k)) * model.sigma(z);
    }
    return G;
}
template IntervalD G_enclosure(const TwoLayerModel<IntervalD>&, const std::vector<IntervalD>&);
template IntervalMp G_enclosure(const TwoLayerModel<IntervalMp>&, const std::vector<IntervalMp>&);

MinNorm min_norm_element(const AlignmentData& data, const std::vector<int>& u) {
    MinNorm r;
    if (u.size() != data.n) {
        r.status = MinNorm::Status::unsupported;
        r.reason = "sign vector has the wrong length";
        return r;
    }
    QVec b(data.d, Rational(0));
    std::vector<std::size_t> Z;
    r.eta.assign(data.n, std::nullopt);
    for (std::size_t k = 0; k < data.n; ++k) {
        if (u[k] == 0) {
            Z.push_back(k);
            continue;
        }
        const Rational eta = u[k] > 0 ? Rational(1) : data.gamma;
        r.eta[k] = eta;
        for (std::size_t i = 0; i < data.d; ++i) b[i] += eta * data.g[k][i];
    }
    // The generators with eta_k in [gamma, 1] must be parallel to one v: then 𝔇_u = b + [t_lo, t_hi] v.
    QVec v;
    for (std::size_t k : Z)
        if (!is_zero(data.g[k])) {
            v = data.g[k];
            break;
        }
    if (v.empty()) {  // 𝔇_u is the single point b
        r.D = b;
        for (std::size_t k : Z) r.eta[k] = std::nullopt;  // any eta gives b
        r.status = MinNorm::Status::exact;
        r.zero_in_set = is_zero(b);
        return r;
    }
    const Rational vv = dot(v, v);
    Rational t_lo = 0, t_hi = 0;
    std::vector<Rational> alpha;
    for (std::size_t k : Z) {
        const Rational al = dot(data.g[k], v) / vv;
        for (std::size_t i = 0; i < data.d; ++i)
            if (data.g[k][i] != al * v[i]) {
                r.status = MinNorm::Status::unsupported;
                r.reason = "the generators with u_k = 0 are not parallel (a QP in several variables; not implemented)";
                return r;
            }
        alpha.push_back(al);
        t_lo += std::min(Rational(al * data.gamma), al);
        t_hi += std::max(Rational(al * data.gamma), al);
    }
    const Rational t_free = -dot(b, v) / vv;  // the unconstrained minimizer of |b + t v|
    const Rational t = std::clamp(t_free, t_lo, t_hi);
    r.D = b;
    for (std::size_t i = 0; i < data.d; ++i) r.D[i] += t * v[i];
    // KKT certificate of the 1-d QP: <D, v> = 0 inside, >= 0 at t_lo, <= 0 at t_hi.
    const int s = sgn(dot(r.D, v));
    const bool kkt = (t > t_lo && t < t_hi) ? s == 0 : ((t == t_lo && s >= 0) || (t == t_hi && s <= 0));
    if (!kkt) {
        r.status = MinNorm::Status::not_proven;
        r.reason = "internal: KKT check of the min-norm element failed";
        return r;
    }
    if (Z.size() == 1 && alpha[0].sign() != 0) r.eta[Z[0]] = t / alpha[0];
    r.zero_in_set = is_zero(r.D);
    r.status = MinNorm::Status::exact;
    return r;
}

MinNorm D_at(const AlignmentData& data, const QVec& w) { return min_norm_element(data, activation_pattern(data, w)); }

Cones2 activation_cones_2d(const AlignmentData& data) {
    Cones2 out;
    if (data.d != 2) {
        out.status = Cones2::Status::unsupported;
        out.reason = "activation cones are enumerated for d = 2 only (d = " + std::to_string(data.d) + ")";
        return out;
    }
    std::vector<QVec> rays;
    for (std::size_t k = 0; k < data.n; ++k) {
        if (is_zero(data.x[k])) {
            out.status = Cones2::Status::bad_input;
            out.reason = "x_" + std::to_string(k + 1) + " = 0";
            return out;
        }
        rays.push_back(rot90(data.x[k]));  // the rays where <w, x_k> = 0
        rays.push_back(neg(rot90(data.x[k])));
    }
    std::sort(rays.begin(), rays.end(), angle_less);
    std::vector<QVec> R;
    for (const auto& r : rays)
        if (R.empty() || !same_direction(R.back(), r)) R.push_back(r);
    if (R.size() > 1 && same_direction(R.front(), R.back())) R.pop_back();
    const std::size_t M = R.size();

    for (std::size_t i = 0; i < M; ++i) {
        Cone2 ray;
        ray.is_ray = true;
        ray.dir = R[i];
        out.cones.push_back(ray);
        Cone2 sec;
        sec.from = R[i];
        sec.to = R[(i + 1) % M];
        if (cross(sec.from, sec.to).sign() > 0) {
            sec.dir = sec.from;
            for (std::size_t j = 0; j < 2; ++j) sec.dir[j] += sec.to[j];
        } else {
            sec.dir = rot90(sec.from);  // a half-circle sector (all data parallel)
        }
        out.cones.push_back(sec);
    }
    for (auto& c : out.cones) {
        c.u = activation_pattern(data, c.dir);
        c.D = min_norm_element(data, c.u);
        if (c.D.status != MinNorm::Status::exact) {
            out.status = Cones2::Status::unsupported;
            out.reason = "D_u: " + c.D.reason;
            return out;
        }
        if (!c.D.zero_in_set) {
            c.extremal_pos = activation_pattern(data, c.D.D) == c.u;       // [BF2025, Def. 1]
            c.extremal_neg = activation_pattern(data, neg(c.D.D)) == c.u;
            if (!c.is_ray)
                c.lemma2_ok = cross(c.D.D, c.from).sign() != 0 && cross(c.D.D, c.to).sign() != 0;  // [BF2025, Lemma 2]
        }
    }
    // Critical points of G on the circle.
    const std::size_t N = out.cones.size();
    for (std::size_t i = 0; i < N; ++i) {
        Cone2& c = out.cones[i];
        const QVec& D = c.D.D;
        if (!c.is_ray) {
            if (c.D.zero_in_set) {
                c.critical = Critical::flat;
                c.critical_dir = c.dir;
                c.G_critical = {Rational(0), Rational(1)};
            } else if (c.extremal_pos) {  // G = <w, D_u> on the sector: max of the cosine at D_u/|D_u|
                c.critical = Critical::strict_local_max;
                c.critical_dir = D;
                c.G_critical = {dot(D, D), dot(D, D)};
            } else if (c.extremal_neg) {
                c.critical = Critical::strict_local_min;
                c.critical_dir = neg(D);
                c.G_critical = {-dot(D, D), dot(D, D)};
            } else if (!c.lemma2_ok) {
                c.critical = Critical::degenerate;
            }
            continue;
        }
        c.critical_dir = c.dir;
        c.G_critical = {dot(c.dir, D), dot(c.dir, c.dir)};
        if (c.D.zero_in_set) {
            c.critical = Critical::zero_D;
            continue;
        }
        // one-sided derivatives of G along the circle (counter-clockwise) at the ray
        const QVec& DL = out.cones[(i + N - 1) % N].D.D;
        const QVec& DR = out.cones[(i + 1) % N].D.D;
        const QVec t = rot90(c.dir);
        const int l = sgn(dot(t, DL)), r = sgn(dot(t, DR));
        if (l == 0 || r == 0) c.critical = Critical::degenerate;
        else if (l > 0 && r < 0) c.critical = Critical::strict_local_max;
        else if (l < 0 && r > 0) c.critical = Critical::strict_local_min;
        else c.critical = Critical::none;
    }
    out.status = Cones2::Status::exact;
    return out;
}

std::string decimal_string(const Rational& q, int digits) {
    if (q.sign() == 0) return "0";
    const IntervalMp v = to_mp(q, 256);
    if (is_point(v)) return lower_string(v, digits);
    return to_string(v, digits);
}

}  // namespace flowcert::nets
