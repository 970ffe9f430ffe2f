// Alignment function, activation cones and the constants of [BF2025]. See alignment.hpp.
#include "flowcert/nets/alignment.hpp"

#include <gmp.h>

#include <algorithm>
#include <stdexcept>

namespace flowcert::nets {

namespace {

Rational parse_q(const std::string& s) {
    mpq_t q;
    mpq_init(q);
    if (auto err = parse_rational(s, q)) {
        mpq_clear(q);
        throw std::invalid_argument("'" + s + "': " + *err);
    }
    Rational r(q);
    mpq_clear(q);
    return r;
}

IntervalMp to_mp(const Rational& q, long bits) { return IntervalMp::from_decimal(q.str(), Precision(bits)); }

int sgn(const Rational& q) { return q.sign(); }

Rational cross(const QVec& a, const QVec& b) { return a[0] * b[1] - a[1] * b[0]; }
QVec rot90(const QVec& a) { return {-a[1], a[0]}; }  // J a, counter-clockwise by pi/2
bool is_zero(const QVec& a) {
    return std::all_of(a.begin(), a.end(), [](const Rational& q) { return q.sign() == 0; });
}
QVec neg(const QVec& a) {
    QVec r(a);
    for (auto& q : r) q = -q;
    return r;
}
int half(const QVec& v) { return (v[1].sign() > 0 || (v[1].sign() == 0 && v[0].sign() > 0)) ? 0 : 1; }
bool angle_less(const QVec& a, const QVec& b) {
    const int ha = half(a), hb = half(b);
    if (ha != hb) return ha < hb;
    return cross(a, b).sign() > 0;
}
bool same_direction(const QVec& a, const QVec& b) { return cross(a, b).sign() == 0 && dot(a, b).sign() > 0; }

SqrtRatio sqrt_of(const Rational& a) {  // sqrt(a) = a / sqrt(a) for a > 0
    if (a.sign() == 0) return {Rational(0), Rational(1)};
    return {a, a};
}

// Gauss-Jordan over the rationals; false if singular.
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

}  // namespace

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

Constants theorem1_constants(const AlignmentData& data, const Cones2& cones, long bits) {
    Constants k;
    if (cones.status != Cones2::Status::exact) {
        k.status = Constants::Status::not_applicable;
        k.reason = "no exact cone enumeration: " + cones.reason;
        return k;
    }
    const Precision P(bits);
    k.n_cones = cones.cones.size();
    // Lemma 2, second part: every family of at most d = 2 vectors d1l(0,y_k) x_k is independent.
    k.lemma2_independence = true;
    for (std::size_t a = 0; a < data.n; ++a) {
        if (is_zero(data.g[a])) k.lemma2_independence = false;
        for (std::size_t b = a + 1; b < data.n; ++b)
            if (cross(data.g[a], data.g[b]).sign() == 0) k.lemma2_independence = false;
    }
    k.lemma2_boundary = true;
    k.no_saddle = true;
    bool have_min = false;
    bool have_G = false;
    SqrtRatio gmax, gmin;
    auto consider_G = [&](const SqrtRatio& v) {
        if (!have_G) {
            gmax = gmin = v;
            have_G = true;
            return;
        }
        if (compare(v, gmax) > 0) gmax = v;
        if (compare(v, gmin) < 0) gmin = v;
    };
    bool have_plus = false, have_minus = false;
    SqrtRatio Mplus, Mminus;
    bool have_d1 = false, have_d2 = false;
    IntervalMp d1;
    SqrtRatio d2;
    for (const Cone2& c : cones.cones) {
        const QVec& D = c.D.D;
        const Rational nD = dot(D, D);
        if (nD > k.D_max_sq) k.D_max_sq = nD;
        if (!c.D.zero_in_set && (!have_min || nD < k.D_min_sq)) {
            k.D_min_sq = nD;
            have_min = true;
        }
        if (c.extremal_pos || c.extremal_neg) ++k.n_extremal;
        if (c.critical == Critical::strict_local_max) ++k.n_local_max;
        if (c.critical == Critical::strict_local_min) ++k.n_local_min;
        if (!c.lemma2_ok) k.lemma2_boundary = false;
        if (c.critical == Critical::degenerate) {
            k.no_saddle = false;
            k.no_saddle_reason += std::string(k.no_saddle_reason.empty() ? "" : "; ") + "degenerate critical point in the " +
                                  (c.is_ray ? "ray" : "sector") + " with direction (" + decimal_string(c.dir[0], 8) +
                                  ", " + decimal_string(c.dir[1], 8) + ")";
        }
        // max / min of G on the circle: attained at a ray or at an interior critical point of a sector
        if (c.is_ray) consider_G({dot(c.dir, D), dot(c.dir, c.dir)});
        else if (c.critical == Critical::strict_local_max || c.critical == Critical::strict_local_min) consider_G(c.G_critical);
        if (c.D.zero_in_set) continue;
        // alpha_{min,+} and alpha_{min,-} [BF2025, eqs. (22)-(24)]: cosines between D_u and cl(A^{-1}(u)) \ {0}
        std::vector<QVec> ends = c.is_ray ? std::vector<QVec>{c.dir} : std::vector<QVec>{c.from, c.to};
        for (const QVec& e : ends) {
            const SqrtRatio cosv{dot(e, D), dot(e, e) * nD};
            if (!c.extremal_pos && (!have_plus || compare(cosv, Mplus) > 0)) {
                Mplus = cosv;
                have_plus = true;
            }
            if (!c.extremal_neg && (!have_minus || compare(cosv, Mminus) < 0)) {
                Mminus = cosv;
                have_minus = true;
            }
        }
        // delta_0 [BF2025, eq. (20)] over cones carrying an extremal vector
        if (c.extremal_pos || c.extremal_neg) {
            for (std::size_t kk = 0; kk < data.n; ++kk) {
                if (c.u[kk] == 0) {
                    if (!c.D.eta[kk]) {
                        k.status = Constants::Status::not_applicable;
                        k.reason = "delta_0': eta_k^u is not unique (several data on one ray)";
                        return k;
                    }
                    const Rational eta = *c.D.eta[kk];
                    const Rational slack = std::min(Rational(eta - data.gamma), Rational(1 - eta));
                    // sigma_min(Z_u) for a single column = |g_k|
                    const IntervalMp v = sqrt(to_mp(dot(data.g[kk], data.g[kk]), bits)) * to_mp(slack, bits);
                    d1 = have_d1 ? min(d1, v) : v;
                    have_d1 = true;
                } else {
                    const Rational p = dot(D, data.x[kk]);
                    const SqrtRatio v{p.sign() < 0 ? Rational(-p) : p, dot(data.x[kk], data.x[kk])};
                    if (!have_d2 || compare(v, d2) < 0) d2 = v;
                    have_d2 = true;
                }
            }
        }
    }
    if (!have_min) {
        k.status = Constants::Status::not_applicable;
        k.reason = "D_u = 0 for every cone (G is identically 0)";
        return k;
    }
    if (!k.lemma2_boundary) {
        k.no_saddle = false;
        if (k.no_saddle_reason.empty()) k.no_saddle_reason = "a sector's D_u lies on one of its boundary lines";
    }
    k.D_max = sqrt(to_mp(k.D_max_sq, bits));
    k.D_min = sqrt(to_mp(k.D_min_sq, bits));
    k.max_G = gmax.enclose(bits);
    k.min_G = gmin.enclose(bits);
    k.alpha_plus_empty = !have_plus;
    k.alpha_minus_empty = !have_minus;
    // empty set: the condition it guards is vacuous; take alpha = 1 (documented in docs/bf.md)
    k.alpha_plus_sq = have_plus ? Rational(1 - Mplus.square()) : Rational(1);
    k.alpha_minus_sq = have_minus ? Rational(1 - Mminus.square()) : Rational(1);
    k.alpha_min = sqrt(to_mp(std::min(k.alpha_plus_sq, k.alpha_minus_sq), bits));
    k.delta0_prime_empty = !have_d1;
    k.delta0_second_empty = !have_d2;
    if (have_d1) k.delta0_prime = d1;
    if (have_d2) k.delta0_second = d2.enclose(bits);
    if (!have_d1 && !have_d2) {
        k.status = Constants::Status::not_applicable;
        k.reason = "no extremal vector, so delta_0 is undefined";
        return k;
    }
    k.delta0 = have_d1 && have_d2 ? min(k.delta0_prime, k.delta0_second) : (have_d1 ? k.delta0_prime : k.delta0_second);
    (void)P;
    k.status = Constants::Status::certified;
    return k;
}

LambdaStar lambda_star(const AlignmentData& data, const Constants& k, const std::string& alpha0_s,
                       const std::string& eps_s, long bits) {
    LambdaStar L;
    if (k.status != Constants::Status::certified) {
        L.status = LambdaStar::Status::not_applicable;
        L.reason = "constants not certified: " + k.reason;
        return L;
    }
    if (data.c != Rational(1) / Rational(static_cast<long>(data.n))) {
        L.status = LambdaStar::Status::not_applicable;
        L.reason = "eq. (21) is stated for the risk (1/n) sum l; this case uses another weight";
        return L;
    }
    const Rational alpha0 = parse_q(alpha0_s), eps = parse_q(eps_s);
    if (alpha0.sign() <= 0 || alpha0 > 1) {
        L.status = LambdaStar::Status::not_applicable;
        L.reason = "alpha_0 must lie in (0, 1]";
        return L;
    }
    if (eps.sign() <= 0 || eps >= Rational(1, 3)) {
        L.status = LambdaStar::Status::not_applicable;
        L.reason = "epsilon must lie in (0, 1/3)";
        return L;
    }
    Rational S = 0;
    for (const auto& x : data.x) S += dot(x, x);
    const IntervalMp nS = to_mp(Rational(static_cast<long>(data.n)) / S, bits);
    const Rational amin_sq = std::min(k.alpha_plus_sq, k.alpha_minus_sq);
    // [BF2025, eq. (21)]
    L.term_alpha_min = nS * to_mp(amin_sq / 8, bits) * k.D_min;
    L.term_alpha0 = nS * to_mp(alpha0 * alpha0 / 4, bits) * k.D_min;
    L.term_delta0 = nS * k.delta0;
    SqrtRatio lab;
    for (std::size_t kk = 0; kk < data.n; ++kk) {
        const Rational a = data.dl0[kk].sign() < 0 ? Rational(-data.dl0[kk]) : data.dl0[kk];
        const SqrtRatio v{a, dot(data.x[kk], data.x[kk])};
        if (kk == 0 || compare(v, lab) < 0) lab = v;
    }
    L.term_labels = lab.enclose(bits);
    L.inner = min(min(min(L.term_alpha_min, L.term_alpha0), L.term_delta0), L.term_labels);
    if (!certainly_positive(L.inner)) {
        L.status = LambdaStar::Status::not_proven;
        L.reason = "the quantity inside eq. (21) is not certainly positive (lower bound " + lower_string(L.inner, 6) + ")";
        return L;
    }
    const IntervalMp expo = to_mp(Rational(1) / (2 - 4 * eps), bits);
    L.lambda_star = exp(log(L.inner) * expo);
    L.status = LambdaStar::Status::certified;
    return L;
}

LeastSquares least_squares(const AlignmentData& data) {
    LeastSquares ls;
    const std::size_t n = data.n, d = data.d;
    std::vector<QVec> A(d, QVec(d, Rational(0)));
    QVec b(d, Rational(0));
    for (std::size_t k = 0; k < n; ++k)
        for (std::size_t i = 0; i < d; ++i) {
            b[i] += data.x[k][i] * data.y[k];
            for (std::size_t j = 0; j < d; ++j) A[i][j] += data.x[k][i] * data.x[k][j];
        }
    if (!solve_exact(A, b, ls.beta)) {
        ls.reason = "X^T X is singular";
        return ls;
    }
    Rational ss = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const Rational p = dot(data.x[k], ls.beta);
        ls.predictions.push_back(p);
        ls.residuals.push_back(p - data.y[k]);
        ss += (p - data.y[k]) * (p - data.y[k]);
    }
    const Rational nn(static_cast<long>(n));
    ls.loss_paper = ss / (2 * nn);
    ls.loss_code = ss / nn;
    ls.D_star.assign(d, Rational(0));
    for (std::size_t k = 0; k < n; ++k)
        for (std::size_t i = 0; i < d; ++i) ls.D_star[i] += data.y[k] * data.x[k][i] / nn;
    ls.ok = true;
    return ls;
}

