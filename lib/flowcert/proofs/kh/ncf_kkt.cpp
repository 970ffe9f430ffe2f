// KKT points of the constrained NCF problem [KH2025, eq. (4)]; see ncf_kkt.hpp for the arguments.
#include "flowcert/proofs/kh/ncf_kkt.hpp"

#include <Eigen/LU>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <flowcert/nets.hpp>

namespace flowcert::proofs::kh {

using namespace flowcert::nets;


// ---- non-rigorous search --------------------------------------------------------------------------

namespace {
// ||F(u, mu)||_inf with F = (grad N - 2 mu u, u.u - 1), in double (NON-RIGOROUS).
double kkt_residual_nonrigorous(const Eigen::VectorXd& g, const Eigen::VectorXd& u, double mu) {
    double r = std::abs(u.squaredNorm() - 1.0);
    for (Eigen::Index j = 0; j < u.size(); ++j) r = std::max(r, std::abs(g(j) - 2 * mu * u(j)));
    return r;
}
}  // namespace

KktCandidateNonrigorous polish_kkt_point_nonrigorous(const Ncf<double>& ncf, const Eigen::VectorXd& u0,
                                                     int newton_steps) {
    KktCandidateNonrigorous c;
    const int P = ncf.dimension();
    Eigen::VectorXd u = u0 / u0.norm();
    GradientResult<double> g = ncf.gradient(u);
    if (g.status != EvalStatus::ok) {
        c.u = u;
        c.residual = std::numeric_limits<double>::infinity();
        return c;
    }
    double mu = u.dot(g.gradient) / 2;  // = L N(u) / 2 on the sphere (Euler)
    double best = kkt_residual_nonrigorous(g.gradient, u, mu);
    for (int it = 0; it < newton_steps; ++it) {
        const HessianResult<double> h = ncf.hessian(u);
        if (h.status != EvalStatus::ok) break;
        Eigen::MatrixXd J = Eigen::MatrixXd::Zero(P + 1, P + 1);
        J.topLeftCorner(P, P) = h.hessian - 2 * mu * Eigen::MatrixXd::Identity(P, P);
        J.block(0, P, P, 1) = -2 * u;
        J.block(P, 0, 1, P) = 2 * u.transpose();
        Eigen::VectorXd F(P + 1);
        F.head(P) = h.gradient - 2 * mu * u;
        F(P) = u.squaredNorm() - 1;
        const Eigen::VectorXd step = J.partialPivLu().solve(-F);
        if (!step.allFinite()) break;
        const Eigen::VectorXd un = u + step.head(P);
        const double mun = mu + step(P);
        const GradientResult<double> gn = ncf.gradient(un);
        if (gn.status != EvalStatus::ok) break;
        const double rn = kkt_residual_nonrigorous(gn.gradient, un, mun);
        if (!(rn < best) && it > 2) break;
        u = un;
        mu = mun;
        best = std::min(best, rn);
        if (rn == 0) break;
    }
    c.u = u;
    c.mu = mu;
    const GradientResult<double> gf = ncf.gradient(u);
    c.value = gf.value;
    c.residual = gf.status == EvalStatus::ok ? kkt_residual_nonrigorous(gf.gradient, u, mu)
                                             : std::numeric_limits<double>::infinity();
    return c;
}

std::vector<KktCandidateNonrigorous> find_kkt_points_nonrigorous(const Ncf<double>& ncf,
                                                                 const KktSearchOptions& options) {
    const int P = ncf.dimension();
    std::vector<KktCandidateNonrigorous> found;
    for (int k = 0; k < options.starts; ++k) {
        RandomStream rs(options.seed, "kh/ncf_start", static_cast<std::uint64_t>(k));
        Eigen::VectorXd u(P);
        rs.fill_gaussian(std::span<double>(u.data(), P));
        u /= u.norm();
        // Projected gradient ascent on the sphere with a backtracking step (NON-RIGOROUS).
        GradientResult<double> g = ncf.gradient(u);
        if (g.status != EvalStatus::ok) continue;
        double eta = 0.1 / std::max(g.gradient.norm(), 1e-300);
        int it = 0;
        for (; it < options.max_ascent_iterations; ++it) {
            const Eigen::VectorXd t = g.gradient - u.dot(g.gradient) * u;
            if (t.norm() <= options.tangent_gradient_tolerance * std::max(g.gradient.norm(), 1e-300)) break;
            Eigen::VectorXd un = u + eta * t;
            un /= un.norm();
            GradientResult<double> gn = ncf.gradient(un);
            if (gn.status == EvalStatus::ok && gn.value > g.value) {
                u = un;
                g = std::move(gn);
                eta *= 1.5;
            } else {
                eta *= 0.5;
                if (eta * t.norm() < 1e-16) break;
            }
        }
        KktCandidateNonrigorous c = polish_kkt_point_nonrigorous(ncf, u, options.newton_steps);
        c.start = k;
        c.ascent_iterations = it;
        if (!(c.residual < 1e-8)) continue;
        bool dup = false;
        for (const auto& f : found)
            if ((f.u - c.u).norm() < options.duplicate_distance) dup = true;
        if (!dup) found.push_back(std::move(c));
    }
    std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.value > b.value; });
    if (static_cast<int>(found.size()) > options.max_candidates) found.resize(options.max_candidates);
    return found;
}

