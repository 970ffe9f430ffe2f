// `flowcert certify`: runs the verifier named by every case file, in parallel over cases,
// writes one certificate per case plus an index page, and compares verdicts with the
// cases' expectations (exit 0 only if every selected case came out as expected).
#include <flowcert/cert.hpp>

#include <CLI/CLI.hpp>
#include <fcntl.h>
#include <fnmatch.h>
#include <nlohmann/json.hpp>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <sstream>
#include <thread>

#include "certify_mpi.hpp"
#include "certify_progress.hpp"
#include "process.hpp"
#include "recheck.hpp"
#include "command_registry.hpp"

extern char** environ;

namespace {

namespace fs = std::filesystem;
namespace cert = flowcert::cert;

using Outcome = flowcert::tools::CaseOutcome;  // shared with the MPI path (certify_mpi.hpp)

using flowcert::tools::run_process;
using flowcert::tools::self_dir;

std::string read_text(const fs::path& f, std::size_t cap = 1 << 20) {
    std::ifstream in(f, std::ios::binary);
    std::string s(cap, '\0');
    in.read(s.data(), static_cast<std::streamsize>(cap));
    s.resize(static_cast<std::size_t>(in.gcount()));
    return s;
}

std::string last_lines(const std::string& text, int n) {
    std::vector<std::string> lines;
    std::istringstream is(text);
    for (std::string l; std::getline(is, l);)
        if (!l.empty()) lines.push_back(l);
    std::string out;
    for (std::size_t i = lines.size() > static_cast<std::size_t>(n) ? lines.size() - n : 0; i < lines.size(); ++i)
        out += (out.empty() ? "" : " | ") + lines[i];
    return out;
}

// The verifier executable of a case, or nullopt (and o.verdict / o.message say why).
std::optional<fs::path> case_verifier(Outcome& o, const fs::path& verifiers) {
    cert::CaseHeader h;
    try {
        h = cert::read_case_header(o.file);
    } catch (const cert::CaseError& e) {
        o.verdict = "BAD INPUT";
        o.message = e.what();
        return std::nullopt;
    }
    o.verifier = h.verifier;
    o.expect = std::string(cert::to_string(h.expect));
    static const std::regex name_re("[A-Za-z0-9_]+/[A-Za-z0-9_]+");
    const fs::path exe = verifiers / h.verifier;
    if (!std::regex_match(h.verifier, name_re) || !fs::exists(exe)) {
        o.verdict = "MISSING VERIFIER";
        o.message = "no verifier '" + h.verifier + "' (looked for " + exe.string() + ")";
        return std::nullopt;
    }
    return exe;
}

// `VERIFIER --case F --sweep-count`: the number of sweep points (0 if the verifier has no sweep,
// does not answer within `probe_timeout` seconds, or fails; the case then runs whole).
[[maybe_unused]] std::size_t sweep_count(Outcome& o, const fs::path& verifiers, const fs::path& out, long precision) {
    const auto exe = case_verifier(o, verifiers);
    o.verdict.clear();
    o.message.clear();
    if (!exe) return 0;
    constexpr double probe_timeout = 5;  // flowcert verifiers answer in well under a second
    const fs::path dir = out / ".sweep" / "count";
    fs::create_directories(dir);
    const fs::path log = dir / (std::regex_replace(o.rel, std::regex("/"), "+") + ".txt");
    std::vector<std::string> args{"--case", o.file.string(), "--quiet", "--sweep-count"};
    if (precision > 0) args.insert(args.end(), {"--precision", std::to_string(precision)});
    const int rc = run_process(*exe, args, log, probe_timeout);
    const std::string text = read_text(log, 4096);
    std::error_code ec;
    fs::remove(log, ec);
    static const std::regex count_re("([0-9]{1,12})\n");
    std::smatch m;
    if (rc != 0 || !std::regex_match(text, m, count_re)) return 0;
    return std::stoull(m[1].str());
}

// `VERIFIER --case F --sweep-points LIST --sweep-out PART` (one part of a split sweep).
[[maybe_unused]] void run_part(const Outcome& c, const std::string& points, const fs::path& part, flowcert::tools::SweepPartResult& p,
              const fs::path& verifiers, double timeout, long precision) {
    const auto t0 = std::chrono::steady_clock::now();
    Outcome o = c;
    const auto exe = case_verifier(o, verifiers);
    if (!exe) {
        p.verdict = o.verdict;
        p.message = o.message;
        return;
    }
    fs::create_directories(part.parent_path());
    fs::remove(part);
    const fs::path log = part.string() + ".log";
    std::vector<std::string> args{"--case", o.file.string(), "--quiet", "--sweep-points", points, "--sweep-out", part.string()};
    if (precision > 0) args.insert(args.end(), {"--precision", std::to_string(precision)});
    const int rc = run_process(*exe, args, log, timeout);
    p.wall_time = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const std::string logtext = read_text(log);
    std::error_code ec;
    fs::remove(log, ec);
    namespace xc = cert::exit_code;
    p.ok = rc == 0 && fs::is_regular_file(part, ec);
    if (p.ok) return;
    p.verdict = rc == xc::bad_input ? "BAD INPUT" : rc == xc::environment ? "ENVIRONMENT" : rc == -1000 ? "TIMEOUT" : "CRASHED";
    p.message = rc == -1000 ? "killed after " + std::to_string(timeout) + " s" : last_lines(logtext, 3);
    if (rc < 0 && rc > -1000) p.message = "terminated by signal " + std::to_string(-rc) + ": " + p.message;
    if (rc == 0) p.message = "exit 0 but no part file; " + p.message;
}

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

// The case's pages written again by certify, which knows where the index is and what --check
// found (the verifier wrote them without either). A failure keeps the verifier's pages.
void render_case_pages(const Outcome& o, const fs::path& out, const fs::path& json, const nlohmann::json& j) {
    try {
        cert::PageContext page;
        for (char c : o.rel)
            if (c == '/') page.index_href += "../";
        page.index_href += "index.html#" + o.rel;
        const nlohmann::json sidecar = read_sidecar(out, o.rel);
        if (sidecar.is_object()) {
            for (const auto& c : sidecar.at("checks")) page.rederived[c.at("name")] = c.at("rederived");
            const std::string summary = sidecar.at("summary");
            page.recheck_summary = summary.substr(0, summary.find('\n'));
            page.recheck_accepted = sidecar.at("accepted");
        }
        cert::write_pages(cert::report_from_json(j), json.parent_path(), json.stem().string(), page);
    } catch (const std::exception&) {
        // the verifier's own pages stay
    }
}

// `--check`: the certificate re-validated by a fresh run (tools/recheck.hpp), the result in the
// sidecar <case>.check.json; a rejected certificate is the case's outcome "CHECK REJECTED".
void recheck_case(Outcome& o, const fs::path& json, const fs::path& verifiers) {
    const fs::path sidecar = json.parent_path() / (json.stem().string() + ".check.json");
    try {
        const nlohmann::json j = nlohmann::json::parse(read_text(json, std::size_t{256} << 20));
        const auto r = flowcert::tools::recheck(j, {.mode = flowcert::tools::RerunMode::always, .verifiers = verifiers});
        std::ofstream(sidecar) << flowcert::tools::recheck_json(r).dump(2) << "\n";
        if (!r.result.accepted) {
            o.verdict = "CHECK REJECTED";
            o.message = r.result.problems.empty() ? r.result.summary() : r.result.problems.front();
        }
    } catch (const std::exception& e) {
        o.verdict = "CHECK REJECTED";
        o.message = std::string("flowcert check: ") + e.what();
    }
}

void run_case(Outcome& o, const fs::path& verifiers, const fs::path& out, double timeout, long precision,
              const std::vector<std::string>& extra_args = {}, bool check = false) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto exe_found = case_verifier(o, verifiers);
    if (!exe_found) return;
    const fs::path exe = *exe_found;
    const fs::path dir = (out / o.rel).parent_path();
    fs::create_directories(dir);
    const fs::path stem = o.file.stem();
    const fs::path log = dir / (stem.string() + ".log");
    const fs::path json = dir / (stem.string() + ".json");
    fs::remove(json);  // never report a stale certificate
    std::error_code rm_ec;
    fs::remove(dir / (stem.string() + ".check.json"), rm_ec);
    std::vector<std::string> args{"--case", o.file.string(), "--out", dir.string(), "--quiet"};
    if (precision > 0) args.insert(args.end(), {"--precision", std::to_string(precision)});
    args.insert(args.end(), extra_args.begin(), extra_args.end());  // --sweep-merge PART... (not recorded)
    const int rc = run_process(exe, args, log, timeout);
    o.wall_time = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const std::string logtext = read_text(log);
    namespace ec = cert::exit_code;
    if (rc == ec::bad_input) o.verdict = "BAD INPUT";
    else if (rc == ec::environment) o.verdict = "ENVIRONMENT";
    else if (rc == -1000) o.verdict = "TIMEOUT";
    else if (rc < 0 || rc > ec::outside_hypotheses) o.verdict = "CRASHED";
    if (!o.verdict.empty()) {
        o.message = rc == -1000 ? "killed after " + std::to_string(timeout) + " s" : last_lines(logtext, 3);
        if (rc < 0 && rc > -1000) o.message = "terminated by signal " + std::to_string(-rc) + ": " + o.message;
        return;
    }
    // exit 0, 1, 2 or 5: a certificate must exist and agree with the exit code
    try {
        const nlohmann::json j = nlohmann::json::parse(read_text(json, std::size_t{256} << 20));
        o.report = true;
        o.verdict = j.at("verdict").get<std::string>();
        o.message = j.at("verdict_reason").get<std::string>();
        o.wall_time = j.at("provenance").at("wall_time_seconds").get<double>();
        const auto v = cert::parse_verdict(o.verdict);
        if (!v || cert::exit_code_for(*v) != rc) {
            o.message = "exit code " + std::to_string(rc) + " disagrees with the certificate's verdict " + o.verdict;
            o.verdict = "CRASHED";
        } else {
            if (check) recheck_case(o, json, verifiers);
            render_case_pages(o, out, json, j);
        }
    } catch (const std::exception& e) {
        o.verdict = "CRASHED";
        o.message = "exit code " + std::to_string(rc) + " but no readable certificate (" + e.what() + "); " + last_lines(logtext, 2);
    }
}

