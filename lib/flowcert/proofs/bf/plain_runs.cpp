// flowcert/proofs/bf/plain_runs.cpp -- NON-RIGOROUS plain-double runs (see plain_runs.hpp).
#include "flowcert/proofs/bf/plain_runs.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
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

// The live neurons of a plain GD run, structure of arrays (a, w_1, ..., w_d), for a branch-free hot loop.
struct PackedLive {
    std::size_t L = 0, d = 0;
    std::vector<std::size_t> index;  // live position -> neuron
    std::vector<double> A;           // a, L entries
    std::vector<double> W;           // w_i at W[i * cap + q]
    std::size_t cap = 0;
    double* w(std::size_t i) { return &W[i * cap]; }
};

// One GD iteration over the live neurons with c r_k of the current state in cr: every live neuron moves by
// w += h a D, a += h <w, D>, D = -c sum_k r_k 1[z_k > 0] x_k, and out[k * L + q] = a relu(z_k) of its new state.
// A neuron with z <= 0 on every sample has D = 0 exactly and so moves by exactly 0 (w + h a 0 = w, a + h <w, 0> = a):
// stepping it is the same run, which keeps the loop free of branches (frozen neurons are swapped out elsewhere).
// N, D > 0: the shape fixed at compile time (the Figure-2 data: 3 points, d = 2); 0: the runtime n, d.
template <std::size_t N, std::size_t D>
void gd_pass(const Plain& P, PackedLive& s, const double* cr, std::vector<double>& out, double step) {
    const std::size_t n = N ? N : P.n, d = D ? D : P.d, L = s.L;
    double X[64];
    for (std::size_t e = 0; e < n * d; ++e) X[e] = P.x[e];
    double* wp[8];
    for (std::size_t i = 0; i < d; ++i) wp[i] = s.w(i);
    double* A = s.A.data();
    double* o = out.data();
    for (std::size_t q = 0; q < L; ++q) {
        double Dv[8], w[8];
        for (std::size_t i = 0; i < d; ++i) {
            Dv[i] = 0;
            w[i] = wp[i][q];
        }
        for (std::size_t k = 0; k < n; ++k) {
            double zz = 0;
            for (std::size_t i = 0; i < d; ++i) zz += w[i] * X[k * d + i];
            const double e = zz > 0 ? cr[k] : 0.0;
            for (std::size_t i = 0; i < d; ++i) Dv[i] += e * X[k * d + i];
        }
        double wd = 0;
        for (std::size_t i = 0; i < d; ++i) wd += w[i] * Dv[i];
        const double a = A[q], ha = step * a, an = a + step * wd;
        for (std::size_t i = 0; i < d; ++i) {
            w[i] += ha * Dv[i];
            wp[i][q] = w[i];
        }
        A[q] = an;
        for (std::size_t k = 0; k < n; ++k) {
            double zz = 0;
            for (std::size_t i = 0; i < d; ++i) zz += w[i] * X[k * d + i];
            o[k * L + q] = zz > 0 ? an * zz : 0.0;
        }
    }
}

