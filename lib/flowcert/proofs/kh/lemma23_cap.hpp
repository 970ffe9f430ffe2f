// flowcert/proofs/kh/lemma23_cap.hpp -- [KH2025, Lemma 23] on an explicit cap: for a certified
// Delta-second-order positive KKT point w* of (4) and an explicit gamma in (0, 1), every unit w with
// w*^T w >= 1 - gamma satisfies
//     (28)  w*^T grad N(w) - L N(w) w*^T w - (Delta/2) |w - w*|^2 >= 0,
//     (29)  N(w) - N(w*) + (Delta/4) |w - w*|^2 <= 0,
// and N(w) > 0. These are exactly what the proofs of Lemmas 24 (L = 2) and 25 (L > 2) use on the cap
// (eqs. (32), (34)); with them, a certified NCF tube from w0 that reaches the cap proves w0 in S(w*).
//
// Argument (docs/kh.md#lemma-23-on-an-explicit-cap; no orthonormal basis is formed). Write a unit w as
// w = c w* + s b, b a unit vector orthogonal to w*, c in [1 - gamma, 1), s^2 = (1 - c)(1 + c). Every point
// x = c w* + theta s b (theta in [0, 1]) has |x - w*|^2 <= 2(1 - c), so it lies in the box B = w* + [-r, r]^P,
// r = sqrt(2 (1 - c_lo)), and every average of Hess N over such points lies in the interval Hessian H(B).
// By homogeneity grad N(c w*) = c^{L-1} L N* w* (orthogonal to b) and, by Euler's identity
// Hess N(x) x = (L - 1) grad N(x) at x = c w* + theta s b,
//     N(w)            = c^L N* + (1/2) s^2 mu2,
//     w*^T grad N(w)  = c^{L-1} L N* + (s^2 / c) J,   J = int_0^1 theta ((L-1) nubar(theta) - nu(theta)) dtheta,
// where mu2, nu, nubar are Rayleigh quotients b^T M b of matrices M in H(B). Each lies within omega >=
// lambda_max(width matrix of H(B)) (Collatz-Wielandt bound) of nu0 = b^T Hess N(w*) b <= lambda_max(Q^T Hess N(w*) Q) =: mu*, and
// nu0 >= lambda_min(Q^T Hess N(w*) Q). Dividing (28) and (29) by (1 - c) > 0 they become
//     G(c) = (1 + c) [L N* c^{L-1} + nu0 k(c) + e1/c - (L/2) c e2] - Delta >= 0,   k(c) = (L - 2 - L c^2)/(2c),
//     F(c) = -N* (1 + c + ... + c^{L-1}) + (1/2)(1 + c) mu2 + Delta/2 <= 0,
// with |e1| <= L omega / 2, |e2| <= omega. At c = 1 both have the margin 2 Delta_max - Delta and
// Delta_max - Delta/2 of the paper's proof. The cap [1 - gamma, 1] is cut into `pieces` intervals of c,
// each with its own box B (smaller near c = 1), and the bounds are evaluated in interval arithmetic.
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/linalg.hpp>
#include <flowcert/nets.hpp>

#include <string>

namespace flowcert::proofs::kh {

template <Interval I>
struct CapCertificate {
    ProofStatus status = ProofStatus::not_run;
    std::string reason = "not run";
    double worst_28 = 0;     // min over the pieces of the lower bound of G(c) (>= 0: (28) holds)
    double worst_29 = 0;     // max over the pieces of the upper bound of F(c) (<= 0: (29) holds)
    double worst_n = 0;      // min over the pieces of the lower bound of N on the cap (> 0: N > 0)
    int failing_piece = -1;  // the first piece where a bound failed
};

// `wstar`: a box containing the KKT point w* (|w*| = 1 exactly); `Nstar` encloses N(w*); `lambda_max_tangent`
// and `lambda_min_tangent` enclose lambda_max / lambda_min of Q^T Hess N(w*) Q (tangent_spectrum, ncf_kkt.hpp); Delta in (0, Delta_max]; gamma in (0, 1).
// Proven when (28), (29) and N > 0 hold on the whole cap; not proven otherwise (a sufficient condition: a
// smaller gamma or more pieces may succeed).
template <Interval I>
CapCertificate<I> lemma23_cap(const nets::Ncf<I>& ncf, const linalg::IVector<I>& wstar, const I& Nstar,
                              const I& lambda_min_tangent, const I& lambda_max_tangent, const I& Delta, const I& gamma,
                              int pieces = 32);

// w*^T w / |w| over a box of w (for the test "the NCF tube from w0 is in the cap").
template <Interval I> I cosine_to(const linalg::IVector<I>& wstar, const std::vector<I>& w);

extern template CapCertificate<IntervalD> lemma23_cap<IntervalD>(const nets::Ncf<IntervalD>&, const linalg::IVectorD&,
                                                                 const IntervalD&, const IntervalD&, const IntervalD&,
                                                                 const IntervalD&, const IntervalD&, int);
extern template CapCertificate<IntervalMp> lemma23_cap<IntervalMp>(const nets::Ncf<IntervalMp>&,
                                                                   const linalg::IVector<IntervalMp>&, const IntervalMp&,
                                                                   const IntervalMp&, const IntervalMp&, const IntervalMp&,
                                                                   const IntervalMp&, int);
extern template IntervalD cosine_to<IntervalD>(const linalg::IVectorD&, const std::vector<IntervalD>&);
extern template IntervalMp cosine_to<IntervalMp>(const linalg::IVector<IntervalMp>&, const std::vector<IntervalMp>&);

}  // namespace flowcert::proofs::kh
