// The case page of a certificate (HTML and Markdown): a summary first (claim, verdict and the
// sentence that explains it, the decisive numbers, the main plot), then the checks grouped by
// role with the re-checkable ones marked, then the details (more plots, tables, notes,
// provenance, the embedded case file). Long sections are collapsed (<details>), numbers are
// shown in short form with the exact text a hover or a click away.
#include <flowcert/cert.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace flowcert::cert {

namespace {

// Sections with more entries than this start collapsed.
constexpr std::size_t kOpenChecks = 20, kOpenRows = 12, kOpenNotes = 12, kOpenPlots = 4;

const char* verdict_class(Verdict v) {
    switch (v) {
        case Verdict::certified: return "certified";
        case Verdict::refuted: return "refuted";
        case Verdict::outside_hypotheses: return "outside";
        case Verdict::inconclusive: return "inconclusive";
        default: return "error";
    }
}

// How a check's status reads for its role: a false hypothesis puts the instance outside the
// theorem, a false conclusion is a counterexample.
// A false conclusion is a counterexample only when the verdict is REFUTED (not, e.g., under a
// reconstructed hypothesis); a reconstructed check says so.
std::string status_text(const Check& c, Verdict v) {
    if (!c.trivial.empty()) return std::string(to_string(c.status)) + " (trivially true)";
    const std::string mark = c.reconstructed.empty() ? "" : " (reconstructed)";
    if (c.status == CheckStatus::disproven) {
        if (c.role == Role::hypothesis) return "false: outside the hypotheses" + mark;
        if (c.role != Role::conclusion) return "false";
        if (v != Verdict::refuted) return "false: refutes nothing (see the verdict)" + mark;
        return c.case_claim.empty() ? "false: counterexample" : "false: the case's claim is refuted";
    }
    return std::string(to_string(c.status)) + mark;
}

std::string margin_text(const Check& c) { return c.margin ? short_number(*c.margin) : ""; }

// The margin with its exact value in a tooltip.
std::string margin_html(const Check& c) {
    if (!c.margin) return "";
    char exact[40];
    std::snprintf(exact, sizeof exact, "%.17g", *c.margin);
    return "<span class=\"num\" title=\"margin " + std::string(exact) + "\">" + short_number(*c.margin) + "</span>";
}

const char* role_heading(Role r) {
    switch (r) {
        case Role::hypothesis: return "Hypotheses of the theorem on this instance";
        case Role::step: return "Steps of the argument";
        case Role::conclusion: return "Conclusion";
        case Role::evidence: return "Evidence (does not decide the verdict)";
    }
    return "";
}

// An enclosure in short form: "= 1.5", "[1.2e-5, 3.4e-5]" or "≈ 1.41 ± 2e-9" (display only: the
// exact strings are in the tooltip and in the check's details).
std::string enclosure_short(const Enclosure& e) {
    if (e.lo == e.hi) return "= " + text_with_short_numbers(e.lo);
    const double lo = std::strtod(e.lo.c_str(), nullptr), hi = std::strtod(e.hi.c_str(), nullptr);
    if (e.lo.find('/') != std::string::npos || e.hi.find('/') != std::string::npos || !std::isfinite(lo) ||
        !std::isfinite(hi))
        return "[" + text_with_short_numbers(e.lo) + ", " + text_with_short_numbers(e.hi) + "]";
    if (short_number(lo) != short_number(hi)) return "[" + short_number(lo) + ", " + short_number(hi) + "]";
    const double rad = (hi - lo) / 2;
    return "\u2248 " + short_number(lo + rad) + (rad > 0 ? " \u00b1 " + short_number(rad) : std::string(" (tight)"));
}

std::string enclosure_html(const Enclosure& e) {
    return html_escape(e.name) + " <span class=\"num\" title=\"[" + html_escape(e.lo) + ", " + html_escape(e.hi) + "]\">" +
           html_escape(enclosure_short(e)) + "</span>";
}

// What re-checks the check: the fresh `flowcert check` of certify --check if there was one, else
// what its relation makes possible.
std::string recheck_text(const Check& c, const PageContext& page) {
    if (!page.rederived.empty()) {
        const auto it = page.rederived.find(c.name);
        const std::string how = it == page.rederived.end() ? "none" : it->second;
        if (how == "rerun") return "\u2714 recomputed by a fresh run";
        if (how == "relation") return "consistent with the stored data";
        if (how == "implied_by") return "re-derived from its premises";
        return "not re-derived";
    }
    if (c.relation == Relation::implied_by) return "re-derivable from its premises";
    if (c.relation != Relation::none) return "re-derivable from the stored data";
    return "by a fresh run only";
}
bool recomputed(const Check& c, const PageContext& page) {
    const auto it = page.rederived.find(c.name);
    return it != page.rederived.end() && it->second == "rerun";
}

std::string check_anchor(std::size_t i) { return "check-" + std::to_string(i + 1); }

// The checks worth showing first: the one the verdict turns on, false hypotheses, and the
// conclusion checks with the smallest margins (at most `limit` in all).
std::vector<std::size_t> decisive_rows(const Report& r, const Check* deciding, std::size_t limit) {
    const auto& checks = r.checks();
    std::vector<std::size_t> rows;
    auto add = [&](std::size_t i) {
        if (rows.size() < limit && std::find(rows.begin(), rows.end(), i) == rows.end()) rows.push_back(i);
    };
    for (std::size_t i = 0; i < checks.size(); ++i)
        if (&checks[i] == deciding) add(i);
    for (std::size_t i = 0; i < checks.size(); ++i)
        if (checks[i].role == Role::hypothesis && checks[i].status == CheckStatus::disproven) add(i);
    std::vector<std::size_t> conclusions;
    for (std::size_t i = 0; i < checks.size(); ++i)
        if (checks[i].role == Role::conclusion && checks[i].trivial.empty()) conclusions.push_back(i);
    std::stable_sort(conclusions.begin(), conclusions.end(), [&](std::size_t a, std::size_t b) {
        const double ma = checks[a].margin.value_or(HUGE_VAL), mb = checks[b].margin.value_or(HUGE_VAL);
        return ma < mb;
    });
    for (std::size_t i : conclusions) add(i);
    return rows;
}

const char* kStyle =
    "body{font-family:sans-serif;margin:1.5em auto;max-width:1400px;padding:0 1.5em;color:#222}"
    "h1{font-size:1.5em;margin:0.3em 0}h2{font-size:1.25em;margin:1.2em 0 0.4em;border-bottom:1px solid #ddd}"
    "table{border-collapse:collapse;margin:0.4em 0}td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top;"
    "font-size:13px;text-align:left}th{background:#f3f3f3}"
    ".badge{display:inline-block;padding:3px 10px;border-radius:4px;color:white;font-weight:bold}"
    ".certified{background:#2e7d32}.refuted{background:#c62828}.inconclusive{background:#ef6c00}"
    ".outside{background:#455a64}.error{background:#6a1b9a}"
    "td.proven{color:#2e7d32}td.disproven{color:#c62828}td.not_proven,td.not_run{color:#ef6c00}"
    ".headline{font-size:1.05em;line-height:1.4}.muted{color:#666;font-size:12px}"
    ".num{border-bottom:1px dotted #999;cursor:help}.rerun{color:#2e7d32}"
    "code,pre{font-size:12px}code{word-break:break-all}pre{white-space:pre-wrap;background:#f8f8f8;padding:0.5em}"
    "details{margin:0.4em 0}summary{cursor:pointer;font-weight:bold;padding:2px 0}"
    "details.exact summary{font-weight:normal;color:#555;font-size:12px}"
    ".plots{display:flex;flex-wrap:wrap;gap:12px}svg.plot{border:1px solid #ddd;max-width:100%;height:auto}"
    "nav{font-size:13px;margin-bottom:0.5em}tr:target{background:#fff8c4}\n";

void html_check_row(std::ostringstream& o, const Check& c, std::size_t i, const PageContext& page, Verdict v) {
    o << "<tr id=\"" << check_anchor(i) << "\"><td>" << (i + 1) << "</td><td><b>" << html_escape(c.name) << "</b>";
    if (!c.statement.empty()) o << "<br><span class=\"muted\">" << html_with_short_numbers(c.statement) << "</span>";
    o << "<br><span class=\"muted\">" << html_escape(c.citation) << "</span></td><td class=\"" << to_string(c.status)
      << "\">" << html_escape(status_text(c, v)) << "</td><td>" << margin_html(c) << "</td><td"
      << (recomputed(c, page) ? " class=\"rerun\"" : "") << ">" << html_escape(recheck_text(c, page)) << "</td><td>";
    for (const auto& e : c.enclosures) o << enclosure_html(e) << "<br>";
    if (!c.implied_by.empty()) o << "implied by " << c.implied_by.size() << " earlier check" << (c.implied_by.size() > 1 ? "s" : "");
    o << "</td><td>" << html_with_short_numbers(c.reason);
    if (!c.trivial.empty()) o << "<br><b>trivially true:</b> " << html_with_short_numbers(c.trivial);
    if (!c.reconstructed.empty()) o << "<br><b>reconstructed:</b> " << html_with_short_numbers(c.reconstructed);
    if (!c.case_claim.empty()) o << "<br><b>the case's claim:</b> " << html_with_short_numbers(c.case_claim);
    if (!c.witness.empty()) o << "<br><b>witness:</b> " << html_with_short_numbers(c.witness);
    if (!c.enclosures.empty() || !c.implied_by.empty()) {
        o << "<details class=\"exact\"><summary>exact values</summary>";
        for (const auto& e : c.enclosures)
            o << html_escape(e.name) << " &isin; <code>[" << html_escape(e.lo) << ", " << html_escape(e.hi) << "]</code><br>";
        for (const auto& p : c.implied_by) o << "premise: " << html_escape(p) << "<br>";
        o << "relation: " << to_string(c.relation) << "</details>";
    }
    o << "</td></tr>\n";
}

std::string status_counts(const Report& r, Role role) {
    int n = 0, proven = 0, disproven = 0, trivial = 0;
    for (const auto& c : r.checks()) {
        if (c.role != role) continue;
        ++n;
        proven += c.status == CheckStatus::proven;
        disproven += c.status == CheckStatus::disproven;
        trivial += !c.trivial.empty();
    }
    std::string s = std::to_string(n) + " check" + (n == 1 ? "" : "s") + ": " + std::to_string(proven) + " proven";
    if (disproven) s += ", " + std::to_string(disproven) + " false";
    if (n - proven - disproven) s += ", " + std::to_string(n - proven - disproven) + " not proven";
    if (trivial) s += " (" + std::to_string(trivial) + " trivially true, not counted)";
    return s;
}

}  // namespace

