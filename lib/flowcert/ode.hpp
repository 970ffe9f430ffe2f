// flowcert/ode.hpp -- the ODE layer: rigorous C^0/C^1 Taylor/Lohner integration of vector
// fields from the taylor layer, with failures reported as values. See docs/integrator.md.
// (The `flowcert integrate` command logic is in tools/integrate_cli.*.)
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/taylor.hpp>

#define FLOWCERT_ODE_INTERNAL
#include "ode/integrator.hpp"
#undef FLOWCERT_ODE_INTERNAL
