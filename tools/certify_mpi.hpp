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
// Sweeps (cert/sweep.hpp): before handing out work, rank 0 asks the verifier of every selected case
// for its number of sweep points (`--sweep-count`, a few seconds at most; a verifier that does not
// answer is run as a whole case). A case with more than one point becomes P = min(points,
// 2 x ranks x jobs) work items (sweep parts; part k holds points k, k + P, k + 2P, ..., so that
// cheap and expensive points mix); a case timed in the previous run's summary.json gets at most
// one part per second of its time (a case under 2 s runs whole). Parts are scheduled with the whole cases (longest expected first, a part
// counting for 1/P of its case). A rank runs a part as `VERIFIER --case F --sweep-points LIST
// --sweep-out PART` and sends the part file back; when the last part of a case is in, rank 0 runs
// `VERIFIER --case F --out DIR --sweep-merge PART...`, which writes the certificate of the direct
// run (the merge refuses missing, duplicated, foreign or corrupted parts). A part that crashes or
// times out makes its case CRASHED / TIMEOUT as a whole case would; a dead rank ends the run
// INCOMPLETE as below. Parts live under <out>/.sweep/ and are removed once merged.
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

// The result of one sweep part (a verifier run with --sweep-points).
struct SweepPartResult {
    bool ok = false;          // the part file was written
    std::string verdict;      // if not ok: "CRASHED", "TIMEOUT", "BAD INPUT", "ENVIRONMENT", ...
    std::string message;
    double wall_time = 0;
};

#if defined(FLOWCERT_HAVE_MPI)

struct MpiCertifyHooks {
    // Runs one case on this rank (the same subprocess path as a single-process run); never throws.
    std::function<void(CaseOutcome&)> run_case;
    // Rank 0: one case finished (printing its line).
    std::function<void(const CaseOutcome&)> finished;
    // Rank 0: (re)writes index.html, index.md and summary.json; `banner` is empty for a complete run.
    std::function<void(const std::vector<CaseOutcome>&, const std::string& banner)> write_index;
    // Rank 0: the number of sweep points of a case (0 or 1: run it whole); fills in verifier and
    // expect from the case header; never throws.
    std::function<std::size_t(CaseOutcome&)> sweep_count;
    // Runs the sweep points `points` ("0,4,8") of a case, writing the part file `part`; never throws.
    std::function<void(const CaseOutcome&, const std::string& points, const std::filesystem::path& part,
                       SweepPartResult&)>
        run_part;
    // Rank 0: the merge of a case's parts into its certificate (run_case with --sweep-merge).
    std::function<void(CaseOutcome&, const std::vector<std::filesystem::path>& parts)> merge;
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
    // With split_sweeps, cases with sweep points are split into parts (see above).
    void distribute(std::vector<CaseOutcome>& outs, const std::filesystem::path& out_dir, unsigned jobs,
                    const MpiCertifyHooks& hooks, bool split_sweeps = true);

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
