// verifiers/kh/sweep_records.hpp -- the records of the MPI-split delta sweeps of the kh/* verifiers
// (cert::Context::sweep, issue 7), written and read back bit for bit, and the certified log-log slopes between
// consecutive deltas the sweep tables show. Presentation: nothing here computes an enclosure a check uses except
// through flowcert::loglog_slope. Local to verifiers/kh (not a library header).
#pragma once

#include <flowcert/cert.hpp>
#include <flowcert/interval.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace khsweep {

// An interval of a record (cert::exact_json wrote it), bit for bit.
template <flowcert::Interval I> I interval(const nlohmann::json& j) {
    if constexpr (std::is_same_v<I, flowcert::IntervalD>)
        return flowcert::cert::interval_d_from_json(j);
    else
        return flowcert::cert::interval_mp_from_json(j);
}
template <flowcert::Interval I> nlohmann::json json_of(const std::vector<I>& x) {
    nlohmann::json a = nlohmann::json::array();
    for (const I& v : x) a.push_back(flowcert::cert::exact_json(v));
    return a;
}
template <flowcert::Interval I> std::vector<I> intervals(const nlohmann::json& a) {
    std::vector<I> x;
    for (const auto& v : a) x.push_back(interval<I>(v));
    return x;
}
// A double of a record (cert::exact_string wrote it), bit for bit.
inline nlohmann::json json_of(double v) { return flowcert::cert::exact_string(v); }
inline double real(const nlohmann::json& j) { return flowcert::cert::parse_exact_double(j.get<std::string>()); }

// The certified log-log slopes of a quantity between consecutive deltas (flowcert::loglog_slope): entry i for the
// pair (i, i + 1), empty where a quantity is missing (`have`) or not certainly positive.
template <flowcert::Interval I>
std::vector<std::optional<I>> consecutive_slopes(const std::vector<I>& q, const std::vector<I>& deltas,
                                                 const std::vector<bool>& have = {}) {
    std::vector<std::optional<I>> s;
    for (std::size_t i = 0; i + 1 < q.size(); ++i) {
        const bool both = have.empty() || (have[i] && have[i + 1]);
        s.push_back(both ? flowcert::loglog_slope(q[i], q[i + 1], deltas[i], deltas[i + 1]) : std::nullopt);
    }
    return s;
}

// A slope beside an exponent in a table: "above" (certainly >=), "below" (certainly <) or "?". A finite slope beside
// an asymptotic rate decides nothing, so this is table text, never a check.
template <flowcert::Interval I> const char* side_of(const I& slope, const I& exponent) {
    return flowcert::certainly_less_equal(exponent, slope) ? "above" : (flowcert::certainly_less(slope, exponent) ? "below" : "?");
}

// The exhibited constant of a power law on a sweep: C~ (chosen from the first point by the caller) is our choice, so
// E(delta_i) <= C~ delta_i^kappa for every other point is a step named name(delta_i), with the right-hand side
// bound(i) (a proof step's enclosure); a point whose E was not enclosed fails its step. The names join `premises`.
template <flowcert::Interval I, class Bound, class Name>
void power_law_steps(flowcert::cert::Report& rep, const std::vector<I>& E, const std::vector<bool>& have,
                     const std::vector<std::string>& deltas, const Bound& bound, const Name& name, const std::string& cite,
                     std::vector<std::string>& premises) {
    for (std::size_t i = 1; i < deltas.size(); ++i) {
        premises.push_back(name(deltas[i]));
        if (!have[i])
            rep.step(name(deltas[i]), cite).holds(false, "E(delta) not enclosed");
        else
            rep.step(name(deltas[i]), cite).le({"E(delta)", E[i]}, {"C~ delta^kappa", bound(i)});
    }
}

}  // namespace khsweep
