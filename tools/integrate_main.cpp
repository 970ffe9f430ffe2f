// `flowcert-integrate ARGS`: the same command as `flowcert integrate ARGS` in a lean executable
// that loads only the integrator's libraries (no Open MPI, no libcrypto), so a short run is
// not dominated by process start-up.
#include <iostream>
#include <string>
#include <vector>

#include "integrate_cli.hpp"

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    const flowcert::tools::CliResult r = flowcert::tools::integrate_cli(args);
    std::cout << r.out << std::flush;
    std::cerr << r.err << std::flush;
    return r.exit_code;
}
