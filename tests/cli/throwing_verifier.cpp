// A verifier whose checks throw half way: it must end in ERROR (exit 5), never CERTIFIED; with
// throws = "bad_alloc" the throw is an out-of-memory (exit 4, no report).
#include <flowcert/cert.hpp>

#include <new>
#include <stdexcept>
#include <string>

namespace cert = flowcert::cert;
using flowcert::IntervalD;

int main(int argc, char** argv) {
    cert::VerifierSpec spec{
        .name = "test/throwing",
        .summary = "test verifier: proves some checks, then throws",
        .claim = {.paper = "test", .locator = "none", .paper_statement = "four true inequalities", .proven_statement = {}},
        .schema = {{.name = "fail_after", .type = cert::KeyType::integer, .description = "checks run before the throw",
                    .constraint = cert::Constraint::nonnegative},
                   {.name = "throws", .type = cert::KeyType::string, .description = "what is thrown",
                    .required = false, .choices = {"runtime_error", "bad_alloc"}}},
        .default_precision_bits = 53,
        .validate = {},
        .run =
            [](cert::Context& ctx) {
                const long long k = ctx.input.integer("fail_after");
                for (int i = 0; i < 4; ++i) ctx.report.plan("check " + std::to_string(i));
                for (int i = 0; i < 4; ++i) {
                    if (i == k && ctx.input.has("throws") && ctx.input.string("throws") == "bad_alloc")
                        throw std::bad_alloc();
                    if (i == k) throw std::runtime_error("check " + std::to_string(i) + " thrown half way");
                    ctx.report.conclusion("check " + std::to_string(i), "[test]").le(IntervalD(i), IntervalD(i + 1));
                }
            },
    };
    return cert::verifier_main(argc, argv, spec);
}
