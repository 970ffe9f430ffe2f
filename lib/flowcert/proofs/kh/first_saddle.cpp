// The proof steps of kh/first_saddle [KH2025, Cor. 5/6/11/12]; see first_saddle.hpp.
#include "flowcert/proofs/kh/first_saddle.hpp"


#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace flowcert::proofs::kh {

namespace la = flowcert::linalg;
using namespace flowcert::nets;

OneBlockSupport single_block_support(const ZeroPattern<IntervalD>& zp, int P, int d, int block) {
    bool one_block = zp.status == ProofStatus::proven && zp.inside_uniqueness_box &&
                     static_cast<int>(zp.zero_indices.size()) == P - block;
    int kstar = -1;
    if (one_block) {
        for (int j = 0; j < P; ++j)
            if (std::find(zp.zero_indices.begin(), zp.zero_indices.end(), j) == zp.zero_indices.end()) {
                kstar = j % d;
                break;
            }
        for (int f = 0; f < block; ++f)
            one_block = one_block && std::find(zp.zero_indices.begin(), zp.zero_indices.end(), f * d + kstar) ==
                                         zp.zero_indices.end();
    }
    return {one_block, kstar};
}

ProofResult decoupled_stable_set(const nets::HomogeneousArchitecture& arch, const nets::Vec<IntervalD>& b,
                                 const std::vector<std::string>& w0txt, const linalg::IVector<IntervalD>& wstar) {
    const int d = arch.input_dim;
    ProofResult out = ProofResult::not_proven("");
    // The direction limit sign * e (coordinate or block k) is not w* when w* is exactly 0 there or of the other sign.
    const auto certainly_other = [](const IntervalD& ws, const IntervalD& w0k) {
        return (is_point(ws) && contains(ws, 0.0)) || (certainly_positive(ws) && certainly_negative(w0k)) ||
               (certainly_negative(ws) && certainly_positive(w0k));
    };
    std::vector<IntervalD> w0;
    for (const auto& t : w0txt) w0.push_back(IntervalD::from_decimal(t));
    if (arch.kind == ModelKind::weighted_squares) {
        std::vector<IntervalD> rate;
        int best = -1;
        for (int k = 0; k < d; ++k) {
            rate.push_back(IntervalD(arch.signs[k]) * b(k));
            if (!possibly_zero(w0[k]) && (best < 0 || mid(rate[k]) > mid(rate[best]))) best = k;
        }
        if (best < 0) {
            out.reason = "w0 has no certainly nonzero entry";
            return out;
        }
        for (int k = 0; k < d; ++k)
            if (k != best && !(is_point(w0[k]) && contains(w0[k], 0.0)) && !certainly_less(rate[k], rate[best])) {
                out.reason = "the NCF growth rate of coordinate " + std::to_string(k) + " is not certainly below that of " +
                             std::to_string(best);
                return out;
            }
        const std::string lim = "the NCF flow u_k(t) = u_k(0) exp(2 N(e_k) t) from w0 converges in direction to "
                                "sign(w0_k) e_k with k = " + std::to_string(best) +
                                " (the certainly largest rate among the nonzero entries of w0)";
        if (certainly_other(wstar(best), w0[best])) return ProofResult::disproven(lim + ", which is not w*");
        if (!certainly_nonzero(wstar(best)) || (mid(wstar(best)) > 0) != (mid(w0[best]) > 0))
            return ProofResult::not_proven(lim + "; w* is not certainly that point");
        return ProofResult::proven(lim + ": w*");
    }
    const int D = arch.depth;
    if (D < 3) {
        out.reason = "diagonal nets of depth 2: stable-set criterion not implemented here";
        return out;
    }
    std::vector<IntervalD> T(d, IntervalD::entire());
    std::vector<bool> blows(d, false);
    for (int k = 0; k < d; ++k) {
        for (int f = 1; f < D; ++f)
            if (w0txt[f * d + k] != w0txt[k]) {
                out.reason = "w0 is not balanced in block " + std::to_string(k) + " (criterion needs equal factors)";
                return out;
            }
        const IntervalD a = w0[k];
        if (is_point(a) && contains(a, 0.0)) continue;
        const IntervalD dir = b(k) * pow(a, D - 1) * a;
        if (certainly_positive(dir)) {
            blows[k] = true;
            T[k] = IntervalD(1) / (IntervalD(D - 2) * abs(b(k)) * pow(abs(a), D - 2));
        } else if (!certainly_nonpositive(dir)) {
            out.reason = "cannot decide whether block " + std::to_string(k) + " blows up";
            return out;
        }
    }
    int best = -1;
    for (int k = 0; k < d; ++k)
        if (blows[k] && (best < 0 || mid(T[k]) < mid(T[best]))) best = k;
    if (best < 0) {
        out.reason = "no block of w0 blows up under the NCF flow (phi(t, w0) -> 0 or stays bounded)";
        return out;
    }
    for (int k = 0; k < d; ++k)
        if (k != best && blows[k] && !certainly_less(T[best], T[k])) {
            out.reason = "NCF blow-up times of blocks " + std::to_string(best) + " and " + std::to_string(k) +
                         " are not certainly ordered: " + to_string(T[best], 8) + " vs " + to_string(T[k], 8);
            return out;
        }
    const std::string lim = "block " + std::to_string(best) + " blows up first under the NCF flow, at " +
                            to_string(T[best], 10) + ", so the direction converges to its balanced KKT point";
    for (int f = 0; f < D; ++f)
        if (certainly_other(wstar(f * d + best), w0[best])) return ProofResult::disproven(lim + ", which is not w*");
    for (int f = 0; f < D; ++f)
        if (!certainly_nonzero(wstar(f * d + best)) || (mid(wstar(f * d + best)) > 0) != (mid(w0[best]) > 0))
            return ProofResult::not_proven(lim + "; w* is not certainly that point");
    return ProofResult::proven(lim + ": w*");
}

