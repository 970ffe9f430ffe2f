// tests/proofs/rh/rh_fixture.hpp -- shared references for the rh proof tests: the seeded rows regenerated from
// their streams, the exact (GMP rational) Gram matrix, containment predicates and a ~500-bit GD.
#pragma once

#include <boost/multiprecision/gmp.hpp>
#include <boost/multiprecision/mpfr.hpp>

#include <flowcert/nets.hpp>

#include <cmath>
#include <span>
#include <vector>

namespace rh_fixture {

using namespace flowcert;
using flowcert::nets::rh::Instance;
using Rat = boost::multiprecision::mpq_rational;
using Mp = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<150>>;  // ~500 bits

// A seeded instance specification with the defaults of nets::rh::InstanceSpec otherwise.
inline nets::rh::InstanceSpec spec_of(std::uint64_t seed, int n, long d) {
    nets::rh::InstanceSpec s;
    s.seed = seed;
    s.n = n;
    s.d = d;
    return s;
}

inline std::vector<double> data_rows(std::uint64_t seed, int n, long d) {
    std::vector<double> X(static_cast<size_t>(n) * d);
    for (int i = 0; i < n; ++i) {
        nets::RandomStream rs(seed, "X", static_cast<std::uint64_t>(i));
        rs.fill_gaussian(std::span<double>(X.data() + static_cast<size_t>(i) * d, d));
    }
    return X;
}

inline std::vector<Rat> exact_gram(const std::vector<double>& X, int n, long d) {
    std::vector<Rat> G(static_cast<size_t>(n) * n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            Rat s = 0;
            for (long k = 0; k < d; ++k) s += Rat(X[i * d + k]) * Rat(X[j * d + k]);
            G[static_cast<size_t>(i) * n + j] = s;
        }
    return G;
}

inline bool contains_rat(const IntervalD& x, const Rat& q) {
    return (lower(x) == -INFINITY || Rat(lower(x)) <= q) && (upper(x) == INFINITY || q <= Rat(upper(x)));
}
inline bool contains_mp(const IntervalD& x, const Mp& v, double tol) {
    return Mp(lower(x)) - tol <= v && v <= Mp(upper(x)) + tol;
}

// Reference GD at ~500 bits with the exact Gram matrix (docs/rh.md#coordinates), span initialization.
struct MpGd {
    std::vector<std::vector<Mp>> a, beta;
    std::vector<std::vector<std::vector<int>>> patterns;  // [k][p][i]
};
inline MpGd mp_gd(const Instance& inst, const std::vector<Rat>& Gq, int steps) {
    const int n = inst.n, m = inst.m;
    std::vector<Mp> G(Gq.size());
    for (size_t t = 0; t < Gq.size(); ++t) G[t] = Mp(Gq[t]);
    std::vector<Mp> y(n);
    for (int i = 0; i < n; ++i) y[i] = Mp(Rat(mid(inst.y[i])));  // labels in these tests are exact doubles
    MpGd out;
    out.a.assign(m, std::vector<Mp>(n));
    out.beta.assign(m, std::vector<Mp>(n));
    const Mp eta = Mp(mid(inst.eta));
    for (int p = 0; p < m; ++p) {
        for (int i = 0; i < n; ++i) out.a[p][i] = Mp(mid(inst.a0[p][i]));
        for (int i = 0; i < n; ++i) {
            Mp s = 0;
            for (int j = 0; j < n; ++j) s += G[i * n + j] * out.a[p][j];
            out.beta[p][i] = s;
        }
    }
    for (int k = 0; k <= steps; ++k) {
        std::vector<std::vector<int>> P(m, std::vector<int>(n));
        for (int p = 0; p < m; ++p)
            for (int i = 0; i < n; ++i) P[p][i] = out.beta[p][i] > 0;
        out.patterns.push_back(P);
        if (k == steps) break;
        std::vector<Mp> r(n);
        for (int i = 0; i < n; ++i) {
            Mp f = 0;
            for (int p = 0; p < m; ++p)
                if (P[p][i]) f += inst.s[p] * out.beta[p][i];
            r[i] = f - y[i];
        }
        for (int p = 0; p < m; ++p) {
            std::vector<Mp> v(n);
            for (int i = 0; i < n; ++i) v[i] = P[p][i] ? r[i] : Mp(0);
            for (int i = 0; i < n; ++i) {
                out.a[p][i] -= eta * inst.s[p] * v[i];
                Mp gv = 0;
                for (int j = 0; j < n; ++j) gv += G[i * n + j] * v[j];
                out.beta[p][i] -= eta * inst.s[p] * gv;
            }
        }
    }
    return out;
}

}  // namespace rh_fixture
