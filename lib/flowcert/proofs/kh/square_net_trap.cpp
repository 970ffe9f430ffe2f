// Trapping ingredients at the first saddle of v^T (W x)^2; see square_net_trap.hpp for the derivations.
#include "flowcert/proofs/kh/square_net_trap.hpp"


#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace flowcert::proofs::kh {

RestrictedHessian restricted_hessian_positive(const SquareNetData& data, const OneNeuronSaddle& p) {
    RestrictedHessian out;
    if (p.status != ProofStatus::proven) {
        out.reason = "the saddle point is not proven";
        return out;
    }
    const int d = data.input_dim(), n = data.samples();
    IVectorD z(n);
    for (int i = 0; i < n; ++i) {
        IntervalD acc(0);
        for (int k = 0; k < d; ++k) acc = acc + p.w(k) * IntervalD::exact(data.X(k, i));
        z(i) = acc;
    }
    IVectorD g(n);
    for (int i = 0; i < n; ++i) g(i) = p.residuals(i) + IntervalD(2) * p.v * sqr(z(i));
    const IntervalD four_c = IntervalD(4) * data.c;
    IMatrixD H(d + 1, d + 1);
    const IMatrixD G = residual_matrix(data, g);  // X diag(r + 2 v z^2) X^T
    IntervalD z4(0);
    for (int i = 0; i < n; ++i) z4 = z4 + pow(z(i), 4);
    for (int k = 0; k < d; ++k) {
        for (int l = 0; l < d; ++l) H(k, l) = four_c * p.v * G(k, l);
        IntervalD acc(0);
        for (int i = 0; i < n; ++i)
            acc = acc + (p.residuals(i) * z(i) + p.v * pow(z(i), 3)) * IntervalD::exact(data.X(k, i));
        H(k, d) = four_c * acc;
        H(d, k) = H(k, d);
    }
    H(d, d) = IntervalD(2) * data.c * z4;
    out.hessian = H;
    // B = P H P + gamma n n^T / |n|^2 with n = (2w, -4v), P = I - n n^T / |n|^2, gamma = 1.
    IVectorD nv(d + 1);
    for (int k = 0; k < d; ++k) nv(k) = IntervalD(2) * p.w(k);
    nv(d) = IntervalD(-4) * p.v;
    IntervalD n2(0);
    for (int k = 0; k <= d; ++k) n2 = n2 + sqr(nv(k));
    IMatrixD Pm(d + 1, d + 1);
    for (int k = 0; k <= d; ++k)
        for (int l = 0; l <= d; ++l) Pm(k, l) = (k == l ? IntervalD(1) : IntervalD(0)) - nv(k) * nv(l) / n2;
    IMatrixD B = Pm * H * Pm;
    for (int k = 0; k <= d; ++k)
        for (int l = 0; l <= d; ++l) B(k, l) = B(k, l) + nv(k) * nv(l) / n2;
    const linalg::DefinitenessResult<IntervalD> pd = linalg::certainly_positive_definite<IntervalD>(B);
    out.lambda_min = pd.lambda_min;
    if (pd.status != ProofStatus::proven) {
        out.reason = "P H P + n n^T/|n|^2 not certified positive definite: " + pd.reason;
        return out;
    }
    out.status = ProofStatus::proven;
    out.reason = "the one-neuron loss Hessian at p* is positive definite on the tangent space of the balanced "
                 "slice (lambda_min(P H P + n n^T/|n|^2) > 0)";
    return out;
}

