// flowcert/proofs/kh/square_net_saddle.hpp -- the plateau values and the first saddle of the square net
// H(x) = v^T (W x)^2 = sum_j v_j (w_j^T x)^2 [KH2025, Fig. 1; eq. (9) with sigma(z) = z^2].
//
// Loss L = c sum_i r_i^2 with residuals r_i = H(x_i) - y_i (c = 1/n: the authors' Figure-1 code, MSELoss).
// Every neuron couples to the others only through the shared d x d matrix M(r) = sum_i r_i x_i x_i^T:
//     grad_{w_j} L = 4 c v_j M(r) w_j,     dL/dv_j = 2 c w_j^T M(r) w_j.
// Statements proven here (IntervalD):
//  * loss_at_origin: L(0) = c sum_i y_i^2 (plateau 1; H(x; 0) = 0).
//  * prove_one_neuron_saddle: the first saddle p* [KH2025, Cor. 11; spec section 7]: one active neuron
//    (w, v) and every other neuron exactly 0. On the active block grad L = 0 reads M(r) w = 0 (v != 0; then
//    w^T M w = 0 too); the scaling orbit (a w, v / a^2) leaves H unchanged, so the balance equation
//    ||w||^2 - 2 v^2 = C [KH2025, Lemma 17 with p = 2; conserved by the flow] picks one point of it.
//    Krawczyk on F(w, v) = (M(r(w, v)) w, ||w||^2 - 2 v^2 - C) proves one zero in a small box. On a zero
//    neuron grad L = (4 c v_j M w_j, 2 c w_j^T M w_j) is exactly 0 (w_j = v_j = 0), so p* is a critical
//    point of L in all m (d + 1) parameters.
//  * L(p*) (plateau 2) and an eigenvalue enclosure of M(r*) (the escape rates of the zero neurons).
//  * The saddle order: every second derivative of L with a zero-neuron index vanishes at p* (L depends on
//    neuron j only through v_j (w_j^T x_i)^2, of degree 3, and neurons enter r additively), so the
//    Hessian is block diagonal with a zero block. Along e = (w_j, v_j) = s (u, t) for one zero neuron j,
//    r(p* + e) = r* + s^3 t (u^T x_i)^2 exactly, hence
//        L(p* + s e) - L(p*) = 2 c t s^3 u^T M(r*) u + c t^2 s^6 sum_i (u^T x_i)^4        (exact)
//    so t u^T M(r*) u < 0 gives a third-order descent direction and t u^T M(r*) u > 0 an ascent direction:
//    p* is neither a local minimum nor a local maximum (a saddle of order 3).
#pragma once

#include <flowcert/linalg.hpp>
#include <flowcert/nets.hpp>

#include <Eigen/Core>

#include <string>
#include <vector>

namespace flowcert::proofs::kh {

using linalg::IMatrixD;
using linalg::IVectorD;

// The data of a square net v^T (W x)^2: inputs X (d x n, exact doubles), labels y (exact doubles) and the
// loss scale c (an enclosure, e.g. of 1/n).
struct SquareNetData {
    Eigen::MatrixXd X;
    Eigen::VectorXd y;
    IntervalD c;
    int input_dim() const { return static_cast<int>(X.rows()); }
    int samples() const { return static_cast<int>(X.cols()); }
};


// L(0) = c sum_i y_i^2.
IntervalD loss_at_origin(const SquareNetData& data);

// M(r) = sum_i r_i x_i x_i^T over the residual box r (symmetric entrywise).
IMatrixD residual_matrix(const SquareNetData& data, const IVectorD& r);
// Residuals r_i = v (w^T x_i)^2 - y_i of a single neuron over the box (w, v).
IVectorD one_neuron_residuals(const SquareNetData& data, const IVectorD& w, const IntervalD& v);

// A one-neuron critical point found in double (NON-RIGOROUS): gradient descent of the one-neuron loss
// from `w0`, `v0` (e.g. the NCF direction scaled small), then Newton on F above with balance `balance`.
struct OneNeuronGuessNonrigorous {
    Eigen::VectorXd w;
    double v = 0;
    double residual = 0;  // ||F||_inf in double
    int descent_steps = 0;
};
OneNeuronGuessNonrigorous one_neuron_saddle_guess_nonrigorous(const SquareNetData& data, const Eigen::VectorXd& w0,
                                                              double v0, double balance, int max_descent_steps);

struct OneNeuronSaddle {
    ProofStatus status = ProofStatus::not_proven;
    std::string reason = "not run";
    IVectorD w;             // the unique zero's w lies here (size d)
    IntervalD v;            // and its v
    IVectorD uniqueness_box;  // (w, v) box in which it is the only zero of F (size d + 1)
    IntervalD balance;      // the C used
    IntervalD loss;         // L(p*)
    IVectorD residuals;     // r* enclosures
    IMatrixD M;             // M(r*) over the box
    std::vector<IntervalD> M_eigenvalues;  // sorted enclosures of the eigenvalues of M(r*)
    bool M_eigenvalues_proven = false;
    double contraction_bound = 0;
};

// Krawczyk on F(w, v) = (M(r) w, ||w||^2 - 2 v^2 - balance) around the guess; then L(p*), r*, M(r*), eig M(r*).
OneNeuronSaddle prove_one_neuron_saddle(const SquareNetData& data, const Eigen::VectorXd& w_guess, double v_guess,
                                        const IntervalD& balance);

// grad L of the full net (m neurons; W is m x d row-major rows w_j, v of size m) over boxes, by the shared
// matrix formulas above; the zero-block test of p* evaluates it with the zero neurons at exact 0.
struct SquareNetGradient {
    IMatrixD gW;  // m x d
    IVectorD gv;  // m
};
SquareNetGradient square_net_gradient(const SquareNetData& data, const IMatrixD& W, const IVectorD& v);

// The third-order saddle test along one zero neuron: e = s (u, t), u a double vector (exact), t = +-1.
struct SaddleDirection {
    ProofStatus status = ProofStatus::not_proven;
    std::string reason = "not run";
    Eigen::VectorXd u;
    double t = 0;
    IntervalD cubic;     // 2 c t u^T M(r*) u, the s^3 coefficient of L(p* + s e) - L(p*)
    IntervalD sextic;    // c t^2 sum_i (u^T x_i)^4, the s^6 coefficient
    double s = 0;        // an exhibited step with L(p* + s e) - L(p*) of the proven sign
    IntervalD change;    // enclosure of L(p* + s e) - L(p*) at that s (from the exact polynomial)
};
// Descent (want_descent) or ascent direction from the eigenvector of mid M(r*) with the largest |lambda|.
SaddleDirection saddle_direction(const SquareNetData& data, const OneNeuronSaddle& p, bool want_descent);

}  // namespace flowcert::proofs::kh
