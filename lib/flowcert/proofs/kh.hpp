// flowcert/proofs/kh.hpp -- the proof steps of [KH2025] (Kumar & Haupt, early directional convergence) on concrete
// instances, namespace flowcert::proofs::kh: one function per lemma or proof step with its hypothesis predicate
// beside it, returning results (flowcert::ProofResult or a struct with a ProofStatus), never a report.
#pragma once

#include "flowcert/proofs/kh/ncf_kkt.hpp"             // KKT points of (4): search (non-rigorous), Krawczyk, Delta_max, zero pattern, Lemma 17
#include "flowcert/proofs/kh/lemma23_cap.hpp"         // Lemma 23 caps: (28), (29) and N > 0 on {w*^T w >= 1 - gamma}
#include "flowcert/proofs/kh/stable_set.hpp"          // w0 in S(w*): the renormalized NCF tube enters a Lemma 23 cap
#include "flowcert/proofs/kh/flow_tools.hpp"          // square-loss derivatives, the ray of a single-block KKT point, escape brackets
#include "flowcert/proofs/kh/first_saddle.hpp"        // Cor. 5/6/11/12: single-block support, decoupled stable set, p* stationary
#include "flowcert/proofs/kh/theorem4_limit_path.hpp" // Theorem 4: closed-form limiting paths, difference system, window distance
#include "flowcert/proofs/kh/theorem10_escape.hpp"    // Theorem 10 / Lemma 25: block blow-up brackets, window sup distance
#include "flowcert/proofs/kh/theorem18_units.hpp"     // Theorem 18: Lemma 16 units
#include "flowcert/proofs/kh/theorem18_sparsity.hpp"  // Theorem 18: exhibited times (non-rigorous), tube zero check
#include "flowcert/proofs/kh/square_net_saddle.hpp"   // Figure 1: the first saddle of the square net
#include "flowcert/proofs/kh/square_net_trap.hpp"     // Figure 1: the plateau trap
#include "flowcert/proofs/kh/figure1_gd.hpp"          // Figure 1: the certified GD run driver
#include "flowcert/proofs/kh/theorem18_steps.hpp"     // Theorem 18: the proof steps of one instance (zero preservation, tubes, sweep point)
#include "flowcert/proofs/kh/theorem4_steps.hpp"      // Theorem 4: the proof steps of one instance (cap, shift, closed-form path selection, sweep point)
#include "flowcert/proofs/kh/lyapunov_perron.hpp"       // Theorem 4: p(t) without a closed form (Lyapunov-Perron ball, then a tube)