// What the index shows of a case's certificate (read once per certificate file).
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
        const cert::Report r = cert::report_from_json(nlohmann::json::parse(read_text(json, std::size_t{256} << 20)));
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

std::string truncated(const std::string& s, std::size_t n) {
    if (s.size() <= n) return s;
    std::size_t cut = s.rfind(' ', n);
    if (cut == std::string::npos || cut < n / 2) cut = n;
    return s.substr(0, cut) + " \u2026";
}

std::string exact_double(double v) {
    char b[40];
    std::snprintf(b, sizeof b, "%.17g", v);
    return b;
}

std::string seconds_text(double s) {
    char b[32];
    std::snprintf(b, sizeof b, s < 10 ? "%.2f s" : s < 600 ? "%.1f s" : "%.0f s", s);
    return b;
}

// `banner` (MPI runs only): says the run is INCOMPLETE while it runs or after it was ended early.
// The index groups the cases by paper and theorem (verifier); each row says in one sentence what
// was proven (or which hypothesis failed, or what was not proven) and links to the case page,
// which links back (render_case_pages).
void write_index(const std::vector<Outcome>& outs, const fs::path& out, const std::string& banner = "") {
    using cert::html_escape;
    using cert::html_with_short_numbers;
    int ok = 0;
    for (const auto& o : outs) ok += o.ok;
    // papers in case-file order, verifiers in order of first appearance within a paper
    std::vector<std::string> papers;
    std::map<std::string, std::vector<std::string>> verifiers;
    std::map<std::string, std::vector<const Outcome*>> cases;
    std::map<std::string, std::optional<Glance>> glances;
    std::map<std::string, std::string> paper_names, locators, statements;
    for (const auto& o : outs) {
        const std::string p = flowcert::tools::paper_of(o), v = o.verifier.empty() ? "(unknown verifier)" : o.verifier;
        if (std::find(papers.begin(), papers.end(), p) == papers.end()) papers.push_back(p);
        auto& vs = verifiers[p];
        if (std::find(vs.begin(), vs.end(), v) == vs.end()) vs.push_back(v);
        cases[v].push_back(&o);
        auto& g = glances[o.rel];
        if (o.report) g = glance_of(out / (o.rel + ".json"));
        if (g) {
            paper_names.emplace(p, g->paper);
            locators.emplace(v, g->locator);
            statements.emplace(v, g->paper_statement);
        }
    }
    const auto rolls = flowcert::tools::rollup(outs);
    std::ostringstream h;
    h << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>flowcert certify: "
      << (banner.empty() ? "" : "INCOMPLETE: ") << ok << "/" << outs.size() << " as expected</title>\n<style>"
         "body{font-family:sans-serif;margin:1.5em auto;max-width:1400px;padding:0 1.5em;color:#222}"
         "table{border-collapse:collapse;margin:0.3em 0 1em}td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px;"
         "vertical-align:top;text-align:left}th{background:#f3f3f3}h2{border-bottom:1px solid #ddd;margin-top:1.4em}"
         "h3{font-size:1.05em;margin:1em 0 0.2em}.muted{color:#666;font-size:12px}.ok{color:#2e7d32}"
         ".mismatch{color:#c62828;font-weight:bold}.CERTIFIED{color:#2e7d32}.REFUTED{color:#c62828}"
         ".INCONCLUSIVE{color:#ef6c00}.OUTSIDE_HYPOTHESES{color:#455a64}.num{border-bottom:1px dotted #999;cursor:help}"
         "td.sentence{max-width:640px}td.nowrap{white-space:nowrap}tr:target{background:#fff8c4}</style>\n</head>\n<body>\n";
    const auto prov = cert::build_provenance();
    h << "<h1>flowcert certify</h1>\n<p>" << ok << " of " << outs.size() << " cases as expected. flowcert "
      << html_escape(prov.flowcert_version) << " (" << html_escape(prov.git_commit) << "), " << html_escape(prov.compiler)
      << ", " << cert::utc_now_iso8601() << ".</p>\n";
    if (!banner.empty()) h << "<p id=\"incomplete\" class=\"mismatch\">" << html_escape(banner) << "</p>\n";
    h << "<table id=\"rollup\">\n<tr><th>paper</th><th>cases</th><th>as expected</th><th>verdicts</th><th>wall time (sum)</th></tr>\n";
    for (const auto& r : rolls)
        h << "<tr><td><a href=\"#paper-" << html_escape(r.paper) << "\">" << html_escape(paper_names.count(r.paper) ? paper_names[r.paper] : r.paper)
          << "</a></td><td>" << r.cases << "</td><td class=\"" << (r.ok == r.cases ? "ok" : "mismatch") << "\">" << r.ok
          << "</td><td>" << html_escape(r.verdict_counts()) << "</td><td>" << seconds_text(r.wall) << "</td></tr>\n";
    h << "</table>\n";
    for (const auto& p : papers) {
        h << "<section class=\"paper\" id=\"paper-" << html_escape(p) << "\">\n<h2>"
          << html_escape(paper_names.count(p) && paper_names[p] != p ? paper_names[p] + " (" + p + ")" : p) << "</h2>\n";
        for (const auto& v : verifiers[p]) {
            h << "<h3 id=\"verifier-" << html_escape(v) << "\">" << html_escape(v)
              << (locators.count(v) ? " &mdash; " + html_escape(locators[v]) : std::string()) << "</h3>\n";
            if (statements.count(v) && !statements[v].empty())
                h << "<p class=\"muted\" title=\"" << html_escape(statements[v]) << "\">" << html_escape(truncated(statements[v], 240))
                  << "</p>\n";
            h << "<table class=\"cases\">\n<tr><th>case</th><th>verdict</th><th>what this run shows</th>"
                 "<th>decisive check: margin</th><th>re-derived</th><th>time</th><th>files</th></tr>\n";
            for (const Outcome* o : cases[v]) {
                const auto& g = glances[o->rel];
                const std::string sentence = g ? g->sentence : o->message;
                h << "<tr class=\"case\" id=\"" << html_escape(o->rel) << "\"><td>";
                const std::string stem = o->rel.substr(o->rel.rfind('/') + 1);
                if (o->report) h << "<a href=\"" << html_escape(o->rel) << ".html\">" << html_escape(stem) << "</a>";
                else h << html_escape(stem);
                h << "</td><td><span class=\"" << html_escape(o->verdict) << "\">" << html_escape(o->verdict) << "</span><br>"
                  << (o->ok ? "<span class=\"ok\">as expected</span>"
                            : "<span class=\"mismatch\">MISMATCH (expected " + html_escape(o->expect.empty() ? "?" : o->expect) + ")</span>")
                  << "</td><td class=\"sentence\" title=\"" << html_escape(sentence) << "\">"
                  << html_with_short_numbers(truncated(sentence, 260)) << "</td><td>";
                if (g && !g->decisive.empty()) {
                    h << html_escape(truncated(g->decisive, 70));
                    if (g->margin)
                        h << ": <span class=\"num\" title=\"margin " << exact_double(*g->margin) << "\">"
                          << cert::short_number(*g->margin) << "</span>";
                }
                h << "</td><td class=\"nowrap\">" << html_escape(rederived_text(read_sidecar(out, o->rel))) << "</td><td class=\"nowrap\">"
                  << seconds_text(o->wall_time) << "</td><td>";
                if (o->report)
                    h << "<a href=\"" << html_escape(o->rel) << ".json\">json</a> <a href=\"" << html_escape(o->rel) << ".md\">md</a> ";
                h << "<a href=\"" << html_escape(o->rel) << ".log\">log</a></td></tr>\n";
            }
            h << "</table>\n";
        }
        h << "</section>\n";
    }
    h << "<p class=\"muted\">Margin: the slack of the check the verdict turns on (for CERTIFIED the proven check with the "
         "smallest margin), relative to its bound; hover a number for its exact value, open a case for its enclosures. "
         "Re-derived: decisive checks recomputed by the fresh run of <code>flowcert certify --check</code>.</p>\n"
         "</body>\n</html>\n";
    fs::create_directories(out);
    std::ofstream(out / "index.html") << h.str();

    std::ofstream md(out / "index.md");
    md << "# flowcert certify: " << (banner.empty() ? "" : "INCOMPLETE: ") << ok << "/" << outs.size() << " as expected\n\n"
       << (banner.empty() ? "" : "**" + banner + "**\n\n")
       << "| paper | cases | as expected | verdicts | wall time (sum) |\n|---|---|---|---|---|\n";
    for (const auto& r : rolls)
        md << "| " << r.paper << " | " << r.cases << " | " << r.ok << " | " << r.verdict_counts() << " | " << seconds_text(r.wall) << " |\n";
    auto cell = [](const std::string& s) {
        std::string t;
        for (char c : cert::text_with_short_numbers(s)) t += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
        return t;
    };
    for (const auto& p : papers) {
        md << "\n## " << (paper_names.count(p) && paper_names[p] != p ? paper_names[p] + " (" + p + ")" : p) << "\n";
        for (const auto& v : verifiers[p]) {
            md << "\n### " << v << (locators.count(v) ? " (" + locators[v] + ")" : std::string()) << "\n\n"
               << "| case | verdict | result | what this run shows | margin | time |\n|---|---|---|---|---|---|\n";
            for (const Outcome* o : cases[v]) {
                const auto& g = glances[o->rel];
                md << "| " << (o->report ? "[" + o->rel + "](" + o->rel + ".md)" : o->rel) << " | " << o->verdict << " | "
                   << (o->ok ? "as expected" : "**MISMATCH** (expected " + o->expect + ")") << " | "
                   << cell(truncated(g ? g->sentence : o->message, 260)) << " | "
                   << (g && g->margin ? cert::short_number(*g->margin) : std::string()) << " | " << seconds_text(o->wall_time) << " |\n";
            }
        }
    }
    nlohmann::json summary = nlohmann::json::array();
    for (const auto& o : outs) {
        const auto& g = glances[o.rel];
        summary.push_back({{"case", o.rel}, {"verifier", o.verifier}, {"paper", flowcert::tools::paper_of(o)}, {"verdict", o.verdict},
                           {"expect", o.expect}, {"as_expected", o.ok}, {"wall_time_seconds", o.wall_time},
                           {"message", o.message}, {"sentence", g ? g->sentence : o.message},
                           {"margin", g && g->margin ? nlohmann::json(*g->margin) : nlohmann::json(nullptr)},
                           {"rederived", rederived_text(read_sidecar(out, o.rel))}});
    }
    std::ofstream(out / "summary.json") << summary.dump(2) << "\n";
}

