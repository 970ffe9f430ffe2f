// The rigorous block flow of v^T (W x)^2; see square_net_flow.hpp (docs/kh.md#block-flow-of-the-square-net).
#include "flowcert/nets/square_net_flow.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace flowcert::nets {

namespace {

using I = IntervalD;
using linalg::IMatrixD;
using linalg::IVectorD;
using ode::TimeTm;
using ode::TmPowers;

struct Problem {
    std::size_t d = 0, n = 0, m = 0, S = 0;
    std::vector<I> x;  // n * d, x[i * d + k] = x_ik (exact)
    std::vector<I> y;  // n
    I c4, c2;          // 4c, 2c
    bool frozen = false;  // r_i = -y_i held constant (the NCF; SquareNetFlowOptions::frozen_residual)
};

// How the remainders are validated (SquareNetFlowOptions::remainder_mean_value; docs/kh.md, "The mean-value remainder
// validation"). big (k entries, when mean_value): the neurons whose coupling gets the pairwise matrices.
struct RemainderMode {
    bool mean_value = false;
    const std::vector<char>* big = nullptr;
    bool drop_dr_weight_term_UNSOUND = false;
};

// M(r) = sum_i r_i x_i x_i^T (d x d, row-major) over the residual ranges rr.
std::vector<I> residual_matrix(const Problem& pb, const std::vector<I>& rr) {
    const std::size_t d = pb.d;
    std::vector<I> M(d * d, I(0));
    for (std::size_t i = 0; i < pb.n; ++i)
        for (std::size_t a = 0; a < d; ++a) {
            const I ra = rr[i] * pb.x[i * d + a];
            for (std::size_t b = 0; b < d; ++b) M[a * d + b] += ra * pb.x[i * d + b];
        }
    return M;
}

// The moments of neurons j, l over the samples, from their z ranges zj, zl (n each): A = sum_i z_ji z_li x_i x_i^T,
// b = sum_i z_ji z_li^2 x_i, c = sum_i z_ji^2 z_li x_i (overwritten); returns sum_i z_ji^2 z_li^2.
I pair_moments(const Problem& pb, const I* zj, const I* zl, std::vector<I>& A, std::vector<I>& b, std::vector<I>& c) {
    const std::size_t d = pb.d;
    std::fill(A.begin(), A.end(), I(0));
    std::fill(b.begin(), b.end(), I(0));
    std::fill(c.begin(), c.end(), I(0));
    I s4(0);
    for (std::size_t i = 0; i < pb.n; ++i) {
        const I zz = zj[i] * zl[i];
        const I zl2 = zz * zl[i], zj2 = zz * zj[i];
        s4 += sqr(zz);
        for (std::size_t a = 0; a < d; ++a) {
            const I xa = pb.x[i * d + a];
            b[a] += zl2 * xa;
            c[a] += zj2 * xa;
            const I zx = zz * xa;
            for (std::size_t q = 0; q < d; ++q) A[a * d + q] += zx * pb.x[i * d + q];
        }
    }
    return s4;
}

// An enclosure of J(xi) e for every xi with the ranges below and every e in the box e (k * S): sr the state ranges
// (k * S), zr the ranges of z_ji = x_i . w_j (k * n), rr those of the residuals (n). With e_w, e_v the parts of e,
// delta z_li = x_i . e_wl and delta r_i = sum_l (e_vl z_li^2 + 2 v_l z_li delta z_li) (0 when frozen):
//     J e|_wj = -4c (e_vj M w_j + v_j M e_wj + v_j sum_i delta r_i z_ji x_i),
//     J e|_vj = -2c (2 (M w_j) . e_wj + sum_i delta r_i z_ji^2).
// M = sum_i r_i x_i x_i^T is formed as a d x d matrix before it meets e (the n residuals of both signs cancel in its
// entries), and so are, for big j and l, the pieces of delta r through neuron l:
//     sum_i delta r_i|_l z_ji x_i = 2 v_l A_jl e_wl + b_jl e_vl,   sum_i delta r_i|_l z_ji^2 = 2 v_l c_jl . e_wl + s_jl e_vl
// with A_jl = sum_i z_ji z_li x_i x_i^T, b_jl = sum_i z_ji z_li^2 x_i, c_jl = sum_i z_ji^2 z_li x_i, s_jl = sum_i
// z_ji^2 z_li^2. The rest (delta r through the small neurons, and all of it in the small neurons' rows, where a
// factor v_j or z_ji is small) is summed in absolute value. Every quantity is an interval evaluation at the ranges,
// so the box holds J(xi) e for every xi and e (inclusion monotonicity).
std::vector<I> jacobian_product_bound(const Problem& pb, std::size_t k, const std::vector<I>& sr, const std::vector<I>& zr,
                                      const std::vector<I>& rr, const std::vector<I>& e, const std::vector<char>& big,
                                      bool drop_UNSOUND) {
    const std::size_t d = pb.d, n = pb.n, S = pb.S;
    std::vector<I> L(k * S, I(0)), ez(k * n), drs(n, I(0)), drb(n, I(0));
    for (std::size_t j = 0; j < k; ++j)
        for (std::size_t i = 0; i < n; ++i) {
            I z(0);
            for (std::size_t q = 0; q < d; ++q) z += pb.x[i * d + q] * e[j * S + q];
            ez[j * n + i] = z;  // delta z_ji
        }
    if (!pb.frozen)
        for (std::size_t j = 0; j < k; ++j)
            for (std::size_t i = 0; i < n; ++i) {
                const I& z = zr[j * n + i];
                I t = e[j * S + d] * sqr(z);
                if (!drop_UNSOUND) t += I(2) * sr[j * S + d] * z * ez[j * n + i];
                (big[j] ? drb[i] : drs[i]) += t;
            }
    const std::vector<I> M = residual_matrix(pb, rr);
    std::vector<I> Mw(d), Tw(d), A(d * d), bv(d), cv(d);
    for (std::size_t j = 0; j < k; ++j) {
        const I vj = sr[j * S + d];
        std::fill(Mw.begin(), Mw.end(), I(0));
        std::fill(Tw.begin(), Tw.end(), I(0));
        I Tv(0);
        for (std::size_t i = 0; i < n; ++i) {
            const I& z = zr[j * n + i];
            const I rz = rr[i] * z;
            const I D = big[j] ? drs[i] : drs[i] + drb[i];  // the absolute part of delta r
            const I Dz = D * z;
            for (std::size_t q = 0; q < d; ++q) {
                Mw[q] += rz * pb.x[i * d + q];
                Tw[q] += Dz * pb.x[i * d + q];
            }
            Tv += Dz * z;
        }
        if (big[j] && !pb.frozen)
            for (std::size_t l = 0; l < k; ++l) {
                if (!big[l]) continue;
                const I s4 = pair_moments(pb, &zr[j * n], &zr[l * n], A, bv, cv);
                const I vl2 = I(2) * sr[l * S + d], evl = e[l * S + d];
                for (std::size_t a = 0; a < d; ++a) {
                    I Ae(0);
                    for (std::size_t b = 0; b < d; ++b) Ae += A[a * d + b] * e[l * S + b];
                    Tw[a] += bv[a] * evl;
                    if (!drop_UNSOUND) Tw[a] += vl2 * Ae;
                    if (!drop_UNSOUND) Tv += vl2 * (cv[a] * e[l * S + a]);
                }
                Tv += s4 * evl;
            }
        I Mwe(0);
        for (std::size_t a = 0; a < d; ++a) {
            I Me(0);
            for (std::size_t b = 0; b < d; ++b) Me += M[a * d + b] * e[j * S + b];
            L[j * S + a] = -(pb.c4 * (e[j * S + d] * Mw[a] + vj * Me + vj * Tw[a]));
            Mwe += Mw[a] * e[j * S + a];
        }
        L[j * S + d] = -(pb.c2 * (I(2) * Mwe + Tv));
    }
    return L;
}

// Taylor models of a set of k neurons from initial boxes `init` (k * S), the residuals r_i = ext_i + sum over the
// set of v_j z_ji^2 - y_i. On success: tm (k * S) validated, rt (n) the residual models of the validated pass and,
// if `partial_mask` is given, part (n) = sum over the neurons with partial_mask[j] of v_j z_ji^2 (validated models).
struct BlockModels {
    std::vector<TimeTm> tm, rt, part;
};

bool block_models(const Problem& pb, const TmPowers& P, std::size_t k, const std::vector<I>& init,
                  const std::vector<TimeTm>* ext, const std::vector<char>* partial_mask, BlockModels& out, long& passes,
                  std::string& reason, const RemainderMode& mode = {}) {
    const std::size_t d = pb.d, n = pb.n, S = pb.S;
    const int p = P.p;
    std::vector<TimeTm>& tm = out.tm;
    tm.assign(k * S, TimeTm{});
    // ---- polynomial parts: the coupled recurrence -------------------------------------------------------------
    std::vector<TimeTm> Z(k * n), ZZ(k * n), R(n);
    std::vector<I> G(k * static_cast<std::size_t>(p + 1) * d);
    for (std::size_t j = 0; j < k; ++j) {
        for (std::size_t a = 0; a < S; ++a) ode::tm_zero(tm[j * S + a], p), tm[j * S + a].c[0] = init[j * S + a];
        for (std::size_t i = 0; i < n; ++i) {
            I z(0);
            for (std::size_t q = 0; q < d; ++q) z += pb.x[i * d + q] * tm[j * S + q].c[0];
            ode::tm_zero(Z[j * n + i], p), ode::tm_zero(ZZ[j * n + i], p);
            Z[j * n + i].c[0] = z;
            ZZ[j * n + i].c[0] = sqr(z);
        }
    }
    auto residual_coefficient = [&](int l) {
        for (std::size_t i = 0; i < n; ++i) {
            I acc = ext ? (*ext)[i].c[l] : I(0);
            if (l == 0) acc -= pb.y[i];
            if (pb.frozen) {
                R[i].c[l] = l == 0 ? -pb.y[i] : I(0);
                continue;
            }
            for (std::size_t j = 0; j < k; ++j) {
                const TimeTm& V = tm[j * S + d];
                const TimeTm& zz = ZZ[j * n + i];
                for (int a = 0; a <= l; ++a) acc += V.c[a] * zz.c[l - a];
            }
            R[i].c[l] = acc;
        }
    };
    for (std::size_t i = 0; i < n; ++i) ode::tm_zero(R[i], p);
    residual_coefficient(0);
    std::vector<I> g(d);
    for (int l = 0; l < p; ++l) {
        for (std::size_t j = 0; j < k; ++j) {
            std::fill(g.begin(), g.end(), I(0));
            I vv(0);
            for (std::size_t i = 0; i < n; ++i) {
                const TimeTm& z = Z[j * n + i];
                const TimeTm& zz = ZZ[j * n + i];
                I u(0);
                for (int b = 0; b <= l; ++b) {
                    u += R[i].c[b] * z.c[l - b];
                    vv += R[i].c[b] * zz.c[l - b];
                }
                for (std::size_t q = 0; q < d; ++q) g[q] += pb.x[i * d + q] * u;
            }
            I* Gj = &G[(j * static_cast<std::size_t>(p + 1)) * d];
            for (std::size_t q = 0; q < d; ++q) Gj[static_cast<std::size_t>(l) * d + q] = g[q];
            const TimeTm& V = tm[j * S + d];
            for (std::size_t q = 0; q < d; ++q) {
                I acc(0);
                for (int a = 0; a <= l; ++a) acc += V.c[a] * Gj[static_cast<std::size_t>(l - a) * d + q];
                tm[j * S + q].c[l + 1] = -(pb.c4 * acc) / (l + 1);
            }
            tm[j * S + d].c[l + 1] = -(pb.c2 * vv) / (l + 1);
            for (std::size_t i = 0; i < n; ++i) {
                TimeTm& z = Z[j * n + i];
                I zi(0);
                for (std::size_t q = 0; q < d; ++q) zi += pb.x[i * d + q] * tm[j * S + q].c[l + 1];
                z.c[l + 1] = zi;
                I s(0);
                for (int a = 0; a <= l + 1; ++a) s += z.c[a] * z.c[l + 1 - a];
                ZZ[j * n + i].c[l + 1] = s;
            }
        }
        residual_coefficient(l + 1);
    }
    // ---- remainders: Schauder inclusion ------------------------------------------------------------------------
    // image_pass: the Picard image of the models in TM arithmetic (remainders pushed through every product); need[a]
    // the remainder it needs within the guess tm[a]; out.rt, out.part the residual models of this pass.
    std::vector<I> need(k * S);
    TimeTm prod, acc, img;
    std::vector<TimeTm> Gt(d);
    const std::vector<TimeTm> Zpoly = Z;  // the polynomial parts of z_ji (the recurrence), for the mean-value ranges
    auto image_pass = [&](std::vector<I>& need_out) {
        ++passes;
        for (std::size_t j = 0; j < k; ++j)
            for (std::size_t i = 0; i < n; ++i) {
                TimeTm& z = Z[j * n + i];
                ode::tm_zero(z, p);
                for (std::size_t q = 0; q < d; ++q) ode::tm_axpy(z, pb.x[i * d + q], tm[j * S + q], p);
                ode::tm_mul(z, z, P, ZZ[j * n + i]);
            }
        out.rt.assign(n, TimeTm{});
        if (partial_mask) out.part.assign(n, TimeTm{});
        for (std::size_t i = 0; i < n; ++i) {
            TimeTm& r = out.rt[i];
            if (ext) r = (*ext)[i];
            else ode::tm_zero(r, p);
            r.c[0] -= pb.y[i];
            if (partial_mask) ode::tm_zero(out.part[i], p);
            if (pb.frozen) {
                ode::tm_zero(r, p);
                r.c[0] = -pb.y[i];
                continue;
            }
            for (std::size_t j = 0; j < k; ++j) {
                ode::tm_mul(tm[j * S + d], ZZ[j * n + i], P, prod);
                ode::tm_add_to(r, prod, p);
                if (partial_mask && (*partial_mask)[j]) ode::tm_add_to(out.part[i], prod, p);
            }
        }
        for (std::size_t j = 0; j < k; ++j) {
            for (std::size_t q = 0; q < d; ++q) ode::tm_zero(Gt[q], p);
            TimeTm Fv;
            ode::tm_zero(Fv, p);
            for (std::size_t i = 0; i < n; ++i) {
                ode::tm_mul(out.rt[i], Z[j * n + i], P, prod);
                for (std::size_t q = 0; q < d; ++q) ode::tm_axpy(Gt[q], pb.x[i * d + q], prod, p);
                ode::tm_mul(out.rt[i], ZZ[j * n + i], P, prod);
                ode::tm_add_to(Fv, prod, p);
            }
            const TimeTm& V = tm[j * S + d];
            for (std::size_t q = 0; q < d; ++q) {
                ode::tm_mul(V, Gt[q], P, prod);
                ode::tm_zero(acc, p);
                ode::tm_axpy(acc, -pb.c4, prod, p);
                ode::tm_integrate(acc, init[j * S + q], P, img);
                need_out[j * S + q] = ode::needed_remainder(img, tm[j * S + q], P);
            }
            ode::tm_zero(acc, p);
            ode::tm_axpy(acc, -pb.c2, Fv, p);
            ode::tm_integrate(acc, init[j * S + d], P, img);
            need_out[j * S + d] = ode::needed_remainder(img, tm[j * S + d], P);
        }
    };
    // Mean-value form (docs/kh.md, "The mean-value remainder validation"): for u in the set U = {u : u(s) in P(s) + R}
    // pick y(s) in P(s) with u(s) - y(s) in R; f(u(s)) = f(y(s)) + Jav (u(s) - y(s)), Jav the average of J over the
    // segment, which lies in the box Omega(s) = P(s) + R. f(y(s)) lies in the TM of f over the models with zero
    // remainders (pointwise in s), so T(u)(s) lies in [x0 + int_0^s f(P)] + [0, H] * B(R), B(R) the box of
    // jacobian_product_bound over Omega: the first part is one image pass with R = 0 (need0), independent of R.
    std::vector<I> need0, zpr, sr(k * S), zr(k * n), rr(n), er(n);
    const std::vector<char> all_big(k, 1);
    if (mode.mean_value) {
        for (std::size_t a = 0; a < k * S; ++a) tm[a].r = I(0);
        need0.resize(k * S);
        image_pass(need0);
        zpr.resize(k * n);
        for (std::size_t a = 0; a < k * n; ++a) zpr[a] = ode::poly_range(Zpoly[a].c, p, P.s);
        for (std::size_t i = 0; i < n; ++i) er[i] = ext ? ode::tm_range((*ext)[i], P) : I(0);
    }
    for (int it = 0; it < 30; ++it) {
        if (!mode.mean_value) {
            image_pass(need);
        } else {
            ++passes;
            // the ranges over Omega: the state, z_ji = x_i . w_j (polynomial part + x_i . R_wj), the residuals
            for (std::size_t a = 0; a < k * S; ++a) sr[a] = ode::tm_range(tm[a], P);
            for (std::size_t j = 0; j < k; ++j)
                for (std::size_t i = 0; i < n; ++i) {
                    I z = zpr[j * n + i];
                    for (std::size_t q = 0; q < d; ++q) z += pb.x[i * d + q] * tm[j * S + q].r;
                    zr[j * n + i] = z;
                }
            for (std::size_t i = 0; i < n; ++i) {
                if (pb.frozen) {
                    rr[i] = -pb.y[i];
                    continue;
                }
                I r = er[i] - pb.y[i];
                for (std::size_t j = 0; j < k; ++j) r += sr[j * S + d] * sqr(zr[j * n + i]);
                rr[i] = r;
            }
            std::vector<I> e(k * S);
            for (std::size_t a = 0; a < k * S; ++a) e[a] = tm[a].r;
            const std::vector<I> B = jacobian_product_bound(pb, k, sr, zr, rr, e, mode.big ? *mode.big : all_big,
                                                            mode.drop_dr_weight_term_UNSOUND);
            for (std::size_t a = 0; a < k * S; ++a) need[a] = need0[a] + P.s * B[a];
        }
        bool ok = true;
        for (std::size_t a = 0; a < k * S; ++a)
            if (!subset(need[a], tm[a].r)) ok = false;
        if (ok) {
            // T maps the set of functions within the models into itself
            if (mode.mean_value) {
                std::vector<I> unused(k * S);
                image_pass(unused);  // the residual models (out.rt, out.part) of the validated models
            }
            return true;
        }
        for (std::size_t a = 0; a < k * S; ++a) {
            if (!is_bounded(need[a])) {
                reason = "a Taylor-model remainder became unbounded";
                return false;
            }
            // epsilon-inflation, stronger after a few passes (a remainder far below its fixed point grows faster)
            if (!subset(need[a], tm[a].r)) tm[a].r = ode::widen(hull(need[a], tm[a].r), it < 6 ? 0.5 : 2.0, 1e-300);
        }
    }
    reason = "Taylor-model remainder validation did not close in 30 passes";
    return false;
}

I tm_at(const TimeTm& t, int p, const I& s) { return ode::poly_at(t.c, p, s) + t.r; }

IMatrixD exact_matrix(const Eigen::MatrixXd& A) {
    IMatrixD B(A.rows(), A.cols());
    for (Eigen::Index i = 0; i < A.rows(); ++i)
        for (Eigen::Index j = 0; j < A.cols(); ++j) B(i, j) = I::exact(A(i, j));
    return B;
}

// Interval Jacobian of the frame block (k neurons) over the ranges Wr (k x d), vr (k), rr (n) (header formulas).
IMatrixD block_jacobian(const Problem& pb, std::size_t k, const std::vector<I>& sr, const std::vector<I>& rr,
                        const I& c4, const I& c2) {
    const std::size_t d = pb.d, n = pb.n, S = pb.S, K = k * S;
    std::vector<I> Zr(k * n);
    for (std::size_t j = 0; j < k; ++j)
        for (std::size_t i = 0; i < n; ++i) {
            I z(0);
            for (std::size_t q = 0; q < d; ++q) z += pb.x[i * d + q] * sr[j * S + q];
            Zr[j * n + i] = z;
        }
    const std::vector<I> M = residual_matrix(pb, rr);
    const I through_r = pb.frozen ? I(0) : I(1);  // frozen residuals: no term through dr/ds
    IMatrixD J(static_cast<Eigen::Index>(K), static_cast<Eigen::Index>(K));
    std::vector<I> Mw(d), Pm(d * d), Xl(d), Xj(d);
    for (std::size_t j = 0; j < k; ++j) {
        std::fill(Mw.begin(), Mw.end(), I(0));
        for (std::size_t i = 0; i < n; ++i) {
            const I rz = rr[i] * Zr[j * n + i];
            for (std::size_t q = 0; q < d; ++q) Mw[q] += rz * pb.x[i * d + q];
        }
        const I vj = sr[j * S + d];
        for (std::size_t l = 0; l < k; ++l) {
            const I vl = sr[l * S + d];
            const I s4 = pair_moments(pb, &Zr[j * n], &Zr[l * n], Pm, Xl, Xj);
            const Eigen::Index oj = static_cast<Eigen::Index>(j * S), ol = static_cast<Eigen::Index>(l * S);
            const Eigen::Index dd = static_cast<Eigen::Index>(d);
            for (std::size_t a = 0; a < d; ++a) {
                for (std::size_t b = 0; b < d; ++b)
                    J(oj + static_cast<Eigen::Index>(a), ol + static_cast<Eigen::Index>(b)) =
                        -(c4 * vj * ((j == l ? M[a * d + b] : I(0)) + through_r * I(2) * vl * Pm[a * d + b]));
                J(oj + static_cast<Eigen::Index>(a), ol + dd) = -(c4 * ((j == l ? Mw[a] : I(0)) + through_r * vj * Xl[a]));
                J(oj + dd, ol + static_cast<Eigen::Index>(a)) = -(c4 * ((j == l ? Mw[a] : I(0)) + through_r * vl * Xj[a]));
            }
            J(oj + dd, ol + dd) = -(through_r * c2 * s4);
        }
    }
    return J;
}

// V in sum_{l <= q} A^l / l! + [-tau, tau] for A = H Jbar (Peano-Baker; header).
bool flow_jacobian(const IMatrixD& A, IMatrixD& V) {
    const Eigen::Index K = A.rows();
    IMatrixD T(K, K);
    for (Eigen::Index i = 0; i < K; ++i)
        for (Eigen::Index j = 0; j < K; ++j) T(i, j) = I(i == j ? 1 : 0);
    V = T;
    I nu(0);
    for (Eigen::Index i = 0; i < K; ++i) {
        I row(0);
        for (Eigen::Index j = 0; j < K; ++j) row += I::exact(mag(A(i, j)));
        nu = I::bounds(0.0, std::max(upper(nu), upper(row)));
    }
    if (!is_bounded(nu) || upper(nu) > 20.0) return false;
    int q = 0;
    I term_bound(1);  // nu^q / q!
    for (q = 1; q <= 60; ++q) {
        T = linalg::mul_midrad(T, A);
        for (Eigen::Index i = 0; i < K; ++i)
            for (Eigen::Index j = 0; j < K; ++j) T(i, j) = T(i, j) / q;
        V += T;
        term_bound = term_bound * nu / q;
        if (upper(term_bound) < 1e-22) break;
    }
    // tail sum_{l > q} nu^l / l! <= nu^{q+1} / (q+1)! e^nu
    const I tail = term_bound * nu / (q + 1) * exp(nu);
    const double tau = upper(tail);
    if (!std::isfinite(tau)) return false;
    for (Eigen::Index i = 0; i < K; ++i)
        for (Eigen::Index j = 0; j < K; ++j) V(i, j) = V(i, j) + I::bounds(-tau, tau);
    return true;
}

// V = D phi over [0, H] as the product V_N ... V_1 of the Peano-Baker enclosures on N equal pieces
// [s_k, s_k+1] of the step, each with the interval Jacobian over the hull models' ranges on that piece only (the
// chain rule for the flow map; a model is valid on every sub-interval of [0, H]). The width of a piece's Jacobian
// is that of the state's range over the piece, so V's width drops about N-fold (docs/kh.md#block-flow-of-the-square-net).
bool frame_flow_jacobian(const Problem& pb, std::size_t kf, const BlockModels& hul, const TmPowers& P, const I& Hs,
                         int pieces, bool drop_last_UNSOUND, IMatrixD& V) {
    const std::size_t S = pb.S, n = pb.n;
    std::vector<I> sr(kf * S), rr(n);
    // break points 0 = b_0 < ... < b_N = H: exact doubles inside, the step length (an interval) at the end
    auto point = [&](int k) { return k == pieces ? Hs : I::exact(mid(Hs) * k / pieces); };
    for (int k = 0; k < (drop_last_UNSOUND && pieces > 1 ? pieces - 1 : pieces); ++k) {
        const I lo = point(k), hi = point(k + 1);
        const I piece = I::bounds(lower(lo), upper(hi));
        for (std::size_t a = 0; a < kf * S; ++a) sr[a] = tm_at(hul.tm[a], P.p, piece);
        for (std::size_t i = 0; i < n; ++i) rr[i] = pb.frozen ? -pb.y[i] : tm_at(hul.rt[i], P.p, piece);
        IMatrixD A = block_jacobian(pb, kf, sr, rr, pb.c4, pb.c2);
        for (Eigen::Index i = 0; i < A.rows(); ++i)
            for (Eigen::Index j = 0; j < A.cols(); ++j) A(i, j) = (hi - lo) * A(i, j);
        IMatrixD Vk;
        if (!flow_jacobian(A, Vk)) return false;
        V = k == 0 ? Vk : linalg::mul_midrad(Vk, V);
    }
    return true;
}

struct Frame {
    std::vector<int> ids;   // neuron indices, blocks of S in this order
    Eigen::VectorXd centre;
    Eigen::MatrixXd B;
    IVectorD q;
};

IVectorD frame_hull(const Frame& f) {
    IVectorD s = linalg::mul_midrad(f.B, IMatrixD(f.q)).col(0);
    for (Eigen::Index a = 0; a < s.size(); ++a) s(a) = s(a) + I::exact(f.centre(a));
    return s;
}

struct State {
    std::vector<I> box;  // m * S, the box neurons' boxes (frame neurons: their hull, refreshed each step)
    std::vector<char> in_frame;
    Frame frame;
};

struct StepResult {
    State next;
    std::vector<I> end_set, range;  // m * S: the set at t1, the enclosure over [t0, t1]
    double max_rem = 0;
};

class Engine {
public:
    Engine(const Problem& pb, const SquareNetFlowOptions& o) : pb_(pb), o_(o) {}

