// The reconstructed ReLU-regression model of [LWTM2026] (docs/rh.md): seeded data, Gram enclosure, and
// the interval GD map in primal-dual coordinates. See relu_regression.hpp.
#include "flowcert/nets/relu_regression.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <span>
#include <stdexcept>

#include "flowcert/nets/random.hpp"

namespace flowcert::nets::rh {

namespace {

using IVec = std::vector<IntervalD>;

constexpr double kEta = 0x1p-1074;  // smallest subnormal (underflow term)

// Upper bound on gamma_k = k u / (1 - k u) [Higham, Sec. 3.1]; throws if k u >= 1/2.
double gamma_upper(long long k) {
    const double g = linalg::gamma_bound(k);
    if (!(g < 1)) throw std::invalid_argument("dimension too large for gamma_k");
    return g;
}

// Upper bound on the exact sum of k nonnegative terms whose double sum (any order) is `computed`:
// S <= (computed + k eta) / (1 - gamma_k).
double nonneg_sum_upper(double computed, long long k) {
    if (!std::isfinite(computed)) return rounding::kInf;  // overflow: no finite bound
    const IntervalD g = IntervalD::exact(gamma_upper(k));
    return upper((IntervalD::exact(computed) + IntervalD(k) * IntervalD::exact(kEta)) / (IntervalD(1) - g));
}

// Enclosure of an exact dot product of k terms whose double value (any order) is `computed`, given an
// upper bound `abs_upper` >= sum |x_i y_i|: computed +- (gamma_k abs_upper + k eta).
IntervalD dot_from_double(double computed, double abs_upper, long long k) {
    if (!std::isfinite(computed) || !(abs_upper < rounding::kInf)) return IntervalD::entire();  // overflow
    const IntervalD err = IntervalD::exact(gamma_upper(k)) * IntervalD::exact(abs_upper) +
                          IntervalD(k) * IntervalD::exact(kEta);
    return inflate(IntervalD::exact(computed), upper(err));
}

// Upper bound of sqrt(a) sqrt(b) for upper bounds a, b of squared norms (+inf passes through).
double cauchy_schwarz_upper(double a, double b) {
    if (!(a < rounding::kInf) || !(b < rounding::kInf)) return rounding::kInf;
    return upper(sqrt(IntervalD::exact(a)) * sqrt(IntervalD::exact(b)));
}


}  // namespace

std::vector<std::string> split_commas(const std::string& s) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (c == ',') {
            out.push_back(cur);
            cur.clear();
        } else if (c != ' ') {
            cur += c;
        }
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
}

// ---- Gram enclosure -------------------------------------------------------------------------------
linalg::IMatrixD gram_enclosure_rowmajor(const std::vector<double>& X, int n, long d) {
    Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> Xm(X.data(), n, d);
    const Eigen::MatrixXd Gd = Xm * Xm.transpose();
    std::vector<double> sq(n);
    for (int i = 0; i < n; ++i) sq[i] = nonneg_sum_upper(Gd(i, i), d);
    linalg::IMatrixD G(n, n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            // sum_k |x_ik x_jk| <= ||x_i|| ||x_j|| (Cauchy-Schwarz)
            const double cs = cauchy_schwarz_upper(sq[i], sq[j]);
            G(i, j) = dot_from_double(Gd(i, j), cs, d);
        }
    return G;
}