// gd_pass for the Figure-2 shape (3 samples, d = 2): the same arithmetic in the same order as gd_pass<3, 2> on
// two neurons at a time (GCC vector extensions, SSE2; lanes are independent, so the results are those of the scalar loop).
using V2 = double __attribute__((vector_size(16)));
inline V2 load2(const double* p) {
    V2 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
inline void store2(double* p, V2 v) { std::memcpy(p, &v, sizeof v); }
// The outputs are summed in the loop, lane-wise, into r (r_k = (lane 0 + lane 1) + tail - y_k: a fixed order).
void gd_pass_3x2(const Plain& P, PackedLive& s, const double* cr, std::vector<double>& r, double step) {
    const std::size_t L = s.L;
    double* A = s.A.data();
    double* W0 = s.w(0);
    double* W1 = s.w(1);
    const auto lane = [&](auto w0, auto w1, auto a, auto& v0, auto& v1, auto& an, auto& p1, auto& p2, auto& p3) __attribute__((always_inline)) {
        using T = decltype(w0);
        const T zero = T{} * 0.0, x10 = zero + P.x[0], x11 = zero + P.x[1], x20 = zero + P.x[2], x21 = zero + P.x[3],
                x30 = zero + P.x[4], x31 = zero + P.x[5];
        const T z1 = (zero + w0 * x10) + w1 * x11, z2 = (zero + w0 * x20) + w1 * x21, z3 = (zero + w0 * x30) + w1 * x31;
        const T e1 = z1 > 0 ? zero + cr[0] : zero, e2 = z2 > 0 ? zero + cr[1] : zero, e3 = z3 > 0 ? zero + cr[2] : zero;
        T D0 = zero, D1 = zero;
        D0 += e1 * x10;
        D1 += e1 * x11;
        D0 += e2 * x20;
        D1 += e2 * x21;
        D0 += e3 * x30;
        D1 += e3 * x31;
        const T wd = (zero + w0 * D0) + w1 * D1, ha = step * a;
        an = a + step * wd;
        v0 = w0 + ha * D0;
        v1 = w1 + ha * D1;
        const T y1 = (zero + v0 * x10) + v1 * x11, y2 = (zero + v0 * x20) + v1 * x21, y3 = (zero + v0 * x30) + v1 * x31;
        p1 = y1 > 0 ? an * y1 : zero;
        p2 = y2 > 0 ? an * y2 : zero;
        p3 = y3 > 0 ? an * y3 : zero;
    };
    std::size_t q = 0;
    V2 s1{0, 0}, s2{0, 0}, s3{0, 0};
    for (; q + 2 <= L; q += 2) {
        V2 v0, v1, an, p1, p2, p3;
        lane(load2(W0 + q), load2(W1 + q), load2(A + q), v0, v1, an, p1, p2, p3);
        store2(W0 + q, v0);
        store2(W1 + q, v1);
        store2(A + q, an);
        s1 += p1;
        s2 += p2;
        s3 += p3;
    }
    double t1 = s1[0] + s1[1], t2 = s2[0] + s2[1], t3 = s3[0] + s3[1];
    for (; q < L; ++q) {  // the tail, one neuron at a time (same expressions on one-lane vectors)
        using V1 = double __attribute__((vector_size(8)));
        V1 v0, v1, an, p1, p2, p3;
        lane(V1{W0[q]}, V1{W1[q]}, V1{A[q]}, v0, v1, an, p1, p2, p3);
        W0[q] = v0[0];
        W1[q] = v1[0];
        A[q] = an[0];
        t1 += p1[0];
        t2 += p2[0];
        t3 += p3[0];
    }
    r[0] = t1 - P.y[0];
    r[1] = t2 - P.y[1];
    r[2] = t3 - P.y[2];
}

// r_k = sum_q out[k * L + q] - y_k (four partial sums in a fixed order: deterministic, not the order of a serial sum)
void gd_residuals(const Plain& P, std::size_t L, const std::vector<double>& out, std::vector<double>& r) {
    for (std::size_t k = 0; k < P.n; ++k) {
        const double* o = &out[k * L];
        double s[4] = {0, 0, 0, 0};
        std::size_t q = 0;
        for (; q + 4 <= L; q += 4)
            for (std::size_t l = 0; l < 4; ++l) s[l] += o[q + l];
        for (; q < L; ++q) s[0] += o[q];
        r[k] = ((s[0] + s[1]) + (s[2] + s[3])) - P.y[k];
    }
}

// Write the frozen live neurons (z <= 0 on every sample) back to `run` and swap them out of the live set.
void swap_out_frozen(const Plain& P, PackedLive& s, PlainRun& run) {
    const std::size_t d = s.d;
    std::size_t q = 0;
    double w[8];
    while (q < s.L) {
        for (std::size_t i = 0; i < d; ++i) w[i] = s.w(i)[q];
        if (!P.dead(w)) {
            ++q;
            continue;
        }
        const std::size_t j = s.index[q], last = s.L - 1;
        run.a[j] = s.A[q];
        for (std::size_t i = 0; i < d; ++i) run.w[j * d + i] = w[i];
        s.index[q] = s.index[last];
        s.A[q] = s.A[last];
        for (std::size_t i = 0; i < d; ++i) s.w(i)[q] = s.w(i)[last];
        --s.L;  // the moved neuron is tested at position q next
    }
}

}  // namespace

PlainRun plain_gd_nonrigorous(const nets::TwoLayerModel<IntervalD>& model, const nets::TwoLayerParams<IntervalD>& theta0,
                              double step, std::size_t iterations) {
    const double c0 = cpu_now();
    const Plain P(model);
    PlainRun s = start(theta0);
    const std::size_t n = P.n, d = s.d;
    if (n > 8 || d > 8) throw std::invalid_argument("plain_gd_nonrigorous: at most 8 samples and 8 input coordinates");
    PackedLive live;
    live.index = live_neurons(P, s);
    live.L = live.cap = live.index.size();
    live.d = d;
    live.A.resize(live.cap);
    live.W.resize(d * live.cap);
    for (std::size_t q = 0; q < live.L; ++q) {
        live.A[q] = s.a[live.index[q]];
        for (std::size_t i = 0; i < d; ++i) live.w(i)[q] = s.w[live.index[q] * d + i];
    }
    std::vector<double> r(n), cr(n), out;
    {
        std::vector<std::size_t> idx(live.L);
        for (std::size_t q = 0; q < live.L; ++q) idx[q] = q;
        std::vector<double> sw(live.L * d);
        for (std::size_t q = 0; q < live.L; ++q)
            for (std::size_t i = 0; i < d; ++i) sw[q * d + i] = live.w(i)[q];
        P.residuals(idx, live.A.data(), sw.data(), r);
    }
    constexpr std::size_t kSwapEvery = 64;  // frozen neurons are stepped (by exactly 0) until the next swap-out
    const bool figure2_shape = n == 3 && d == 2;
    for (std::size_t t = 0; t < iterations; ++t) {
        if (t % kSwapEvery == 0) swap_out_frozen(P, live, s);
        for (std::size_t k = 0; k < n; ++k) cr[k] = -P.c * r[k];
        if (figure2_shape) {
            gd_pass_3x2(P, live, cr.data(), r, step);
        } else {
            out.resize(n * live.L);
            gd_pass<0, 0>(P, live, cr.data(), out, step);
            gd_residuals(P, live.L, out, r);
        }
    }
    swap_out_frozen(P, live, s);
    for (std::size_t q = 0; q < live.L; ++q) {
        s.a[live.index[q]] = live.A[q];
        for (std::size_t i = 0; i < d; ++i) s.w[live.index[q] * d + i] = live.w(i)[q];
    }
    s.steps = iterations;
    s.dropped = s.m - live.L;
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
