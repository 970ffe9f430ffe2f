// tools/process.hpp -- running verifier processes (flowcert certify, flowcert check --rerun).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace flowcert::tools {

// The directory of the running executable.
std::filesystem::path self_dir();
// The verifiers next to the flowcert executable (build tree: build/tools/flowcert, build/verifiers/).
std::filesystem::path default_verifiers_dir();

// Runs `exe args...` with stdout and stderr to `log`; returns its exit code, -signal if it was
// killed by a signal, -1000 on timeout (timeout > 0 seconds; the child is killed), -2000 if it
// could not be started.
int run_process(const std::filesystem::path& exe, const std::vector<std::string>& args,
                const std::filesystem::path& log, double timeout);

}  // namespace flowcert::tools
