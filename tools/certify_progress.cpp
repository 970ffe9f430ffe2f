#include "certify_progress.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <ostream>
#include <sstream>

namespace flowcert::tools {

namespace fs = std::filesystem;

std::string paper_of(const CaseOutcome& o) {
    const std::string& s = o.rel.find('/') != std::string::npos ? o.rel : o.verifier;
    return s.substr(0, s.find('/'));
}

std::vector<PaperRollup> rollup(const std::vector<CaseOutcome>& outs) {
    std::vector<PaperRollup> r;
    for (const auto& o : outs) {
        const std::string p = paper_of(o);
        auto it = std::find_if(r.begin(), r.end(), [&](const PaperRollup& x) { return x.paper == p; });
        if (it == r.end()) it = r.insert(r.end(), PaperRollup{p});
        ++it->cases;
        it->ok += o.ok;
        ++it->verdicts[o.verdict.empty() ? "NOT RUN" : o.verdict];
        it->wall += o.wall_time;
    }
    return r;
}

int verdict_rank(const std::string& v) {
    static const char* order[] = {"CERTIFIED", "REFUTED", "OUTSIDE_HYPOTHESES", "INCONCLUSIVE", "ERROR"};
    for (int i = 0; i < 5; ++i)
        if (v == order[i]) return i;
    return 5;
}

std::string PaperRollup::verdict_counts() const {
    std::vector<std::pair<std::string, int>> v(verdicts.begin(), verdicts.end());
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return verdict_rank(a.first) < verdict_rank(b.first); });
    std::string s;
    for (const auto& [name, n] : v) s += (s.empty() ? "" : ", ") + std::to_string(n) + " " + name;
    return s;
}

std::map<std::string, double> previous_wall_times(const fs::path& out_dir) {
    std::map<std::string, double> previous;
    try {
        std::ifstream in(out_dir / "summary.json", std::ios::binary);
        if (!in) return previous;
        for (const auto& row : nlohmann::json::parse(std::string(std::istreambuf_iterator<char>(in), {})))
            previous[row.at("case").get<std::string>()] = row.at("wall_time_seconds").get<double>();
    } catch (const std::exception&) {
        previous.clear();  // no usable estimate
    }
    return previous;
}

std::string duration_text(double s) {
    char b[32];
    if (!std::isfinite(s) || s < 0) return "?";
    if (s < 60) std::snprintf(b, sizeof b, "%.1f s", s);
    else if (s < 3600) std::snprintf(b, sizeof b, "%dm%02ds", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
    else std::snprintf(b, sizeof b, "%dh%02dm", static_cast<int>(s) / 3600, static_cast<int>(s) / 60 % 60);
    return b;
}

namespace {

// The last line of a verifier's log that is one of its progress lines ("[verifier] ..."), or "".
std::string last_progress_line(const fs::path& log) {
    std::ifstream in(log, std::ios::binary | std::ios::ate);
    if (!in) return "";
    const std::streamoff size = in.tellg(), from = std::max<std::streamoff>(0, size - 4096);
    in.seekg(from);
    std::string tail(static_cast<std::size_t>(size - from), '\0');
    in.read(tail.data(), static_cast<std::streamsize>(tail.size()));
    std::string last;
    std::istringstream is(tail);
    for (std::string l; std::getline(is, l);) {
        if (!l.empty() && l.back() == '\r') l.pop_back();
        if (!l.empty() && l.front() == '[') last = l;
    }
    return last.size() > 200 ? last.substr(0, 200) + " ..." : last;
}

}  // namespace

CertifyProgress::CertifyProgress(std::ostream* sink, const std::vector<CaseOutcome>& outs, std::map<std::string, double> previous)
    : sink_(sink), total_(outs.size()), previous_(std::move(previous)) {
    for (const auto& o : outs) pending_.push_back(o.rel);
}

void CertifyProgress::started(const CaseOutcome& o, const fs::path& log) {
    std::lock_guard<std::mutex> lock(mu_);
    const auto now = Clock::now();
    running_[o.rel] = Running{now, now, log};
}

double CertifyProgress::estimate_locked(const std::string& rel) const {
    if (const auto it = previous_.find(rel); it != previous_.end() && it->second >= 0) return it->second;
    return done_ > 0 ? done_work_ / static_cast<double>(done_) : 0;
}

std::string CertifyProgress::finished_line(const CaseOutcome& o, double elapsed) {
    std::lock_guard<std::mutex> lock(mu_);
    ++done_;
    // the case's time as this run saw it (verifier, re-check and pages), else the verifier's own
    double took = o.wall_time;
    if (const auto it = running_.find(o.rel); it != running_.end()) {
        took = std::chrono::duration<double>(Clock::now() - it->second.since).count();
        running_.erase(it);
    }
    done_work_ += took;
    pending_.erase(std::remove(pending_.begin(), pending_.end(), o.rel), pending_.end());
    std::string line = "[" + std::to_string(done_) + "/" + std::to_string(total_) + ", " + duration_text(elapsed) + " elapsed";
    if (done_ < total_) {
        double left_work = 0;
        for (const auto& rel : pending_) left_work += estimate_locked(rel);
        // the run's rate: finished case time per second of wall time (about the number of jobs)
        const double rate = elapsed > 0 && done_work_ > 0 ? done_work_ / elapsed : 1;
        line += ", about " + duration_text(left_work / std::max(rate, 1e-9)) + " left";
    }
    return line + "] " + o.rel + ": " + (o.verdict.empty() ? std::string("NOT RUN") : o.verdict) + " in " +
           duration_text(took);
}

void CertifyProgress::finished(const CaseOutcome& o) {
    const double elapsed = std::chrono::duration<double>(Clock::now() - t0_).count();
    const std::string line = finished_line(o, elapsed);
    if (sink_) *sink_ << line << std::endl;
}

void CertifyProgress::heartbeat(double after, double every) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!sink_) return;
    const auto now = Clock::now();
    for (auto& [rel, r] : running_) {
        const double running = std::chrono::duration<double>(now - r.since).count();
        if (running < after || std::chrono::duration<double>(now - r.last_said).count() < every) continue;
        r.last_said = now;
        std::string line = "  ... still running: " + rel + " for " + duration_text(running);
        if (const auto it = previous_.find(rel); it != previous_.end())
            line += " (" + duration_text(it->second) + " in the previous run)";
        if (const std::string p = last_progress_line(r.log); !p.empty()) line += "; " + p;
        *sink_ << line << std::endl;
    }
}

void CertifyProgress::summary(const std::vector<CaseOutcome>& outs) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!sink_) return;
    const double elapsed = std::chrono::duration<double>(Clock::now() - t0_).count();
    std::ostringstream s;
    int cases = 0, ok = 0;
    for (const auto& r : rollup(outs)) {
        char b[64];
        std::snprintf(b, sizeof b, "  %-6s %3d cases, %3d as expected, ", r.paper.c_str(), r.cases, r.ok);
        s << b << r.verdict_counts() << "; " << duration_text(r.wall) << " of case time\n";
        cases += r.cases;
        ok += r.ok;
    }
    char b[64];
    std::snprintf(b, sizeof b, "  %-6s %3d cases, %3d as expected, ", "all", cases, ok);
    *sink_ << "by paper:\n" << s.str() << b << "in " << duration_text(elapsed) << " wall time" << std::endl;
}

}  // namespace flowcert::tools