LossStationaryPoint prove_loss_stationary_point(const HomogeneousModel<IntervalD>& model, const Vec<IntervalD>& y,
                                                const SquareLossNormalization& norm,
                                                const std::vector<IntervalD>& pstar, const la::IVector<IntervalD>& wstar) {
    const int P = model.parameter_count();
    la::VectorFunction<IntervalD> F = [&](const la::IVector<IntervalD>& w) {
        const auto dv = square_loss_derivatives<IntervalD>(model, w, y, norm, false);
        if (!dv.ok) throw std::runtime_error(dv.reason);
        return la::IVector<IntervalD>(dv.gradient);
    };
    la::JacobianFunction<IntervalD> J = [&](const la::IVector<IntervalD>& w) {
        const auto dv = square_loss_derivatives<IntervalD>(model, w, y, norm, true);
        if (!dv.ok) throw std::runtime_error(dv.reason);
        return la::IMatrix<IntervalD>(dv.hessian);
    };
    la::IVector<IntervalD> x0(P);
    for (int j = 0; j < P; ++j) x0(j) = IntervalD::exact(mid(pstar[j]));
    auto kr = la::krawczyk_around<IntervalD>(F, J, x0);
    bool kok = kr.status == la::KrawczykStatus::unique_zero;
    std::string kwhy = kr.reason + " (||I - R J||_inf <= " + format_g(kr.contraction_bound) + ")";
    if (!kok) {
        // Degenerate stationary points (L > 2: the Hessian vanishes on the zero blocks, which enter L only through
        // products of >= 2 zeros): Krawczyk in the support S with w_Z fixed to exact 0, plus grad_Z L = [0, 0]
        // exactly on the reduced box (as in prove_zero_pattern) => a stationary point with w_Z = 0 exists,
        // unique among points with w_Z = 0 in the reduced box.
        std::vector<int> S;
        for (int j = 0; j < P; ++j)
            if (certainly_nonzero(wstar(j))) S.push_back(j);
        const int m = static_cast<int>(S.size());
        auto embed = [&](const la::IVector<IntervalD>& ws) {
            la::IVector<IntervalD> w(P);
            for (int j = 0; j < P; ++j) w(j) = IntervalD(0);
            for (int a = 0; a < m; ++a) w(S[a]) = ws(a);
            return w;
        };
        la::VectorFunction<IntervalD> Fs = [&](const la::IVector<IntervalD>& ws) {
            const la::IVector<IntervalD> g = F(embed(ws));
            la::IVector<IntervalD> out(m);
            for (int a = 0; a < m; ++a) out(a) = g(S[a]);
            return out;
        };
        la::JacobianFunction<IntervalD> Js = [&](const la::IVector<IntervalD>& ws) {
            const la::IMatrix<IntervalD> h = J(embed(ws));
            la::IMatrix<IntervalD> out(m, m);
            for (int a = 0; a < m; ++a)
                for (int b = 0; b < m; ++b) out(a, b) = h(S[a], S[b]);
            return out;
        };
        // Diagonal nets: L restricted to the block depends on the product beta only, so the stationary points of
        // the block form a manifold {prod u = beta*}; the flow from the ray keeps the block balanced (the
        // conservation laws u^(f)^2 - u^(0)^2 = const = 0 of diagonal nets), so the square system is
        //   ( dL/du^(0),  u^(f)^2 - u^(0)^2 (f = 1..D-1) ) = 0.
        // At its zero dL/du^(0) = g prod_{f>0} u^(f) = 0 with every u^(f) != 0 gives g = dL/dbeta = 0, hence
        // every dL/du^(f) = g prod_{h != f} u^(h) = 0 too.
        if (model.architecture().kind == ModelKind::diagonal) {
            Fs = [&, Fs0 = Fs](const la::IVector<IntervalD>& ws) {
                la::IVector<IntervalD> out = Fs0(ws);
                for (int a = 1; a < m; ++a) out(a) = sqr(ws(a)) - sqr(ws(0));
                return out;
            };
            Js = [&, Js0 = Js](const la::IVector<IntervalD>& ws) {
                la::IMatrix<IntervalD> out = Js0(ws);
                for (int a = 1; a < m; ++a)
                    for (int b = 0; b < m; ++b)
                        out(a, b) = b == a ? IntervalD(2) * ws(a) : b == 0 ? IntervalD(-2) * ws(0) : IntervalD(0);
                return out;
            };
        }
        la::IVector<IntervalD> xs(m);
        for (int a = 0; a < m; ++a) xs(a) = x0(S[a]);
        const auto kr2 = la::krawczyk_around<IntervalD>(Fs, Js, xs);
        bool zero_off = kr2.status == la::KrawczykStatus::unique_zero;
        if (zero_off) {
            const la::IVector<IntervalD> g = F(embed(kr2.box));
            for (int j = 0; j < P; ++j)
                if (std::find(S.begin(), S.end(), j) == S.end())
                    zero_off = zero_off && is_point(g(j)) && contains(g(j), 0.0);
                else
                    zero_off = zero_off && certainly_nonzero(kr2.box(std::find(S.begin(), S.end(), j) - S.begin()));
        }
        kwhy = "full-space Krawczyk: " + kwhy + "; reduced-space Krawczyk on the support (" + std::to_string(m) +
               " of " + std::to_string(P) + " entries, the rest exact 0): " + kr2.reason +
               (zero_off ? std::string(model.architecture().kind == ModelKind::diagonal
                                           ? "; system (dL/du^(0), balance) on the block, every entry nonzero, so the "
                                             "whole block gradient vanishes"
                                           : "") +
                             "; grad_Z L = [0, 0] exactly there, so a stationary point with w_Z = 0 exists and is "
                           "unique among such (balanced) points in the box (degenerate: the Hessian vanishes on Z)"
                         : "; grad_Z L not exactly 0");
        kok = zero_off;
        if (kok) {
            kr.box = embed(kr2.box);
            kr.uniqueness_box = embed(kr2.uniqueness_box);
        }
    }
    return {kok, kwhy, kr};
}

