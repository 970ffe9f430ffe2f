// flowcert/mpi.hpp -- MPI glue (target flowcert::mpi, built only when MPI is found): the rigorous
// interval all-reduce and the neuron partition of the two-layer gradient flow across ranks.
#pragma once

#define FLOWCERT_MPI_INTERNAL
#include "flowcert/mpi/partition.hpp"
#undef FLOWCERT_MPI_INTERNAL
