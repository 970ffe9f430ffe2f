// Hypothesis quantities of the reconstructed [LWTM2026] claim (docs/rh.md#regime).
#include "flowcert/proofs/rh/regime.hpp"

namespace flowcert::proofs::rh {

IntervalD near_orthogonality(const Instance& inst) {
    IntervalD off(0), dmin = inst.G(0, 0);
    for (int i = 0; i < inst.n; ++i) {
        dmin = min(dmin, inst.G(i, i));
        for (int j = 0; j < inst.n; ++j)
            if (i != j) off = max(off, abs(inst.G(i, j)));
    }
    return off / dmin;
}

IntervalD lambda_max(const linalg::IMatrixD& G) {
    const auto er = linalg::symmetric_eigenvalues<IntervalD>(G);
    if (er.status != ProofStatus::proven || er.eigenvalues.empty()) return IntervalD::entire();
    IntervalD lmax = er.eigenvalues.front();
    for (const auto& l : er.eigenvalues) lmax = max(lmax, l);
    return lmax;
}

IntervalD step_size_ratio(const Instance& inst) { return inst.eta * lambda_max(inst.G); }

IntervalD initial_activity(const Instance& inst) {
    const auto beta = nets::rh::initial_predictions(inst);
    IntervalD mn = beta[0][0];
    for (const auto& row : beta)
        for (const auto& b : row) mn = min(mn, b);
    return mn;
}

}  // namespace flowcert::proofs::rh
