// Tests of the parked neurons' set and its cached part of the residual enclosure
// (lib/flowcert/nets/flow_parked.hpp; docs/nonsmooth-flow.md, section 4c):
//     P_k = sum over parked j on sample k of a_j [0, z_j^+].
// Reference: the exact set of those sums, computed in GMP rationals from the stored boxes: each term's
// exact range is [min(0, a_lo z), max(0, a_hi z)], so the exact sum range is [sum of the minima, sum
// of the maxima]. The cached interval must contain it after every park, unpark, commit and rollback
// of a long random sequence. Must-fail comparisons: the two test-only mutations (a park that does not
// update the sum, a rollback that keeps it) are caught by the same check.
#include <catch2/catch.hpp>

#define FLOWCERT_NETS_FLOW_INTERNAL
#include "nets/flow_parked.hpp"
#undef FLOWCERT_NETS_FLOW_INTERNAL

#include <gmpxx.h>

#include <cstdint>
#include <map>
#include <random>
#include <vector>

using flowcert::IntervalD;
using flowcert::nets::flow::ParkedSet;

namespace {

constexpr std::size_t kM = 40, kS = 3, kA = 2, kN = 3;

struct Record {
    std::uint32_t k;
    double z;
    std::vector<IntervalD> box;
};

// Whether the cached contribution contains the exact range of the sums over `parked` (exact in mpq).
bool contains_exact(const std::vector<IntervalD>& cached, const std::map<std::size_t, Record>& parked) {
    std::vector<mpq_class> lo(kN, 0), hi(kN, 0);
    for (const auto& [j, r] : parked) {
        const mpq_class z(r.z), al(r.box[kA].lower()), au(r.box[kA].upper());
        const mpq_class a = al * z, b = au * z;
        lo[r.k] += a < 0 ? a : mpq_class(0);
        hi[r.k] += b > 0 ? b : mpq_class(0);
    }
    for (std::size_t k = 0; k < kN; ++k)
        if (!(mpq_class(cached[k].lower()) <= lo[k] && hi[k] <= mpq_class(cached[k].upper()))) return false;
    return true;
}

// A random sequence of parks, unparks, commits and rollbacks, mirrored by a plain reference of the
// committed and current sets; counts the states where the cached sum misses the exact range and
// checks the set itself (membership, list) against the reference.
std::size_t run_sequence(ParkedSet::Mutation mutation, std::uint32_t seed, std::size_t ops) {
    ParkedSet ps(kM, kS, kA, kN);
    ps.set_mutation(mutation);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::map<std::size_t, Record> committed, current;
    std::size_t misses = 0;
    for (std::size_t op = 0; op < ops; ++op) {
        const double r = u(rng);
        const std::size_t j = rng() % kM;
        if (r < 0.45) {
            if (current.count(j) && u(rng) < 0.8) continue;  // sometimes re-park a parked neuron
            Record rec;
            rec.k = static_cast<std::uint32_t>(rng() % kN);
            rec.z = 0.3 * u(rng) + 1e-3;
            rec.box.resize(kS);
            for (std::size_t i = 0; i < kS; ++i) {
                const double c = 2 * u(rng) - 1, w = 1e-3 * u(rng);
                rec.box[i] = IntervalD::bounds(c - w, c + w);
            }
            const double c = 0.1 + u(rng) / 3;  // a of certain sign, not a double multiple of anything
            rec.box[kA] = u(rng) < 0.5 ? IntervalD::bounds(c, c + 1e-4) : IntervalD::bounds(-c - 1e-4, -c);
            ps.park(j, rec.k, rec.z, rec.box.data());
            current[j] = rec;
        } else if (r < 0.75) {
            if (!current.count(j)) continue;
            ps.unpark(j);
            current.erase(j);
        } else if (r < 0.87) {
            ps.commit();
            committed = current;
        } else {
            const std::vector<std::uint32_t> restored = ps.rollback();
            for (std::uint32_t q : restored) CHECK(committed.count(q) == 1);
            current = committed;
        }
        // the set itself
        REQUIRE(ps.size() == current.size());
        for (std::size_t q = 0; q < kM; ++q) {
            REQUIRE(ps.on(q) == (current.count(q) == 1));
            if (!ps.on(q)) continue;
            REQUIRE(ps.sample(q) == current[q].k);
            REQUIRE(ps.box(q)[kA].lower() == current[q].box[kA].lower());
        }
        for (std::size_t k = 0; k < kN; ++k)
            for (int sign = 0; sign < 3; ++sign) {
                std::size_t g = 0;
                for (const auto& [q, rec] : current)
                    g += rec.k == k && (certainly_positive(rec.box[kA]) ? 0 : 1) == sign;
                REQUIRE(ps.group_size(k, sign) == g);
            }
        if (u(rng) < 0.7 && !contains_exact(ps.contribution(), current)) ++misses;
    }
    return misses;
}

}  // namespace

TEST_CASE("the parked neurons' cached residual part contains the exact sum after every park, unpark, commit and "
          "rollback",
          "[flow][parking][cache]") {
    for (std::uint32_t seed : {1u, 2u, 3u, 17u}) {
        INFO("seed " << seed);
        CHECK(run_sequence(ParkedSet::Mutation::none, seed, 3000) == 0);
    }
}

TEST_CASE("a rollback restores the committed parked set and its sum", "[flow][parking][cache]") {
    ParkedSet ps(4, kS, kA, kN);
    const IntervalD box[3] = {IntervalD(0), IntervalD(0), IntervalD::bounds(1.0, 1.0)};
    ps.park(1, 0, 0.5, box);
    ps.commit();
    CHECK(ps.contribution()[0].upper() >= 0.5);
    ps.unpark(1);
    CHECK(ps.contribution()[0].upper() == 0.0);  // recomputed without neuron 1
    ps.park(2, 1, 0.25, box);
    const std::vector<std::uint32_t> restored = ps.rollback();
    REQUIRE(restored.size() == 1);
    CHECK(restored[0] == 1);
    CHECK(ps.on(1));
    CHECK(!ps.on(2));
    CHECK(ps.contribution()[0].upper() >= 0.5);
    CHECK(ps.contribution()[1].upper() == 0.0);
    CHECK(ps.changed().empty());
}

TEST_CASE("must fail: a park that does not update the cached sum, or a rollback that keeps it, misses the exact sum",
          "[flow][parking][cache][mutation]") {
    std::size_t skip = 0, keep = 0;
    for (std::uint32_t seed : {1u, 2u, 3u, 17u}) {
        skip += run_sequence(ParkedSet::Mutation::skip_park_update_UNSOUND, seed, 3000);
        keep += run_sequence(ParkedSet::Mutation::keep_sum_on_rollback_UNSOUND, seed, 3000);
    }
    CHECK(skip > 0);
    CHECK(keep > 0);
}
