// A report at a glance: headline sentence, deciding check, numbers in short form.
#include <flowcert/cert.hpp>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

namespace flowcert::cert {

namespace {

bool decides(const Check& c) { return c.trivial.empty() && c.role != Role::evidence; }

std::string with_statement(const Check& c) {
    return "'" + c.name + "'" + (c.statement.empty() ? std::string() : " (" + c.statement + ")");
}

// The check a verdict turns on (docs/design.md "What certified means"): the false hypothesis, the
// false conclusion, the first check not proven (hypotheses, then steps, then conclusions), or for
// CERTIFIED the proven decisive check with the smallest margin.
const Check* deciding_check(Verdict v, const std::deque<Check>& checks) {
    switch (v) {
        case Verdict::outside_hypotheses:
            for (const auto& c : checks)
                if (decides(c) && c.role == Role::hypothesis && c.status == CheckStatus::disproven) return &c;
            return nullptr;
        case Verdict::refuted:
            for (const auto& c : checks)  // a case's claim refuted decides first (refutation_rests_on_reconstruction)
                if (decides(c) && c.role == Role::conclusion && c.status == CheckStatus::disproven && !c.case_claim.empty())
                    return &c;
            for (const auto& c : checks)
                if (decides(c) && c.role == Role::conclusion && c.status == CheckStatus::disproven) return &c;
            return nullptr;
        case Verdict::inconclusive:
            for (const auto& c : checks)
                if (c.status == CheckStatus::not_run) return &c;
            for (Role r : {Role::hypothesis, Role::step, Role::conclusion})
                for (const auto& c : checks)
                    if (decides(c) && c.role == r && c.status != CheckStatus::proven) return &c;
            return nullptr;
        case Verdict::certified: {
            const Check* best = nullptr;
            for (const auto& c : checks)
                if (decides(c) && c.margin && std::isfinite(*c.margin) && (!best || *c.margin < *best->margin)) best = &c;
            if (best) return best;
            for (const auto& c : checks)
                if (decides(c) && c.role == Role::conclusion) return &c;
            return nullptr;
        }
        case Verdict::error: return nullptr;
    }
    return nullptr;
}

// A number token at s[i] (sign, digits, point, exponent), or 0 if there is none: a token starts
// after a character that cannot be part of a name or a number and ends before one.
std::size_t number_at(const std::string& s, std::size_t i) {
    auto name_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; };
    if (i > 0 && name_char(s[i - 1])) return 0;
    std::size_t j = i;
    if (j < s.size() && (s[j] == '-' || s[j] == '+')) ++j;
    const std::size_t digits_from = j;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
    if (j < s.size() && s[j] == '.') {
        ++j;
        while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
    }
    if (j == digits_from || (j == digits_from + 1 && s[digits_from] == '.')) return 0;
    if (j + 1 < s.size() && (s[j] == 'e' || s[j] == 'E')) {
        std::size_t k = j + 1;
        if (k < s.size() && (s[k] == '-' || s[k] == '+')) ++k;
        if (k < s.size() && std::isdigit(static_cast<unsigned char>(s[k]))) {
            while (k < s.size() && std::isdigit(static_cast<unsigned char>(s[k]))) ++k;
            j = k;
        }
    }
    if (j < s.size() && (std::isalpha(static_cast<unsigned char>(s[j])) || s[j] == '_')) return 0;
    if (j < s.size() && s[j] == '.' && j + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[j + 1]))) return 0;
    return j - i;
}

// Significant digits of a decimal token (leading zeros, sign and exponent not counted).
int significant_digits(const std::string& t) {
    int sig = 0;
    bool leading = true;
    for (char c : t) {
        if (c == 'e' || c == 'E') break;
        if (!std::isdigit(static_cast<unsigned char>(c))) continue;
        if (leading && c == '0') continue;
        leading = false;
        ++sig;
    }
    return sig;
}