// ---- rigorous certification ------------------------------------------------------------------------

namespace {
template <Interval I> long ncf_bits(const Ncf<I>& ncf) { return linalg::working_precision(ncf.ytilde()); }

}  // namespace

template <Interval I>
KktExistence<I> prove_kkt_point(const Ncf<I>& ncf, const Eigen::VectorXd& u_approx, double mu_approx,
                                const linalg::KrawczykOptions& options) {
    KktExistence<I> res;
    const int P = ncf.dimension();
    if (u_approx.size() != P) {
        res.reason = "approximate point has the wrong dimension";
        return res;
    }
    const long bits = ncf_bits(ncf);
    Eigen::VectorXd x0(P + 1);
    x0.head(P) = u_approx;
    x0(P) = mu_approx;
    // F(u, mu) = (grad N(u) - 2 mu u, ||u||^2 - 1)   [KH2025, Sec. 2, first-order KKT point of (4)]
    linalg::VectorFunction<I> F = [&](const linalg::IVector<I>& x) {
        const Vec<I> u = x.head(P);
        const I& mu = x(P);
        const GradientResult<I> g = ncf.gradient(u);
        if (g.status != EvalStatus::ok) throw std::domain_error(g.reason);
        linalg::IVector<I> out(P + 1);
        I nn = I(0);
        for (int j = 0; j < P; ++j) {
            out(j) = g.gradient(j) - I(2) * mu * u(j);
            nn += sqr(u(j));
        }
        out(P) = nn - I(1);
        return out;
    };
    // F'(u, mu) = [[Hess N(u) - 2 mu I, -2u], [2u^T, 0]]
    linalg::JacobianFunction<I> J = [&](const linalg::IVector<I>& x) {
        const Vec<I> u = x.head(P);
        const I& mu = x(P);
        const HessianResult<I> h = ncf.hessian(u);
        if (h.status != EvalStatus::ok) throw std::domain_error(h.reason);
        linalg::IMatrix<I> Jm(P + 1, P + 1);
        Jm.topLeftCorner(P, P) = h.hessian;
        const I two_mu = I(2) * mu;
        for (int j = 0; j < P; ++j) {
            Jm(j, j) -= two_mu;
            Jm(j, P) = I(-2) * u(j);
            Jm(P, j) = I(2) * u(j);
        }
        Jm(P, P) = I(0);
        return Jm;
    };
    const linalg::KrawczykResult<I> kr =
        linalg::krawczyk_around<I>(F, J, linalg::to_interval<I>(x0, bits), options);
    res.iterations = kr.iterations;
    res.contraction_bound = kr.contraction_bound;
    if (kr.status != linalg::KrawczykStatus::unique_zero) {
        res.reason = "Krawczyk on the sphere-constrained KKT system did not prove a unique zero: " + kr.reason;
        return res;
    }
    res.status = ProofStatus::proven;
    res.reason = "K(Y) inside interior(Y): exactly one zero of F in the uniqueness box";
    res.u = kr.box.head(P);
    res.mu = kr.box(P);
    res.uniqueness_box = kr.uniqueness_box;
    return res;
}