int run_certify(int argc, char** argv) {
    namespace ec = cert::exit_code;
    CLI::App app{"Run every verifier on every case, write certificates and an index page, and compare the\n"
                 "verdicts with the cases' expectations. Exit 0 if all are as expected, 1 otherwise."};
    std::string cases_dir = "cases", out_dir = "reports", label, verifiers_dir;
    std::vector<std::string> only;
    unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
    double timeout = 0;
    long precision = 0;
    bool quiet = false, mpi = false, no_sweep_split = false, check = false;
    app.add_option("--cases", cases_dir, "directory of case files (searched recursively for *.toml)");
    app.add_option("--only", only, "run only cases matching this glob (on 'paper/name', 'name' or the file name); repeatable");
    app.add_option("--label", label,
                   "run only cases with this label (fast, slow, paper); without it and without --only, every case "
                   "except those labelled paper (paper-size runs of 30 minutes or more)");
    app.add_option("--out", out_dir, "report directory (index.html, <paper>/<case>.{json,html,md,log})");
    app.add_option("--jobs,-j", jobs, "cases run in parallel")->check(CLI::Range(1u, 256u));
    app.add_option("--verifiers", verifiers_dir, "directory of verifier executables (default: ../verifiers next to flowcert)");
    app.add_option("--timeout", timeout, "seconds before a verifier is killed (0: no limit)");
    app.add_option("--precision", precision, "passed to every verifier as --precision");
    app.add_flag("--quiet", quiet, "print only mismatches and the summary");
    app.add_flag("--check", check,
                 "re-check every certificate written (flowcert check --rerun: a fresh run of the verifier on the "
                 "embedded case, compared check by check); a rejected certificate is a mismatch");
    app.add_flag("--mpi", mpi,
                 "distribute the cases over the MPI ranks (mpirun -np N flowcert certify --mpi ...); rank 0 writes "
                 "the reports; --jobs is then per rank (default 1)");
    app.add_flag("--no-sweep-split", no_sweep_split,
                 "with --mpi: run every case whole (by default the points of a sweep case are distributed too)");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : ec::bad_input;
    }
    if (!mpi && flowcert::tools::launched_ranks() > 1) {
        std::cerr << "flowcert certify: started as one of " << flowcert::tools::launched_ranks()
                  << " MPI ranks without --mpi (every rank would run every case); add --mpi\n";
        return ec::bad_input;
    }
