// flowcert/taylor.hpp -- the Taylor layer: vector fields as expression DAGs (built in C++ or
// parsed from CAPD's formula syntax) and Taylor-mode automatic differentiation over
// IntervalD, IntervalMp (rigorous) and double (non-rigorous predictor). See docs/integrator.md.
#pragma once

#include <flowcert/interval.hpp>

#define FLOWCERT_TAYLOR_INTERNAL
#include "taylor/expr.hpp"
#include "taylor/parser.hpp"
#include "taylor/evaluator.hpp"
#include "taylor/field_transforms.hpp"
#undef FLOWCERT_TAYLOR_INTERNAL
