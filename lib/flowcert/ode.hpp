// flowcert/ode.hpp -- the ODE layer: rigorous C^0/C^1 Taylor/Lohner integration of vector
// fields from the taylor layer, with failures reported as values, and the `flowcert
// integrate` command logic. See docs/integrator.md.
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/taylor.hpp>

#define FLOWCERT_ODE_INTERNAL
#include "ode/small_matrix.hpp"
#include "ode/integrator.hpp"
#include "ode/cli.hpp"
#undef FLOWCERT_ODE_INTERNAL
