// flowcert/mpi/partition.hpp -- interval sums across MPI ranks, and the FlowPartition of
// integrate_gradient_flow (nets/two_layer_flow.hpp) built from a communicator.
//
// Rigour: the all-reduce adds enclosures with IntervalD addition (round to nearest, then one ulp
// outward), so the result encloses the exact sum of any points of the ranks' intervals, whatever
// the grouping. Determinism: the FlowPartition contract asks for the SAME bits on every rank; both
// orders below compute the sum once per rank in a fixed order (or on one rank) so they do:
//   allgather_rank_order   MPI_Allgather of every rank's vector, then every rank sums
//                          v_0 + v_1 + ... + v_{P-1} left to right (default);
//   reduce_then_broadcast  MPI_Reduce to rank 0 with the user-defined, non-commutative MPI_Op
//                          interval_sum_op() (MPI applies non-commutative ops in rank order),
//                          then MPI_Bcast of rank 0's bits.
// (MPI_Allreduce with the same op also encloses the sum, but the standard does not promise every
// rank the same bits, so it is not offered as an order.) Every rank must run the same build
// (same IntervalD arithmetic).
#pragma once

#if !defined(FLOWCERT_MPI_INTERNAL)
#error "include <flowcert/mpi.hpp>, not the internal headers"
#endif

#include <flowcert/interval.hpp>
#include <flowcert/nets.hpp>

#include <mpi.h>

#include <cstddef>
#include <vector>

namespace flowcert::mpi {

enum class SumOrder { allgather_rank_order, reduce_then_broadcast };

// The MPI datatype of one IntervalD on the wire: two doubles (lower, upper).
MPI_Datatype interval_datatype();
// The user-defined reduction: inout[k] = in[k] + inout[k] with outward IntervalD addition
// (registered as non-commutative, so MPI reduces in rank order). Freed at MPI_Finalize.
MPI_Op interval_sum_op();

// Element-wise interval sum over the ranks of `comm`, in place; every rank gets the same bits.
// Collective; every rank passes a vector of the same length.
void allreduce_interval_sum(std::vector<IntervalD>& v, MPI_Comm comm, SumOrder order = SumOrder::allgather_rank_order);
bool allreduce_and(bool b, MPI_Comm comm);
double allreduce_min(double x, MPI_Comm comm);

// Balanced block split of m neurons: rank r of P owns [m r / P, m (r+1) / P).
struct NeuronRange {
    std::size_t begin = 0, end = 0;
};
NeuronRange block_range(std::size_t m, int rank, int size);

// The partition of a width-m flow for this rank of `comm` (block split, reducers over `comm`).
// `comm` must outlive every use of the returned partition. With one rank it is still a valid
// (trivially distributed) partition.
nets::FlowPartition make_flow_partition(MPI_Comm comm, std::size_t m, SumOrder order = SumOrder::allgather_rank_order);

}  // namespace flowcert::mpi
