// Re-validation of recorded steps (ode::revalidate): an honest record re-validates to the very
// same boxes; a broken hint makes its step fail; whatever the hints, a re-validated box contains
// the exact solution (closed forms with MPFR at 300 bits).
#include <catch2/catch.hpp>
#include <flowcert/ode.hpp>

#include <cmath>
#include <random>

#include "flowcert/ode/revalidate_events.hpp"

using namespace flowcert;
using namespace flowcert::ode;

namespace {
const Precision kRef(300);
IntervalD D(const char* s) { return IntervalD::from_decimal(s); }
IntervalD D(const char* lo, const char* hi) { return hull(D(lo), D(hi)); }
bool encloses(const IntervalD& enc, const IntervalMp& exact) { return subset(exact, to_interval_mp(enc, kRef)); }
bool same(const IntervalD& a, const IntervalD& b) { return a.lower() == b.lower() && a.upper() == b.upper(); }

taylor::VectorField field(const char* formula) {
    auto r = taylor::parse_formula(formula);
    INFO(r.message(formula));
    REQUIRE(r.ok());
    return *r.field;
}

std::vector<int> output_records(const Result<IntervalD>& res) {
    std::vector<int> out;
    for (const auto& s : res.outputs) out.push_back(s.record);
    return out;
}

struct Recorded {
    taylor::VectorField f;
    std::vector<IntervalD> p, x0, outs;
    IntervalD T;
    Options opt;
    Result<IntervalD> res;
    Revalidation<IntervalD> check(const std::vector<StepRecord<IntervalD>>& records) const {
        return revalidate(f, p, x0, T, outs, opt, 53, records, output_records(res), res.final_record);
    }
};

Recorded record(const char* formula, std::vector<IntervalD> p, std::vector<IntervalD> x0, IntervalD T,
                std::vector<IntervalD> outs = {}) {
    Recorded r{field(formula), std::move(p), std::move(x0), std::move(outs), T, {}, {}};
    r.opt.record_steps = true;
    r.res = integrate(r.f, r.p, r.x0, r.T, r.outs, r.opt, 53);
    INFO(r.res.reason);
    REQUIRE(r.res.ok());
    REQUIRE(r.res.records.size() == static_cast<std::size_t>(r.res.steps));
    return r;
}

void require_same_boxes(const Recorded& r, const Revalidation<IntervalD>& v) {
    INFO(v.reason);
    REQUIRE(v.ok());
    for (std::size_t i = 0; i < r.res.final_box.size(); ++i) CHECK(same(v.final_box[i], r.res.final_box[i]));
    REQUIRE(v.outputs.size() == r.res.outputs.size());
    for (std::size_t k = 0; k < v.outputs.size(); ++k)
        for (std::size_t i = 0; i < v.outputs[k].size(); ++i) CHECK(same(v.outputs[k][i], r.res.outputs[k].box[i]));
}
}  // namespace

TEST_CASE("an honest record re-validates to the integrator's boxes, bit for bit (Lorenz from a box, relu kinks)") {
    const auto lorenz = record("var:x,y,z; par:s,r,b; fun:s*(y-x), x*(r-z)-y, x*y-b*z;", {D("10"), D("28"), D("8/3")},
                               {D("0.9999999999", "1.0000000001"), D("1"), D("1")}, D("2"), {D("0.5"), D("2")});
    const auto v = lorenz.check(lorenz.res.records);
    require_same_boxes(lorenz, v);
    CHECK(v.smooth_steps == lorenz.res.steps);
    // crossings and a stretch on a kink: smooth and hull steps
    const auto kink = record("var:x,y; fun:-relu(x-y)+1, -max(x,y)+min(x,0.5);", {}, {D("0.9", "1.1"), D("0.4", "0.6")},
                             D("3"));
    const auto w = kink.check(kink.res.records);
    require_same_boxes(kink, w);
    CHECK(w.hull_steps == kink.res.hull_steps);
    CHECK(w.hull_steps > 0);
}

TEST_CASE("a broken hint fails its own step: an a priori box, a step size, a basis, the chain of records") {
    auto r = record("var:x,y; fun:y, -x;", {}, {D("1"), D("0")}, D("20"));
    REQUIRE(r.res.records.size() > 6);
    auto records = r.res.records;
    SECTION("the a priori box shrunk to the step's end set") {
        records[3].apriori = records[3].centre;
        const auto v = r.check(records);
        CHECK(v.status == Status::no_a_priori_enclosure);
        CHECK(v.failed_record == 3);
    }
    SECTION("a step size 4 times longer than its a priori box allows") {
        records[2].h = records[2].h * D("4");
        CHECK(r.check(records).failed_record == 2);
    }
    SECTION("a singular basis") {
        for (auto& b : records[1].B) b = D("1");
        const auto v = r.check(records);
        CHECK(v.failed_record == 1);
        CHECK(v.status == Status::invalid_input);
    }
    SECTION("a step that starts from a later record, and an output that is not the end of a step to it") {
        records[2].from = 4;
        CHECK(r.check(records).failed_record == 2);
        CHECK_FALSE(revalidate(r.f, r.p, r.x0, r.T, r.outs, r.opt, 53, r.res.records, {}, r.res.final_record - 1).ok());
    }
}

