#include <flowcert/cert.hpp>

#include <catch2/catch.hpp>

using namespace flowcert;
using namespace flowcert::cert;

TEST_CASE("a report is CERTIFIED only when it completed and every check was proven", "[cert][verdict]") {
    Report r;
    CHECK(r.verdict() == Verdict::inconclusive);  // default
    r.mark_completed();
    CHECK(r.verdict() == Verdict::inconclusive);  // no checks at all
    r.check_true("a", "[t]", true, "ok");
    CHECK(r.verdict() == Verdict::certified);
    r.check_true("b", "[t]", false, "hypothesis not certified");
    CHECK(r.verdict() == Verdict::inconclusive);
    CHECK_THAT(r.verdict_reason(), Catch::Contains("'b' not proven"));
}

TEST_CASE("a report that did not complete is never CERTIFIED", "[cert][verdict]") {
    Report r;
    r.check_true("a", "[t]", true, "ok");
    CHECK(r.verdict() == Verdict::inconclusive);
    CHECK_THAT(r.verdict_reason(), Catch::Contains("did not complete"));
}

TEST_CASE("a planned check that never ran blocks CERTIFIED", "[cert][verdict]") {
    Report r;
    r.plan("first");
    r.plan("second");
    r.check_le("first", "[t]", IntervalD(1), IntervalD(2));
    r.mark_completed();
    CHECK(r.verdict() == Verdict::inconclusive);
    CHECK_THAT(r.verdict_reason(), Catch::Contains("'second' did not run"));
    r.check_le("second", "[t]", IntervalD(1), IntervalD(2));
    CHECK(r.verdict() == Verdict::certified);
}

TEST_CASE("a body whose check throws half way cannot produce CERTIFIED", "[cert][verdict]") {
    Report r;
    auto body = [&] {
        r.plan("one");
        r.plan("two");
        r.check_le("one", "[t]", IntervalD(1), IntervalD(2));
        (void)sqrt(IntervalD(-1));  // throws std::domain_error half way
        r.check_le("two", "[t]", IntervalD(1), IntervalD(2));
    };
    try {
        body();
        r.mark_completed();
    } catch (const std::exception& e) {
        CHECK(r.verdict() == Verdict::inconclusive);  // before the error is recorded
        r.set_error(e.what());
    }
    CHECK(r.verdict() == Verdict::error);
    CHECK_FALSE(r.completed());
}

TEST_CASE("one disproven check makes the verdict REFUTED even with unproven others", "[cert][verdict]") {
    Report r;
    r.plan("never");
    r.check_le("false", "[t]", IntervalD(3), IntervalD(2));
    CHECK(r.verdict() == Verdict::refuted);
    r.set_error("boom");
    CHECK(r.verdict() == Verdict::error);
}

TEST_CASE("verdicts map to the exit codes of DESIGN.md and print in capitals", "[cert][verdict]") {
    CHECK(exit_code_for(Verdict::certified) == 0);
    CHECK(exit_code_for(Verdict::refuted) == 1);
    CHECK(exit_code_for(Verdict::inconclusive) == 2);
    CHECK(exit_code_for(Verdict::error) == 5);
    CHECK(to_string(Verdict::inconclusive) == "INCONCLUSIVE");
    CHECK(parse_verdict("refuted") == Verdict::refuted);
    CHECK(parse_verdict("CERTIFIED") == Verdict::certified);
    CHECK_FALSE(parse_verdict("maybe").has_value());
}
