// flowcert/nets/covariance.hpp -- the diagonal data covariances of the rh reconstruction
// ([LWTM2026] v2 abstract: Gaussian data with covariance spectrum lambda; docs/rh.md#covariance).
//
// RECONSTRUCTED ([DERIVED]): the paper's covariance assumptions are NOT FOUND. A covariance is a diagonal
// Sigma = diag(lambda_1, ..., lambda_d) given by the double scales s_k (lambda_k := s_k^2, a real number):
//   isotropic   s_k = 1                                    (lambda_k = 1)
//   power_law   s_k = RN(k^(-alpha/2)), alpha = RN(alpha)  (lambda_k ~ k^-alpha)
//   spike       s_1 = RN(sqrt(RN(spike))), s_k = 1 (k >= 2) (one strong direction)
//   diagonal    s_k = RN(sqrt(RN(lambda_k))) from d given numbers
// RN = round to nearest double, computed correctly rounded by MPFR (so s_k is the same double everywhere).
// The data are then the doubles x_ik = fl(s_k g_ik) (one IEEE product, correctly rounded), g_ik the
// stream Gaussians: exact data, whose law is N(0, Sigma) up to that rounding.
#pragma once

#if !defined(FLOWCERT_NETS_INTERNAL)
#error "include <flowcert/nets.hpp>, not the internal headers"
#endif

#include <flowcert/interval.hpp>

#include <string>
#include <vector>

namespace flowcert::nets::rh {

struct CovarianceSpec {
    std::string kind = "isotropic";      // isotropic | power_law | spike | diagonal
    std::string alpha;                   // power_law: the decimal alpha (0 <= alpha <= 8)
    std::string spike;                   // spike: the decimal lambda_1 > 0
    std::vector<std::string> diagonal;   // diagonal: d decimals lambda_k > 0
};

struct Covariance {
    bool isotropic = true;
    std::vector<double> scale;  // s_k, k = 1..d (empty when isotropic: s_k = 1)
    IntervalD trace;            // ||lambda||_1 = tr Sigma = sum_k s_k^2 (enclosure; = d exactly when isotropic)
    IntervalD trace_sq;         // tr Sigma^2 = sum_k s_k^4
    IntervalD lambda_max;       // max_k s_k^2
    // effective ranks r(Sigma) = tr Sigma / lambda_max and R(Sigma) = (tr Sigma)^2 / tr Sigma^2
    IntervalD rank_r() const { return trace / lambda_max; }
    IntervalD rank_R() const { return sqr(trace) / trace_sq; }
};

// Throws std::invalid_argument on a bad spec (unknown kind, missing or malformed parameter, alpha out of
// [0, 8], a lambda <= 0, a diagonal with other than d entries).
Covariance make_covariance(const CovarianceSpec& spec, long d);

}  // namespace flowcert::nets::rh