    bool step(const State& st, double t0, double t1, StepResult& out, std::string& reason) {
        const std::size_t m = pb_.m, S = pb_.S, d = pb_.d, n = pb_.n;
        const I Hs = I::exact(t1) - I::exact(t0);
        TmPowers P;
        P.set(o_.order, upper(Hs));
        const int p = P.p;
        // (a) every neuron from its box (frame neurons from their hull)
        std::vector<I> init = st.box;
        const std::size_t kf = st.frame.ids.size();
        IVectorD fh;
        if (kf) {
            fh = frame_hull(st.frame);
            for (std::size_t t = 0; t < kf; ++t)
                for (std::size_t a = 0; a < S; ++a)
                    init[static_cast<std::size_t>(st.frame.ids[t]) * S + a] = fh(static_cast<Eigen::Index>(t * S + a));
        }
        std::vector<char> small(m);
        for (std::size_t j = 0; j < m; ++j) small[j] = st.in_frame[j] ? 0 : 1;
        BlockModels all;
        std::vector<char> big(m);
        for (std::size_t j = 0; j < m; ++j) big[j] = st.in_frame[j];
        const RemainderMode mode_all{o_.remainder_mean_value, &big, o_.test_only_drop_dr_weight_term_UNSOUND};
        const RemainderMode mode_frame{o_.remainder_mean_value, nullptr, o_.test_only_drop_dr_weight_term_UNSOUND};
        if (!block_models(pb_, P, m, init, nullptr, &small, all, passes_, reason, mode_all)) return false;
        out.next = st;
        out.end_set.resize(m * S);
        out.range.resize(m * S);
        out.max_rem = 0;
        for (std::size_t a = 0; a < m * S; ++a) {
            out.end_set[a] = tm_at(all.tm[a], p, Hs);
            out.range[a] = ode::tm_range(all.tm[a], P);
            out.max_rem = std::max(out.max_rem, width(all.tm[a].r));
            if (!is_bounded(out.end_set[a])) {
                reason = "an enclosure became unbounded";
                return false;
            }
        }
        for (std::size_t j = 0; j < m; ++j)
            if (!st.in_frame[j])
                for (std::size_t a = 0; a < S; ++a) out.next.box[j * S + a] = out.end_set[j * S + a];
        if (!kf) return true;
        // (b) the frame block against the other neurons' residual part E
        std::vector<TimeTm> E = all.part;
        if (o_.test_only_drop_box_input_UNSOUND)
            for (auto& e : E) ode::tm_zero(e, p);
        const Problem& pbf = pb_;
        std::vector<I> cinit(kf * S), hinit(kf * S);
        for (std::size_t a = 0; a < kf * S; ++a) {
            cinit[a] = I::exact(st.frame.centre(static_cast<Eigen::Index>(a)));
            hinit[a] = fh(static_cast<Eigen::Index>(a));
        }
        BlockModels cen, hul;
        if (!block_models(pbf, P, kf, cinit, &E, nullptr, cen, passes_, reason, mode_frame)) {
            reason = "frame centre: " + reason;
            return false;
        }
        if (!block_models(pbf, P, kf, hinit, &E, nullptr, hul, passes_, reason, mode_frame)) {
            reason = "frame hull: " + reason;
            return false;
        }
        const Eigen::Index K = static_cast<Eigen::Index>(kf * S);
        IVectorD Phi(K);
        for (std::size_t a = 0; a < kf * S; ++a) Phi(static_cast<Eigen::Index>(a)) = tm_at(cen.tm[a], p, Hs);
        IMatrixD V;
        if (!frame_flow_jacobian(pb_, kf, hul, P, Hs, std::max(1, o_.jacobian_pieces), o_.test_only_drop_last_piece_UNSOUND, V)) {
            reason = "the Peano-Baker series of the frame Jacobian does not converge fast (||H J|| too large)";
            return false;
        }
        const IMatrixD VB = linalg::mul_midrad(V, exact_matrix(st.frame.B));
        const Eigen::VectorXd cn = linalg::mid<I>(Phi);
        const linalg::QrResult<I> qr = linalg::orthogonal_basis<I>(linalg::mid<I>(VB));
        if (qr.status != ProofStatus::proven) {
            reason = "Q^{-1} of the frame not proven (" + qr.reason + ")";
            return false;
        }
        const IMatrixD C = linalg::mul_midrad(qr.Q_inverse, VB);
        IVectorD rest(K);
        for (Eigen::Index a = 0; a < K; ++a) rest(a) = Phi(a) - I::exact(cn(a));
        const IVectorD qn = linalg::mul_midrad(C, IMatrixD(st.frame.q)).col(0) +
                            linalg::mul_midrad(qr.Q_inverse, IMatrixD(rest)).col(0);
        for (Eigen::Index a = 0; a < K; ++a) {
            if (!is_bounded(qn(a))) {
                reason = "the frame box became unbounded";
                return false;
            }
            // the mean-value form needs the centre in the set (0 in q): kept by construction, checked
            if (!possibly_zero(qn(a))) {
                reason = "the frame box lost its centre";
                return false;
            }
        }
        Frame& f = out.next.frame;
        f.centre = cn;
        f.B = qr.Q_double;
        f.q = qn;
        const IVectorD nh = frame_hull(f);
        for (std::size_t t = 0; t < kf; ++t) {
            const std::size_t j = static_cast<std::size_t>(f.ids[t]);
            for (std::size_t a = 0; a < S; ++a) {
                I both;
                const I h = nh(static_cast<Eigen::Index>(t * S + a));
                // both sets contain the true state: their intersection does (output only; the frame is kept)
                out.end_set[j * S + a] = intersect(h, out.end_set[j * S + a], both) ? both : h;
                out.next.box[j * S + a] = h;
            }
        }
        (void)d;
        return true;
    }