StationaryOrder stationary_order(const nets::HomogeneousModel<IntervalD>& model, const nets::Vec<IntervalD>& y,
                                 const nets::SquareLossNormalization& norm, const linalg::IVector<IntervalD>& box,
                                 const std::vector<IntervalD>& pstar, int kstar, int block) {
    StationaryOrder o;
    const int P = static_cast<int>(pstar.size()), d = P / block;
    const auto dv = square_loss_derivatives<IntervalD>(model, box, y, norm, true);
    o.loss = dv.value;
    const auto eig = linalg::symmetric_eigenvalues<IntervalD>(linalg::IMatrix<IntervalD>(dv.hessian));
    o.spectrum = eig.status == ProofStatus::proven;
    o.spectrum_reason = eig.reason;
    if (o.spectrum)
        for (const auto& e : eig.eigenvalues) {
            o.eigenvalues.push_back(e);
            o.negative += certainly_negative(e);
            o.positive += certainly_positive(e);
            o.zero += possibly_zero(e);
        }
    if (!(o.zero > 0 && o.negative == 0)) return o;
    for (int k = 0; k < d && o.descent.empty(); ++k) {
        if (k == kstar) continue;
        for (const char* tt : {"0.1", "-0.1", "0.01", "-0.01"}) {
            nets::Vec<IntervalD> w(P);
            for (int j = 0; j < P; ++j) w(j) = pstar[j];
            for (int f = 0; f < block; ++f) w(f * d + k) = IntervalD::from_decimal(tt);
            const auto dl = square_loss_derivatives<IntervalD>(model, w, y, norm, false);
            if (dl.ok && certainly_less(dl.value, dv.value)) {
                o.descent = "L(p* + t v) in " + to_string(dl.value, 10) + " < L(p*) for v = balanced block " +
                            std::to_string(k) + ", t = " + tt;
                break;
            }
        }
    }
    return o;
}

