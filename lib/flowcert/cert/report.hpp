// flowcert/cert/report.hpp -- Report: a claim, its checks, tables, plots, notes and provenance.
//
// The verdict is computed, never set (Report::verdict): CERTIFIED only if the run completed
// and every registered check ran and was proven; REFUTED if some check was disproven;
// ERROR after set_error (bad input, an exception); otherwise INCONCLUSIVE.
#pragma once

#if !defined(FLOWCERT_CERT_INTERNAL)
#error "include <flowcert/cert.hpp>, not the internal headers"
#endif

#include <flowcert/interval.hpp>

#include <nlohmann/json_fwd.hpp>

#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "check.hpp"
#include "plot.hpp"
#include "provenance.hpp"
#include "verdict.hpp"

namespace flowcert::cert {

// One side of a check: an enclosure (IntervalD or IntervalMp) or an exact number written as
// a decimal or rational string, with a display name. Converts implicitly from intervals, so
// `report.conclusion("gap", "[BF2025, eq. (21)]").le(gap, bound)` works; name it with braces:
// `report.conclusion("gap", "...").le({"G(w(T))", gap}, cert::exact("1e-2"))`.
class Operand {
public:
    Operand(const IntervalD& x) : value_(x) {}   // NOLINT(google-explicit-constructor): intended
    Operand(const IntervalMp& x) : value_(x) {}  // NOLINT(google-explicit-constructor): intended
    Operand(std::string name, const IntervalD& x) : name_(std::move(name)), value_(x) {}
    Operand(std::string name, const IntervalMp& x) : name_(std::move(name)), value_(x) {}
    // An exact number ("1e-2", "8/3") or an exact interval [lo, hi] of such numbers; throws
    // std::invalid_argument if a string is not a number.
    static Operand exact(std::string name, std::string value);
    static Operand exact_interval(std::string name, std::string lo, std::string hi);

    const std::string& name() const noexcept { return name_; }
    // The enclosure as outward decimal strings with at least `digits` significant digits
    // (exact strings are returned as written).
    Enclosure enclosure(const std::string& fallback_name, int digits) const;
    // Significant digits that name a bound of this operand to ~1 ulp.
    int natural_digits() const;

    struct ExactStrings {
        std::string lo, hi;
    };
    using Value = std::variant<IntervalD, IntervalMp, ExactStrings>;
    const Value& value() const noexcept { return value_; }

private:
    Operand(std::string name, ExactStrings s) : name_(std::move(name)), value_(std::move(s)) {}
    std::string name_;
    Value value_;
};

// Shorthands: cert::exact("1e-2") (named by the check), cert::exact("bound", "1e-2").
inline Operand exact(std::string value) { return Operand::exact("", std::move(value)); }
inline Operand exact(std::string name, std::string value) { return Operand::exact(std::move(name), std::move(value)); }

// A named table of rows (values already formatted, e.g. with to_string(interval)).
struct Table {
    std::string name;
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;
    // Throws std::invalid_argument unless row.size() == columns.size().
    void add_row(std::vector<std::string> row);
};

class Report;

// Records one check of a given role (Report::hypothesis / step / conclusion / evidence):
//     report.hypothesis("epsilon < 1/3", "[BF2025, Thm 1]").lt({"epsilon", eps}, cert::exact("1/3"));
//     report.step("tau_pin > T", "[docs/bf.md#step-2]").lt(T, tau_pin);
//     report.conclusion("L(t) >= L* for all t", "[BF2025, Thm 2]").implied_by({"tau_pin > T", ...});
// Modifiers (statement, trivially_true, reconstructed, case_claim) come first; a terminal call (le ... implied_by) stores the
// check and returns it. The status of a relation is decided by exact rational comparison of the
// interval bounds (proven if it holds for every point, disproven if it fails for every point,
// otherwise not_proven with the widths); a step is never disproven (status_for_role).
class CheckBuilder {
public:
    CheckBuilder& statement(std::string text);
    // Labels the check "trivially true" (it holds for every input, or its bound follows from an
    // a-priori bound of the quantity): shown, never counted for the verdict.
    CheckBuilder& trivially_true(std::string why);
    // Labels a hypothesis or conclusion a reconstruction of a paper text that is not available
    // (why: which item, e.g. "the regime condition eps <= eps_max; the paper's is not available").
    // A conclusion disproven while a reconstructed hypothesis is proven gives INCONCLUSIVE.
    CheckBuilder& reconstructed(std::string why);
    // Labels a conclusion whose bound is the case file's own claimed constant (why: which field):
    // its refutation is the case's claim, whatever the reconstruction. std::logic_error on another role.
    CheckBuilder& case_claim(std::string why);

