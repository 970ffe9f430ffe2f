// The diagonal data covariances of the rh reconstruction; see covariance.hpp.
#include "flowcert/nets/covariance.hpp"

#include <gmp.h>
#include <mpfr.h>

#include <stdexcept>

namespace flowcert::nets::rh {

namespace {

// RN(text): the double nearest to the exact rational value of `text` (MPFR, correctly rounded).
double nearest_double(const std::string& text, const char* what) {
    mpq_t q;
    mpq_init(q);
    if (auto err = parse_rational(text, q)) {
        mpq_clear(q);
        throw std::invalid_argument(std::string(what) + ": " + *err);
    }
    mpfr_t x;
    mpfr_init2(x, 53);
    mpfr_set_q(x, q, MPFR_RNDN);
    const double v = mpfr_get_d(x, MPFR_RNDN);
    mpfr_clear(x);
    mpq_clear(q);
    return v;
}

// RN(sqrt(v)) (IEEE sqrt is correctly rounded).
double sqrt_rn(double v) {
    mpfr_t x;
    mpfr_init2(x, 53);
    mpfr_set_d(x, v, MPFR_RNDN);
    mpfr_sqrt(x, x, MPFR_RNDN);
    const double r = mpfr_get_d(x, MPFR_RNDN);
    mpfr_clear(x);
    return r;
}

}  // namespace

Covariance make_covariance(const CovarianceSpec& spec, long d) {
    if (d < 1) throw std::invalid_argument("d must be >= 1");
    Covariance c;
    if (spec.kind == "isotropic") {
        c.trace = IntervalD(d);
        c.trace_sq = IntervalD(d);
        c.lambda_max = IntervalD(1);
        return c;
    }
    c.isotropic = false;
    c.scale.assign(static_cast<size_t>(d), 1.0);
    if (spec.kind == "power_law") {
        const double alpha = nearest_double(spec.alpha, "covariance_alpha");
        if (!(alpha >= 0 && alpha <= 8)) throw std::invalid_argument("covariance_alpha must be in [0, 8]");
        // s_k = RN(k^(-alpha/2)) with the exact exponent -alpha/2 (halving a double is exact)
        mpfr_t k, e, s;
        mpfr_inits2(53, k, e, s, (mpfr_ptr)nullptr);
        mpfr_set_d(e, -alpha / 2, MPFR_RNDN);
        for (long j = 0; j < d; ++j) {
            mpfr_set_si(k, j + 1, MPFR_RNDN);  // exact: j + 1 < 2^53
            mpfr_pow(s, k, e, MPFR_RNDN);
            c.scale[static_cast<size_t>(j)] = mpfr_get_d(s, MPFR_RNDN);
        }
        mpfr_clears(k, e, s, (mpfr_ptr)nullptr);
    } else if (spec.kind == "spike") {
        const double l1 = nearest_double(spec.spike, "covariance_spike");
        if (!(l1 > 0) || !(l1 < 1e300)) throw std::invalid_argument("covariance_spike must be > 0 and finite");
        c.scale[0] = sqrt_rn(l1);
    } else if (spec.kind == "diagonal") {
        if (static_cast<long>(spec.diagonal.size()) != d)
            throw std::invalid_argument("covariance_diagonal: expected d = " + std::to_string(d) + " entries, got " +
                                        std::to_string(spec.diagonal.size()));
        for (long j = 0; j < d; ++j) {
            const double l = nearest_double(spec.diagonal[static_cast<size_t>(j)], "covariance_diagonal");
            if (!(l > 0) || !(l < 1e300))
                throw std::invalid_argument("covariance_diagonal: entry " + std::to_string(j + 1) + " must be > 0 and finite");
            c.scale[static_cast<size_t>(j)] = sqrt_rn(l);
        }
    } else {
        throw std::invalid_argument("covariance must be isotropic, power_law, spike or diagonal, not '" + spec.kind + "'");
    }
    c.trace = IntervalD(0);
    c.trace_sq = IntervalD(0);
    c.lambda_max = IntervalD(0);
    for (double s : c.scale) {
        if (!(s > 0)) throw std::invalid_argument("covariance: a scale s_k underflows to 0");
        const IntervalD l = sqr(IntervalD::exact(s));
        c.trace += l;
        c.trace_sq += sqr(l);
        c.lambda_max = max(c.lambda_max, l);
    }
    return c;
}

}  // namespace flowcert::nets::rh
