// Sweep parts (lib/flowcert/cert/sweep.hpp): exact records, digests, merge refusals, Context::sweep.
#include <flowcert/cert.hpp>

#include <catch2/catch.hpp>
#include <gmpxx.h>
#include <mpfi.h>
#include <mpfr.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace flowcert;
using namespace flowcert::cert;
using nlohmann::json;

namespace {

std::uint64_t bits_of(double x) {
    std::uint64_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
}

SweepIdentity identity(std::size_t count) {
    return SweepIdentity{"demo/test", sha256_hex("case"), "build-1", 128, "lambda", count};
}

SweepPart part_with(std::size_t count, std::vector<std::size_t> indices) {
    SweepPart p;
    p.identity = identity(count);
    for (std::size_t i : indices) {
        SweepPart::Point q;
        q.index = i;
        q.record = json{{"i", i}, {"x", exact_json(IntervalD::from_decimal("0.1") * IntervalD(static_cast<int>(i)))}}.dump();
        p.points.push_back(q);
    }
    return p;
}

// A part after the trip through its JSON text (as a file would give it back).
SweepPart through_text(const SweepPart& p) { return sweep_part_from_json(json::parse(to_json(p).dump(1))); }

}  // namespace

TEST_CASE("a ProofResult record makes the round trip, and an unknown status is refused", "[sweep]") {
    for (const ProofResult& r : std::vector<ProofResult>{ProofResult::proven("p"), ProofResult::not_proven("why: \"quoted\""), ProofResult::disproven("w")}) {
        const json j = json::parse(exact_json(r).dump());
        CHECK(j.at("status") == std::string(to_string(r.status)));
        const ProofResult back = proof_result_from_json(j);
        CHECK(back.status == r.status);
        CHECK(back.reason == r.reason);
    }
    CHECK_THROWS_AS(proof_result_from_json(json{{"status", "maybe"}, {"reason", ""}}), std::invalid_argument);
    CHECK_THROWS(proof_result_from_json(json{{"status", "proven"}}));
}

TEST_CASE("exact_string gives back every bit of a double, including values with no short decimal form", "[sweep]") {
    std::mt19937_64 rng(20261201);
    std::vector<double> xs = {0.0, -0.0, 1.0, -2.5, std::numeric_limits<double>::min(),
                              std::numeric_limits<double>::denorm_min(), -std::numeric_limits<double>::denorm_min(),
                              std::numeric_limits<double>::max(), -std::numeric_limits<double>::max(),
                              std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                              IntervalD::from_decimal("0.1").lower(), IntervalD::from_decimal("0.1").upper(),
                              IntervalD::from_decimal("1/3").upper(), std::nextafter(1.0, 2.0)};
    for (int k = 0; k < 20000; ++k) {
        const std::uint64_t b = rng();
        double x;
        std::memcpy(&x, &b, sizeof x);
        if (!std::isnan(x)) xs.push_back(x);
    }
    for (double x : xs) {
        const std::string s = exact_string(x);
        // through JSON text, as in a part file
        const std::string back = json::parse(json(s).dump()).get<std::string>();
        REQUIRE(bits_of(parse_exact_double(back)) == bits_of(x));
    }
    // the exact value, not a decimal approximation: the double nearest 0.1 is not 1/10
    const double tenth = IntervalD::from_decimal("0.1").upper();
    mpq_class q(parse_exact_double(exact_string(tenth)));
    CHECK(q != mpq_class(1, 10));
    CHECK(q == mpq_class(tenth));
    CHECK_THROWS_AS(exact_string(std::nan("")), std::invalid_argument);
}

TEST_CASE("parse_exact_double accepts only canonical hexadecimal doubles", "[sweep]") {
    CHECK(parse_exact_double("0x1.8p+0") == 1.5);
    CHECK_THROWS_AS(parse_exact_double("1.5"), std::invalid_argument);                  // decimal: rounded
    CHECK_THROWS_AS(parse_exact_double("0x3p-1"), std::invalid_argument);               // not canonical
    CHECK_THROWS_AS(parse_exact_double("0x1.00000000000008p+0"), std::invalid_argument);  // needs rounding
    CHECK_THROWS_AS(parse_exact_double("0x1.8p+0 "), std::invalid_argument);
    CHECK_THROWS_AS(parse_exact_double("nan"), std::invalid_argument);
    CHECK_THROWS_AS(parse_exact_double(""), std::invalid_argument);
}