EscapeBound small_neuron_escape_bound(const SquareNetData& data, const IVectorD& active_box,
                                      const std::vector<double>& rho0, const std::vector<double>& rho_max,
                                      const IntervalD& b, double kappa_active_upper) {
    EscapeBound out;
    const int d = data.input_dim(), n = data.samples();
    if (active_box.size() != d + 1 || rho0.size() != rho_max.size())
        throw std::invalid_argument("small_neuron_escape_bound: sizes");
    // M(r) = M(r_a) + M(dr) with r_a the active neuron's residuals over U and dr_i = sum_j v_j (w_j^T x_i)^2:
    //   ||M(dr)||_2 <= sum_i |dr_i| |x_i|^2 <= max_i |x_i|^2 sum_j |v_j| w_j^T X X^T w_j
    //              <= max_i |x_i|^2 lambda_max(X X^T) sum_j rho_max_j^3 / 3  (|v| |w|^2 <= rho^3 / 3),
    // so kappa = max |eig M(r_a)| + that bound is >= ||M(r)||_2 over R.
    IntervalD pert(0);
    for (double r : rho_max) pert = pert + pow(IntervalD::exact(r), 3) / IntervalD(3);
    const IVectorD ra = one_neuron_residuals(data, active_box.head(d), active_box(d));
    const linalg::EigenResult<IntervalD> er = linalg::symmetric_eigenvalues<IntervalD>(residual_matrix(data, ra));
    const linalg::EigenResult<IntervalD> eg =
        linalg::symmetric_eigenvalues<IntervalD>(linalg::gram_enclosure(Eigen::MatrixXd(data.X)));
    if (er.status != ProofStatus::proven || eg.status != ProofStatus::proven) {
        out.reason = "eigenvalues of M(r_a) over U or of X X^T not enclosed";
        return out;
    }
    IntervalD x2max(0);
    for (int i = 0; i < n; ++i) {
        IntervalD x2(0);
        for (int k = 0; k < d; ++k) x2 = x2 + sqr(IntervalD::exact(data.X(k, i)));
        x2max = max(x2max, x2);
    }
    const IntervalD mdr = x2max * eg.eigenvalues.back() * pert;
    const double ka = std::min(std::max(mag(er.eigenvalues.front()), mag(er.eigenvalues.back())), kappa_active_upper);
    out.kappa_active = ka;
    out.kappa = IntervalD::bounds(0, (IntervalD::exact(ka) + mdr).upper());
    // L over R: L = c |r_a + dr|^2 >= c (|r_a| - |dr|)^2 with |dr|_2 <= sum_i |dr_i| <= the bound above
    // (max |x_i|^2 >= ... only enlarges it).
    IntervalD ra2(0);
    for (int i = 0; i < n; ++i) ra2 = ra2 + sqr(ra(i));
    const double gap = (sqrt(ra2) - mdr).lower();
    out.loss_lower = gap > 0 ? data.c * sqr(IntervalD::bounds(gap, gap)) : IntervalD(0);
    const IntervalD beta = IntervalD(8) / IntervalD(5) * b * out.kappa;
    out.beta = beta.upper();
    out.min_steps = -1;
    for (std::size_t j = 0; j < rho0.size(); ++j) {
        if (!(rho0[j] > 0) || !(rho0[j] < rho_max[j])) {
            out.reason = "need 0 < rho0 < rho_max for every small neuron";
            return out;
        }
        // k <= (1/rho0 - 1/rho_max) / beta, rounded down (lower end of the interval quotient).
        const IntervalD q = (IntervalD(1) / IntervalD::exact(rho0[j]) - IntervalD(1) / IntervalD::exact(rho_max[j])) /
                            IntervalD::exact(out.beta);
        const long k = static_cast<long>(std::floor(q.lower()));
        out.steps.push_back(k);
        if (out.min_steps < 0 || k < out.min_steps) out.min_steps = k;
    }
    out.status = ProofStatus::proven;
    out.reason = "every small neuron stays below its rho_max for " + std::to_string(out.min_steps) +
                 " GD steps while the iterates stay in the region (active neuron in its box: hypothesis)";
    return out;
}

double active_matrix_norm_bound(const SquareNetData& data, const OneNeuronSaddle& p, const IVectorD& U, double R) {
    const int d = data.input_dim(), n = data.samples();
    if (!p.M_eigenvalues_proven || p.M_eigenvalues.empty()) return std::numeric_limits<double>::infinity();
    const double eig_star = std::max(mag(p.M_eigenvalues.front()), mag(p.M_eigenvalues.back()));
    IntervalD G(0);  // max_i sup_U |grad r_i|
    for (int i = 0; i < n; ++i) {
        IntervalD z(0), x2(0);
        for (int k = 0; k < d; ++k) {
            z = z + U(k) * IntervalD::exact(data.X(k, i));
            x2 = x2 + sqr(IntervalD::exact(data.X(k, i)));
        }
        G = max(G, sqrt(IntervalD(4) * sqr(U(d)) * sqr(z) * x2 + pow(z, 4)));
    }
    const IntervalD lamX = linalg::lambda_max_enclosure<IntervalD>(linalg::gram_enclosure(Eigen::MatrixXd(data.X)));
    return (IntervalD::exact(eig_star) + lamX * G * IntervalD::exact(R)).upper();
}