    long passes_ = 0;

private:
    const Problem& pb_;
    const SquareNetFlowOptions& o_;
};

void promote(const Problem& pb, State& st, int j) {
    const std::size_t S = pb.S;
    Frame& f = st.frame;
    const Eigen::Index K = f.centre.size(), K2 = K + static_cast<Eigen::Index>(S);
    Eigen::VectorXd c(K2);
    Eigen::MatrixXd B = Eigen::MatrixXd::Zero(K2, K2);
    IVectorD q(K2);
    c.head(K) = f.centre;
    B.topLeftCorner(K, K) = f.B;
    q.head(K) = f.q;
    for (std::size_t a = 0; a < S; ++a) {
        const I x = st.box[static_cast<std::size_t>(j) * S + a];
        const double cm = mid(x);
        const Eigen::Index e = K + static_cast<Eigen::Index>(a);
        c(e) = cm;
        B(e, e) = 1.0;
        q(e) = x - I::exact(cm);  // contains 0: cm is inside x
    }
    f.centre = c;
    f.B = B;
    f.q = q;
    f.ids.push_back(j);
    st.in_frame[static_cast<std::size_t>(j)] = 1;
}

double midpoint_norm(const Problem& pb, const std::vector<I>& box, std::size_t j) {
    double s = 0;
    for (std::size_t a = 0; a < pb.S; ++a) s += mid(box[j * pb.S + a]) * mid(box[j * pb.S + a]);
    return std::sqrt(s);
}

I conserved_of(const Problem& pb, const std::vector<I>& s, std::size_t j) {
    I w2(0);
    for (std::size_t a = 0; a < pb.d; ++a) w2 += sqr(s[j * pb.S + a]);
    return w2 - I(2) * sqr(s[j * pb.S + pb.d]);
}

}  // namespace