TEST_CASE("an interval record round-trips to the same bounds and rejects lo > hi", "[sweep]") {
    const IntervalD x = sqrt(IntervalD::from_decimal("0.2"));
    const IntervalD y = interval_d_from_json(json::parse(exact_json(x).dump()));
    CHECK(bits_of(y.lower()) == bits_of(x.lower()));
    CHECK(bits_of(y.upper()) == bits_of(x.upper()));
    CHECK(certainly_positive(y));
    CHECK_THROWS(interval_d_from_json(json::array({exact_string(1.0), exact_string(0.5)})));
    CHECK_THROWS(interval_d_from_json(json::array({"0.1", "0.2"})));
    CHECK_THROWS(interval_d_from_json(json("0x1p+0")));
}

TEST_CASE("a part survives its JSON text and its digest catches one changed bit", "[sweep]") {
    const SweepPart p = part_with(4, {0, 2});
    const SweepPart q = through_text(p);
    REQUIRE(q.points.size() == 2);
    for (std::size_t k = 0; k < 2; ++k) {
        CHECK(q.points[k].index == p.points[k].index);
        CHECK(q.points[k].record == p.points[k].record);
    }
    // flip the last hex digit of an interval bound (one bit of the double)
    json j = to_json(p);
    std::string lo = j["points"][1]["record"]["x"][0].get<std::string>();
    const auto pos = lo.find('p') - 1;
    lo[pos] = lo[pos] == 'a' ? 'b' : 'a';
    j["points"][1]["record"]["x"][0] = lo;
    CHECK_THROWS_AS(sweep_part_from_json(j), SweepMergeError);
    json k = to_json(p);
    k["points"].erase(1);  // a point dropped from the part
    CHECK_THROWS_AS(sweep_part_from_json(k), SweepMergeError);
    json v = to_json(p);
    v["format"] = "something-else";
    CHECK_THROWS_AS(sweep_part_from_json(v), SweepMergeError);
}

TEST_CASE("merging parts gives every point once, and refuses missing, duplicated and foreign parts", "[sweep]") {
    const SweepIdentity id = identity(5);
    const auto ok = merge_sweep_parts({through_text(part_with(5, {0, 3})), through_text(part_with(5, {1, 2, 4}))}, id);
    REQUIRE(ok.size() == 5);
    for (std::size_t i = 0; i < 5; ++i) CHECK(json::parse(ok.at(i).record).at("i") == i);

    CHECK_THROWS_WITH(merge_sweep_parts({part_with(5, {0, 3}), part_with(5, {1, 4})}, id),
                      Catch::Contains("missing") && Catch::Contains("(2)"));
    CHECK_THROWS_WITH(merge_sweep_parts({part_with(5, {0, 1, 3}), part_with(5, {1, 2, 4})}, id),
                      Catch::Contains("point 1 appears twice"));
    CHECK_THROWS_WITH(merge_sweep_parts({part_with(5, {0, 1, 2, 3, 4, 5})}, id), Catch::Contains("point 5"));
    auto foreign = [&](auto change) {
        SweepPart a = part_with(5, {0, 1, 2}), b = part_with(5, {3, 4});
        change(b.identity);
        return merge_sweep_parts({a, b}, id);
    };
    CHECK_THROWS_WITH(foreign([](SweepIdentity& x) { x.case_sha256 = sha256_hex("other case"); }),
                      Catch::Contains("another case file"));
    CHECK_THROWS_WITH(foreign([](SweepIdentity& x) { x.build_id = "build-2"; }), Catch::Contains("another build"));
    CHECK_THROWS_WITH(foreign([](SweepIdentity& x) { x.precision_bits = 256; }), Catch::Contains("another precision"));
    CHECK_THROWS_WITH(foreign([](SweepIdentity& x) { x.verifier = "demo/other"; }), Catch::Contains("another verifier"));
    CHECK_THROWS_WITH(foreign([](SweepIdentity& x) { x.count = 6; }), Catch::Contains("another sweep size"));
    CHECK_THROWS_AS(merge_sweep_parts({}, id), SweepMergeError);
}

TEST_CASE("point lists accept indices and ranges and reject anything else", "[sweep]") {
    CHECK(parse_point_list("4,0,2-3,3") == std::vector<std::size_t>{0, 2, 3, 4});
    CHECK(parse_point_list("7") == std::vector<std::size_t>{7});
    for (const char* bad : {"", ",", "a", "3-1", "-2", "1,,2", "1.5", "1-"})
        CHECK_THROWS_AS(parse_point_list(bad), std::invalid_argument);
}

