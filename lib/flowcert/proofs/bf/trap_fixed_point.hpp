// flowcert/proofs/bf/trap_fixed_point.hpp -- step 7 of the trapping argument (docs/bf.md): the budget Gamma
// with Gamma*(Gamma) < Gamma. The search is heuristic (non-rigorous: any Gamma will do); what proves the
// bootstrap is the comparison gamma_star(box, Gamma) < Gamma together with every premise of steps 2-6 checked
// at that Gamma, which the caller records.
#pragma once

#include <flowcert/proofs/bf/trap_box.hpp>

#include <string>

namespace flowcert::proofs::bf {

struct GammaChoice {
    double Gamma = 0;        // the budget to check the premises at
    bool fixed_point = false; // upper(gamma_star(Gamma)) < Gamma (the comparison itself is the caller's check)
    IntervalD gamma_star_0;  // Gamma*(0)
    std::string diagnostic;  // without a fixed point: the premises at Gamma = 1.05 Gamma*(0), naming the binding one
};
// Iterates Gamma <- max(1.05 Gamma*(Gamma), 1.01 Gamma) from 1.05 Gamma*(0) (at most 60 times, Gamma <= 10).
GammaChoice choose_gamma(const TrapBox& box);

}  // namespace flowcert::proofs::bf
