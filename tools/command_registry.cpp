#include "command_registry.hpp"

#include <algorithm>
#include <cstring>

namespace flowcert::tools {

namespace {
std::vector<Command>& registry() {
    static std::vector<Command> commands;  // function-local: safe during static initialisation
    return commands;
}
}  // namespace

bool register_command(const Command& command) {
    registry().push_back(command);
    return true;
}

std::vector<Command> registered_commands() {
    std::vector<Command> out = registry();
    std::sort(out.begin(), out.end(), [](const Command& a, const Command& b) { return std::strcmp(a.name, b.name) < 0; });
    return out;
}

}  // namespace flowcert::tools
