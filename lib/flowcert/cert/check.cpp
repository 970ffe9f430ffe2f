// Exact re-evaluation of check relations from decimal strings (GMP rationals).
#include <flowcert/cert.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "exact_bound.hpp"

namespace flowcert::cert {

std::string_view to_string(Relation r) {
    switch (r) {
        case Relation::none: return "none";
        case Relation::less: return "less";
        case Relation::less_equal: return "less_equal";
        case Relation::positive: return "positive";
        case Relation::nonnegative: return "nonnegative";
        case Relation::subset: return "subset";
        case Relation::within: return "within";
        case Relation::implied_by: return "implied_by";
    }
    return "none";
}

bool parse_relation(std::string_view text, Relation& out) {
    for (Relation r : {Relation::none, Relation::less, Relation::less_equal, Relation::positive, Relation::nonnegative,
                       Relation::subset, Relation::within, Relation::implied_by})
        if (text == to_string(r)) {
            out = r;
            return true;
        }
    return false;
}

namespace detail {

ExactBound ExactBound::parse(const std::string& text) {
    ExactBound b;
    if (text == "inf" || text == "+inf") {
        b.inf = +1;
        return b;
    }
    if (text == "-inf") {
        b.inf = -1;
        return b;
    }
    if (auto err = flowcert::parse_rational(text, b.q.backend().data())) throw std::invalid_argument(*err);
    return b;
}

int compare(const ExactBound& a, const ExactBound& b) {
    if (a.inf != 0 || b.inf != 0) return (a.inf > b.inf) - (a.inf < b.inf);
    const int c = a.q.compare(b.q);
    return (c > 0) - (c < 0);
}

ExactInterval ExactInterval::parse(const Enclosure& e) {
    ExactInterval x{ExactBound::parse(e.lo), ExactBound::parse(e.hi)};
    if (compare(x.lo, x.hi) > 0)
        throw std::invalid_argument("enclosure '" + e.name + "' has lo = " + e.lo + " > hi = " + e.hi);
    if (x.lo.inf > 0 || x.hi.inf < 0)
        throw std::invalid_argument("enclosure '" + e.name + "' is empty ([" + e.lo + ", " + e.hi + "])");
    return x;
}

CheckStatus evaluate(Relation r, const std::vector<ExactInterval>& x, const std::vector<Enclosure>& names,
                     std::string* detail) {
    const ExactBound zero;  // 0
    auto say = [&](const std::string& s) {
        if (detail) *detail = s;
    };
    auto n = [&](std::size_t i) { return "'" + names[i].name + "' = [" + names[i].lo + ", " + names[i].hi + "]"; };
    switch (r) {
        case Relation::none: say("not re-checkable from stored data"); return CheckStatus::not_run;
        case Relation::implied_by: say("decided by its premises"); return CheckStatus::not_run;
        case Relation::within: {  // x = [0], lower bound = [1], upper bound = [2]
            if (compare(x[1].hi, x[0].lo) <= 0 && compare(x[0].hi, x[2].lo) <= 0) {
                say("sup " + names[1].name + " = " + names[1].hi + " <= inf " + names[0].name + " = " + names[0].lo +
                    " and sup " + names[0].name + " = " + names[0].hi + " <= inf " + names[2].name + " = " +
                    names[2].lo);
                return CheckStatus::proven;
            }
            if (compare(x[0].hi, x[1].lo) < 0 || compare(x[2].hi, x[0].lo) < 0) {
                say(n(0) + " lies wholly outside [" + names[1].name + ", " + names[2].name + "] (" + n(1) + ", " +
                    n(2) + ")");
                return CheckStatus::disproven;
            }
            say(n(0) + " is not certainly between " + n(1) + " and " + n(2));
            return CheckStatus::not_proven;
        }
        case Relation::less_equal:
        case Relation::less: {
            const bool strict = r == Relation::less;
            const int c_proven = compare(x[0].hi, x[1].lo);   // sup a vs inf b
            const int c_disproven = compare(x[0].lo, x[1].hi);  // inf a vs sup b
            const std::string op = strict ? " < " : " <= ";
            if (strict ? c_proven < 0 : c_proven <= 0) {
                say("sup " + names[0].name + " = " + names[0].hi + op + "inf " + names[1].name + " = " + names[1].lo);
                return CheckStatus::proven;
            }
            if (strict ? c_disproven >= 0 : c_disproven > 0) {
                say("inf " + names[0].name + " = " + names[0].lo + (strict ? " >= " : " > ") + "sup " +
                    names[1].name + " = " + names[1].hi + ": the inequality fails for every point");
                return CheckStatus::disproven;
            }
            say("the enclosures overlap: " + n(0) + ", " + n(1));
            return CheckStatus::not_proven;
        }
        case Relation::positive:
        case Relation::nonnegative: {
            const bool strict = r == Relation::positive;
            const int lo = compare(x[0].lo, zero), hi = compare(x[0].hi, zero);
            if (strict ? lo > 0 : lo >= 0) {
                say("inf " + names[0].name + " = " + names[0].lo + (strict ? " > 0" : " >= 0"));
                return CheckStatus::proven;
            }
            if (strict ? hi <= 0 : hi < 0) {
                say("sup " + names[0].name + " = " + names[0].hi + (strict ? " <= 0" : " < 0") +
                    ": fails for every point");
                return CheckStatus::disproven;
            }
            say("the enclosure " + n(0) + " contains points on both sides of 0");
            return CheckStatus::not_proven;
        }
        case Relation::subset: {
            if (compare(x[1].lo, x[0].lo) <= 0 && compare(x[0].hi, x[1].hi) <= 0) {
                say(n(0) + " lies inside " + n(1));
                return CheckStatus::proven;
            }
            if (compare(x[0].hi, x[1].lo) < 0 || compare(x[1].hi, x[0].lo) < 0) {
                say(n(0) + " and " + n(1) + " are disjoint");
                return CheckStatus::disproven;
            }
            say(n(0) + " sticks out of " + n(1));
            return CheckStatus::not_proven;
        }
    }
    return CheckStatus::not_run;
}

std::size_t arity(Relation r) {
    switch (r) {
        case Relation::none:
        case Relation::implied_by: return 0;
        case Relation::within: return 3;
        case Relation::positive:
        case Relation::nonnegative: return 1;
        default: return 2;
    }
}

}  // namespace detail

std::optional<double> relation_margin(Relation r, const std::vector<Enclosure>& enclosures) {
    if (r == Relation::none || r == Relation::implied_by || enclosures.size() != detail::arity(r)) return std::nullopt;
    std::vector<detail::ExactInterval> x;
    try {
        for (const auto& e : enclosures) x.push_back(detail::ExactInterval::parse(e));
    } catch (const std::exception&) {
        return std::nullopt;
    }
    for (const auto& e : x)
        if (e.lo.inf != 0 || e.hi.inf != 0) return std::nullopt;
    auto absq = [](const Rational& q) { return Rational(abs(q)); };
    auto rel = [](const Rational& slack, const Rational& scale) -> std::optional<double> {
        if (scale.sign() < 0) return std::nullopt;  // the bounds themselves cross: no meaningful scale
        if (scale.sign() == 0) return slack.sign() == 0 ? 0.0 : (slack.sign() > 0 ? 1.0 : -1.0);
        const Rational q = slack / scale;
        return mpq_get_d(q.backend().data());  // truncated toward zero (GMP), as every certificate so far records it
    };
    switch (r) {
        case Relation::less:
        case Relation::less_equal: {
            const Rational slack = x[1].lo.q - x[0].hi.q;
            return rel(slack, std::max(absq(x[0].hi.q), absq(x[1].lo.q)));
        }
        case Relation::positive:
        case Relation::nonnegative: return rel(x[0].lo.q, std::max(absq(x[0].lo.q), absq(x[0].hi.q)));
        case Relation::subset: {
            const Rational slack = std::min(Rational(x[0].lo.q - x[1].lo.q), Rational(x[1].hi.q - x[0].hi.q));
            return rel(slack, Rational((x[1].hi.q - x[1].lo.q) / 2));
        }
        case Relation::within: {
            const Rational slack = std::min(Rational(x[0].lo.q - x[1].hi.q), Rational(x[2].lo.q - x[0].hi.q));
            return rel(slack, Rational((x[2].lo.q - x[1].hi.q) / 2));
        }
        default: return std::nullopt;
    }
}

CheckStatus evaluate_relation(Relation r, const std::vector<Enclosure>& enclosures, std::string* detail) {
    if (r == Relation::none || r == Relation::implied_by) {
        if (detail) *detail = r == Relation::none ? "not re-checkable from stored data" : "decided by its premises";
        return CheckStatus::not_run;
    }
    if (enclosures.size() != detail::arity(r))
        throw std::invalid_argument("relation " + std::string(to_string(r)) + " needs " +
                                    std::to_string(detail::arity(r)) + " enclosures, got " +
                                    std::to_string(enclosures.size()));
    std::vector<detail::ExactInterval> x;
    for (const auto& e : enclosures) x.push_back(detail::ExactInterval::parse(e));
    return detail::evaluate(r, x, enclosures, detail);
}

}  // namespace flowcert::cert