#if defined(FLOWCERT_HAVE_MPI)
    std::unique_ptr<flowcert::tools::MpiCertify> session;
    if (mpi) {
        if (app.count("--jobs") == 0) jobs = 1;  // one case per rank: ranks are usually one per core
        session = std::make_unique<flowcert::tools::MpiCertify>(&argc, &argv);
    }
#else
    if (mpi) {
        std::cerr << "flowcert certify: --mpi: this flowcert was built without MPI (install libopenmpi-dev and "
                     "openmpi-bin, then reconfigure with -DFLOWCERT_MPI=ON)\n";
        return ec::environment;
    }
#endif
    const fs::path verifiers =
        fs::weakly_canonical(verifiers_dir.empty() ? self_dir() / ".." / "verifiers" : fs::path(verifiers_dir));
    // One case through the verifier subprocess path; every failure becomes the case's outcome.
    auto run_one = [&](Outcome& o) {
        try {
            run_case(o, verifiers, out_dir, timeout, precision, {}, check);
        } catch (const std::exception& e) {
            o.verdict = "CRASHED";
            o.message = e.what();
        }
        o.ok = !o.expect.empty() && o.verdict == o.expect;
    };
    std::mutex print;
    auto print_outcome = [&](const Outcome& o) {
        std::lock_guard<std::mutex> lock(print);
        if (!quiet || !o.ok)
            std::cout << (o.ok ? "  ok        " : "  MISMATCH  ") << o.rel << ": " << o.verdict
                      << (o.ok ? "" : " (expected " + (o.expect.empty() ? std::string("?") : o.expect) + "): " + o.message)
                      << std::endl;
    };
