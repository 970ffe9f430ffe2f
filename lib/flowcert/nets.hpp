// flowcert/nets.hpp -- the network-model layer: the models, their fields and the model-specific engines
// built on ode (docs/design.md, "What each part holds"). Every public header of lib/flowcert/nets; the
// engine-internal ones (flow_engine.hpp, lumped_state.hpp, two_layer_field.hpp) are not part of it.
// tests/nets/test_nets_umbrella.cpp compiles this header alone. Each public header refuses to be included
// without FLOWCERT_NETS_INTERNAL (defined here, and for the layer's own sources by its CMakeLists.txt).
#pragma once

#include <flowcert/interval.hpp>
#include <flowcert/linalg.hpp>
#include <flowcert/ode.hpp>
#include <flowcert/taylor.hpp>

#if !defined(FLOWCERT_NETS_INTERNAL)  // the headers below refuse to be included without it (docs/design.md, "The house")
#define FLOWCERT_NETS_INTERNAL
#define FLOWCERT_NETS_UMBRELLA_DEFINED_INTERNAL
#endif
#include "flowcert/nets/random.hpp"            // seeded, platform-independent random streams
#include "flowcert/nets/two_layer.hpp"         // two-layer (leaky) ReLU network [BF2025]
#include "flowcert/nets/alignment.hpp"         // the BF alignment function G, cones, extremal vectors
#include "flowcert/nets/two_layer_flow.hpp"    // rigorous two-layer gradient flow (tubes, parking, lumping, partition)
#include "flowcert/nets/two_layer_gd.hpp"      // rigorous two-layer gradient descent
#include "flowcert/nets/lumped_gd.hpp"        // rigorous GD with the all-active class lumped
#include "flowcert/nets/lumped_moments.hpp"    // exact lumping of activation classes
#include "flowcert/nets/homogeneous.hpp"       // L-homogeneous models, losses and the NCF [KH2025]
#include "flowcert/nets/homogeneous_flow.hpp"  // KH loss and NCF gradient flows as Taylor fields
#include "flowcert/nets/square_net_gd.hpp"     // rigorous GD of the square net v^T (W x)^2
#include "flowcert/nets/square_net_flow.hpp"   // rigorous gradient flow of the square net (block Taylor models)
#include "flowcert/nets/covariance.hpp"        // diagonal data covariances (isotropic, power law, spike) [LWTM2026]
#include "flowcert/nets/relu_regression.hpp"   // high-dimensional ReLU regression [LWTM2026] (rh verifiers)
#if defined(FLOWCERT_NETS_UMBRELLA_DEFINED_INTERNAL)
#undef FLOWCERT_NETS_INTERNAL
#undef FLOWCERT_NETS_UMBRELLA_DEFINED_INTERNAL
#endif
