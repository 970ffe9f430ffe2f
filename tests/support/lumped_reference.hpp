// tests/support/lumped_reference.hpp -- NON-RIGOROUS long-double references for the lumped moment
// engine (docs/nonsmooth-flow.md, "Lumped activation classes"): the per-neuron gradient flow of a
// two-layer ReLU network with every neuron's activation pattern held fixed (RK4), and the moment
// ODE of the same classes, M_S' = K_S M_S + M_S K_S^T with K_S = [[0, D_S], [D_S^T, 0]],
// D_S = -c sum_{k in S} r_k x_k, r_k = sum_{S contains k} <x_k, m_S> - y_k, together with the class
// transition matrices Phi_S' = K_S Phi_S (RK4). Both only model the flow while no pattern changes:
// PerNeuronReference::patterns_kept() says whether the per-neuron run kept them. Shared by
// tests/nets/test_lumped_flow.cpp and bench/nets/lumped_flow_bench.cpp.
#pragma once

#include <flowcert/nets.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace flowcert::test_support {

// Data in long double (inputs with the bias coordinate appended as in TwoLayerSpec), c = 1/n.
struct LumpedData {
    std::size_t n = 0, d = 0;
    std::vector<long double> x, y;  // x: n * d
    long double c = 0;
    explicit LumpedData(const nets::TwoLayerSpec& s) {
        n = s.x.size();
        for (std::size_t k = 0; k < n; ++k) {
            for (const auto& v : s.x[k]) x.push_back(std::stold(v));
            if (s.bias) x.push_back(1.0L);
            y.push_back(std::stold(s.y[k]));
        }
        d = x.size() / n;
        c = 1.0L / static_cast<long double>(n);
    }
    long double z(const long double* w, std::size_t k) const {
        long double s = 0;
        for (std::size_t i = 0; i < d; ++i) s += w[i] * x[k * d + i];
        return s;
    }
};

// The pattern key of a neuron state: bit k set iff <w, x_k> > 0.
inline std::uint32_t pattern_of(const LumpedData& D, const long double* th) {
    std::uint32_t key = 0;
    for (std::size_t k = 0; k < D.n; ++k)
        if (D.z(th, k) > 0) key |= 1u << k;
    return key;
}

// Per-neuron RK4 with every neuron's pattern fixed at its initial one (ReLU: eta = 1 active, 0
// inactive). th: m * (d + 1), (w, a) per neuron.
struct PerNeuronReference {
    const LumpedData& D;
    std::size_t m;
    std::vector<long double> th;
    std::vector<std::uint32_t> key;
    bool kept = true;

