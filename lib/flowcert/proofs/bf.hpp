// flowcert/proofs/bf.hpp -- the proof steps of [BF2025] (Boursier & Flammarion, early alignment) on
// concrete instances: one function per lemma or proof step, with its hypothesis predicate beside it,
// returning results (flowcert::ProofResult or a struct with a ProofStatus), never a report.
#pragma once

#include "flowcert/proofs/bf/initialization.hpp"
