// tests/proofs/bf/flow_reference.hpp -- a NON-RIGOROUS reference of the two-layer ReLU gradient flow
// [BF2025, eqs. (1), (6)], half-square loss, risk (1/n) sum_k (h - y)^2 / 2: classical RK4 in long
// double with sigma'(0) = 0 evaluated at every stage. It encloses nothing; the falsification tests use
// it to show that a conclusion is false on an instance (loss far below L*), with a step-size check.
#pragma once

#include <flowcert/nets.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace flowcert::test_support {

struct FlowReference {
    std::size_t n = 0, d = 0, m = 0;
    std::vector<long double> x, y;  // n x d (bias coordinate included), n
    std::vector<long double> a, w;  // m, m x d

    // The data of `spec` (decimal strings read with strtold: a reference, not an enclosure) and the
    // seeded initialization of eq. (3) from its exact generated numbers (a~_j, w~_j).
    FlowReference(const nets::TwoLayerSpec& spec, const nets::InitSpec& is) {
        n = spec.x.size();
        d = spec.x.front().size() + (spec.bias ? 1 : 0);
        m = is.m;
        for (std::size_t k = 0; k < n; ++k) {
            for (const auto& s : spec.x[k]) x.push_back(std::stold(s));
            if (spec.bias) x.push_back(1.0L);
            y.push_back(std::stold(spec.y[k]));
        }
        const auto init = nets::initialize<IntervalD>(is, d);
        const long double scale = std::stold(is.lambda) / std::sqrt(static_cast<long double>(m));
        a.resize(m);
        w.resize(m * d);
        for (std::size_t j = 0; j < m; ++j) {
            long double n2 = 0;
            for (std::size_t i = 0; i < d; ++i) {
                w[j * d + i] = scale * init.w_tilde[j * d + i];
                n2 += static_cast<long double>(init.w_tilde[j * d + i]) * init.w_tilde[j * d + i];
            }
            const long double s = init.a_sign[j];
            a[j] = scale * (is.kind == nets::InitKind::balanced_gaussian ? s * std::sqrt(n2) : s);
        }
    }

    long double z(const std::vector<long double>& W, std::size_t j, std::size_t k) const {
        long double s = 0;
        for (std::size_t i = 0; i < d; ++i) s += W[j * d + i] * x[k * d + i];
        return s;
    }
    std::vector<long double> residuals(const std::vector<long double>& A, const std::vector<long double>& W) const {
        std::vector<long double> r(n);
        for (std::size_t k = 0; k < n; ++k) {
            long double h = 0;
            for (std::size_t j = 0; j < m; ++j) {
                const long double zz = z(W, j, k);
                if (zz > 0) h += A[j] * zz;
            }
            r[k] = h - y[k];
        }
        return r;
    }
    long double loss() const {
        long double L = 0;
        for (long double r : residuals(a, w)) L += r * r;
        return L / (2 * static_cast<long double>(n));
    }
    void field(const std::vector<long double>& A, const std::vector<long double>& W, std::vector<long double>& fa,
               std::vector<long double>& fw) {
        z_.resize(m * n);
        std::vector<long double> r(n);
        for (std::size_t k = 0; k < n; ++k) r[k] = -y[k];  // r_k = h(x_k) - y_k below
        for (std::size_t j = 0; j < m; ++j)
            for (std::size_t k = 0; k < n; ++k) {
                z_[j * n + k] = z(W, j, k);
                if (z_[j * n + k] > 0) r[k] += A[j] * z_[j * n + k];
            }
        fa.assign(m, 0.0L);
        fw.assign(m * d, 0.0L);
        std::vector<long double> D(d);
        for (std::size_t j = 0; j < m; ++j) {
            std::fill(D.begin(), D.end(), 0.0L);
            for (std::size_t k = 0; k < n; ++k)
                if (z_[j * n + k] > 0)
                    for (std::size_t i = 0; i < d; ++i) D[i] -= r[k] * x[k * d + i] / static_cast<long double>(n);
            for (std::size_t i = 0; i < d; ++i) {
                fw[j * d + i] = A[j] * D[i];  // w_j' = a_j D_j
                fa[j] += W[j * d + i] * D[i];  // a_j' = <w_j, D_j>
            }
        }
    }
    void rk4_step(long double h) {
        field(a, w, ka_[0], kw_[0]);
        for (int s = 1; s < 4; ++s) {
            const long double c = s == 3 ? h : h / 2;
            A_ = a;
            W_ = w;
            for (std::size_t i = 0; i < A_.size(); ++i) A_[i] += c * ka_[s - 1][i];
            for (std::size_t i = 0; i < W_.size(); ++i) W_[i] += c * kw_[s - 1][i];
            field(A_, W_, ka_[s], kw_[s]);
        }
        for (std::size_t i = 0; i < a.size(); ++i) a[i] += h / 6 * (ka_[0][i] + 2 * ka_[1][i] + 2 * ka_[2][i] + ka_[3][i]);
        for (std::size_t i = 0; i < w.size(); ++i) w[i] += h / 6 * (kw_[0][i] + 2 * kw_[1][i] + 2 * kw_[2][i] + kw_[3][i]);
    }
    // Integrates to t_end with step h; returns the minimum of the loss over every `every`-th step end.
    long double run(long double t_end, long double h, long every = 10) {
        long double lmin = loss();
        const long steps = std::lround(t_end / h);
        for (long s = 1; s <= steps; ++s) {
            rk4_step(h);
            if (s % every == 0 || s == steps) lmin = std::min(lmin, loss());
        }
        return lmin;
    }

private:
    std::vector<long double> ka_[4], kw_[4], A_, W_, z_;
};

}  // namespace flowcert::test_support
