// The shared command line of every verifier (DESIGN.md: verdicts and exit codes).
#include <flowcert/cert.hpp>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <functional>
#include <iostream>
#include <new>
#include <optional>

namespace flowcert::cert {

std::string portable_path(const std::string& path) {
    namespace fs = std::filesystem;
    const fs::path p(path);
    if (!p.is_absolute()) return p.lexically_normal().string();
    std::error_code ec;
    const fs::path rel = p.lexically_relative(fs::current_path(ec));
    if (!ec && !rel.empty() && *rel.begin() != "..") return rel.string();
    return p.filename().string();  // outside the working directory: the machine's path is not recorded
}

std::string portable_argument(const std::string& arg) {
    const auto eq = arg.find('=');
    if (arg.rfind("--", 0) == 0 && eq != std::string::npos && eq + 1 < arg.size() && arg[eq + 1] == '/')
        return arg.substr(0, eq + 1) + portable_path(arg.substr(eq + 1));
    return !arg.empty() && arg[0] == '/' ? portable_path(arg) : arg;
}

namespace {

// The command line every verifier shares.
struct CommandLine {
    std::string case_file, out_dir = ".", export_dir, sweep_points, sweep_out;
    long precision = 0;
    int threads = 2;
    bool json_out = false, quiet = false, sweep_count = false;
    std::vector<std::string> sweep_merge;
};

// "Case file keys ...": the schema as the --help footer lists it.
std::string case_keys_help(const CaseSchema& schema) {
    std::string keys = "Case file keys (besides verifier, expect, labels, description, precision):\n";
    std::function<void(const CaseSchema&, const std::string&)> list = [&](const CaseSchema& s, const std::string& indent) {
        for (const auto& k : s) {
            keys += indent + k.name + " (" + std::string(to_string(k.type)) + (k.required ? "" : ", optional");
            switch (k.constraint) {
                case Constraint::positive: keys += ", > 0"; break;
                case Constraint::nonnegative: keys += ", >= 0"; break;
                case Constraint::unit_interval: keys += ", in [0, 1]"; break;
                case Constraint::nonempty: keys += ", nonempty"; break;
                default: break;
            }
            for (std::size_t i = 0; i < k.choices.size(); ++i) keys += (i ? " | " : "; one of ") + k.choices[i];
            keys += "): " + k.description + "\n";
            if (!k.fields.empty()) list(k.fields, indent + "    ");
        }
    };
    list(schema, "  ");
    return keys;
}

void add_options(CLI::App& app, CommandLine& cl, const VerifierSpec& spec) {
    app.add_option("--case", cl.case_file, "case file (TOML)")->required();
    app.add_option("--out", cl.out_dir, "directory for the certificate (JSON, HTML, Markdown)");
    app.add_option("--precision", cl.precision, "IntervalMp precision in bits (overrides the case)")
        ->check(CLI::Range(2L, 100000L));
    app.add_option("--threads", cl.threads, "worker threads of the engines (default 2; the results do not depend on it)")
        ->check(CLI::Range(1, 256));
    app.add_flag("--json", cl.json_out, "print the certificate JSON on stdout");
    app.add_flag("--quiet", cl.quiet, "no progress lines on stderr");
    {
        const Provenance p = build_provenance();
        app.set_version_flag("--version", spec.name + " (flowcert " + p.flowcert_version + ", " + p.git_commit + ")");
    }
    app.add_option("--export-instance", cl.export_dir,
                   "also write the data / initialization generated from a seed to DIR (.npy + exact JSON)");
    auto* o_count = app.add_flag("--sweep-count", cl.sweep_count, "print the number of sweep points of the case and exit");
    auto* o_points = app.add_option("--sweep-points", cl.sweep_points,
                                    "compute only these sweep points (\"0,3,5-9\"), write them to --sweep-out; no report");
    auto* o_out = app.add_option("--sweep-out", cl.sweep_out, "the sweep part file written by --sweep-points");
    auto* o_merge = app.add_option("--sweep-merge", cl.sweep_merge,
                                   "read the sweep points from these parts instead of computing them; exit 4 if one is "
                                   "missing, duplicated or from another case/build");
    o_points->needs(o_out);
    o_out->needs(o_points);
    o_count->excludes(o_points)->excludes(o_merge);
    o_merge->excludes(o_points);
    app.footer(case_keys_help(spec.schema) +
               "\nExit codes: 0 CERTIFIED, 1 REFUTED, 2 INCONCLUSIVE, 3 bad input, 4 self-test failure or "
               "incomplete sweep merge, 5 internal error, 6 OUTSIDE_HYPOTHESES.");
}

// The command line a certificate records: a merged run stands for the direct run (without the parts),
// and no machine path is kept (portable_argument).
std::string recorded_command_line(int argc, char** argv) {
    std::string command_line;
    for (int i = 0; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--sweep-merge") {
            while (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0) ++i;
            continue;
        }
        if (a.rfind("--sweep-merge=", 0) == 0) continue;
        command_line += (command_line.empty() ? "" : " ") + portable_argument(a);
    }
    return command_line;
}

// The case, validated up front (no report on bad input): nullopt with the exit code in `rc`.
std::optional<Case> load_case(const VerifierSpec& spec, const std::string& case_file, int& rc) {
    std::optional<Case> input;
    try {
        input.emplace(Case::load(case_file, spec.schema));
        if (input->verifier() != spec.name)
            input->fail("verifier", "this case is for verifier '" + input->verifier() + "', but this program is '" +
                                        spec.name + "'");
        if (spec.validate) spec.validate(*input);
        return input;
    } catch (const CaseError& e) {
        std::cerr << spec.name << ": bad case file: " << e.what() << "\n";
        rc = exit_code::bad_input;
    } catch (const std::exception& e) {
        std::cerr << spec.name << ": internal error while reading the case: " << e.what() << "\n";
        rc = exit_code::internal;
    }
    return std::nullopt;
}

// A report with the claim, the case and the provenance filled in.
void start_report(Report& report, const VerifierSpec& spec, const Case& input, const CommandLine& cl, long bits,
                  const std::string& command_line, const std::string& started, const SelfTestResult& st) {
    report.claim = spec.claim;
    report.verifier = spec.name;
    report.case_name = std::filesystem::path(cl.case_file).stem().string();
    report.case_description = input.description();
    report.case_source = input.text();
    report.expected = input.expect();
    report.labels = input.labels();
    report.provenance = build_provenance();
    report.provenance.precision_bits = bits;
    report.provenance.case_file = portable_path(cl.case_file);
    report.provenance.case_sha256 = input.sha256();
    report.provenance.command_line = command_line;
    report.provenance.started_utc = started;
    report.provenance.self_test_passed = st.passed;
    report.provenance.self_test = st.summary();
}

// The body: every exception becomes ERROR with its message. Returns an exit code when the run ends
// without a report (sweep counts and parts, bad input found late, an incomplete merge), else nullopt;
// `internal_error` is set when the report holds an error.
std::optional<int> run_body(const VerifierSpec& spec, Context& ctx, detail::SweepDriver& driver, const CommandLine& cl,
                            bool& internal_error) {
    using SweepMode = detail::SweepDriver::Mode;
    Report& report = ctx.report;
    try {
        spec.run(ctx);
        if (driver.mode == SweepMode::count) {
            std::cout << 0 << "\n";  // the body ran no sweep for this case: one unit
            return 0;
        }
        if (driver.mode == SweepMode::points) {
            std::cerr << spec.name << ": --sweep-points: this case runs no sweep (--sweep-count prints 0)\n";
            return exit_code::bad_input;
        }
        if (driver.mode == SweepMode::merge && !driver.called) {
            std::cerr << spec.name << ": incomplete run, no report: sweep parts given but this case runs no sweep\n";
            return exit_code::environment;
        }
        report.mark_completed();
    } catch (const detail::SweepStop& stop) {
        if (driver.mode == SweepMode::count) {
            std::cout << stop.count << "\n";
        } else {
            std::cout << spec.name << ": " << driver.written << " of " << stop.count << " sweep points -> " << cl.sweep_out
                      << "\n";
        }
        return 0;
    } catch (const SweepMergeError& e) {
        std::cerr << spec.name << ": incomplete run, no report: " << e.what() << "\n";
        return exit_code::environment;
    } catch (const CaseError& e) {
        // bad input found by the body (Case::fail): exit 3 and no report, as for validation
        std::cerr << spec.name << ": bad case file: " << e.what() << "\n";
        return exit_code::bad_input;
    } catch (const std::exception& e) {
        if (driver.mode == SweepMode::count) {  // the case is then run as one unit, which reports the error
            std::cout << 0 << "\n";
            return 0;
        }
        if (driver.mode == SweepMode::points) {
            std::cerr << spec.name << ": --sweep-points: " << e.what() << "\n";
            return dynamic_cast<const detail::SweepUsageError*>(&e) ? exit_code::bad_input : exit_code::internal;
        }
        if (dynamic_cast<const std::bad_alloc*>(&e)) {
            // the machine's limit, not a defect of the case or of the code: no report (the run did
            // not end), exit 4 as for the environment [issue 19: m = 10^7 neurons died of bad_alloc
            // with an ERROR report and exit 5]
            std::cerr << spec.name << ": " << cl.case_file << ": out of memory (" << e.what()
                      << "): this instance needs more memory than this process can get; no report written. "
                         "Try a smaller instance or a machine with more memory.\n";
            return exit_code::environment;
        }
        report.set_error(e.what());
        internal_error = true;
    } catch (...) {
        report.set_error("unknown exception");
        internal_error = true;
    }
    return std::nullopt;
}

// The certificate (JSON, HTML, Markdown) and the exported instance; the exit code of the run.
int write_outputs(const VerifierSpec& spec, const Report& report, const CommandLine& cl, const Case& input,
                  const InstanceExport* exported, bool internal_error) {
    const Verdict v = report.verdict();
    try {
        const WrittenFiles w = write_report(report, cl.out_dir, report.case_name);
        if (cl.json_out) std::cout << to_json(report).dump(2) << "\n";
        else std::cout << to_string(v) << "  " << spec.name << "  " << cl.case_file << "  (" << report.verdict_reason()
                       << ")  -> " << w.html.string() << "\n";
    } catch (const std::exception& e) {
        std::cerr << spec.name << ": cannot write the report: " << e.what() << "\n";
        return exit_code::internal;
    }
    if (exported) {
        try {
            if (exported->empty())
                std::cerr << spec.name << ": --export-instance: this verifier generates no data or initialization from a seed\n";
            else for (const auto& f : exported->write(cl.export_dir, report.case_name, spec.name, input.sha256()))
                std::cerr << spec.name << ": instance -> " << f.string() << "\n";
        } catch (const std::exception& e) {
            std::cerr << spec.name << ": cannot write the instance: " << e.what() << "\n";
            return exit_code::internal;
        }
    }
    if (internal_error) std::cerr << spec.name << ": error: " << *report.error() << "\n";
    return internal_error ? exit_code::internal : exit_code_for(v);
}

}  // namespace

