#include <flowcert/cert.hpp>

#include <mpfi.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "exact_bound.hpp"

namespace flowcert::cert {

namespace {

// The exact bounds of an operand (binary floating-point bounds are exact rationals).
detail::ExactInterval exact_bounds(const Operand& op) {
    detail::ExactInterval out;
    auto from_double = [](double v, detail::ExactBound& b, int nan_side) {
        if (std::isnan(v)) b.inf = nan_side;  // NaN: treat as unbounded on that side (sound)
        else if (std::isinf(v)) b.inf = v > 0 ? 1 : -1;
        else b.q = Rational(v);              // exact
    };
    auto from_mpfr = [](mpfr_srcptr v, detail::ExactBound& b, int nan_side) {
        if (mpfr_nan_p(v)) b.inf = nan_side;
        else if (mpfr_inf_p(v)) b.inf = mpfr_sgn(v) > 0 ? 1 : -1;
        else mpfr_get_q(b.q.backend().data(), v);  // exact
    };
    if (const auto* d = std::get_if<IntervalD>(&op.value())) {
        from_double(d->lower(), out.lo, -1);
        from_double(d->upper(), out.hi, +1);
    } else if (const auto* m = std::get_if<IntervalMp>(&op.value())) {
        mpfr_t l, u;
        mpfr_init2(l, m->precision());
        mpfr_init2(u, m->precision());
        mpfi_get_left(l, m->get());   // exact at the interval's own precision
        mpfi_get_right(u, m->get());
        from_mpfr(l, out.lo, -1);
        from_mpfr(u, out.hi, +1);
        mpfr_clears(l, u, static_cast<mpfr_ptr>(nullptr));
    } else {
        const auto& s = std::get<Operand::ExactStrings>(op.value());
        out.lo = detail::ExactBound::parse(s.lo);
        out.hi = detail::ExactBound::parse(s.hi);
    }
    return out;
}

std::string width_text(const Operand& op) {
    std::ostringstream os;
    os.precision(3);
    if (const auto* d = std::get_if<IntervalD>(&op.value())) os << width(*d);
    else if (const auto* m = std::get_if<IntervalMp>(&op.value())) os << width(*m) << " at " << m->precision() << " bits";
    else return "exact";
    return os.str();
}

}  // namespace

Operand Operand::exact(std::string name, std::string value) {
    ExactStrings s{value, value};
    detail::ExactBound::parse(value);  // validates
    return Operand(std::move(name), std::move(s));
}

Operand Operand::exact_interval(std::string name, std::string lo, std::string hi) {
    Enclosure e{name, lo, hi};
    detail::ExactInterval::parse(e);  // validates (and lo <= hi)
    return Operand(std::move(name), ExactStrings{std::move(lo), std::move(hi)});
}

Enclosure Operand::enclosure(const std::string& fallback_name, int digits) const {
    Enclosure e;
    e.name = name_.empty() ? fallback_name : name_;
    if (const auto* d = std::get_if<IntervalD>(&value_)) {
        e.lo = lower_string(*d, digits);
        e.hi = upper_string(*d, digits);
    } else if (const auto* m = std::get_if<IntervalMp>(&value_)) {
        e.lo = lower_string(*m, digits);
        e.hi = upper_string(*m, digits);
    } else {
        const auto& s = std::get<ExactStrings>(value_);
        e.lo = s.lo;
        e.hi = s.hi;
    }
    return e;
}

int Operand::natural_digits() const {
    if (std::holds_alternative<IntervalD>(value_)) return 17;
    if (const auto* m = std::get_if<IntervalMp>(&value_))
        return static_cast<int>(std::ceil(static_cast<double>(m->precision()) * 0.30103)) + 2;
    return 1;
}

void Table::add_row(std::vector<std::string> row) {
    if (row.size() != columns.size())
        throw std::invalid_argument("table '" + name + "': row has " + std::to_string(row.size()) +
                                    " cells, expected " + std::to_string(columns.size()));
    rows.push_back(std::move(row));
}

// ---- checks ------------------------------------------------------------------------------

void Report::plan(std::string check_name) {
    std::lock_guard<std::mutex> lock(*mutex_);
    for (const auto& c : checks_)
        if (c.name == check_name) throw std::logic_error("check '" + check_name + "' planned twice");
    Check c;
    c.name = std::move(check_name);
    c.reason = "planned but never run";
    checks_.push_back(std::move(c));
}

Check& Report::slot(const std::string& name) {
    for (auto& c : checks_)
        if (c.name == name) {
            if (c.status != CheckStatus::not_run) throw std::logic_error("check '" + name + "' recorded twice");
            return c;
        }
    checks_.emplace_back();
    checks_.back().name = name;
    return checks_.back();
}

const Check* Report::find_check(const std::string& name) const {
    for (const auto& c : checks_)
        if (c.name == name) return &c;
    return nullptr;
}

namespace {

struct RelationInput {
    Relation relation;
    std::vector<const Operand*> operands;
    std::vector<std::string> fallback_names;
};

// Decides the status from the exact bounds (= the certainly_* predicates), then stores
// outward decimal strings with enough digits that the strings alone give the same status.
Check decide(std::string name, std::string citation, std::string statement, const RelationInput& in) {
    Check c;
    c.name = std::move(name);
    c.citation = std::move(citation);
    c.statement = std::move(statement);
    c.relation = in.relation;

    std::vector<detail::ExactInterval> exact;
    std::vector<Enclosure> names;
    int digits = 1;
    for (std::size_t i = 0; i < in.operands.size(); ++i) {
        exact.push_back(exact_bounds(*in.operands[i]));
        names.push_back(in.operands[i]->enclosure(in.fallback_names[i], 17));
        digits = std::max(digits, in.operands[i]->natural_digits());
    }
    const CheckStatus ideal = detail::evaluate(in.relation, exact, names, nullptr);

    // [outward decimal output] More digits converge to the exact binary bounds; stop when the
    // strings decide as well as the exact bounds (at most ~ the exact decimal expansion).
    constexpr int max_digits = 2000;
    std::string detail_text;
    for (;; digits *= 2) {
        c.enclosures.clear();
        for (std::size_t i = 0; i < in.operands.size(); ++i)
            c.enclosures.push_back(in.operands[i]->enclosure(in.fallback_names[i], std::min(digits, max_digits)));
        c.status = evaluate_relation(in.relation, c.enclosures, &detail_text);
        if (c.status == ideal || digits >= max_digits) break;
    }
    if (c.statement.empty()) {
        const auto& e = c.enclosures;
        switch (in.relation) {
            case Relation::less_equal: c.statement = e[0].name + " <= " + e[1].name; break;
            case Relation::less: c.statement = e[0].name + " < " + e[1].name; break;
            case Relation::positive: c.statement = e[0].name + " > 0"; break;
            case Relation::nonnegative: c.statement = e[0].name + " >= 0"; break;
            case Relation::subset: c.statement = e[0].name + " in " + e[1].name; break;
            case Relation::none: break;
        }
    }
    c.reason = detail_text;
    if (c.status == CheckStatus::not_proven) {
        c.reason += "; widths:";
        for (std::size_t i = 0; i < in.operands.size(); ++i)
            c.reason += (i ? ", " : " ") + c.enclosures[i].name + " ~ " + width_text(*in.operands[i]);
        c.reason += "; try more precision or tighter enclosures";
    }
    if (c.status == CheckStatus::disproven) c.witness = detail_text;
    return c;
}

}  // namespace

namespace {

// The premises of an implied_by check, resolved against the checks recorded so far.
void decide_implication(Check& c, const std::deque<Check>& all) {
    std::string missing, failing;
    for (const auto& p : c.implied_by) {
        const Check* q = nullptr;
        for (const auto& x : all)
            if (x.name == p) q = &x;
        if (!q) missing += (missing.empty() ? "" : ", ") + p;
        else if (status_for_role(q->role, q->status) != CheckStatus::proven) failing += (failing.empty() ? "'" : ", '") + p + "'";
    }
    if (!missing.empty()) throw std::logic_error("check '" + c.name + "' is implied by unknown checks: " + missing);
    if (failing.empty()) {
        c.status = CheckStatus::proven;
        c.reason = "implied by " + std::to_string(c.implied_by.size()) + " proven premises";
    } else {
        c.status = CheckStatus::not_proven;
        c.reason = "premises not proven: " + failing + "'";
    }
}

}  // namespace

const Check& Report::store(Check c) {
    std::lock_guard<std::mutex> lock(*mutex_);
    if (c.relation == Relation::implied_by) {
        for (const auto& p : c.implied_by)
            if (p == c.name) throw std::logic_error("check '" + c.name + "' cannot imply itself");
        decide_implication(c, checks_);
    }
    Check& s = slot(c.name);
    s = std::move(c);
    // A premise recorded after its implication (planned first) updates the implication.
    for (auto& x : checks_)
        if (x.relation == Relation::implied_by && &x != &s) decide_implication(x, checks_);
    return s;
}

void Report::restore(Check c) {
    std::lock_guard<std::mutex> lock(*mutex_);
    checks_.push_back(std::move(c));
}

CheckStatus Report::status_of(const std::string& name) const {
    std::lock_guard<std::mutex> lock(*mutex_);
    for (const auto& c : checks_)
        if (c.name == name) return c.status;
    throw std::logic_error("no check named '" + name + "'");
}

// ---- CheckBuilder ---------------------------------------------------------------------------

CheckBuilder& CheckBuilder::statement(std::string text) {
    statement_ = std::move(text);
    return *this;
}

CheckBuilder& CheckBuilder::trivially_true(std::string why) {
    if (why.empty()) throw std::logic_error("check '" + name_ + "': trivially_true needs the reason");
    trivial_ = std::move(why);
    return *this;
}

CheckBuilder& CheckBuilder::reconstructed(std::string why) {
    if (why.empty()) throw std::logic_error("check '" + name_ + "': reconstructed needs the reason");
    if (role_ != Role::hypothesis && role_ != Role::conclusion)
        throw std::logic_error("check '" + name_ + "': only a hypothesis or a conclusion can be a reconstruction");
    reconstructed_ = std::move(why);
    return *this;
}

CheckBuilder& CheckBuilder::case_claim(std::string why) {
    if (why.empty()) throw std::logic_error("check '" + name_ + "': case_claim needs the field");
    if (role_ != Role::conclusion) throw std::logic_error("check '" + name_ + "': only a conclusion can be a case claim");
    case_claim_ = std::move(why);
    return *this;
}

const Check& CheckBuilder::finish(Check c) {
    c.role = role_;
    c.trivial = trivial_;
    c.reconstructed = reconstructed_;
    c.case_claim = case_claim_;
    if (c.relation != Relation::none && c.relation != Relation::implied_by)
        c.margin = relation_margin(c.relation, c.enclosures);
    const CheckStatus raw = c.status;
    if (!trivial_.empty() && raw == CheckStatus::disproven)  // it "holds for every input" yet fails: a bug
        throw std::logic_error("check '" + c.name + "' is labelled trivially true (" + trivial_ +
                               ") but is false on its enclosures: " + c.reason);
    c.status = status_for_role(role_, raw);
    if (raw == CheckStatus::disproven && c.status != raw) {
        c.reason = "fails on the whole enclosure (" + c.reason +
                   "); this is a condition of our own argument, not of the theorem, so nothing is refuted";
        c.witness.clear();
    }
    return report_.store(std::move(c));
}

const Check& CheckBuilder::relation(Relation rel, std::vector<const Operand*> ops, std::vector<std::string> fallback) {
    return finish(decide(name_, citation_, statement_, {rel, std::move(ops), std::move(fallback)}));
}

const Check& CheckBuilder::le(const Operand& lhs, const Operand& rhs) {
    return relation(Relation::less_equal, {&lhs, &rhs}, {"lhs", "rhs"});
}
const Check& CheckBuilder::lt(const Operand& lhs, const Operand& rhs) {
    return relation(Relation::less, {&lhs, &rhs}, {"lhs", "rhs"});
}
const Check& CheckBuilder::positive(const Operand& x) { return relation(Relation::positive, {&x}, {"x"}); }
const Check& CheckBuilder::nonnegative(const Operand& x) { return relation(Relation::nonnegative, {&x}, {"x"}); }
const Check& CheckBuilder::within(const Operand& x, const Operand& lower, const Operand& upper) {
    return relation(Relation::within, {&x, &lower, &upper}, {"x", "lower", "upper"});
}
const Check& CheckBuilder::inside(const Operand& x, const Operand& exact_box) {
    if (!std::holds_alternative<Operand::ExactStrings>(exact_box.value()))
        throw std::logic_error("check '" + name_ + "': inside() needs an exact box; for computed bounds use within()");
    return relation(Relation::subset, {&x, &exact_box}, {"inner", "outer"});
}

const Check& CheckBuilder::result(const ProofResult& r) {
    Check c;
    c.name = name_;
    c.citation = citation_;
    c.statement = statement_.empty() ? name_ : statement_;
    c.status = r.status == CheckStatus::not_run ? CheckStatus::not_proven : r.status;
    c.relation = Relation::none;
    c.reason = r.status == CheckStatus::not_run ? "the routine did not run: " + r.reason : r.reason;
    if (c.status == CheckStatus::disproven) c.witness = r.reason;
    return finish(std::move(c));
}

const Check& CheckBuilder::holds(bool proven, std::string reason) {
    Check c;
    c.name = name_;
    c.citation = citation_;
    c.statement = statement_.empty() ? name_ : statement_;
    c.status = proven ? CheckStatus::proven : CheckStatus::not_proven;
    c.relation = Relation::none;
    c.reason = std::move(reason);
    return finish(std::move(c));
}

const Check& CheckBuilder::implied_by(std::vector<std::string> premises) {
    if (premises.empty()) throw std::logic_error("check '" + name_ + "': implied_by needs at least one premise");
    Check c;
    c.name = name_;
    c.citation = citation_;
    c.statement = statement_.empty() ? name_ : statement_;
    c.relation = Relation::implied_by;
    c.implied_by = std::move(premises);
    return finish(std::move(c));
}

// ---- deprecated role-less helpers (conclusion checks) ------------------------------------

const Check& Report::record(Check check) {
    if (check.relation == Relation::implied_by) throw std::logic_error("check '" + check.name + "': use implied_by()");
    if (check.relation == Relation::none && check.status == CheckStatus::disproven)
        throw std::logic_error("check '" + check.name +
                               "': a hand-built check cannot be disproven (use a relation, or a library ProofResult)");
    if (check.relation != Relation::none) {
        std::string why;
        const CheckStatus s = evaluate_relation(check.relation, check.enclosures, &why);
        if (status_for_role(check.role, s) != check.status)
            throw std::logic_error("check '" + check.name + "' claims status " + std::string(to_string(check.status)) +
                                   " but its enclosures give " + std::string(to_string(s)) + " (" + why + ")");
        check.margin = relation_margin(check.relation, check.enclosures);
    }
    return store(std::move(check));
}

// ---- everything else ---------------------------------------------------------------------

void Report::note(std::string text) {
    std::lock_guard<std::mutex> lock(*mutex_);
    notes_.push_back(std::move(text));
}

Table& Report::table(std::string name, std::vector<std::string> columns) {
    std::lock_guard<std::mutex> lock(*mutex_);
    for (const auto& t : tables_)
        if (t.name == name) throw std::logic_error("table '" + name + "' created twice");
    tables_.push_back(Table{std::move(name), std::move(columns), {}});
    return tables_.back();
}

void Report::add_plot(Plot plot) {
    std::lock_guard<std::mutex> lock(*mutex_);
    plots_.push_back(std::move(plot));
}

void Report::set_seed(std::string name, std::string value) {
    std::lock_guard<std::mutex> lock(*mutex_);
    provenance.seeds.emplace_back(std::move(name), std::move(value));
}

void Report::set_error(std::string message) { error_ = std::move(message); }

std::vector<CheckSummary> summarize(const std::deque<Check>& checks) {
    std::vector<CheckSummary> out;
    for (const auto& c : checks)
        out.push_back({c.role, c.status, !c.trivial.empty(), !c.reconstructed.empty(), !c.case_claim.empty()});
    return out;
}

Verdict Report::verdict() const {
    std::lock_guard<std::mutex> lock(*mutex_);
    return compute_verdict(summarize(checks_), completed_, error_.has_value());
}

std::string Report::verdict_reason() const {
    const Verdict v = verdict();
    std::lock_guard<std::mutex> lock(*mutex_);
    return cert::verdict_reason(v, checks_, completed_, error_);
}

std::string verdict_reason(Verdict v, const std::deque<Check>& checks, bool completed,
                           const std::optional<std::string>& error) {
    auto counts = [&] {
        int h = 0, s = 0, c = 0;
        for (const auto& x : checks) {
            if (!x.trivial.empty() || x.role == Role::evidence) continue;
            (x.role == Role::hypothesis ? h : x.role == Role::step ? s : c) += 1;
        }
        return std::to_string(h) + " hypotheses, " + std::to_string(s) + " steps and " + std::to_string(c) +
               " conclusion checks proven";
    };
    auto decides = [](const Check& c) { return c.trivial.empty() && c.role != Role::evidence; };
    switch (v) {
        case Verdict::error: return "error: " + error.value_or("unknown");
        case Verdict::certified: return counts();
        case Verdict::outside_hypotheses:
            for (const auto& c : checks)
                if (decides(c) && c.role == Role::hypothesis && c.status == CheckStatus::disproven)
                    return (c.reconstructed.empty() ? "hypothesis '" + c.name + "' is false on this instance: "
                                                    : "hypothesis '" + c.name + "' (a reconstruction: " +
                                                          c.reconstructed + ") is false on this instance: ") +
                           c.reason;
            break;
        case Verdict::refuted:
            for (const auto& c : checks)
                if (decides(c) && c.role == Role::conclusion && c.status == CheckStatus::disproven && !c.case_claim.empty())
                    return "conclusion '" + c.name + "' is false although every hypothesis is proven; its bound is the "
                           "case's own claim (" + c.case_claim + "), so this refutes the case's claim, not the paper's "
                           "theorem: " + (c.witness.empty() ? c.reason : c.witness);
            for (const auto& c : checks)
                if (decides(c) && c.role == Role::conclusion && c.status == CheckStatus::disproven)
                    return "conclusion '" + c.name + "' is false although every hypothesis is proven: " +
                           (c.witness.empty() ? c.reason : c.witness);
            break;
        case Verdict::inconclusive: {
            if (!completed) return "the run did not complete";
            if (checks.empty()) return "no checks were recorded";
            const bool stated = std::any_of(checks.begin(), checks.end(),
                                            [&](const Check& c) { return decides(c) && c.role == Role::hypothesis; });
            for (const auto& c : checks)
                if (!stated && decides(c) && c.role == Role::conclusion && c.status == CheckStatus::disproven)
                    return "conclusion '" + c.name + "' is false, but no hypothesis of the theorem is stated on this "
                           "instance, so it refutes nothing: " + c.reason;
            // A witness under a reconstructed statement refutes the reconstruction, not the theorem.
            if (refutation_rests_on_reconstruction(summarize(checks)))
                for (const auto& c : checks)
                    if (decides(c) && c.role == Role::conclusion && c.status == CheckStatus::disproven) {
                        std::string what;
                        for (const auto& h : checks)
                            if (decides(h) && !h.reconstructed.empty() &&
                                ((h.role == Role::hypothesis && h.status == CheckStatus::proven) || &h == &c))
                                what += (what.empty() ? "" : "; ") + std::string(to_string(h.role)) + " '" + h.name + "': " + h.reconstructed;
                        return "conclusion '" + c.name + "' is false on an instance that satisfies every hypothesis as "
                               "reconstructed, so it refutes the reconstruction, not the theorem (reconstructed: " +
                               what + "): " + (c.witness.empty() ? c.reason : c.witness);
                    }
            // A check that ran and failed explains the planned checks skipped after it: name it first.
            for (Role r : {Role::hypothesis, Role::step, Role::conclusion})
                for (const auto& c : checks)
                    if (decides(c) && c.role == r && c.status != CheckStatus::proven && c.status != CheckStatus::not_run)
                        return std::string(to_string(r)) + " '" + c.name + "' not proven: " + c.reason;
            for (const auto& c : checks)
                if (c.status == CheckStatus::not_run) return std::string(to_string(c.role)) + " '" + c.name + "' did not run";
            return "the conclusion was checked on no instance (no conclusion check that is not trivially true)";
        }
    }
    return "";
}

}  // namespace flowcert::cert
