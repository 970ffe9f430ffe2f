// tests/proofs/square_net_fixture.hpp -- the seeded Figure-1 data (and reduced sizes) as SquareNetData, with the
// mean loss of the authors' Figure-1 code (c = 1/n), and the project's seeded initial direction.
#pragma once

#include <flowcert/nets/homogeneous.hpp>
#include <flowcert/nets/random.hpp>
#include <flowcert/proofs/kh/square_net_saddle.hpp>

namespace square_net_fixture {

inline flowcert::proofs::kh::SquareNetData data(int d, int n, std::uint64_t seed = 1) {
    using namespace flowcert::nets;
    const auto teacher = HomogeneousArchitecture::feed_forward(d, {2}, HomActivation::square());
    const SphereTeacherData sd = make_sphere_teacher_data(seed, d, n, teacher);
    return {sd.X, sd.y, flowcert::IntervalD(1) / flowcert::IntervalD(n)};
}

}  // namespace square_net_fixture
