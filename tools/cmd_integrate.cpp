// `flowcert integrate`: rigorous enclosure of a user-given ODE in CAPD's formula syntax.
// The logic (argument parsing, integration, text/JSON output, exit codes) lives in
// flowcert::tools::integrate_cli (integrate_cli.hpp) so that it is unit-tested.
#include "integrate_cli.hpp"

#include <iostream>
#include <string>
#include <vector>

#include "command_registry.hpp"

namespace {

int run_integrate(int argc, char** argv) {
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
    const flowcert::tools::CliResult r = flowcert::tools::integrate_cli(args);
    std::cout << r.out << std::flush;
    std::cerr << r.err << std::flush;
    return r.exit_code;
}

}  // namespace

FLOWCERT_REGISTER_COMMAND(integrate, "integrate", "rigorous enclosure of a user-given ODE (CAPD formula syntax)",
                          run_integrate);