#if defined(FLOWCERT_HAVE_MPI)
    const flowcert::tools::MpiCertifyHooks hooks{
        run_one, print_outcome,
        [&](const std::vector<Outcome>& outs, const std::string& banner) { write_index(outs, out_dir, banner); },
        [&](Outcome& o) -> std::size_t {
            try {
                return sweep_count(o, verifiers, out_dir, precision);
            } catch (const std::exception&) {
                return 0;  // run whole
            }
        },
        [&](const Outcome& o, const std::string& points, const fs::path& part, flowcert::tools::SweepPartResult& p) {
            try {
                run_part(o, points, part, p, verifiers, timeout, precision);
            } catch (const std::exception& e) {
                p.ok = false;
                p.verdict = "CRASHED";
                p.message = e.what();
            }
        },
        [&](Outcome& o, const std::vector<fs::path>& parts) {
            std::vector<std::string> extra{"--sweep-merge"};
            for (const auto& f : parts) extra.push_back(f.string());
            try {
                run_case(o, verifiers, out_dir, timeout, precision, extra, check);
            } catch (const std::exception& e) {
                o.verdict = "CRASHED";
                o.message = e.what();
            }
            o.ok = !o.expect.empty() && o.verdict == o.expect;
        }};
    if (session && session->rank() != 0) return session->serve(out_dir, hooks);  // rank 0 does the selection
