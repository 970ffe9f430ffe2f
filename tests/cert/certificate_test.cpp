#include <flowcert/cert.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>

using namespace flowcert;
using namespace flowcert::cert;

namespace {

Report sample_report(bool certified) {
    Report r;
    r.claim = {"demo", "Example 1", "sqrt 2 < 1.5", "sqrt(2) <= 1.5"};
    r.verifier = "demo/test";
    r.case_name = "sample";
    r.expected = Verdict::certified;
    r.labels = {"fast"};
    r.provenance = build_provenance();
    r.provenance.precision_bits = 128;
    r.case_source = "verifier = \"demo/test\"\nexpect = \"certified\"\nlabels = [\"fast\"]\n";
    r.provenance.case_sha256 = sha256_hex(r.case_source);
    r.provenance.started_utc = utc_now_iso8601();
    r.provenance.self_test_passed = true;
    r.provenance.self_test = "ok";
    r.plan("sqrt");
    const auto s = sqrt(IntervalMp::from_integer(2, Precision(128)));
    r.conclusion("sqrt", "[demo]").le({"sqrt(2)", s}, exact("bound", certified ? "1.5" : "1.4"));
    r.hypothesis("hypothesis", "[demo]").holds(true, "by inspection");
    r.note("reconstructed definition: none");
    r.table("t", {"a", "b"}).add_row({"1", "2"});
    TubePlot tube{.title = "tube", .x_label = "t", .y_label = "y"};
    tube.add_point("y", 0.0, IntervalD::bounds(1, 2));
    tube.add_point("y", 1.0, IntervalD::bounds(1.5, 2.5));
    r.add_plot(tube);
    SweepPlot sweep{.title = "sweep", .x_label = "lambda", .y_label = "gap"};
    sweep.add_point("gap", 1e-3, IntervalD::bounds(1e-4, 2e-4));
    sweep.add_point("gap", 1e-2, IntervalD::bounds(1e-3, std::nextafter(3e-3, 1.0)));
    sweep.references.push_back({"C lambda", 0.1, 1.0});
    r.add_plot(sweep);
    CirclePlot circle{.title = "directions"};
    circle.add("w1", "neurons", IntervalD::bounds(0.6, 0.61), IntervalD::bounds(0.8, 0.81));
    r.add_plot(circle);
    r.add_plot(HeatMap{.title = "W", .row_labels = {}, .col_labels = {}, .values = {{1, -1}, {0.5, NAN}}});
    r.mark_completed();
    return r;
}

}  // namespace

TEST_CASE("a certificate survives a JSON round trip unchanged", "[cert][json]") {
    const Report r = sample_report(true);
    const nlohmann::json j = to_json(r);
    CHECK(schema_problems(j).empty());
    const Report back = report_from_json(nlohmann::json::parse(j.dump()));
    CHECK(back.verdict() == Verdict::certified);
    CHECK(to_json(back) == j);
}

TEST_CASE("flowcert check accepts a genuine certificate", "[cert][json]") {
    for (bool certified : {true, false}) {
        const auto j = to_json(sample_report(certified));
        const auto res = recheck_certificate(j);
        INFO(res.summary());
        CHECK(res.accepted);
        CHECK(res.count("relation") == 1);
        CHECK(res.count("none") == 1);
        CHECK(res.decisive_rederived() == 0);  // no fresh run: consistency only, and the summary says so
        CHECK_THAT(res.summary(), Catch::Contains("no fresh run"));
        CHECK(j["verdict"] == (certified ? "CERTIFIED" : "REFUTED"));
    }
}

