// The first saddle of v^T (W x)^2; see square_net_saddle.hpp for the statements and their derivation.
#include "flowcert/proofs/kh/square_net_saddle.hpp"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>

#include <cmath>
#include <stdexcept>

namespace flowcert::proofs::kh {

namespace {

IVectorD point_vector(const Eigen::VectorXd& x) { return linalg::to_interval(x); }

// z_i = w^T x_i over the box.
IVectorD projections(const SquareNetData& data, const IVectorD& w) {
    const int d = data.input_dim(), n = data.samples();
    IVectorD z(n);
    for (int i = 0; i < n; ++i) {
        IntervalD acc(0);
        for (int k = 0; k < d; ++k) acc = acc + w(k) * IntervalD::exact(data.X(k, i));
        z(i) = acc;
    }
    return z;
}

// X diag(g) X^T over the box g.
IMatrixD weighted_gram(const SquareNetData& data, const IVectorD& g) {
    const int d = data.input_dim(), n = data.samples();
    IMatrixD G(d, d);
    for (int k = 0; k < d; ++k)
        for (int l = 0; l <= k; ++l) {
            IntervalD acc(0);
            for (int i = 0; i < n; ++i) acc = acc + g(i) * IntervalD::exact(data.X(k, i)) * IntervalD::exact(data.X(l, i));
            G(k, l) = acc;
            G(l, k) = acc;
        }
    return G;
}

// F(w, v) = (M(r) w, ||w||^2 - 2 v^2 - C) with M(r) w = X (r o z).
IVectorD saddle_system(const SquareNetData& data, const IVectorD& wv, const IntervalD& C) {
    const int d = data.input_dim(), n = data.samples();
    const IVectorD w = wv.head(d);
    const IntervalD v = wv(d);
    const IVectorD z = projections(data, w);
    IVectorD F(d + 1);
    for (int k = 0; k < d; ++k) {
        IntervalD acc(0);
        for (int i = 0; i < n; ++i) acc = acc + (v * sqr(z(i)) - IntervalD::exact(data.y(i))) * z(i) * IntervalD::exact(data.X(k, i));
        F(k) = acc;
    }
    IntervalD nw(0);
    for (int k = 0; k < d; ++k) nw = nw + sqr(w(k));
    F(d) = nw - IntervalD(2) * sqr(v) - C;
    return F;
}

// F' = [[X diag(3 v z^2 - y) X^T, X z^3], [2 w^T, -4 v]].
IMatrixD saddle_jacobian(const SquareNetData& data, const IVectorD& wv) {
    const int d = data.input_dim(), n = data.samples();
    const IVectorD w = wv.head(d);
    const IntervalD v = wv(d);
    const IVectorD z = projections(data, w);
    IVectorD g(n), z3(n);
    for (int i = 0; i < n; ++i) {
        g(i) = IntervalD(3) * v * sqr(z(i)) - IntervalD::exact(data.y(i));
        z3(i) = pow(z(i), 3);
    }
    IMatrixD J(d + 1, d + 1);
    J.topLeftCorner(d, d) = weighted_gram(data, g);
    for (int k = 0; k < d; ++k) {
        IntervalD acc(0);
        for (int i = 0; i < n; ++i) acc = acc + z3(i) * IntervalD::exact(data.X(k, i));
        J(k, d) = acc;
        J(d, k) = IntervalD(2) * w(k);
    }
    J(d, d) = IntervalD(-4) * v;
    return J;
}

// The same system and Jacobian in double (NON-RIGOROUS), for Newton.
Eigen::VectorXd saddle_system_double(const SquareNetData& data, const Eigen::VectorXd& w, double v, double C) {
    const Eigen::VectorXd z = data.X.transpose() * w;
    const Eigen::VectorXd r = v * z.array().square().matrix() - data.y;
    Eigen::VectorXd F(w.size() + 1);
    F.head(w.size()) = data.X * r.cwiseProduct(z);
    F(w.size()) = w.squaredNorm() - 2 * v * v - C;
    return F;
}
Eigen::MatrixXd saddle_jacobian_double(const SquareNetData& data, const Eigen::VectorXd& w, double v) {
    const int d = data.input_dim();
    const Eigen::VectorXd z = data.X.transpose() * w;
    const Eigen::VectorXd g = 3 * v * z.array().square().matrix() - data.y;
    Eigen::MatrixXd J(d + 1, d + 1);
    J.topLeftCorner(d, d) = data.X * g.asDiagonal() * data.X.transpose();
    J.topRightCorner(d, 1) = data.X * z.array().cube().matrix();
    J.bottomLeftCorner(1, d) = 2 * w.transpose();
    J(d, d) = -4 * v;
    return J;
}

}  // namespace

IntervalD loss_at_origin(const SquareNetData& data) {
    IntervalD acc(0);
    for (int i = 0; i < data.samples(); ++i) acc = acc + sqr(IntervalD::exact(data.y(i)));
    return data.c * acc;
}

IMatrixD residual_matrix(const SquareNetData& data, const IVectorD& r) { return weighted_gram(data, r); }

IVectorD one_neuron_residuals(const SquareNetData& data, const IVectorD& w, const IntervalD& v) {
    const IVectorD z = projections(data, w);
    IVectorD r(data.samples());
    for (int i = 0; i < data.samples(); ++i) r(i) = v * sqr(z(i)) - IntervalD::exact(data.y(i));
    return r;
}

OneNeuronGuessNonrigorous one_neuron_saddle_guess_nonrigorous(const SquareNetData& data, const Eigen::VectorXd& w0,
                                                              double v0, double balance, int max_descent_steps) {
    OneNeuronGuessNonrigorous g;
    Eigen::VectorXd w = w0;
    double v = v0;
    const double c = mid(data.c);
    // Gradient descent of the one-neuron loss with a step that halves until the loss decreases.
    auto loss = [&](const Eigen::VectorXd& ww, double vv) {
        const Eigen::VectorXd z = data.X.transpose() * ww;
        return c * (vv * z.array().square().matrix() - data.y).squaredNorm();
    };
    double h = 1.0, L = loss(w, v);
    for (int it = 0; it < max_descent_steps; ++it) {
        const Eigen::VectorXd z = data.X.transpose() * w;
        const Eigen::VectorXd r = v * z.array().square().matrix() - data.y;
        const Eigen::MatrixXd M = data.X * r.asDiagonal() * data.X.transpose();
        const Eigen::VectorXd gw = 4 * c * v * (M * w);
        const double gv = 2 * c * w.dot(M * w);
        if (std::sqrt(gw.squaredNorm() + gv * gv) < 1e-10) break;
        for (int k = 0; k < 60; ++k) {
            const Eigen::VectorXd wn = w - h * gw;
            const double vn = v - h * gv, Ln = loss(wn, vn);
            if (Ln < L) {
                w = wn, v = vn, L = Ln;
                h *= 1.5;
                break;
            }
            h *= 0.5;
        }
        g.descent_steps = it + 1;
    }
    // Move onto the balance slice along the scaling orbit (a w, v / a^2), which keeps H: solve
    // a^2 |w|^2 - 2 v^2 / a^4 = balance for a > 0 by Newton in double.
    double a = 1;
    for (int k = 0; k < 60; ++k) {
        const double f = a * a * w.squaredNorm() - 2 * v * v / std::pow(a, 4) - balance;
        const double fp = 2 * a * w.squaredNorm() + 8 * v * v / std::pow(a, 5);
        a -= f / fp;
        if (!(a > 0)) a = 1e-3;
    }
    w *= a;
    v /= a * a;
    for (int k = 0; k < 30; ++k) {
        const Eigen::VectorXd F = saddle_system_double(data, w, v, balance);
        const Eigen::VectorXd step = saddle_jacobian_double(data, w, v).fullPivLu().solve(F);
        w -= step.head(w.size());
        v -= step(w.size());
        if (step.lpNorm<Eigen::Infinity>() < 1e-17 * (1 + w.lpNorm<Eigen::Infinity>())) break;
    }
    g.w = w;
    g.v = v;
    g.residual = saddle_system_double(data, w, v, balance).lpNorm<Eigen::Infinity>();
    return g;
}

OneNeuronSaddle prove_one_neuron_saddle(const SquareNetData& data, const Eigen::VectorXd& w_guess, double v_guess,
                                        const IntervalD& balance) {
    OneNeuronSaddle out;
    out.balance = balance;
    const int d = data.input_dim();
    if (w_guess.size() != d) throw std::invalid_argument("prove_one_neuron_saddle: w_guess has the wrong size");
    Eigen::VectorXd x0(d + 1);
    x0.head(d) = w_guess;
    x0(d) = v_guess;
    const linalg::VectorFunction<IntervalD> F = [&](const IVectorD& x) { return saddle_system(data, x, balance); };
    const linalg::JacobianFunction<IntervalD> J = [&](const IVectorD& x) { return saddle_jacobian(data, x); };
    const linalg::KrawczykResult<IntervalD> kr = linalg::krawczyk_around<IntervalD>(F, J, point_vector(x0));
    out.contraction_bound = kr.contraction_bound;
    if (kr.status != linalg::KrawczykStatus::unique_zero) {
        out.reason = "Krawczyk on (M(r) w, |w|^2 - 2 v^2 - C): " + kr.reason;
        return out;
    }
    out.w = kr.box.head(d);
    out.v = kr.box(d);
    out.uniqueness_box = kr.uniqueness_box;
    if (!certainly_nonzero(out.v)) {
        out.reason = "the active output weight v of the Krawczyk box contains 0";
        return out;
    }
    out.residuals = one_neuron_residuals(data, out.w, out.v);
    IntervalD acc(0);
    for (int i = 0; i < data.samples(); ++i) acc = acc + sqr(out.residuals(i));
    out.loss = data.c * acc;
    out.M = residual_matrix(data, out.residuals);
    const linalg::EigenResult<IntervalD> er = linalg::symmetric_eigenvalues<IntervalD>(out.M);
    out.M_eigenvalues_proven = er.status == ProofStatus::proven;
    out.M_eigenvalues = er.eigenvalues;
    out.status = ProofStatus::proven;
    out.reason = "unique zero of (M(r) w, |w|^2 - 2 v^2 - C) with v != 0 in the box (Krawczyk, contraction " +
                 std::to_string(kr.contraction_bound) + ")";
    return out;
}

SquareNetGradient square_net_gradient(const SquareNetData& data, const IMatrixD& W, const IVectorD& v) {
    const int m = static_cast<int>(W.rows()), d = data.input_dim(), n = data.samples();
    IVectorD r(n);
    for (int i = 0; i < n; ++i) {
        IntervalD acc(0);
        for (int j = 0; j < m; ++j) {
            IntervalD z(0);
            for (int k = 0; k < d; ++k) z = z + W(j, k) * IntervalD::exact(data.X(k, i));
            acc = acc + v(j) * sqr(z);
        }
        r(i) = acc - IntervalD::exact(data.y(i));
    }
    const IMatrixD M = residual_matrix(data, r);
    SquareNetGradient g;
    g.gW.resize(m, d);
    g.gv.resize(m);
    for (int j = 0; j < m; ++j) {
        const IVectorD wj = W.row(j).transpose();
        const IVectorD Mw = M * wj;
        for (int k = 0; k < d; ++k) g.gW(j, k) = IntervalD(4) * data.c * v(j) * Mw(k);
        IntervalD q(0);
        for (int k = 0; k < d; ++k) q = q + wj(k) * Mw(k);
        g.gv(j) = IntervalD(2) * data.c * q;
    }
    return g;
}

SaddleDirection saddle_direction(const SquareNetData& data, const OneNeuronSaddle& p, bool want_descent) {
    SaddleDirection out;
    if (p.status != ProofStatus::proven) {
        out.reason = "the saddle point is not proven";
        return out;
    }
    const int n = data.samples();
    const Eigen::MatrixXd Mm = linalg::mid<IntervalD>(p.M);
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(Mm);
    Eigen::Index kmax = 0;
    es.eigenvalues().cwiseAbs().maxCoeff(&kmax);
    out.u = es.eigenvectors().col(kmax);
    const double lambda = es.eigenvalues()(kmax);
    // t u^T M u < 0 descends: t = -sign(lambda); the opposite sign ascends.
    out.t = (lambda > 0) == want_descent ? -1.0 : 1.0;
    const IntervalD t = IntervalD::exact(out.t);
    const IVectorD u = point_vector(out.u);
    IntervalD uMu(0), q4(0);
    for (int i = 0; i < n; ++i) {
        IntervalD z(0);
        for (int k = 0; k < data.input_dim(); ++k) z = z + u(k) * IntervalD::exact(data.X(k, i));
        uMu = uMu + p.residuals(i) * sqr(z);
        q4 = q4 + pow(z, 4);
    }
    out.cubic = IntervalD(2) * data.c * t * uMu;
    out.sextic = data.c * sqr(t) * q4;
    const bool sign_ok = want_descent ? certainly_negative(out.cubic) : certainly_positive(out.cubic);
    if (!sign_ok) {
        out.reason = std::string("the s^3 coefficient 2 c t u^T M(r*) u is not certainly ") +
                     (want_descent ? "negative" : "positive");
        return out;
    }
    // An exhibited s: half the root of cubic + sextic s^3 = 0 for descent (any s > 0 for ascent).
    const double root = std::cbrt(std::fabs(mid(out.cubic)) / mid(out.sextic));
    out.s = want_descent ? 0.5 * root : root;
    const IntervalD s = IntervalD::exact(out.s);
    out.change = out.cubic * pow(s, 3) + out.sextic * pow(s, 6);
    const bool change_ok = want_descent ? certainly_negative(out.change) : certainly_positive(out.change);
    if (!change_ok) {
        out.reason = "L(p* + s e) - L(p*) at the exhibited s is not of the proven sign";
        return out;
    }
    out.status = ProofStatus::proven;
    out.reason = std::string(want_descent ? "descent" : "ascent") +
                 " along one zero neuron: L(p* + s e) - L(p*) = cubic s^3 + sextic s^6 (exact), cubic certainly " +
                 (want_descent ? "< 0" : "> 0");
    return out;
}

}  // namespace flowcert::proofs::kh