#endif
    if (!fs::is_directory(cases_dir)) {
        std::cerr << "flowcert certify: no case directory '" << cases_dir << "'\n";
        return ec::bad_input;
    }

    std::vector<Outcome> outs;
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(cases_dir))
        if (e.is_regular_file() && e.path().extension() == ".toml") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
        Outcome o;
        o.file = f;
        o.rel = fs::relative(f, cases_dir).replace_extension().generic_string();
        const std::string base = f.filename().string(), stem = f.stem().string();
        if (!only.empty() && std::none_of(only.begin(), only.end(), [&](const std::string& g) {
                return fnmatch(g.c_str(), o.rel.c_str(), 0) == 0 || fnmatch(g.c_str(), stem.c_str(), 0) == 0 ||
                       fnmatch(g.c_str(), base.c_str(), 0) == 0 || fnmatch(g.c_str(), (o.rel + ".toml").c_str(), 0) == 0;
            }))
            continue;
        // --label L: the cases labelled L; without it every case except the paper-size runs (label
        // `paper`, 30 minutes or more each), unless --only names them.
        if (!label.empty() || only.empty()) {
            try {
                const auto h = cert::read_case_header(f);
                const auto has = [&](const std::string& l) {
                    return std::find(h.labels.begin(), h.labels.end(), l) != h.labels.end();
                };
                if (!label.empty() ? !has(label) : has("paper")) continue;
            } catch (const cert::CaseError&) {
                // keep it: the run reports the bad case file
            }
        }
        outs.push_back(o);
    }
    if (outs.empty()) {
        std::cerr << "flowcert certify: no case file selected under '" << cases_dir << "'\n";
        return ec::bad_input;
    }