TEST_CASE("whatever the hints, a re-validated box contains the exact solution (rotation to T = 20, random edits)") {
    auto r = record("var:x,y; fun:y, -x;", {}, {D("0.99", "1.01"), D("0")}, D("20"));
    const IntervalMp T = IntervalMp::from_integer(20, kRef);
    std::mt19937 rng(19);
    std::uniform_real_distribution<double> u(-1, 1);
    int accepted = 0, rejected = 0;
    for (int trial = 0; trial < 40; ++trial) {
        auto records = r.res.records;
        const double s = std::pow(10.0, -2 - trial % 5);  // the size of the edits
        for (auto& rec : records) {
            // centres moved, bases and h scaled, a priori boxes shrunk or widened
            for (auto& c : rec.centre) c = IntervalD::exact(c.lower() + s * u(rng));
            for (auto& b : rec.B) b = IntervalD::exact(b.lower() * (1 + s * u(rng)));
            for (auto& c : rec.C) c = IntervalD::exact(c.lower() * (1 + s * u(rng)));
            if (rec.stop < 0) rec.h = IntervalD::exact(rec.h.lower() * (1 + s * u(rng)));
            for (auto& y : rec.apriori) {
                const double e = (trial % 2 ? 1e-9 : 1e-14) * (1 + u(rng));
                if (trial % 2) y = inflate(y, e);
                else if (y.lower() + e <= y.upper() - e) y = IntervalD::bounds(y.lower() + e, y.upper() - e);
            }
        }
        const auto v = r.check(records);
        if (!v.ok()) {
            if (rejected < 3) UNSCOPED_INFO("rejected: " << v.reason);
            ++rejected;
            continue;
        }
        ++accepted;
        // each x0 = (a, 0), a in [0.99, 1.01]: x(20) = a cos 20, y(20) = -a sin 20
        const IntervalMp a = hull(IntervalMp::from_decimal("0.99", kRef), IntervalMp::from_decimal("1.01", kRef));
        CHECK(encloses(v.final_box[0], a * cos(T)));
        CHECK(encloses(v.final_box[1], -a * sin(T)));
    }
    INFO(accepted << " accepted, " << rejected << " rejected");
    CHECK(accepted > 0);  // the edits keep some records valid: the containment above was tested
    CHECK(rejected > 0);
}

// The event rules of revalidate_events.cpp on synthetic records of x' = relu(x) - 1 (x from
// positive to negative): smooth step 0, hull steps 1 and 2 straddling the kink, smooth step 3.
TEST_CASE("a crossing needs opposite signs around the stretch and d/dt of one sign on every straddling hull step") {
    const taylor::VectorField f = field("var:x; fun:relu(x)-1;");
    const std::vector<int> relus = ode::detail::relu_nodes(f);
    REQUIRE(relus.size() == 1);
    std::vector<StepRecord<IntervalD>> records(4);
    for (int j = 0; j < 4; ++j) {
        records[j].from = j - 1;
        records[j].kind = j == 1 || j == 2 ? StepKind::hull : StepKind::smooth;
    }
    std::vector<ode::detail::KinkSigns> signs = {{{1}, {0}}, {{0}, {-1}}, {{0}, {-1}}, {{-1}, {0}}};
    const std::vector<IntervalD> start = {D("0"), D("1"), D("2"), D("3")}, end = {D("1"), D("2"), D("3"), D("4")};
    SwitchEvent<IntervalD> e;
    e.kind = EventKind::crossing;
    e.relu = relus[0];
    e.argument = f.nodes()[relus[0]].a;
    e.direction = -1;
    e.before = 0;
    e.after = 3;
    e.t0 = D("1");
    e.t1 = D("3");
    std::vector<SwitchEvent<IntervalD>> claims = {e};
    long crossings = 0, contacts = 0;
    auto why = [&] { return ode::detail::check_events(f, records, signs, start, end, 3, claims, crossings, contacts); };
    SECTION("proven") {
        CHECK(why().empty());
        CHECK(crossings == 1);
    }
    SECTION("d/dt not certain on one straddling step") {
        signs[2].slope[0] = 0;
        CHECK(why().find("claim.events[0].kind: the crossing of 'x' = 0 is not proven: d/dt of the argument is not "
                         "certainly of one sign on the hull steps that straddle the kink (step 2)") == 0);
    }
    SECTION("d/dt of the other sign on one straddling step") {
        signs[1].slope[0] = 1;
        CHECK(why().find("claim.events[0].kind") == 0);
    }
    SECTION("the same sign after the stretch: the set touched the kink and came back") {
        signs[3].sign[0] = 1;
        CHECK(why().find("the same sign on the smooth steps before and after") != std::string::npos);
        claims[0].kind = EventKind::contact;
        claims[0].direction = 0;
        CHECK(why().empty());
        CHECK(contacts == 1);
    }
    SECTION("a contact may be claimed for a crossing (a weaker claim), never without its span") {
        claims[0].kind = EventKind::contact;
        claims[0].direction = 0;
        CHECK(why().empty());
        claims[0].t1 = D("2.5");
        CHECK(why().find("claim.events[0].time: [1, 2.5] does not contain the span [1, 3] of the hull steps (1..2)") == 0);
    }
    SECTION("a hull step that does not straddle is outside the span") {
        signs[2] = {{-1}, {0}};
        claims[0].t1 = D("2");
        CHECK(why().empty());
    }
    SECTION("no claim") {
        claims.clear();
        CHECK(why().find("claim.events: the kink of 'x' straddles 0 on the hull steps 1..2, time [1, 3], and no event "
                         "claims it") == 0);
    }
}