namespace {

IntervalD upper_only(double x) { return IntervalD::bounds(0, x); }

// An upper bound of |D^3 L1[u, u, u]| over U, |u| = 1, from the expansion (u = (dw, dv), s_i = x_i^T dw, z_i = w^T x_i)
//     D^3 L1[u^3] = c sum_i (6 r_i' r_i'' + 2 r_i r_i''')
//                 = c (24 v^2 sum z_i s_i^3 + 60 v dv sum z_i^2 s_i^2 + 24 dv^2 sum z_i^3 s_i + 12 dv dw^T M(r_a) dw)
// (r' = 2 v z s + z^2 dv, r'' = 2 v s^2 + 4 z s dv, r''' = 6 dv s^2), with
//     |sum z s^3| <= C3 |dw|^3, C3 = min(sqrt(x2) lambda_max(X diag|z| X^T), sqrt(Q lambda_X x2)),
//     |sum z^2 s^2| <= Q |dw|^2, Q = lambda_max(X diag(z^2) X^T),  |sum z^3 s| <= |X z^3| |dw|,
//     |dw^T M dw| <= kappa_a |dw|^2,
// maximized over a = |dw| in [0, 1], b = |dv| = sqrt(1 - a^2) on 64 pieces.
double third_derivative_bound(const SquareNetData& data, const IVectorD& z, double V, double kappa_a,
                              const IntervalD& x2, const IntervalD& lamX) {
    const int d = data.input_dim(), n = data.samples();
    IVectorD z2(n), za(n);
    for (int i = 0; i < n; ++i) {
        z2(i) = sqr(z(i));
        za(i) = IntervalD::exact(mag(z(i)));
    }
    const IntervalD Q = upper_only(linalg::lambda_max_enclosure<IntervalD>(residual_matrix(data, z2)).upper());
    const IntervalD Cz = upper_only(linalg::lambda_max_enclosure<IntervalD>(residual_matrix(data, za)).upper());
    const IntervalD C3 = upper_only(min(sqrt(x2) * Cz, sqrt(Q * lamX * x2)).upper());
    IntervalD l2(0);
    for (int k = 0; k < d; ++k) {
        IntervalD acc(0);
        for (int i = 0; i < n; ++i) acc = acc + pow(z(i), 3) * IntervalD::exact(data.X(k, i));
        l2 = l2 + sqr(acc);
    }
    const IntervalD ell = sqrt(l2), Vi = upper_only(V), ka = upper_only(kappa_a);
    double best = 0;
    constexpr int pieces = 64;
    for (int k = 0; k < pieces; ++k) {
        const IntervalD a = IntervalD::bounds(k, k + 1) / IntervalD(pieces);
        const IntervalD b = sqrt(max(IntervalD(0), IntervalD(1) - sqr(a)));
        const IntervalD g = IntervalD(24) * sqr(Vi) * C3 * pow(a, 3) + IntervalD(60) * Vi * Q * sqr(a) * b +
                            IntervalD(24) * ell * a * sqr(b) + IntervalD(12) * ka * sqr(a) * b;
        best = std::max(best, (data.c * g).upper());
    }
    return best;
}

// f(r) = lambda/2 (r^2 - alpha^2) - T3 r^3 / 6 with alpha = min(r, (dC + 2 r^2) / nmin), over the interval r.
IntervalD shell_lower(const IntervalD& r, double lambda, double T3, double dC, double nmin) {
    const IntervalD al = min(r, (IntervalD::exact(dC) + IntervalD(2) * sqr(r)) / IntervalD::exact(nmin));
    return IntervalD::exact(lambda) / IntervalD(2) * (sqr(r) - sqr(al)) - IntervalD::exact(T3) * pow(r, 3) / IntervalD(6);
}

// min of the lower ends of f over [lo, hi], split into `pieces` subintervals.
double shell_min_over(double lo, double hi, int pieces, double lambda, double T3, double dC, double nmin) {
    double out = std::numeric_limits<double>::infinity();
    for (int k = 0; k < pieces; ++k) {
        const IntervalD r = IntervalD::exact(lo) + (IntervalD::exact(hi) - IntervalD::exact(lo)) *
                                                       IntervalD::bounds(k, k + 1) / IntervalD(pieces);
        out = std::min(out, shell_lower(r, lambda, T3, dC, nmin).lower());
    }
    return out;
}

ProofResult premise(bool ok, const std::string& yes, const std::string& no) {
    return ok ? ProofResult::proven(yes) : ProofResult::not_proven(no);
}

// Data constants: x2 = max |x_i|^2, x4 = sum |x_i|^4, lamX = lambda_max(X X^T).
struct DataConstants {
    IntervalD x2{0}, x4{0}, lamX{0};
};
DataConstants data_constants(const SquareNetData& data) {
    const int d = data.input_dim(), n = data.samples();
    DataConstants k;
    for (int i = 0; i < n; ++i) {
        IntervalD t(0);
        for (int j = 0; j < d; ++j) t = t + sqr(IntervalD::exact(data.X(j, i)));
        k.x2 = max(k.x2, t);
        k.x4 = k.x4 + sqr(t);
    }
    k.lamX = linalg::lambda_max_enclosure<IntervalD>(linalg::gram_enclosure(Eigen::MatrixXd(data.X)));
    return k;
}

// The hand-off: rho_j(theta_0) of the other neurons and their radii rho_max_j = growth rho_j, the active
// neuron's distance to p* and its balance C0 = |w|^2 - 2 v^2, and nmin = |(2 w*, 4 v*)| (the shell's alpha).
struct Handoff {
    std::vector<double> rho0, rho_max;
    double distance = 0, nmin = 0;
    IntervalD C0{0};
};
Handoff handoff_state(const OneNeuronSaddle& p, const PlateauTrapInput& in, int d) {
    Handoff o;
    const int m = static_cast<int>(in.W.rows());
    for (int j = 0; j < m; ++j) {
        if (j == in.active) continue;
        IntervalD r2 = IntervalD(2) * sqr(in.v(j));
        for (int k = 0; k < d; ++k) r2 = r2 + sqr(in.W(j, k));
        const double r0 = std::max(sqrt(r2).upper(), 1e-300);
        o.rho0.push_back(r0);
        o.rho_max.push_back((IntervalD::exact(r0) * IntervalD::exact(in.growth)).upper());
    }
    IntervalD dist2 = sqr(in.v(in.active) - p.v), C0 = IntervalD(-2) * sqr(in.v(in.active));
    for (int k = 0; k < d; ++k) {
        dist2 = dist2 + sqr(in.W(in.active, k) - p.w(k));
        C0 = C0 + sqr(in.W(in.active, k));
    }
    o.distance = sqrt(dist2).upper();
    o.C0 = C0;
    IntervalD n2 = IntervalD(16) * sqr(p.v);
    for (int k = 0; k < d; ++k) n2 = n2 + IntervalD(4) * sqr(p.w(k));
    o.nmin = sqrt(n2).lower();
    return o;
}

// The region U = p* box + [-R, R] and the bounds over it (T3, |v|, |w|^2, ||J_a^T J_a||, kappa_a, the Frobenius
// term JFa); with an automatic radius R = 2 lambda / T3(U) by a few passes (any R is sound: the premises decide).
// Every bound is computed over the U of the final R (the last pass does not update R).
struct Region {
    double R = 0, T3 = 0, V = 0, W2 = 0, Gmax = 0, ka = std::numeric_limits<double>::infinity();
    IVectorD U;
    IntervalD JFa{0};
};
Region region_bounds(const SquareNetData& data, const OneNeuronSaddle& p, const PlateauTrapInput& in,
                     const DataConstants& dc, double lambda, double handoff_distance) {
    const int d = data.input_dim(), n = data.samples();
    const IntervalD c = data.c, x2 = dc.x2, lamX = dc.lamX;
    Region out;
    double R = in.radius > 0 ? in.radius : std::max(handoff_distance * 1.05, 1e-4);
    IVectorD U(d + 1);
    double T3 = 0, V = 0, W2 = 0, Gmax = 0, ka = std::numeric_limits<double>::infinity();
    IntervalD JFa(0);
    const int passes = in.radius > 0 ? 1 : 5;
    for (int pass = 0; pass < passes; ++pass) {
        for (int k = 0; k < d; ++k) U(k) = inflate(p.w(k), R);
        U(d) = inflate(p.v, R);
        IVectorD z(n), g(n), z3(n);
        IntervalD z4(0);
        JFa = IntervalD(0);
        for (int i = 0; i < n; ++i) {
            IntervalD acc(0), xi2(0);
            for (int k = 0; k < d; ++k) {
                acc = acc + U(k) * IntervalD::exact(data.X(k, i));
                xi2 = xi2 + sqr(IntervalD::exact(data.X(k, i)));
            }
            z(i) = acc;
            g(i) = IntervalD(4) * sqr(U(d)) * sqr(z(i));
            z3(i) = IntervalD(2) * U(d) * pow(z(i), 3);
            z4 = z4 + pow(z(i), 4);
            JFa = JFa + g(i) * xi2 + pow(z(i), 4);
        }
        const IVectorD ra = one_neuron_residuals(data, U.head(d), U(d));
        double Z = 0, Ra = 0;
        for (int i = 0; i < n; ++i) {
            Z = std::max(Z, mag(z(i)));
            Ra = std::max(Ra, mag(ra(i)));
        }
        IntervalD w2(0);
        for (int k = 0; k < d; ++k) w2 = w2 + sqr(U(k));
        V = mag(U(d));
        W2 = w2.upper();
        IMatrixD G(d + 1, d + 1);  // J_a^T J_a over U
        G.topLeftCorner(d, d) = residual_matrix(data, g);
        for (int k = 0; k < d; ++k) {
            IntervalD acc(0);
            for (int i = 0; i < n; ++i) acc = acc + z3(i) * IntervalD::exact(data.X(k, i));
            G(k, d) = G(d, k) = acc;
        }
        G(d, d) = z4;
        const IntervalD gmax = linalg::lambda_max_enclosure<IntervalD>(G);
        Gmax = gmax.upper();
        const IntervalD Vi = IntervalD::exact(V), Zi = IntervalD::exact(Z);
        // ||M(r_a)|| over U: the centred form, or max |r_a,i| lambda_X.
        ka = std::min(active_matrix_norm_bound(data, p, U, R), (IntervalD::exact(Ra) * lamX).upper());
        // T3: the smaller of the Cauchy-Schwarz bound (6 |r'| |r''| + 4.62 ||M(r_a)||) and the expanded one.
        T3 = std::min((c * (IntervalD(6) * sqrt(upper_only(gmax.upper())) *
                                sqrt(lamX * max(IntervalD(8) * sqr(Vi) * x2, IntervalD(32) * sqr(Zi))) +
                            IntervalD::from_decimal("4.62") * IntervalD::exact(ka)))
                          .upper(),
                      third_derivative_bound(data, z, V, ka, x2, lamX));
        if (pass + 1 < passes)
            R = std::max((IntervalD(2) * IntervalD::exact(lambda) / IntervalD::exact(T3)).lower(),
                         handoff_distance * 1.05);
    }
    out.R = R;
    out.T3 = T3;
    out.V = V;
    out.W2 = W2;
    out.Gmax = Gmax;
    out.ka = ka;
    out.U = U;
    out.JFa = JFa;
    return out;
}

// (a) kappa over the region and the escape steps K. With beta and K of rho_max_j = growth rho_j, every neuron
// gets the radius its comparison sequence reaches in those K steps, 1 / (1/rho_j - beta K) <= growth rho_j: a
// smaller region (kappa, so beta, only decrease), on which the bound is proven again.
EscapeBound escape_steps(const SquareNetData& data, const IVectorD& U, const std::vector<double>& rho0,
                         std::vector<double>& rho_max, const IntervalD& b, double ka) {
    EscapeBound eb = small_neuron_escape_bound(data, U, rho0, rho_max, b, ka);
    if (eb.status == ProofStatus::proven && eb.min_steps > 0) {
        const IntervalD bK = IntervalD::exact(eb.beta) * IntervalD::exact(static_cast<double>(eb.min_steps));
        for (std::size_t j = 0; j < rho0.size(); ++j) {
            const IntervalD den = IntervalD(1) / IntervalD::exact(rho0[j]) - bK;
            if (den.lower() > 0) rho_max[j] = std::min(rho_max[j], (IntervalD(1) / den).upper());
        }
        eb = small_neuron_escape_bound(data, U, rho0, rho_max, b, ka);
    }
    return eb;
}

}  // namespace

