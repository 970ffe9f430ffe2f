// One C^0 Lohner step of a differential inclusion with a bounded input (lohner_inclusion.hpp).
#define FLOWCERT_ODE_INTERNAL
#include "lohner_inclusion.hpp"
#undef FLOWCERT_ODE_INTERNAL

#include <algorithm>
#include <cmath>
#include <limits>

namespace flowcert::ode {

namespace {

using I = IntervalD;
using linalg::IMatrixD;
using linalg::IVectorD;

IMatrixD exact_matrix(const Eigen::MatrixXd& M) { return linalg::to_interval(M); }

Eigen::MatrixXd midpoints(const IMatrixD& A) {
    Eigen::MatrixXd M(A.rows(), A.cols());
    for (Eigen::Index i = 0; i < A.rows(); ++i)
        for (Eigen::Index j = 0; j < A.cols(); ++j) M(i, j) = mid(A(i, j));
    return M;
}

IVectorD times(const IMatrixD& A, const IVectorD& x) { return linalg::mul(A, x); }

// sum_i C_i r_i + B r + e: the set minus its centre
IVectorD doubleton_offset(const LohnerSet& s) {
    IVectorD off = times(exact_matrix(s.B), s.r) + s.pending;
    for (const auto& part : s.parts) off += times(exact_matrix(part.C), part.r);
    return off;
}

}  // namespace

LohnerSet LohnerSet::from_box(const std::vector<IntervalD>& box) {
    const Eigen::Index N = static_cast<Eigen::Index>(box.size());
    LohnerSet s;
    s.c.resize(N);
    LohnerSet::Part part{Eigen::MatrixXd::Identity(N, N), IVectorD(N)};
    for (Eigen::Index i = 0; i < N; ++i) {
        s.c(i) = mid(box[static_cast<std::size_t>(i)]);
        part.r(i) = box[static_cast<std::size_t>(i)] - I::exact(s.c(i));
    }
    s.parts.push_back(std::move(part));
    s.B = Eigen::MatrixXd::Identity(N, N);
    s.r = IVectorD::Constant(N, I(0));
    s.pending = IVectorD::Constant(N, I(0));
    return s;
}

std::vector<IntervalD> LohnerSet::box() const {
    const IVectorD off = doubleton_offset(*this);
    std::vector<IntervalD> out(dimension());
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = I::exact(c(static_cast<Eigen::Index>(i))) + off(static_cast<Eigen::Index>(i));
    return out;
}

void LohnerSet::add(const std::vector<IntervalD>& delta) {
    // the centre moves to a point of the shifted centre box, so the set keeps containing it (the
    // mean-value form of the next step evaluates the Jacobian on a box holding the segment [c, x0])
    for (Eigen::Index i = 0; i < c.size(); ++i) {
        const I moved = I::exact(c(i)) + delta[static_cast<std::size_t>(i)];
        const double cn = mid(moved);
        pending(i) += moved - I::exact(cn);  // c + delta = cn + e exactly, for the true shift
        c(i) = cn;
    }
}

void LohnerSet::append(const std::vector<IntervalD>& box) {
    if (c.size() == 0) {
        *this = from_box(box);
        return;
    }
    const LohnerSet extra = from_box(box);
    const Eigen::Index N = c.size(), K = extra.c.size();
    auto embed = [&](const Eigen::MatrixXd& A, bool lower) {  // A in the top-left (or bottom-right) corner
        Eigen::MatrixXd M = Eigen::MatrixXd::Zero(N + K, N + K);
        if (lower) M.bottomRightCorner(K, K) = A;
        else M.topLeftCorner(N, N) = A;
        return M;
    };
    auto extend = [&](const IVectorD& v, const IVectorD& w) {
        IVectorD out(N + K);
        out << v, w;
        return out;
    };
    const IVectorD zN = IVectorD::Constant(N, I(0)), zK = IVectorD::Constant(K, I(0));
    for (auto& part : parts) {
        part.C = embed(part.C, false);
        part.r = extend(part.r, zK);
    }
    parts.push_back({embed(extra.parts[0].C, true), extend(zN, extra.parts[0].r)});
    Eigen::VectorXd c2(N + K);
    c2 << c, extra.c;
    c = c2;
    Eigen::MatrixXd B2 = embed(B, false);
    B2.bottomRightCorner(K, K) = extra.B;
    B = B2;
    r = extend(r, extra.r);
    pending = extend(pending, extra.pending);
}

void LohnerSet::zero_components(std::size_t first, std::size_t count) {
    for (std::size_t i = first; i < first + count; ++i) {
        const Eigen::Index ii = static_cast<Eigen::Index>(i);
        c(ii) = 0;
        for (auto& part : parts) part.C.row(ii).setZero();
        B.row(ii).setZero();
        pending(ii) = I(0);
    }
}

std::vector<double> deviation_bound(const linalg::IMatrixD& J, const std::vector<double>& C, double H) {
    const Eigen::Index N = J.rows();
    std::vector<double> E(static_cast<std::size_t>(N), 0.0);
    double cmax = 0;
    for (double v : C) cmax = std::max(cmax, v);
    if (!(cmax > 0) || !(H > 0)) return E;
    // Metzler majorant, as point intervals; a >= ||A||_inf H
    IMatrixD A(N, N);
    double anorm = 0;
    for (Eigen::Index i = 0; i < N; ++i) {
        double row = 0;
        for (Eigen::Index j = 0; j < N; ++j) {
            const double v = i == j ? J(i, j).upper() : mag(J(i, j));
            A(i, j) = I::exact(v);
            row = (I::exact(row) + I::exact(std::fabs(v))).upper();
        }
        anorm = std::max(anorm, row);
    }
    const I Hi = I::exact(H);
    const double a = (I::exact(anorm) * Hi).upper();
    if (!std::isfinite(a)) {
        std::fill(E.begin(), E.end(), std::numeric_limits<double>::infinity());
        return E;
    }
    // sum_{k>=0} A^k H^{k+1} / (k+1)! C: v_0 = H C, v_k = H / (k+1) A v_{k-1}
    IVectorD v(N), sum(N);
    for (Eigen::Index i = 0; i < N; ++i) v(i) = Hi * I::exact(C[static_cast<std::size_t>(i)]);
    sum = v;
    // |v_k|_inf <= H cmax a^k / (k+1)!  (bound used for the tail)
    I bound = Hi * I::exact(cmax);
    int k = 0;
    for (; k < 200; ++k) {
        const I t = bound * I::exact(a) / I(k + 2);  // bound of |v_{k+1}|
        // tail after k: sum_{l>k} |v_l| <= t / (1 - a/(k+3)) once a < k+3
        if (a < k + 3) {
            const I tail = t / (I(1) - I::exact(a) / I(k + 3));
            if (tail.upper() < 1e-3 * std::max(cmax * H, 1e-300) || k > 60) {
                for (Eigen::Index i = 0; i < N; ++i)
                    E[static_cast<std::size_t>(i)] = (I::exact(std::max(0.0, sum(i).upper())) + tail).upper();
                return E;
            }
        }
        v = times(A, v) * (Hi / I(k + 2));  // v_{k+1} = A v_k H / (k + 2)
        sum += v;
        bound = t;
    }
    std::fill(E.begin(), E.end(), std::numeric_limits<double>::infinity());
    return E;
}

LohnerStepResult lohner_inclusion_step(const taylor::VectorField& field, const std::vector<IntervalD>& params,
                                       const LohnerSet& set, const LohnerStepInput& in) {
    taylor::TaylorEvaluator<IntervalD> ev(field, params);
    return lohner_inclusion_step(ev, set, in);
}

LohnerStepResult lohner_inclusion_step(taylor::TaylorEvaluator<IntervalD>& ev, const LohnerSet& set, const LohnerStepInput& in) {
    LohnerStepResult res;
    const std::size_t N = set.dimension(), Nu = in.input.size();
    const int p = in.order;
    if (static_cast<std::size_t>(ev.dimension()) != N + Nu || in.apriori.size() != N || p < 1 || p > kTmMaxOrder) {
        res.reason = "lohner_inclusion_step: dimensions or order do not match";
        return res;
    }
    const double H = in.h.upper();
    // input centre u_c (a point of U) and radius bound
    std::vector<I> v(N + Nu), uc(Nu);
    std::vector<double> urad(Nu);
    for (std::size_t l = 0; l < Nu; ++l) {
        const double m = mid(in.input[l]);
        uc[l] = I::exact(m);
        urad[l] = std::max((I::exact(m) - I::exact(in.input[l].lower())).upper(),
                           (I::exact(in.input[l].upper()) - I::exact(m)).upper());
    }
    auto load = [&](const std::vector<I>& x, const std::vector<I>& u) {
        for (std::size_t i = 0; i < N; ++i) v[i] = x[i];
        for (std::size_t l = 0; l < Nu; ++l) v[N + l] = u[l];
    };
    auto fail = [&](const taylor::EvalResult& r, const char* what) {
        res.reason = std::string("lohner_inclusion_step: ") + what + ": " + r.reason;
        return res;
    };
    // 1. coefficients at the centre, jet over the box, order p + 1 over W
    std::vector<I> cpt(N);
    for (std::size_t i = 0; i < N; ++i) cpt[i] = I::exact(set.c(static_cast<Eigen::Index>(i)));
    load(cpt, uc);
    if (auto r = ev.compute(v, p); !r.ok()) return fail(r, "centre coefficients");
    std::vector<I> cc(N * (p + 1));
    for (std::size_t i = 0; i < N; ++i)
        for (int k = 0; k <= p; ++k) cc[i * (p + 1) + k] = ev.coeff(static_cast<int>(i), k);
    std::vector<I> hull_set = set.box();  // contains the centre (hull taken for safety)
    for (std::size_t i = 0; i < N; ++i) hull_set[i] = hull(hull_set[i], cpt[i]);
    load(hull_set, uc);
    if (auto r = ev.compute_c1(v, p); !r.ok()) return fail(r, "jet over the set");
    std::vector<I> dc(N * (p + 1) * N);
    for (std::size_t i = 0; i < N; ++i)
        for (int k = 0; k <= p; ++k)
            for (std::size_t j = 0; j < N; ++j)
                dc[(i * (p + 1) + k) * N + j] = ev.dcoeff(static_cast<int>(i), k, static_cast<int>(j));
    load(in.apriori, uc);
    if (auto r = ev.compute(v, p + 1); !r.ok()) return fail(r, "remainder over the a priori box");
    std::vector<I> cw(N);
    for (std::size_t i = 0; i < N; ++i) cw[i] = ev.coeff(static_cast<int>(i), p + 1);
    // 2. Jacobians over W x U, component-wise deviation bound
    load(in.apriori, in.input);
    if (auto r = ev.compute_c1(v, 1); !r.ok()) return fail(r, "Jacobian over the a priori box");
    IMatrixD J(N, N);
    std::vector<double> Cb(N, 0.0);
    for (std::size_t i = 0; i < N; ++i) {
        for (std::size_t j = 0; j < N; ++j) J(i, j) = ev.dcoeff(static_cast<int>(i), 1, static_cast<int>(j));
        I acc(0);
        for (std::size_t l = 0; l < Nu; ++l)
            acc += I::exact(mag(ev.dcoeff(static_cast<int>(i), 1, static_cast<int>(N + l)))) * I::exact(urad[l]);
        Cb[i] = acc.upper();
    }
    res.deviation = std::vector<I>(N);
    const std::vector<double> E = deviation_bound(J, Cb, H);
    TmPowers P;
    P.set(p, H);
    // 3. Taylor models on [0, H]
    const IVectorD off = doubleton_offset(set);
    res.model.assign(N, TimeTm{});
    for (std::size_t i = 0; i < N; ++i) {
        if (!std::isfinite(E[i])) {
            res.reason = "lohner_inclusion_step: deviation bound not finite";
            return res;
        }
        res.deviation[i] = I::bounds(-E[i], E[i]);
        for (int k = 0; k <= p; ++k) {
            I ck = cc[i * (p + 1) + k];
            for (std::size_t j = 0; j < N; ++j) ck += dc[(i * (p + 1) + k) * N + j] * off(static_cast<Eigen::Index>(j));
            res.model[i].c[k] = ck;
        }
        res.model[i].r = P.pw[p + 1] * cw[i] + res.deviation[i];
        const double lt = mag(cc[i * (p + 1) + p]) * std::pow(H, p);
        res.last_term = std::max(res.last_term, lt);
    }
    // 4. the set at s = h: T(c) + A_T (sum_i C_i r_i + B r + e) + h^{p+1} x_{p+1}(W) + E
    I hp = I(1);
    for (int k = 0; k <= p; ++k) hp = hp * in.h;
    IMatrixD AT(N, N);
    std::vector<I> z(N);
    for (std::size_t i = 0; i < N; ++i) {
        I t = cc[i * (p + 1) + p];
        for (int k = p - 1; k >= 0; --k) t = t * in.h + cc[i * (p + 1) + k];
        z[i] = t + hp * cw[i] + res.deviation[i];
        for (std::size_t j = 0; j < N; ++j) {
            I a = dc[(i * (p + 1) + p) * N + j];
            for (int k = p - 1; k >= 0; --k) a = a * in.h + dc[(i * (p + 1) + k) * N + j];
            AT(i, j) = a;
        }
    }
    LohnerSet& out = res.end;
    out.c.resize(N);
    IVectorD z0(N);
    for (std::size_t i = 0; i < N; ++i) {
        out.c(i) = mid(z[i]);
        z0(i) = z[i] - I::exact(out.c(i));
    }
    // the exactly propagated parts: C_i <- mid(A_T C_i), (A_T C_i - C_i') r_i into r
    IVectorD carried = z0 + times(AT, set.pending);
    out.parts.clear();
    for (const auto& part : set.parts) {
        const IMatrixD AC = linalg::mul(AT, exact_matrix(part.C));
        LohnerSet::Part np{midpoints(AC), part.r};
        carried += times(AC - exact_matrix(np.C), part.r);
        out.parts.push_back(std::move(np));
    }
    const IMatrixD AB = linalg::mul(AT, exact_matrix(set.B));
    const auto qr = linalg::orthogonal_basis<IntervalD>(midpoints(AB));
    IMatrixD Binv;
    if (qr.status == ProofStatus::proven) {
        out.B = qr.Q_double;
        Binv = qr.Q_inverse;
    } else {  // keep going without re-orthogonalization (valid, only wider)
        out.B = Eigen::MatrixXd::Identity(N, N);
        Binv = linalg::identity<IntervalD>(N, 53);
    }
    // the shifts e not yet absorbed: x(h) also carries A_T e (in `carried`)
    out.r = times(linalg::mul(Binv, AB), set.r) + times(Binv, carried);
    out.pending = IVectorD::Constant(N, I(0));
    for (std::size_t i = 0; i < N; ++i)
        if (!is_bounded(out.r(i)) || !is_bounded(z[i])) {
            res.reason = "lohner_inclusion_step: unbounded enclosure";
            return res;
        }
    res.ok = true;
    return res;
}

}  // namespace flowcert::ode