    PerNeuronReference(const LumpedData& data, std::vector<long double> theta) : D(data), th(std::move(theta)) {
        m = th.size() / (D.d + 1);
        for (std::size_t j = 0; j < m; ++j) key.push_back(pattern_of(D, &th[j * (D.d + 1)]));
    }
    bool patterns_kept() const { return kept; }
    std::vector<long double> residuals(const std::vector<long double>& t) const {
        const std::size_t S = D.d + 1;
        std::vector<long double> r(D.n);
        for (std::size_t k = 0; k < D.n; ++k) {
            long double h = 0;
            for (std::size_t j = 0; j < m; ++j)
                if (key[j] >> k & 1u) h += t[j * S + D.d] * D.z(&t[j * S], k);
            r[k] = h - D.y[k];
        }
        return r;
    }
    void field(const std::vector<long double>& t, std::vector<long double>& f) const {
        const std::size_t S = D.d + 1;
        const auto r = residuals(t);
        f.assign(t.size(), 0.0L);
        for (std::size_t j = 0; j < m; ++j) {
            std::vector<long double> Dv(D.d, 0.0L);
            for (std::size_t k = 0; k < D.n; ++k)
                if (key[j] >> k & 1u)
                    for (std::size_t i = 0; i < D.d; ++i) Dv[i] -= D.c * r[k] * D.x[k * D.d + i];
            long double wd = 0;
            for (std::size_t i = 0; i < D.d; ++i) {
                f[j * S + i] = t[j * S + D.d] * Dv[i];
                wd += t[j * S + i] * Dv[i];
            }
            f[j * S + D.d] = wd;
        }
    }
    std::vector<long double> rk4(const std::vector<long double>& t, long double hh) const {
        std::vector<long double> k1, k2, k3, k4, tmp(t.size()), out(t.size());
        field(t, k1);
        for (std::size_t i = 0; i < t.size(); ++i) tmp[i] = t[i] + 0.5L * hh * k1[i];
        field(tmp, k2);
        for (std::size_t i = 0; i < t.size(); ++i) tmp[i] = t[i] + 0.5L * hh * k2[i];
        field(tmp, k3);
        for (std::size_t i = 0; i < t.size(); ++i) tmp[i] = t[i] + hh * k3[i];
        field(tmp, k4);
        for (std::size_t i = 0; i < t.size(); ++i) out[i] = t[i] + hh / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
        return out;
    }
    bool flipped(const std::vector<long double>& t) const {
        for (std::size_t j = 0; j < m; ++j)
            if (pattern_of(D, &t[j * (D.d + 1)]) != key[j]) return true;
        return false;
    }
    // follow_crossings: a sign change inside a step is located by bisection (to ~1e-24 of the step)
    // and the neuron's pattern switched there (transversal crossings only; `crossed` lists them).
    bool follow_crossings = false;
    std::vector<std::size_t> crossed;
    void step(long double hh) {
        std::vector<long double> trial = rk4(th, hh);
        if (!flipped(trial)) {
            th = std::move(trial);
            return;
        }
        kept = false;
        if (!follow_crossings) {
            th = std::move(trial);
            return;
        }
        long double lo = 0, hi = hh;
        for (int it = 0; it < 80; ++it) {
            const long double md = 0.5L * (lo + hi);
            (flipped(rk4(th, md)) ? hi : lo) = md;
        }
        th = rk4(th, hi);
        for (std::size_t j = 0; j < m; ++j) {
            const std::uint32_t kj = pattern_of(D, &th[j * (D.d + 1)]);
            if (kj != key[j]) {
                key[j] = kj;
                crossed.push_back(j);
            }
        }
        if (hh - hi > 0) step(hh - hi);
    }
    // t in [0, T] in RK4 steps of h; records whether every pattern stayed the initial one.
    void advance(long double T, long double h) {
        const std::size_t steps = static_cast<std::size_t>(T / h + 0.5L);
        const long double hh = T / static_cast<long double>(steps);
        for (std::size_t s = 0; s < steps; ++s) step(hh);
    }
    // M_S = sum over the neurons of pattern S of theta theta^T, (d+1) x (d+1) row-major.
    std::map<std::uint32_t, std::vector<long double>> moments() const {
        const std::size_t S = D.d + 1;
        std::map<std::uint32_t, std::vector<long double>> M;
        for (std::size_t j = 0; j < m; ++j) {
            auto& Mk = M[key[j]];
            Mk.resize(S * S, 0.0L);
            for (std::size_t a = 0; a < S; ++a)
                for (std::size_t b = 0; b < S; ++b) Mk[a * S + b] += th[j * S + a] * th[j * S + b];
        }
        return M;
    }
};

// The moment ODE of the classes (keys), with Phi_S: state per class M_S ((d+1)^2, full, kept
// symmetric by the field) and Phi_S ((d+1)^2). `k_scale` multiplies K_S (1 for the true field;
// another value is a deliberately broken field for mutation tests).
struct MomentReference {
    const LumpedData& D;
    std::vector<std::uint32_t> keys;
    std::vector<long double> M, Phi;  // per class (d+1)^2 each
    long double k_scale = 1.0L;

