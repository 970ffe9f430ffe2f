// The early-alignment phase of [BF2025, Theorem 1] on a certified tube. See alignment_phase.hpp.
#include "flowcert/proofs/bf/alignment_phase.hpp"

namespace flowcert::proofs::bf {

nets::TwoLayerParams<IntervalD> state_before(const nets::TwoLayerModel<IntervalD>& model, const nets::TwoLayerParams<IntervalD>& at_t_hi,
                                             const nets::TwoLayerParams<IntervalD>& boxes, double t_lo, double t_hi) {
    nets::TwoLayerParams<IntervalD> out = at_t_hi;
    const auto F = nets::vector_field(model, boxes).dtheta;
    const IntervalD back = IntervalD::bounds(0.0, upper(IntervalD::bounds(t_hi, t_hi) - IntervalD::bounds(t_lo, t_lo)));
    for (std::size_t q = 0; q < out.a.size(); ++q) out.a[q] -= back * F.a[q];
    for (std::size_t q = 0; q < out.w.size(); ++q) out.w[q] -= back * F.w[q];
    return out;
}

AlignmentGaps alignment_gaps(const nets::TwoLayerModel<IntervalD>& model, const nets::TwoLayerParams<IntervalD>& at_tau,
                             const nets::TwoLayerParams<IntervalD>& init, const std::vector<char>& frozen) {
    AlignmentGaps g;
    for (std::size_t j = 0; j < at_tau.m; ++j) {
        if (!certainly_positive(init.a[j]) || frozen[j]) continue;
        std::vector<IntervalD> D(model.d(), IntervalD(0));
        bool certain = true;
        for (std::size_t k = 0; k < model.n() && certain; ++k) {
            IntervalD z(0);
            for (std::size_t i = 0; i < model.d(); ++i) z += at_tau.W(j, i) * model.x(k, i);
            IntervalD eta;
            if (certainly_positive(z)) eta = IntervalD(1);
            else if (certainly_negative(z)) eta = model.gamma();
            else certain = false;
            if (!certain) break;
            // D(w, 0) = -c sum_k eta_k d1l(0, y_k) x_k [BF2025, eq. (6)]
            const IntervalD mdl = -model.loss_derivative(IntervalD(0), model.y(k));
            for (std::size_t i = 0; i < model.d(); ++i) D[i] += model.risk_weight() * eta * mdl * model.x(k, i);
        }
        if (!certain) continue;
        IntervalD nD(0), dot(0);
        for (std::size_t i = 0; i < model.d(); ++i) {
            nD += sqr(D[i]);
            dot += D[i] * at_tau.W(j, i);
        }
        nD = sqrt(nD);
        if (!certainly_positive(nD)) continue;
        const IntervalD gap = nD - dot / at_tau.a[j];
        g.max_gap = g.counted == 0 ? gap : max(g.max_gap, gap);
        g.min_D = g.counted == 0 ? nD : min(g.min_D, nD);
        ++g.counted;
    }
    return g;
}

}  // namespace flowcert::proofs::bf
