// Seeded, time-bounded fuzzing of `flowcert check` (issue 19, "Robustness"): damaged copies of
// a genuine certificate, and JSON nested far deeper than any certificate, must each end in
// exit 0, 1 (rejected) or 3 (cannot be read), never a signal or a hang.
// Usage: test_fuzz_check FLOWCERT CERTIFICATE.json WORKDIR
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

// Runs `flowcert check FILE` with a 30 s limit; the exit code, or -signal.
int run_check(const std::string& flowcert, const std::string& file) {
    const pid_t pid = fork();
    if (pid == 0) {
        alarm(30);
        std::freopen("/dev/null", "w", stdout);
        std::freopen("/dev/null", "w", stderr);
        execl(flowcert.c_str(), flowcert.c_str(), "check", "--quiet", file.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) return -WTERMSIG(status);
    return WEXITSTATUS(status);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: test_fuzz_check FLOWCERT CERTIFICATE.json WORKDIR\n");
        return 2;
    }
    const std::string flowcert = argv[1], dir = argv[3];
    std::ifstream in(argv[2]);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string genuine = ss.str();
    if (genuine.empty()) {
        std::fprintf(stderr, "empty certificate %s\n", argv[2]);
        return 2;
    }
    std::mt19937_64 rng(20261201);
    auto below = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
    std::vector<std::pair<std::string, std::string>> inputs = {
        {"genuine", genuine},
        {"deep array", std::string(200000, '[') + std::string(200000, ']')},
        {"deep object", [] {
             std::string s;
             for (int i = 0; i < 100000; ++i) s += "{\"a\":";
             return s + "1" + std::string(100000, '}');
         }()},
        {"deep value in a certificate", genuine.substr(0, genuine.rfind('}')) + ",\"x\":" + std::string(50000, '[') +
                                            std::string(50000, ']') + "}"},
    };
    const std::string alphabet = "{}[]\":,0123456789.-eE \\ntrue";
    const auto start = std::chrono::steady_clock::now();
    int passed = 0, failed = 0;
    for (std::size_t i = 0; i < 200; ++i) {
        if (i >= inputs.size()) {
            if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > 5) break;
            std::string s = genuine;
            for (std::size_t k = 0, n = 1 + below(4); k < n; ++k) {
                const std::size_t at = below(s.size());
                switch (below(3)) {
                    case 0: s.insert(at, 1, alphabet[below(alphabet.size())]); break;
                    case 1: s.erase(at, 1); break;
                    default: s[at] = alphabet[below(alphabet.size())];
                }
            }
            inputs.emplace_back("mutation " + std::to_string(i), s);
        }
        const std::string file = dir + "/fuzz.json";
        std::ofstream(file, std::ios::binary) << inputs[i].second;
        const int rc = run_check(flowcert, file);
        const bool ok = (rc == 0 || rc == 1 || rc == 3) && (i != 0 || rc == 0) && (i == 0 || i > 3 || rc == 3);
        if (!ok) {
            std::printf("FAIL %s: flowcert check exit %d\n", inputs[i].first.c_str(), rc);
            std::ofstream(dir + "/failing_" + std::to_string(i) + ".json", std::ios::binary) << inputs[i].second;
        }
        (ok ? passed : failed)++;
    }
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 && passed >= 10 ? 0 : 1;
}