    MomentReference(const LumpedData& data, const std::map<std::uint32_t, std::vector<long double>>& M0) : D(data) {
        const std::size_t S = D.d + 1;
        for (const auto& [key, Mk] : M0) {
            keys.push_back(key);
            M.insert(M.end(), Mk.begin(), Mk.end());
            for (std::size_t a = 0; a < S; ++a)
                for (std::size_t b = 0; b < S; ++b) Phi.push_back(a == b ? 1.0L : 0.0L);
        }
    }
    std::vector<long double> residuals(const std::vector<long double>& Mv) const {
        const std::size_t S = D.d + 1;
        std::vector<long double> r(D.n);
        for (std::size_t k = 0; k < D.n; ++k) {
            long double h = 0;
            for (std::size_t q = 0; q < keys.size(); ++q)
                if (keys[q] >> k & 1u)
                    for (std::size_t i = 0; i < D.d; ++i) h += D.x[k * D.d + i] * Mv[q * S * S + i * S + D.d];
            r[k] = h - D.y[k];
        }
        return r;
    }
    // K_S for class q from residuals r
    std::vector<long double> K(std::size_t q, const std::vector<long double>& r) const {
        const std::size_t S = D.d + 1;
        std::vector<long double> Kq(S * S, 0.0L);
        for (std::size_t i = 0; i < D.d; ++i) {
            long double Di = 0;
            for (std::size_t k = 0; k < D.n; ++k)
                if (keys[q] >> k & 1u) Di -= D.c * r[k] * D.x[k * D.d + i];
            Kq[i * S + D.d] = Kq[D.d * S + i] = k_scale * Di;
        }
        return Kq;
    }
    void field(const std::vector<long double>& Mv, const std::vector<long double>& Pv, std::vector<long double>& fM,
               std::vector<long double>& fP) const {
        const std::size_t S = D.d + 1;
        const auto r = residuals(Mv);
        fM.assign(Mv.size(), 0.0L);
        fP.assign(Pv.size(), 0.0L);
        for (std::size_t q = 0; q < keys.size(); ++q) {
            const auto Kq = K(q, r);
            const long double* Mq = &Mv[q * S * S];
            const long double* Pq = &Pv[q * S * S];
            for (std::size_t a = 0; a < S; ++a)
                for (std::size_t b = 0; b < S; ++b) {
                    long double km = 0, mk = 0, kp = 0;
                    for (std::size_t l = 0; l < S; ++l) {
                        km += Kq[a * S + l] * Mq[l * S + b];
                        mk += Mq[a * S + l] * Kq[b * S + l];  // (M K^T)_ab
                        kp += Kq[a * S + l] * Pq[l * S + b];
                    }
                    fM[q * S * S + a * S + b] = km + mk;
                    fP[q * S * S + a * S + b] = kp;
                }
        }
    }
    void advance(long double T, long double h) {
        const std::size_t steps = static_cast<std::size_t>(T / h + 0.5L);
        const long double hh = T / static_cast<long double>(steps);
        std::vector<long double> a1, a2, a3, a4, b1, b2, b3, b4, tM(M.size()), tP(Phi.size());
        for (std::size_t s = 0; s < steps; ++s) {
            field(M, Phi, a1, b1);
            for (std::size_t i = 0; i < M.size(); ++i) {
                tM[i] = M[i] + 0.5L * hh * a1[i];
                tP[i] = Phi[i] + 0.5L * hh * b1[i];
            }
            field(tM, tP, a2, b2);
            for (std::size_t i = 0; i < M.size(); ++i) {
                tM[i] = M[i] + 0.5L * hh * a2[i];
                tP[i] = Phi[i] + 0.5L * hh * b2[i];
            }
            field(tM, tP, a3, b3);
            for (std::size_t i = 0; i < M.size(); ++i) {
                tM[i] = M[i] + hh * a3[i];
                tP[i] = Phi[i] + hh * b3[i];
            }
            field(tM, tP, a4, b4);
            for (std::size_t i = 0; i < M.size(); ++i) {
                M[i] += hh / 6 * (a1[i] + 2 * a2[i] + 2 * a3[i] + a4[i]);
                Phi[i] += hh / 6 * (b1[i] + 2 * b2[i] + 2 * b3[i] + b4[i]);
            }
        }
    }
    // theta(t) = Phi_S(t) theta(0) for a neuron of class q
    std::vector<long double> recover(std::size_t q, const long double* th0) const {
        const std::size_t S = D.d + 1;
        std::vector<long double> th(S, 0.0L);
        for (std::size_t a = 0; a < S; ++a)
            for (std::size_t b = 0; b < S; ++b) th[a] += Phi[q * S * S + a * S + b] * th0[b];
        return th;
    }
};

}  // namespace flowcert::test_support
