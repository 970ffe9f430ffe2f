// Tests of lib/flowcert/proofs/bf/plain_runs (the NON-RIGOROUS plain-double comparison runs of the bf reports):
// the GD run against the same GD in 200-bit MPFR arithmetic from the same double inputs (neurons freezing during
// the run are dropped from the loops, which must not change the result), the RK4 flow against the long-double RK4
// of flow_reference.hpp, and the class counts against the counts of the references' states. Teeth: a reference one
// GD iteration / one RK4 step further, or with the step 1.001 h, is outside the tolerance.
#include <catch2/catch.hpp>

#include <flowcert/nets.hpp>
#include <flowcert/proofs/bf.hpp>

#include "../../support/exact_reference.hpp"
#include "../../support/figure2_fixture.hpp"
#include "flow_reference.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace flowcert;
namespace bfp = flowcert::proofs::bf;

namespace {

// The GD of plain_gd_nonrigorous in 200-bit arithmetic from the same doubles (data, c, step, init midpoints taken
// as exact), every neuron stepped every iteration.
struct MpGd {
    std::size_t n, d, m;
    std::vector<IntervalMp> x, y, a, w;
    IntervalMp c, h;
    MpGd(const nets::TwoLayerModel<IntervalD>& model, const nets::TwoLayerParams<IntervalD>& th, double step)
        : n(model.n()), d(model.d()), m(th.m), c(IntervalMp::exact(mid(model.risk_weight()), test_support::kReferencePrecision)),
          h(IntervalMp::exact(step, test_support::kReferencePrecision)) {
        const auto P = test_support::kReferencePrecision;
        for (std::size_t k = 0; k < n; ++k) {
            y.push_back(IntervalMp::exact(mid(model.y(k)), P));
            for (std::size_t i = 0; i < d; ++i) x.push_back(IntervalMp::exact(mid(model.x(k, i)), P));
        }
        for (const auto& v : th.a) a.push_back(IntervalMp::exact(mid(v), P));
        for (const auto& v : th.w) w.push_back(IntervalMp::exact(mid(v), P));
    }
    IntervalMp z(std::size_t j, std::size_t k) const {
        IntervalMp s = IntervalMp::exact(0, test_support::kReferencePrecision);
        for (std::size_t i = 0; i < d; ++i) s += w[j * d + i] * x[k * d + i];
        return s;
    }
    std::vector<IntervalMp> residuals() const {
        std::vector<IntervalMp> r;
        for (std::size_t k = 0; k < n; ++k) {
            IntervalMp s = -y[k];
            for (std::size_t j = 0; j < m; ++j) {
                const IntervalMp zz = z(j, k);
                REQUIRE((certainly_positive(zz) || upper(zz) <= 0));  // every sign decided
                if (certainly_positive(zz)) s += a[j] * zz;
            }
            r.push_back(s);
        }
        return r;
    }
    void iterate() {
        const auto r = residuals();
        for (std::size_t j = 0; j < m; ++j) {
            std::vector<IntervalMp> D(d, IntervalMp::exact(0, test_support::kReferencePrecision));
            for (std::size_t k = 0; k < n; ++k)
                if (certainly_positive(z(j, k)))
                    for (std::size_t i = 0; i < d; ++i) D[i] -= c * r[k] * x[k * d + i];
            IntervalMp wd = IntervalMp::exact(0, test_support::kReferencePrecision);
            for (std::size_t i = 0; i < d; ++i) wd += w[j * d + i] * D[i];
            for (std::size_t i = 0; i < d; ++i) w[j * d + i] += h * a[j] * D[i];
            a[j] += h * wd;
        }
    }
    // max over neurons of |theta_plain - theta_ref| / max |theta_ref|
    double distance(const bfp::PlainRun& p) const {
        double diff = 0, scale = 0;
        for (std::size_t j = 0; j < m; ++j) {
            diff = std::max(diff, std::abs(p.a[j] - mid((a[j]))));
            scale = std::max(scale, std::abs(mid((a[j]))));
            for (std::size_t i = 0; i < d; ++i) {
                diff = std::max(diff, std::abs(p.w[j * d + i] - mid((w[j * d + i]))));
                scale = std::max(scale, std::abs(mid((w[j * d + i]))));
            }
        }
        return diff / scale;
    }
    bfp::PlainRun as_run() const {
        bfp::PlainRun p;
        p.m = m;
        p.d = d;
        for (const auto& v : a) p.a.push_back(mid((v)));
        for (const auto& v : w) p.w.push_back(mid((v)));
        return p;
    }
};

}  // namespace

