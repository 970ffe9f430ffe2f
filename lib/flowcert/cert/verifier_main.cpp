// The shared command line of every verifier (DESIGN.md: verdicts and exit codes).
#include <flowcert/cert.hpp>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <iostream>

namespace flowcert::cert {

int verifier_main(int argc, char** argv, const VerifierSpec& spec) {
    CLI::App app{spec.name + ": " + spec.summary + "\n" + spec.claim.paper + ", " + spec.claim.locator};
    std::string case_file, out_dir = ".";
    long precision = 0;
    bool json_out = false, quiet = false;
    app.add_option("--case", case_file, "case file (TOML)")->required();
    app.add_option("--out", out_dir, "directory for the certificate (JSON, HTML, Markdown)");
    app.add_option("--precision", precision, "IntervalMp precision in bits (overrides the case)")
        ->check(CLI::Range(2L, 100000L));
    app.add_flag("--json", json_out, "print the certificate JSON on stdout");
    app.add_flag("--quiet", quiet, "no progress lines on stderr");
    std::string keys = "Case file keys (besides verifier, expect, labels, description, precision):\n";
    std::function<void(const CaseSchema&, const std::string&)> list = [&](const CaseSchema& schema, const std::string& indent) {
        for (const auto& k : schema) {
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
    list(spec.schema, "  ");
    app.footer(keys + "\nExit codes: 0 CERTIFIED, 1 REFUTED, 2 INCONCLUSIVE, 3 bad input, 4 self-test failure, 5 internal error.");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int rc = app.exit(e);
        return rc == 0 ? 0 : exit_code::bad_input;
    }

    std::string command_line;
    for (int i = 0; i < argc; ++i) command_line += (i ? " " : "") + std::string(argv[i]);
    const auto t0 = std::chrono::steady_clock::now();
    const std::string started = utc_now_iso8601();

    // 1. the rounding self-test (environment)
    const SelfTestResult st = run_rounding_self_test();
    if (!st.passed) {
        std::cerr << spec.name << ": environment failure: " << st.summary() << "\n";
        return exit_code::environment;
    }

    // 2. the case, validated up front; no report on bad input
    std::optional<Case> input;
    try {
        input.emplace(Case::load(case_file, spec.schema));
        if (input->verifier() != spec.name)
            input->fail("verifier", "this case is for verifier '" + input->verifier() + "', but this program is '" +
                                        spec.name + "'");
        if (spec.validate) spec.validate(*input);
    } catch (const CaseError& e) {
        std::cerr << spec.name << ": bad case file: " << e.what() << "\n";
        return exit_code::bad_input;
    } catch (const std::exception& e) {
        std::cerr << spec.name << ": internal error while reading the case: " << e.what() << "\n";
        return exit_code::internal;
    }

    Report report;
    report.claim = spec.claim;
    report.verifier = spec.name;
    report.case_name = std::filesystem::path(case_file).stem().string();
    report.case_description = input->description();
    report.expected = input->expect();
    report.labels = input->labels();
    report.provenance = build_provenance();
    const long bits = precision > 0 ? precision : input->precision_bits().value_or(spec.default_precision_bits);
    report.provenance.precision_bits = bits;
    report.provenance.case_file = case_file;
    report.provenance.case_sha256 = input->sha256();
    report.provenance.command_line = command_line;
    report.provenance.started_utc = started;
    report.provenance.self_test_passed = st.passed;
    report.provenance.self_test = st.summary();

    // 3. the body: every exception becomes ERROR with its message
    Progress progress(quiet ? nullptr : &std::cerr, spec.name);
    Context ctx{*input, report, progress, bits};
    bool internal_error = false;
    try {
        spec.run(ctx);
        report.mark_completed();
    } catch (const CaseError& e) {
        // bad input found by the body (Case::fail): exit 3 and no report, as for validation
        std::cerr << spec.name << ": bad case file: " << e.what() << "\n";
        return exit_code::bad_input;
    } catch (const std::exception& e) {
        report.set_error(e.what());
        internal_error = true;
    } catch (...) {
        report.set_error("unknown exception");
        internal_error = true;
    }
    report.provenance.wall_time_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    // 4. the certificate
    const Verdict v = report.verdict();
    try {
        const WrittenFiles w = write_report(report, out_dir, report.case_name);
        if (json_out) std::cout << to_json(report).dump(2) << "\n";
        else std::cout << to_string(v) << "  " << spec.name << "  " << case_file << "  (" << report.verdict_reason()
                       << ")  -> " << w.html.string() << "\n";
    } catch (const std::exception& e) {
        std::cerr << spec.name << ": cannot write the report: " << e.what() << "\n";
        return exit_code::internal;
    }
    if (internal_error) std::cerr << spec.name << ": error: " << *report.error() << "\n";
    return internal_error ? exit_code::internal : exit_code_for(v);
}

}  // namespace flowcert::cert
