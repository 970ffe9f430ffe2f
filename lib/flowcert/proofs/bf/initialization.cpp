// Hypotheses on the seeded initialization [BF2025, eqs. (3)-(4)]. See initialization.hpp.
#include "flowcert/proofs/bf/initialization.hpp"

#include <string>

namespace flowcert::proofs::bf {

ProofResult eq4_at_initialization(const nets::InitSpec& spec, const nets::Initialization<IntervalD>& init) {
    if (spec.kind == nets::InitKind::balanced_gaussian)
        return ProofResult::proven("balanced initialization: a~_j = s_j |w~_j| by construction, |a~_j| = |w~_j| for every j");
    if (spec.kind == nets::InitKind::dominated_uniform_ball)
        return ProofResult::proven("dominated initialization: |a~_j| = 1 and |w~_j|^2 < 1 certified when sampling, for every j");
    const std::size_t m = init.a_sign.size(), d = m ? init.w_tilde.size() / m : 0;
    std::size_t undecided = 0;
    for (std::size_t j = 0; j < m; ++j) {
        const IntervalD a2 = sqr(IntervalD::exact(init.a_sign[j]));
        IntervalD w2(0);
        for (std::size_t i = 0; i < d; ++i) w2 += sqr(IntervalD::exact(init.w_tilde[j * d + i]));
        if (certainly_less(a2, w2))
            return ProofResult::disproven("neuron " + std::to_string(j) + ": a~_j^2 in " + to_string(a2, 8) + " < |w~_j|^2 in " +
                                          to_string(w2, 8) + " (unbalanced initialization)");
        if (!certainly_less_equal(w2, a2)) ++undecided;
    }
    if (undecided)
        return ProofResult::not_proven(std::to_string(undecided) + " neuron(s) with a~_j^2 and |w~_j|^2 not separated by their enclosures");
    return ProofResult::proven("|w~_j|^2 <= a~_j^2 certified for all " + std::to_string(m) + " neurons");
}

}  // namespace flowcert::proofs::bf
