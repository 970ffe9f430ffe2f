// flowcert/cert/statistics.cpp -- see statistics.hpp (moved unchanged from verifiers/rh/sweep_stats.hpp).
#include <flowcert/cert.hpp>

#include <cmath>

namespace flowcert::cert {

double binomial_cdf_nonrigorous(int k, int N, double p) {
    if (k < 0) return 0;
    if (k >= N) return 1;
    double s = 0;
    for (int j = 0; j <= k; ++j)
        s += std::exp(std::lgamma(N + 1.0) - std::lgamma(j + 1.0) - std::lgamma(N - j + 1.0) + j * std::log(p) +
                      (N - j) * std::log1p(-p));
    return s;
}

std::pair<double, double> clopper_pearson_nonrigorous(int k, int N, double alpha) {
    auto solve = [](auto f) {  // f increasing in p on (0, 1): the root by bisection
        double lo = 0, hi = 1;
        for (int it = 0; it < 200; ++it) {
            const double m = 0.5 * (lo + hi);
            (f(m) < 0 ? lo : hi) = m;
        }
        return 0.5 * (lo + hi);
    };
    const double lower = k == 0 ? 0.0 : solve([&](double p) { return (1 - binomial_cdf_nonrigorous(k - 1, N, p)) - alpha / 2; });
    const double upper = k == N ? 1.0 : solve([&](double p) { return alpha / 2 - binomial_cdf_nonrigorous(k, N, p); });
    return {lower, upper};
}

}  // namespace flowcert::cert
