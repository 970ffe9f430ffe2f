// tools/certify_progress.hpp -- what a `flowcert certify` run says while it runs (stderr, never
// the certificates): a line per finished case with a counter, the elapsed time and an estimate
// of the time left, a line now and then for a case that runs long (with the verifier's own last
// progress line), and the per-paper roll-up at the end.
#pragma once

#include <chrono>
#include <filesystem>
#include <iosfwd>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "certify_mpi.hpp"

namespace flowcert::tools {

// The paper of a case: its directory under --cases ("kh" for kh/theorem4_example1), else the
// verifier's paper.
std::string paper_of(const CaseOutcome& o);

// Verdicts in reading order: CERTIFIED, REFUTED, OUTSIDE_HYPOTHESES, INCONCLUSIVE, ERROR, then
// the runner's own outcomes (BAD INPUT, CRASHED, TIMEOUT, ...) alphabetically.
int verdict_rank(const std::string& verdict);

// Per paper (in case order): cases, as expected, verdict counts and the sum of the wall times.
struct PaperRollup {
    std::string paper;
    int cases = 0, ok = 0;
    std::map<std::string, int> verdicts;
    double wall = 0;
    std::string verdict_counts() const;  // "12 CERTIFIED, 2 INCONCLUSIVE" (verdict_rank order)
};
std::vector<PaperRollup> rollup(const std::vector<CaseOutcome>& outs);

// Wall times (s) of the cases of the previous run into `out_dir` (its summary.json), by case;
// empty if there is none or it cannot be read.
std::map<std::string, double> previous_wall_times(const std::filesystem::path& out_dir);

// "4.2 s", "1m05s", "1h02m".
std::string duration_text(double seconds);

// Thread-safe. The estimate of the time left: the cases not finished yet, each at its time in the
// previous run (else the mean of the cases finished so far), at the rate at which this run has
// got through its finished cases' time so far (so parallel jobs and ranks are accounted for).
class CertifyProgress {
public:
    using Clock = std::chrono::steady_clock;
    // sink == nullptr: silent.
    CertifyProgress(std::ostream* sink, const std::vector<CaseOutcome>& outs, std::map<std::string, double> previous);

    void started(const CaseOutcome& o, const std::filesystem::path& log);
    // "[12/58, 1m05s elapsed, about 2m10s left] kh/theorem4_example1: CERTIFIED in 3.2 s"
    void finished(const CaseOutcome& o);
    // For every case running longer than `after` seconds, at most once per `every` seconds:
    // "  ... still running: kh/ncf_kkt_figure4 for 1m00s (1m45s in the previous run); [kh/...] ..."
    void heartbeat(double after = 20, double every = 30);
    // The per-paper roll-up: one line per paper, then the total.
    void summary(const std::vector<CaseOutcome>& outs);

    std::string finished_line(const CaseOutcome& o, double elapsed);  // the line `finished` prints (tests)

private:
    double estimate_locked(const std::string& rel) const;
    std::ostream* sink_;
    std::mutex mu_;
    Clock::time_point t0_ = Clock::now();
    std::size_t total_ = 0, done_ = 0;
    double done_work_ = 0;                      // sum of the finished cases' wall times
    std::vector<std::string> pending_;          // cases not finished, in case order
    std::map<std::string, double> previous_;
    struct Running {
        Clock::time_point since, last_said;
        std::filesystem::path log;
    };
    std::map<std::string, Running> running_;
};

}  // namespace flowcert::tools
