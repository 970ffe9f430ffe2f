// flowcert/proofs/kh/stable_set.hpp -- w0 in the stable set S(w*) [KH2025, Def. 2] from a certified NCF tube
// that enters a Lemma 23 cap (lemma23_cap.hpp).
//
// grad N is (L-1)-homogeneous, so for c > 0 the NCF flow (5) from c u has the directions of the flow from u,
// with time changed by c^{L-2} (L = 2: none). Hence the directions phi(t, w0)/|phi(t, w0)| are followed by
// integrating u' = grad N(u) in chunks and dividing the box by an exact positive double near |u| after each chunk
// (the directions are unchanged; a point scale does not wrap the box). Once a chunk's set is certainly in the cap {w*^T u/|u| > 1 - gamma}
// on which (28), (29) and N > 0 are certified, Lemma 24 (L = 2) or Lemma 25 (L > 2), applied to that unit
// direction, gives phi/|phi| -> w*: w0 in S(w*). (Their proofs use exactly (28), (29) and N > 0 on the cap,
// eqs. (32), (34).) For L > 2 the flow blows up in finite time; the renormalized chunks never reach it.
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/linalg.hpp>
#include <flowcert/ode.hpp>
#include <flowcert/taylor.hpp>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace flowcert::proofs::kh {

template <Interval I>
struct CapEntry {
    ProofStatus status = ProofStatus::not_run;  // proven: the tube's direction is certainly in the open cap
    std::string reason = "not run";
    double flow_time = -1;       // accumulated (renormalized) integration time at entry
    I cosine;                    // w*^T u/|u| there
    std::vector<std::pair<double, I>> trace;  // (flow time, cosine enclosure) along the tube, for plots
};

// Integrates the NCF field `ncf_field` (parameters `params`) from the unit w0 in chunks of `chunk` (10 outputs
// each, cut down to 1e-8 when a chunk fails), rescaling after each chunk when `renormalize`, until the
// direction is certainly in {w*^T u/|u| > 1 - gamma} or the accumulated time exceeds `horizon`.
template <Interval I>
CapEntry<I> ncf_tube_enters_cap(const taylor::VectorField& ncf_field, const std::vector<I>& params,
                                const std::vector<I>& w0, const linalg::IVector<I>& wstar, const I& gamma,
                                double horizon, double chunk, bool renormalize, const ode::Options& options, long bits);

// The same with the chunks integrated by `integrate(u, h, outs)` (the flow over [0, h] from the box u with sets at the
// times outs and the final set; e.g. the square-net block integrator nets::integrate_square_net_flow in its NCF mode).
using NcfChunkIntegrator = std::function<ode::Result<IntervalD>(const std::vector<IntervalD>& u, const IntervalD& h,
                                                                const std::vector<IntervalD>& outs)>;
CapEntry<IntervalD> ncf_tube_enters_cap_with(const NcfChunkIntegrator& integrate, const std::vector<IntervalD>& w0,
                                             const linalg::IVectorD& wstar, const IntervalD& gamma, double horizon,
                                             double chunk, bool renormalize);

extern template CapEntry<IntervalD> ncf_tube_enters_cap<IntervalD>(const taylor::VectorField&, const std::vector<IntervalD>&,
                                                                   const std::vector<IntervalD>&, const linalg::IVectorD&,
                                                                   const IntervalD&, double, double, bool,
                                                                   const ode::Options&, long);
extern template CapEntry<IntervalMp> ncf_tube_enters_cap<IntervalMp>(const taylor::VectorField&,
                                                                     const std::vector<IntervalMp>&,
                                                                     const std::vector<IntervalMp>&,
                                                                     const linalg::IVector<IntervalMp>&, const IntervalMp&,
                                                                     double, double, bool, const ode::Options&, long);

}  // namespace flowcert::proofs::kh
