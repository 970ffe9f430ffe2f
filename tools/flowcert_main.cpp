// flowcert: the command-line tool. `flowcert <command> [args]`; commands register themselves
// (command_registry.hpp): certify, check, integrate, ...
#include <flowcert/cert.hpp>

#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "command_registry.hpp"

namespace {

void usage(std::ostream& os) {
    os << "usage: flowcert <command> [options]   (flowcert <command> --help for its options)\n\ncommands:\n";
    for (const auto& c : flowcert::tools::registered_commands()) {
        std::string n = c.name;
        n.resize(std::max<std::size_t>(n.size() + 2, 12), ' ');
        os << "  " << n << c.summary << "\n";
    }
    os << "\nexit codes: 0 success / certified / all as expected, 1 refuted / mismatch / rejected, "
          "2 inconclusive, 3 bad input, 4 environment, 5 internal error\n";
}

}  // namespace

int main(int argc, char** argv) {
    namespace ec = flowcert::cert::exit_code;
    if (argc < 2) {
        usage(std::cerr);
        return ec::bad_input;
    }
    const std::string name = argv[1];
    if (name == "--help" || name == "-h" || name == "help") {
        usage(std::cout);
        return 0;
    }
    if (name == "--version") {
        const auto p = flowcert::cert::build_provenance();
        std::cout << "flowcert " << p.flowcert_version << " (" << p.git_commit << ", " << p.compiler << ")\n";
        return 0;
    }
    for (const auto& c : flowcert::tools::registered_commands()) {
        if (name != c.name) continue;
        // argv[0] becomes "flowcert <name>" so that CLI11 usage lines read naturally.
        std::string prog = "flowcert " + name;
        std::vector<char*> args;
        args.push_back(prog.data());
        for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
        args.push_back(nullptr);
        try {
            return c.run(static_cast<int>(args.size()) - 1, args.data());
        } catch (const std::exception& e) {
            std::cerr << "flowcert " << name << ": internal error: " << e.what() << "\n";
            return ec::internal;
        }
    }
    std::cerr << "flowcert: unknown command '" << name << "'\n\n";
    usage(std::cerr);
    return ec::bad_input;
}
