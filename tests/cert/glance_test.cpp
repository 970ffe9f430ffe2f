// The report at a glance (cert/glance.hpp): the headline sentence and numbers in short form.
#include <flowcert/cert.hpp>

#include <catch2/catch.hpp>

using namespace flowcert::cert;

TEST_CASE("long numbers are shortened to 3 digits, or as many as keep every two numbers different and in order",
          "[cert][glance]") {
    CHECK(text_with_short_numbers("x = 2.2459207813834396238335028912300762493953e+00") == "x = 2.25");
    CHECK(text_with_short_numbers("widths 0.0000000000000000e+00 and 1e-40") == "widths 0 and 1e-40");
    CHECK(text_with_short_numbers("n = 100, seed 3, d = 10000") == "n = 100, seed 3, d = 10000");  // short: kept
    CHECK(text_with_short_numbers("name_1234567890 x2.5") == "name_1234567890 x2.5");              // not numbers
    // 1.7349 < 1.734999999: three digits would show "1.7349 < 1.73", the order inverted
    CHECK(text_with_short_numbers("sup a = 1.7349 < inf b = 1.734999999") == "sup a = 1.7349 < inf b = 1.735");
    CHECK(text_with_short_numbers("1.4142135623 <= sqrt(2) = 1.41421356237309504880 <= 1.4142135624") ==
          "1.4142135623 <= sqrt(2) = 1.41421356237 <= 1.4142135624");
    CHECK(html_with_short_numbers("a < 3.14159265358979") == "a &lt; <span class=\"num\" title=\"3.14159265358979\">3.14</span>");
}

TEST_CASE("the headline says what was proven, or which check the verdict turns on", "[cert][glance]") {
    Report r;
    r.claim.proven_statement = "1 <= 2";
    r.conclusion("one", "[t]").holds(true, "ok");
    r.mark_completed();
    REQUIRE(r.verdict() == Verdict::certified);
    CHECK(headline(r).sentence == "Proven: 1 <= 2");
    r.conclusion("two", "[t]").holds(false, "the enclosure of q = 0.1234567890123 overlaps");
    REQUIRE(r.verdict() == Verdict::inconclusive);
    const Headline h = headline(r);
    REQUIRE(h.decisive != nullptr);
    CHECK(h.decisive->name == "two");
    CHECK_THAT(h.sentence, Catch::StartsWith("Not proven: ") && Catch::Contains("'two'") && Catch::Contains("overlaps"));
}
