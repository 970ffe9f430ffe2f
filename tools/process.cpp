#include "process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

extern char** environ;

namespace flowcert::tools {

namespace fs = std::filesystem;

fs::path self_dir() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::current_path() : exe.parent_path();
}

fs::path default_verifiers_dir() { return fs::weakly_canonical(self_dir() / ".." / "verifiers"); }

int run_process(const fs::path& exe, const std::vector<std::string>& args, const fs::path& log, double timeout) {
    std::vector<std::string> all{exe.string()};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid = 0;
    const int err = posix_spawn(&pid, exe.c_str(), &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    if (err != 0) return -2000;
    const auto t0 = std::chrono::steady_clock::now();
    int status = 0;
    for (;;) {
        const pid_t r = waitpid(pid, &status, timeout > 0 ? WNOHANG : 0);
        if (r == pid) break;
        if (r < 0) return -2000;
        if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > timeout) {
            kill(pid, SIGKILL);  // our own child, by its pid
            waitpid(pid, &status, 0);
            return -1000;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return WIFSIGNALED(status) ? -WTERMSIG(status) : -2000;
}

}  // namespace flowcert::tools
