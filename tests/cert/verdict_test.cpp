#include <flowcert/cert.hpp>

#include <catch2/catch.hpp>

using namespace flowcert;
using namespace flowcert::cert;

TEST_CASE("a report is CERTIFIED only when it completed and every check was proven", "[cert][verdict]") {
    Report r;
    CHECK(r.verdict() == Verdict::inconclusive);  // default
    r.mark_completed();
    CHECK(r.verdict() == Verdict::inconclusive);  // no checks at all
    r.conclusion("a", "[t]").holds(true, "ok");
    CHECK(r.verdict() == Verdict::certified);
    r.conclusion("b", "[t]").holds(false, "hypothesis not certified");
    CHECK(r.verdict() == Verdict::inconclusive);
    CHECK_THAT(r.verdict_reason(), Catch::Contains("'b' not proven"));
}

TEST_CASE("a report that did not complete is never CERTIFIED", "[cert][verdict]") {
    Report r;
    r.conclusion("a", "[t]").holds(true, "ok");
    CHECK(r.verdict() == Verdict::inconclusive);
    CHECK_THAT(r.verdict_reason(), Catch::Contains("did not complete"));
}

TEST_CASE("a planned check that never ran blocks CERTIFIED", "[cert][verdict]") {
    Report r;
    r.plan("first");
    r.plan("second");
    r.conclusion("first", "[t]").le(IntervalD(1), IntervalD(2));
    r.mark_completed();
    CHECK(r.verdict() == Verdict::inconclusive);
    CHECK_THAT(r.verdict_reason(), Catch::Contains("'second' did not run"));
    r.conclusion("second", "[t]").le(IntervalD(1), IntervalD(2));
    CHECK(r.verdict() == Verdict::certified);
}

TEST_CASE("the INCONCLUSIVE reason names the check that failed before the planned checks skipped after it",
          "[cert][verdict]") {
    Report r;
    r.plan("hypothesis h");
    r.plan("later step");
    r.hypothesis("hypothesis h", "[t]").holds(false, "h could not be shown");
    r.mark_completed();
    CHECK(r.verdict() == Verdict::inconclusive);
    CHECK_THAT(r.verdict_reason(), Catch::Contains("'hypothesis h' not proven: h could not be shown"));
}

