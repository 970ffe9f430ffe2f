#include "certify_index.hpp"

#include <flowcert/cert.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>

#include "certify_progress.hpp"

namespace flowcert::tools {

namespace fs = std::filesystem;
namespace cert = flowcert::cert;

// The buffer is the file's size, not the cap (a 256 MB buffer of zeros costs seconds).
std::string read_text(const fs::path& f, std::size_t cap) {
    std::ifstream in(f, std::ios::binary | std::ios::ate);
    if (!in) return "";
    const auto size = static_cast<std::size_t>(std::max<std::streamoff>(0, in.tellg()));
    in.seekg(0);
    std::string s(std::min(size, cap), '\0');
    in.read(s.data(), static_cast<std::streamsize>(s.size()));
    s.resize(static_cast<std::size_t>(in.gcount()));
    return s;
}

namespace {

constexpr std::size_t kCertificateCap = std::size_t{256} << 20;
constexpr std::size_t kSentenceChars = 300;

// The sidecar <case>.check.json that --check wrote, or null.
nlohmann::json read_sidecar(const fs::path& out, const std::string& rel) {
    std::error_code ec;
    const fs::path f = out / (rel + ".check.json");
    if (!fs::is_regular_file(f, ec)) return nullptr;
    try {
        return nlohmann::json::parse(read_text(f));
    } catch (const std::exception&) {
        return "unreadable";
    }
}

// "35/35" (decisive checks recomputed by the fresh run of --check), or "" without a sidecar.
std::string rederived_text(const nlohmann::json& sidecar) {
    if (sidecar.is_null()) return "";
    try {
        return std::to_string(sidecar.at("decisive_rederived").get<int>()) + "/" +
               std::to_string(sidecar.at("decisive").get<int>()) + (sidecar.at("accepted").get<bool>() ? "" : " REJECTED");
    } catch (const std::exception&) {
        return "unreadable";
    }
}

// What the index shows of a case's certificate (read once per version of the file).
struct Glance {
    std::string paper, locator, paper_statement;  // the claim
    std::string sentence, decisive;               // cert::headline
    std::optional<double> margin;
};

std::optional<Glance> glance_of(const fs::path& json) {
    static std::mutex mu;
    static std::map<std::string, std::pair<fs::file_time_type, Glance>> cache;
    std::error_code ec;
    const auto stamp = fs::last_write_time(json, ec);
    if (ec) return std::nullopt;
    std::lock_guard<std::mutex> lock(mu);
    if (const auto it = cache.find(json.string()); it != cache.end() && it->second.first == stamp) return it->second.second;
    try {
        const cert::Report r = cert::report_from_json(nlohmann::json::parse(read_text(json, kCertificateCap)));
        const cert::Headline h = cert::headline(r);
        Glance g{r.claim.paper, r.claim.locator, r.claim.paper_statement, h.sentence, "", std::nullopt};
        if (h.decisive) {
            g.decisive = h.decisive->name;
            g.margin = h.decisive->margin;
        }
        cache[json.string()] = {stamp, g};
        return g;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

// At most n bytes, cut at a space (never inside a UTF-8 character), with an ellipsis.
std::string truncated(const std::string& s, std::size_t n) {
    if (s.size() <= n) return s;
    std::size_t cut = s.rfind(' ', n);
    if (cut == std::string::npos || cut < n / 2) {
        cut = n;
        while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    }
    return s.substr(0, cut) + " \u2026";
}

// The first line of a message (a verifier's log tail, an exception text).
std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

// Plain text for the index: numbers short (the exact values are in the case page), cut to `n`.
std::string short_text(const std::string& s, std::size_t n = kSentenceChars) {
    return truncated(cert::text_with_short_numbers(first_line(s)), n);
}

std::string css_class(const std::string& verdict) {
    std::string c = verdict;
    std::replace(c.begin(), c.end(), ' ', '_');
    return c;
}

std::string seconds_text(double s) {
    char b[32];
    std::snprintf(b, sizeof b, s < 10 ? "%.2f s" : s < 600 ? "%.1f s" : "%.0f s", s);
    return b;
}

// Verdict counts of all cases, in the order of verdict_rank: "50 CERTIFIED, 3 REFUTED, ...".
std::vector<std::pair<std::string, int>> verdict_counts(const std::vector<CaseOutcome>& outs) {
    std::map<std::string, int> n;
    for (const auto& o : outs) ++n[o.verdict.empty() ? "NOT RUN" : o.verdict];
    std::vector<std::pair<std::string, int>> v(n.begin(), n.end());
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return verdict_rank(a.first) < verdict_rank(b.first); });
    return v;
}

// The cases grouped: papers in case order, theorems (verifiers) in order of first appearance.
struct Groups {
    struct Theorem {
        std::string verifier, locator, statement;
        std::vector<const CaseOutcome*> cases;
    };
    struct Paper {
        std::string key, name;  // "kh", the longest claim.paper of its cases
        std::vector<Theorem> theorems;
    };
    std::vector<Paper> papers;
    std::map<std::string, std::optional<Glance>> glances;  // by case
};

Groups group(const std::vector<CaseOutcome>& outs, const fs::path& out) {
    Groups g;
    for (const auto& o : outs) {
        const std::string p = paper_of(o), v = o.verifier.empty() ? "(no verifier)" : o.verifier;
        auto pit = std::find_if(g.papers.begin(), g.papers.end(), [&](const auto& x) { return x.key == p; });
        if (pit == g.papers.end()) pit = g.papers.insert(g.papers.end(), Groups::Paper{p, p, {}});
        auto tit = std::find_if(pit->theorems.begin(), pit->theorems.end(), [&](const auto& x) { return x.verifier == v; });
        if (tit == pit->theorems.end()) tit = pit->theorems.insert(pit->theorems.end(), Groups::Theorem{v, "", "", {}});
        tit->cases.push_back(&o);
        auto& gl = g.glances[o.rel];
        if (o.report) gl = glance_of(out / (o.rel + ".json"));
        if (!gl) continue;
        if (gl->paper.size() > pit->name.size() || pit->name == p) pit->name = gl->paper;
        if (tit->locator.empty()) tit->locator = gl->locator;
        if (tit->statement.empty()) tit->statement = gl->paper_statement;
    }
    return g;
}

// What the index says of a case: the headline of its certificate, else the runner's message.
std::string sentence_of(const CaseOutcome& o, const std::optional<Glance>& g) {
    if (g && o.verdict != "CHECK REJECTED") return g->sentence;
    return o.message.empty() ? o.verdict : o.message;
}

std::string paper_heading(const Groups::Paper& p) { return p.name == p.key ? p.key : p.name + " (" + p.key + ")"; }

const char* kStyle =
    "body{font-family:sans-serif;margin:1.5em auto;max-width:1400px;padding:0 1.5em;color:#222}"
    "table{border-collapse:collapse;margin:0.3em 0 1em}td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px;"
    "vertical-align:top;text-align:left}th{background:#f3f3f3}h2{border-bottom:1px solid #ddd;margin-top:1.4em}"
    "h3{font-size:1.05em;margin:1em 0 0.2em}.muted{color:#666;font-size:12px}.ok{color:#2e7d32}"
    ".mismatch{color:#c62828;font-weight:bold}.CERTIFIED{color:#2e7d32}.REFUTED{color:#c62828}"
    ".INCONCLUSIVE{color:#ef6c00}.OUTSIDE_HYPOTHESES{color:#455a64}.counts{font-size:1.1em}"
    ".counts span{margin-right:0.8em;font-weight:bold}td.sentence{max-width:640px}td.nowrap{white-space:nowrap}"
    "tr:target{background:#fff8c4}nav.papers a{margin-right:1em}\n";

}  // namespace

void render_case_pages(const CaseOutcome& o, const fs::path& out, const fs::path& json, const nlohmann::json& j) {
    try {
        cert::PageContext page;
        for (char c : o.rel)
            if (c == '/') page.index_href += "../";
        page.index_href += "index.html#" + o.rel;
        const nlohmann::json sidecar = read_sidecar(out, o.rel);
        if (sidecar.is_object()) {
            for (const auto& c : sidecar.at("checks")) page.rederived[c.at("name")] = c.at("rederived");
            const std::string summary = sidecar.at("summary");
            page.recheck_summary = first_line(summary);
            page.recheck_accepted = sidecar.at("accepted");
        }
        cert::write_pages(cert::report_from_json(j), json.parent_path(), json.stem().string(), page);
    } catch (const std::exception&) {
        // the verifier's own pages stay
    }
}

void write_index(const std::vector<CaseOutcome>& outs, const fs::path& out, const std::string& banner) {
    using cert::html_escape;
    int ok = 0;
    for (const auto& o : outs) ok += o.ok;
    const Groups g = group(outs, out);
    const auto counts = verdict_counts(outs);
    const auto rolls = rollup(outs);
    std::map<std::string, std::string> sidecars;  // case -> re-derived text
    for (const auto& o : outs) sidecars[o.rel] = rederived_text(read_sidecar(out, o.rel));

    std::ostringstream h;
    h << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>flowcert certify: "
      << (banner.empty() ? "" : "INCOMPLETE: ") << ok << "/" << outs.size() << " as expected</title>\n<style>" << kStyle
      << "</style>\n</head>\n<body>\n<h1>flowcert certify</h1>\n";
    if (!banner.empty()) h << "<p id=\"incomplete\" class=\"mismatch\">" << html_escape(banner) << "</p>\n";
    h << "<p class=\"counts\" id=\"counts\">" << outs.size() << " cases: ";
    for (const auto& [v, n] : counts) h << "<span class=\"" << css_class(v) << "\">" << n << " " << html_escape(v) << "</span>";
    h << "<br>" << ok << " as expected"
      << (ok == static_cast<int>(outs.size()) ? std::string()
                                              : ", <a class=\"mismatch\" href=\"#mismatches\">" +
                                                    std::to_string(outs.size() - ok) + " not as expected</a>")
      << "</p>\n";
    const auto prov = cert::build_provenance();
    h << "<p class=\"muted\">flowcert " << html_escape(prov.flowcert_version) << " (" << html_escape(prov.git_commit) << "), "
      << html_escape(prov.compiler) << ", " << cert::utc_now_iso8601() << ".</p>\n";
    if (ok != static_cast<int>(outs.size())) {
        h << "<section id=\"mismatches\">\n<h2>Not as expected</h2>\n<ul>\n";
        for (const auto& o : outs)
            if (!o.ok)
                h << "<li><a href=\"#" << html_escape(o.rel) << "\">" << html_escape(o.rel) << "</a>: <span class=\""
                  << css_class(o.verdict) << "\">" << html_escape(o.verdict) << "</span>, expected "
                  << html_escape(o.expect.empty() ? "?" : o.expect) << " &mdash; "
                  << html_escape(short_text(sentence_of(o, g.glances.at(o.rel)), 200)) << "</li>\n";
        h << "</ul>\n</section>\n";
    }
    h << "<table id=\"rollup\">\n<tr><th>paper</th><th>cases</th><th>as expected</th><th>verdicts</th>"
         "<th>case time (sum)</th></tr>\n";
    for (const auto& r : rolls)
        h << "<tr><td><a href=\"#paper-" << html_escape(r.paper) << "\">" << html_escape(r.paper) << "</a></td><td>" << r.cases
          << "</td><td class=\"" << (r.ok == r.cases ? "ok" : "mismatch") << "\">" << r.ok << "</td><td>"
          << html_escape(r.verdict_counts()) << "</td><td>" << seconds_text(r.wall) << "</td></tr>\n";
    h << "</table>\n";
    for (const auto& p : g.papers) {
        h << "<section class=\"paper\" id=\"paper-" << html_escape(p.key) << "\">\n<h2>" << html_escape(paper_heading(p)) << "</h2>\n";
        for (const auto& t : p.theorems) {
            h << "<h3 id=\"verifier-" << html_escape(t.verifier) << "\">" << html_escape(t.verifier)
              << (t.locator.empty() ? std::string() : " &mdash; " + html_escape(t.locator)) << "</h3>\n";
            if (!t.statement.empty()) h << "<p class=\"muted\">Claim: " << html_escape(short_text(t.statement, 260)) << "</p>\n";
            h << "<table class=\"cases\">\n<tr><th>case</th><th>verdict</th><th>what this run shows</th>"
                 "<th>decisive check: margin</th><th>re-derived</th><th>time</th><th>files</th></tr>\n";
            for (const CaseOutcome* o : t.cases) {
                const auto& gl = g.glances.at(o->rel);
                const std::string stem = o->rel.substr(o->rel.rfind('/') + 1);
                h << "<tr class=\"case\" id=\"" << html_escape(o->rel) << "\"><td>";
                if (o->report) h << "<a href=\"" << html_escape(o->rel) << ".html\">" << html_escape(stem) << "</a>";
                else h << html_escape(stem);
                h << "</td><td><span class=\"" << css_class(o->verdict) << "\">" << html_escape(o->verdict) << "</span><br>"
                  << (o->ok ? "<span class=\"ok\">as expected</span>"
                            : "<span class=\"mismatch\">MISMATCH (expected " + html_escape(o->expect.empty() ? "?" : o->expect) +
                                  ")</span>")
                  << "</td><td class=\"sentence\">" << html_escape(short_text(sentence_of(*o, gl))) << "</td><td>";
                if (gl && !gl->decisive.empty()) {
                    h << html_escape(short_text(gl->decisive, 70));
                    if (gl->margin) h << ": " << cert::short_number(*gl->margin);
                }
                h << "</td><td class=\"nowrap\">" << html_escape(sidecars[o->rel]) << "</td><td class=\"nowrap\">"
                  << seconds_text(o->wall_time) << "</td><td>";
                if (o->report)
                    h << "<a href=\"" << html_escape(o->rel) << ".json\">json</a> <a href=\"" << html_escape(o->rel) << ".md\">md</a> ";
                h << "<a href=\"" << html_escape(o->rel) << ".log\">log</a></td></tr>\n";
            }
            h << "</table>\n";
        }
        h << "</section>\n";
    }
    h << "<p class=\"muted\">What this run shows: the verdict's reason in one sentence, numbers to 3 digits (the exact "
         "enclosures are in each case's page). Margin: the slack of the check the verdict turns on (for CERTIFIED the "
         "proven check with the smallest margin), relative to its bound; negative: fails by that much. Re-derived: "
         "decisive checks recomputed by the fresh run of <code>flowcert certify --check</code>.</p>\n</body>\n</html>\n";
    fs::create_directories(out);
    std::ofstream(out / "index.html") << h.str();

    // Markdown: the same groups
    std::ostringstream md;
    auto cell = [](const std::string& s) {
        std::string t;
        for (char c : s) t += c == '|' ? std::string("\\|") : std::string(1, c);
        return t;
    };
    md << "# flowcert certify: " << (banner.empty() ? "" : "INCOMPLETE: ") << ok << "/" << outs.size() << " as expected\n\n"
       << (banner.empty() ? "" : "**" + banner + "**\n\n") << outs.size() << " cases:";
    for (const auto& [v, n] : counts) md << " " << n << " " << v << (&v == &counts.back().first ? "" : ",");
    md << "\n\n";
    for (const auto& o : outs)
        if (!o.ok)
            md << "- **not as expected**: " << (o.report ? "[" + o.rel + "](" + o.rel + ".md)" : o.rel) << " " << o.verdict << ", expected "
               << (o.expect.empty() ? "?" : o.expect) << "\n";
    md << "\n| paper | cases | as expected | verdicts | case time (sum) |\n|---|---|---|---|---|\n";
    for (const auto& r : rolls)
        md << "| " << r.paper << " | " << r.cases << " | " << r.ok << " | " << r.verdict_counts() << " | " << seconds_text(r.wall) << " |\n";
    for (const auto& p : g.papers) {
        md << "\n## " << paper_heading(p) << "\n";
        for (const auto& t : p.theorems) {
            md << "\n### " << t.verifier << (t.locator.empty() ? std::string() : " (" + t.locator + ")") << "\n\n"
               << "| case | verdict | what this run shows | margin | time |\n|---|---|---|---|---|\n";
            for (const CaseOutcome* o : t.cases) {
                const auto& gl = g.glances.at(o->rel);
                md << "| " << (o->report ? "[" + o->rel + "](" + o->rel + ".md)" : o->rel) << " | " << o->verdict
                   << (o->ok ? "" : " (**MISMATCH**, expected " + (o->expect.empty() ? std::string("?") : o->expect) + ")") << " | "
                   << cell(short_text(sentence_of(*o, gl))) << " | "
                   << (gl && gl->margin ? cert::short_number(*gl->margin) : std::string()) << " | " << seconds_text(o->wall_time)
                   << " |\n";
            }
        }
    }
    std::ofstream(out / "index.md") << md.str();

    // summary.json: machine-readable, the runner's full message kept
    nlohmann::json summary = nlohmann::json::array();
    for (const auto& o : outs) {
        const auto& gl = g.glances.at(o.rel);
        summary.push_back({{"case", o.rel}, {"verifier", o.verifier}, {"paper", paper_of(o)}, {"verdict", o.verdict},
                           {"expect", o.expect}, {"as_expected", o.ok}, {"wall_time_seconds", o.wall_time},
                           {"message", o.message}, {"sentence", sentence_of(o, gl)},
                           {"margin", gl && gl->margin ? nlohmann::json(*gl->margin) : nlohmann::json(nullptr)},
                           {"rederived", sidecars[o.rel]}});
    }
    std::ofstream(out / "summary.json") << summary.dump(2) << "\n";
}

}  // namespace flowcert::tools
