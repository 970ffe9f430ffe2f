#include <flowcert/cert.hpp>

#include <algorithm>
#include <cctype>
#include <string>

namespace flowcert::cert {

std::string_view to_string(Verdict v) {
    switch (v) {
        case Verdict::certified: return "CERTIFIED";
        case Verdict::refuted: return "REFUTED";
        case Verdict::inconclusive: return "INCONCLUSIVE";
        case Verdict::error: return "ERROR";
    }
    return "ERROR";
}

std::string_view to_string(CheckStatus s) {
    switch (s) {
        case CheckStatus::not_run: return "not_run";
        case CheckStatus::proven: return "proven";
        case CheckStatus::disproven: return "disproven";
        case CheckStatus::not_proven: return "not_proven";
    }
    return "not_run";
}

std::optional<Verdict> parse_verdict(std::string_view text) {
    std::string t(text);
    std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return std::tolower(c); });
    if (t == "certified") return Verdict::certified;
    if (t == "refuted") return Verdict::refuted;
    if (t == "inconclusive") return Verdict::inconclusive;
    if (t == "error") return Verdict::error;
    return std::nullopt;
}

std::optional<CheckStatus> parse_check_status(std::string_view text) {
    for (CheckStatus s : {CheckStatus::not_run, CheckStatus::proven, CheckStatus::disproven, CheckStatus::not_proven})
        if (text == to_string(s)) return s;
    return std::nullopt;
}

int exit_code_for(Verdict v) {
    switch (v) {
        case Verdict::certified: return exit_code::certified;
        case Verdict::refuted: return exit_code::refuted;
        case Verdict::inconclusive: return exit_code::inconclusive;
        case Verdict::error: return exit_code::internal;
    }
    return exit_code::internal;
}

Verdict compute_verdict(const std::vector<CheckStatus>& statuses, bool completed, bool error) {
    if (error) return Verdict::error;
    bool all_proven = !statuses.empty();
    for (CheckStatus s : statuses) {
        if (s == CheckStatus::disproven) return Verdict::refuted;  // a rigorous counterexample stands on its own
        if (s != CheckStatus::proven) all_proven = false;
    }
    return completed && all_proven ? Verdict::certified : Verdict::inconclusive;
}

}  // namespace flowcert::cert
