// flowcert/cert/statistics.hpp -- statistical (NOT rigorous) summaries reported beside certificates: the
// Clopper-Pearson interval of a frequency k / N over seeds (docs/rh.md#sweeps). A frequency over seeds is evidence
// about the data distribution, never a certificate; everything here is plain double (bisection).
#pragma once

#if !defined(FLOWCERT_CERT_INTERNAL)
#error "include <flowcert/cert.hpp>, not the internal headers"
#endif

#include <utility>

namespace flowcert::cert {

// P(X <= k) for X ~ Binomial(N, p), plain double (non-rigorous).
double binomial_cdf_nonrigorous(int k, int N, double p);

// The two-sided Clopper-Pearson interval of level 1 - alpha for k successes in N trials (non-rigorous double):
// lower solves P(X >= k | p) = alpha/2, upper solves P(X <= k | p) = alpha/2.
std::pair<double, double> clopper_pearson_nonrigorous(int k, int N, double alpha = 0.05);

}  // namespace flowcert::cert