template <Interval I> TangentSpectrum<I> tangent_spectrum(const Ncf<I>& ncf, const linalg::IVector<I>& U) {
    TangentSpectrum<I> res;
    const int P = ncf.dimension();
    if (P < 2) {
        res.reason = "u*^perp is {0} for a one-parameter model";
        return res;
    }
    const HessianResult<I> h = ncf.hessian(U);
    if (h.status != EvalStatus::ok) {
        res.reason = "Hessian over the KKT box: " + h.reason;
        return res;
    }
    const linalg::IMatrix<I>& H = h.hessian;
    const double hn = linalg::norm_inf_upper(H);
    if (!std::isfinite(hn)) {
        res.reason = "Hessian enclosure is unbounded";
        return res;
    }
    // c below every eigenvalue of every member of H (|lambda| <= ||H||_inf).
    res.shift = -std::ceil(hn + 1.0);
    const I c = IntervalTraits<I>::exact(res.shift, ncf_bits(ncf));
    linalg::IVector<I> Hu(P);
    I s = I(0);
    for (int i = 0; i < P; ++i) {
        I acc = I(0);
        for (int j = 0; j < P; ++j) acc += H(i, j) * U(j);
        Hu(i) = acc;
    }
    for (int i = 0; i < P; ++i) s += U(i) * Hu(i);
    const I sc = s + c;
    // B = H - u (H u)^T - (H u) u^T + (u^T H u + c) u u^T = (I - uu^T) H (I - uu^T) + c uu^T for unit u.
    linalg::IMatrix<I> B(P, P);
    for (int i = 0; i < P; ++i)
        for (int j = i; j < P; ++j) {
            const I e = H(i, j) - U(i) * Hu(j) - Hu(i) * U(j) + sc * (U(i) * U(j));
            B(i, j) = e;
            B(j, i) = e;
        }
    const linalg::EigenResult<I> eig = linalg::symmetric_eigenvalues(B);
    if (eig.status != ProofStatus::proven) {
        res.reason = "verified eigenvalues of the projected Hessian: " + eig.reason;
        return res;
    }
    const I top = eig.eigenvalues.back();
    if (!certainly_less(c, top)) {
        res.reason = "top eigenvalue enclosure " + to_string(top, 10) + " does not exclude the shift c";
        return res;
    }
    res.lambda_max_tangent = top;
    // eig(B*) = {c} U eig(Q^T H* Q) with c below every eigenvalue of H*, hence (Cauchy interlacing) below
    // lambda_min(Q^T H* Q): the second smallest eigenvalue of B* is lambda_min(Q^T H* Q).
    res.lambda_min_tangent = eig.eigenvalues[1];
    res.ncf_value = h.value;
    res.delta_max = I(ncf.order()) * h.value - top;  // [spec section 4; KH2025 Lemma 20, eq. (15)]
    res.status = ProofStatus::proven;
    res.reason = "";
    return res;
}

template <Interval I> HessianSpectrum<I> hessian_spectrum(const Ncf<I>& ncf, const linalg::IVector<I>& U) {
    HessianSpectrum<I> res;
    const HessianResult<I> h = ncf.hessian(U);
    if (h.status != EvalStatus::ok) {
        res.reason = "Hessian over the KKT box: " + h.reason;
        return res;
    }
    const linalg::EigenResult<I> eig = linalg::symmetric_eigenvalues<I>(h.hessian);
    if (eig.status != ProofStatus::proven) {
        res.reason = "verified eigenvalues of the Hessian: " + eig.reason;
        return res;
    }
    res.lambda_min = eig.eigenvalues.front();
    res.lambda_max = eig.eigenvalues.back();
    res.status = ProofStatus::proven;
    res.reason = "";
    return res;
}

template <Interval I>
EulerResiduals<I> euler_residuals(const Ncf<I>& ncf, const linalg::IVector<I>& U, const I& mu) {
    EulerResiduals<I> res;
    const HessianResult<I> h = ncf.hessian(U);
    if (h.status != EvalStatus::ok) {
        res.reason = h.reason;
        return res;
    }
    const int P = ncf.dimension(), L = ncf.order();
    I ug = I(0);
    for (int j = 0; j < P; ++j) ug += U(j) * h.gradient(j);
    res.value_identity = ug - I(L) * h.value;
    const I eig = I(L * (L - 1)) * h.value;
    for (int j = 0; j < P; ++j) {
        I hu = I(0);
        for (int k = 0; k < P; ++k) hu += h.hessian(j, k) * U(k);
        const I r1 = hu - I(L - 1) * h.gradient(j);
        const I r2 = hu - eig * U(j);
        res.hessian_identity = j == 0 ? r1 : hull(res.hessian_identity, r1);
        res.eigen_identity = j == 0 ? r2 : hull(res.eigen_identity, r2);
    }
    res.multiplier_identity = I(2) * mu - I(L) * h.value;
    const bool ok = possibly_zero(res.value_identity) && possibly_zero(res.hessian_identity) &&
                    possibly_zero(res.eigen_identity) && possibly_zero(res.multiplier_identity);
    res.status = ok ? ProofStatus::proven : ProofStatus::disproven;
    res.reason = ok ? "every identity's enclosure contains 0"
                    : "an identity's enclosure excludes 0 (the box is not a KKT point of an L-homogeneous N)";
    return res;
}