std::string render_html(const Report& r, const PageContext& page) {
    const Verdict v = r.verdict();
    const Headline head = headline(r);
    const auto& checks = r.checks();
    std::ostringstream o;
    o << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" << html_escape(r.verifier) << " / "
      << html_escape(r.case_name) << ": " << to_string(v) << "</title>\n<style>\n" << kStyle << "</style>\n</head>\n<body>\n";
    if (!page.index_href.empty())
        o << "<nav><a id=\"index-link\" href=\"" << html_escape(page.index_href) << "\">&larr; all cases (index)</a></nav>\n";

    // ---- summary ----
    o << "<section id=\"summary\">\n<h1>" << html_escape(r.verifier) << " &mdash; " << html_escape(r.case_name) << "</h1>\n";
    o << "<p class=\"muted\">" << html_escape(r.claim.paper) << ", " << html_escape(r.claim.locator)
      << (r.case_description.empty() ? "" : " &middot; " + html_escape(r.case_description)) << "</p>\n";
    o << "<p class=\"headline\"><span class=\"badge " << verdict_class(v) << "\" id=\"verdict\">" << to_string(v) << "</span> "
      << html_with_short_numbers(head.sentence) << "</p>\n";
    o << "<p class=\"muted\">Why this verdict: " << html_with_short_numbers(r.verdict_reason());
    if (r.expected)
        o << ". Expected by the case: " << to_string(*r.expected) << (*r.expected == v ? " (as expected)" : " <b>(MISMATCH)</b>");
    o << "</p>\n";
    if (!page.recheck_summary.empty())
        o << "<p id=\"recheck\" class=\"" << (page.recheck_accepted ? "rerun" : "refuted") << "\">Re-checked (flowcert check): "
          << html_escape(page.recheck_summary) << "</p>\n";
    o << "<table class=\"claim\">\n<tr><th>statement in the paper</th><td>" << html_with_short_numbers(r.claim.paper_statement)
      << "</td></tr>\n<tr><th>statement proven by this run</th><td>" << html_with_short_numbers(r.claim.proven_statement)
      << "</td></tr>\n</table>\n";
    const auto rows = decisive_rows(r, head.decisive, 6);
    if (!rows.empty()) {
        o << "<h2>Decisive numbers</h2>\n<table id=\"decisive\">\n<tr><th>check</th><th>role</th><th>status</th><th>margin</th>"
             "<th>values</th></tr>\n";
        for (std::size_t i : rows) {
            const Check& c = checks[i];
            o << "<tr><td><a href=\"#" << check_anchor(i) << "\">" << html_escape(c.name) << "</a>"
              << (&c == head.decisive ? " <span class=\"muted\">(decides the verdict)</span>" : "") << "</td><td>"
              << to_string(c.role) << "</td><td class=\"" << to_string(c.status) << "\">" << html_escape(status_text(c, v))
              << "</td><td>" << margin_html(c) << "</td><td>";
            for (const auto& e : c.enclosures) o << enclosure_html(e) << "<br>";
            o << "</td></tr>\n";
        }
        o << "</table>\n<p class=\"muted\">Margin: the slack relative to the bound (negative: fails by that much). Numbers "
             "are shown to 3 digits; hover for the exact enclosure.</p>\n";
    }
    if (!r.plots().empty())
        o << "<div class=\"plots\" id=\"main-plot\">" << render_svg(r.plots().front()) << "</div>\n"
          << "<p class=\"muted\">Plots are illustrations drawn from the enclosures; the certificate is the checks.</p>\n";
    o << "</section>\n";

    // ---- checks by role ----
    o << "<section id=\"checks\">\n<h2>Checks</h2>\n<p class=\"muted\">Re-check: <i>re-derivable from the stored data</i> "
         "(flowcert check re-evaluates the relation with exact rationals), <i>from its premises</i> (an implication of "
         "earlier checks), <i>by a fresh run only</i> (decided by the verifier or a library routine); every check is "
         "recomputed by a fresh run of <code>flowcert check</code>"
      << (page.rederived.empty() ? "." : ", and this page shows what the fresh run of flowcert certify --check found.") << "</p>\n";
    for (Role role : {Role::hypothesis, Role::step, Role::conclusion, Role::evidence}) {
        std::size_t n = 0;
        bool open = false;
        for (const auto& c : checks)
            if (c.role == role) {
                ++n;
                open = open || (c.status != CheckStatus::proven && c.trivial.empty() && role != Role::evidence);
            }
        if (n == 0) continue;
        o << "<details class=\"role\" id=\"role-" << to_string(role) << "\"" << (open || n <= kOpenChecks ? " open" : "")
          << "><summary>" << role_heading(role) << " &mdash; " << html_escape(status_counts(r, role)) << "</summary>\n"
          << "<table>\n<tr><th>#</th><th>check</th><th>status</th><th>margin</th><th>re-check</th><th>values</th>"
             "<th>reason</th></tr>\n";
        for (std::size_t i = 0; i < checks.size(); ++i)
            if (checks[i].role == role) html_check_row(o, checks[i], i, page, v);
        o << "</table>\n</details>\n";
    }
    o << "</section>\n";

    // ---- details ----
    o << "<section id=\"details\">\n<h2>Details</h2>\n";
    if (r.plots().size() > 1) {
        o << "<details id=\"plots\"" << (r.plots().size() - 1 <= kOpenPlots ? " open" : "") << "><summary>More plots ("
          << r.plots().size() - 1 << ")</summary>\n<div class=\"plots\">\n";
        for (std::size_t k = 1; k < r.plots().size(); ++k) o << render_svg(r.plots()[k]);
        o << "</div>\n</details>\n";
    }
    for (const auto& t : r.tables()) {
        o << "<details class=\"table\"" << (t.rows.size() <= kOpenRows ? " open" : "") << "><summary>Table: "
          << html_escape(t.name) << " (" << t.rows.size() << " row" << (t.rows.size() == 1 ? "" : "s") << ")</summary>\n<table>\n<tr>";
        for (const auto& c : t.columns) o << "<th>" << html_escape(c) << "</th>";
        o << "</tr>\n";
        for (const auto& row : t.rows) {
            o << "<tr>";
            for (const auto& x : row) o << "<td>" << html_with_short_numbers(x) << "</td>";
            o << "</tr>\n";
        }
        o << "</table>\n</details>\n";
    }
    if (!r.notes().empty()) {
        o << "<details id=\"notes\"" << (r.notes().size() <= kOpenNotes ? " open" : "") << "><summary>Notes (" << r.notes().size()
          << ")</summary>\n<ul>\n";
        for (const auto& n : r.notes()) o << "<li>" << html_with_short_numbers(n) << "</li>\n";
        o << "</ul>\n</details>\n";
    }
    const Provenance& p = r.provenance;
    o << "<details id=\"provenance\"><summary>Provenance</summary>\n<table>\n";
    auto row = [&](const std::string& k, const std::string& x) {
        o << "<tr><th>" << html_escape(k) << "</th><td><code>" << html_escape(x) << "</code></td></tr>\n";
    };
    row("flowcert", p.flowcert_version);
    row("git commit", p.git_commit);
    row("compiler", p.compiler);
    row("flags", p.compiler_flags);
    row("build type", p.build_type);
    for (const auto& [k, x] : p.libraries) row(k, x);
    row("precision (bits)", std::to_string(p.precision_bits));
    for (const auto& [k, x] : p.seeds) row("seed " + k, x);
    row("case file", p.case_file);
    row("case SHA-256", p.case_sha256);
    row("command", p.command_line);
    row("started (UTC)", p.started_utc);
    std::ostringstream wt;
    wt << p.wall_time_seconds << " s";
    row("wall time", wt.str());
    row("rounding self-test", p.self_test);
    o << "</table>\n</details>\n<details id=\"case-file\"><summary>The case file (embedded exactly)</summary>\n<pre>"
      << html_escape(r.case_source) << "</pre>\n</details>\n</section>\n";
    if (!page.index_href.empty())
        o << "<nav><a href=\"" << html_escape(page.index_href) << "\">&larr; all cases (index)</a></nav>\n";
    o << "</body>\n</html>\n";
    return o.str();
}

