// Interval sums across MPI ranks and the two-layer flow partition (flowcert/mpi/partition.hpp).
#include <flowcert/mpi.hpp>

#include <climits>
#include <stdexcept>
#include <string>

namespace flowcert::mpi {

namespace {

// The op and datatype are created on first use and freed by MPI_Finalize through a delete
// callback on MPI_COMM_SELF (MPI-3.1, sec. 8.7.1: COMM_SELF attributes are deleted first).
MPI_Datatype g_type = MPI_DATATYPE_NULL;
MPI_Op g_op = MPI_OP_NULL;

extern "C" int free_at_finalize(MPI_Comm, int, void*, void*) {
    if (g_op != MPI_OP_NULL) MPI_Op_free(&g_op);
    if (g_type != MPI_DATATYPE_NULL) MPI_Type_free(&g_type);
    return MPI_SUCCESS;
}

void ensure_registered() {
    if (g_type != MPI_DATATYPE_NULL) return;
    MPI_Type_contiguous(2, MPI_DOUBLE, &g_type);
    MPI_Type_commit(&g_type);
    MPI_Op_create(
        [](void* in, void* inout, int* len, MPI_Datatype*) {
            const double* a = static_cast<const double*>(in);
            double* b = static_cast<double*>(inout);
            for (int k = 0; k < *len; ++k) {
                // outward sum of two enclosures (bounds() of valid enclosures never throws)
                const IntervalD s = IntervalD::bounds(a[2 * k], a[2 * k + 1]) + IntervalD::bounds(b[2 * k], b[2 * k + 1]);
                b[2 * k] = s.lower();
                b[2 * k + 1] = s.upper();
            }
        },
        /*commute=*/0, &g_op);
    int key = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_at_finalize, &key, nullptr);
    MPI_Comm_set_attr(MPI_COMM_SELF, key, nullptr);
}

std::vector<double> to_bounds(const std::vector<IntervalD>& v) {
    std::vector<double> b(2 * v.size());
    for (std::size_t k = 0; k < v.size(); ++k) {
        b[2 * k] = v[k].lower();
        b[2 * k + 1] = v[k].upper();
    }
    return b;
}

int as_count(std::size_t n) {
    if (n > static_cast<std::size_t>(INT_MAX)) throw std::length_error("flowcert::mpi: vector too long for one MPI call");
    return static_cast<int>(n);
}

}  // namespace

MPI_Datatype interval_datatype() {
    ensure_registered();
    return g_type;
}

MPI_Op interval_sum_op() {
    ensure_registered();
    return g_op;
}

void allreduce_interval_sum(std::vector<IntervalD>& v, MPI_Comm comm, SumOrder order) {
    ensure_registered();
    int P = 1, rank = 0;
    MPI_Comm_size(comm, &P);
    MPI_Comm_rank(comm, &rank);
    const int n = as_count(v.size());
    std::vector<double> mine = to_bounds(v);
    if (order == SumOrder::allgather_rank_order) {
        std::vector<double> all(mine.size() * static_cast<std::size_t>(P));
        MPI_Allgather(mine.data(), n, g_type, all.data(), n, g_type, comm);
        for (std::size_t k = 0; k < v.size(); ++k) {
            IntervalD acc = IntervalD::bounds(all[2 * k], all[2 * k + 1]);
            for (int r = 1; r < P; ++r) {
                const std::size_t o = static_cast<std::size_t>(r) * mine.size() + 2 * k;
                acc = acc + IntervalD::bounds(all[o], all[o + 1]);  // [outward], rank order
            }
            v[k] = acc;
        }
        return;
    }
    std::vector<double> sum(mine.size());
    MPI_Reduce(mine.data(), sum.data(), n, g_type, g_op, 0, comm);
    if (rank != 0) sum.resize(mine.size());
    MPI_Bcast(sum.data(), n, g_type, 0, comm);
    for (std::size_t k = 0; k < v.size(); ++k) v[k] = IntervalD::bounds(sum[2 * k], sum[2 * k + 1]);
}

bool allreduce_and(bool b, MPI_Comm comm) {
    int in = b ? 1 : 0, out = 0;
    MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LAND, comm);
    return out != 0;
}

double allreduce_min(double x, MPI_Comm comm) {
    double out = x;
    MPI_Allreduce(&x, &out, 1, MPI_DOUBLE, MPI_MIN, comm);  // exact: a minimum rounds nothing
    return out;
}

NeuronRange block_range(std::size_t m, int rank, int size) {
    if (size < 1 || rank < 0 || rank >= size) throw std::invalid_argument("flowcert::mpi::block_range: bad rank/size");
    const auto r = static_cast<std::size_t>(rank), P = static_cast<std::size_t>(size);
    return {m * r / P, m * (r + 1) / P};
}

nets::FlowPartition make_flow_partition(MPI_Comm comm, std::size_t m, SumOrder order) {
    int P = 1, rank = 0;
    MPI_Comm_size(comm, &P);
    MPI_Comm_rank(comm, &rank);
    const NeuronRange range = block_range(m, rank, P);
    nets::FlowPartition fp;
    fp.begin = range.begin;
    fp.end = range.end;
    fp.allreduce_sum = [comm, order](std::vector<IntervalD>& v) { allreduce_interval_sum(v, comm, order); };
    fp.allreduce_and = [comm](bool b) { return allreduce_and(b, comm); };
    fp.allreduce_min = [comm](double x) { return allreduce_min(x, comm); };
    return fp;
}

}  // namespace flowcert::mpi
