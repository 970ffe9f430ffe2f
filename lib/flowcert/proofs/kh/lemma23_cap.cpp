// flowcert/proofs/kh/lemma23_cap.cpp -- [KH2025, Lemma 23] on an explicit cap (argument in the header).
#include "flowcert/proofs/kh/lemma23_cap.hpp"

#include <algorithm>
#include <cmath>
#include <vector>
#include <string>

namespace flowcert::proofs::kh {

namespace {

template <Interval I> I exact(double v, long bits) { return IntervalTraits<I>::exact(v, bits); }

// An upper bound on lambda_max(W) = |W|_2 for a symmetric nonnegative W given by the upper bounds of its entries:
// the Collatz-Wielandt bound max_i (W x)_i / x_i for any x > 0 (x from a few power iterations in double, the
// quotients rounded up), and the max row sum (x = 1) when smaller.
template <Interval I> double perron_bound(const std::vector<std::vector<double>>& W, long bits) {
    const std::size_t n = W.size();
    std::vector<double> x(n, 1.0), y(n);
    for (int it = 0; it < 30; ++it) {
        double m = 0;
        for (std::size_t i = 0; i < n; ++i) {
            y[i] = 0;
            for (std::size_t j = 0; j < n; ++j) y[i] += W[i][j] * x[j];
            m = std::max(m, y[i]);
        }
        if (!(m > 0)) return 0;
        for (std::size_t i = 0; i < n; ++i) x[i] = std::max(y[i] / m, 1e-12);
    }
    double best = INFINITY, rows = 0;
    for (std::size_t i = 0; i < n; ++i) {
        I s = IntervalTraits<I>::exact(0, bits), r = s;
        for (std::size_t j = 0; j < n; ++j) {
            s += IntervalTraits<I>::exact(W[i][j], bits) * IntervalTraits<I>::exact(x[j], bits);
            r += IntervalTraits<I>::exact(W[i][j], bits);
        }
        best = std::max(best == INFINITY ? 0.0 : best, upper(s / IntervalTraits<I>::exact(x[i], bits)));
        rows = std::max(rows, upper(r));
    }
    return std::min(best, rows);
}

}  // namespace

template <Interval I> I cosine_to(const linalg::IVector<I>& wstar, const std::vector<I>& w) {
    I dot = wstar(0) * w[0], n2 = sqr(w[0]);
    for (std::size_t j = 1; j < w.size(); ++j) {
        dot += wstar(static_cast<Eigen::Index>(j)) * w[j];
        n2 += sqr(w[j]);
    }
    return dot / sqrt(n2);
}

template <Interval I>
CapCertificate<I> lemma23_cap(const nets::Ncf<I>& ncf, const linalg::IVector<I>& wstar, const I& Nstar,
                              const I& lambda_min_tangent, const I& lambda_max_tangent, const I& Delta, const I& gamma,
                              int pieces) {
    CapCertificate<I> out;
    const long bits = precision(Nstar);
    const int L = ncf.order(), P = ncf.dimension();
    const I one = constant_like(Nstar, 1), two = constant_like(Nstar, 2);
    if (!(lower(gamma) > 0) || !(upper(gamma) < 1) || pieces < 1) {
        out.status = ProofStatus::not_proven;
        out.reason = "need 0 < gamma < 1";
        return out;
    }
    if (!certainly_positive(Nstar) || !certainly_positive(Delta)) {
        out.status = ProofStatus::not_proven;
        out.reason = "need N(w*) > 0 and Delta > 0";
        return out;
    }
    const double g = upper(gamma);
    out.worst_28 = INFINITY;
    out.worst_29 = -INFINITY;
    out.worst_n = INFINITY;
    for (int k = 0; k < pieces; ++k) {
        // c in [1 - eps_hi, 1 - eps_lo], eps in [g k / pieces, g (k + 1) / pieces] (outward)
        const I eps = IntervalTraits<I>::bounds(lower(exact<I>(g, bits) * constant_like(one, k) / constant_like(one, pieces)),
                                                upper(exact<I>(g, bits) * constant_like(one, k + 1) / constant_like(one, pieces)),
                                                bits);
        const I c = IntervalTraits<I>::bounds(lower(one - eps), std::min(1.0, upper(one - eps)), bits);
        const double r = upper(sqrt(two * IntervalTraits<I>::exact(upper(eps), bits)));
        linalg::IVector<I> B(P);
        for (int j = 0; j < P; ++j) B(j) = wstar(j) + IntervalTraits<I>::bounds(-r, r, bits);
        const nets::HessianResult<I> h = ncf.hessian(B);
        if (h.status != nets::EvalStatus::ok) {
            out.status = ProofStatus::not_proven;
            out.reason = "the Hessian of N is not enclosed on the cap box of piece " + std::to_string(k) + ": " + h.reason;
            out.failing_piece = k;
            return out;
        }
        const linalg::IMatrix<I> H = h.hessian;
        // omega >= |b^T (M - H*) b| for M in H(B) (rounded up)
        std::vector<std::vector<double>> W(static_cast<std::size_t>(P), std::vector<double>(static_cast<std::size_t>(P)));
        for (int i = 0; i < P; ++i)
            for (int j = 0; j < P; ++j) W[i][j] = upper(exact<I>(upper(H(i, j)), bits) - exact<I>(lower(H(i, j)), bits));
        const double omega = perron_bound<I>(W, bits);
        const I om = IntervalTraits<I>::exact(omega, bits);
        const I nu0 = IntervalTraits<I>::bounds(lower(lambda_min_tangent), upper(lambda_max_tangent), bits);  // b^T Hess N(w*) b
        const I Lk = constant_like(one, L);
        // (28): G(c) = (1 + c) [L N* c^{L-1} + nu0 k(c) + e1/c - (L/2) c e2] - Delta
        const I kc = (constant_like(one, L - 2) - Lk * sqr(c)) / (two * c);
        const I e1 = IntervalTraits<I>::bounds(-1, 1, bits) * Lk * om / two;
        const I e2 = IntervalTraits<I>::bounds(-1, 1, bits) * om;
        const I G = (one + c) * (Lk * Nstar * pow(c, L - 1) + nu0 * kc + e1 / c - Lk / two * c * e2) - Delta;
        // (29): F(c) = -N* (1 + c + ... + c^{L-1}) + (1/2)(1 + c) mu2 + Delta/2, mu2 in nu0 + e2
        I geo = one;
        for (int j = 1; j < L; ++j) geo += pow(c, j);
        const I F = -Nstar * geo + (one + c) * (nu0 + e2) / two + Delta / two;
        // N(w) = c^L N* + (1/2)(1 - c)(1 + c) mu2 >= ...
        const I Nw = pow(c, L) * Nstar + eps * (one + c) * (nu0 + e2) / two;
        out.worst_28 = std::min(out.worst_28, lower(G));
        out.worst_29 = std::max(out.worst_29, upper(F));
        out.worst_n = std::min(out.worst_n, lower(Nw));
        if (!(lower(G) >= 0) || !(upper(F) <= 0) || !(lower(Nw) > 0)) {
            out.status = ProofStatus::not_proven;
            out.failing_piece = k;
            out.reason = "on the piece 1 - w*^T w in " + to_string(eps, 6) + " (Hessian box radius " + std::to_string(r) +
                         ", omega = " + std::to_string(omega) + "): " +
                         (!(lower(G) >= 0) ? "(28) bound " + to_string(G, 6) + " not >= 0"
                          : !(upper(F) <= 0) ? "(29) bound " + to_string(F, 6) + " not <= 0"
                                             : "N > 0 bound " + to_string(Nw, 6) + " not > 0") +
                         ": choose a smaller gamma or more pieces";
            return out;
        }
    }
    out.status = ProofStatus::proven;
    out.reason = "(28), (29) and N > 0 hold on the cap w*^T w >= 1 - " + to_string(gamma, 8) + " (" +
                 std::to_string(pieces) + " pieces; least margins: (28) >= " + std::to_string(out.worst_28) +
                 ", (29) <= " + std::to_string(out.worst_29) + ", N >= " + std::to_string(out.worst_n) + ")";
    return out;
}

template CapCertificate<IntervalD> lemma23_cap<IntervalD>(const nets::Ncf<IntervalD>&, const linalg::IVectorD&,
                                                          const IntervalD&, const IntervalD&, const IntervalD&,
                                                          const IntervalD&, const IntervalD&, int);
template CapCertificate<IntervalMp> lemma23_cap<IntervalMp>(const nets::Ncf<IntervalMp>&, const linalg::IVector<IntervalMp>&,
                                                            const IntervalMp&, const IntervalMp&, const IntervalMp&,
                                                            const IntervalMp&, const IntervalMp&, int);
template IntervalD cosine_to<IntervalD>(const linalg::IVectorD&, const std::vector<IntervalD>&);
template IntervalMp cosine_to<IntervalMp>(const linalg::IVector<IntervalMp>&, const std::vector<IntervalMp>&);

}  // namespace flowcert::proofs::kh