// ---- instance ------------------------------------------------------------------------------------
Instance make_instance(const InstanceSpec& spec) {
    if (spec.n < 1) throw std::invalid_argument("n must be >= 1");
    if (spec.d < 1) throw std::invalid_argument("d must be >= 1");
    if (spec.m != 1 && (spec.m < 2 || spec.m % 2 != 0)) throw std::invalid_argument("m must be 1 or even");
    if (spec.init != "span" && spec.init != "gaussian") throw std::invalid_argument("init must be span or gaussian");
    Instance inst;
    inst.spec = spec;
    const int n = inst.n = spec.n;
    const long d = inst.d = spec.d;
    const int m = inst.m = spec.m;
    inst.cov = make_covariance(spec.covariance, d);
    const IntervalD& tau = inst.cov.trace;  // tr Sigma (= d exactly when isotropic)
    // eta := lower end of the outward enclosure of eta_d / tau (an exact double)
    const IntervalD eta_d = IntervalD::from_decimal(spec.eta_d);
    if (!certainly_positive(eta_d)) throw std::invalid_argument("eta_d must be > 0");
    const double eta = lower(eta_d / tau);
    if (!(eta > 0)) throw std::invalid_argument("eta underflows");
    inst.eta = IntervalD::exact(eta);
    inst.eta_d = inst.eta * IntervalD(d);
    inst.eta_trace = inst.eta * tau;
    const IntervalD c = spec.init_per_trace ? IntervalD::from_decimal(spec.init_scale) / tau
                                            : IntervalD::from_decimal(spec.init_scale);
    if (!certainly_positive(c)) throw std::invalid_argument("init_scale must be > 0");

    const bool teacher = spec.labels == "teacher";
    if (teacher && !inst.cov.isotropic)
        throw std::invalid_argument("teacher labels are defined for the isotropic covariance only");
    const bool gaussian_init = spec.init == "gaussian";
    inst.y.assign(n, IntervalD(0));
    if (spec.labels == "alternating") {
        for (int i = 0; i < n; ++i) inst.y[i] = IntervalD(i % 2 == 0 ? 1 : -1);
    } else if (!teacher) {
        const auto parts = split_commas(spec.labels);
        if (static_cast<int>(parts.size()) != n)
            throw std::invalid_argument("labels: expected 'alternating', 'teacher' or n = " + std::to_string(n) +
                                        " comma-separated numbers, got " + std::to_string(parts.size()));
        for (int i = 0; i < n; ++i) inst.y[i] = IntervalD::from_decimal(parts[i]);
    }

    // Data: row i of X from stream (seed, "X", i); generated in column chunks, never stored whole.
    std::vector<RandomStream> rows;
    rows.reserve(n);
    if (!spec.row_order.empty()) {
        std::vector<int> sorted = spec.row_order;
        std::sort(sorted.begin(), sorted.end());
        for (int i = 0; i < static_cast<int>(sorted.size()); ++i)
            if (sorted[i] != i || static_cast<int>(sorted.size()) != n)
                throw std::invalid_argument("row_order must be a permutation of 0..n-1");
    }
    for (int i = 0; i < n; ++i)
        rows.emplace_back(spec.seed, "X", static_cast<std::uint64_t>(spec.row_order.empty() ? i : spec.row_order[i]));
    RandomStream teacher_stream(spec.seed, "teacher", 0);
    std::vector<RandomStream> init_streams;
    for (int p = 0; p < m; ++p) init_streams.emplace_back(spec.seed, "w0", static_cast<std::uint64_t>(p));
    Eigen::MatrixXd Gd = Eigen::MatrixXd::Zero(n, n);
    std::vector<double> t(n, 0.0);
    std::vector<std::vector<double>> xg(m, std::vector<double>(n, 0.0));  // X g_p (double, sequential)
    std::vector<double> gg(m, 0.0);                                       // ||g_p||^2 (double, sequential)
    const long chunk = 2048;
    Eigen::MatrixXd Xc(n, chunk);
    std::vector<double> buf(chunk), wt(chunk);
    std::vector<std::vector<double>> g(m, std::vector<double>(chunk));
    for (long k0 = 0; k0 < d; k0 += chunk) {
        const long len = std::min(chunk, d - k0);
        for (int i = 0; i < n; ++i) {
            rows[i].fill_gaussian(std::span<double>(buf.data(), len));
            if (inst.cov.isotropic)
                for (long k = 0; k < len; ++k) Xc(i, k) = buf[k];
            else  // x_ik = fl(s_k g_ik): the data are these doubles [covariance.hpp]
                for (long k = 0; k < len; ++k) Xc(i, k) = inst.cov.scale[static_cast<size_t>(k0 + k)] * buf[k];
        }
        if (teacher) teacher_stream.fill_gaussian(std::span<double>(wt.data(), len));
        if (gaussian_init)
            for (int p = 0; p < m; ++p) init_streams[p].fill_gaussian(std::span<double>(g[p].data(), len));
        auto Xb = Xc.leftCols(len);
        Gd.selfadjointView<Eigen::Lower>().rankUpdate(Xb);
        for (int i = 0; i < n; ++i) {
            if (teacher)
                for (long k = 0; k < len; ++k) t[i] += Xc(i, k) * wt[k];
            if (gaussian_init)
                for (int p = 0; p < m; ++p)
                    for (long k = 0; k < len; ++k) xg[p][i] += Xc(i, k) * g[p][k];
        }
        if (gaussian_init)
            for (int p = 0; p < m; ++p)
                for (long k = 0; k < len; ++k) gg[p] += g[p][k] * g[p][k];
    }
    // Rigorous enclosure of G (a priori bound, any summation order; Cauchy-Schwarz for sum |x_ik x_jk|).
    std::vector<double> sq(n);
    for (int i = 0; i < n; ++i) sq[i] = nonneg_sum_upper(Gd(i, i), d);
    inst.G = linalg::IMatrixD(n, n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j) {
            const double cs = cauchy_schwarz_upper(sq[i], sq[j]);
            const IntervalD gij = dot_from_double(Gd(i, j), cs, d);
            inst.G(i, j) = gij;
            inst.G(j, i) = gij;
            inst.gram_max_rel_radius = std::max(inst.gram_max_rel_radius, rad(gij) / Gd(i, i));
        }
    if (teacher) {
        // teacher label: defined as the double fl(t_i / sqrt(d)) with t_i summed sequentially (an exact datum)
        const double sd = std::sqrt(static_cast<double>(d));
        for (int i = 0; i < n; ++i) inst.y[i] = IntervalD::exact(t[i] / sd);
    }
    inst.negative.assign(n, 0);
    for (int i = 0; i < n; ++i) {
        if (certainly_nonpositive(inst.y[i])) {
            inst.negative[i] = 1;
            ++inst.n_minus;
        } else if (!certainly_positive(inst.y[i])) {
            throw std::invalid_argument("label " + std::to_string(i) + " has an undetermined sign");
        }
    }
    // Initialization.
    inst.s.resize(m);
    inst.a0.assign(m, IVec(n, IntervalD(0)));
    inst.Xu.assign(m, IVec(n, IntervalD(0)));
    inst.uu.assign(m, IntervalD(0));
    for (int p = 0; p < m; ++p) {
        inst.s[p] = p < std::max(1, m / 2) ? 1 : -1;  // m even: the first m/2 neurons have output sign +1
        if (!gaussian_init) {
            // w_p(0) = X^T (c 1): a_p(0) = c 1 with c the lower end of the enclosure of init_scale (exact double)
            for (int i = 0; i < n; ++i) inst.a0[p][i] = IntervalD::exact(lower(c));
            inst.init_c = IntervalD::exact(lower(c));
        } else {
            // w_p(0) = c g_p (c exactly the decimal): X u = c X g, ||u||^2 = c^2 ||g||^2
            inst.init_c = c;
            const double ggu = nonneg_sum_upper(gg[p], d);
            inst.uu[p] = sqr(c) * dot_from_double(gg[p], ggu, d);
            for (int i = 0; i < n; ++i) {
                const double cs = cauchy_schwarz_upper(sq[i], ggu);
                inst.Xu[p][i] = c * dot_from_double(xg[p][i], cs, d);
            }
        }
    }
    return inst;
}

