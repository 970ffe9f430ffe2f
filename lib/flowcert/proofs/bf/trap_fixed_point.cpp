// Step 7 of the trapping argument: the choice of Gamma [docs/bf.md, step 7]. See trap_fixed_point.hpp.
#include "flowcert/proofs/bf/trap_fixed_point.hpp"

#include <algorithm>
#include <cmath>

#include "flowcert/proofs/bf/trap_steps.hpp"


namespace flowcert::proofs::bf {

namespace {
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
        c.diagnostic = "Gamma search (step 7) found no fixed point Gamma*(Gamma) < Gamma. Gamma*(0) <= " + format_g(upper(gs0)) +
                       "; at Gamma = " + format_g(g0) + ": Gamma*(Gamma) <= " + format_g(upper(gamma_star(box, g0i))) + ", S margin " +
                       (box.S().empty() ? std::string("(no S neuron)") : format_g(lower(mS)) + " (neuron " + std::to_string(jS) + ")") +
                       ", P margin " + format_g(lower(mP)) + " (neuron " + std::to_string(jP) + "), tau_S <= " +
                       format_g(upper(s_crossing_time(box, g0i))) + ", tau_pin <= " + format_g(upper(pinning_time(box, g0i))) +
                       "; step 6 terms: E(T) <= " + format_g(upper(box.E_T())) + ", A_min >= " + format_g(lower(a_min(box, g0i))) +
                       ", q_max <= " + format_g(upper(q_max(box, g0i))) + ", |pi| <= " + format_g(upper(perturbation_norm(box, g0i))) +
                       (box.Q().empty() ? std::string("")
                                        : "; " + std::to_string(box.Q().size()) + " Q neuron(s): " + negligible_premise(box, g0i).reason +
                                              ", tail <= " + format_g(upper(negligible_tail(box, g0i))));
    }
    return c;
}

}  // namespace flowcert::proofs::bf