TEST_CASE("a body whose check throws half way cannot produce CERTIFIED", "[cert][verdict]") {
    Report r;
    auto body = [&] {
        r.plan("one");
        r.plan("two");
        r.conclusion("one", "[t]").le(IntervalD(1), IntervalD(2));
        (void)sqrt(IntervalD(-1));  // throws std::domain_error half way
        r.conclusion("two", "[t]").le(IntervalD(1), IntervalD(2));
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

TEST_CASE("a false conclusion refutes only in a completed run with no check left unrun", "[cert][verdict]") {
    Report r;
    r.hypothesis("h", "[t]").positive(IntervalD(1));
    r.plan("never");
    r.conclusion("false", "[t]").le(IntervalD(3), IntervalD(2));
    CHECK(r.verdict() == Verdict::inconclusive);  // not completed
    r.mark_completed();
    CHECK(r.verdict() == Verdict::inconclusive);  // "never" may be a hypothesis that was never checked
    r.conclusion("never", "[t]").holds(false, "not proven");  // ran, not proven: the false conclusion stands on its own
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

// ---- roles (issue 14): the verdict follows mechanically from hypotheses, steps and conclusions ----

TEST_CASE("a false hypothesis puts the instance OUTSIDE_HYPOTHESES, never REFUTED", "[cert][verdict][roles]") {
    Report r;
    r.hypothesis("epsilon < 1/3", "[t]").lt({"epsilon", IntervalD::bounds(0.5, 0.5)}, exact("1/3"));
    r.conclusion("gap <= bound", "[t]").le(IntervalD(3), IntervalD(2));  // false too, but the theorem does not apply
    r.mark_completed();
    CHECK(r.verdict() == Verdict::outside_hypotheses);
    CHECK_THAT(r.verdict_reason(), Catch::Contains("hypothesis 'epsilon < 1/3' is false"));
    CHECK(exit_code_for(Verdict::outside_hypotheses) == exit_code::outside_hypotheses);
    CHECK(to_string(Verdict::outside_hypotheses) == "OUTSIDE_HYPOTHESES");
    CHECK(parse_verdict("outside_hypotheses") == Verdict::outside_hypotheses);
}

TEST_CASE("a false conclusion refutes nothing when no hypothesis of the theorem is stated", "[cert][verdict][roles]") {
    Report none;
    none.conclusion("c", "[t]").le(IntervalD(3), IntervalD(2));
    none.mark_completed();
    CHECK(none.verdict() == Verdict::inconclusive);
    CHECK_THAT(none.verdict_reason(), Catch::Contains("no hypothesis of the theorem is stated"));

    Report trivial;  // a hypothesis labelled trivially true states nothing
    trivial.hypothesis("h", "[t]").trivially_true("by the schema").positive(IntervalD(1));
    trivial.conclusion("c", "[t]").le(IntervalD(3), IntervalD(2));
    trivial.mark_completed();
    CHECK(trivial.verdict() == Verdict::inconclusive);

    Report stated;
    stated.hypothesis("h", "[t]").positive(IntervalD(1));
    stated.conclusion("c", "[t]").le(IntervalD(3), IntervalD(2));
    stated.mark_completed();
    CHECK(stated.verdict() == Verdict::refuted);
}

TEST_CASE("a false conclusion refutes only when every hypothesis is proven", "[cert][verdict][roles]") {
    Report proven_hyp;
    proven_hyp.hypothesis("h", "[t]").positive(IntervalD(1));
    proven_hyp.conclusion("c", "[t]").le(IntervalD(3), IntervalD(2));
    proven_hyp.mark_completed();
    CHECK(proven_hyp.verdict() == Verdict::refuted);
    CHECK_THAT(proven_hyp.verdict_reason(), Catch::Contains("conclusion 'c' is false although every hypothesis is proven"));

    Report open_hyp;
    open_hyp.hypothesis("h", "[t]").positive(IntervalD::bounds(-1, 1));  // not proven
    open_hyp.conclusion("c", "[t]").le(IntervalD(3), IntervalD(2));
    open_hyp.mark_completed();
    CHECK(open_hyp.verdict() == Verdict::inconclusive);
    CHECK_THAT(open_hyp.verdict_reason(), Catch::Contains("hypothesis 'h' not proven"));
}

TEST_CASE("a step that fails on its whole enclosure is not proven, never a refutation", "[cert][verdict][roles]") {
    Report r;
    r.hypothesis("h", "[t]").positive(IntervalD(1));
    const Check& s = r.step("tau > T", "[t]").lt(IntervalD(5), IntervalD(4));  // our sufficient condition fails
    CHECK(s.status == CheckStatus::not_proven);
    CHECK(s.witness.empty());
    CHECK_THAT(s.reason, Catch::Contains("not of the theorem"));
    r.conclusion("L >= L*", "[t]").implied_by({"h", "tau > T"});
    r.mark_completed();
    CHECK(r.verdict() == Verdict::inconclusive);
    CHECK_THAT(r.verdict_reason(), Catch::Contains("step 'tau > T' not proven"));
}

TEST_CASE("a conclusion implied by proven premises certifies -- a later premise updates it", "[cert][verdict][roles]") {
    Report r;
    r.plan("late premise");
    r.hypothesis("h", "[t]").positive(IntervalD(1));
    r.conclusion("c", "[t]").implied_by({"h", "late premise"});
    r.mark_completed();
    CHECK(r.find_check("c")->status == CheckStatus::not_proven);
    CHECK(r.verdict() == Verdict::inconclusive);
    r.step("late premise", "[t]").le(IntervalD(1), IntervalD(2));
    CHECK(r.find_check("c")->status == CheckStatus::proven);
    CHECK(r.verdict() == Verdict::certified);
    CHECK_THROWS_AS(r.conclusion("d", "[t]").implied_by({"no such check"}), std::logic_error);
}

TEST_CASE("a trivially true or evidence check never carries a verdict", "[cert][verdict][roles]") {
    Report r;
    r.hypothesis("h", "[t]").positive(IntervalD(1));
    r.conclusion("gap <= 2 D_max", "[t]").trivially_true("|G| <= 2 D_max for every input").le(IntervalD(1), IntervalD(2));
    r.evidence("finite slope >= exponent", "[t]").le(IntervalD(3), IntervalD(2));  // false evidence: shown only
    r.mark_completed();
    CHECK(r.verdict() == Verdict::inconclusive);  // the only conclusion is trivial: checked on no instance
    CHECK_THAT(r.verdict_reason(), Catch::Contains("checked on no instance"));
    r.conclusion("gap <= C lambda^eps", "[t]").le(IntervalD(1), IntervalD(2));
    CHECK(r.verdict() == Verdict::certified);
}

TEST_CASE("a check labelled trivially true that is false is a bug, not a verdict", "[cert][verdict][roles]") {
    Report r;
    CHECK_THROWS_AS(r.conclusion("always", "[t]").trivially_true("for every input").le(IntervalD(3), IntervalD(2)),
                    std::logic_error);
}

TEST_CASE("a hand-built check cannot be disproven without a relation", "[cert][verdict][roles]") {
    Report r;
    Check c;
    c.name = "forged";
    c.status = CheckStatus::disproven;
    CHECK_THROWS_AS(r.record(c), std::logic_error);
}

TEST_CASE("within decides with the inner bounds of computed bounds -- the hull test would be unsound",
          "[cert][checks][roles]") {
    // x in [e - t, e + t] with e in [0.9, 1.1], t = 0.1: the true set may be [0.8, 1.0] (e = 0.9),
    // which does not contain x = 1.05, though the hull [0.8, 1.2] of the bound enclosures does.
    Report r;
    const IntervalD e = IntervalD::bounds(0.9, 1.1), t = IntervalD::bounds(0.1, 0.1);
    const Check& c = r.conclusion("x near e", "[t]").within({"x", IntervalD::bounds(1.05, 1.05)}, {"e - t", e - t}, {"e + t", e + t});
    CHECK(c.status == CheckStatus::not_proven);
    const Check& d = r.conclusion("x near e, tight", "[t]")
                         .within({"x", IntervalD::bounds(1.05, 1.05)}, {"e - t", IntervalD::bounds(0.9, 1.0)}, {"e + t", IntervalD::bounds(1.1, 1.2)});
    CHECK(d.status == CheckStatus::proven);
    CHECK(d.margin.has_value());
    const Check& f = r.conclusion("x far", "[t]").within({"x", IntervalD(2)}, {"lo", IntervalD(0)}, {"hi", IntervalD(1)});
    CHECK(f.status == CheckStatus::disproven);
    CHECK_THROWS_AS(r.conclusion("computed box", "[t]").inside(IntervalD(1), IntervalD::bounds(0, 2)), std::logic_error);
}

TEST_CASE("margins are the slack relative to the bound", "[cert][checks][roles]") {
    Report r;
    CHECK(*r.conclusion("a", "[t]").le(IntervalD(1), IntervalD(2)).margin == Approx(0.5));
    CHECK(*r.conclusion("b", "[t]").le(IntervalD(3), IntervalD(2)).margin == Approx(-1.0 / 3));
    CHECK(*r.conclusion("c", "[t]").positive(IntervalD::bounds(1, 4)).margin == Approx(0.25));
}

TEST_CASE("a witness under a reconstructed hypothesis refutes the reconstruction, not the theorem",
          "[cert][verdict][roles][reconstructed]") {
    auto build = [](bool reconstructed, bool case_claim) {
        Report r;
        auto h = r.hypothesis("regime eps <= eps_max", "[t]");
        if (reconstructed) h.reconstructed("the regime condition; the paper's text is not available");
        h.le(IntervalD(1), IntervalD(5));
        r.hypothesis("step size", "[t]").lt(IntervalD(1), IntervalD(2));
        auto c = r.conclusion("w(inf) is a global minimizer", "[t]");
        if (case_claim) c.case_claim("ratio_lower");
        c.le(IntervalD(3), IntervalD(2));  // proven false
        r.mark_completed();
        return r;
    };
    CHECK(build(false, false).verdict() == Verdict::refuted);
    const Report rec = build(true, false);
    CHECK(rec.verdict() == Verdict::inconclusive);
    CHECK_THAT(rec.verdict_reason(), Catch::Contains("refutes the reconstruction, not the theorem"));
    CHECK_THAT(rec.verdict_reason(), Catch::Contains("regime eps <= eps_max"));
    // The case's own claimed constant is refuted whatever the reconstruction; the reason says whose claim.
    const Report own = build(true, true);
    CHECK(own.verdict() == Verdict::refuted);
    CHECK_THAT(own.verdict_reason(), Catch::Contains("refutes the case's claim, not the paper's theorem"));
    // A reconstructed hypothesis that is false: outside the hypotheses as reconstructed, and said so.
    Report out;
    out.hypothesis("regime", "[t]").reconstructed("the regime").le(IntervalD(9), IntervalD(5));
    out.conclusion("c", "[t]").le(IntervalD(1), IntervalD(2));
    out.mark_completed();
    CHECK(out.verdict() == Verdict::outside_hypotheses);
    CHECK_THAT(out.verdict_reason(), Catch::Contains("a reconstruction"));
    CHECK_THAT(headline(out).sentence, Catch::StartsWith("Outside the hypotheses as reconstructed"));
    CHECK_THAT(headline(rec).sentence, Catch::StartsWith("Refutes the reconstruction, not the theorem"));
    CHECK_THAT(headline(own).sentence, Catch::StartsWith("The case's claim is false (not the paper's theorem)"));
    // A reconstructed conclusion proven false: also the reconstruction's failure.
    Report rc;
    rc.hypothesis("h", "[t]").positive(IntervalD(1));
    rc.conclusion("band", "[t]").reconstructed("the band's form").le(IntervalD(3), IntervalD(2));
    rc.mark_completed();
    CHECK(rc.verdict() == Verdict::inconclusive);
    // A proven instance stays CERTIFIED (of the reconstructed statement).
    Report ok;
    ok.hypothesis("regime", "[t]").reconstructed("the regime").le(IntervalD(1), IntervalD(5));
    ok.conclusion("c", "[t]").le(IntervalD(1), IntervalD(2));
    ok.mark_completed();
    CHECK(ok.verdict() == Verdict::certified);
}

TEST_CASE("reconstructed and case_claim marks only on the roles they mean something for", "[cert][verdict][roles][reconstructed]") {
    Report r;
    CHECK_THROWS_AS(r.step("s", "[t]").reconstructed("x"), std::logic_error);
    CHECK_THROWS_AS(r.evidence("e", "[t]").reconstructed("x"), std::logic_error);
    CHECK_THROWS_AS(r.hypothesis("h", "[t]").case_claim("x"), std::logic_error);
    CHECK_THROWS_AS(r.conclusion("c", "[t]").reconstructed(""), std::logic_error);
}
