#include <flowcert/cert.hpp>

#include <algorithm>
#include <cctype>
#include <string>

namespace flowcert::cert {

std::string_view to_string(Verdict v) {
    switch (v) {
        case Verdict::certified: return "CERTIFIED";
        case Verdict::refuted: return "REFUTED";
        case Verdict::outside_hypotheses: return "OUTSIDE_HYPOTHESES";
        case Verdict::inconclusive: return "INCONCLUSIVE";
        case Verdict::error: return "ERROR";
    }
    return "ERROR";
}

std::string_view to_string(Role r) {
    switch (r) {
        case Role::hypothesis: return "hypothesis";
        case Role::step: return "step";
        case Role::conclusion: return "conclusion";
        case Role::evidence: return "evidence";
    }
    return "step";
}

std::optional<Verdict> parse_verdict(std::string_view text) {
    std::string t(text);
    std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return std::tolower(c); });
    for (Verdict v : {Verdict::certified, Verdict::refuted, Verdict::outside_hypotheses, Verdict::inconclusive,
                      Verdict::error}) {
        std::string s(to_string(v));
        std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
        if (t == s) return v;
    }
    return std::nullopt;
}

std::optional<CheckStatus> parse_check_status(std::string_view text) {
    for (CheckStatus s : {CheckStatus::not_run, CheckStatus::proven, CheckStatus::disproven, CheckStatus::not_proven})
        if (text == to_string(s)) return s;
    return std::nullopt;
}

std::optional<Role> parse_role(std::string_view text) {
    for (Role r : {Role::hypothesis, Role::step, Role::conclusion, Role::evidence})
        if (text == to_string(r)) return r;
    return std::nullopt;
}

CheckStatus status_for_role(Role role, CheckStatus raw) {
    return role == Role::step && raw == CheckStatus::disproven ? CheckStatus::not_proven : raw;
}

int exit_code_for(Verdict v) {
    switch (v) {
        case Verdict::certified: return exit_code::certified;
        case Verdict::refuted: return exit_code::refuted;
        case Verdict::outside_hypotheses: return exit_code::outside_hypotheses;
        case Verdict::inconclusive: return exit_code::inconclusive;
        case Verdict::error: return exit_code::internal;
    }
    return exit_code::internal;
}

bool refutation_rests_on_reconstruction(const std::vector<CheckSummary>& checks) {
    bool reconstructed = false;
    for (const CheckSummary& c : checks) {
        if (c.trivial || c.role == Role::evidence) continue;
        const CheckStatus s = status_for_role(c.role, c.status);
        if (c.role == Role::conclusion && s == CheckStatus::disproven && c.case_claim) return false;
        if (c.reconstructed && ((c.role == Role::hypothesis && s == CheckStatus::proven) ||
                                (c.role == Role::conclusion && s == CheckStatus::disproven)))
            reconstructed = true;
    }
    return reconstructed;
}

Verdict compute_verdict(const std::vector<CheckSummary>& checks, bool completed, bool error) {
    if (error) return Verdict::error;
    if (!completed) return Verdict::inconclusive;
    bool hypotheses_proven = true, hypothesis_stated = false, all_proven = true, conclusion_shown = false,
         conclusion_false = false;
    for (const CheckSummary& c : checks) {
        if (c.status == CheckStatus::not_run) {  // planned, never run: blocks CERTIFIED, and REFUTED (it may
            all_proven = false;                  // be a hypothesis that was never checked)
            hypotheses_proven = false;
        }
        if (c.trivial || c.role == Role::evidence) continue;       // labelled: never decides
        const CheckStatus s = status_for_role(c.role, c.status);
        if (c.role == Role::hypothesis && s == CheckStatus::disproven) return Verdict::outside_hypotheses;
        if (c.role == Role::hypothesis && s != CheckStatus::proven) hypotheses_proven = false;
        if (c.role == Role::hypothesis) hypothesis_stated = true;
        if (c.role == Role::conclusion && s == CheckStatus::disproven) conclusion_false = true;
        if (c.role == Role::conclusion && s == CheckStatus::proven) conclusion_shown = true;
        if (s != CheckStatus::proven) all_proven = false;
    }
    // A witness refutes the theorem only on an instance shown to satisfy it: at least one of its
    // hypotheses stated (not trivially true) and every one proven; and not through a reconstructed
    // statement (then it refutes our reconstruction, not the paper: INCONCLUSIVE).
    if (conclusion_false && hypotheses_proven && hypothesis_stated)
        return refutation_rests_on_reconstruction(checks) ? Verdict::inconclusive : Verdict::refuted;
    return all_proven && conclusion_shown ? Verdict::certified : Verdict::inconclusive;
}

}  // namespace flowcert::cert
