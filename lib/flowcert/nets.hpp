// flowcert/nets.hpp -- the network-model layer: one header per model (see DESIGN.md).
#pragma once

#include "flowcert/nets/random.hpp"
#include "flowcert/nets/homogeneous.hpp"
#include "flowcert/nets/ncf.hpp"
