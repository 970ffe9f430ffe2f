// flowcert/ode.hpp -- the ODE layer: rigorous C^0/C^1 Taylor/Lohner integration of vector
// fields from the taylor layer, with failures reported as values (docs/integrator.md), and the
// components of block-structured flows (blocks coupled only through short sums: fixed-order block
// sums and partitions, per-block Picard boxes, time Taylor models, the step loop, the
// differential-inclusion Lohner step; docs/nonsmooth-flow.md). (The `flowcert integrate` command
// logic is in tools/integrate_cli.*.)
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/taylor.hpp>

#define FLOWCERT_ODE_INTERNAL
#include "ode/integrator.hpp"
#include "ode/revalidate.hpp"
#include "ode/time_taylor_model.hpp"
#include "ode/blocks.hpp"
#include "ode/block_apriori.hpp"
#include "ode/block_step_control.hpp"
#include "ode/lohner_inclusion.hpp"
#undef FLOWCERT_ODE_INTERNAL
