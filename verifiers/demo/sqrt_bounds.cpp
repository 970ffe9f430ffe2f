// verifiers/demo/sqrt_bounds.cpp -- demonstration verifier: certifies decimal bounds on
// sqrt(c) and exp(c) for a case-given c, at the case's precision. It exercises the whole
// pipeline (case schema, checks, tables, plots, verdicts) without any paper mathematics.
#include <flowcert/cert.hpp>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>

namespace cert = flowcert::cert;
using flowcert::IntervalMp;

namespace {

void run(cert::Context& ctx) {
    const cert::Case& in = ctx.input;
    const IntervalMp c = in.interval_mp("c", ctx.precision());

    // Register every check before computing anything: CERTIFIED needs all of them to run.
    ctx.report.plan("sqrt lower bound");
    ctx.report.plan("sqrt upper bound");
    if (in.has("exp_lower")) ctx.report.plan("exp lower bound");
    if (in.has("exp_upper")) ctx.report.plan("exp upper bound");

    ctx.report.claim.proven_statement = in.number_string("sqrt_lower") + " <= sqrt(" + in.number_string("c") +
                                        ") <= " + in.number_string("sqrt_upper") + " (bounds as exact decimals)";

    // The "theorem" is about the real square root: its hypothesis on the instance is c >= 0.
    const cert::Check& real = ctx.report.hypothesis("c >= 0", "[demo]").nonnegative({"c", c});
    if (real.status != cert::CheckStatus::proven) return;  // OUTSIDE_HYPOTHESES: the bounds are not checked
    const IntervalMp r = sqrt(c);  // outward-rounded MPFI square root
    ctx.report.conclusion("sqrt lower bound", "[demo]")
        .case_claim("sqrt_lower")
        .le(cert::exact("sqrt_lower", in.number_string("sqrt_lower")), {"sqrt(c)", r});
    ctx.report.conclusion("sqrt upper bound", "[demo]")
        .case_claim("sqrt_upper")
        .le({"sqrt(c)", r}, cert::exact("sqrt_upper", in.number_string("sqrt_upper")));

    const IntervalMp e = exp(c);
    if (in.has("exp_lower"))
        ctx.report.conclusion("exp lower bound", "[demo]")
            .case_claim("exp_lower")
            .le(cert::exact("exp_lower", in.number_string("exp_lower")), {"exp(c)", e});
    if (in.has("exp_upper"))
        ctx.report.conclusion("exp upper bound", "[demo]")
            .case_claim("exp_upper")
            .le({"exp(c)", e}, cert::exact("exp_upper", in.number_string("exp_upper")));

    // A table and two plots, to show the report machinery (display only).
    cert::Table& t = ctx.report.table("enclosures", {"quantity", "enclosure", "width"});
    auto sci = [](double w) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.3e", w);
        return std::string(buf);
    };
    t.add_row({"sqrt(c)", to_string(r, 25), sci(width(r))});
    t.add_row({"exp(c)", to_string(e, 25), sci(width(e))});

    // The precision sweep through cert::Context::sweep (points can be split and merged, issue 7):
    // point k gives sqrt(t_k c) at t_k = k / steps and, for k > 0, the width of sqrt(c) at 8k bits.
    cert::TubePlot tube{.title = "sqrt(t c) for t in [0, 1]", .x_label = "t", .y_label = "sqrt(t c)"};
    cert::SweepPlot sweep{.title = "width of sqrt(c) versus precision", .x_label = "bits", .y_label = "width"};
    const int steps = 20;
    const auto records = ctx.sweep(steps + 1, [&](std::size_t i) {
        const int k = static_cast<int>(i);
        const IntervalMp tk = IntervalMp::from_integer(k, ctx.precision()) / steps;
        const IntervalMp y = sqrt(tk * c);
        nlohmann::json rec = {{"tube", {cert::exact_string(lower(y)), cert::exact_string(upper(y))}}};
        if (k > 0) {
            const long bits = 8L * k;
            const IntervalMp rk = sqrt(in.interval_mp("c", flowcert::Precision(bits)));
            // the width itself as a (display) error bar
            const IntervalMp w = IntervalMp::bounds(width(rk), width(rk), flowcert::Precision(53));
            rec["width"] = {cert::exact_string(lower(w)), cert::exact_string(upper(w))};
        }
        return rec;
    });
    for (std::size_t k = 0; k < records.size(); ++k) {
        const auto& r = records[k];
        cert::Band& b = tube.band("sqrt(t c)");
        b.x.push_back(static_cast<double>(k) / steps);
        b.lo.push_back(cert::parse_exact_double(r.at("tube").at(0)));
        b.hi.push_back(cert::parse_exact_double(r.at("tube").at(1)));
        if (r.contains("width")) {
            cert::Band& s = sweep.series_named("width");
            s.x.push_back(static_cast<double>(8L * static_cast<long>(k)));
            s.lo.push_back(cert::parse_exact_double(r.at("width").at(0)));
            s.hi.push_back(cert::parse_exact_double(r.at("width").at(1)));
        }
    }
    ctx.report.add_plot(tube);
    ctx.report.add_plot(sweep);
    ctx.report.note("demonstration verifier: no paper is involved");
}

}  // namespace

int main(int argc, char** argv) {
    cert::VerifierSpec spec{
        .name = "demo/sqrt_bounds",
        .summary = "certifies decimal bounds on sqrt(c) and exp(c)",
        .claim = {.paper = "demo",
                  .locator = "Example 1",
                  .paper_statement = "sqrt_lower <= sqrt(c) <= sqrt_upper and exp_lower <= exp(c) <= exp_upper",
                  .proven_statement = {}},
        .schema =
            {
                {.name = "c", .type = cert::KeyType::number, .description = "the argument (the hypothesis c >= 0 is checked)"},
                {.name = "sqrt_lower", .type = cert::KeyType::number, .description = "claimed lower bound on sqrt(c)"},
                {.name = "sqrt_upper", .type = cert::KeyType::number, .description = "claimed upper bound on sqrt(c)"},
                {.name = "exp_lower", .type = cert::KeyType::number, .description = "claimed lower bound on exp(c)", .required = false},
                {.name = "exp_upper", .type = cert::KeyType::number, .description = "claimed upper bound on exp(c)", .required = false},
            },
        .default_precision_bits = 128,
        .validate = {},
        .run = run,
        .sweep = "precision",
    };
    return cert::verifier_main(argc, argv, spec);
}