ode::Result<I> integrate_square_net_flow(const Eigen::MatrixXd& X, const IVectorD& y, const I& c, const std::vector<I>& x0,
                                         const I& t_end, const std::vector<I>& output_times,
                                         const SquareNetFlowOptions& o, SquareNetFlowStats* stats) {
    ode::Result<I> res;
    Problem pb;
    pb.d = static_cast<std::size_t>(X.rows());
    pb.n = static_cast<std::size_t>(X.cols());
    pb.S = pb.d + 1;
    if (pb.d == 0 || x0.size() % pb.S != 0 || static_cast<std::size_t>(y.size()) != pb.n || o.order < 1 ||
        o.order > ode::kTmMaxOrder || !certainly_positive(t_end)) {
        res.status = ode::Status::invalid_input;
        res.reason = "integrate_square_net_flow: dimensions, order or t_end";
        return res;
    }
    pb.m = x0.size() / pb.S;
    const std::size_t m = pb.m, d = pb.d, S = pb.S;
    pb.x.resize(pb.n * d);
    for (std::size_t i = 0; i < pb.n; ++i)
        for (std::size_t k = 0; k < d; ++k) pb.x[i * d + k] = I::exact(X(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(i)));
    for (std::size_t i = 0; i < pb.n; ++i) pb.y.push_back(y(static_cast<Eigen::Index>(i)));
    pb.c4 = I(4) * c;
    pb.c2 = I(2) * c;
    pb.frozen = o.frozen_residual;
    // x0 layout W (m x d row-major) then v -> blocks (w_j, v_j)
    State st;
    st.box.resize(m * S);
    st.in_frame.assign(m, 0);
    st.frame.centre.resize(0);
    st.frame.B.resize(0, 0);
    st.frame.q.resize(0);
    for (std::size_t j = 0; j < m; ++j) {
        for (std::size_t k = 0; k < d; ++k) st.box[j * S + k] = x0[j * d + k];
        st.box[j * S + d] = x0[m * d + j];
    }
    for (int j : o.frame_from_start)
        if (j >= 0 && static_cast<std::size_t>(j) < m && !st.in_frame[static_cast<std::size_t>(j)]) promote(pb, st, j);
    std::vector<I> C0(m);
    for (std::size_t j = 0; j < m; ++j) C0[j] = conserved_of(pb, st.box, j);
    auto to_layout = [&](const std::vector<I>& s) {
        std::vector<I> x(m * S);
        for (std::size_t j = 0; j < m; ++j) {
            for (std::size_t k = 0; k < d; ++k) x[j * d + k] = s[j * S + k];
            x[m * d + j] = s[j * S + d];
        }
        return x;
    };
    // Windows: an output time [a, b] collects the set at a and every step range up to b.
    struct Window {
        I time;
        double a, b;
        bool open = false, done = false;
        std::vector<I> box;
    };
    std::vector<Window> win;
    std::vector<double> targets;
    for (const I& t : output_times) win.push_back({t, lower(t), upper(t)});
    win.push_back({t_end, lower(t_end), upper(t_end)});
    for (const Window& w : win) {
        if (!(w.a > 0) || !std::isfinite(w.b)) {
            res.status = ode::Status::invalid_input;
            res.reason = "integrate_square_net_flow: output times must be positive and finite";
            return res;
        }
        targets.push_back(w.a);
        targets.push_back(w.b);
    }
    std::sort(targets.begin(), targets.end());
    targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
    while (!targets.empty() && targets.back() > upper(t_end)) targets.pop_back();

    Engine eng(pb, o);
    StepResult pending;
    std::string fail_reason;
    SquareNetFlowStats local;
    double t_reached = 0;
    long accepted = 0, rejected_so_far = 0;
    double h_failed = 0;
    const ode::DriveResult dr = ode::drive_steps(
        targets, o.steps,
        [&](double t0, double t1) {
            ode::StepAttempt a;
            std::string why;
            a.ok = eng.step(st, t0, t1, pending, why);
            if (!a.ok) {
                h_failed = t1 - t0;
                ++rejected_so_far;
                if (o.on_reject) o.on_reject(t0, t1, why);
                a.reason = why;
                fail_reason = why;
                return a;
            }
            const double h = t1 - t0;
            // heuristic only: the remainder target, at least remainder_relative times the widest parameter
            double widest = 0;
            for (const I& x : pending.end_set) widest = std::max(widest, width(x));
            const double tol = std::max(o.remainder_tolerance, o.remainder_relative * widest);
            const double ratio = pending.max_rem > 0 ? tol / pending.max_rem : 1e6;
            a.h_suggest = h * std::clamp(0.8 * std::pow(ratio, 1.0 / (o.order + 1)), 0.5, 2.0);
            // heuristic only: stay below a recently failed step length, letting it grow back slowly
            if (h_failed > 0) {
                a.h_suggest = std::min(a.h_suggest, 0.9 * h_failed);
                h_failed *= 1.05;
            }
            return a;
        },
        [&](double t0, double t1, const ode::StepAttempt&, bool) {
            st = std::move(pending.next);
            t_reached = t1;
            const std::vector<I> rng = to_layout(pending.range), end = to_layout(pending.end_set);
            if (o.record_tubes) res.tube.push_back({I::exact(t0), I::exact(t1), rng});
            for (Window& w : win) {
                if (w.done) continue;
                if (w.open) {
                    for (std::size_t a = 0; a < rng.size(); ++a) w.box[a] = hull(w.box[a], rng[a]);
                } else if (t1 == w.a) {
                    w.open = true;
                    w.box = end;
                }
                if (w.open && t1 == w.b) w.done = true;
            }
            for (std::size_t j = 0; j < m && local.conserved_consistent; ++j) {
                I both;
                if (!intersect(conserved_of(pb, pending.end_set, j), C0[j], both)) {
                    local.conserved_consistent = false;
                    local.conserved_failure = "neuron " + std::to_string(j) + " at t = " + std::to_string(t1);
                }
            }
            for (std::size_t j = 0; j < m; ++j)
                if (!st.in_frame[j] && midpoint_norm(pb, st.box, j) > o.promote_norm) promote(pb, st, static_cast<int>(j));
            ++accepted;
            if (o.on_step) {
                double wf = 0, wb = 0, nb = 0;
                for (std::size_t j = 0; j < m; ++j) {
                    for (std::size_t a = 0; a < S; ++a) (st.in_frame[j] ? wf : wb) = std::max(st.in_frame[j] ? wf : wb, width(st.box[j * S + a]));
                    if (!st.in_frame[j]) nb = std::max(nb, midpoint_norm(pb, st.box, j));
                }
                o.on_step(t1, accepted, rejected_so_far, static_cast<int>(st.frame.ids.size()), wf, wb, nb);
            }
        });
    res.steps = static_cast<long>(dr.steps);
    res.rejected_steps = static_cast<long>(dr.rejected_steps);
    res.min_step = dr.h_smallest;
    res.max_step = dr.h_largest;
    local.validation_passes = eng.passes_;
    local.frame_neurons = static_cast<int>(st.frame.ids.size());
    if (dr.status != ode::DriveStatus::completed) {
        res.status = dr.status == ode::DriveStatus::max_steps ? ode::Status::step_limit
                     : dr.status == ode::DriveStatus::arithmetic_failure ? ode::Status::arithmetic_error
                                                                         : ode::Status::remainder_too_wide;
        res.reason = dr.reason;
        res.time = I::exact(t_reached);
        std::vector<I> now = st.box;
        res.final_box = to_layout(now);
        if (stats) *stats = local;
        return res;
    }
    for (std::size_t k = 0; k + 1 < win.size(); ++k) res.outputs.push_back({win[k].time, win[k].box, {}, -1, {}});
    res.final_box = win.back().box;
    res.time = t_end;
    res.status = ode::Status::ok;
    res.reason.clear();
    for (const I& x : res.final_box) local.max_width_end = std::max(local.max_width_end, width(x));
    if (stats) *stats = local;
    return res;
}

