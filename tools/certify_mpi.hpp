// tools/certify_mpi.hpp -- `flowcert certify --mpi`: the shipped cases distributed over MPI ranks.
//
// Every rank runs `flowcert certify --mpi ...` with the same arguments (under mpirun -np N).
// Rank 0 selects the cases and hands them out one at a time (dynamic load balancing, the longest
// expected first: cases with a wall time in the previous run's <out>/summary.json by that time,
// cases labelled slow and never timed before all of them). Every rank, rank 0 included, runs
// `--jobs` cases at a time through the same verifier subprocess path as a single-process run
// (same arguments, same working directory, so the certificates are identical up to timing
// fields). A worker rank sends back the verdict and the bytes of the files the verifier wrote
// (<case>.json/.html/.md/.log); rank 0 writes them into <out> (so the workers' file systems need
// not be shared) and keeps <out>/index.{html,md} and summary.json up to date after every finished
// case, marked INCOMPLETE until the last one.
//
// Failures: a case that fails on a rank is an ordinary outcome (BAD INPUT, CRASHED, TIMEOUT, ...)
// exactly as in a single-process run. A rank that dies makes mpirun end the job: rank 0 catches
// the SIGTERM that mpirun sends, writes the index as INCOMPLETE (finished certificates kept,
// unfinished cases "NOT RUN" with the rank that had them), prints what happened and exits 4.
//
// This header needs no MPI: CaseOutcome is shared with the single-process path
// (tools/cmd_certify.cpp); the MpiCertify class exists only when FLOWCERT_HAVE_MPI.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace flowcert::tools {

// The result of one case of `flowcert certify` (one row of the index page).
struct CaseOutcome {
    std::string rel;  // "demo/sqrt2_certified"
    std::filesystem::path file;
    std::string verifier;
    std::string expect;      // "CERTIFIED" ...
    std::string verdict;     // "CERTIFIED" ..., or "BAD INPUT", "MISSING VERIFIER", "ENVIRONMENT", "CRASHED", "TIMEOUT"
    std::string message;     // reason / error text
    double wall_time = 0;
    bool report = false;     // a certificate was written
    bool ok = false;         // verdict == expect
};

#if defined(FLOWCERT_HAVE_MPI)

struct MpiCertifyHooks {
    // Runs one case on this rank (the same subprocess path as a single-process run); never throws.
    std::function<void(CaseOutcome&)> run_case;
    // Rank 0: one case finished (printing its line).
    std::function<void(const CaseOutcome&)> finished;
    // Rank 0: (re)writes index.html, index.md and summary.json; `banner` is empty for a complete run.
    std::function<void(const std::vector<CaseOutcome>&, const std::string& banner)> write_index;
};

class MpiCertify {
public:
    // MPI_Init_thread (MPI_THREAD_FUNNELED: only the calling thread talks MPI).
    MpiCertify(int* argc, char*** argv);
    // Rank 0: tells workers that were never given work to stop; then MPI_Finalize.
    ~MpiCertify();
    MpiCertify(const MpiCertify&) = delete;
    MpiCertify& operator=(const MpiCertify&) = delete;

    int rank() const noexcept { return rank_; }
    int size() const noexcept { return size_; }

    // Worker ranks (rank() > 0): run the cases rank 0 sends until it says stop; the files of each
    // finished case (out_dir / (rel + ".json" ...)) are sent back with its outcome. Returns 0.
    int serve(const std::filesystem::path& out_dir, const MpiCertifyHooks& hooks);

    // Rank 0: runs every outcome of `outs` (already selected, in case-file order) on the ranks,
    // `jobs` at a time on each rank; fills in every outcome; returns when all are finished.
    void distribute(std::vector<CaseOutcome>& outs, const std::filesystem::path& out_dir, unsigned jobs,
                    const MpiCertifyHooks& hooks);

private:
    int rank_ = 0, size_ = 1;
    bool workers_stopped_ = false;
};

#endif

// Number of ranks when this process was started by mpirun/mpiexec/srun (from their environment
// variables: Open MPI, MPICH / Slurm's srun), else 1. Needs no MPI: `flowcert certify` refuses to run every case on every rank
// when started as one of several ranks without --mpi.
inline int launched_ranks() {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
        if (const char* s = std::getenv(v)) {
            const int n = std::atoi(s);
            if (n > 1) return n;
        }
    return 1;
}

}  // namespace flowcert::tools
