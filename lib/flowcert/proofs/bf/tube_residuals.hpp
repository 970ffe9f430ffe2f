// flowcert/proofs/bf/tube_residuals.hpp -- the residuals r_k = h(x_k) - y_k and the loss of three-point data
// on a step of the certified gradient-flow tube (nets::integrate_gradient_flow), for the trap's tracker
// (trap_tracking.hpp). From the neurons' step boxes; where the engine lumps activation classes
// (docs/nonsmooth-flow.md, "Lumped activation classes") the residuals of the class moments are a second
// enclosure of the same quantity, and the two are intersected.
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/nets.hpp>

#include <array>

namespace flowcert::proofs::bf {

// Two enclosures of the same quantity meet; their intersection is one too. Disjoint ones are a bug of an
// enclosure: std::logic_error (the run ends in ERROR, never in a verdict).
IntervalD meet_enclosures(const IntervalD& a, const IntervalD& b);

// r_k on the step [st.t0, st.t1] from the tube boxes, met with the lumped residuals when `lumped`.
std::array<IntervalD, 3> step_residuals(const nets::TwoLayerModel<IntervalD>& model, const nets::FlowStep& st, bool lumped);

// L = c sum_k r_k^2 / 2 on the step (the half-square loss): the risk of the tube box, met with the risk of the
// residual enclosures when `lumped`.
IntervalD step_risk(const nets::TwoLayerModel<IntervalD>& model, const nets::FlowStep& st,
                    const std::array<IntervalD, 3>& rk, bool lumped);

// The outputs h(x_k) at the end of the tube, met with the lumped residuals when `lumped`.
std::array<IntervalD, 3> outputs_at_end(const nets::TwoLayerModel<IntervalD>& model, const nets::FlowResult& res, bool lumped);

}  // namespace flowcert::proofs::bf
