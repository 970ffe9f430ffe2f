// tests/proofs/rh/rh_exact.hpp -- exact (GMP rational) references for the w* tests of the m = 2 and m-neuron models:
// a rational solve, the minimum of Phi over one activation-pattern class by active-set enumeration, and hand-built
// instances on dyadic Gram matrices.
#pragma once

#include <flowcert/proofs/rh.hpp>

#include "rh_fixture.hpp"

#include <optional>
#include <vector>

namespace rh_exact {

using namespace flowcert;
using flowcert::nets::rh::Instance;
using rh_fixture::Rat;

using RatMat = std::vector<std::vector<Rat>>;

// Exact solve of A x = b (A nonsingular) by Gaussian elimination over the rationals.
inline std::vector<Rat> solve_exact(RatMat A, std::vector<Rat> b) {
    const size_t k = b.size();
    for (size_t c = 0; c < k; ++c) {
        size_t p = c;
        while (A[p][c] == 0) ++p;
        std::swap(A[p], A[c]);
        std::swap(b[p], b[c]);
        for (size_t r = 0; r < k; ++r) {
            if (r == c || A[r][c] == 0) continue;
            const Rat f = A[r][c] / A[c][c];
            for (size_t t = c; t < k; ++t) A[r][t] -= f * A[c][t];
            b[r] -= f * b[c];
        }
    }
    for (size_t c = 0; c < k; ++c) b[c] /= A[c][c];
    return b;
}

// The exact minimum of Phi(z) = z+^T G^-1 z+ + z-^T G^-1 z- over the closed polyhedron of one pattern class
// (extra[i] = 1: the neuron of the other sign is active on sample i), by enumerating every active set: on each,
// z = Ghat A^T mu with (A Ghat A^T) mu = b is the equality-constrained optimum; the class minimum is the least
// value over the primal-feasible ones (strict convexity). z = (z+, z-), coordinates i and n + i.
struct ClassMin {
    Rat value;
    std::vector<Rat> z;
};
inline std::optional<ClassMin> class_minimum(const RatMat& G, const std::vector<Rat>& y, const std::vector<int>& extra) {
    const int n = static_cast<int>(y.size());
    struct Row {
        std::vector<Rat> a;
        Rat b;
    };
    std::vector<Row> eq, ineq;  // eq: a.z = b; ineq: a.z <= 0
    for (int i = 0; i < n; ++i) {
        const int own = y[i] > 0 ? i : n + i, other = y[i] > 0 ? n + i : i;
        const Rat t = y[i] > 0 ? y[i] : Rat(-y[i]);  // the own neuron's target
        Row e{std::vector<Rat>(2 * n), t}, g{std::vector<Rat>(2 * n), 0};
        e.a[own] = 1;
        if (extra[i]) e.a[other] = -1, g.a[other] = -1;  // z_own - z_other = t, z_other >= 0
        else g.a[other] = 1;                                // z_own = t, z_other <= 0
        eq.push_back(e);
        ineq.push_back(g);
    }
    auto ghat = [&](int r, int c) { return (r < n) == (c < n) ? G[r % n][c % n] : Rat(0); };
    std::optional<ClassMin> best;
    for (unsigned mask = 0; mask < (1u << n); ++mask) {
        std::vector<Row> A = eq;
        for (int i = 0; i < n; ++i)
            if (mask >> i & 1u) A.push_back(ineq[i]);
        const size_t k = A.size();
        std::vector<std::vector<Rat>> GA(k, std::vector<Rat>(2 * n));  // (Ghat A^T)^T rows
        for (size_t r = 0; r < k; ++r)
            for (int c = 0; c < 2 * n; ++c)
                for (int t = 0; t < 2 * n; ++t) GA[r][c] += ghat(c, t) * A[r].a[t];
        RatMat M(k, std::vector<Rat>(k));
        std::vector<Rat> b(k);
        for (size_t r = 0; r < k; ++r) {
            b[r] = A[r].b;
            for (size_t s = 0; s < k; ++s)
                for (int t = 0; t < 2 * n; ++t) M[r][s] += A[r].a[t] * GA[s][t];
        }
        const auto mu = solve_exact(M, b);
        std::vector<Rat> z(2 * n);
        for (int c = 0; c < 2 * n; ++c)
            for (size_t r = 0; r < k; ++r) z[c] += GA[r][c] * mu[r];
        bool feasible = true;
        for (int i = 0; i < n; ++i) {
            Rat s = 0;
            for (int c = 0; c < 2 * n; ++c) s += ineq[i].a[c] * z[c];
            feasible = feasible && s <= 0;
        }
        Rat value = 0;
        for (size_t r = 0; r < k; ++r) value += b[r] * mu[r];
        if (feasible && (!best || value < best->value)) best = ClassMin{value, z};
    }
    return best;
}

inline Instance hand_instance(const RatMat& G, const std::vector<Rat>& y) {
    const int n = static_cast<int>(y.size());
    Instance inst;
    inst.n = n;
    inst.d = n;
    inst.m = 2;
    inst.s = {1, -1};
    inst.G = linalg::IMatrixD(n, n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) inst.G(i, j) = IntervalD::exact(G[i][j].convert_to<double>());  // dyadic: exact
    for (int i = 0; i < n; ++i) {
        inst.y.push_back(IntervalD::exact(y[i].convert_to<double>()));
        inst.negative.push_back(y[i] <= 0 ? 1 : 0);
        inst.n_minus += inst.negative.back();
    }
    return inst;
}

inline RatMat dyadic_gram() {  // diagonally dominant, so positive definite
    const Rat a(1, 16), b(1, 32), c(1, 8);
    return {{1, a, -b, c}, {a, 1, c, -a}, {-b, c, 1, b}, {c, -a, b, 1}};
}

}  // namespace rh_exact
