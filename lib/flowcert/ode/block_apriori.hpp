// flowcert/ode/block_apriori.hpp -- a priori enclosure of one block over a step, for a field
// given on boxes (the other blocks entering through a fixed enclosure of the coupling sums).
//
// Epsilon-inflated Picard iteration: find a box B with
//     N := X0 + [0, H] F(B)  contained in the interior of B.
// Then every solution from X0 stays in N on [0, H] (first exit: while the solution is in B its
// derivative lies a.e. in F(B), so it is in X0 + s F(B), a subset of N inside int B; it cannot
// reach the boundary of B). No uniqueness is needed, so this holds for differential inclusions
// (F(B) a box containing every admissible velocity on B) [docs/nonsmooth-flow.md, section 1].
#pragma once

#if !defined(FLOWCERT_ODE_INTERNAL)
#error "include <flowcert/ode.hpp>, not the internal headers"
#endif

#include <flowcert/interval.hpp>

#include <cstddef>

namespace flowcert::ode {

// [lo - f w - a, hi + f w + a], outward (w the width of x).
inline IntervalD widen(const IntervalD& x, double f, double a) {
    const double w = width(x);
    return inflate(x, f * w + a);
}

inline bool strictly_inside(const IntervalD& inner, const IntervalD& outer) {
    return outer.lower() < inner.lower() && inner.upper() < outer.upper();
}

// Picard box of one block with S components from X0 over s = [0, H]: field(B, F) writes into F
// (S entries) a box containing the velocity at every point of the box B. On success B holds the
// Picard box, N = X0 + s F(B) the enclosure of every solution on [0, H] (N inside int B) and F the
// field box on B. Ten iterations with growing inflation; false if none succeeds (B, N, F then
// hold the last attempt).
template <class Field>
bool picard_block(std::size_t S, const IntervalD* X0, const IntervalD& s, Field&& field, IntervalD* B, IntervalD* N,
                  IntervalD* F) {
    // Initial guess: X0 + [0, H] F(X0), widened.
    field(X0, F);
    for (std::size_t i = 0; i < S; ++i) B[i] = widen(X0[i] + s * F[i], 0.5, 1e-300);
    for (int it = 0; it < 10; ++it) {
        field(B, F);
        bool inside = true;
        for (std::size_t i = 0; i < S; ++i) {
            N[i] = X0[i] + s * F[i];
            if (!strictly_inside(N[i], B[i])) inside = false;
        }
        if (inside) return true;  // X0 + [0, H] F(B) inside int(B): first-exit argument
        for (std::size_t i = 0; i < S; ++i)
            B[i] = widen(N[i], 0.2 + 0.3 * it, 1e-300 + 1e-16 * mag(N[i]));  // epsilon-inflation
    }
    return false;
}

}  // namespace flowcert::ode
