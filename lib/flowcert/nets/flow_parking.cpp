// Parked neurons (docs/nonsmooth-flow.md, section 4c): a ReLU neuron sitting on the kink of one
// sample, certainly inactive on every other one, pushed onto the kink by the residual, keeps one
// time-independent box computed at its anchor time.
#define FLOWCERT_NETS_FLOW_INTERNAL
#include "flow_engine.hpp"
#undef FLOWCERT_NETS_FLOW_INTERNAL

#include <algorithm>
#include <array>

namespace flowcert::nets::flow {

// Committed parked neurons keep their anchors (their state X_j is their anchored box); neurons
// newly on a kink are parked with anchor X_j. Per neuron only; the residual at t0 (collective) is a
// filter: a candidate whose a r_k is not certainly positive at t0 would fail (iii) on the step
// anyway (it saves redoing the a priori phase).
void Engine::choose_parking(const std::vector<I>& X) {
    if (!(opt_.park_neurons && pb_.gamma_zero && certainly_positive(pb_.c))) return;
    std::vector<I> R0;
    residual_of(X, R0, lumped_moments(lump_.M_t0));
    const std::vector<std::uint32_t> candidates = active();  // a copy: parking changes active()
    for (std::uint32_t j : candidates) try_park(j, X, R0);
}

// ReLU (gamma = 0), c > 0. Neuron j with anchor box A = X_j (its enclosure at the anchor time t_A)
// is parked on the kink of sample k when on A: sign(a) is certain (i), z_k = <w, x_k> is
// undecided (straddles 0, or is <= 0 without being certainly < 0), and every other z_l is
// certainly < 0. While (i), (ii) [z_l < 0 for l != k] and (iii) [a r_k > 0] hold, the Clarke
// field is w' = -c a r_k eta_k x_k (eta_k = 1 for z_k > 0, 0 for z_k < 0, [0, 1] at 0) and
// a' = -c r_k z_k^+ [BF2025, eq. (6)], so w(t) = w_A + mu(t) x_k with mu non-increasing,
// z_k(t) = z_A + mu |x_k|^2 never goes below min(z_A, 0): mu in [-z_A^+/|x_k|^2, 0]; |a| is
// non-increasing and |a(t) - a_A| <= Q / beta with Q = (z_A^+)^2 / (2 |x_k|^2), beta < alpha = min |a_A|,
// beta (alpha - beta) > Q (first exit: |a| > beta throughout). The enclosure is time independent;
// (ii) and (i) are checked here on the reachable set, (iii) on R (the state residual at t0, a
// filter) here and per step on the tube (park_sign_holds). Parks j when all hold; its end state and
// tube are then its anchored box (for every t while (iii) holds).
bool Engine::try_park(std::size_t j, const std::vector<I>& X, const std::vector<I>& R) {
    const std::size_t S = pb_.S, n = pb_.n, d = pb_.d;
    const I* A = &X[j * S];
    const I& a = A[d];
    const bool pos = certainly_positive(a);
    if (!pos && !certainly_negative(a)) return false;  // (i) on the anchor
    std::array<I, 32> zA;
    std::size_t kk = n;
    for (std::size_t k = 0; k < n; ++k) {
        zA[k] = pb_.preactivation(A, k);
        const int code = sign_code(zA[k]);
        if (code == 0) return false;  // certainly active on some sample: not parked
        if (code == 2) {
            if (kk != n) return false;  // undecided on two samples
            kk = k;
        }
    }
    if (kk == n) return false;  // certainly inactive everywhere: frozen, not parked
    const I* xk = pb_.xk(kk);
    I xx = sqr(xk[0]);
    for (std::size_t i = 1; i < d; ++i) xx += sqr(xk[i]);  // |x_k|^2
    if (!certainly_positive(xx)) return false;
    const double Zu = std::max(zA[kk].upper(), 0.0);  // >= z_A^+ for every point of A
    const I Z = I::exact(Zu);
    const I mu = I::bounds((-(Z / xx)).lower(), 0.0);  // mu(t) in [-z_A^+/|x_k|^2, 0]
    // (ii) on the reachable set {w_A + mu x_k}: <w_A, x_l> + mu <x_k, x_l> < 0 for every l != k.
    for (std::size_t l = 0; l < n; ++l) {
        if (l == kk) continue;
        I xkl = xk[0] * pb_.x[l * d];
        for (std::size_t i = 1; i < d; ++i) xkl += xk[i] * pb_.x[l * d + i];
        if (!certainly_negative(zA[l] + mu * xkl)) return false;
    }
    // |a(t) - a_A| <= Delta: int |a'| = int z_k^+ |mu'| / |a| <= Q / beta.
    double Delta = 0;
    if (Zu > 0) {
        const I Q = sqr(Z) / (I(2) * xx);
        const I alpha = I::exact(mig(a));
        const double beta = (alpha - I(2) * Q / alpha).lower();
        if (!(beta > 0)) return false;
        const I b = I::exact(beta);
        if (!certainly_less(Q, b * (alpha - b))) return false;  // strict: the first-exit argument
        Delta = (Q / b).upper();
    }
    std::array<I, 17> P;
    if (S > P.size()) return false;
    for (std::size_t i = 0; i < d; ++i) P[i] = A[i] + mu * xk[i];
    P[d] = pos ? a + I::bounds(-Delta, 0.0) : a + I::bounds(0.0, Delta);  // |a| shrinks
    if (pos ? !certainly_positive(P[d]) : !certainly_negative(P[d])) return false;  // (i) on the box
    if (!park_sign_holds(P[d], static_cast<std::uint32_t>(kk), R)) return false;  // (iii) at t0
    park_.park(j, static_cast<std::uint32_t>(kk), Zu, P.data());
    std::copy(P.begin(), P.begin() + static_cast<std::ptrdiff_t>(S), &end_[j * S]);
    std::copy(P.begin(), P.begin() + static_cast<std::ptrdiff_t>(S), &tube_[j * S]);
    return true;
}

// (iii): a r_k > 0 for every a in the parked box's a-interval and every r_k in R_k (the residual
// enclosure to check: the state residual at t0 as a filter, the tight-tube residual Rn on the step).
bool Engine::park_sign_holds(const I& a, std::uint32_t k, const std::vector<I>& R) const {
    const I& r = R[k];
    return certainly_positive(a) ? certainly_positive(r) : (certainly_negative(a) && certainly_negative(r));
}

}  // namespace flowcert::nets::flow
