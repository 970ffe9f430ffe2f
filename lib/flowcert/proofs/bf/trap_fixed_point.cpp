// Step 7 of the trapping argument: the choice of Gamma [docs/bf.md, step 7]. See trap_fixed_point.hpp.
#include "flowcert/proofs/bf/trap_fixed_point.hpp"

#include <algorithm>
#include <cmath>

#include "flowcert/proofs/bf/trap_steps.hpp"

#include "flowcert/proofs/bf/format.hpp"

namespace flowcert::proofs::bf {

namespace {
using detail::fmt;
IntervalD point(double v) { return IntervalD::bounds(v, v); }
}  // namespace

GammaChoice choose_gamma(const TrapBox& box) {
    GammaChoice c;
    c.gamma_star_0 = gamma_star(box, IntervalD(0));
    const IntervalD& gs0 = c.gamma_star_0;
    double G = 0;
    double g = std::isfinite(upper(gs0)) ? upper(gs0) * 1.05 + 1e-12 : 1e-3;
    for (int it = 0; it < 60; ++it) {
        const IntervalD gsi = gamma_star(box, point(g));
        if (std::isfinite(upper(gsi)) && upper(gsi) < g) {
            G = g;
            break;
        }
        g = std::isfinite(upper(gsi)) ? std::max(upper(gsi) * 1.05, g * 1.01) : g * 1.5;
        g = std::min(g, 10.0);  // beyond this the premises cannot hold (e^Gamma - 1 > 2e4)
        G = g;
    }
    c.Gamma = G;
    const IntervalD gsG = gamma_star(box, point(G));
    c.fixed_point = std::isfinite(upper(gsG)) && upper(gsG) < G;
    if (!c.fixed_point) {
        // the premises at the smallest budget the bootstrap could ever accept, Gamma = 1.05 Gamma*(0)
        const double g0 = std::isfinite(upper(gs0)) ? std::min(upper(gs0) * 1.05, 10.0) : 0.0;
        const IntervalD g0i = point(g0);
        std::size_t jS = 0, jP = 0;
        const IntervalD mS = box.S().empty() ? IntervalD(0) : s_margin(box, g0i, &jS), mP = p_margin(box, g0i, &jP);
        c.diagnostic = "Gamma search (step 7) found no fixed point Gamma*(Gamma) < Gamma. Gamma*(0) <= " + fmt(upper(gs0)) +
                       "; at Gamma = " + fmt(g0) + ": Gamma*(Gamma) <= " + fmt(upper(gamma_star(box, g0i))) + ", S margin " +
                       (box.S().empty() ? std::string("(no S neuron)") : fmt(lower(mS)) + " (neuron " + std::to_string(jS) + ")") +
                       ", P margin " + fmt(lower(mP)) + " (neuron " + std::to_string(jP) + "), tau_S <= " +
                       fmt(upper(s_crossing_time(box, g0i))) + ", tau_pin <= " + fmt(upper(pinning_time(box, g0i))) +
                       "; step 6 terms: E(T) <= " + fmt(upper(box.E_T())) + ", A_min >= " + fmt(lower(a_min(box, g0i))) +
                       ", q_max <= " + fmt(upper(q_max(box, g0i))) + ", |pi| <= " + fmt(upper(perturbation_norm(box, g0i))) +
                       (box.Q().empty() ? std::string("")
                                        : "; " + std::to_string(box.Q().size()) + " Q neuron(s): " + negligible_premise(box, g0i).reason +
                                              ", tail <= " + fmt(upper(negligible_tail(box, g0i))));
    }
    return c;
}

}  // namespace flowcert::proofs::bf