Assumption3 check_assumption3(const AlignmentData& data) {
    Assumption3 a;
    if (data.n != 3 || data.d != 2) {
        a.reason = "Assumption 3 is about n = 3 points in R^2";
        return a;
    }
    const auto& x = data.x;
    const auto& y = data.y;
    std::vector<std::string> fails;
    // eta-independent (strict or one-sided) conditions [BF2025, Assumption 3]
    if (!(x[0][0] > -1)) fails.push_back("x_1[1] > -1");
    if (!(x[0][1] >= 1)) fails.push_back("x_1[2] >= 1");
    if (!(y[0] >= 1)) fails.push_back("y_1 >= 1");
    if (!(y[1] > 0)) fails.push_back("y_2 > 0");
    if (!(x[2][0] < 1)) fails.push_back("x_3[1] < 1");
    if (!(x[2][1] >= 1)) fails.push_back("x_3[2] >= 1");
    if (!(y[2] >= 1)) fails.push_back("y_3 >= 1");
    auto absq = [](const Rational& q) { return q.sign() < 0 ? Rational(-q) : q; };
    const Rational needs[] = {x[0][0] + 1, x[0][1] - 1, y[0] - 1, absq(x[1][0]), absq(x[1][1] - 1), y[1],
                              1 - x[2][0], x[2][1] - 1, y[2] - 1};
    a.eta_min = 0;
    for (const auto& q : needs) a.eta_min = std::max(a.eta_min, q);
    a.shape_ok = fails.empty();
    for (const auto& f : fails) a.reason += (a.reason.empty() ? "fails: " : ", ") + f;
    a.eta_below_one_sixth = a.shape_ok && a.eta_min < Rational(1, 6);
    if (a.shape_ok && !a.eta_below_one_sixth) a.reason = "the least admissible eta is " + decimal_string(a.eta_min, 10) + " >= 1/6";
    return a;
}

