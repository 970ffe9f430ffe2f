// flowcert/proofs/rh/regime.hpp -- the quantities of the hypotheses of the reconstructed [LWTM2026] claim on
// one instance (docs/rh.md#regime, #step-size, #initialization). A report compares them with the case's
// bounds (a re-checkable relation), so they are returned as enclosures, not as statuses.
#pragma once

#include <flowcert/nets.hpp>

namespace flowcert::proofs::rh {

using nets::rh::Instance;

// Near-orthogonality eps = max_{i != j} |G_ij| / min_i G_ii (the high-dimensional regime).
IntervalD near_orthogonality(const Instance& inst);

// lambda_max(G) from the verified symmetric eigenvalue bounds of linalg (entire if they fail).
IntervalD lambda_max(const linalg::IMatrixD& G);

// eta * lambda_max(G) (verified symmetric eigenvalue bounds of linalg; entire if they fail). The
// step-size hypothesis is eta * lambda_max(G) < 2 (then eta lambda_max(G_SS) < 2 on every active subset).
IntervalD step_size_ratio(const Instance& inst);

// min over (p, i) of <w_p(0), x_i> (the initialization hypothesis: > 0).
IntervalD initial_activity(const Instance& inst);

}  // namespace flowcert::proofs::rh
