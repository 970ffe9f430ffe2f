// flowcert/proofs/bf/tube_residuals.cpp -- see tube_residuals.hpp.
#include "flowcert/proofs/bf/tube_residuals.hpp"

#include <stdexcept>

namespace flowcert::proofs::bf {

IntervalD meet_enclosures(const IntervalD& a, const IntervalD& b) {
    IntervalD o;
    if (!intersect(a, b, o)) throw std::logic_error("lumped and per-neuron enclosures of a residual are disjoint");
    return o;
}

std::array<IntervalD, 3> step_residuals(const nets::TwoLayerModel<IntervalD>& model, const nets::FlowStep& st, bool lumped) {
    const auto hs = nets::outputs(model, st.tube);
    std::array<IntervalD, 3> rk;
    for (std::size_t k = 0; k < 3; ++k) {
        rk[k] = hs[k] - model.y(k);
        if (lumped && st.residual.size() == 3) rk[k] = meet_enclosures(rk[k], st.residual[k]);
    }
    return rk;
}

IntervalD step_risk(const nets::TwoLayerModel<IntervalD>& model, const nets::FlowStep& st,
                    const std::array<IntervalD, 3>& rk, bool lumped) {
    const IntervalD box_risk = nets::risk(model, st.tube);
    if (!lumped) return box_risk;
    IntervalD s(0);
    for (const IntervalD& r : rk) s += sqr(r);
    return meet_enclosures(box_risk, model.risk_weight() * s / IntervalD(2));
}

std::array<IntervalD, 3> outputs_at_end(const nets::TwoLayerModel<IntervalD>& model, const nets::FlowResult& res, bool lumped) {
    const auto h = nets::outputs(model, res.state);
    std::array<IntervalD, 3> out{h[0], h[1], h[2]};
    if (lumped)
        for (std::size_t k = 0; k < 3; ++k) out[k] = meet_enclosures(out[k], res.residual[k] + model.y(k));
    return out;
}

}  // namespace flowcert::proofs::bf