SaddleSweepPoint saddle_sweep_point(const taylor::VectorField& field, const std::vector<IntervalD>& params,
                                    const std::vector<IntervalD>& w0, const IntervalD& delta, int L, const IntervalD& Nstar,
                                    double c0, const IntervalD& r_esc, double tau, const ode::Options& opt) {
    SaddleSweepPoint p;
    std::vector<IntervalD> x0(w0.size());
    for (std::size_t j = 0; j < w0.size(); ++j) x0[j] = delta * w0[j];
    // Non-rigorous horizon guess for the escape (only chooses how far to integrate).
    const double Nm = mid(Nstar), dm = mid(delta);
    const double guess = L == 2 ? std::log(1 / (dm * c0)) / (2 * Nm) : 1 / (L * (L - 2) * Nm * std::pow(dm * c0, L - 2));
    double horizon = 1.02 * guess + 3;
    p.escape = refined_escape<IntervalD>(field, params, x0, horizon, r_esc, opt, 53, 1, 32);
    for (int tries = 0; tries < 4 && !p.escape.ok; ++tries) {
        horizon = horizon * 1.5 + 5;
        p.escape = refined_escape<IntervalD>(field, params, x0, horizon, r_esc, opt, 53, 1, 32);
    }
    if (!p.escape.ok) return p;
    p.t_escape = p.escape.lo + (p.escape.hi - p.escape.lo) / 2;
    p.t_delta = p.t_escape + tau;
    ode::Options o2 = opt;
    o2.record_tubes = true;
    p.run = ode::integrate<IntervalD>(field, params, x0, IntervalD::exact(p.t_delta), {}, o2, 53);
    p.ok = p.run.ok();
    if (!p.ok) p.why = std::string("integration to T_delta failed: ") + ode::to_string(p.run.status) + ": " + p.run.reason;
    return p;
}

Example1PostSaddle example1_post_saddle_closed_form(const IntervalMp& dl, const IntervalMp& kappa, const Precision& pr) {
    Example1PostSaddle r;
    const auto k = [&](long v) { return IntervalMp::from_integer(v, pr); };
    r.time = k(5) * log(kappa / dl) / k(16);
    const IntervalMp x = (k(8) - sqr(dl)) * pow(dl, 8) / pow(kappa, 10);
    const IntervalMp sq = sqrt(k(1) + x);
    r.gap = k(2) * x / (sq * (k(1) + sq));
    r.ratio = r.gap * pow(kappa, 10) / pow(dl, 8);
    const IntervalMp e8 = pow(dl / kappa, 2) * sqrt(dl / kappa);
    r.w2 = dl / sqrt(sqr(dl) + (k(2) - sqr(dl)) * e8);
    return r;
}

Example1PostSaddle example1_post_saddle_integrated(const taylor::VectorField& field, const std::vector<IntervalMp>& params,
                                                   const std::vector<std::string>& w0, const IntervalMp& dl,
                                                   const IntervalMp& kappa, long bits) {
    Example1PostSaddle r;
    const Precision pr(bits);
    std::vector<IntervalMp> xm;
    for (const auto& t : w0) xm.push_back(IntervalMp::from_decimal(t, pr));
    IntervalMp nn = sqr(xm[0]);
    for (std::size_t j = 1; j < xm.size(); ++j) nn += sqr(xm[j]);
    nn = sqrt(nn);
    for (auto& v : xm) v = dl * v / nn;
    r.time = IntervalMp::from_integer(5, pr) * log(kappa / dl) / IntervalMp::from_integer(16, pr);
    ode::Options om;
    om.order = 24;
    const auto rm = ode::integrate<IntervalMp>(field, params, xm, r.time, {}, om, bits);
    r.ok = rm.ok();
    r.reason = rm.reason;
    if (!r.ok) return r;
    r.gap = IntervalMp::from_integer(2, pr) - rm.final_box[0];
    r.ratio = r.gap * pow(kappa, 10) / pow(dl, 8);
    r.steps = rm.steps;
    return r;
}

