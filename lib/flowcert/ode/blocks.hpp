// flowcert/ode/blocks.hpp -- block-structured systems: m blocks of S state components each,
// coupled only through sums over blocks of short vectors (docs/design.md, "Scale"). A two-layer
// network's neurons are such blocks: they interact only through the n residuals.
//
// What is generic here: the fixed summation blocks (chunks of kBlockChunk blocks whose partial
// sums are added in chunk order, so every result is the same for every thread count), the thread
// loop, and the split of the blocks across processes (BlockPartition: each process owns a range of
// blocks, the sums over blocks are completed by an all-reduce, data-dependent decisions are made
// collectively).
#pragma once

#if !defined(FLOWCERT_ODE_INTERNAL)
#error "include <flowcert/ode.hpp>, not the internal headers"
#endif

#include <flowcert/interval.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace flowcert::ode {

// Splitting the blocks across processes (MPI ranks, or threads in one process). Process r
// integrates only the blocks [begin, end) (its "owned" blocks); the blocks interact only through
// sums of short vectors, so per step the processes exchange those sums and make every data-dependent
// decision (step acceptance, validation passes, the step-size proposal) collectively, so every
// process takes exactly the same steps. Contract for the three reducers (every process calls them
// the same number of times, in the same order):
//   allreduce_sum: element-wise sum of the vector over all processes, in place, the SAME bits on
//     every process (e.g. reduce in a fixed rank order then broadcast; MPI_Allreduce with a
//     user-defined op is not guaranteed to give every rank the same bits). Rigour: the sum is an
//     interval sum, so a sum of enclosures is an enclosure of the sum; IntervalD addition is
//     outward.
//   allreduce_and: logical and over all processes (step acceptance).
//   allreduce_min: minimum over all processes (step-size proposals).
// The owned ranges of all processes must be disjoint and cover [0, m) (the total count is checked).
// Without reducers the range must be the whole [0, m) (the default: a single process).
struct BlockPartition {
    std::size_t begin = 0, end = SIZE_MAX;  // owned blocks [begin, min(end, m))
    std::function<void(std::vector<IntervalD>&)> allreduce_sum;
    std::function<bool(bool)> allreduce_and;
    std::function<double(double)> allreduce_min;
    bool distributed() const noexcept { return static_cast<bool>(allreduce_sum); }
};

// Fixed summation blocks: sums over blocks do not depend on the thread count.
inline constexpr std::size_t kBlockChunk = 64;

// Runs f(i) for i < count on `threads` threads. Each i writes only its own outputs, so the
// result is the same for every thread count. The first exception is rethrown after the join.
template <class F>
void parallel_for(std::size_t count, int threads, F&& f) {
    if (threads <= 1 || count < 2) {
        for (std::size_t i = 0; i < count; ++i) f(i);
        return;
    }
    std::atomic<std::size_t> next{0};
    std::exception_ptr error;
    std::mutex error_mutex;
    auto worker = [&] {
        try {
            for (;;) {
                const std::size_t i = next.fetch_add(1);
                if (i >= count) break;
                f(i);
            }
        } catch (...) {
            std::lock_guard<std::mutex> lock(error_mutex);
            if (!error) error = std::current_exception();
            next.store(count);
        }
    };
    std::vector<std::thread> pool;
    const int extra = std::min<int>(threads - 1, static_cast<int>(count) - 1);
    for (int t = 0; t < extra; ++t) pool.emplace_back(worker);
    worker();
    for (auto& th : pool) th.join();
    if (error) std::rethrow_exception(error);
}

// The blocks this process integrates (local index j <-> global offset + j) and the collective
// operations over processes (identities for a single process; see BlockPartition).
struct BlockSystem {
    std::size_t m = 0;  // local blocks
    std::size_t S = 0;  // state components per block
    int threads = 1;
    std::size_t offset = 0;                  // global index of local block 0 (partition begin)
    const BlockPartition* part = nullptr;    // reducers when the blocks are split across processes

    std::size_t chunks() const { return (m + kBlockChunk - 1) / kBlockChunk; }
    void sum(std::vector<IntervalD>& v) const {
        if (part && part->allreduce_sum) part->allreduce_sum(v);
    }
    bool all(bool b) const { return part && part->allreduce_and ? part->allreduce_and(b) : b; }
    double min(double x) const { return part && part->allreduce_min ? part->allreduce_min(x) : x; }
    std::string block_name(std::size_t j) const { return std::to_string(offset + j); }

    // f(ch, j0, j1) for every chunk [j0, j1) of blocks, on the threads.
    template <class F>
    void for_chunks(F&& f) const {
        parallel_for(chunks(), threads, [&](std::size_t ch) {
            const std::size_t j0 = ch * kBlockChunk, j1 = std::min(m, j0 + kBlockChunk);
            f(ch, j0, j1);
        });
    }

    // The sum over this process's blocks of a `width`-vector: accumulate(j0, j1, acc) adds the
    // contributions of the blocks [j0, j1) into acc (width entries, initialised to `zero`, local to
    // the chunk: adjacent chunks' partials would share cache lines), then the chunk partials are
    // added in chunk order: zero + p_0 + p_1 + ... (add(out, p)). Deterministic for every thread
    // count; not reduced over processes (the caller decides what to all-reduce).
    template <class T, class Accumulate, class Add>
    std::vector<T> chunked_sum(std::size_t width, const T& zero, Accumulate&& accumulate, Add&& add) const {
        const std::size_t C = chunks();
        std::vector<T> partial(C * width);
        for_chunks([&](std::size_t ch, std::size_t j0, std::size_t j1) {
            std::vector<T> acc(width, zero);
            accumulate(j0, j1, acc.data());
            std::copy(acc.begin(), acc.end(), partial.begin() + static_cast<std::ptrdiff_t>(ch * width));
        });
        std::vector<T> out(width, zero);
        for (std::size_t ch = 0; ch < C; ++ch)
            for (std::size_t q = 0; q < width; ++q) add(out[q], partial[ch * width + q]);
        return out;
    }
};

}  // namespace flowcert::ode
