// flowcert/nets.hpp -- the network-model layer: one header per model (see DESIGN.md).
#pragma once

#include "flowcert/nets/random.hpp"
#include "flowcert/nets/relu_regression.hpp"  // high-dimensional ReLU regression (rh verifiers)
#include "flowcert/nets/homogeneous.hpp"
#include "flowcert/nets/ncf.hpp"
#include "flowcert/nets/homogeneous_flow.hpp"  // KH loss and NCF gradient flows as Taylor fields
#include "flowcert/nets/alignment.hpp"  // two-layer model (two_layer.hpp) and BF alignment function
