// High-dimensional ReLU regression by GD: data, Gram enclosure, interval GD in primal-dual
// coordinates, tail certificate, limit, KKT certificate of w*, gap. See relu_regression.hpp for
// the reconstructed definitions (spec lwtm-relu-highdim.md sections 4-6) implemented here.
#include "flowcert/nets/relu_regression.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Dense>
#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <map>
#include <span>
#include <sstream>
#include <stdexcept>

#include "flowcert/nets/random.hpp"
#include <flowcert/linalg.hpp>

namespace flowcert::nets::rh {

const char* to_string(Status s) {
    switch (s) {
        case Status::proven: return "proven";
        case Status::refuted: return "refuted";
        default: return "not_proven";
    }
}

namespace {

using IVec = std::vector<IntervalD>;

constexpr double kU = 0x1p-53;     // unit roundoff
constexpr double kEta = 0x1p-1074;  // smallest subnormal (underflow term)

// Upper bound on gamma_k = k u / (1 - k u) [Higham, Sec. 3.1]; throws if k u >= 1/2.
double gamma_upper(long long k) {
    const IntervalD ku = IntervalD(k) * IntervalD::exact(kU);
    if (!certainly_less(ku, IntervalD::exact(0.5))) throw std::invalid_argument("dimension too large for gamma_k");
    return upper(ku / (IntervalD(1) - ku));
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

double max_abs_upper(const IVec& v) {
    double m = 0;
    for (const auto& x : v) m = std::max(m, mag(x));
    return m;
}

// 2-norm upper bound of an interval vector.
IntervalD norm2(const IVec& v) {
    IntervalD s(0);
    for (const auto& x : v) s += sqr(x);
    return sqrt(s);
}

// ---- verified inverse / solve without Krawczyk iteration --------------------------------------
// A: k x k row-major interval matrix. R ~ inv(mid A) (double, NOT rigorous, need not be);
// C = I - R A enclosed via double GEMMs + a priori error bounds; c = ||C||_inf < 1 proves every
// A in A nonsingular and A^{-1} = (I - C)^{-1} R [Rump 1994, Thm 2.1 (Neumann-series form)].
struct VerifiedInverse {
    bool ok = false;
    std::string reason = "not run";
    int k = 0;
    Eigen::MatrixXd R;
    std::vector<double> crow;  // upper bounds of ||C_i||_1
    double c = 1;              // upper bound of ||C||_inf
    double r_inf = 0;          // upper bound of ||R||_inf
};

VerifiedInverse verified_inverse(const IVec& A, int k) {
    VerifiedInverse vi;
    vi.k = k;
    if (k == 0) {
        vi.ok = true;
        vi.c = 0;
        vi.reason = "empty";
        return vi;
    }
    Eigen::MatrixXd Am(k, k), Ar(k, k);
    for (int i = 0; i < k; ++i)
        for (int j = 0; j < k; ++j) {
            const IntervalD& a = A[static_cast<size_t>(i) * k + j];
            if (!is_bounded(a)) {
                vi.reason = "unbounded matrix entry";
                return vi;
            }
            Am(i, j) = mid(a);
            Ar(i, j) = rad(a);
        }
    Eigen::PartialPivLU<Eigen::MatrixXd> lu(Am);
    vi.R = lu.inverse();  // approximate (NOT rigorous)
    if (!vi.R.allFinite()) {
        vi.reason = "midpoint matrix numerically singular";
        return vi;
    }
    const Eigen::MatrixXd P = vi.R * Am;
    const Eigen::MatrixXd absR = vi.R.cwiseAbs();
    const Eigen::MatrixXd Q1 = absR * Am.cwiseAbs();
    const Eigen::MatrixXd Q2 = absR * Ar;
    const double g = gamma_upper(k);
    const IntervalD keta = IntervalD(k) * IntervalD::exact(kEta);
    vi.c = 0;
    vi.crow.assign(k, 0);
    for (int i = 0; i < k; ++i) {
        IntervalD row(0);
        for (int j = 0; j < k; ++j) {
            // |R Am - P| <= gamma_k |R||Am| + k eta; |R| |Am| <= (Q1 + k eta)/(1 - gamma_k); same for |R| Ar.
            const double q1 = nonneg_sum_upper(Q1(i, j), k), q2 = nonneg_sum_upper(Q2(i, j), k);
            const double r = upper(IntervalD::exact(g) * IntervalD::exact(q1) + keta + IntervalD::exact(q2));
            const IntervalD cij = inflate(IntervalD(i == j ? 1 : 0) - IntervalD::exact(P(i, j)), r);
            row += IntervalD::exact(mag(cij));
        }
        vi.crow[i] = upper(row);
        vi.c = std::max(vi.c, vi.crow[i]);
    }
    IntervalD rinf(0);
    for (int i = 0; i < k; ++i) {
        IntervalD row(0);
        for (int j = 0; j < k; ++j) row += IntervalD::exact(std::fabs(vi.R(i, j)));
        rinf = max(rinf, row);
    }
    vi.r_inf = upper(rinf);
    if (!(vi.c < 1)) {
        std::ostringstream os;
        os << "contraction failed: ||I - R A||_inf <= " << vi.c << " is not < 1";
        vi.reason = os.str();
        return vi;
    }
    vi.ok = true;
    vi.reason = "proven";
    return vi;
}

// Enclosure of A^{-1} b for every A in A, b in b (vi from verified_inverse(A)):
// e = x - x~ satisfies e = z + C e, z = R (b - A x~), so ||e||_inf <= ||z||_inf / (1 - c) =: delta and
// e_i in z_i + [-crow_i delta, crow_i delta].
IVec verified_solve(const VerifiedInverse& vi, const IVec& A, const IVec& b) {
    const int k = vi.k;
    IVec x(k);
    if (k == 0) return x;
    Eigen::VectorXd bm(k);
    for (int i = 0; i < k; ++i) bm(i) = mid(b[i]);
    const Eigen::VectorXd xt = vi.R * bm;
    IVec res(k);
    for (int i = 0; i < k; ++i) {
        IntervalD s = b[i];
        for (int j = 0; j < k; ++j) s -= A[static_cast<size_t>(i) * k + j] * IntervalD::exact(xt(j));
        res[i] = s;
    }
    IVec z(k);
    for (int i = 0; i < k; ++i) {
        IntervalD s(0);
        for (int j = 0; j < k; ++j) s += IntervalD::exact(vi.R(i, j)) * res[j];
        z[i] = s;
    }
    const double delta = upper(IntervalD::exact(max_abs_upper(z)) / (IntervalD(1) - IntervalD::exact(vi.c)));
    for (int i = 0; i < k; ++i) {
        const double w = upper(IntervalD::exact(vi.crow[i]) * IntervalD::exact(delta));
        x[i] = inflate(IntervalD::exact(xt(i)) + z[i], w);
    }
    return x;
}

// Entrywise enclosure of A^{-1}: A^{-1} = R + C A^{-1}, |A^{-1}|_max <= ||R||_inf / (1 - c).
IVec inverse_enclosure(const VerifiedInverse& vi) {
    const int k = vi.k;
    IVec inv(static_cast<size_t>(k) * k);
    const IntervalD M = IntervalD::exact(vi.r_inf) / (IntervalD(1) - IntervalD::exact(vi.c));
    for (int i = 0; i < k; ++i) {
        const double w = upper(IntervalD::exact(vi.crow[i]) * M);
        for (int j = 0; j < k; ++j) inv[static_cast<size_t>(i) * k + j] = inflate(IntervalD::exact(vi.R(i, j)), w);
    }
    return inv;
}

// Interval Cholesky of the lower triangle of A - shift I: success proves that every symmetric
// member of A has all eigenvalues > shift (inclusion monotonicity of the Cholesky recurrences;
// cf. Alefeld & Mayer, "The Cholesky method for interval data", Linear Algebra Appl. 194 (1993)).
bool interval_cholesky_succeeds(const IVec& A, int k, double shift) {
    IVec L(static_cast<size_t>(k) * k);
    const IntervalD sh = IntervalD::exact(shift);
    for (int j = 0; j < k; ++j) {
        IntervalD s = A[static_cast<size_t>(j) * k + j] - sh;
        for (int t = 0; t < j; ++t) s -= sqr(L[static_cast<size_t>(j) * k + t]);
        if (!certainly_positive(s)) return false;
        const IntervalD ljj = sqrt(s);
        L[static_cast<size_t>(j) * k + j] = ljj;
        for (int i = j + 1; i < k; ++i) {
            IntervalD v = A[static_cast<size_t>(i) * k + j];
            for (int t = 0; t < j; ++t) v -= L[static_cast<size_t>(i) * k + t] * L[static_cast<size_t>(j) * k + t];
            L[static_cast<size_t>(i) * k + j] = v / ljj;
        }
    }
    return true;
}

// Interval Cholesky of b I - A: success proves every eigenvalue < b.
bool upper_eigen_bound_holds(const IVec& A, int k, double b) {
    IVec N(A.size());
    for (size_t t = 0; t < A.size(); ++t) N[t] = -A[t];
    return interval_cholesky_succeeds(N, k, -b);
}

struct EigenBounds {
    bool ok = false;
    IntervalD lambda;  // [a, b] containing every eigenvalue of every symmetric member
};

EigenBounds eigen_bounds(const IVec& A, int k) {
    EigenBounds eb;
    // First the linalg layer's verified symmetric eigenvalue enclosure (Weyl + Ostrowski, GEMM-based).
    {
        linalg::IMatrixD Am(k, k);
        for (int i = 0; i < k; ++i)
            for (int j = 0; j < k; ++j) Am(i, j) = A[static_cast<size_t>(i) * k + j];
        const auto er = linalg::symmetric_eigenvalues<IntervalD>(Am);
        if (er.status == linalg::EigenStatus::proven && !er.eigenvalues.empty()) {
            double lo = rounding::kInf, hi = -rounding::kInf;
            for (const auto& l : er.eigenvalues) {
                lo = std::min(lo, lower(l));
                hi = std::max(hi, upper(l));
            }
            eb.ok = true;
            eb.lambda = IntervalD::bounds(lo, hi);
            return eb;
        }
    }
    // Fallback: interval Cholesky of A - a I and b I - A.
    Eigen::MatrixXd Am(k, k);
    for (int i = 0; i < k; ++i)
        for (int j = 0; j < k; ++j) Am(i, j) = mid(A[static_cast<size_t>(i) * k + j]);
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(Am, Eigen::EigenvaluesOnly);  // approximate only
    if (es.info() != Eigen::Success) return eb;
    const double lmin = es.eigenvalues()(0), lmax = es.eigenvalues()(k - 1);
    const double scale = std::max(std::fabs(lmin), std::fabs(lmax));
    for (double margin : {1e-12, 1e-9, 1e-6, 1e-3}) {
        const double a = lmin - margin * scale, b = lmax + margin * scale;
        if (interval_cholesky_succeeds(A, k, a) && upper_eigen_bound_holds(A, k, b)) {
            eb.ok = true;
            eb.lambda = IntervalD::bounds(a, b);
            return eb;
        }
    }
    return eb;
}

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

}  // namespace

// ---- Gram enclosure -------------------------------------------------------------------------------
std::vector<IntervalD> gram_enclosure_rowmajor(const std::vector<double>& X, int n, long d) {
    Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> Xm(X.data(), n, d);
    const Eigen::MatrixXd Gd = Xm * Xm.transpose();
    std::vector<double> sq(n);
    for (int i = 0; i < n; ++i) sq[i] = nonneg_sum_upper(Gd(i, i), d);
    std::vector<IntervalD> G(static_cast<size_t>(n) * n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            // sum_k |x_ik x_jk| <= ||x_i|| ||x_j|| (Cauchy-Schwarz)
            const double cs = cauchy_schwarz_upper(sq[i], sq[j]);
            G[static_cast<size_t>(i) * n + j] = dot_from_double(Gd(i, j), cs, d);
        }
    return G;
}

// ---- instance ------------------------------------------------------------------------------------
Instance make_instance(const InstanceSpec& spec) {
    if (spec.n < 1) throw std::invalid_argument("n must be >= 1");
    if (spec.d < 1) throw std::invalid_argument("d must be >= 1");
    if (spec.m != 1 && spec.m != 2) throw std::invalid_argument("m must be 1 or 2");
    if (spec.init != "span" && spec.init != "gaussian") throw std::invalid_argument("init must be span or gaussian");
    Instance inst;
    inst.spec = spec;
    const int n = inst.n = spec.n;
    const long d = inst.d = spec.d;
    const int m = inst.m = spec.m;
    // eta := lower end of the outward enclosure of eta_d / d (an exact double)
    const IntervalD eta_d = IntervalD::from_decimal(spec.eta_d);
    if (!certainly_positive(eta_d)) throw std::invalid_argument("eta_d must be > 0");
    inst.eta = lower(eta_d / IntervalD(d));
    if (!(inst.eta > 0)) throw std::invalid_argument("eta underflows");
    inst.eta_d = IntervalD::exact(inst.eta) * IntervalD(d);
    const IntervalD c = IntervalD::from_decimal(spec.init_scale);

    const bool teacher = spec.labels == "teacher";
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
            for (long k = 0; k < len; ++k) Xc(i, k) = buf[k];
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
    inst.G.assign(static_cast<size_t>(n) * n, IntervalD(0));
    for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j) {
            const double cs = cauchy_schwarz_upper(sq[i], sq[j]);
            const IntervalD gij = dot_from_double(Gd(i, j), cs, d);
            inst.G[static_cast<size_t>(i) * n + j] = gij;
            inst.G[static_cast<size_t>(j) * n + i] = gij;
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
        inst.s[p] = p == 0 ? 1 : -1;
        if (!gaussian_init) {
            // w_p(0) = X^T (c 1): a_p(0) = c 1 with c the lower end of the enclosure of init_scale (exact double)
            for (int i = 0; i < n; ++i) inst.a0[p][i] = IntervalD::exact(lower(c));
        } else {
            // w_p(0) = c g_p (c exactly the decimal): X u = c X g, ||u||^2 = c^2 ||g||^2
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

// ---- pattern and limit ------------------------------------------------------------------------------
namespace {

using Pattern = std::vector<std::vector<int>>;  // [p][i]

struct TailData {
    bool ok = false;
    std::string reason;
    std::vector<int> U;                 // active-in-some-neuron samples
    IVec H;                             // |U| x |U|
    VerifiedInverse vi;
    IntervalD lambda, rho = IntervalD::entire();
    bool rho_known = false;             // eigenvalue bounds of H_UU were certified (rho below is theirs)
    std::vector<std::vector<double>> bnorm;  // [p][i] upper bound of ||(G E_p H^{-1})_i||_2
};

TailData prepare_tail(const Instance& inst, const Pattern& P) {
    TailData td;
    const int n = inst.n, m = inst.m;
    std::vector<int> pos(n, -1);
    for (int i = 0; i < n; ++i) {
        bool any = false;
        for (int p = 0; p < m; ++p) any = any || P[p][i];
        if (any) {
            pos[i] = static_cast<int>(td.U.size());
            td.U.push_back(i);
        }
    }
    const int k = static_cast<int>(td.U.size());
    td.bnorm.assign(m, std::vector<double>(n, 0.0));
    if (k == 0) {
        td.ok = true;
        td.rho = IntervalD(0);
        td.rho_known = true;
        td.lambda = IntervalD(0);
        return td;
    }
    td.H.assign(static_cast<size_t>(k) * k, IntervalD(0));
    for (int a = 0; a < k; ++a)
        for (int b = 0; b < k; ++b)
            for (int p = 0; p < m; ++p)
                if (P[p][td.U[a]] && P[p][td.U[b]])
                    td.H[static_cast<size_t>(a) * k + b] += inst.G[static_cast<size_t>(td.U[a]) * n + td.U[b]];
    const EigenBounds eb = eigen_bounds(td.H, k);
    if (!eb.ok) {
        td.reason = "could not certify eigenvalue bounds of H_UU (interval Cholesky failed)";
        return td;
    }
    td.lambda = eb.lambda;
    const IntervalD eta = IntervalD::exact(inst.eta);
    const IntervalD r1 = abs(IntervalD(1) - eta * IntervalD::exact(lower(eb.lambda)));
    const IntervalD r2 = abs(IntervalD(1) - eta * IntervalD::exact(upper(eb.lambda)));
    td.rho = max(r1, r2);  // max over [a, b] of |1 - eta lambda| is at an endpoint (convexity)
    td.rho_known = true;
    if (!certainly_less(td.rho, IntervalD(1))) {
        std::ostringstream os;
        os << "rho = ||I - eta H_UU||_2 <= " << upper(td.rho) << " is not certified < 1 (lambda(H_UU) in "
           << to_string(eb.lambda, 6) << ", eta = " << inst.eta << ")";
        td.reason = os.str();
        return td;
    }
    td.vi = verified_inverse(td.H, k);
    if (!td.vi.ok) {
        td.reason = "verified inverse of H_UU: " + td.vi.reason;
        return td;
    }
    // Row norms of B_p = G_{:,S_p} (H^{-1})_{S_p,:} from double GEMMs plus a priori bounds:
    // H^{-1} = R + h with |h_ab| <= w_a (inverse_enclosure), G = Gm + g with |g| <= Gr; then
    // |B - fl(Gm R)| <= gamma_k |Gm||R| + k eta + Gr |R| + (|Gm| + Gr) w   (entrywise, w broadcast over columns).
    const IntervalD Minv = IntervalD::exact(td.vi.r_inf) / (IntervalD(1) - IntervalD::exact(td.vi.c));
    std::vector<double> w(k);
    for (int a = 0; a < k; ++a) w[a] = upper(IntervalD::exact(td.vi.crow[a]) * Minv);
    const double gk = gamma_upper(k);
    const IntervalD keta = IntervalD(k) * IntervalD::exact(kEta);
    for (int p = 0; p < m; ++p) {
        Eigen::MatrixXd Gm = Eigen::MatrixXd::Zero(n, k), Gr = Eigen::MatrixXd::Zero(n, k);
        Eigen::VectorXd wv = Eigen::VectorXd::Zero(k);
        for (int a = 0; a < k; ++a) {
            if (!P[p][td.U[a]]) continue;
            wv(a) = w[a];
            for (int i = 0; i < n; ++i) {
                const IntervalD& gia = inst.G[static_cast<size_t>(i) * n + td.U[a]];
                Gm(i, a) = mid(gia);
                Gr(i, a) = rad(gia);
            }
        }
        const Eigen::MatrixXd absR = td.vi.R.cwiseAbs();
        const Eigen::MatrixXd M1 = Gm * td.vi.R;
        const Eigen::MatrixXd Q1 = Gm.cwiseAbs() * absR;
        const Eigen::MatrixXd Q2 = Gr * absR;
        const Eigen::VectorXd V = (Gm.cwiseAbs() + Gr) * wv;
        for (int i = 0; i < n; ++i) {
            const double vi_up = nonneg_sum_upper(V(i), k);
            IntervalD main(0), err(0);
            for (int b = 0; b < k; ++b) {
                main += sqr(IntervalD::exact(M1(i, b)));
                const IntervalD e = IntervalD::exact(gk) * IntervalD::exact(nonneg_sum_upper(Q1(i, b), k)) + keta +
                                    IntervalD::exact(nonneg_sum_upper(Q2(i, b), k)) + IntervalD::exact(vi_up);
                err += sqr(e);
            }
            td.bnorm[p][i] = upper(sqrt(main) + sqrt(err));  // triangle inequality
        }
    }
    (void)pos;
    td.ok = true;
    return td;
}

std::string pattern_key(const Pattern& P) {
    std::string s;
    for (const auto& row : P)
        for (int v : row) s += static_cast<char>('0' + v);
    return s;
}

}  // namespace

PatternResult certify_pattern_and_limit(const Instance& inst, const GdOptions& options) {
    PatternResult res;
    const int n = inst.n, m = inst.m;
    const IntervalD eta = IntervalD::exact(inst.eta);
    std::vector<IVec> a = inst.a0, beta(m, IVec(n));
    for (int p = 0; p < m; ++p)
        for (int i = 0; i < n; ++i) {
            IntervalD s = inst.Xu[p][i];
            for (int j = 0; j < n; ++j) s += inst.G[static_cast<size_t>(i) * n + j] * a[p][j];
            beta[p][i] = s;
        }
    Pattern prev, P(m, std::vector<int>(n, 0));
    std::map<std::string, TailData> cache;
    std::string last_tail_reason = "no step with a stable pattern";
    for (int k = 0; k <= options.max_steps; ++k) {
        if (options.record_trace) res.trace.push_back(beta);
        // Pattern at step k (relu'(0) = 0: active iff beta > 0).
        for (int p = 0; p < m; ++p)
            for (int i = 0; i < n; ++i) {
                if (certainly_positive(beta[p][i])) {
                    P[p][i] = 1;
                } else if (certainly_nonpositive(beta[p][i])) {
                    P[p][i] = 0;
                } else {
                    res.signs = Status::not_proven;
                    res.undetermined_step = k;
                    res.undetermined_neuron = p;
                    res.undetermined_sample = i;
                    res.undetermined_beta = beta[p][i];
                    std::ostringstream os;
                    os << "sign of <w_" << p << "(" << k << "), x_" << i << "> undetermined: enclosure "
                       << to_string(beta[p][i], 6);
                    res.signs_reason = os.str();
                    res.tail_reason = "stopped: " + res.signs_reason;
                    if (k == 0) {
                        res.init_reason = res.signs_reason;
                        res.init_min_beta = beta[0][0];
                        for (int q = 0; q < m; ++q)
                            for (int j = 0; j < n; ++j) res.init_min_beta = min(res.init_min_beta, beta[q][j]);
                    }
                    return res;
                }
            }
        if (k == 0) {
            res.init_min_beta = beta[0][0];
            for (int p = 0; p < m; ++p)
                for (int i = 0; i < n; ++i) res.init_min_beta = min(res.init_min_beta, beta[p][i]);
            res.init_active = Status::proven;
            res.init_reason = "every <w_p(0), x_i> certainly > 0";
            for (int p = 0; p < m && res.init_active == Status::proven; ++p)
                for (int i = 0; i < n; ++i)
                    if (!P[p][i]) {
                        res.init_active = Status::refuted;
                        res.init_witness_neuron = p;
                        res.init_witness_sample = i;
                        res.init_witness_beta = beta[p][i];
                        std::ostringstream os;
                        os << "sample " << i << " is inactive for neuron " << p << " at initialization: <w(0), x_" << i
                           << "> in " << to_string(beta[p][i], 6) << " <= 0";
                        res.init_reason = os.str();
                        break;
                    }
        } else {
            for (int p = 0; p < m; ++p)
                for (int i = 0; i < n; ++i)
                    if (P[p][i] != prev[p][i]) {
                        res.changes.push_back({k, p, i, P[p][i]});
                        res.K = k;
                    }
        }
        prev = P;
        // Residual r = f - y.
        IVec r(n);
        for (int i = 0; i < n; ++i) {
            IntervalD f(0);
            for (int p = 0; p < m; ++p)
                if (P[p][i]) f += inst.s[p] > 0 ? beta[p][i] : -beta[p][i];
            r[i] = f - inst.y[i];
        }
        // Tail certificate attempt at step k with the current pattern (spec 6.4).
        const std::string key = pattern_key(P);
        auto it = cache.find(key);
        const bool changed_now = !res.changes.empty() && res.changes.back().step == k;
        if (it == cache.end() && changed_now) {
            // the pattern just changed: try the (O(n^3)) tail preparation only once it persists a step
            last_tail_reason = "pattern changed at the last step run";
        } else {
        if (it == cache.end()) it = cache.emplace(key, prepare_tail(inst, P)).first;
        const TailData& td = it->second;
        res.tail_attempted = true;
        res.tail_attempt_step = k;
        res.rho = td.rho;
        res.rho_known = td.rho_known;
        res.rho_reason = td.rho_known ? "" : td.reason;
        res.margin_known = false;
        res.margin_reason = td.reason;
        if (!td.ok) {
            last_tail_reason = td.reason;
        } else {
            const int ku = static_cast<int>(td.U.size());
            IVec rU(ku);
            for (int t = 0; t < ku; ++t) rU[t] = r[td.U[t]];
            const IntervalD R = norm2(rU);
            const IntervalD Rb = IntervalD::bounds(0.0, upper(R));
            IVec z = verified_solve(td.vi, td.H, rU);  // H^{-1} r_K
            bool all = true;
            double worst = rounding::kInf;
            IntervalD worst_enc = IntervalD::entire();
            int wp = -1, wi = -1;
            std::vector<IVec> b_inf(m, IVec(n)), a_inf(m, IVec(n));
            for (int p = 0; p < m; ++p) {
                const IntervalD sp = IntervalD(inst.s[p]);
                for (int i = 0; i < n; ++i) {
                    IntervalD v(0);
                    for (int t = 0; t < ku; ++t)
                        if (P[p][td.U[t]]) v += inst.G[static_cast<size_t>(i) * n + td.U[t]] * z[t];
                    b_inf[p][i] = beta[p][i] - sp * v;  // beta_p(inf) = beta_p(K) - s_p G E_p H^{-1} r_K
                    const IntervalD ball = IntervalD::exact(td.bnorm[p][i]) * Rb;
                    // signed margin: > 0 proves the sign of the pattern at K for every later step
                    const IntervalD enc = P[p][i] ? b_inf[p][i] - ball : -(b_inf[p][i] + ball);
                    const double margin = lower(enc);
                    if (!certainly_positive(enc)) all = false;
                    if (margin < worst || wp < 0) {
                        worst = margin;
                        worst_enc = enc;
                        wp = p;
                        wi = i;
                    }
                    a_inf[p][i] = a[p][i];
                }
                for (int t = 0; t < ku; ++t)
                    if (P[p][td.U[t]]) a_inf[p][td.U[t]] = a[p][td.U[t]] - sp * z[t];
            }
            res.margin_known = true;
            res.margin = worst_enc;
            res.tail_margin = worst;
            res.worst_neuron = wp;
            res.worst_sample = wi;
            res.margin_reason.clear();
            if (all) {
                res.signs = Status::proven;
                res.signs_reason = "every sign certified at steps 0.." + std::to_string(k);
                res.tail = Status::proven;
                res.tail_step = k;
                res.pattern = P;
                res.lambda_min = IntervalD::exact(lower(td.lambda));
                res.lambda_max = IntervalD::exact(upper(td.lambda));
                res.r_norm = R;
                res.a_inf = a_inf;
                res.beta_inf = b_inf;
                std::ostringstream os;
                os << "pattern fixed from step " << res.K << "; tail certified at step " << k << ": rho <= "
                   << upper(td.rho) << " < 1, ||r_K|| <= " << upper(R) << ", smallest certified margin " << worst
                   << " (neuron " << wp << ", sample " << wi << ")";
                res.tail_reason = os.str();
                // Loss at the limit: r_U(inf) = 0, samples outside U have f = 0.
                std::vector<int> inU(n, 0);
                for (int t : td.U) inU[t] = 1;
                IntervalD loss(0), lmin(0);
                for (int i = 0; i < n; ++i) {
                    if (!inU[i]) loss += sqr(inst.y[i]);
                    if (m == 1 && inst.negative[i]) lmin += sqr(inst.y[i]);
                }
                res.loss_inf = loss / 2;
                res.loss_min = lmin / 2;
                IntervalD fit(0);
                for (int t = 0; t < ku; ++t) {
                    const int i = td.U[t];
                    IntervalD f(0);
                    for (int p = 0; p < m; ++p)
                        if (P[p][i]) f += inst.s[p] > 0 ? b_inf[p][i] : -b_inf[p][i];
                    fit = max(fit, abs(f - inst.y[i]));
                }
                res.fit_error = fit;
                // Global minimum (spec 6.6).
                res.global_min = Status::proven;
                res.global_min_reason = m == 1 ? "X_{P+} w(inf) = y_{P+} (every positive sample active and fitted) and "
                                                 "X_N w(inf) < 0 (every non-positive sample inactive): L(w(inf)) = "
                                                 "1/2 sum_{y<=0} y^2 = min L"
                                               : "every sample with y != 0 is active in some neuron and r_U(inf) = 0: "
                                                 "L(w(inf)) = 0 = min L";
                for (int i = 0; i < n; ++i) {
                    if (m == 1 && !inst.negative[i] && !P[0][i]) {
                        res.global_min = Status::refuted;
                        res.global_min_reason = "positive sample " + std::to_string(i) +
                                                " is certified inactive forever: L(w(inf)) >= min L + y_i^2/2";
                        break;
                    }
                    if (m == 1 && inst.negative[i] && P[0][i]) {  // cannot happen when the tail is certified
                        res.global_min = Status::not_proven;
                        res.global_min_reason = "non-positive sample " + std::to_string(i) + " active in the limit";
                        break;
                    }
                    if (m == 2 && !inU[i] && certainly_nonzero(inst.y[i])) {
                        res.global_min = Status::refuted;
                        res.global_min_reason = "sample " + std::to_string(i) +
                                                " is certified inactive in both neurons forever but y_i != 0: "
                                                "L(w(inf)) >= y_i^2/2 > 0 = min L";
                        break;
                    }
                }
                // Cross-check of spec 4.2 for m = 1: a_S(inf) = G_SS^{-1}(y_S - (Xu)_S - G_{S,S^c} a_{S^c}(K)).
                if (m == 1) {
                    IVec rhs(ku);
                    for (int t = 0; t < ku; ++t) {
                        const int i = td.U[t];
                        IntervalD s = inst.y[i] - inst.Xu[0][i];
                        for (int j = 0; j < n; ++j)
                            if (!inU[j]) s -= inst.G[static_cast<size_t>(i) * n + j] * a[0][j];
                        rhs[t] = s;
                    }
                    const IVec aS = verified_solve(td.vi, td.H, rhs);
                    bool ok = true;
                    IntervalD tmp;
                    for (int t = 0; t < ku; ++t) ok = ok && intersect(aS[t], a_inf[0][td.U[t]], tmp);
                    res.ls_crosscheck = ok ? Status::proven : Status::refuted;
                }
                return res;
            }
            std::ostringstream os;
            os << "tail certificate failed at the last step tried (" << k << "): smallest margin " << worst
               << " (neuron " << wp << ", sample " << wi << "), ||r|| <= " << upper(R);
            last_tail_reason = os.str();
        }
        }
        // GD step (spec 4.1): a_p -= eta s_p D_p r; beta_p -= eta s_p G D_p r.
        // The diagonal term is grouped with beta_p,i itself to avoid the interval dependency effect:
        //   beta_p,i <- (1 - eta G_ii D_p,i) beta_p,i - eta s_p G_ii D_p,i rbar_p,i - eta s_p sum_{j != i} G_ij D_p,j r_j,
        // with rbar_p,i = sum_{q != p} s_q D_q,i beta_q,i - y_i (so r_i = s_p D_p,i beta_p,i + rbar_p,i exactly).
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
            const IntervalD es = eta * IntervalD(inst.s[p]);
            for (int i = 0; i < n; ++i) {
                if (P[p][i]) a[p][i] -= es * r[i];
                IntervalD gv(0);
                for (int j = 0; j < n; ++j)
                    if (j != i && P[p][j]) gv += inst.G[static_cast<size_t>(i) * n + j] * r[j];
                IntervalD b = beta[p][i] - es * gv;
                if (P[p][i]) {
                    const IntervalD& gii = inst.G[static_cast<size_t>(i) * n + i];
                    b = (IntervalD(1) - eta * gii) * beta[p][i] - es * gv - es * gii * rbar[p][i];
                }
                next[p][i] = b;
            }
        }
        beta = std::move(next);
    }
    res.signs = Status::proven;
    res.signs_reason = "every sign certified at steps 0.." + std::to_string(options.max_steps);
    res.tail = Status::not_proven;
    res.tail_reason = "no tail certificate within max_steps = " + std::to_string(options.max_steps) + ": " +
                      last_tail_reason;
    res.pattern = P;
    return res;
}

// ---- w* (KKT certificate, spec 6.7) -------------------------------------------------------------
WStarResult certify_w_star(const Instance& inst, const std::vector<int>* tight_guess) {
    WStarResult res;
    const int n = inst.n;
    std::vector<int> inT(n, 0);
    auto active_set = [&](const std::vector<int>& T) {
        std::vector<int> A;
        for (int i = 0; i < n; ++i)
            if (!inst.negative[i] || T[i]) A.push_back(i);
        return A;
    };
    if (tight_guess) {
        for (int j : *tight_guess)
            if (j >= 0 && j < n && inst.negative[j]) inT[j] = 1;
    } else {
        Eigen::MatrixXd Gm(n, n);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) Gm(i, j) = mid(inst.G[static_cast<size_t>(i) * n + j]);
        Eigen::VectorXd ym(n);
        for (int i = 0; i < n; ++i) ym(i) = mid(inst.y[i]);
        // Non-rigorous primal-dual active-set guess of T (a heuristic: any T is verified below).
        Eigen::VectorXd alpha = Eigen::VectorXd::Zero(n);
        for (int it = 0; it < 4 * n + 10; ++it) {
            res.active_set_iterations = it + 1;
            const auto A = active_set(inT);
            const int k = static_cast<int>(A.size());
            Eigen::MatrixXd GA(k, k);
            Eigen::VectorXd rhs(k);
            for (int a = 0; a < k; ++a) {
                rhs(a) = inst.negative[A[a]] ? 0.0 : ym(A[a]);
                for (int b = 0; b < k; ++b) GA(a, b) = Gm(A[a], A[b]);
            }
            const Eigen::VectorXd xa = GA.ldlt().solve(rhs);
            alpha.setZero();
            for (int a = 0; a < k; ++a) alpha(A[a]) = xa(a);
            const Eigen::VectorXd beta = Gm * alpha;
            bool changed = false;
            for (int j = 0; j < n; ++j) {
                if (!inst.negative[j]) continue;
                if (inT[j] && alpha(j) > 0) {
                    inT[j] = 0;
                    changed = true;
                } else if (!inT[j] && beta(j) > 0) {
                    inT[j] = 1;
                    changed = true;
                }
            }
            if (!changed) break;
        }
    }
    // Rigorous verification of the guess.
    const auto A = active_set(inT);
    const int k = static_cast<int>(A.size());
    for (int i = 0; i < n; ++i)
        if (inT[i]) res.tight.push_back(i);
    IVec GA(static_cast<size_t>(k) * k), rhs(k);
    for (int a = 0; a < k; ++a) {
        rhs[a] = inst.negative[A[a]] ? IntervalD(0) : inst.y[A[a]];
        for (int b = 0; b < k; ++b) GA[static_cast<size_t>(a) * k + b] = inst.G[static_cast<size_t>(A[a]) * n + A[b]];
    }
    const VerifiedInverse vi = verified_inverse(GA, k);
    if (!vi.ok) {
        res.solve_reason = "verified solve of G_AA alpha_A = (y_P+; 0_T) failed: " + vi.reason;
        res.reason = res.solve_reason;
        return res;
    }
    res.solved = true;
    res.solve_reason = "G_AA alpha_A = (y_P+; 0_T) solved (Neumann-series verified inverse, |A| = " +
                       std::to_string(k) + ")";
    const IVec xa = verified_solve(vi, GA, rhs);
    res.alpha.assign(n, IntervalD(0));
    for (int a = 0; a < k; ++a) res.alpha[A[a]] = xa[a];
    res.beta.assign(n, IntervalD(0));
    for (int i = 0; i < n; ++i) {
        IntervalD s(0);
        for (int a = 0; a < k; ++a) s += inst.G[static_cast<size_t>(i) * n + A[a]] * xa[a];
        res.beta[i] = s;
    }
    bool mult_ok = true, feas_ok = true;
    for (int j = 0; j < n; ++j) {
        if (!inst.negative[j]) continue;
        if (inT[j]) {
            res.max_multiplier = res.has_tight ? max(res.max_multiplier, res.alpha[j]) : res.alpha[j];
            res.has_tight = true;
            if (!certainly_nonpositive(res.alpha[j])) {
                if (mult_ok)
                    res.reason = "multiplier sign: alpha*_" + std::to_string(j) + " in " + to_string(res.alpha[j], 6) +
                                 " not certainly <= 0";
                mult_ok = false;
            }
        } else {
            res.max_slack = res.has_slack ? max(res.max_slack, res.beta[j]) : res.beta[j];
            res.has_slack = true;
            if (!certainly_nonpositive(res.beta[j])) {
                if (mult_ok && feas_ok)
                    res.reason = "primal feasibility: <w*, x_" + std::to_string(j) + "> in " + to_string(res.beta[j], 6) +
                                 " not certainly <= 0";
                feas_ok = false;
            }
        }
    }
    if (!mult_ok || !feas_ok) return res;
    res.status = Status::proven;
    res.reason = "KKT: w* = X^T alpha*, G_AA alpha_A = (y_P+; 0_T) (verified solve), alpha*_T <= 0, "
                 "<w*, x_j> <= 0 on N \\ T; convex QP + strong convexity => unique minimizer";
    return res;
}

NearOrthogonality near_orthogonality(const Instance& inst) {
    const int n = inst.n;
    IntervalD off(0), dmin = inst.G[0];
    for (int i = 0; i < n; ++i) {
        dmin = min(dmin, inst.G[static_cast<size_t>(i) * n + i]);
        for (int j = 0; j < n; ++j)
            if (i != j) off = max(off, abs(inst.G[static_cast<size_t>(i) * n + j]));
    }
    return {off / dmin};
}

IntervalD step_size_ratio(const Instance& inst) {
    const int n = inst.n;
    linalg::IMatrixD Gm(n, n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) Gm(i, j) = inst.G[static_cast<size_t>(i) * n + j];
    const auto er = linalg::symmetric_eigenvalues<IntervalD>(Gm);
    if (er.status != linalg::EigenStatus::proven || er.eigenvalues.empty()) return IntervalD::entire();
    IntervalD lmax = er.eigenvalues.front();
    for (const auto& l : er.eigenvalues) lmax = max(lmax, l);
    return IntervalD::exact(inst.eta) * lmax;
}

GapResult enclose_gap(const Instance& inst, const PatternResult& pattern, const WStarResult& wstar) {
    GapResult res;
    if (inst.m != 1) {
        res.reason = "w* (spec 4.3) is reconstructed for m = 1 only";
        return res;
    }
    if (pattern.tail != Status::proven) {
        res.reason = "w(inf) not certified: " + pattern.tail_reason;
        return res;
    }
    if (wstar.status != Status::proven) {
        res.reason = "w* not certified: " + wstar.reason;
        return res;
    }
    const int n = inst.n;
    IVec delta(n);
    for (int i = 0; i < n; ++i) delta[i] = pattern.a_inf[0][i] - wstar.alpha[i];
    IntervalD q = inst.uu[0];
    for (int i = 0; i < n; ++i) {
        q += IntervalD(2) * inst.Xu[0][i] * delta[i];
        IntervalD gi(0);
        for (int j = 0; j < n; ++j) gi += inst.G[static_cast<size_t>(i) * n + j] * delta[j];
        q += delta[i] * gi;
    }
    // q encloses a squared norm (>= 0)
    IntervalD qq;
    if (!intersect(q, IntervalD::bounds(0.0, rounding::kInf), qq)) {
        res.reason = "internal: gap^2 enclosure is negative";
        return res;
    }
    res.gap_sq = qq;
    res.gap = sqrt(qq);
    const IntervalD dd = IntervalD(inst.d);
    if (inst.n_minus > 0) res.ratio_n_minus = res.gap / sqrt(IntervalD(inst.n_minus) / dd);
    res.ratio_n = res.gap / sqrt(IntervalD(n) / dd);
    res.status = Status::proven;
    res.reason = "||w(inf) - w*||^2 = ||u||^2 + 2 (Xu)^T delta + delta^T G delta, delta = a(inf) - alpha*";
    return res;
}

}  // namespace flowcert::nets::rh