    const Check& le(const Operand& lhs, const Operand& rhs);   // lhs <= rhs
    const Check& lt(const Operand& lhs, const Operand& rhs);   // lhs < rhs
    const Check& positive(const Operand& x);                   // x > 0
    const Check& nonnegative(const Operand& x);                // x >= 0
    // lower <= x <= upper, for computed bounds: decided with sup lower and inf upper (sound for a
    // claim "value in [e - t, e + t]" with e, t enclosed).
    const Check& within(const Operand& x, const Operand& lower, const Operand& upper);
    // x lies in an exact box (both ends exact numbers: cert::Operand::exact_interval); a computed
    // box must go through within(), so std::logic_error otherwise.
    const Check& inside(const Operand& x, const Operand& exact_box);
    // A library routine's result (status and reason): not re-checkable from the stored data.
    const Check& result(const ProofResult& r);
    // The verifier's own decision, proven or not proven (never disproven): not re-checkable.
    const Check& holds(bool proven, std::string reason);
    // Proven iff every named (earlier) check is proven: "these premises imply the statement".
    // std::logic_error if a name is unknown.
    const Check& implied_by(std::vector<std::string> premises);

private:
    friend class Report;
    CheckBuilder(Report& r, Role role, std::string name, std::string citation)
        : report_(r), role_(role), name_(std::move(name)), citation_(std::move(citation)) {}
    const Check& relation(Relation rel, std::vector<const Operand*> ops, std::vector<std::string> fallback);
    const Check& finish(Check c);
    Report& report_;
    Role role_;
    std::string name_, citation_, statement_, trivial_, reconstructed_, case_claim_;
};

// Recording (checks, notes, tables, plots, seeds) is thread-safe, so sweeps may record from
// worker threads; a returned Table& must then be filled by one thread only.
class Report {
public:
    // ---- what the run is about (filled by verifier_main from the spec and the case) ----
    Claim claim;
    std::string verifier;                 // e.g. "demo/sqrt_bounds"
    std::string case_name;                // case file stem, e.g. "sqrt2_certified"
    std::string case_description;
    std::string case_source;              // the case file's text, embedded exactly (flowcert check re-reads it)
    std::optional<Verdict> expected;      // the case's `expect`
    std::vector<std::string> labels;      // the case's `labels`
    Provenance provenance;

    // ---- checks -------------------------------------------------------------------------
    // The four roles (verdict.hpp): a hypothesis of the theorem on this instance, a step of our
    // own argument, the theorem's conclusion on the instance, or evidence beside the claim.
    CheckBuilder hypothesis(std::string name, std::string citation) { return {*this, Role::hypothesis, std::move(name), std::move(citation)}; }
    CheckBuilder step(std::string name, std::string citation) { return {*this, Role::step, std::move(name), std::move(citation)}; }
    CheckBuilder conclusion(std::string name, std::string citation) { return {*this, Role::conclusion, std::move(name), std::move(citation)}; }
    CheckBuilder evidence(std::string name, std::string citation) { return {*this, Role::evidence, std::move(name), std::move(citation)}; }

    // Registers a check that must run before the verdict can be CERTIFIED (status not_run).
    // A later check of that name (hypothesis(...).le(...) etc.) fills it in. Registering the plan up front is
    // how a verifier makes "every check ran" mean something.
    void plan(std::string check_name);

    // Any check built by hand (status, relation, enclosures, reason, witness). If its relation
    // is not `none`, its status must agree with evaluate_relation on its enclosures
    // (std::logic_error otherwise): a stored check must be re-checkable as it stands.
    const Check& record(Check check);

    const std::deque<Check>& checks() const noexcept { return checks_; }
    // The stored status of a recorded check (std::logic_error if there is none of that name).
    CheckStatus status_of(const std::string& name) const;
    const Check* find_check(const std::string& name) const;

    // ---- everything else that goes into the report ----------------------------------------
    void note(std::string text);  // e.g. "reconstructed definition: ..."
    const std::vector<std::string>& notes() const noexcept { return notes_; }
    Table& table(std::string name, std::vector<std::string> columns);  // creates it; names unique
    const std::deque<Table>& tables() const noexcept { return tables_; }
    void add_plot(Plot plot);
    const std::vector<Plot>& plots() const noexcept { return plots_; }
    void set_seed(std::string name, std::string value);  // recorded in provenance.seeds

    // ---- verdict --------------------------------------------------------------------------
    void mark_completed() noexcept { completed_ = true; }  // verifier_main: the body returned normally
    bool completed() const noexcept { return completed_; }
    void set_error(std::string message);                    // verdict ERROR with this message
    const std::optional<std::string>& error() const noexcept { return error_; }
    Verdict verdict() const;
    std::string verdict_reason() const;  // one sentence: why this verdict

private:
    friend class CheckBuilder;
    friend Report report_from_json(const nlohmann::json& j);
    void restore(Check c);  // a check as stored in a certificate (no decision; recheck_certificate judges it)
    Check& slot(const std::string& name);  // the planned check of this name, or a new one
    const Check& store(Check c);
    std::deque<Check> checks_;
    std::vector<std::string> notes_;
    std::deque<Table> tables_;
    std::vector<Plot> plots_;
    bool completed_ = false;
    std::optional<std::string> error_;
    std::shared_ptr<std::mutex> mutex_ = std::make_shared<std::mutex>();
};

// What compute_verdict needs of each check.
std::vector<CheckSummary> summarize(const std::deque<Check>& checks);
// The one-sentence reason for a verdict on these checks (shared by Report and `flowcert check`).
std::string verdict_reason(Verdict v, const std::deque<Check>& checks, bool completed, const std::optional<std::string>& error);

}  // namespace flowcert::cert