// Text split into plain pieces and number tokens; long tokens (more than 6 significant digits) are
// shown with the fewest digits (at least 3) that keep every two different numbers of the text
// different and in the same order, so that "sup a = 1.41421356237... <= inf b = 1.4142135624"
// stays a true comparison.
template <class Emit> std::string with_short_numbers(const std::string& text, Emit emit) {
    struct Piece {
        std::string text;
        bool number = false;
        double value = 0;
        bool shorten = false;
    };
    std::vector<Piece> pieces;
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = number_at(text, i);
        if (n == 0) {
            if (pieces.empty() || pieces.back().number) pieces.push_back({});
            pieces.back().text += text[i++];
            continue;
        }
        Piece p{text.substr(i, n), true, 0, false};
        p.value = std::strtod(p.text.c_str(), nullptr);
        // a long zero ("0.0000000000000000e+00") is shortened too
        p.shorten = std::isfinite(p.value) && (significant_digits(p.text) > 6 || (p.value == 0 && p.text.size() > 6));
        pieces.push_back(p);
        i += n;
    }
    // the shown value of a piece with `digits` digits
    auto shown = [](const Piece& p, int digits) {
        return p.shorten ? std::strtod(format_g(p.value, digits).c_str(), nullptr) : p.value;
    };
    int digits = 3;
    for (; digits < 17; ++digits) {
        bool kept = true;  // every two different numbers stay different and in the same order
        for (const auto& a : pieces)
            for (const auto& b : pieces)
                if (a.number && b.number && (a.shorten || b.shorten) && a.value < b.value && !(shown(a, digits) < shown(b, digits)))
                    kept = false;
        if (kept) break;
    }
    std::string out;
    for (const auto& p : pieces) {
        if (p.shorten && (significant_digits(p.text) > digits || p.value == 0)) out += emit(format_g(p.value, digits), p.text);
        else out += emit(p.text, std::string());
    }
    return out;
}

}  // namespace

Headline headline(const Report& r) {
    Headline h;
    const Verdict v = r.verdict();
    const auto& checks = r.checks();
    h.decisive = deciding_check(v, checks);
    const Check* c = h.decisive;
    switch (v) {
        case Verdict::error: h.sentence = "Error: " + r.error().value_or("unknown"); break;
        case Verdict::certified:
            h.sentence = "Proven: " + (r.claim.proven_statement.empty() ? r.claim.paper_statement : r.claim.proven_statement);
            break;
        case Verdict::outside_hypotheses:
            if (c && !c->reconstructed.empty())  // our reconstruction of a hypothesis whose text we do not have
                h.sentence = "Outside the hypotheses as reconstructed: hypothesis " + with_statement(*c) +
                             " (a reconstruction: " + c->reconstructed + ") is false, so the reconstructed claim says "
                             "nothing about this instance";
            else
                h.sentence = "Outside the hypotheses: " + (c ? "hypothesis " + with_statement(*c) + " is false" : "a hypothesis is false") +
                             ", so the theorem says nothing about this instance";
            break;
        case Verdict::refuted:
            h.sentence = std::string(c && !c->case_claim.empty() ? "The case's claim is false (not the paper's theorem): "
                                                                  : "Counterexample: ") +
                         (c ? "conclusion " + with_statement(*c) + " is false although every hypothesis is proven" +
                                  (c->witness.empty() ? std::string() : "; witness: " + c->witness)
                            : std::string("a conclusion is false although every hypothesis is proven"));
            break;
        case Verdict::inconclusive:
            if (!r.completed()) h.sentence = "Not proven: the run did not complete";
            else if (c && c->role == Role::conclusion && c->status == CheckStatus::disproven &&
                     refutation_rests_on_reconstruction(summarize(checks)))
                h.sentence = "Refutes the reconstruction, not the theorem: conclusion " + with_statement(*c) +
                             " is false on an instance that satisfies every hypothesis as reconstructed" +
                             (c->witness.empty() ? std::string() : "; witness: " + c->witness);
            else if (c && c->status == CheckStatus::not_run) h.sentence = "Not proven: " + std::string(to_string(c->role)) + " " + with_statement(*c) + " did not run";
            else if (c)
                h.sentence = "Not proven: " + std::string(to_string(c->role)) + " " + with_statement(*c) +
                             (c->reason.empty() ? std::string() : ": " + c->reason);
            else h.sentence = "Not proven: the conclusion was checked on no instance (only trivially true checks)";
            break;
    }
    return h;
}

std::string short_number(double x) {
    if (std::isnan(x)) return "";
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    char b[32];
    std::snprintf(b, sizeof b, "%.3g", x);
    return b;
}

std::string html_escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        switch (c) {
            case '&': o += "&amp;"; break;
            case '<': o += "&lt;"; break;
            case '>': o += "&gt;"; break;
            case '"': o += "&quot;"; break;
            default: o += c;
        }
    }
    return o;
}

std::string html_with_short_numbers(const std::string& text) {
    return with_short_numbers(text, [](const std::string& shown, const std::string& exact) {
        return exact.empty() ? html_escape(shown)
                             : "<span class=\"num\" title=\"" + html_escape(exact) + "\">" + html_escape(shown) + "</span>";
    });
}

std::string text_with_short_numbers(const std::string& text) {
    return with_short_numbers(text, [](const std::string& shown, const std::string&) { return shown; });
}

}  // namespace flowcert::cert
