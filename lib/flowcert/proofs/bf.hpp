// flowcert/proofs/bf.hpp -- the proof steps of [BF2025] (Boursier & Flammarion, early alignment) on
// concrete instances: one function per lemma or proof step, with its hypothesis predicate beside it,
// returning results (flowcert::ProofResult or a struct with one), never a report.
#pragma once

#include "flowcert/proofs/bf/initialization.hpp"     // eq. (4) on the seeded initialization
#include "flowcert/proofs/bf/balancedness.hpp"       // Lemma 1 on a tube: the relative drift of a^2 - |w|^2
#include "flowcert/proofs/bf/theorem1_constants.hpp" // Theorem 1: Lemma 2, no saddle, D_max, D_min, lambda*, c_alpha0
#include "flowcert/proofs/bf/alignment_phase.hpp"    // Theorem 1 on a tube: theta(tau), the alignment gaps
#include "flowcert/proofs/bf/theorem2_data.hpp"      // Theorem 2: least squares, Assumptions 3-6
#include "flowcert/proofs/bf/three_point.hpp"        // the middle point, the data constants of the trap
#include "flowcert/proofs/bf/gd_plateau.hpp"         // Figure 2 by GD: the plateau bound at every iteration, closed cones
#include "flowcert/proofs/bf/trap_tracking.hpp"      // N_k tracking along the tube, classification at T
#include "flowcert/proofs/bf/trap_box.hpp"           // the box at T
#include "flowcert/proofs/bf/trap_steps.hpp"         // steps 2-6 as functions of (box, Gamma)
#include "flowcert/proofs/bf/trap_fixed_point.hpp"   // step 7: the choice of Gamma
#include "flowcert/proofs/bf/tube_residuals.hpp"     // the residuals and the loss on a tube step (lumped classes met)
#include "flowcert/proofs/bf/plain_runs.hpp"         // NON-RIGOROUS plain-double flow and GD runs (report comparison only)