template <Interval I>
ZeroPattern<I> prove_zero_pattern(const Ncf<I>& ncf, const Eigen::VectorXd& u_approx, double mu_approx,
                                  double zero_tolerance, const linalg::IVector<I>& full_uniqueness_box,
                                  const linalg::KrawczykOptions& options) {
    ZeroPattern<I> res;
    const int P = ncf.dimension();
    const double scale = u_approx.cwiseAbs().maxCoeff();
    std::vector<int> S;
    for (int j = 0; j < P; ++j) {
        if (std::abs(u_approx(j)) <= zero_tolerance * scale)
            res.zero_indices.push_back(j);
        else
            S.push_back(j);
    }
    const int m = static_cast<int>(S.size());
    const long bits = ncf_bits(ncf);
    auto embed = [&](const linalg::IVector<I>& x) {
        Vec<I> u = Vec<I>::Constant(P, I(0));
        for (int a = 0; a < m; ++a) u(S[a]) = x(a);
        return u;
    };
    // Reduced system in u_S (u_Z = 0 exactly): (grad_S N - 2 mu u_S, ||u_S||^2 - 1) = 0.
    linalg::VectorFunction<I> F = [&](const linalg::IVector<I>& x) {
        const Vec<I> u = embed(x);
        const GradientResult<I> g = ncf.gradient(u);
        if (g.status != EvalStatus::ok) throw std::domain_error(g.reason);
        linalg::IVector<I> out(m + 1);
        I nn = I(0);
        for (int a = 0; a < m; ++a) {
            out(a) = g.gradient(S[a]) - I(2) * x(m) * x(a);
            nn += sqr(x(a));
        }
        out(m) = nn - I(1);
        return out;
    };
    linalg::JacobianFunction<I> J = [&](const linalg::IVector<I>& x) {
        const HessianResult<I> h = ncf.hessian(embed(x));
        if (h.status != EvalStatus::ok) throw std::domain_error(h.reason);
        linalg::IMatrix<I> Jm(m + 1, m + 1);
        const I two_mu = I(2) * x(m);
        for (int a = 0; a < m; ++a) {
            for (int b = 0; b < m; ++b) Jm(a, b) = h.hessian(S[a], S[b]);
            Jm(a, a) -= two_mu;
            Jm(a, m) = I(-2) * x(a);
            Jm(m, a) = I(2) * x(a);
        }
        Jm(m, m) = I(0);
        return Jm;
    };
    Eigen::VectorXd x0(m + 1);
    for (int a = 0; a < m; ++a) x0(a) = u_approx(S[a]);
    x0(m) = mu_approx;
    const linalg::KrawczykResult<I> kr = linalg::krawczyk_around<I>(F, J, linalg::to_interval<I>(x0, bits), options);
    if (kr.status != linalg::KrawczykStatus::unique_zero) {
        res.reason = "Krawczyk in the reduced space (|Z| = " + std::to_string(res.zero_indices.size()) +
                     ") did not prove a zero: " + kr.reason;
        return res;
    }
    res.u = embed(kr.box);
    res.mu = kr.box(m);
    // Full-space condition: grad_Z N(u) = 2 mu u_Z = 0 on the whole reduced box.
    const GradientResult<I> g = ncf.gradient(res.u);
    if (g.status != EvalStatus::ok) {
        res.reason = "gradient on the reduced box: " + g.reason;
        return res;
    }
    res.full_space_gradient_zero = true;
    for (int j : res.zero_indices)
        if (!(is_point(g.gradient(j)) && contains(g.gradient(j), 0.0))) res.full_space_gradient_zero = false;
    res.support_nonzero = true;
    for (int j : S)
        if (!certainly_nonzero(res.u(j))) res.support_nonzero = false;
    if (full_uniqueness_box.size() == P + 1) {
        linalg::IVector<I> x(P + 1);
        x.head(P) = res.u;
        x(P) = res.mu;
        res.inside_uniqueness_box = linalg::subset(x, full_uniqueness_box);
    }
    if (!res.full_space_gradient_zero) {
        res.reason = "grad_Z N is not exactly 0 on the reduced box: Z is not (provably) a zero pattern of a KKT point";
    } else if (!res.support_nonzero) {
        res.reason = "an entry outside Z is not certainly nonzero";
    } else {
        res.status = ProofStatus::proven;
        res.reason = "a KKT point with exactly the zero set Z exists (reduced Krawczyk + grad_Z N = 0 exactly)";
    }
    return res;
}

