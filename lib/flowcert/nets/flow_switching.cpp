// Hull neurons (docs/nonsmooth-flow.md, sections 4 and 4b): a neuron with an undecided sign on the
// step tube gets adaptive sub-steps driven by the validated residual Taylor models: bisection
// towards the switching time, single-neuron Taylor-model steps where every sign is decided (or kept
// by monotonicity), transversal crossings stepped through exactly, first-order Clarke-hull steps
// where a sign stays undecided (sliding).
#define FLOWCERT_NETS_FLOW_INTERNAL
#include "flow_engine.hpp"
#undef FLOWCERT_NETS_FLOW_INTERNAL

#include <algorithm>
#include <chrono>
#include <cmath>

namespace flowcert::nets::flow {

using ode::poly_at;
using ode::poly_range;
using ode::tm_axpy;
using ode::tm_integrate;
using ode::tm_mul;
using ode::tm_range;
using ode::tm_zero;
using ode::widen;

thread_local std::size_t Engine::crossings_tls_ = 0;

// One sub-step [s0, s1] of a hull neuron: residual range, a priori box and signs.
struct Engine::Substep {
    double s0 = 0, s1 = 0;
    std::vector<I> R;      // residual range over the sub-step
    std::vector<I> B, Nb;  // Picard box, a priori box (every solution stays in Nb)
    std::vector<I> F, FN;  // Clarke-hull field on B, on Nb
    std::vector<unsigned char> codes, codes0;  // signs on the sub-step, at s0
    std::vector<I> zdot;   // <w', x_k> on Nb
    std::size_t undecided = 0, kx = 0;  // undecided signs; the last one
};

// Taylor model, in u = s - s0 on [0, s1 - s0], of the SMOOTH single-neuron ODE
//     w' = a D(s),  a' = <w, D(s)>,  D(s) = -c sum_k eta(codes_k) g_k(s) x_k   [BF2025, eq. (6)]
// from Th0 at s0, for every residual g_k(s) in the validated models Gs (defined on s in [0, H]).
// The pattern codes_k in {0, 1} is imposed whatever region the solution visits, so T encloses the
// flow of that polynomial ODE (Schauder/Picard inclusion as in the coupled step; docs).
bool Engine::neuron_tm(const I* Th0, double s0, double s1, const unsigned char* codes, const std::vector<TimeTm>& Gs,
                       std::vector<TimeTm>& T, TmPowers& Ps) const {
    const std::size_t S = pb_.S, n = pb_.n, d = pb_.d;
    const I len = I::exact(s1) - I::exact(s0);
    Ps.set(p_, len.upper());
    std::vector<TimeTm> Gsh(n);
    const I s0i = I::exact(s0);
    for (std::size_t k = 0; k < n; ++k) ode::tm_shift(Gs[k], s0i, p_, Gsh[k]);  // G(s0 + u) in u
    const I one(1);
    std::vector<TimeTm> Dd(d);
    for (std::size_t i = 0; i < d; ++i) {
        tm_zero(Dd[i], p_);
        for (std::size_t k = 0; k < n; ++k)
            tm_axpy(Dd[i], -(pb_.c * eta_of(pb_, codes[k], one) * pb_.x[k * d + i]), Gsh[k], p_);
    }
    // polynomial part by recurrence (linear ODE with given D)
    T.assign(S, TimeTm{});
    for (std::size_t i = 0; i < S; ++i) {
        T[i].c[0] = Th0[i];
        T[i].r = I(0);
    }
    for (int ord = 0; ord < p_; ++ord) {
        I da(0);
        for (std::size_t i = 0; i < d; ++i) {
            I dw(0);
            for (int l = 0; l <= ord; ++l) {
                da += T[i].c[l] * Dd[i].c[ord - l];
                dw += T[d].c[l] * Dd[i].c[ord - l];
            }
            T[i].c[ord + 1] = dw / (ord + 1);
        }
        T[d].c[ord + 1] = da / (ord + 1);
    }
    // remainder validation (Schauder/Picard inclusion for this neuron; residual given)
    std::vector<TimeTm> img(S);
    std::vector<I> need(S);
    TimeTm prod, sum;
    for (int it = 0; it < 8; ++it) {
        tm_zero(sum, p_);
        for (std::size_t i = 0; i < d; ++i) {
            tm_mul(T[i], Dd[i], Ps, prod);
            ode::tm_add_to(sum, prod, p_);
        }
        tm_integrate(sum, Th0[d], Ps, img[d]);
        for (std::size_t i = 0; i < d; ++i) {
            tm_mul(T[d], Dd[i], Ps, prod);
            tm_integrate(prod, Th0[i], Ps, img[i]);
        }
        bool valid = true;
        for (std::size_t i = 0; i < S; ++i) {
            need[i] = ode::needed_remainder(img[i], T[i], Ps);
            if (!subset(need[i], T[i].r)) valid = false;
        }
        if (valid) return true;
        for (std::size_t i = 0; i < S; ++i) T[i].r = widen(hull(need[i], T[i].r), 0.1, 1e-300);
    }
    return false;
}

// ---- transversal crossings (section 4b) ---------------------------------------------------------

// The crossing-time window [t_lo, t_hi] of z_k = <w, x_k> along the old-pattern flow (model T from
// s0): z_k certainly old-signed on [s0, t_lo], certainly new-signed at t_hi.
struct Engine::CrossingWindow {
    double t_lo = 0, t_hi = 0;
    TimeTm z;  // z_k along the old flow, in u = s - s0
    int new_code = 0;
    bool is_new(const I& v) const { return new_code == 0 ? certainly_positive(v) : certainly_negative(v); }
};

bool Engine::crossing_window(const std::vector<TimeTm>& T, const TmPowers& Ps, double s0, double s1,
                             const std::vector<TimeTm>& Gs, const std::vector<unsigned char>& codes, std::size_t k,
                             int old_code, CrossingWindow& win) const {
    const std::size_t n = pb_.n, d = pb_.d;
    const int p = p_;
    win.new_code = 1 - old_code;
    tm_zero(win.z, p);
    for (std::size_t q = 0; q < d; ++q) tm_axpy(win.z, pb_.x[k * d + q], T[q], p);
    auto u_of = [&](double t) { return I::exact(t) - I::exact(s0); };
    auto is_old = [&](const I& v) { return old_code == 0 ? certainly_positive(v) : certainly_negative(v); };
    auto z_at = [&](double t) { return poly_at(win.z.c, p, u_of(t)) + win.z.r; };
    auto z_upto = [&](double t) { return poly_range(win.z.c, p, I::bounds(0.0, u_of(t).upper())) + win.z.r; };
    if (!win.is_new(z_at(s1))) return false;  // the old flow does not certainly cross inside the sub-step
    double lo = s0, hi = s1;                   // t_hi: z_k(Phi_old) certainly new-signed (heuristic search)
    for (int it = 0; it < 64; ++it) {
        const double md = lo + 0.5 * (hi - lo);
        if (!(md > lo && md < hi)) break;
        (win.is_new(z_at(md)) ? hi : lo) = md;
    }
    win.t_hi = hi;
    // Is z_k monotone along Phi_old on [s0, s1]? Its derivative a <D_old, x_k> on the range of the
    // old model (D_old from the residual range over the sub-step) has a certain sign. Then z_k is
    // old-signed on [s0, t] as soon as it is at t (both ends), which avoids the overestimation of
    // the range of the polynomial over [0, t - s0].
    bool monotone = false;
    {
        const I sig = I::bounds(s0, s1);
        I zdot_old(0);
        for (std::size_t i = 0; i < d; ++i) {
            I Di(0);
            for (std::size_t q = 0; q < n; ++q)
                Di += eta_of(pb_, codes[q], I(1)) * (poly_at(Gs[q].c, p, sig) + Gs[q].r) * pb_.x[q * d + i];
            zdot_old += -(pb_.c * Di) * pb_.x[k * d + i];
        }
        zdot_old = zdot_old * tm_range(T[d], Ps);
        monotone = sign_code(zdot_old) != 2;
    }
    auto old_upto = [&](double t) { return monotone ? is_old(z_at(t)) : is_old(z_upto(t)); };
    lo = s0;  // t_lo: z_k(Phi_old) certainly old-signed on [s0, t_lo]
    for (int it = 0; it < 64; ++it) {
        const double md = lo + 0.5 * (hi - lo);
        if (!(md > lo && md < hi)) break;
        (old_upto(md) ? lo : hi) = md;
    }
    win.t_lo = lo;
    return old_upto(win.t_lo) && win.is_new(z_at(win.t_hi));
}

// theta(t_hi) for every solution (see crossing_substep), moving t_hi later (heuristic) until the
// enclosure is off the hyperplane; Y = the old flow over the window.
bool Engine::crossing_state(const std::vector<TimeTm>& T, double s0, const std::vector<TimeTm>& Gs, const Substep& sub,
                            const std::vector<unsigned char>& codes, std::size_t k, int old_code, CrossingWindow& win,
                            std::vector<I>& th, std::vector<I>& Y) const {
    const std::size_t S = pb_.S, n = pb_.n, d = pb_.d;
    const int p = p_;
    const int new_code = win.new_code;
    auto u_of = [&](double t) { return I::exact(t) - I::exact(s0); };
    auto z_at = [&](double t) { return poly_at(win.z.c, p, u_of(t)) + win.z.r; };
    const I one(1);
    const I deta = eta_of(pb_, old_code, one) - eta_of(pb_, new_code, one);
    std::vector<unsigned char> codes_new = codes;
    codes_new[k] = static_cast<unsigned char>(new_code);
    std::vector<I> gW(n);
    std::vector<TimeTm> Tn;
    TmPowers Pn;
    bool clear = false;
    const double t_lo = win.t_lo;
    for (int attempt = 0; attempt < 6 && !clear; ++attempt) {
        if (attempt > 0) {  // heuristic: move t_hi later until theta(t_hi) is off the hyperplane
            const double s1 = sub.s1;
            const double nt = std::min(s1, win.t_hi + (win.t_hi - t_lo) * std::ldexp(1.0, attempt));
            if (!(nt > win.t_hi) || !win.is_new(z_at(nt))) break;
            win.t_hi = nt;
        }
        const double t_hi = win.t_hi;
        const I uhi = u_of(t_hi), dtau = I::exact(t_hi) - I::exact(t_lo);
        const I uW = I::bounds(u_of(t_lo).lower(), uhi.upper()), W = I::bounds(t_lo, t_hi);
        // psi(t_lo): old model at t_lo, then the new-pattern ODE on [t_lo, t_hi]
        std::vector<I> Y0(S);
        for (std::size_t i = 0; i < S; ++i) Y0[i] = poly_at(T[i].c, p, u_of(t_lo)) + T[i].r;
        if (!neuron_tm(Y0.data(), t_lo, t_hi, codes_new.data(), Gs, Tn, Pn)) return false;
        // Phi_old(t, s0) Th0 for t in W, residuals over W
        for (std::size_t i = 0; i < S; ++i) Y[i] = poly_range(T[i].c, p, uW) + T[i].r;
        for (std::size_t q = 0; q < n; ++q) gW[q] = poly_at(Gs[q].c, p, W) + Gs[q].r;
        const I zY = pb_.preactivation(Y.data(), k);
        const I dD = -(pb_.c * deta * gW[k]);  // times x_k: the jump of D
        std::vector<I> J(S);
        double Jn = 0;
        for (std::size_t i = 0; i < d; ++i) J[i] = Y[d] * (dD * pb_.x[k * d + i]);
        J[d] = dD * zY;
        for (std::size_t i = 0; i < S; ++i) Jn = std::max(Jn, mag(J[i]));
        I mu(0);
        for (std::size_t i = 0; i < d; ++i) {
            I Di(0);
            for (std::size_t q = 0; q < n; ++q) Di += eta_of(pb_, codes_new[q], one) * gW[q] * pb_.x[q * d + i];
            mu += abs(pb_.c * Di);
        }
        const double ev = expm1(I::bounds(0.0, (mu * dtau).upper())).upper();
        const double e = (I::exact(ev) * I::exact(Jn)).upper();
        const I dt0 = I::bounds(0.0, dtau.upper());
        for (std::size_t i = 0; i < S; ++i) {
            const I v = poly_at(Tn[i].c, p, dtau) + Tn[i].r + dt0 * (J[i] + I::bounds(-e, e));
            I o;
            th[i] = intersect(v, sub.Nb[i], o) ? o : v;  // theta(t_hi) of a true solution lies in Nb
        }
        clear = win.is_new(pb_.preactivation(th.data(), k));
    }
    return true;
}

// Transversal crossing of the hyperplane z_k = <w, x_k> = 0 inside the sub-step [s0, s1]
// (issue 8, item 2(b)). Preconditions (checked by the caller): every sign is decided at s0
// (codes0), on the a priori box Nb of the sub-step every sign but z_k's is decided (codes), and
// zdot_k = <w', x_k> has on Nb a certain sign pointing from the old side (old_code) to the other
// (transversality). Then for every solution:
//  * until its first zero tau of z_k it follows the old-pattern smooth ODE (flow Phi_old), so
//    tau >= t_lo if z_k along Phi_old keeps the old sign on [s0, t_lo], and tau < t_hi if z_k of
//    Phi_old is certainly of the new sign at t_hi;
//  * z_k is absolutely continuous with zdot_k of the certain sign a.e. while theta is in Nb, so
//    after tau it stays strictly on the new side: the solution follows the new-pattern ODE
//    (Phi_new) on [tau, s1] (no sliding);
//  * theta(t_hi) = psi(tau) with psi(t) = Phi_new(t_hi, t) Phi_old(t, s0) Th0. For fixed
//    residuals both fields are linear in theta, theta' = M(s) theta, and
//        psi'(t) = V(t_hi, t) (F_old - F_new)(Phi_old(t, s0) Th0, t),
//    V = transition matrix of the new linear ODE, |V - I|_inf <= exp(mu (t_hi - t)) - 1 with
//    mu >= |M_new(s)|_inf = sum_i |D_new,i(s)| (Groenwall); F_old - F_new = (a dD, <w, dD>),
//    dD = -c (eta_old - eta_new) g_k x_k (only the k-th sample's eta jumps). Mean value theorem:
//    theta(t_hi) in psi(t_lo) + [0, t_hi - t_lo] (J + [-1, 1] (exp(mu dt) - 1) |J|_inf).
// psi(t_lo) is enclosed by the old model at t_lo followed by a new-pattern model on [t_lo, t_hi].
// The jump of the field thus costs |a c (1 - gamma) g_k x_k| times the crossing-time
// uncertainty, instead of a first-order Clarke-hull step. The rest [t_hi, s1] is a regular
// sub-step (smooth: z_k moves away from 0).
bool Engine::crossing_substep(const I* Th0, double s0, double s1, const std::vector<TimeTm>& Gs, const Substep& sub,
                              std::size_t k, int old_code, I* Th1, I* tube, int depth, std::size_t& budget) {
    const std::size_t S = pb_.S;
    const int p = p_;
    std::vector<unsigned char> codes = sub.codes;
    codes[k] = static_cast<unsigned char>(old_code);
    std::vector<TimeTm> T;
    TmPowers Ps;
    if (!neuron_tm(Th0, s0, s1, codes.data(), Gs, T, Ps)) return false;
    CrossingWindow win;
    if (!crossing_window(T, Ps, s0, s1, Gs, codes, k, old_code, win)) return false;
    std::vector<I> th(S), Y(S);
    if (!crossing_state(T, s0, Gs, sub, codes, k, old_code, win, th, Y)) return false;
    const double t_lo = win.t_lo, t_hi = win.t_hi;
    // tube on [s0, t_hi]: old flow up to tau, then theta(tau) + [0, t_hi - tau] F(Nb)
    const I dt0 = I::bounds(0.0, (I::exact(t_hi) - I::exact(t_lo)).upper());
    for (std::size_t i = 0; i < S; ++i) {
        const I told = poly_range(T[i].c, p, I::bounds(0.0, (I::exact(t_hi) - I::exact(s0)).upper())) + T[i].r;
        I tb = hull(hull(told, Y[i] + dt0 * sub.FN[i]), th[i]), o;
        tube[i] = intersect(tb, sub.Nb[i], o) ? o : tb;
    }
    if (!(t_hi < s1)) {
        for (std::size_t i = 0; i < S; ++i) Th1[i] = th[i];
        return true;
    }
    std::vector<I> tube2(S);
    if (!hull_substep(th.data(), t_hi, s1, Gs, Th1, tube2.data(), depth + 1, budget)) return false;
    for (std::size_t i = 0; i < S; ++i) tube[i] = hull(tube[i], tube2[i]);
    return true;
}

// ---- hull sub-steps (section 4) -------------------------------------------------------------------

// The a priori box of the neuron on the sub-step [s0, s1] (first-exit argument, residual in the
// range of the models Gs over the sub-step) and the Clarke-hull field on it.
bool Engine::substep_apriori(const I* Th0, double s0, double s1, const std::vector<TimeTm>& Gs, Substep& sub) const {
    const std::size_t S = pb_.S, n = pb_.n;
    sub.s0 = s0;
    sub.s1 = s1;
    const I sig = I::bounds(s0, s1);  // the times of this sub-step (as s values)
    const I len = I::exact(s1) - I::exact(s0);
    const I ds = I::bounds(0.0, len.upper());
    sub.R.resize(n);
    for (std::size_t k = 0; k < n; ++k) sub.R[k] = poly_at(Gs[k].c, p_, sig) + Gs[k].r;
    sub.B.resize(S);
    sub.Nb.resize(S);
    sub.F.resize(S);
    sub.FN.resize(S);
    auto field = [&](const I* Bx, I* Fo) { field_box(pb_, Bx, sub.R.data(), Fo); };
    if (!ode::picard_block(S, Th0, ds, field, sub.B.data(), sub.Nb.data(), sub.F.data())) return false;
    // Every solution stays in Nb on the sub-step, where its field lies in FN (Clarke hull on Nb).
    field_box(pb_, sub.Nb.data(), sub.R.data(), sub.FN.data());
    return true;
}

// Signs: decided on Nb, or (transversal_crossings) decided at s0 and kept because zdot_k =
// <w', x_k> has on Nb the sign of z_k(s0): z_k moves away from 0 (absolutely continuous with a
// derivative of certain sign a.e.).
void Engine::substep_signs(const I* Th0, Substep& sub) const {
    const std::size_t n = pb_.n;
    sub.codes.assign(n, 0);
    sub.codes0.assign(n, 0);
    sub.zdot.resize(n);
    sub.undecided = 0;
    sub.kx = n;
    for (std::size_t k = 0; k < n; ++k) {
        sub.zdot[k] = pb_.preactivation(sub.FN.data(), k);
        const int c = sign_code(pb_.preactivation(sub.Nb.data(), k)), c0 = sign_code(pb_.preactivation(Th0, k));
        sub.codes0[k] = static_cast<unsigned char>(c0);
        sub.codes[k] = static_cast<unsigned char>(c);
        if (c != 2) continue;
        if (opt_.transversal_crossings && c0 != 2 && sign_code(sub.zdot[k]) == c0) {
            sub.codes[k] = static_cast<unsigned char>(c0);  // moving away from the hyperplane
            continue;
        }
        ++sub.undecided;
        sub.kx = k;
    }
}

// Heuristics (never affecting soundness) deciding whether an undecided sub-step is bisected.
bool Engine::bisect_worthwhile(const I* Th0, const Substep& sub, const I& len, int depth, std::size_t budget) const {
    const std::size_t S = pb_.S, n = pb_.n;
    const double H = sub.s1 - sub.s0;
    if (!(depth < opt_.hull_max_depth && budget >= 2 && H > 0)) return false;
    // Stop bisecting once the first-order hull step adds no more width than the state already has
    // (further halving would only multiply sub-steps).
    bool negligible = true;
    for (std::size_t i = 0; i < S && negligible; ++i) {
        const double wh = width(len * sub.F[i]);
        if (wh > std::max(width(Th0[i]), 1e-16 * mag(Th0[i]))) negligible = false;
    }
    if (negligible) return false;
    // A start box that already straddles the kink (sliding, or just after a crossing) gains little
    // from deep bisection.
    if (depth >= 3)
        for (std::size_t k = 0; k < n; ++k)
            if (sub.codes0[k] == 2) return false;
    return true;
}

// Hull neuron: sub-steps of [s0, s1] driven by the validated residual Taylor models Gs (defined on
// [0, H]); bisection where a sign is undecided. Th0: state at s0; writes state at s1 and a tube.
bool Engine::hull_substep(const I* Th0, double s0, double s1, const std::vector<TimeTm>& Gs, I* Th1, I* tube, int depth,
                          std::size_t& budget) {
    const std::size_t S = pb_.S;
    if (budget == 0) return false;
    --budget;
    const I len = I::exact(s1) - I::exact(s0);
    Substep sub;
    if (!substep_apriori(Th0, s0, s1, Gs, sub)) return false;
    substep_signs(Th0, sub);
    const bool decided = sub.undecided == 0;
    const std::size_t kx = sub.kx;
    if (!decided && sub.undecided == 1 && opt_.transversal_crossings && sub.codes0[kx] != 2 &&
        sign_code(sub.zdot[kx]) == 1 - sub.codes0[kx]) {
        // transversal crossing of <w, x_kx> = 0 (the sign of zdot points to the other side)
        std::size_t b = budget;
        if (crossing_substep(Th0, s0, s1, Gs, sub, kx, sub.codes0[kx], Th1, tube, depth, b)) {
            budget = b;
            ++crossings_tls_;
            return true;
        }
    }
    if (!decided && bisect_worthwhile(Th0, sub, len, depth, budget)) {
        // Bisect towards the switching time: only the part where the sign is undecided keeps
        // the first-order hull step.
        const double sm = s0 + 0.5 * (s1 - s0);
        if (sm > s0 && sm < s1) {
            std::vector<I> Tm1(S), tube1(S), tube2(S);
            if (hull_substep(Th0, s0, sm, Gs, Tm1.data(), tube1.data(), depth + 1, budget) &&
                hull_substep(Tm1.data(), sm, s1, Gs, Th1, tube2.data(), depth + 1, budget)) {
                for (std::size_t i = 0; i < S; ++i) tube[i] = hull(tube1[i], tube2[i]);
                return true;
            }
            // budget exhausted inside: fall back to the one-shot hull step below
        }
    }
    if (decided) {
        // Smooth on this sub-step: Taylor model of order p of this neuron alone, driven by the
        // residual models shifted to the sub-step: G(s0 + u), u in [0, len].
        std::vector<TimeTm> T;
        TmPowers Ps;
        if (neuron_tm(Th0, s0, s1, sub.codes.data(), Gs, T, Ps)) {
            for (std::size_t i = 0; i < S; ++i) {
                I e = poly_at(T[i].c, p_, len) + T[i].r;
                I tb = tm_range(T[i], Ps);
                I out;
                Th1[i] = intersect(e, sub.Nb[i], out) ? out : e;
                tube[i] = intersect(tb, sub.Nb[i], out) ? out : tb;
            }
            return true;
        }
        // fall through to the first-order step
    }
    // First-order (Clarke hull) step: theta(s1) in Th0 + len * F(Nb, R), valid for every
    // selection of eta in [gamma, 1] (sliding included).
    for (std::size_t i = 0; i < S; ++i) {
        I e = Th0[i] + len * sub.FN[i], out;
        Th1[i] = intersect(e, sub.Nb[i], out) ? out : e;
        tube[i] = sub.Nb[i];
    }
    return true;
}

bool Engine::hull_neuron(std::size_t j, const std::vector<I>& X) {
    const std::size_t S = pb_.S;
    std::size_t budget = static_cast<std::size_t>(std::max(1, opt_.hull_max_substeps));
    const std::size_t b0 = budget;
    std::vector<I> th1(S), tb(S);
    const double H = P_.s.upper();
    // s runs over [0, H], H = upper bound of the step length; the end value at s = delta is
    // obtained by evaluating at the true step length below (sub-steps end exactly at H only
    // when delta is a point; otherwise the caller keeps the first-order enclosure).
    crossings_tls_ = 0;
    const bool ok = hull_substep(&X[j * S], 0.0, H, G_, th1.data(), tb.data(), 0, budget);
    hull_sub_[j] = b0 - budget;
    crossings_[j] = crossings_tls_;
    if (!ok) return false;
    for (std::size_t i = 0; i < S; ++i) {
        I out;
        tube_[j * S + i] = intersect(tb[i], N_[j * S + i], out) ? out : N_[j * S + i];
        end_[j * S + i] = intersect(th1[i], N_[j * S + i], out) ? out : N_[j * S + i];
    }
    return true;
}

// The step length is not exactly representable: first-order enclosure on the a priori box.
void Engine::hull_first_order(std::size_t j, const std::vector<I>& X) {
    const std::size_t S = pb_.S;
    std::vector<I> F(S);
    field_box(pb_, &N_[j * S], R_.data(), F.data());
    for (std::size_t i = 0; i < S; ++i) {
        I e = X[j * S + i] + delta_ * F[i], o;
        end_[j * S + i] = intersect(e, N_[j * S + i], o) ? o : e;
        tube_[j * S + i] = N_[j * S + i];
    }
    hull_sub_[j] = 1;
    crossings_[j] = 0;
}

// Hull neurons: per-neuron sub-steps driven by the validated residual models, scheduled one hull
// neuron at a time (their cost varies by orders of magnitude with the number of sub-steps; blocks
// of 64 left one thread idle). Each writes only its own outputs.
bool Engine::hull_phase(const std::vector<I>& X, StepOutcome& out) {
    std::string hull_reason;
    const auto hull_t0 = std::chrono::steady_clock::now();
    if (out.hull > 0) {
        const std::vector<std::uint32_t>& hl = hull_;
        std::vector<char> okh(hl.size(), 1);
        const bool point_step = is_point(delta_);
        ode::parallel_for(hl.size(), pb_.threads, [&](std::size_t q) {
            const std::size_t j = hl[q];
            if (!point_step)
                hull_first_order(j, X);
            else if (!hull_neuron(j, X))
                okh[q] = 0;
        });
        for (std::size_t q = 0; q < hl.size(); ++q) {
            const std::size_t j = hl[q];
            if (!okh[q] && hull_reason.empty())
                hull_reason = "hull neuron " + pb_.neuron_name(j) + ": no sub-step enclosure";
            out.hull_substeps += hull_sub_[j];
            out.crossings += crossings_[j];
        }
    }
    out.wall_hull = std::chrono::duration<double>(std::chrono::steady_clock::now() - hull_t0).count();
    if (!pb_.all(hull_reason.empty())) {
        out.fail = StepFail::hull_neuron;
        out.reason = hull_reason.empty() ? "a hull neuron of another process: no sub-step enclosure" : hull_reason;
        return false;
    }
    return true;
}

}  // namespace flowcert::nets::flow