TEST_CASE("flowcert check rejects a changed bound even when the digest is recomputed", "[cert][json]") {
    auto j = to_json(sample_report(true));
    j["checks"][0]["enclosures"][1]["lo"] = "1.4";  // bound now below sqrt(2)
    j["checks"][0]["enclosures"][1]["hi"] = "1.4";
    CHECK_THAT(recheck_certificate(j).summary(), Catch::Contains("digest mismatch"));
    j["digest"] = certificate_digest(j);
    const auto res = recheck_certificate(j);
    CHECK_FALSE(res.accepted);
    CHECK_THAT(res.summary(), Catch::Contains("check 'sqrt' is recorded as proven but its stored enclosures give disproven"));
}

TEST_CASE("flowcert check rejects a changed verdict even when the digest is recomputed", "[cert][json]") {
    auto j = to_json(sample_report(false));
    j["verdict"] = "CERTIFIED";
    j["digest"] = certificate_digest(j);
    const auto res = recheck_certificate(j);
    CHECK_FALSE(res.accepted);
    CHECK_THAT(res.summary(), Catch::Contains("does not follow from the checks"));
}

TEST_CASE("flowcert check rejects a changed status and a widened enclosure", "[cert][json]") {
    auto j = to_json(sample_report(true));
    j["checks"][0]["enclosures"][0]["hi"] = "2";  // sqrt(2) enclosure widened past the bound
    j["digest"] = certificate_digest(j);
    CHECK_FALSE(recheck_certificate(j).accepted);
    auto k = to_json(sample_report(false));
    k["checks"][0]["status"] = "proven";
    k["digest"] = certificate_digest(k);
    CHECK_FALSE(recheck_certificate(k).accepted);
}

TEST_CASE("schema validation names missing and mistyped fields", "[cert][json]") {
    auto j = to_json(sample_report(true));
    j.erase("provenance");
    j["checks"][0]["status"] = "probably";
    const auto p = schema_problems(j);
    REQUIRE(p.size() >= 2);
    std::string all;
    for (const auto& s : p) all += s + "\n";
    CHECK_THAT(all, Catch::Contains("missing field provenance") && Catch::Contains("'probably' is unknown"));
    CHECK_FALSE(schema_problems(nlohmann::json::array()).empty());
    auto v = to_json(sample_report(true));
    v["format_version"] = 99;
    CHECK_THAT(schema_problems(v).front(), Catch::Contains("unsupported format_version"));
}

TEST_CASE("the HTML report is self-contained and holds every plot as SVG", "[cert][html]") {
    const std::string html = render_html(sample_report(true));
    CHECK_THAT(html, Catch::Contains("<!DOCTYPE html>") && Catch::Contains("CERTIFIED"));
    CHECK_THAT(html, !Catch::Contains("<script") && !Catch::Contains("http://example") && !Catch::Contains("src="));
    std::size_t n = 0;
    for (auto pos = html.find("<svg"); pos != std::string::npos; pos = html.find("<svg", pos + 1)) ++n;
    CHECK(n == 4);
    CHECK_THAT(render_markdown(sample_report(true)), Catch::Contains("**CERTIFIED**"));
}

TEST_CASE("flowcert check ties a certificate to its embedded case", "[cert][json]") {
    SECTION("an edited embedded case no longer has the recorded hash") {
        auto j = to_json(sample_report(true));
        j["case"]["source"] = j["case"]["source"].get<std::string>() + "extra = 1\n";
        j["digest"] = certificate_digest(j);
        CHECK_THAT(recheck_certificate(j).summary(), Catch::Contains("does not have the recorded SHA-256"));
    }
    SECTION("a changed expectation or description contradicts the embedded case") {
        auto j = to_json(sample_report(true));
        j["case"]["expect"] = "REFUTED";
        j["case"]["description"] = "another case";
        j["digest"] = certificate_digest(j);
        const auto res = recheck_certificate(j);
        CHECK_THAT(res.summary(), Catch::Contains("expect differs"));
        CHECK_THAT(res.summary(), Catch::Contains("description differs"));
    }
    SECTION("a certificate relabelled as another case is rejected against that case's file") {
        const Report r = sample_report(true);
        const auto dir = std::filesystem::temp_directory_path() / "flowcert-relabel-test";
        std::filesystem::create_directories(dir);
        {
            std::ofstream(dir / "sample.toml", std::ios::binary) << r.case_source;
            std::ofstream(dir / "other.toml", std::ios::binary) << r.case_source << "# another case\n";
        }
        auto j = to_json(r);
        CHECK(recheck_certificate(j, {.case_file = (dir / "sample.toml").string()}).accepted);
        j["case"]["name"] = "other";
        j["digest"] = certificate_digest(j);
        const auto res = recheck_certificate(j, {.case_file = (dir / "other.toml").string()});
        CHECK_FALSE(res.accepted);
        CHECK_THAT(res.summary(), Catch::Contains("is not the case of this certificate"));
        std::filesystem::remove_all(dir);
    }
}

