// verifiers/rh/sweep_record.hpp -- the record of one rh/gap_sweep instance (what the report uses of a
// GapOutcome; intervals and doubles stored exactly), so that sweep parts run in other processes merge into
// the same report (cert::Context::sweep).
#pragma once

#include "common.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace flowcert::rh_verifiers {

// A sweep point's record: what the report uses of a GapOutcome, intervals, doubles and proof results exact
// (the encodings of flowcert/cert/sweep.hpp).
inline nlohmann::json to_record(const GapOutcome& o) {
    return {{"error", o.error},
            {"init_min", cert::exact_json(o.init_min)},
            {"signs", cert::exact_json(o.pattern.signs)},
            {"rho_known", o.pattern.rho_known}, {"rho", cert::exact_json(o.pattern.rho)},
            {"margin_known", o.pattern.margin_known}, {"margin", cert::exact_json(o.pattern.margin)},
            {"tail", cert::exact_json(o.pattern.tail)},
            {"global_min", cert::exact_json(o.global_min)},
            {"K", o.pattern.K},
            {"wstar", cert::exact_json(o.wstar.kkt)},
            {"gap_status", cert::exact_json(o.gap.status)},
            {"gap", cert::exact_json(o.gap.gap)}, {"ratio_n_minus", cert::exact_json(o.gap.ratio_n_minus)},
            {"ratio_n", cert::exact_json(o.gap.ratio_n)},
            {"ratio_n_minus_trace", cert::exact_json(o.gap.ratio_n_minus_trace)},
            {"ratio_n_trace", cert::exact_json(o.gap.ratio_n_trace)}, {"trace", cert::exact_json(o.trace)},
            {"eps", cert::exact_json(o.eps)}, {"step_ratio", cert::exact_json(o.step_ratio)},
            {"eta_d", cert::exact_json(o.eta_d)}, {"n_minus", o.n_minus},
            {"seconds", cert::exact_string(o.seconds)}};
}

inline GapOutcome from_record(const nlohmann::json& r) {
    auto iv = [&](const char* key) { return cert::interval_d_from_json(r.at(key)); };
    GapOutcome o;
    o.error = r.at("error").get<std::string>();
    o.init_min = iv("init_min");
    o.pattern.signs = cert::proof_result_from_json(r.at("signs"));
    o.pattern.rho_known = r.at("rho_known").get<bool>();
    o.pattern.rho = iv("rho");
    o.pattern.margin_known = r.at("margin_known").get<bool>();
    o.pattern.margin = iv("margin");
    o.pattern.tail = cert::proof_result_from_json(r.at("tail"));
    o.global_min = cert::proof_result_from_json(r.at("global_min"));
    o.pattern.K = r.at("K").get<int>();
    o.wstar.kkt = cert::proof_result_from_json(r.at("wstar"));
    o.gap.status = cert::proof_result_from_json(r.at("gap_status"));
    o.gap.gap = iv("gap");
    o.gap.ratio_n_minus = iv("ratio_n_minus");
    o.gap.ratio_n = iv("ratio_n");
    o.gap.ratio_n_minus_trace = iv("ratio_n_minus_trace");
    o.gap.ratio_n_trace = iv("ratio_n_trace");
    o.trace = iv("trace");
    o.eps = iv("eps");
    o.step_ratio = iv("step_ratio");
    o.eta_d = iv("eta_d");
    o.n_minus = r.at("n_minus").get<int>();
    o.seconds = cert::parse_exact_double(r.at("seconds").get<std::string>());
    return o;
}

}  // namespace flowcert::rh_verifiers
