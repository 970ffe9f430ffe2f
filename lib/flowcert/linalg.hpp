// flowcert/linalg.hpp -- the linear-algebra layer: Eigen glue for IntervalD / IntervalMp,
// interval vectors and matrices, rigorous products (including a fast midpoint-radius product
// and error-bounded double products for IntervalD), verified linear solve and inverse,
// verified symmetric eigenvalue enclosures and positive-definiteness, QR as Lohner's method
// needs it, and Krawczyk / interval Newton for nonlinear systems. See docs/linalg.md.
//
// Every algorithm returns a result struct whose status defaults to "not proven" and carries
// a reason; library code never prints. All templates are instantiated for IntervalD and
// IntervalMp in lib/flowcert/linalg/*.cpp (extern template below), so including this header
// does not recompile the algorithms.
#pragma once

#include <flowcert/interval.hpp>

#define FLOWCERT_LINALG_INTERNAL
#include "linalg/matrix.hpp"
#include "linalg/products.hpp"
#include "linalg/solve.hpp"
#include "linalg/symmetric_eigen.hpp"
#include "linalg/qr.hpp"
#include "linalg/krawczyk.hpp"
#undef FLOWCERT_LINALG_INTERNAL
