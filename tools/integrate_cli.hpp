// tools/integrate_cli.hpp -- the logic of `flowcert integrate`, as a function so it can be
// tested without a process (tools/cmd_integrate.cpp is a thin wrapper).
//
//   flowcert integrate --formula "var:x,y,z; par:s,r,b; fun:s*(y-x),x*(r-z)-y,x*y-b*z;" \
//       --param s=10 --param r=28 --param b=8/3 --init 1,1,1 [--radius 1e-10] --time 10 \
//       [--order 20] [--precision 53] [--output-times 1,5] [--tolerance 1e-16] [--json]
//
// Exit codes (DESIGN.md): 0 the enclosure reached the final time, 2 a step could not be
// validated (the reason is printed / in "status"), 3 bad input (message on stderr, nothing on
// stdout), 5 internal error.
#pragma once

#include <string>
#include <vector>

namespace flowcert::tools {

struct CliResult {
    int exit_code = 5;
    std::string out;  // what goes to stdout
    std::string err;  // what goes to stderr
};

// `args` are the arguments after "integrate".
CliResult integrate_cli(const std::vector<std::string>& args);

}  // namespace flowcert::tools