#if defined(FLOWCERT_HAVE_MPI)
    if (session) {
        session->distribute(outs, out_dir, jobs, hooks, !no_sweep_split);
    } else
#endif
    {
        std::atomic<std::size_t> next{0};
        auto worker = [&] {
            for (std::size_t i; (i = next++) < outs.size();) {
                run_one(outs[i]);
                print_outcome(outs[i]);
            }
        };
        std::vector<std::thread> pool;
        for (unsigned k = 0; k < std::min<std::size_t>(jobs, outs.size()); ++k) pool.emplace_back(worker);
        for (auto& t : pool) t.join();
    }

    write_index(outs, out_dir);
    std::size_t ok = 0;
    std::printf("\n%-26s %-46s %-14s %-14s %-10s %s\n", "verifier", "case", "verdict", "expected", "result", "time(s)");
    for (const auto& o : outs) {
        ok += o.ok;
        std::printf("%-26s %-46s %-14s %-14s %-10s %.2f\n", o.verifier.c_str(), o.rel.c_str(), o.verdict.c_str(),
                    o.expect.c_str(), o.ok ? "ok" : "MISMATCH", o.wall_time);
    }
    std::printf("\n%zu/%zu cases as expected; index: %s\n", ok, outs.size(), (fs::path(out_dir) / "index.html").c_str());
    return ok == outs.size() ? 0 : 1;
}

}  // namespace

FLOWCERT_REGISTER_COMMAND(certify, "run every verifier on every case; certificates, index page, verdicts vs expectations",
                          run_certify);
