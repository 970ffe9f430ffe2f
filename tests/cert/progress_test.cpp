#include <flowcert/cert.hpp>

#include <catch2/catch.hpp>

#include <sstream>
#include <thread>

using namespace flowcert;
using namespace flowcert::cert;

TEST_CASE("progress lines show counts and an ETA when the size is known, and nothing when silent", "[cert][progress]") {
    std::ostringstream os;
    Progress p(&os, "demo/x", 0.0);  // no rate limit for the test
    p.begin("sweep over lambda", 4);
    p.advance();
    p.advance();
    CHECK_THAT(os.str(), Catch::Contains("[demo/x] sweep over lambda: 2/4 (50%), ETA"));
    Progress quiet(nullptr, "demo/x", 0.0);
    quiet.begin("x", 2);
    quiet.advance();
    quiet.message("hello");
    quiet.finish();  // no sink: nothing to check but that it does not crash
}

TEST_CASE("progress lines are rate limited", "[cert][progress]") {
    std::ostringstream os;
    Progress p(&os, "v", 3600.0);
    p.begin("long task", 1000);
    for (int i = 0; i < 1000; ++i) p.advance();
    CHECK(os.str().empty());
}

TEST_CASE("checks recorded from several threads are all kept", "[cert][verdict]") {
    Report r;
    std::vector<std::thread> ts;
    for (int t = 0; t < 4; ++t)
        ts.emplace_back([&r, t] {
            for (int i = 0; i < 50; ++i)
                r.conclusion("c" + std::to_string(t) + "_" + std::to_string(i), "").le(IntervalD(i), IntervalD(i + 1));
        });
    for (auto& t : ts) t.join();
    r.mark_completed();
    CHECK(r.checks().size() == 200);
    CHECK(r.verdict() == Verdict::certified);
}
