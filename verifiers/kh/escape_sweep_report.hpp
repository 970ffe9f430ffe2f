// verifiers/kh/escape_sweep_report.hpp -- the delta sweeps of kh/first_saddle and kh/theorem10_escape as records
// and back (cert::Context::sweep: a point may be computed on another MPI rank, and every record makes the round
// trip through JSON text): exact doubles and intervals, a point's escape bracket T_esc(delta) and its step, the
// per-delta plan. Local to verifiers/kh; presentation only (the points are proofs::kh::saddle_sweep_point and
// proofs::kh::escape_window_point).
#pragma once

#include <flowcert/cert.hpp>
#include <flowcert/proofs/kh/flow_tools.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kh_report.hpp"

namespace khsweep {

using flowcert::format_g;

// A double of a record (cert::exact_string), and back.
inline std::string xd(double v) { return flowcert::cert::exact_string(v); }
inline double dx(const nlohmann::json& j) { return flowcert::cert::parse_exact_double(j.get<std::string>()); }

// Plans, for every delta in order, the checks `prefix + delta` of `prefixes` in order.
inline void plan_per_delta(flowcert::cert::Report& rep, const std::vector<std::string>& deltas,
                           const std::vector<std::string>& prefixes) {
    for (const auto& dt : deltas)
        for (const auto& p : prefixes) rep.plan(p + dt);
}

// Runs point(i) for every delta through ctx.sweep with the progress bar "delta sweep".
template <class PointFn>
std::vector<nlohmann::json> run_delta_sweep(flowcert::cert::Context& ctx, std::size_t count, PointFn&& point) {
    ctx.progress.begin("delta sweep", static_cast<long>(count));
    return ctx.sweep(count, [&](std::size_t i) {
        nlohmann::json r = point(i);
        ctx.progress.advance();
        return r;
    });
}

// The escape bracket of a point as the first fields of its record: escape_ok, escape_reason, and escape_lo /
// escape_hi (exact doubles) when it was found.
inline nlohmann::json escape_record(const flowcert::proofs::kh::EscapeBracket& e) {
    nlohmann::json r = {{"escape_ok", e.ok}, {"escape_reason", e.reason}};
    if (!e.ok) return r;
    r["escape_lo"] = xd(e.lo);
    r["escape_hi"] = xd(e.hi);
    return r;
}

// The step "escape bracket, delta = <dtxt>" from a record: holds with "T_esc in [lo, hi]" (`digits` significant
// digits) or fails with the record's reason. The bracket when it was found.
struct EscapeTimes {
    double lo = 0, hi = 0;
};
inline std::optional<EscapeTimes> escape_step(flowcert::cert::Report& rep, const std::string& dtxt, const nlohmann::json& r,
                                              const std::string& citation, int digits) {
    const std::string name = "escape bracket, delta = " + dtxt;
    if (!r.at("escape_ok").get<bool>()) {
        rep.step(name, citation).holds(false, r.at("escape_reason").get<std::string>());
        return std::nullopt;
    }
    const EscapeTimes e{dx(r.at("escape_lo")), dx(r.at("escape_hi"))};
    rep.step(name, citation).holds(true, "T_esc in [" + format_g(e.lo, digits) + ", " + format_g(e.hi, digits) + "]");
    return e;
}

// "[lo, hi]" of an escape bracket with `digits` significant digits (table cells).
inline std::string bracket_cell(const EscapeTimes& e, int digits) {
    return "[" + format_g(e.lo, digits) + ", " + format_g(e.hi, digits) + "]";
}

}  // namespace khsweep