TEST_CASE("Context::sweep returns the records in index order whatever the thread count, and a merge of parts gives the same records",
          "[sweep]") {
    const Case c = Case::parse("verifier = \"demo/test\"\nexpect = \"certified\"\n", "t.toml", {});
    Report report;
    Progress progress(nullptr);
    auto fn = [](std::size_t i) {
        return json{{"i", i}, {"y", exact_json(sqrt(IntervalD(static_cast<int>(i) + 2)))}};
    };
    std::vector<std::vector<json>> runs;
    for (int threads : {1, 3}) {
        cert::detail::SweepDriver d;
        d.identity = identity(0);
        Context ctx{c, report, progress, 53, &d};
        SweepOptions opt;
        opt.threads = threads;
        opt.cost = [](std::size_t i) { return static_cast<double>(i % 3); };
        runs.push_back(ctx.sweep(7, fn, opt));
    }
    REQUIRE(runs[0].size() == 7);
    CHECK(runs[0] == runs[1]);
    for (std::size_t i = 0; i < 7; ++i) CHECK(runs[0][i].at("i") == i);

    // points mode writes a part and stops the body; merge mode reads the parts back
    const std::string dir = std::string(FLOWCERT_TEST_TMP) + "/sweep";
    std::vector<SweepPart> parts;
    for (const char* list : {"0,2,4,6", "1,3,5"}) {
        cert::detail::SweepDriver d;
        d.identity = identity(0);
        d.mode = cert::detail::SweepDriver::Mode::points;
        d.points = parse_point_list(list);
        d.out = dir + "/part" + list + ".json";
        Context ctx{c, report, progress, 53, &d};
        CHECK_THROWS_AS(ctx.sweep(7, fn), cert::detail::SweepStop);
        parts.push_back(read_sweep_part(d.out));
    }
    cert::detail::SweepDriver m;
    m.identity = identity(0);
    m.mode = cert::detail::SweepDriver::Mode::merge;
    m.parts = parts;
    Context ctx{c, report, progress, 53, &m};
    CHECK(ctx.sweep(7, fn) == runs[0]);
    // a merge whose parts do not cover the sweep is refused
    cert::detail::SweepDriver m2 = m;
    m2.called = false;
    m2.parts.pop_back();
    Context ctx2{c, report, progress, 53, &m2};
    CHECK_THROWS_AS(ctx2.sweep(7, fn), SweepMergeError);
    // a point that throws fails the sweep (after all points) with the lowest such index
    cert::detail::SweepDriver d3;
    Context ctx3{c, report, progress, 53, &d3};
    CHECK_THROWS_WITH(ctx3.sweep(5, [](std::size_t i) -> json {
        if (i >= 2) throw std::runtime_error("boom " + std::to_string(i));
        return json(i);
    }),
                      Catch::Contains("sweep point 2") && Catch::Contains("boom 2"));
    CHECK_THROWS_AS(ctx3.sweep(1, fn), std::logic_error);  // at most once per run
}

TEST_CASE("an IntervalMp record gives back both bounds bit for bit at its own precision", "[sweep]") {
    std::mt19937_64 rng(7);
    for (long bits : {2L, 24L, 53L, 64L, 113L, 128L, 200L, 256L, 300L, 1000L}) {
        const Precision p(bits);
        std::vector<IntervalMp> xs = {sqrt(IntervalMp::from_integer(2, p)), IntervalMp::from_decimal("0.1", p),
                                      -IntervalMp::pi(p), IntervalMp::from_integer(0, p), IntervalMp::entire(p)};
        for (int k = 0; k < 50; ++k) {
            const IntervalMp a = IntervalMp::from_integer(static_cast<long long>(rng() % 2000001) - 1000000, p);
            xs.push_back(exp(a / IntervalMp::from_integer(static_cast<long long>(rng() % 997 + 1), p)));
        }
        for (const auto& x : xs) {
            const IntervalMp y = interval_mp_from_json(json::parse(exact_json(x).dump()));
            REQUIRE(y.precision() == bits);
            mpfr_t a, b;
            mpfr_inits2(bits, a, b, static_cast<mpfr_ptr>(nullptr));
            mpfi_get_left(a, x.get());
            mpfi_get_left(b, y.get());
            CHECK(mpfr_total_order_p(a, b));  // equal, signs of zeros included
            CHECK(mpfr_total_order_p(b, a));
            mpfi_get_right(a, x.get());
            mpfi_get_right(b, y.get());
            CHECK(mpfr_total_order_p(a, b));
            CHECK(mpfr_total_order_p(b, a));
            mpfr_clears(a, b, static_cast<mpfr_ptr>(nullptr));
        }
    }
    // a bound that needs more bits than recorded, a decimal bound, lo > hi: refused
    json j = exact_json(sqrt(IntervalMp::from_integer(2, Precision(200))));
    j["bits"] = 53;
    CHECK_THROWS_AS(interval_mp_from_json(j), std::invalid_argument);
    CHECK_THROWS_AS(interval_mp_from_json(json{{"bits", 53}, {"lo", "0.1"}, {"hi", "0.2"}}), std::invalid_argument);
    CHECK_THROWS_AS(interval_mp_from_json(json{{"bits", 53}, {"lo", "0x1p+1"}, {"hi", "0x1p+0"}}), std::invalid_argument);
}
