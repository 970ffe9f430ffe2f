// flowcert/proofs/kh/ncf_kkt.hpp -- KKT points of the constrained NCF problem  max N(u) s.t. ||u||_2^2 = 1
// [KH2025, eq. (4)], found non-rigorously and then certified with interval methods.
//
// Finding (NON-RIGOROUS, names say so): multistart projected gradient ascent on the sphere from seeded
// Gaussian starts, then Newton's method in double on F(u, mu) = 0 below.
//
// Certifying (rigorous, one function per statement):
//  * prove_kkt_point: Krawczyk [linalg::krawczyk_around] on the sphere-constrained system
//      F(u, mu) = ( grad N(u) - 2 mu u,  ||u||^2 - 1 ) = 0,
//      F'(u, mu) = [[Hess N(u) - 2 mu I, -2u], [2u^T, 0]],
//    proving existence and uniqueness of a first-order KKT point (u*, lambda* = mu*) in a small box.
//  * tangent_spectrum: a certified enclosure of lambda_max(Q^T Hess N(u*) Q), Q an orthonormal basis of
//    u*^perp, hence of Delta_max = L N(u*) - lambda_max(Q^T Hess N(u*) Q) [spec section 4; KH2025 Lemma 20].
//    Argument (no orthonormal Q is ever formed): for the TRUE u* (||u*|| = 1 exactly, u* in the box U)
//    and the true Hessian H* = Hess N(u*) (in the interval Hessian over U), the matrix
//        B* = (I - u* u*^T) H* (I - u* u*^T) + c u* u*^T
//           = H* - u*(H* u*)^T - (H* u*) u*^T + (u*^T H* u*) u* u*^T + c u* u*^T
//    is a member of the interval matrix B obtained by evaluating the same expression with U and Hess N(U),
//    and in the orthonormal basis [u*, Q] it is diag(c, Q^T H* Q), so eig(B*) = {c} U eig(Q^T H* Q).
//    With the verified symmetric eigenvalue enclosure of the linalg layer (Weyl + Ostrowski), the top
//    enclosure E contains lambda_max(B*) = max(c, lambda_max(Q^T H* Q)); c is chosen below every
//    eigenvalue of H* (c = -(||H||_inf bound) - 1), and if inf E > c then lambda_max(Q^T H* Q) lies in E.
//  * hessian_spectrum: enclosures of lambda_min / lambda_max of Hess N(u*) (for eq. (16) and Lemma 20).
//  * euler_residuals: Lemma 19 identities at the box (u^T grad N - L N, Hess N u - (L-1) grad N) and the
//    Lemma 20 eigen-relation Hess N u - L(L-1) N u, as enclosures (consistency checks).
//  * prove_zero_pattern: Krawczyk in the reduced space (entries in Z fixed to exact 0) plus the full-space
//    condition grad_Z N = 0 (proven when its enclosure is exactly [0, 0]), so a true KKT point with exactly
//    the zero set Z exists; when its box lies in the full-space uniqueness box, it IS the certified point.
//  * lemma17_balance: ||W_l[j,:]||^2 - p ||W_{l+1}[:,j]||^2 over the box [KH2025, Lemma 17].
//  * certify_positive_kkt: the three statements "w* is a Delta-second-order positive KKT point of (4)"
//    (Theorems 4, 10, 18 and their corollaries assume it) from a start point: polish, prove_kkt_point,
//    tangent_spectrum, N(w*).
#pragma once

#include <flowcert/nets.hpp>

#include <Eigen/Core>

#include <cstdint>
#include <string>
#include <vector>

