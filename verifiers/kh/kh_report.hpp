// verifiers/kh/kh_report.hpp -- report text shared by the kh/* verifiers (kh/ncf_kkt, kh/first_saddle,
// kh/theorem18_sparsity, kh/theorem10_escape). Local to verifiers/kh (not a library header). Plain doubles only: nothing here
// prints an enclosure (those go through to_string / lower_string / upper_string).
#pragma once

#include <flowcert/cert.hpp>
#include <flowcert/interval.hpp>
#include <flowcert/proofs/kh/ncf_kkt.hpp>

#include <chrono>
#include <cstdio>
#include <string>
#include <utility>

namespace khreport {

using flowcert::format_g;

// Elapsed wall time since construction (steady clock), for the "wall time" notes and per-run seconds.
class Stopwatch {
public:
    double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
    // Adds the note "<what>: <seconds to `digits` digits> s" (certificate comparisons mask the number after
    // "wall time", so `what` should contain it).
    void note(flowcert::cert::Report& rep, int digits, const std::string& what = "wall time") const {
        rep.note(what + ": " + format_g(seconds(), digits) + " s");
    }

private:
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// A delta sweep drawn on log-log axes (x = delta), certified enclosures as error bars.
inline flowcert::cert::SweepPlot delta_sweep_plot(std::string title, std::string y_label) {
    return {.title = std::move(title), .x_label = "delta", .y_label = std::move(y_label), .log_x = true, .log_y = true,
            .series = {}, .references = {}};
}

// The names (and operand labels) under which a verifier records the hypothesis "w* is a Delta-second-order
// positive KKT point of (4)" [KH2025, Sec. 2] of Theorems 4, 10, 18 and the corollaries.
struct PositiveKktChecks {
    std::string kkt = "w* is a first-order KKT point of (4) (unique in its box)";
    std::string npos = "N(w*) > 0";
    std::string dpos = "Delta_max(w*) > 0 (Delta-second-order positive)";
    std::string n_operand = "N(w*)";
    std::string delta_operand = "Delta_max";
};
// States the three hypotheses of proofs::kh::certify_positive_kkt (N and Delta_max only once the point exists);
// true iff all three are proven.
template <flowcert::Interval I>
bool state_positive_kkt(flowcert::cert::Report& rep, const flowcert::proofs::kh::PositiveKkt<I>& k,
                        const PositiveKktChecks& names = {}) {
    rep.hypothesis(names.kkt, "[KH2025, Sec. 2; Krawczyk 1969]").result({k.existence.status, k.existence.reason});
    if (!k.exists()) return false;
    rep.hypothesis(names.npos, "[KH2025, Sec. 2 (positive KKT point)]").positive({names.n_operand, k.ncf_value});
    if (k.spectrum_enclosed())
        rep.hypothesis(names.dpos, "[KH2025, Sec. 2; Lemma 20, eq. (15)]").positive({names.delta_operand, k.spectrum.delta_max});
    else
        rep.hypothesis(names.dpos, "[KH2025, Lemma 20]").result(flowcert::ProofResult::not_proven(k.spectrum.reason));
    return k.proven();
}

}  // namespace khreport

namespace khreport {

// Plans the three checks state_positive_kkt records (under `names`, in its order), and their names for the
// implied_by list of a conclusion that rests on them.
inline void plan_positive_kkt(flowcert::cert::Report& rep, const PositiveKktChecks& names = {}) {
    for (const std::string* n : {&names.kkt, &names.npos, &names.dpos}) rep.plan(*n);
}
inline std::vector<std::string> positive_kkt_names(const PositiveKktChecks& names = {}) {
    return {names.kkt, names.npos, names.dpos};
}

}  // namespace khreport
