// flowcert/proofs/kh/theorem10_escape.hpp -- the proof steps of kh/theorem10_escape [KH2025, Thm 10, Lemma 25] on
// deep diagonal nets H(x; u) = sum_k (prod_f u^(f)_k) x_k of depth D = L >= 3 (parameters u^(f)_k at index f d + k):
// the one-block support of w*, the NCF tube from w0 to the blow-up scale, the blow-up-time brackets of every
// block (the NCF of a diagonal net is block-decoupled), the stable-set relation between them, and the sup
// distance between the loss-flow tube and the limiting path p(t) on the window. Arguments in docs/kh.md,
// section "Verifier kh/theorem10_escape". IntervalD only; nothing here knows a report.
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/linalg.hpp>
#include <flowcert/ode.hpp>
#include <flowcert/proofs/kh/flow_tools.hpp>
#include <flowcert/proofs/kh/ncf_kkt.hpp>
#include <flowcert/proofs/kh/window_times.hpp>  // window_times: the output times of the window around s
#include <flowcert/taylor.hpp>

#include <string>
#include <vector>

namespace flowcert::proofs::kh {

// w* is supported on one balanced block [KH2025, Lemma 16; docs/kh.md#verifier-khtheorem10_escape]: the certified
// zero pattern is the certified KKT point (inside its uniqueness box), has exactly P - D zeros, and the D factors
// of one block k* are certainly nonzero. A step of the construction of p(t) (the ray R+ w*), not a hypothesis.
OneBlockSupport one_block_support(const ZeroPattern<IntervalD>& zp, int d, int D);

// The NCF tube from w0 until ||phi(t1, w0)|| >= R: horizons grown by 1.5 from `horizon` (a non-rigorous guess
// near 1/(L(L-2)N(w0))); a run that ends on a failure near blow-up is bisected down to a run that ends cleanly.
ode::Result<IntervalD> ncf_tube_to_radius(const taylor::VectorField& field, const std::vector<IntervalD>& params,
                                          const std::vector<IntervalD>& w0, const IntervalD& R, double horizon,
                                          const ode::Options& opt);
// The step "NCF flow from w0 enclosed up to blow-up scale" on that tube: proven iff the run ended cleanly with
// ||phi(t1)|| >= R certainly; the reason says where it ended.
ProofResult ncf_tube_reaches(const ode::Result<IntervalD>& run, const IntervalD& R);

// Blow-up time bracket of block k from the NCF state at t1 [DERIVED, docs/kh.md#verifier-khtheorem10_escape]:
// N_k(u) = b_k prod_f u^(f)_k (b = X ytilde), r_k' = L r_k^{L-1} N_k(z_k), z_k = u_k / r_k, N_k(z_k(t)) is
// nondecreasing with sup over the sphere |b_k| D^{-D/2} (AM-GM), hence
//   T_k in t1 + [1/(L(L-2) sup N_k r_k^{L-2}), 1/(L(L-2) N_k(z_k(t1)) r_k^{L-2})].
struct BlockBlowup {
    IntervalD r;          // r_k(t1) = ||u_k(t1)||
    IntervalD N_dir;      // N_k(z_k(t1)) (when r_k certainly > 0)
    IntervalD sup_N;      // sup of N_k on the sphere
    IntervalD lo, hi;     // ends of the bracket (lo: also when r_k may be 0; hi only with has_hi)
    bool r_positive = false;  // r_k certainly > 0
    bool has_hi = false;      // N_k(z_k(t1)) certainly > 0: the block certainly blows up by hi
    IntervalD bracket() const;  // [lower(lo), upper(hi)] (upper end +inf without has_hi)
};
std::vector<BlockBlowup> block_blowup_brackets(const std::vector<IntervalD>& state, const IntervalD& t1,
                                               const nets::Vec<IntervalD>& b, int d, int D, int L);

// Block k* blows up inside the orthant of w*'s block: it certainly blows up (has_hi), and every factor of the
// block at t1 is certainly nonzero with the sign of w*'s factor (then b_k* prod > 0 keeps the block in its orthant
// and its direction tends to the balanced KKT point of that orthant: w*'s block).
bool blows_up_in_orthant(const std::vector<BlockBlowup>& blocks, const std::vector<IntervalD>& state,
                         const linalg::IVector<IntervalD>& wstar, int kstar, int d, int D);

// sup_{|t| <= T~} ||psi(t + s) - p(t)|| from the loss-flow run with outputs at the exact times `outs` (tau_j),
// t_j = tau_j - s and rho_j = rho_p(t_j) (p(t_j) = rho_j w*): at the grid times e_j = psi(tau_j) - p(t_j) is
// enclosed directly; between t_j and t_{j+1}, e' = f(psi) - f(p), so ||e(t)|| <= ||e(t_j)|| exp(l h) with
// l >= ||Df||_2 on a convex box containing both paths (hull of the tube pieces and of p's monotone block values).
// lo: a lower bound of the sup from the grid times certainly inside the window; hi: an upper bound.
struct WindowSup {
    double lo = 0, hi = 0;
};
WindowSup window_sup_distance(const ode::Result<IntervalD>& run, const std::vector<IntervalD>& outs,
                              const std::vector<IntervalD>& tj, const std::vector<IntervalD>& rho,
                              const linalg::IVector<IntervalD>& wstar, const IntervalD& window,
                              taylor::TaylorEvaluator<IntervalD>& jacobian);

// One point of the Theorem 10 delta sweep [KH2025, Thm 10, eq. (8)] from x0 = delta w0:
//   escape: T_esc(delta) = inf{t : ||psi(t, delta w0)|| >= r} bracketed from the loss-flow tube (refined 3 times
//           with 32 outputs) on a horizon near T(w0)/delta^(L-2) (non-rigorous guess, grown when not reached);
//   window: the exhibited shift s = mid(T_esc) - mid(t_p(r)) (an exact double), the output times of
//           window_times(s, T~, grid), the loss-flow run to them, p(t_j) = rho_p(t_j) w* on the ray, and
//           window_sup_distance. `stage` says where the point stopped (done: every quantity is enclosed).
struct EscapeWindowSetting {
    const taylor::VectorField* loss_field = nullptr;
    std::vector<IntervalD> loss_params, w0;  // w0: the unit initial direction
    int L = 3;
    IntervalD blowup_time;                   // T(w0), the NCF blow-up time bracket
    IntervalD escape_radius, window;         // r and T~
    int grid = 2;
    const Ray<IntervalD>* ray = nullptr;     // p(t) = rho_p(t) w*
    IntervalD ray_time_at_radius;            // t_p(r)
    linalg::IVector<IntervalD> wstar;
    ode::Options options;
};
struct EscapeWindowPoint {
    enum class Stage { escape, window, integration, path, done };
    Stage stage = Stage::escape;
    EscapeBracket escape;
    std::string integration_reason;
    double shift = 0;
    WindowSup sup;
    long steps = 0;
    std::vector<double> t;                   // t_j = tau_j - s (rounded; plot abscissae only)
    std::vector<IntervalD> psi_norms, rho;   // ||psi(tau_j)|| and rho_p(t_j), with keep_path
};
EscapeWindowPoint escape_window_point(const EscapeWindowSetting& setting, const IntervalD& delta, bool keep_path);

// N(w0) = ytilde^T H(X; w0) at the unit initial direction w0.
IntervalD ncf_value_at(const nets::Ncf<IntervalD>& ncf, const std::vector<IntervalD>& w0);
// A non-rigorous horizon guess for the NCF tube, near 1/(L(L-2)N(w0)) (only chooses how far to integrate).
double ncf_horizon_guess(const IntervalD& Nw0, int L);

// The ends of Lemma 25's window for the NCF blow-up time T(w0) [KH2025, Lemma 25; docs/kh.md#verifier-khtheorem10_escape]:
// 1/(L(L-2)N(w*)) < T(w0) < 1/(L(L-2)N(w0)) for every w0 in S(w*) with N(w0) > 0.
struct Lemma25Window {
    IntervalD lower, upper;  // 1/(L(L-2)N(w*)), 1/(L(L-2)N(w0))
};
Lemma25Window lemma25_window(const IntervalD& Nstar, const IntervalD& Nw0, int L);
// T(w0) from the blow-up bracket of block k* (w0 in S(w*)): the hull of the bracket's ends.
IntervalD blowup_time(const BlockBlowup& kstar_block);

// The escape time against its leading term [KH2025, Thm 10 shift; Lemma 25]: for T_esc(delta) in [lo, hi],
// delta^(L-2) T_esc, its difference to T(w0) and the absolute value of it, and the bound C delta^(L-2) of
// |delta^(L-2) T_esc - T(w0)|.
struct EscapeScaling {
    IntervalD scaled, diff, distance, bound;
};
EscapeScaling escape_scaling(const IntervalD& delta, double lo, double hi, int L, const IntervalD& Tw0, const IntervalD& C);

// The exhibited constant of the Theorem 10 bound from the first delta [KH2025, Thm 10, eq. (8)]:
// C~ = dist(delta_1) / delta_1^kappa rounded up (an exact double), and the bound C~ delta^kappa at another delta.
double exhibited_constant(const IntervalD& distance, const IntervalD& delta, const IntervalD& kappa);
IntervalD power_law_bound(double C, const IntervalD& delta, const IntervalD& kappa);

}  // namespace flowcert::proofs::kh