PlateauTrap prove_plateau_trap(const SquareNetData& data, const OneNeuronSaddle& p, const RestrictedHessian& rh,
                               const PlateauTrapInput& in) {
    PlateauTrap out;
    const int d = data.input_dim();
    if (p.status != ProofStatus::proven || rh.status != ProofStatus::proven) {
        out.reason = "p* or its restricted Hessian is not proven";
        return out;
    }
    const IntervalD c = data.c, a = IntervalD(4) * c * in.h, b = IntervalD(2) * c * in.h;
    out.lambda = rh.lambda_min.lower();
    const DataConstants dc = data_constants(data);
    const IntervalD x2 = dc.x2, x4 = dc.x4, lamX = dc.lamX;
    Handoff ho = handoff_state(p, in, d);
    std::vector<double>& rho_max = ho.rho_max;
    const IntervalD C0 = ho.C0;
    const double nmin = ho.nmin;
    out.handoff_distance = ho.distance;
    const Region rg = region_bounds(data, p, in, dc, out.lambda, out.handoff_distance);
    const double R = rg.R, T3 = rg.T3, V = rg.V, W2 = rg.W2, Gmax = rg.Gmax;
    const IVectorD& U = rg.U;
    const IntervalD JFa = rg.JFa;
    out.T3 = T3;
    out.outer_radius = R;
    out.handoff = premise(out.handoff_distance <= R, "the hand-off active neuron is within R_b of p*",
                          "the hand-off active neuron is " + format_g(out.handoff_distance) +
                              " from p*, more than R_b = " + format_g(R));
    const EscapeBound eb = escape_steps(data, U, ho.rho0, rho_max, b, rg.ka);
    out.escape = {eb.status, eb.reason};
    if (eb.status != ProofStatus::proven) {
        out.reason = "escape bound: " + eb.reason;
        return out;
    }
    out.kappa = eb.kappa.upper();
    out.kappa_active = eb.kappa_active;
    out.steps = eb.min_steps;
    const IntervalD kap = upper_only(out.kappa), Vi = upper_only(V), W2i = upper_only(W2);
    // (b) descent.
    IntervalD JF = JFa;
    double rmx = 0;
    for (double r : rho_max) {
        JF = JF + IntervalD::from_decimal("1.5") * pow(IntervalD::exact(r), 4) * x4;
        rmx = std::max(rmx, r);
    }
    const IntervalD blockmax = max(Vi + sqrt(W2i), IntervalD::exact(rmx) * (IntervalD(1) + IntervalD(1) / sqrt(IntervalD(2))));
    const IntervalD Lam = IntervalD(2) * c * (JF + IntervalD(2) * kap * blockmax);
    out.Lambda = Lam.upper();
    const double hL = (in.h * Lam).upper();
    out.descent = premise(hL <= 2, "h Lambda = " + format_g(hL) + " <= 2", "h Lambda = " + format_g(hL) + " > 2");
    // (d) level and perturbation.
    IntervalD pert(0);
    for (double r : rho_max) pert = pert + IntervalD::from_decimal("0.2722") * pow(IntervalD::exact(r), 3);
    pert = IntervalD(2) * c * IntervalD::exact(out.kappa_active) * pert;
    out.perturbation = pert.upper();
    out.level_gap = (upper_only(in.loss.upper()) + pert - IntervalD::exact(p.loss.lower())).upper();
    // (f) step length and the inner radius: grad_a L = grad L1(a) + 2c J_a^T dr with |grad L1(a)| <= Lambda_1 |a - p*|
    // (grad L1(p*) = 0; Lambda_1 = 2c (||J_a^T J_a|| + 2 kappa_a (V + sqrt W2)) bounds Hess L1 over U) and
    // |dr|_2 <= sum_j |v_j| |X^T w_j|^2 <= lambda_X sum_j 0.2722 rho_max_j^3.
    IntervalD drs(0);
    for (double r : rho_max) drs = drs + IntervalD::from_decimal("0.2722") * pow(IntervalD::exact(r), 3);
    const IntervalD Gi = upper_only(Gmax);
    const IntervalD Lam1 = IntervalD(2) * c * (Gi + IntervalD(2) * IntervalD::exact(out.kappa_active) * (Vi + sqrt(W2i)));
    // a_k lies in the inner ball (the shell lemma), so |a_k - p*| <= R_s in the gradient bound: R_s + sigma <= R_b
    // with sigma = h (Lambda_1 R_s + e) gives R_s = (R_b - h e) / (1 + h Lambda_1).
    const IntervalD e_dr = IntervalD(2) * c * sqrt(Gi) * lamX * drs;
    const IntervalD Rs = (IntervalD::exact(R) - in.h * e_dr) / (IntervalD(1) + in.h * Lam1);
    // (c) balance band: M w = M(r_a) w + M(dr) w with 4c v M(r_a) w = grad_w L1 and 2c w^T M(r_a) w = dL1/dv, so
    // |M w| <= Lambda_1 R_b / (4c |v|_min) + ||M(dr)|| sqrt W2, |w^T M w| <= Lambda_1 R_b / (2c) + ||M(dr)|| W2,
    // ||M(dr)|| <= max_i |x_i|^2 lambda_X sum_j 0.2722 rho_max_j^3.
    const IntervalD Mdr = x2 * lamX * drs;
    const IntervalD gw = Lam1 * IntervalD::exact(R) / (IntervalD(4) * c * IntervalD::exact(mig(U(d)))) + Mdr * sqrt(W2i);
    const IntervalD gq = Lam1 * IntervalD::exact(R) / (IntervalD(2) * c) + Mdr * W2i;
    const IntervalD dCstep = max(sqr(a) * sqr(Vi) * sqr(min(gw, kap * sqrt(W2i))), IntervalD(2) * sqr(b) * sqr(min(gq, kap * W2i)));
    // Telescoped (premise (b)): |C_{k+1} - C_k| <= 2 h^2 |grad L(theta_k)|^2 <= 2 h (L_k - L_{k+1}) / (1 - h Lambda / 2),
    // so the total drift is <= 2 h (L(theta_0) - inf_R L) / (1 - h Lambda / 2), inf_R L >= the escape bound's
    // c (|r_a| - |dr|)^2.
    IntervalD total = IntervalD::exact(static_cast<double>(out.steps)) * dCstep;
    if (hL < 2) {
        const IntervalD tel = IntervalD(2) * in.h * upper_only((upper_only(in.loss.upper()) - IntervalD::exact(eb.loss_lower.lower())).upper()) /
                              (IntervalD(1) - in.h * Lam / IntervalD(2));
        total = min(total, tel);
    }
    out.balance_band = (upper_only(mag(C0 - p.balance)) + total).upper();
    out.inner_radius = Rs.lower();
    out.sigma = (in.h * (Lam1 * IntervalD::exact(std::max(out.inner_radius, 0.0)) + e_dr)).upper();
    out.step_inside = premise(out.inner_radius > 0 && out.inner_radius + out.sigma <= R,
                              "R_s > 0 and R_s + sigma(R_s) <= R_b", "the step length sigma exceeds R_b");
    // (e) the shell.
    if (out.inner_radius > 0) {
        out.shell_min = shell_min_over(out.inner_radius, R, 64, out.lambda, T3, out.balance_band, nmin);
        out.shell = premise(out.shell_min > out.level_gap,
                            "min f over the shell " + format_g(out.shell_min) + " > l - L(p*) = " +
                                format_g(out.level_gap),
                            "min f over the shell " + format_g(out.shell_min) + " <= l - L(p*) = " +
                                format_g(out.level_gap) + " (lambda " + format_g(out.lambda) + ", T3 " +
                                format_g(T3) + ", R_b " + format_g(R) + ", perturbation " +
                                format_g(out.perturbation) + ")");
    } else {
        out.shell = ProofResult::not_proven("no shell: R_s <= 0");
    }
    const double fin = std::min(0.0, shell_min_over(0, std::max(out.inner_radius, 0.0), 64, out.lambda, T3,
                                                    out.balance_band, nmin));
    out.loss_band = IntervalD::bounds((IntervalD::exact(p.loss.lower()) + IntervalD::exact(fin) - pert).lower(),
                                      in.loss.upper());
    for (const ProofResult* r : {&out.handoff, &out.descent, &out.shell, &out.step_inside, &out.escape})
        if (r->status != ProofStatus::proven) {
            out.reason = "premise not proven: " + r->reason;
            return out;
        }
    out.status = ProofStatus::proven;
    out.reason = "the iterates stay in R for " + std::to_string(out.steps) + " steps past the hand-off";
    return out;
}

}  // namespace flowcert::proofs::kh