int verifier_main(int argc, char** argv, const VerifierSpec& spec) {
    CLI::App app{spec.name + ": " + spec.summary + "\n" + spec.claim.paper + ", " + spec.claim.locator};
    CommandLine cl;
    add_options(app, cl, spec);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int rc = app.exit(e);
        return rc == 0 ? 0 : exit_code::bad_input;
    }
    const std::string command_line = recorded_command_line(argc, argv);

    // 0. the sweep mode: direct, or a count, parts or a merge of a sweep case
    using SweepMode = detail::SweepDriver::Mode;
    detail::SweepDriver driver;
    driver.mode = cl.sweep_count ? SweepMode::count
                  : !cl.sweep_points.empty() ? SweepMode::points
                  : !cl.sweep_merge.empty() ? SweepMode::merge
                                            : SweepMode::direct;
    if (spec.sweep.empty() && driver.mode == SweepMode::count) {
        std::cout << 0 << "\n";  // no sweep: the case is one unit
        return 0;
    }
    if (spec.sweep.empty() && driver.mode != SweepMode::direct) {
        std::cerr << spec.name << ": this verifier has no sweep (--sweep-points / --sweep-merge)\n";
        return exit_code::bad_input;
    }
    if (driver.mode == SweepMode::points) {
        try {
            driver.points = parse_point_list(cl.sweep_points);
        } catch (const std::exception& e) {
            std::cerr << spec.name << ": --sweep-points: " << e.what() << "\n";
            return exit_code::bad_input;
        }
        driver.out = cl.sweep_out;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const std::string started = utc_now_iso8601();

    // 1. the rounding self-test (environment)
    const SelfTestResult st = run_rounding_self_test();
    if (!st.passed) {
        std::cerr << spec.name << ": environment failure: " << st.summary() << "\n";
        return exit_code::environment;
    }

    // 2. the case, validated up front; no report on bad input
    int rc = 0;
    const std::optional<Case> input = load_case(spec, cl.case_file, rc);
    if (!input) return rc;
    Report report;
    const long bits = cl.precision > 0 ? cl.precision : input->precision_bits().value_or(spec.default_precision_bits);
    start_report(report, spec, *input, cl, bits, command_line, started, st);

    // Sweep parts: what they must belong to; a merge reads them all before the body runs.
    driver.identity = SweepIdentity{spec.name, input->sha256(), verifier_build_id(), bits, spec.sweep, 0};
    if (driver.mode == SweepMode::merge) {
        try {
            for (const auto& f : cl.sweep_merge) driver.parts.push_back(read_sweep_part(f));
        } catch (const SweepMergeError& e) {
            std::cerr << spec.name << ": incomplete run, no report: " << e.what() << "\n";
            return exit_code::environment;
        }
    }

    // 3. the body
    Progress progress(cl.quiet ? nullptr : &std::cerr, spec.name);
    Context ctx{*input, report, progress, bits, &driver};
    ctx.threads = cl.threads;
    InstanceExport exported;
    if (!cl.export_dir.empty() && driver.mode != SweepMode::count && driver.mode != SweepMode::points)
        ctx.instance_export = &exported;
    bool internal_error = false;
    if (const auto early = run_body(spec, ctx, driver, cl, internal_error)) return *early;
    report.provenance.wall_time_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    // 4. the certificate
    return write_outputs(spec, report, cl, *input, ctx.instance_export, internal_error);
}

}  // namespace flowcert::cert
