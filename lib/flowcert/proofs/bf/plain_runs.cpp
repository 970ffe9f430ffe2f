// flowcert/proofs/bf/plain_runs.cpp -- NON-RIGOROUS plain-double runs (see plain_runs.hpp).
#include "flowcert/proofs/bf/plain_runs.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <stdexcept>

namespace flowcert::proofs::bf {

namespace {

double cpu_now() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

// The data as doubles (midpoints of the exact data's enclosures) and the live neurons (not frozen).
struct Plain {
    std::size_t n = 0, d = 0;
    std::vector<double> x, y;  // n x d, n
    double c = 0;
    explicit Plain(const nets::TwoLayerModel<IntervalD>& model) : n(model.n()), d(model.d()), c(mid(model.risk_weight())) {
        for (std::size_t k = 0; k < n; ++k) {
            y.push_back(mid(model.y(k)));
            for (std::size_t i = 0; i < d; ++i) x.push_back(mid(model.x(k, i)));
        }
    }
    double z(const double* wj, std::size_t k) const {
        double s = 0;
        for (std::size_t i = 0; i < d; ++i) s += wj[i] * x[k * d + i];
        return s;
    }
    bool dead(const double* wj) const {
        for (std::size_t k = 0; k < n; ++k)
            if (z(wj, k) > 0) return false;
        return true;
    }
    // r_k = sum over `live` of a_j relu(z_jk) - y_k
    void residuals(const std::vector<std::size_t>& live, const double* a, const double* w, std::vector<double>& r) const {
        r.assign(n, 0.0);
        for (std::size_t j : live)
            for (std::size_t k = 0; k < n; ++k) {
                const double zz = z(w + j * d, k);
                if (zz > 0) r[k] += a[j] * zz;
            }
        for (std::size_t k = 0; k < n; ++k) r[k] -= y[k];
    }
    // D_j = -c sum_k r_k 1[z_jk > 0] x_k into D (size d)
    void direction(const double* wj, const std::vector<double>& r, double* D) const {
        for (std::size_t i = 0; i < d; ++i) D[i] = 0;
        for (std::size_t k = 0; k < n; ++k)
            if (z(wj, k) > 0)
                for (std::size_t i = 0; i < d; ++i) D[i] -= c * r[k] * x[k * d + i];
    }
};

PlainRun start(const nets::TwoLayerParams<IntervalD>& th) {
    PlainRun out;
    out.m = th.m;
    out.d = th.d;
    for (const auto& v : th.a) out.a.push_back(mid(v));
    for (const auto& v : th.w) out.w.push_back(mid(v));
    return out;
}

void finish(const Plain& P, PlainRun& out) {
    std::vector<std::size_t> all(out.m);
    for (std::size_t j = 0; j < out.m; ++j) all[j] = j;
    P.residuals(all, out.a.data(), out.w.data(), out.residual);
    out.loss = 0;
    for (double r : out.residual) out.loss += P.c * r * r / 2;
}

std::vector<std::size_t> live_neurons(const Plain& P, const PlainRun& s) {
    std::vector<std::size_t> live;
    for (std::size_t j = 0; j < s.m; ++j)
        if (!P.dead(&s.w[j * s.d])) live.push_back(j);
    return live;
}

}  // namespace

PlainRun plain_flow_nonrigorous(const nets::TwoLayerModel<IntervalD>& model, const nets::TwoLayerParams<IntervalD>& theta0,
                                double T, double h) {
    const double c0 = cpu_now();
    const Plain P(model);
    PlainRun s = start(theta0);
    const std::size_t d = s.d, S = d + 1;
    const std::size_t steps = T > 0 ? static_cast<std::size_t>(std::ceil(T / h)) : 0;
    const double dt = steps ? T / static_cast<double>(steps) : 0;
    std::vector<std::size_t> live = live_neurons(P, s);
    s.dropped = s.m - live.size();
    // stage states and slopes of the live neurons, packed (w_1..w_d, a) per live neuron
    std::vector<double> y0, ys, k[4], sa, sw, r;
    std::vector<double> D(d);
    auto field = [&](const std::vector<double>& st, std::vector<double>& f) {
        const std::size_t L = live.size();
        sa.resize(L);
        sw.resize(L * d);
        for (std::size_t q = 0; q < L; ++q) {
            sa[q] = st[q * S + d];
            for (std::size_t i = 0; i < d; ++i) sw[q * d + i] = st[q * S + i];
        }
        std::vector<std::size_t> idx(L);
        for (std::size_t q = 0; q < L; ++q) idx[q] = q;
        P.residuals(idx, sa.data(), sw.data(), r);
        f.resize(L * S);
        for (std::size_t q = 0; q < L; ++q) {
            P.direction(&sw[q * d], r, D.data());
            double wd = 0;
            for (std::size_t i = 0; i < d; ++i) {
                f[q * S + i] = sa[q] * D[i];
                wd += sw[q * d + i] * D[i];
            }
            f[q * S + d] = wd;
        }
    };
    for (std::size_t step = 0; step < steps; ++step) {
        if (step % 64 == 0) {  // drop the neurons frozen since (their field is exactly 0 at every stage)
            std::vector<std::size_t> keep;
            for (std::size_t j : live)
                if (!P.dead(&s.w[j * d])) keep.push_back(j);
            s.dropped += live.size() - keep.size();
            live.swap(keep);
        }
        const std::size_t L = live.size();
        y0.resize(L * S);
        for (std::size_t q = 0; q < L; ++q) {
            for (std::size_t i = 0; i < d; ++i) y0[q * S + i] = s.w[live[q] * d + i];
            y0[q * S + d] = s.a[live[q]];
        }
        ys.resize(L * S);
        field(y0, k[0]);
        for (std::size_t i = 0; i < L * S; ++i) ys[i] = y0[i] + dt / 2 * k[0][i];
        field(ys, k[1]);
        for (std::size_t i = 0; i < L * S; ++i) ys[i] = y0[i] + dt / 2 * k[1][i];
        field(ys, k[2]);
        for (std::size_t i = 0; i < L * S; ++i) ys[i] = y0[i] + dt * k[2][i];
        field(ys, k[3]);
        for (std::size_t q = 0; q < L; ++q) {
            for (std::size_t i = 0; i < S; ++i) {
                const std::size_t e = q * S + i;
                const double v = y0[e] + dt / 6 * (k[0][e] + 2 * k[1][e] + 2 * k[2][e] + k[3][e]);
                if (i < d) s.w[live[q] * d + i] = v;
                else s.a[live[q]] = v;
            }
        }
    }
    s.steps = steps;
    finish(P, s);
    s.seconds = cpu_now() - c0;
    return s;
}

namespace {

// One GD iteration over the live neurons (packed a, w) with the residuals r of the current state; returns the
// residuals of the new state in rn. Frozen neurons (z <= 0 on every sample after the step) are swapped out of the
// live set (written back to s). N, D > 0: the shapes fixed at compile time (the Figure-2 data: 3 points, d = 2).
template <std::size_t N, std::size_t D>
void gd_iteration(const Plain& P, PlainRun& s, std::vector<std::size_t>& live, std::size_t& L, std::vector<double>& A,
                  std::vector<double>& W, const std::vector<double>& r, std::vector<double>& rn, double step) {
    const std::size_t n = N ? N : P.n, d = D ? D : P.d;
    double cr[8], acc[8], X[64];
    for (std::size_t k = 0; k < n; ++k) {
        cr[k] = -P.c * r[k];
        acc[k] = 0;
        for (std::size_t i = 0; i < d; ++i) X[k * d + i] = P.x[k * d + i];
    }
    std::size_t q = 0;
    while (q < L) {
        double* wq = &W[q * d];
        double Dv[8] = {0, 0, 0, 0, 0, 0, 0, 0}, z[8];
        for (std::size_t k = 0; k < n; ++k) {
            double zz = 0;
            for (std::size_t i = 0; i < d; ++i) zz += wq[i] * X[k * d + i];
            const double e = zz > 0 ? cr[k] : 0.0;
            for (std::size_t i = 0; i < d; ++i) Dv[i] += e * X[k * d + i];
        }
        double wd = 0;
        for (std::size_t i = 0; i < d; ++i) wd += wq[i] * Dv[i];
        const double ha = step * A[q];
        for (std::size_t i = 0; i < d; ++i) wq[i] += ha * Dv[i];
        A[q] += step * wd;
        bool alive = false;  // the new outputs, for the next iteration's residuals
        for (std::size_t k = 0; k < n; ++k) {
            double zz = 0;
            for (std::size_t i = 0; i < d; ++i) zz += wq[i] * X[k * d + i];
            z[k] = zz;
            alive = alive || zz > 0;
        }
        if (!alive) {  // frozen for good: write back, swap out of the live set
            s.a[live[q]] = A[q];
            for (std::size_t i = 0; i < d; ++i) s.w[live[q] * d + i] = wq[i];
            --L;
            live[q] = live[L];
            A[q] = A[L];
            for (std::size_t i = 0; i < d; ++i) wq[i] = W[L * d + i];
            continue;  // the moved neuron is stepped now (it has not been yet)
        }
        for (std::size_t k = 0; k < n; ++k) acc[k] += z[k] > 0 ? A[q] * z[k] : 0.0;
        ++q;
    }
    for (std::size_t k = 0; k < n; ++k) rn[k] = acc[k] - P.y[k];
}

}  // namespace

PlainRun plain_gd_nonrigorous(const nets::TwoLayerModel<IntervalD>& model, const nets::TwoLayerParams<IntervalD>& theta0,
                              double step, std::size_t iterations) {
    const double c0 = cpu_now();
    const Plain P(model);
    PlainRun s = start(theta0);
    const std::size_t n = P.n, d = s.d;
    if (n > 8 || d > 8) throw std::invalid_argument("plain_gd_nonrigorous: at most 8 samples and 8 input coordinates");
    std::vector<std::size_t> live = live_neurons(P, s);
    s.dropped = s.m - live.size();
    // the live neurons packed (a, w) for the hot loop; written back at the end
    std::size_t L = live.size();
    std::vector<double> A(L), W(L * d);
    for (std::size_t q = 0; q < L; ++q) {
        A[q] = s.a[live[q]];
        for (std::size_t i = 0; i < d; ++i) W[q * d + i] = s.w[live[q] * d + i];
    }
    std::vector<double> r(n), rn(n);
    {
        std::vector<std::size_t> idx(L);
        for (std::size_t q = 0; q < L; ++q) idx[q] = q;
        P.residuals(idx, A.data(), W.data(), r);
    }
    const bool figure2_shape = n == 3 && d == 2;
    for (std::size_t t = 0; t < iterations; ++t) {
        if (figure2_shape) gd_iteration<3, 2>(P, s, live, L, A, W, r, rn, step);
        else gd_iteration<0, 0>(P, s, live, L, A, W, r, rn, step);
        r.swap(rn);
    }
    for (std::size_t q = 0; q < L; ++q) {
        s.a[live[q]] = A[q];
        for (std::size_t i = 0; i < d; ++i) s.w[live[q] * d + i] = W[q * d + i];
    }
    s.steps = iterations;
    s.dropped = s.m - L;
    finish(P, s);
    s.seconds = cpu_now() - c0;
    return s;
}

PlainTrapCounts plain_trap_counts(const nets::TwoLayerModel<IntervalD>& model, const PlainRun& run) {
    const Plain P(model);
    PlainTrapCounts c;
    if (P.n != 3) return c;
    for (std::size_t j = 0; j < run.m; ++j) {
        const double* wj = &run.w[j * run.d];
        const double z1 = P.z(wj, 0), z2 = P.z(wj, 1), z3 = P.z(wj, 2), a = run.a[j];
        if (z1 <= 0 && z3 <= 0) ++c.frozen;
        else if (a > 0 && z1 > 0 && z2 > 0 && z3 > 0) ++c.P;
        else if (a < 0 && z1 > 0 && z2 <= 0 && z3 <= 0) ++c.N1;
        else if (a < 0 && z3 > 0 && z2 <= 0 && z1 <= 0) ++c.N3;
        else if (a < 0 && z2 > 0 && z3 > 0 && (z1 <= 0 || z1 <= z3)) ++c.S1;  // active on x_2, x_3 (x_1 the moving one)
        else if (a < 0 && z2 > 0 && z1 > 0) ++c.S3;
        else ++c.other;
    }
    return c;
}

PlainConeCounts plain_cone_counts(const nets::TwoLayerModel<IntervalD>& model, const PlainRun& run) {
    const Plain P(model);
    PlainConeCounts c;
    for (std::size_t j = 0; j < run.m; ++j) {
        bool act = true, inact = true;
        for (std::size_t k = 0; k < P.n; ++k) {
            const double z = P.z(&run.w[j * run.d], k);
            act = act && z >= 0;
            inact = inact && z <= 0;
        }
        if (act) {
            ++c.all_active;
            c.all_active_positive += run.a[j] > 0;
        } else if (inact) {
            ++c.all_inactive;
        } else {
            ++c.neither;
        }
    }
    return c;
}

}  // namespace flowcert::proofs::bf
