// flowcert/proofs/rh/tail.hpp -- the closed-form tail certificate [docs/rh.md#tail]: once GD's activation
// pattern P is fixed from step K on, with U the samples active in some neuron, H = sum_p E_p G E_p on U and
// r_K = r(K) on U,
//   r_U(k) = (I - eta H)^{k-K} r_K,  beta_p(k) = beta_p(inf) + s_p B_p r_U(k),  B_p = G_{:,S_p} (H^{-1})_{S_p,:},
//   beta_p(inf) = beta_p(K) - s_p G E_p H^{-1} r_K,  a_p(inf) = a_p(K) - s_p E_p H^{-1} r_K,
// and ||r_U(k)||_2 <= ||r_K||_2 when rho = ||I - eta H||_2 <= 1 (H symmetric). So the pattern never changes
// again if rho < 1 and every signed margin s (beta_p,i(inf) -+ ||(B_p)_i||_2 ||r_K||_2) is > 0
// (s = +1 where P is active, -1 where inactive).
#pragma once

#include <flowcert/nets.hpp>

#include <string>
#include <vector>

namespace flowcert::proofs::rh {

using nets::rh::Instance;
using nets::rh::IVec;
using nets::rh::Pattern;

// What the tail certificate needs of one pattern (computed once per pattern).
struct TailData {
    std::vector<int> U;             // samples active in some neuron
    linalg::IMatrixD H;             // |U| x |U|
    bool rho_known = false;         // the eigenvalue bounds of H were certified
    IntervalD lambda;               // contains every eigenvalue of every symmetric member of H
    IntervalD rho = IntervalD::entire();  // max |1 - eta lambda| over that range
    ProofResult ready;              // proven: rho < 1, H^{-1} and the row norms below are enclosed
    linalg::IMatrixD Hinv;          // encloses H^{-1}
    std::vector<std::vector<double>> bnorm;  // [p][i]: upper bound of ||(B_p)_i||_2
};
TailData prepare_tail(const Instance& inst, const Pattern& P);

// One attempt of the certificate at step K with the current (a, beta) and residual r.
struct TailAttempt {
    bool proven = false;            // every signed margin > 0
    IntervalD margin = IntervalD::entire();  // the smallest signed margin (its enclosure)
    int worst_neuron = -1, worst_sample = -1;
    IntervalD r_norm;               // ||r_K||_2 on U
    std::vector<IVec> a_inf, beta_inf;  // the limit (valid when proven)
};
TailAttempt attempt_tail(const Instance& inst, const Pattern& P, const TailData& td, const IVec& r,
                         const std::vector<IVec>& a, const std::vector<IVec>& beta);

}  // namespace flowcert::proofs::rh