Vec<IntervalD> logistic_ncf_weights(const Vec<IntervalD>& y) { return Vec<IntervalD>(y / IntervalD(2)); }

std::vector<IntervalD> unit_direction(const std::vector<std::string>& w0txt) {
    std::vector<IntervalD> w0;
    for (const auto& t : w0txt) w0.push_back(IntervalD::from_decimal(t));
    const IntervalD n = norm2(w0);
    for (auto& v : w0) v = v / n;
    return w0;
}

std::vector<IntervalD> loss_gradient(const taylor::VectorField& field, const std::vector<IntervalD>& params,
                                     const std::vector<IntervalD>& w) {
    taylor::TaylorEvaluator<IntervalD> ev(field, params);
    std::vector<IntervalD> out(w.size(), IntervalD(0));
    const auto r = ev.evaluate(std::span<const IntervalD>(w.data(), w.size()), std::span<IntervalD>(out.data(), out.size()));
    if (!r.ok()) throw std::runtime_error("field evaluation: " + r.reason);
    for (auto& v : out) v = -v;  // the field is -grad L
    return out;
}

BoundedLimit bounded_limit(const HomogeneousModel<IntervalD>& model, const Vec<IntervalD>& y, const SquareLossNormalization& norm,
                           const la::IVector<IntervalD>& wstar, const IntervalD& Nstar, int L, int kstar, int block) {
    BoundedLimit b;
    const int P = static_cast<int>(wstar.size());
    b.ray = ray_of(model, wstar, Nstar, norm, static_cast<int>(y.size()), L);
    b.bounded = certainly_positive(b.ray.S);
    if (!b.bounded) return b;
    const IntervalD rs = b.ray.rho_star();
    b.pstar.assign(static_cast<std::size_t>(P), IntervalD(0));
    for (int j = 0; j < P; ++j) b.pstar[j] = rs * wstar(j);
    b.stationary = prove_loss_stationary_point(model, y, norm, b.pstar, wstar);
    if (!b.stationary.ok) return b;
    la::IVector<IntervalD> pbox(P);
    for (int j = 0; j < P; ++j) pbox(j) = b.pstar[j];
    b.inside = la::subset<IntervalD>(pbox, b.stationary.kr.uniqueness_box);
    if (b.inside) b.order = stationary_order(model, y, norm, b.stationary.kr.box, b.pstar, kstar, block);
    return b;
}

bool logistic_ray_unbounded(const HomogeneousModel<IntervalD>& model, const Vec<IntervalD>& y, const la::IVector<IntervalD>& wstar) {
    Vec<IntervalD> wv(wstar.size());
    for (Eigen::Index j = 0; j < wv.size(); ++j) wv(j) = wstar(j);
    const auto h = model.outputs(wv);
    bool all_nonneg = h.status == EvalStatus::ok, some_pos = false;
    for (Eigen::Index i = 0; i < y.size() && all_nonneg; ++i) {
        const IntervalD a = y(i) * h.outputs(i);
        all_nonneg = all_nonneg && certainly_nonnegative(a);
        some_pos = some_pos || certainly_positive(a);
    }
    return all_nonneg && some_pos;
}

IntervalD gradient_norm_on_ray(const taylor::VectorField& field, const std::vector<IntervalD>& params,
                               const la::IVector<IntervalD>& wstar, const IntervalD& alpha) {
    std::vector<IntervalD> ap(static_cast<std::size_t>(wstar.size()));
    for (std::size_t j = 0; j < ap.size(); ++j) ap[j] = alpha * wstar(static_cast<Eigen::Index>(j));
    return norm2(loss_gradient(field, params, ap));
}

UnboundedBounds unbounded_bounds(const IntervalD& eps) { return {IntervalD(1) / (IntervalD(2) * eps), IntervalD(1) - eps}; }

AtTdelta at_t_delta(const taylor::VectorField& field, const std::vector<IntervalD>& params, const std::vector<IntervalD>& xT,
                    const std::vector<IntervalD>& pstar) {
    AtTdelta a;
    std::vector<IntervalD> diff(xT.size());
    for (std::size_t j = 0; j < xT.size(); ++j) diff[j] = xT[j] - pstar[j];
    a.distance = norm2(diff);
    a.norm = norm2(xT);
    IntervalD dot = IntervalD(0);
    for (std::size_t j = 0; j < xT.size(); ++j) dot += xT[j] * pstar[j];
    a.cosine = dot / a.norm;
    a.gradient = norm2(loss_gradient(field, params, xT));
    return a;
}

}  // namespace flowcert::proofs::kh