namespace flowcert::proofs::kh {

// ---- non-rigorous search ------------------------------------------------------------------------
struct KktSearchOptions {
    int starts = 16;                 // random unit starts (Gaussian, stream (seed, "kh/ncf_start", k))
    std::uint64_t seed = 1;
    int max_ascent_iterations = 5000;
    int newton_steps = 12;
    double tangent_gradient_tolerance = 1e-9;  // relative to |grad N|; switch to Newton below it
    double duplicate_distance = 1e-6;
    int max_candidates = 8;          // keep the best (largest N) distinct candidates
};

struct KktCandidateNonrigorous {
    Eigen::VectorXd u;      // approximately unit
    double mu = 0;          // Lagrange multiplier approximation (lambda* in the paper)
    double value = 0;       // N(u) in double
    double residual = 0;    // ||F(u, mu)||_inf in double
    int start = -1;         // index of the start it came from (-1: given by the caller)
    int ascent_iterations = 0;
};

// Newton's method in double on F(u, mu) = 0 from u (normalized first); NON-RIGOROUS.
KktCandidateNonrigorous polish_kkt_point_nonrigorous(const nets::Ncf<double>& ncf, const Eigen::VectorXd& u0,
                                                     int newton_steps);
// Multistart projected ascent + Newton; candidates sorted by N (descending), duplicates removed.
std::vector<KktCandidateNonrigorous> find_kkt_points_nonrigorous(const nets::Ncf<double>& ncf,
                                                                 const KktSearchOptions& options);

// ---- rigorous certification ----------------------------------------------------------------------
// Results carry the project-wide flowcert::ProofStatus (disproven: the statement is false).

template <Interval I>
struct KktExistence {
    ProofStatus status = ProofStatus::not_proven;
    std::string reason = "not run";
    linalg::IVector<I> u;             // the unique KKT point u* of the box lies in u (size P)
    I mu;                             // and its multiplier mu* = lambda* in mu
    linalg::IVector<I> uniqueness_box;  // (u, mu) box in which u* is the only zero of F (size P + 1)
    double contraction_bound = 0;
    int iterations = 0;
};
template <Interval I>
KktExistence<I> prove_kkt_point(const nets::Ncf<I>& ncf, const Eigen::VectorXd& u_approx, double mu_approx,
                                const linalg::KrawczykOptions& options = {});

template <Interval I>
struct TangentSpectrum {
    ProofStatus status = ProofStatus::not_proven;
    std::string reason = "not run";
    I lambda_max_tangent;  // lambda_max(Q^T Hess N(u*) Q)
    I lambda_min_tangent;  // lambda_min(Q^T Hess N(u*) Q) (the second smallest eigenvalue of B*: c is the smallest)
    I ncf_value;           // N(u*)
    I delta_max;           // L N(u*) - lambda_max_tangent
    double shift = 0;      // the c of the argument above
};
template <Interval I> TangentSpectrum<I> tangent_spectrum(const nets::Ncf<I>& ncf, const linalg::IVector<I>& u);

template <Interval I>
struct HessianSpectrum {
    ProofStatus status = ProofStatus::not_proven;
    std::string reason = "not run";
    I lambda_min, lambda_max;  // over every symmetric member of Hess N(U)
};
template <Interval I> HessianSpectrum<I> hessian_spectrum(const nets::Ncf<I>& ncf, const linalg::IVector<I>& u);

template <Interval I>
struct EulerResiduals {
    ProofStatus status = ProofStatus::not_proven;  // proven: every enclosure contains 0
    std::string reason = "not run";
    I value_identity;       // u^T grad N(u) - L N(u)                         [Lemma 19]
    I hessian_identity;     // hull over j of (Hess N(u) u - (L-1) grad N(u))_j  [Lemma 19]
    I eigen_identity;       // hull over j of (Hess N(u) u - L(L-1) N(u) u)_j  [Lemma 20 proof]
    I multiplier_identity;  // 2 mu - L N(u)  (lambda* = L N(w*)/2)             [Lemma 20]
};
template <Interval I>
EulerResiduals<I> euler_residuals(const nets::Ncf<I>& ncf, const linalg::IVector<I>& u, const I& mu);

template <Interval I>
struct ZeroPattern {
    ProofStatus status = ProofStatus::not_proven;
    std::string reason = "not run";
    std::vector<int> zero_indices;     // Z
    linalg::IVector<I> u;              // full-size box of the reduced-space KKT point (exact 0 on Z)
    I mu;
    bool full_space_gradient_zero = false;  // grad_Z N = [0, 0] exactly on the reduced box
    bool support_nonzero = false;           // every entry outside Z certainly nonzero
    bool inside_uniqueness_box = false;     // the point is the full-space certified one
};
// Z = { j : |u_approx_j| <= zero_tolerance * max_k |u_approx_k| }.
template <Interval I>
ZeroPattern<I> prove_zero_pattern(const nets::Ncf<I>& ncf, const Eigen::VectorXd& u_approx, double mu_approx,
                                  double zero_tolerance, const linalg::IVector<I>& full_uniqueness_box,
                                  const linalg::KrawczykOptions& options = {});

template <Interval I>
struct BalanceEntry {
    int layer = 0;   // l (1-based): row j of W_l against column j of W_{l+1} (W_{K+1} = v)
    int neuron = 0;  // j (0-based)
    I residual;      // ||W_l[j,:]||^2 - p ||W_{l+1}[:,j]||^2
    bool exact_zero_pair = false;  // both norms are exactly 0
};
// Feed-forward nets only (empty otherwise).
template <Interval I>
std::vector<BalanceEntry<I>> lemma17_balance(const nets::HomogeneousArchitecture& arch, const linalg::IVector<I>& u);

// The closed form of Delta_max for the depth-2 diagonal net H(x; u, v) = sum_k u_k v_k x_k (docs/kh.md, verifier
// kh/ncf_kkt): N = sum_k b_k u_k v_k with b = X ytilde, and at the maximizer Delta_max = |b|_(1) - |b|_(2) (the two
// largest |b_k|). `ordered`: the top two |b_k| are certainly separated from each other and from the rest, so the
// order by midpoints is the true order and `gap` encloses |b|_(1) - |b|_(2).
template <Interval I>
struct DiagonalGap {
    I gap;
    bool ordered = false;
};
template <Interval I> DiagonalGap<I> diagonal_gap_closed_form(const nets::Mat<I>& X, const nets::Vec<I>& ytilde);

// The hypothesis of Theorems 4, 10 and 18 [KH2025, Sec. 2]: w* is a first-order KKT point of (4) (unique in
// its certified box), N(w*) > 0 and Delta_max(w*) > 0. The candidate is Newton-polished (non-rigorous) from
// `start`; the spectrum is computed only when the point is proven.
template <Interval I>
struct PositiveKkt {
    KktCandidateNonrigorous candidate;
    KktExistence<I> existence;
    TangentSpectrum<I> spectrum;
    I ncf_value;  // N(w*): from the spectrum when it is enclosed, else the NCF at the KKT box
    bool exists() const { return existence.status == ProofStatus::proven; }
    bool spectrum_enclosed() const { return spectrum.status == ProofStatus::proven; }
    // every statement proven: the KKT point exists, N(w*) > 0 and Delta_max > 0
    bool proven() const {
        return exists() && spectrum_enclosed() && certainly_positive(ncf_value) && certainly_positive(spectrum.delta_max);
    }
};
template <Interval I>
PositiveKkt<I> certify_positive_kkt(const nets::Ncf<I>& ncf, const nets::Ncf<double>& ncf_d, const Eigen::VectorXd& start);

#define FLOWCERT_PROOFS_KH_NCF_KKT_DECLARE(I, EXTERN)                                                                  \
    EXTERN template KktExistence<I> prove_kkt_point<I>(const nets::Ncf<I>&, const Eigen::VectorXd&, double,         \
                                                       const linalg::KrawczykOptions&);                       \
    EXTERN template TangentSpectrum<I> tangent_spectrum<I>(const nets::Ncf<I>&, const linalg::IVector<I>&);         \
    EXTERN template HessianSpectrum<I> hessian_spectrum<I>(const nets::Ncf<I>&, const linalg::IVector<I>&);         \
    EXTERN template EulerResiduals<I> euler_residuals<I>(const nets::Ncf<I>&, const linalg::IVector<I>&, const I&); \
    EXTERN template ZeroPattern<I> prove_zero_pattern<I>(const nets::Ncf<I>&, const Eigen::VectorXd&, double, double, \
                                                         const linalg::IVector<I>&, const linalg::KrawczykOptions&); \
    EXTERN template std::vector<BalanceEntry<I>> lemma17_balance<I>(const nets::HomogeneousArchitecture&,          \
                                                                    const linalg::IVector<I>&);                      \
    EXTERN template DiagonalGap<I> diagonal_gap_closed_form<I>(const nets::Mat<I>&, const nets::Vec<I>&);        \
    EXTERN template PositiveKkt<I> certify_positive_kkt<I>(const nets::Ncf<I>&, const nets::Ncf<double>&,         \
                                                           const Eigen::VectorXd&);

FLOWCERT_PROOFS_KH_NCF_KKT_DECLARE(IntervalD, extern)
FLOWCERT_PROOFS_KH_NCF_KKT_DECLARE(IntervalMp, extern)

// ---- quantities of the kh/ncf_kkt and kh/theorem10_escape reports (moved from the verifier bodies, issue 15) ----
// L(L-1) N(u*): the eigenvalue of Hess N(u*) along u* (Hess N(u*) u* = L(L-1) N(u*) u* [KH2025, proof of Lemma 20]).
template <Interval I> I radial_hessian_eigenvalue(const I& N, int L);
// The exponent of the distance bounds of Theorems 4 and 10 [KH2025, Thm 4, Thm 10, eq. (8)]:
// kappa = Delta / (Delta + 2 L^2 N(w*)).
template <Interval I> I distance_exponent(const I& Delta, const I& N, int L);
// The hull of the Lemma 17 balance residuals [KH2025, Lemma 17] (each contains 0 at a positive KKT point of (10));
// `entries` must not be empty.
template <Interval I> I balance_residual_hull(const std::vector<BalanceEntry<I>>& entries);

#define FLOWCERT_PROOFS_KH_NCF_KKT_REPORT_DECLARE(I, EXTERN)                                   \
    EXTERN template I radial_hessian_eigenvalue<I>(const I&, int);                          \
    EXTERN template I distance_exponent<I>(const I&, const I&, int);                         \
    EXTERN template I balance_residual_hull<I>(const std::vector<BalanceEntry<I>>&);
FLOWCERT_PROOFS_KH_NCF_KKT_REPORT_DECLARE(IntervalD, extern)
FLOWCERT_PROOFS_KH_NCF_KKT_REPORT_DECLARE(IntervalMp, extern)

}  // namespace flowcert::proofs::kh
