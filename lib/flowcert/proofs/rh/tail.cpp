// The closed-form tail certificate of GD with a fixed activation pattern [docs/rh.md#tail].
#include "flowcert/proofs/rh/tail.hpp"

#include <sstream>

namespace flowcert::proofs::rh {

TailData prepare_tail(const Instance& inst, const Pattern& P) {
    TailData td;
    const int n = inst.n, m = inst.m;
    for (int i = 0; i < n; ++i) {
        bool any = false;
        for (int p = 0; p < m; ++p) any = any || P[p][i];
        if (any) td.U.push_back(i);
    }
    const int k = static_cast<int>(td.U.size());
    td.bnorm.assign(m, std::vector<double>(n, 0.0));
    if (k == 0) {  // nothing active: the pattern is trivially fixed
        td.rho_known = true;
        td.rho = IntervalD(0);
        td.lambda = IntervalD(0);
        td.ready = ProofResult::proven("no active sample");
        return td;
    }
    td.H = linalg::IMatrixD::Constant(k, k, IntervalD(0));
    for (int a = 0; a < k; ++a)
        for (int b = 0; b < k; ++b)
            for (int p = 0; p < m; ++p)
                if (P[p][td.U[a]] && P[p][td.U[b]]) td.H(a, b) += inst.G(td.U[a], td.U[b]);
    const auto er = linalg::symmetric_eigenvalues<IntervalD>(td.H);
    if (er.status != ProofStatus::proven || er.eigenvalues.empty()) {
        td.ready = ProofResult::not_proven("eigenvalue bounds of H_UU not certified: " + er.reason);
        return td;
    }
    double lo = rounding::kInf, hi = -rounding::kInf;
    for (const auto& l : er.eigenvalues) {
        lo = std::min(lo, lower(l));
        hi = std::max(hi, upper(l));
    }
    td.lambda = IntervalD::bounds(lo, hi);
    // max over lambda in [lo, hi] (and eta in its enclosure) of |1 - eta lambda| is at an end point (convexity)
    td.rho = max(abs(IntervalD(1) - inst.eta * IntervalD::exact(lo)), abs(IntervalD(1) - inst.eta * IntervalD::exact(hi)));
    td.rho_known = true;
    if (!certainly_less(td.rho, IntervalD(1))) {
        std::ostringstream os;
        os << "rho = ||I - eta H_UU||_2 <= " << upper(td.rho) << " is not certified < 1 (lambda(H_UU) in "
           << to_string(td.lambda, 6) << ", eta = " << to_string(inst.eta, 6) << ")";
        td.ready = ProofResult::not_proven(os.str());
        return td;
    }
    const auto inv = linalg::verified_inverse<IntervalD>(td.H);
    if (inv.status != ProofStatus::proven) {
        td.ready = ProofResult::not_proven("verified inverse of H_UU: " + inv.reason);
        return td;
    }
    td.Hinv = inv.X;
    // Row norms of B_p = G_{:,S_p} (H^{-1})_{S_p,:} (an interval product: every member of G and H^{-1}).
    for (int p = 0; p < m; ++p) {
        linalg::IMatrixD Gp = linalg::IMatrixD::Constant(n, k, IntervalD(0));
        for (int a = 0; a < k; ++a)
            if (P[p][td.U[a]])
                for (int i = 0; i < n; ++i) Gp(i, a) = inst.G(i, td.U[a]);
        const linalg::IMatrixD B = linalg::mul_midrad(Gp, td.Hinv);
        for (int i = 0; i < n; ++i) {
            IntervalD s(0);
            for (int b = 0; b < k; ++b) s += sqr(B(i, b));
            td.bnorm[p][i] = upper(sqrt(s));
        }
    }
    td.ready = ProofResult::proven("rho < 1, H^{-1} enclosed");
    return td;
}

TailAttempt attempt_tail(const Instance& inst, const Pattern& P, const TailData& td, const IVec& r,
                         const std::vector<IVec>& a, const std::vector<IVec>& beta) {
    TailAttempt at;
    const int n = inst.n, m = inst.m, k = static_cast<int>(td.U.size());
    linalg::IVectorD rU(k);
    IntervalD rr(0);
    for (int t = 0; t < k; ++t) {
        rU(t) = r[td.U[t]];
        rr += sqr(rU(t));
    }
    at.r_norm = sqrt(rr);
    const IntervalD ball_r = IntervalD::bounds(0.0, upper(at.r_norm));
    const linalg::IVectorD z = k > 0 ? linalg::mul_midrad(td.Hinv, rU) : linalg::IVectorD();  // H^{-1} r_K
    at.proven = true;
    at.a_inf.assign(m, IVec(n));
    at.beta_inf.assign(m, IVec(n));
    for (int p = 0; p < m; ++p) {
        const IntervalD sp = IntervalD(inst.s[p]);
        for (int i = 0; i < n; ++i) {
            IntervalD v(0);
            for (int t = 0; t < k; ++t)
                if (P[p][td.U[t]]) v += inst.G(i, td.U[t]) * z(t);
            at.beta_inf[p][i] = beta[p][i] - sp * v;
            const IntervalD ball = IntervalD::exact(td.bnorm[p][i]) * ball_r;
            const IntervalD enc = P[p][i] ? at.beta_inf[p][i] - ball : -(at.beta_inf[p][i] + ball);
            if (!certainly_positive(enc)) at.proven = false;
            if (at.worst_neuron < 0 || lower(enc) < lower(at.margin)) {
                at.margin = enc;
                at.worst_neuron = p;
                at.worst_sample = i;
            }
            at.a_inf[p][i] = a[p][i];
        }
        for (int t = 0; t < k; ++t)
            if (P[p][td.U[t]]) at.a_inf[p][td.U[t]] = a[p][td.U[t]] - sp * z(t);
    }
    return at;
}

}  // namespace flowcert::proofs::rh
