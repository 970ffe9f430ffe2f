// flowcert/interval/loglog_slope.hpp -- the certified log-log slope between two points of a sweep.
//
// For a quantity E measured at two parameters delta_a, delta_b > 0 (a sweep over the initialization scale, the
// regularization or the dimension), the finite slope of log E against log delta is
//     s = (ln E(delta_a) - ln E(delta_b)) / (ln delta_a - ln delta_b)        (symmetric in a <-> b).
// Given enclosures E_a, E_b of E(delta_a), E(delta_b) and enclosures d_a, d_b of delta_a, delta_b,
// loglog_slope returns an interval containing s for every choice of the four values in their enclosures:
// the true range is [ln(inf E_a / sup E_b), ln(sup E_a / inf E_b)] / ln(delta_a / delta_b) for exact deltas
// with delta_a > delta_b. Overlapping E enclosures are fine (the slope then contains 0).
//
// It returns nothing (std::nullopt) when the enclosures do not bound the slope:
//   - E_a or E_b is not certainly positive (ln E is unbounded below near 0, undefined below),
//   - d_a or d_b is not certainly positive, or ln d_a - ln d_b is not certainly nonzero (the deltas are equal or
//     their enclosures overlap: the denominator may vanish),
//   - the enclosure found is unbounded (an infinite bound of E_a or E_b).
//
// Rounding: the numerator is the intersection of two sound enclosures, ln E_a - ln E_b (two outward logs and an
// outward difference) and ln(E_a / E_b) (one outward quotient and one outward log); the denominator likewise.
// Neither form is tighter for every input (the log of a quotient near 1 loses less, the difference of logs of
// numbers near 1 loses less), so the result is contained in each of
//     (log(E_a) - log(E_b)) / (log(d_a) - log(d_b))   and   log(E_a / E_b) / log(d_a / d_b),
// the two forms flowcert's verifiers computed before this function existed (interval division is
// inclusion-monotone: its bounds are the outward-rounded extreme quotients).
//
// Lives in the interval layer because it is numeric vocabulary needed by the proof wing and by the verifiers
// (lib/flowcert/cert and lib/flowcert/proofs both sit above this layer; docs/design.md "Where things go").
#pragma once

#if !defined(FLOWCERT_INTERVAL_INTERNAL)
#error "include <flowcert/interval.hpp>, not the internal headers"
#endif

#include <optional>
#include <stdexcept>

namespace flowcert {

namespace detail {
// ln x - ln y for x, y certainly positive: the intersection of two sound enclosures (see above).
template <Interval I> I log_ratio(const I& x, const I& y) {
    const I by_difference = log(x) - log(y);
    const I by_quotient = log(x / y);
    I both = by_difference;
    // Both contain the exact set {ln u - ln v : u in x, v in y}, so they cannot be disjoint.
    if (!intersect(by_difference, by_quotient, both))
        throw std::logic_error("loglog_slope: two enclosures of ln x - ln y are disjoint (an interval-library bug)");
    return both;
}
}  // namespace detail

template <Interval I>
std::optional<I> loglog_slope(const I& e_a, const I& e_b, const I& d_a, const I& d_b) {
    if (!certainly_positive(e_a) || !certainly_positive(e_b)) return std::nullopt;
    if (!certainly_positive(d_a) || !certainly_positive(d_b)) return std::nullopt;
    const I den = detail::log_ratio(d_a, d_b);
    if (!certainly_nonzero(den)) return std::nullopt;
    const I slope = detail::log_ratio(e_a, e_b) / den;
    if (!is_bounded(slope)) return std::nullopt;
    return slope;
}

}  // namespace flowcert
