// tools/command_registry.hpp -- subcommands of the `flowcert` tool register themselves here.
//
// Each tools/cmd_<name>.cpp defines `int run_<name>(int argc, char** argv)` and registers it:
//
//   FLOWCERT_REGISTER_COMMAND(integrate, "rigorous enclosure of a user-given ODE", run_integrate);
//
// `flowcert <name> ARGS...` then calls run(argc, argv) with argv[0] = "flowcert <name>" and
// the remaining arguments after it (so CLI11's app.parse(argc, argv) works unchanged).
// The return value is the process exit code (DESIGN.md).
#pragma once

#include <vector>

namespace flowcert::tools {

struct Command {
    const char* name;
    const char* summary;
    int (*run)(int argc, char** argv);
};

// Adds a command (called from static initialisers); returns true.
bool register_command(const Command& command);
// All registered commands, sorted by name.
std::vector<Command> registered_commands();

}  // namespace flowcert::tools

// FLOWCERT_REGISTER_COMMAND(name, summary, fn): `name` is a bare identifier and is also the
// command's name on the command line. The four-argument form
// FLOWCERT_REGISTER_COMMAND(ident, "name", summary, fn) gives the name as a string.
#define FLOWCERT_REGISTER_COMMAND_3(name, summary, fn) FLOWCERT_REGISTER_COMMAND_4(name, #name, summary, fn)
#define FLOWCERT_REGISTER_COMMAND_4(ident, name, summary, fn) \
    [[maybe_unused]] static const bool flowcert_command_registered_##ident = \
        ::flowcert::tools::register_command(::flowcert::tools::Command{name, summary, fn})
#define FLOWCERT_REGISTER_COMMAND_PICK(_1, _2, _3, _4, which, ...) which
#define FLOWCERT_REGISTER_COMMAND(...)                                                                  \
    FLOWCERT_REGISTER_COMMAND_PICK(__VA_ARGS__, FLOWCERT_REGISTER_COMMAND_4, FLOWCERT_REGISTER_COMMAND_3, \
                                   unused, unused)(__VA_ARGS__)
