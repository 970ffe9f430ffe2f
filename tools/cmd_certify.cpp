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

#include "certify_index.hpp"
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

using flowcert::tools::read_text;
using flowcert::tools::render_case_pages;
using flowcert::tools::run_process;
using flowcert::tools::write_index;
using flowcert::tools::self_dir;

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
        o.message = o.file.string() + ":" + std::to_string(h.verifier_line) + ": key 'verifier': no verifier '" +
                    h.verifier + "' (looked for " + exe.string() + ")";
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
    // without --quiet: the verifier's progress lines go to its log (certify shows the last one of a
    // long case); the certificate records the command line, nothing of the progress
    std::vector<std::string> args{"--case", o.file.string(), "--out", dir.string()};
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

// A thread that lets a long-running case say so about once a second (with its verifier's last progress
// line), joined when the run ends.
class Heartbeat {
public:
    explicit Heartbeat(flowcert::tools::CertifyProgress& progress)
        : thread_([this, &progress] {
              while (running_) {
                  for (int k = 0; k < 10 && running_; ++k) std::this_thread::sleep_for(std::chrono::milliseconds(100));
                  progress.heartbeat();
              }
          }) {}
    ~Heartbeat() {
        running_ = false;
        thread_.join();
    }

private:
    std::atomic<bool> running_{true};
    std::thread thread_;
};

// The options of `flowcert certify`.
struct CertifyOptions {
    std::string cases_dir = "cases", out_dir = "reports", label, verifiers_dir;
    std::vector<std::string> only;
    unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
    double timeout = 0;
    long precision = 0;
    bool quiet = false, mpi = false, no_sweep_split = false, check = false;
};

void add_certify_options(CLI::App& app, CertifyOptions& c) {
    app.add_option("--cases", c.cases_dir, "directory of case files (searched recursively for *.toml)");
    app.add_option("--only", c.only, "run only cases matching this glob (on 'paper/name', 'name' or the file name); repeatable");
    app.add_option("--label", c.label,
                   "run only cases with this label (fast, slow, paper); without it and without --only, every case "
                   "except those labelled paper (paper-size runs of 30 minutes or more)");
    app.add_option("--out", c.out_dir, "report directory (index.html, <paper>/<case>.{json,html,md,log})");
    app.add_option("--jobs,-j", c.jobs, "cases run in parallel")->check(CLI::Range(1u, 256u));
    app.add_option("--verifiers", c.verifiers_dir, "directory of verifier executables (default: ../verifiers next to flowcert)");
    app.add_option("--timeout", c.timeout, "seconds before a verifier is killed (0: no limit)");
    app.add_option("--precision", c.precision, "passed to every verifier as --precision");
    app.add_flag("--quiet", c.quiet, "print only mismatches and the summary");
    app.add_flag("--check", c.check,
                 "re-check every certificate written (flowcert check --rerun: a fresh run of the verifier on the "
                 "embedded case, compared check by check); a rejected certificate is a mismatch");
    app.add_flag("--mpi", c.mpi,
                 "distribute the cases over the MPI ranks (mpirun -np N flowcert certify --mpi ...); rank 0 writes "
                 "the reports; --jobs is then per rank (default 1)");
    app.add_flag("--no-sweep-split", c.no_sweep_split,
                 "with --mpi: run every case whole (by default the points of a sweep case are distributed too)");
}

// The cases of the run: every *.toml under the case directory that --only and --label select (without
// --label and --only, every case except the paper-size runs). Empty: nothing selected.
std::vector<Outcome> select_cases(const CertifyOptions& c) {
    const std::string& cases_dir = c.cases_dir;
    const std::vector<std::string>& only = c.only;
    const std::string& label = c.label;
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

    return outs;
}

// The index page, the verdict table and the exit code: 0 all as expected, 1 a mismatch, 3 a case file
// that cannot be read or names no verifier.
int finish_certify(const std::vector<Outcome>& outs, const std::string& out_dir, flowcert::tools::CertifyProgress& progress) {
    namespace ec = cert::exit_code;
    write_index(outs, out_dir);
    std::size_t ok = 0;
    std::printf("\n%-26s %-46s %-14s %-14s %-10s %s\n", "verifier", "case", "verdict", "expected", "result", "time(s)");
    for (const auto& o : outs) {
        ok += o.ok;
        std::printf("%-26s %-46s %-14s %-14s %-10s %.2f\n", o.verifier.c_str(), o.rel.c_str(), o.verdict.c_str(),
                    o.expect.c_str(), o.ok ? "ok" : "MISMATCH", o.wall_time);
    }
    std::printf("\n%zu/%zu cases as expected; index: %s\n", ok, outs.size(), (fs::path(out_dir) / "index.html").c_str());
    std::fflush(stdout);
    progress.summary(outs);
    // a case file that cannot be read or names no verifier is bad input, not a mismatch
    bool bad = false;
    for (const auto& o : outs)
        if (!o.ok && (o.verdict == "BAD INPUT" || o.verdict == "MISSING VERIFIER")) {
            std::cerr << "flowcert certify: " << o.message << "\n";
            bad = true;
        }
    if (bad) return ec::bad_input;
    return ok == outs.size() ? 0 : 1;
}

int run_certify(int argc, char** argv) {
    namespace ec = cert::exit_code;
    CLI::App app{"Run every verifier on every case, write certificates and an index page, and compare the\n"
                 "verdicts with the cases' expectations. Exit 0 if all are as expected, 1 otherwise."};
    CertifyOptions c;
    add_certify_options(app, c);
    const std::string &cases_dir = c.cases_dir, &out_dir = c.out_dir, &verifiers_dir = c.verifiers_dir;
    unsigned& jobs = c.jobs;
    const double& timeout = c.timeout;  // references: read after the parse below
    const long& precision = c.precision;
    const bool& quiet = c.quiet;
    const bool& mpi = c.mpi;
    const bool& no_sweep_split = c.no_sweep_split;
    const bool& check = c.check;
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
    std::unique_ptr<flowcert::tools::CertifyProgress> progress;  // set once the cases are selected (rank 0)
    auto run_one = [&](Outcome& o) {
        if (progress) progress->started(o, fs::path(out_dir) / (o.rel + ".log"));
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
        if (progress) progress->finished(o);
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

    std::vector<Outcome> outs = select_cases(c);
    if (outs.empty()) {
        std::cerr << "flowcert certify: no case file selected under '" << cases_dir << "'\n";
        return ec::bad_input;
    }

    progress = std::make_unique<flowcert::tools::CertifyProgress>(quiet ? nullptr : &std::cerr, outs,
                                                                   flowcert::tools::previous_wall_times(out_dir));
    const Heartbeat heartbeat(*progress);  // a case running long says so now and then
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

    return finish_certify(outs, out_dir, *progress);
}

}  // namespace

FLOWCERT_REGISTER_COMMAND(certify, "run every verifier on every case; certificates, index page, verdicts vs expectations",
                          run_certify);
