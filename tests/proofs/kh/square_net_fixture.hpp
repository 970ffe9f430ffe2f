// tests/proofs/kh/square_net_fixture.hpp -- the seeded Figure-1 data (and reduced sizes) as SquareNetData, with the
// mean loss of the authors' Figure-1 code (c = 1/n), and the project's seeded initial direction.
#pragma once

#include <flowcert/nets.hpp>
#include <flowcert/proofs/kh/square_net_saddle.hpp>

#include <Eigen/Eigenvalues>

#include <cmath>

namespace square_net_fixture {

inline flowcert::proofs::kh::SquareNetData data(int d, int n, std::uint64_t seed = 1) {
    using namespace flowcert::nets;
    const auto teacher = HomogeneousArchitecture::feed_forward(d, {2}, HomActivation::square());
    const SphereTeacherData sd = make_sphere_teacher_data(seed, d, n, teacher);
    return {sd.X, sd.y, flowcert::IntervalD(1) / flowcert::IntervalD(n)};
}

// The one-neuron start: the top |eigenvalue| direction of Y = sum y_i x_i x_i^T (the NCF maximizer of one neuron),
// scaled to 0.3, then the non-rigorous descent + Newton of the library (balance C = 0).
inline flowcert::proofs::kh::OneNeuronGuessNonrigorous saddle_guess(const flowcert::proofs::kh::SquareNetData& data) {
    const Eigen::MatrixXd Y = data.X * data.y.asDiagonal() * data.X.transpose();
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(Y);
    Eigen::Index k = 0;
    es.eigenvalues().cwiseAbs().maxCoeff(&k);
    const double s = es.eigenvalues()(k) > 0 ? 1.0 : -1.0;
    return flowcert::proofs::kh::one_neuron_saddle_guess_nonrigorous(data, 0.3 * es.eigenvectors().col(k),
                                                                     s * 0.3 / std::sqrt(2.0), 0.0, 20000);
}

}  // namespace square_net_fixture