TEST_CASE("plain GD equals the 200-bit GD of the same doubles, frozen neurons dropped on the way", "[bf][plain]") {
    // Figure-2 data, m = 24, seed 2, lambda = 0.05, step 0.05: neurons align and die within the run.
    const nets::TwoLayerModel<IntervalD> model(test_support::figure2_spec());
    const auto init = nets::initialize<IntervalD>(test_support::balanced_init(24, 2, "0.05"), model.d());
    const double step = 0.05;
    const std::size_t N = 600;
    const bfp::PlainRun plain = bfp::plain_gd_nonrigorous(model, init.theta, step, N);
    MpGd ref(model, init.theta, step);
    for (std::size_t t = 0; t < N; ++t) ref.iterate();
    const bfp::PlainRun start = bfp::plain_gd_nonrigorous(model, init.theta, step, 0);
    INFO("dropped at the start " << start.dropped << ", at the end " << plain.dropped);
    CHECK(plain.dropped > start.dropped);  // some neurons froze during the run (the swap-out path ran)
    CHECK(ref.distance(plain) < 1e-12);
    const auto r = ref.residuals();
    for (std::size_t k = 0; k < 3; ++k) CHECK(std::abs(plain.residual[k] - mid((r[k]))) < 1e-12);
    // the cones of the plain state equal those of the reference state
    const auto pc = bfp::plain_cone_counts(model, plain), rc = bfp::plain_cone_counts(model, ref.as_run());
    CHECK(pc.all_active == rc.all_active);
    CHECK(pc.all_active_positive == rc.all_active_positive);
    CHECK(pc.all_inactive == rc.all_inactive);
    CHECK(pc.neither == rc.neither);
    CHECK(pc.all_active + pc.all_inactive + pc.neither == 24);
    // teeth: one iteration further, or a step 1.001 h, is far outside the tolerance
    MpGd further = ref;
    further.iterate();
    CHECK(further.distance(plain) > 1e-6);
    MpGd scaled(model, init.theta, step * 1.001);
    for (std::size_t t = 0; t < N; ++t) scaled.iterate();
    CHECK(scaled.distance(plain) > 1e-6);
}

TEST_CASE("plain RK4 flow agrees with the long-double RK4 reference, trap classes of its state", "[bf][plain]") {
    const nets::TwoLayerModel<IntervalD> model(test_support::figure2_spec());
    const auto is = test_support::balanced_init(40, 1, "1e-3");
    const auto init = nets::initialize<IntervalD>(is, model.d());
    const double T = 10, h = 0.01;
    const bfp::PlainRun plain = bfp::plain_flow_nonrigorous(model, init.theta, T, h);
    CHECK(plain.steps == 1000);
    test_support::FlowReference ref(test_support::figure2_spec(), is);
    ref.run(T, h);
    double diff = 0, scale = 0;
    for (std::size_t j = 0; j < 40; ++j) {
        diff = std::max(diff, static_cast<double>(std::abs(plain.a[j] - ref.a[j])));
        scale = std::max(scale, static_cast<double>(std::abs(ref.a[j])));
    }
    INFO("max |a_plain - a_ref| = " << diff << ", max |a_ref| = " << scale);
    CHECK(diff < 1e-9 * scale);
    CHECK(std::abs(plain.loss - static_cast<double>(ref.loss())) < 1e-12);
    // teeth: the reference one step further is outside the tolerance
    test_support::FlowReference more(test_support::figure2_spec(), is);
    more.run(T + h, h);
    double diff2 = 0;
    for (std::size_t j = 0; j < 40; ++j) diff2 = std::max(diff2, static_cast<double>(std::abs(plain.a[j] - more.a[j])));
    CHECK(diff2 > 1e-6 * scale);
    // the trap classes count every neuron once
    const auto c = bfp::plain_trap_counts(model, plain);
    CHECK(c.frozen + c.P + c.N1 + c.N3 + c.S1 + c.S3 + c.other == 40);
    CHECK(c.P > 0);
    CHECK(c.frozen > 0);
}
