// flowcert/proofs/bf/initialization.hpp -- hypotheses of [BF2025] on the seeded initialization of
// eq. (3): eq. (4) |a~_j| >= |w~_j| for every neuron ("balanced or dominated"; it fixes the sign of
// a_j^t for all t, Lemma 1), which Theorems 1 and 2 assume.
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/nets.hpp>

namespace flowcert::proofs::bf {

// Eq. (4) on the generated numbers: proven for the balanced kind (a~_j = s_j |w~_j| by construction)
// and the dominated kind (|a~_j| = 1 > |w~_j|, certified when sampling); for the unbalanced kind
// decided neuron by neuron on the exact generated doubles, disproven with the first neuron that
// certainly violates it as the witness.
ProofResult eq4_at_initialization(const nets::InitSpec& spec, const nets::Initialization<IntervalD>& init);

}  // namespace flowcert::proofs::bf
