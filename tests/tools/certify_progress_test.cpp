// `flowcert certify` progress (tools/certify_progress.hpp): the line per finished case, its
// estimate of the time left, the line for a case that runs long, the per-paper roll-up.
#include "certify_progress.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

using namespace flowcert::tools;

namespace {
CaseOutcome outcome(std::string rel, std::string verdict, double wall, bool ok = true) {
    CaseOutcome o;
    o.rel = std::move(rel);
    o.verdict = std::move(verdict);
    o.expect = ok ? o.verdict : "CERTIFIED";
    o.wall_time = wall;
    o.ok = ok;
    return o;
}
}  // namespace

TEST_CASE("a finished case prints a counter, the elapsed time and the time left at the run's rate", "[tools][progress]") {
    const std::vector<CaseOutcome> outs{outcome("kh/a", "CERTIFIED", 10), outcome("kh/b", "REFUTED", 10),
                                        outcome("rh/c", "INCONCLUSIVE", 0, false)};
    // c took 30 s in the previous run, b is unknown (the mean of the finished cases)
    CertifyProgress p(nullptr, outs, {{"rh/c", 30.0}});
    // 10 s of case time finished in 5 s of wall time: the run goes at 2 (two jobs); left: 10 + 30 at rate 2
    CHECK(p.finished_line(outs[0], 5.0) == "[1/3, 5.0 s elapsed, about 20.0 s left] kh/a: CERTIFIED in 10.0 s");
    CHECK(p.finished_line(outs[1], 10.0) == "[2/3, 10.0 s elapsed, about 15.0 s left] kh/b: REFUTED in 10.0 s");
    CHECK(p.finished_line(outs[2], 100.0) == "[3/3, 1m40s elapsed] rh/c: INCONCLUSIVE in 0.0 s");
}

TEST_CASE("a case running long says so with its verifier's last progress line, and the roll-up is per paper", "[tools][progress]") {
    namespace fs = std::filesystem;
    const fs::path log = fs::temp_directory_path() / "flowcert_certify_progress_test.log";
    std::ofstream(log) << "starting\n[kh/ncf_kkt] sweep over delta: 3/10 (30%), ETA 1m05s\nnot a progress line\n";
    std::vector<CaseOutcome> outs{outcome("kh/long", "CERTIFIED", 2), outcome("bf/x", "CERTIFIED", 1, false)};
    std::ostringstream err;
    CertifyProgress p(&err, outs, {{"kh/long", 105.0}});
    p.started(outs[0], log);
    p.heartbeat(0, 0);
    CHECK(err.str() == "  ... still running: kh/long for 0.0 s (1m45s in the previous run); "
                       "[kh/ncf_kkt] sweep over delta: 3/10 (30%), ETA 1m05s\n");
    err.str("");
    p.heartbeat(0, 3600);  // said a moment ago: quiet
    CHECK(err.str().empty());
    p.finished(outs[0]);
    p.heartbeat(0, 0);  // finished: no longer running
    CHECK(err.str().find("still running") == std::string::npos);
    err.str("");
    p.summary(outs);
    CHECK_THAT(err.str(), Catch::StartsWith("by paper:\n  kh       1 cases,   1 as expected, 1 CERTIFIED; 2.0 s of case time\n"
                                            "  bf       1 cases,   0 as expected, 1 CERTIFIED; 1.0 s of case time\n"
                                            "  all      2 cases,   1 as expected, in "));
    fs::remove(log);
}