template <Interval I>
std::vector<BalanceEntry<I>> lemma17_balance(const HomogeneousArchitecture& arch, const linalg::IVector<I>& U) {
    std::vector<BalanceEntry<I>> out;
    if (arch.kind != ModelKind::feed_forward) return out;
    const int K = static_cast<int>(arch.hidden.size());
    const int p = arch.activation.degree();
    for (int l = 1; l <= K; ++l) {
        const int rows = arch.layer_rows(l), cols = arch.layer_cols(l), off = arch.layer_offset(l);
        const int rows2 = arch.layer_rows(l + 1), cols2 = arch.layer_cols(l + 1), off2 = arch.layer_offset(l + 1);
        for (int j = 0; j < rows; ++j) {
            BalanceEntry<I> e;
            e.layer = l;
            e.neuron = j;
            I rn = I(0), cn = I(0);
            bool zero = true;
            for (int c = 0; c < cols; ++c) {
                const I& x = U(off + j * cols + c);
                rn += sqr(x);
                zero = zero && is_point(x) && contains(x, 0.0);
            }
            for (int r = 0; r < rows2; ++r) {
                const I& x = U(off2 + r * cols2 + j);
                cn += sqr(x);
                zero = zero && is_point(x) && contains(x, 0.0);
            }
            e.residual = rn - I(p) * cn;  // [KH2025, Lemma 17]
            e.exact_zero_pair = zero;
            out.push_back(e);
        }
    }
    return out;
}

template <Interval I> DiagonalGap<I> diagonal_gap_closed_form(const nets::Mat<I>& X, const nets::Vec<I>& yt) {
    std::vector<I> ab;
    for (Eigen::Index k = 0; k < X.rows(); ++k) {
        I b = I(0);
        for (Eigen::Index i = 0; i < yt.size(); ++i) b += X(k, i) * yt(i);
        ab.push_back(abs(b));
    }
    std::sort(ab.begin(), ab.end(), [](const I& a, const I& b) { return mid(a) > mid(b); });
    DiagonalGap<I> g;
    g.gap = ab.size() > 1 ? ab[0] - ab[1] : ab[0];
    g.ordered = ab.size() > 1 && (ab.size() < 3 || certainly_less(ab[2], ab[1])) && certainly_less(ab[1], ab[0]);
    return g;
}

template <Interval I>
PositiveKkt<I> certify_positive_kkt(const Ncf<I>& ncf, const Ncf<double>& ncf_d, const Eigen::VectorXd& start) {
    PositiveKkt<I> r;
    r.candidate = polish_kkt_point_nonrigorous(ncf_d, start, 20);
    r.existence = prove_kkt_point(ncf, r.candidate.u, r.candidate.mu);
    if (!r.exists()) return r;
    r.spectrum = tangent_spectrum(ncf, r.existence.u);
    r.ncf_value = r.spectrum_enclosed() ? r.spectrum.ncf_value : ncf.gradient(r.existence.u).value;
    return r;
}

FLOWCERT_PROOFS_KH_NCF_KKT_DECLARE(IntervalD, )
FLOWCERT_PROOFS_KH_NCF_KKT_DECLARE(IntervalMp, )

template <Interval I> I radial_hessian_eigenvalue(const I& N, int L) { return I(L * (L - 1)) * N; }

template <Interval I> I distance_exponent(const I& Delta, const I& N, int L) { return Delta / (Delta + I(2 * L * L) * N); }

template <Interval I> I balance_residual_hull(const std::vector<BalanceEntry<I>>& entries) {
    I h = entries.front().residual;
    for (const auto& e : entries) h = hull(h, e.residual);
    return h;
}

FLOWCERT_PROOFS_KH_NCF_KKT_REPORT_DECLARE(IntervalD, )
FLOWCERT_PROOFS_KH_NCF_KKT_REPORT_DECLARE(IntervalMp, )

}  // namespace flowcert::proofs::kh