std::string render_markdown(const Report& r, const PageContext& page) {
    const Verdict v = r.verdict();
    const Headline head = headline(r);
    std::ostringstream o;
    auto cell = [](const std::string& s) {
        std::string t;
        for (char c : text_with_short_numbers(s)) t += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
        return t;
    };
    o << "# " << r.verifier << " / " << r.case_name << ": **" << to_string(v) << "**\n\n";
    if (!page.index_href.empty()) o << "[all cases (index)](" << page.index_href << ")\n\n";
    o << text_with_short_numbers(head.sentence) << "\n\n";
    o << "Why this verdict: " << text_with_short_numbers(r.verdict_reason()) << "\n\n";
    if (r.expected) o << "Expected: " << to_string(*r.expected) << (*r.expected == v ? " (as expected)" : " (MISMATCH)") << "\n\n";
    if (!page.recheck_summary.empty()) o << "Re-checked (flowcert check): " << page.recheck_summary << "\n\n";
    o << "**Claim** (" << r.claim.paper << ", " << r.claim.locator << "): " << r.claim.paper_statement << "\n\n";
    o << "**Proven by this run**: " << r.claim.proven_statement << "\n\n";
    const auto& checks = r.checks();
    for (Role role : {Role::hypothesis, Role::step, Role::conclusion, Role::evidence}) {
        std::size_t n = 0;
        for (const auto& c : checks) n += c.role == role;
        if (n == 0) continue;
        o << "## " << role_heading(role) << " (" << status_counts(r, role) << ")\n\n";
        if (n > kOpenChecks) o << "<details><summary>" << n << " checks</summary>\n\n";
        o << "| # | check | status | margin | re-check | values | reason |\n|---|---|---|---|---|---|---|\n";
        for (std::size_t i = 0; i < checks.size(); ++i) {
            const Check& c = checks[i];
            if (c.role != role) continue;
            std::string enc;
            for (const auto& e : c.enclosures) enc += (enc.empty() ? "" : "; ") + e.name + " " + enclosure_short(e);
            if (!c.implied_by.empty()) enc += "implied by " + std::to_string(c.implied_by.size()) + " checks";
            o << "| " << i + 1 << " | " << cell(c.name) << " | " << cell(status_text(c, v)) << " | " << margin_text(c) << " | "
              << recheck_text(c, page) << " | " << cell(enc) << " | " << cell(c.reason) << " |\n";
        }
        if (n > kOpenChecks) o << "\n</details>\n";
        o << "\n";
    }
    if (!r.notes().empty()) {
        o << "## Notes\n";
        for (const auto& n : r.notes()) o << "\n- " << text_with_short_numbers(n);
        o << "\n\n";
    }
    o << "Provenance: flowcert " << r.provenance.flowcert_version << " (" << r.provenance.git_commit << "), "
      << r.provenance.compiler << ", " << r.provenance.precision_bits << " bits, case SHA-256 "
      << r.provenance.case_sha256 << ", " << r.provenance.wall_time_seconds << " s; " << r.provenance.self_test << "\n\n"
      << "<details><summary>The case file (embedded exactly)</summary>\n\n```toml\n" << r.case_source
      << (r.case_source.empty() || r.case_source.back() == '\n' ? "" : "\n") << "```\n\n</details>\n";
    return o.str();
}

namespace {
void put(const std::filesystem::path& f, const std::string& text) {
    const auto tmp = f.string() + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary);
        out << text;
        if (!out) throw std::runtime_error("cannot write " + tmp);
    }
    std::filesystem::rename(tmp, f);
}
}  // namespace

WrittenFiles write_report(const Report& r, const std::filesystem::path& dir, const std::string& stem) {
    std::filesystem::create_directories(dir);
    WrittenFiles w{dir / (stem + ".json"), dir / (stem + ".html"), dir / (stem + ".md")};
    put(w.json, to_json(r).dump(2) + "\n");
    put(w.html, render_html(r));
    put(w.markdown, render_markdown(r));
    return w;
}

void write_pages(const Report& r, const std::filesystem::path& dir, const std::string& stem, const PageContext& page) {
    put(dir / (stem + ".html"), render_html(r, page));
    put(dir / (stem + ".md"), render_markdown(r, page));
}

}  // namespace flowcert::cert