// ---- the interval GD map ---------------------------------------------------------------------------
std::vector<IVec> initial_predictions(const Instance& inst) {
    const int n = inst.n, m = inst.m;
    std::vector<IVec> beta(m, IVec(n));
    for (int p = 0; p < m; ++p)
        for (int i = 0; i < n; ++i) {
            IntervalD s = inst.Xu[p][i];
            for (int j = 0; j < n; ++j) s += inst.G(i, j) * inst.a0[p][j];
            beta[p][i] = s;
        }
    return beta;
}

IVec residual(const Instance& inst, const Pattern& P, const std::vector<IVec>& beta) {
    IVec r(inst.n);
    for (int i = 0; i < inst.n; ++i) {
        IntervalD f(0);
        for (int p = 0; p < inst.m; ++p)
            if (P[p][i]) f += inst.s[p] > 0 ? beta[p][i] : -beta[p][i];
        r[i] = f - inst.y[i];
    }
    return r;
}

void gd_step(const Instance& inst, const Pattern& P, const IVec& r, std::vector<IVec>& a, std::vector<IVec>& beta) {
    const int n = inst.n, m = inst.m;
    std::vector<IVec> rbar(m, IVec(n));
    for (int p = 0; p < m; ++p)
        for (int i = 0; i < n; ++i) {
            IntervalD f(0);
            for (int q = 0; q < m; ++q)
                if (q != p && P[q][i]) f += inst.s[q] > 0 ? beta[q][i] : -beta[q][i];
            rbar[p][i] = f - inst.y[i];
        }
    std::vector<IVec> next = beta;
    for (int p = 0; p < m; ++p) {
        const IntervalD es = inst.eta * IntervalD(inst.s[p]);
        for (int i = 0; i < n; ++i) {
            if (P[p][i]) a[p][i] -= es * r[i];
            IntervalD gv(0);
            for (int j = 0; j < n; ++j)
                if (j != i && P[p][j]) gv += inst.G(i, j) * r[j];
            IntervalD b = beta[p][i] - es * gv;
            if (P[p][i]) {
                const IntervalD& gii = inst.G(i, i);
                b = (IntervalD(1) - inst.eta * gii) * beta[p][i] - es * gv - es * gii * rbar[p][i];
            }
            next[p][i] = b;
        }
    }
    beta = std::move(next);
}

}  // namespace flowcert::nets::rh
