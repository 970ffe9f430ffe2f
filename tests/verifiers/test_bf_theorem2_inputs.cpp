// Case-file errors of the bf/theorem2_three_point verifier: a missing or malformed key exits 3 naming the
// file, the line and the key (runs the executable; the trapping argument itself is tested in
// tests/proofs/bf/test_bf_trap.cpp).
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#ifdef BF_THEOREM2_EXE
namespace {
struct RunResult {
    int rc;
    std::string err;
};
RunResult run_verifier(const std::string& toml_text, const std::string& name) {
    const std::string dir = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp");
    const std::string file = dir + "/" + name;
    const std::string errf = file + ".stderr";
    {
        std::ofstream f(file);
        f << toml_text;
    }
    const std::string cmd = std::string(BF_THEOREM2_EXE) + " --case " + file + " --out " + file + ".out --quiet 2> " + errf + " > /dev/null";
    const int st = std::system(cmd.c_str());
    std::stringstream ss;
    {
        std::ifstream e(errf);
        ss << e.rdbuf();
    }
    std::remove(file.c_str());
    std::remove(errf.c_str());
    return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, ss.str()};
}
const char* kGood =
    "verifier = \"bf/theorem2_three_point\"\n"
    "expect = \"certified\"\n"
    "x = [[\"-0.95\", \"1.05\"], [\"0.05\", \"0.98\"], [\"0.92\", \"1.03\"]]\n"
    "y = [\"1.05\", \"0.08\", \"1.1\"]\n"
    "hypotheses = \"assumption3\"\n"
    "seed = 2\n"
    "lambda = \"1e-3\"\n";
}  // namespace

TEST_CASE("a theorem2_three_point case without the horizon T exits 3 naming the file and the key", "[bf_t2_inputs]") {
    const auto r = run_verifier(std::string(kGood) + "m = 100\n", "bf_t2_missing_T.toml");
    CHECK(r.rc == 3);
    CHECK(r.err.find("bf_t2_missing_T.toml") != std::string::npos);
    CHECK(r.err.find("'T'") != std::string::npos);
}

TEST_CASE("a theorem2_three_point case with a malformed number exits 3 naming file, line and key", "[bf_t2_inputs]") {
    const auto r = run_verifier(std::string(kGood) + "m = 100\nT = \"eleven\"\n", "bf_t2_bad_T.toml");
    CHECK(r.rc == 3);
    CHECK(r.err.find("bf_t2_bad_T.toml:9") != std::string::npos);
    CHECK(r.err.find("'T'") != std::string::npos);
    const auto n = run_verifier(std::string(kGood) + "m = \"100\"\nT = \"11\"\n", "bf_t2_bad_m.toml");
    CHECK(n.rc == 3);
    CHECK(n.err.find("bf_t2_bad_m.toml:8") != std::string::npos);
    CHECK(n.err.find("'m'") != std::string::npos);
}
#endif
