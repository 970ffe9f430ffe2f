// flowcert/proofs/kh/first_saddle.hpp -- the proof steps of kh/first_saddle [KH2025, Cor. 5/6/11/12] on weighted
// squares and diagonal nets beside the ray of flow_tools.hpp: the single-block support of w*, the stable set of the
// decoupled NCF flow (closed form), and the stationary point p* = lim p(t) of the loss (Krawczyk, with the
// reduced-space fallback for degenerate points). Arguments in docs/kh.md, "Verifier kh/first_saddle". IntervalD
// only; nothing here knows a report.
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/linalg.hpp>
#include <flowcert/nets.hpp>
#include <flowcert/proofs/kh/flow_tools.hpp>
#include <flowcert/proofs/kh/ncf_kkt.hpp>
#include <flowcert/taylor.hpp>

#include <string>
#include <vector>

namespace flowcert::proofs::kh {

// w* has one coordinate / one block [KH2025, Lemma 16; docs/kh.md#verifier-khfirst_saddle]: the certified zero
// pattern is the certified KKT point (inside its uniqueness box) with exactly P - block zeros, none of them in the
// block k* of its first nonzero entry (block = D for diagonal nets of depth D, 1 for weighted squares).
OneBlockSupport single_block_support(const ZeroPattern<IntervalD>& zp, int P, int d, int block);

// Stable set S(w*) [KH2025, Def. 2] for the decoupled NCF flows of the two families (closed form, [DERIVED]):
//  weighted squares: u_k(t) = u_k(0) exp(2 n_k t), n_k = s_k (X ytilde)_k = N(e_k); u/||u|| -> sign(u_k*(0)) e_k*
//    iff u_k*(0) != 0 and n_k* > n_j for every j != k* with u_j(0) != 0.
//  diagonal (depth D >= 3) with balanced blocks u^(f)_k(0) = a_k for all f: a' = b_k a^{D-1}, b = X ytilde; block k
//    blows up iff b_k a_k^{D-1} a_k > 0 (it moves away from 0), at T_k = 1 / ((D-2) |b_k| |a_k|^{D-2}); the direction
//    converges to sign(a_k*) (1,..,1)/sqrt(D) on block k* iff k* blows up first (T_k* < T_j certainly).
// Proven: phi(t, w0)/||phi|| -> w*; disproven: it converges to another point (a rigorous witness that w0 is not
// in S(w*)); not proven otherwise. `wstar` has exact zeros off its support (the certified zero pattern).
// `b` = X ytilde; `w0txt` the exact decimal entries of w0 (a block is balanced when its entries are the same text).
ProofResult decoupled_stable_set(const nets::HomogeneousArchitecture& arch, const nets::Vec<IntervalD>& b,
                                 const std::vector<std::string>& w0txt, const linalg::IVector<IntervalD>& wstar);

// p* = lim p(t) = rho* w* is a stationary point of the square loss [KH2025, Cor. 5/11]: Krawczyk on grad L = 0
// around the midpoint of `pstar`; when that fails (degenerate points, L > 2: the Hessian vanishes on the zero
// blocks), Krawczyk in the support S of w* with w_Z fixed to exact 0 plus grad_Z L = [0, 0] exactly on the reduced
// box (as prove_zero_pattern); for diagonal nets the square system (dL/du^(0), u^(f)^2 - u^(0)^2) on the block
// (the conservation laws keep the flow from the ray balanced). `kr` holds the box and the uniqueness box (full
// size) when `ok`; `reason` says which argument was used.
struct LossStationaryPoint {
    bool ok = false;
    std::string reason;
    linalg::KrawczykResult<IntervalD> kr;
};
LossStationaryPoint prove_loss_stationary_point(const nets::HomogeneousModel<IntervalD>& model, const nets::Vec<IntervalD>& y,
                                                const nets::SquareLossNormalization& norm,
                                                const std::vector<IntervalD>& pstar, const linalg::IVector<IntervalD>& wstar);

// The order of the stationary point p* (in the Krawczyk box `box`), beyond the paper (it says "stationary point"):
// the verified eigenvalues of Hess L over the box, counted certainly negative / certainly positive / containing 0;
// when the Hessian is degenerate with no negative eigenvalue, a certified descent direction among the balanced zero
// blocks k != kstar (entries t in {0.1, -0.1, 0.01, -0.01} on every factor of block k): L(p* + t v) < L(p*)
// certainly shows p* is not a local minimum. `saddle()`: a certainly negative eigenvalue or a descent direction.
struct StationaryOrder {
    IntervalD loss;                    // L over the box
    bool spectrum = false;             // eigenvalues enclosed
    std::string spectrum_reason;
    std::vector<IntervalD> eigenvalues;
    int negative = 0, positive = 0, zero = 0;
    std::string descent;               // the certified descent direction found (empty: none searched or found)
    bool saddle() const { return spectrum && (negative > 0 || !descent.empty()); }
    bool strict_minimum() const { return spectrum && positive == static_cast<int>(eigenvalues.size()); }
};
StationaryOrder stationary_order(const nets::HomogeneousModel<IntervalD>& model, const nets::Vec<IntervalD>& y,
                                 const nets::SquareLossNormalization& norm, const linalg::IVector<IntervalD>& box,
                                 const std::vector<IntervalD>& pstar, int kstar, int block);

// One point of the corollaries' delta sweep [KH2025, Cor. 5/6/11/12] from x0 = delta w0: the escape bracket of
// T_esc = inf{t : ||psi(t)|| >= r} (refined once with 32 outputs; the horizon starts at the non-rigorous guess
// ln(1/(delta c0))/(2 N*) for L = 2, 1/(L(L-2) N* (delta c0)^(L-2)) for L > 2, c0 = |w0_k*| sqrt(block), and
// grows when the escape is not reached), then the tube to the exhibited T_delta = mid(T_esc) + tau.
struct SaddleSweepPoint {
    EscapeBracket escape;
    bool ok = false;                 // the tube reached T_delta
    std::string why;                 // why not
    double t_escape = 0, t_delta = 0;
    ode::Result<IntervalD> run;      // the run to T_delta (with tubes)
};
SaddleSweepPoint saddle_sweep_point(const taylor::VectorField& field, const std::vector<IntervalD>& params,
                                    const std::vector<IntervalD>& w0, const IntervalD& delta, int L, const IntervalD& Nstar,
                                    double c0, const IntervalD& escape_radius, double tau, const ode::Options& opt);

// Example 1 after the saddle [KH2025, Example 1]: H = w1^2 x1 + w2^2 x2, data (1, 0) -> 4, (0, 1) -> 1, loss
// sum (p - y)^2, w0 proportional to (1, 1). At t = 5 ln(kappa/delta)/16 the closed form gives, with
// x = (8 - delta^2) delta^8 / kappa^10 (e^{-32 t} = (delta/kappa)^10 exactly),
//   2 - w1 = 2 x / (sqrt(1 + x)(1 + sqrt(1 + x)))  (no cancellation),   w2 = delta / sqrt(delta^2 + (2 - delta^2) e^{-8t}),
// e^{-8t} = (delta/kappa)^{5/2}; ratio = (2 - w1) kappa^10 / delta^8 (-> 8: 2 - w1 = Theta(delta^8)).
struct Example1PostSaddle {
    IntervalMp time, gap, ratio, w2;  // w2: closed form only
    bool ok = true;                    // the integration reached `time` (integrated form only)
    std::string reason;
    long steps = 0;
};
Example1PostSaddle example1_post_saddle_closed_form(const IntervalMp& delta, const IntervalMp& kappa, const Precision& pr);
// The same 2 - w1 from the rigorous integrator (IntervalMp, Taylor order 24) on the case's loss-flow field from
// delta w0 / ||w0|| (`w0` the exact decimal entries) to t = 5 ln(kappa/delta)/16.
Example1PostSaddle example1_post_saddle_integrated(const taylor::VectorField& field, const std::vector<IntervalMp>& params,
                                                   const std::vector<std::string>& w0, const IntervalMp& delta,
                                                   const IntervalMp& kappa, long bits);

// ---- the limit of p(t) and the corollaries' quantities (moved from the verifier body, issue 15) --------------

// ytilde = -l'(0, y) = y/2 for the logistic loss l(p, y) = ln(1 + exp(-p y)) [KH2025, App. E] (the square losses:
// nets::ncf_weights).
nets::Vec<IntervalD> logistic_ncf_weights(const nets::Vec<IntervalD>& y);

// w0 / ||w0|| in intervals, from the exact decimal entries of w0 (kh/first_saddle, kh/theorem10_escape).
std::vector<IntervalD> unit_direction(const std::vector<std::string>& w0txt);

// grad L(w) = -f(w) for the loss-flow field f = -grad L (homogeneous_loss_flow_field / logistic_loss_flow_field)
// with its parameters; throws std::runtime_error when the field cannot be evaluated at w.
std::vector<IntervalD> loss_gradient(const taylor::VectorField& field, const std::vector<IntervalD>& params,
                                     const std::vector<IntervalD>& w);

// Bounded case [KH2025, Cor. 5/11; docs/kh.md#verifier-khfirst_saddle]: on the ray w = rho w* the flow is
// rho' = L rho^{L-1}(N* - S rho^L) (ray_of), bounded iff S > 0; then p* = lim p(t) = rho* w*. Krawczyk on grad L = 0
// around p* (prove_loss_stationary_point) and p*'s enclosure inside the uniqueness box make p* that unique zero;
// then its order (stationary_order). The stages stop at the first one not proven: `bounded` (S > 0), `stationary.ok`,
// `inside`; `order` is computed only when all three hold.
struct BoundedLimit {
    Ray<IntervalD> ray;
    bool bounded = false;            // S certainly > 0
    std::vector<IntervalD> pstar;    // rho* w* (when bounded)
    LossStationaryPoint stationary;  // when bounded
    bool inside = false;             // the enclosure of p* lies in the uniqueness box
    StationaryOrder order;           // when inside
};
BoundedLimit bounded_limit(const nets::HomogeneousModel<IntervalD>& model, const nets::Vec<IntervalD>& y,
                           const nets::SquareLossNormalization& norm, const linalg::IVector<IntervalD>& wstar,
                           const IntervalD& Nstar, int L, int kstar, int block);

// Unbounded case, logistic loss [KH2025, Cor. 6/12; docs/kh.md#verifier-khfirst_saddle]: on the ray w = rho w*,
// H(x_i; rho w*) = rho^L h_i and rho' = L rho^{L-1} sum_i a_i/(1 + exp(a_i rho^L)), a_i = y_i h_i. Proven when every
// a_i is certainly >= 0 and some certainly > 0: then rho -> inf along w* with grad L(p(t)) -> 0 and
// grad L(alpha w*) -> 0 (a bounded increasing solution would converge to a zero of the field).
bool logistic_ray_unbounded(const nets::HomogeneousModel<IntervalD>& model, const nets::Vec<IntervalD>& y,
                            const linalg::IVector<IntervalD>& wstar);
// ||grad L(alpha w*)||: one numeric instance of grad L(alpha p*) -> 0 (the unbounded case's hypothesis).
IntervalD gradient_norm_on_ray(const taylor::VectorField& field, const std::vector<IntervalD>& params,
                               const linalg::IVector<IntervalD>& wstar, const IntervalD& alpha);

// The bounds of the unbounded corollaries for a tolerance epsilon [KH2025, Cor. 6/12]: ||psi(T_delta)|| >= 1/(2 eps)
// and cos(psi(T_delta), p*) >= 1 - eps; 1/(2 eps) is also the default alpha of the check ||grad L(alpha p*)|| <= eps.
struct UnboundedBounds {
    IntervalD norm_min, cosine_min;  // 1/(2 eps), 1 - eps
};
UnboundedBounds unbounded_bounds(const IntervalD& eps);

// The corollaries' quantities at psi(T_delta) = xT [KH2025, Cor. 5/6/11/12]: ||xT - p*||, ||xT||,
// cos = xT^T p* / ||xT|| (p* a unit vector in the unbounded case) and ||grad L(xT)||.
struct AtTdelta {
    IntervalD distance, norm, cosine, gradient;
};
AtTdelta at_t_delta(const taylor::VectorField& field, const std::vector<IntervalD>& params, const std::vector<IntervalD>& xT,
                    const std::vector<IntervalD>& pstar);

}  // namespace flowcert::proofs::kh
