// Trapping ingredients at the first saddle of v^T (W x)^2; see square_net_trap.hpp for the derivations.
#include "flowcert/proofs/kh/square_net_trap.hpp"

#include <cmath>
#include <stdexcept>

namespace flowcert::proofs::kh {

RestrictedHessian restricted_hessian_positive(const SquareNetData& data, const OneNeuronSaddle& p) {
    RestrictedHessian out;
    if (p.status != SaddleStatus::proven) {
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
    if (pd.status != linalg::EigenStatus::proven) {
        out.reason = "P H P + n n^T/|n|^2 not certified positive definite: " + pd.reason;
        return out;
    }
    out.status = SaddleStatus::proven;
    out.reason = "the one-neuron loss Hessian at p* is positive definite on the tangent space of the balanced "
                 "slice (lambda_min(P H P + n n^T/|n|^2) > 0)";
    return out;
}

EscapeBound small_neuron_escape_bound(const SquareNetData& data, const IVectorD& active_box,
                                      const std::vector<double>& rho0, const std::vector<double>& rho_max,
                                      const IntervalD& b) {
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
    if (er.status != linalg::EigenStatus::proven || eg.status != linalg::EigenStatus::proven) {
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
    const double ka = std::max(mag(er.eigenvalues.front()), mag(er.eigenvalues.back()));
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
    out.status = SaddleStatus::proven;
    out.reason = "every small neuron stays below its rho_max for " + std::to_string(out.min_steps) +
                 " GD steps while the iterates stay in the region (active neuron in its box: hypothesis)";
    return out;
}

}  // namespace flowcert::proofs::kh