Assumptions456 check_assumptions_456(const AlignmentData& data, const LeastSquares& ls) {
    Assumptions456 r;
    if (data.d != 2) {
        r.a4_reason = "checked for d = 2 only";
        return r;
    }
    const std::size_t n = data.n;
    r.a4 = true;
    if (n < data.d) { r.a4 = false; r.a4_reason += "n < d; "; }
    for (std::size_t k = 0; k < n; ++k) {
        if (!(data.y[k] > 0)) { r.a4 = false; r.a4_reason += "y_" + std::to_string(k + 1) + " <= 0; "; }
        if (is_zero(data.x[k])) { r.a4 = false; r.a4_reason += "x_" + std::to_string(k + 1) + " = 0; "; }
        for (std::size_t j = k + 1; j < n; ++j) {
            if (!(dot(data.x[k], data.x[j]) > 0)) {
                r.a4 = false;
                r.a4_reason += "<x_" + std::to_string(k + 1) + ", x_" + std::to_string(j + 1) + "> <= 0; ";
            }
            if (cross(data.x[k], data.x[j]).sign() == 0) {
                r.a4 = false;
                r.a4_reason += "x_" + std::to_string(k + 1) + ", x_" + std::to_string(j + 1) + " dependent; ";
            }
        }
    }
    // K: points with a supporting w != 0, <w, x_k> = 0, <w, x_k'> >= 0 (in d = 2, w = +-J x_k)
    for (std::size_t k = 0; k < n; ++k) {
        for (int s : {1, -1}) {
            QVec w = rot90(data.x[k]);
            if (s < 0) w = neg(w);
            bool ok = !is_zero(w);
            for (std::size_t j = 0; j < n; ++j) ok = ok && dot(w, data.x[j]) >= 0;
            if (ok) {
                r.K.push_back(k);
                break;
            }
        }
    }
    Rational Y = 0;
    for (const auto& yk : data.y) Y += yk * yk;
    r.a5 = !r.K.empty();
    for (std::size_t k : r.K) {
        Rational Sk = 0;
        for (std::size_t j = 0; j < n; ++j)
            if (j != k) Sk += dot(data.x[j], data.x[k]) * dot(data.x[j], data.x[k]);
        const SqrtRatio lhs{data.y[k] * dot(data.x[k], data.x[k]), Rational(1)};
        const SqrtRatio rhs = sqrt_of(Y * Sk);  // sqrt(sum y^2) sqrt(sum_{k' != k} <x_k', x_k>^2)
        const bool holds = compare(lhs, rhs) > 0;  // [BF2025, Assumption 5]
        r.a5_lhs.push_back(lhs);
        r.a5_rhs.push_back(rhs);
        r.a5_holds.push_back(holds);
        r.a5 = r.a5 && holds;
    }
    r.a6_sign = ls.ok && !r.K.empty();
    for (std::size_t k : r.K) r.a6_sign = r.a6_sign && ls.residuals[k].sign() < 0;  // <beta*, x_k> < y_k
    if (n == 3) {
        QVec alpha;
        const std::vector<QVec> A = {{data.x[0][0], data.x[2][0]}, {data.x[0][1], data.x[2][1]}};
        if (solve_exact(A, data.x[1], alpha)) {
            r.has_x2_decomposition = true;
            r.alpha1 = alpha[0];
            r.alpha3 = alpha[1];
        }
    }
    return r;
}

std::string decimal_string(const Rational& q, int digits) {
    if (q.sign() == 0) return "0";
    const IntervalMp v = to_mp(q, 256);
    if (is_point(v)) return lower_string(v, digits);
    return to_string(v, digits);
}

}  // namespace flowcert::nets