std::vector<I> square_net_jacobian_product_bound(const Eigen::MatrixXd& X, const IVectorD& y, const I& c,
                                                 const std::vector<I>& state, const std::vector<I>& e,
                                                 const std::vector<I>& ext, const std::vector<char>& big, bool frozen,
                                                 bool drop_dr_weight_term_UNSOUND) {
    Problem pb;
    pb.d = static_cast<std::size_t>(X.rows());
    pb.n = static_cast<std::size_t>(X.cols());
    pb.S = pb.d + 1;
    const std::size_t d = pb.d, n = pb.n, S = pb.S;
    if (state.size() % S != 0 || e.size() != state.size() || big.size() != state.size() / S ||
        static_cast<std::size_t>(y.size()) != n || !(ext.empty() || ext.size() == n))
        throw std::invalid_argument("square_net_jacobian_product_bound: dimensions");
    const std::size_t k = state.size() / S;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t q = 0; q < d; ++q) pb.x.push_back(I::exact(X(static_cast<Eigen::Index>(q), static_cast<Eigen::Index>(i))));
    for (std::size_t i = 0; i < n; ++i) pb.y.push_back(y(static_cast<Eigen::Index>(i)));
    pb.c4 = I(4) * c;
    pb.c2 = I(2) * c;
    pb.frozen = frozen;
    std::vector<I> zr(k * n), rr(n);
    for (std::size_t j = 0; j < k; ++j)
        for (std::size_t i = 0; i < n; ++i) {
            I z(0);
            for (std::size_t q = 0; q < d; ++q) z += pb.x[i * d + q] * state[j * S + q];
            zr[j * n + i] = z;
        }
    for (std::size_t i = 0; i < n; ++i) {
        I r = (ext.empty() ? I(0) : ext[i]) - pb.y[i];
        for (std::size_t j = 0; j < k; ++j) r += state[j * S + d] * sqr(zr[j * n + i]);
        rr[i] = frozen ? -pb.y[i] : r;
    }
    return jacobian_product_bound(pb, k, state, zr, rr, e, big, drop_dr_weight_term_UNSOUND);
}