TEST_CASE("a forged certificate (edited enclosure, statuses, verdict and digest made consistent) fails the fresh-run "
          "comparison",
          "[cert][json]") {
    const auto genuine = to_json(sample_report(false));  // REFUTED: sqrt(2) <= 1.4 is false
    auto forged = genuine;
    forged["checks"][0]["enclosures"][0]["lo"] = "1.3";  // a "tighter" sqrt(2), self-consistent with the bound
    forged["checks"][0]["enclosures"][0]["hi"] = "1.35";
    forged["checks"][0]["status"] = "proven";
    forged["verdict"] = "CERTIFIED";
    forged["verdict_reason"] = "all checks proven";
    forged["digest"] = certificate_digest(forged);
    auto res = recheck_certificate(forged);
    INFO(res.summary());
    CHECK(res.accepted);  // consistent: stored data alone cannot tell
    compare_rerun(forged, genuine, res);  // the fresh run recomputes sqrt(2)
    CHECK_FALSE(res.accepted);
    CHECK_THAT(res.summary(), Catch::Contains("check 'sqrt' differs in status, enclosures"));
    CHECK_THAT(res.summary(), Catch::Contains("verdict REFUTED, the certificate says CERTIFIED"));

    auto honest = recheck_certificate(genuine);
    compare_rerun(genuine, genuine, honest);
    CHECK(honest.accepted);
    CHECK(honest.decisive_rederived() == honest.decisive());
}

TEST_CASE("flowcert check reads the reconstructed and case_claim marks back: removing or adding one changes the verdict",
          "[cert][json][reconstructed]") {
    auto j = to_json(sample_report(false));  // REFUTED: the hypothesis proven, the conclusion false
    REQUIRE(j["verdict"] == "REFUTED");
    CHECK(j["checks"][1]["reconstructed"] == "");
    // A refutation that, once the hypothesis is marked a reconstruction, no longer follows.
    j["checks"][1]["reconstructed"] = "the hypothesis as reconstructed";
    j["digest"] = certificate_digest(j);
    auto res = recheck_certificate(j);
    CHECK_FALSE(res.accepted);
    CHECK_THAT(res.summary(), Catch::Contains("does not follow from the checks, which give INCONCLUSIVE"));
    // ... and stands again when the false conclusion is the case's own claim.
    j["checks"][0]["case_claim"] = "bound";
    j["digest"] = certificate_digest(j);
    res = recheck_certificate(j);
    INFO(res.summary());
    CHECK(res.accepted);
    // The marks on roles they mean nothing for are rejected.
    j["checks"][1]["case_claim"] = "bound";
    j["digest"] = certificate_digest(j);
    CHECK_THAT(recheck_certificate(j).summary(), Catch::Contains("marked as the case's claim"));
    auto k = to_json(sample_report(true));
    k.erase("checks");
    CHECK_FALSE(schema_problems(k).empty());
    auto m = to_json(sample_report(true));
    m["checks"][0].erase("reconstructed");
    CHECK_THAT(schema_problems(m).front(), Catch::Contains("reconstructed"));
}