void square_net_flow_rk4_step_double(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, double c, double h,
                                     Eigen::MatrixXd& W, Eigen::VectorXd& v) {
    auto field = [&](const Eigen::MatrixXd& w, const Eigen::VectorXd& a, Eigen::MatrixXd& dw, Eigen::VectorXd& da) {
        const Eigen::MatrixXd Z = w * X;  // m x n
        const Eigen::VectorXd r = (Z.array().square().matrix().transpose() * a) - y;
        const Eigen::MatrixXd RZ = Z.array().rowwise() * r.transpose().array();  // m x n: r_i z_ji
        dw = -4 * c * (a.asDiagonal() * (RZ * X.transpose()));
        da = -2 * c * (Z.array().square().matrix() * r);
    };
    Eigen::MatrixXd k1w, k2w, k3w, k4w;
    Eigen::VectorXd k1v, k2v, k3v, k4v;
    field(W, v, k1w, k1v);
    field(W + 0.5 * h * k1w, v + 0.5 * h * k1v, k2w, k2v);
    field(W + 0.5 * h * k2w, v + 0.5 * h * k2v, k3w, k3v);
    field(W + h * k3w, v + h * k3v, k4w, k4v);
    W += (h / 6) * (k1w + 2 * k2w + 2 * k3w + k4w);
    v += (h / 6) * (k1v + 2 * k2v + 2 * k3v + k4v);
}

}  // namespace flowcert::nets
