// Per-parameter case lists of kh/first_saddle and kh/theorem10_escape (khcase::parameter_texts /
// parameter_midpoints in verifiers/kh/kh_case_inputs.hpp; runs the executables): `kkt_start` and `init_direction`
// need one entry per parameter, and a list of another length is bad input (exit 3) naming the key, never a
// verdict; the right length runs.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#if defined(KH_FIRST_SADDLE_EXE) && defined(KH_THEOREM10_EXE)
namespace {
struct RunResult {
    int rc;
    std::string err;
};
RunResult run(const std::string& exe, const std::string& toml_text, const std::string& name) {
    const std::string dir = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp");
    const std::string file = dir + "/" + name, errf = file + ".stderr", out = file + ".reports";
    {
        std::ofstream f(file);
        f << toml_text;
    }
    const std::string cmd = exe + " --case " + file + " --out " + out + " --quiet 2> " + errf + " > /dev/null";
    const int st = std::system(cmd.c_str());
    std::stringstream ss;
    ss << std::ifstream(errf).rdbuf();
    std::remove(file.c_str());
    std::remove(errf.c_str());
    std::filesystem::remove_all(out);  // the certificate of a run that got that far
    return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, ss.str()};
}
// Example 1 (P = 2) with one delta, no post-saddle keys.
std::string first_saddle(const std::string& kkt_start, const std::string& init_direction) {
    return "verifier = \"kh/first_saddle\"\nexpect = \"certified\"\nmodel = \"weighted_squares\"\nsigns = [\"1\", \"1\"]\n"
           "inputs = [[\"1\", \"0\"], [\"0\", \"1\"]]\ntargets = [\"4\", \"1\"]\nloss = \"paper\"\n"
           "kkt_start = " + kkt_start + "\ninit_direction = " + init_direction + "\n"
           "deltas = [\"1e-3\"]\nepsilon = \"0.1\"\nescape_radius = \"1\"\ntime_after_escape = \"0.3\"\n";
}
// The depth-3 diagonal net on R^2 (P = 6) of cases/kh/theorem10_deep_diagonal.toml, two deltas.
std::string theorem10(const std::string& kkt_start, const std::string& init_direction) {
    return "verifier = \"kh/theorem10_escape\"\nexpect = \"certified\"\ndepth = 3\n"
           "inputs = [[\"1\", \"0\"], [\"0\", \"1\"], [\"1\", \"1\"]]\ntargets = [\"3\", \"1\", \"2\"]\nloss = \"paper\"\n"
           "kkt_start = " + kkt_start + "\ninit_direction = " + init_direction + "\n"
           "ncf_radius = \"1e4\"\ndeltas = [\"1e-2\", \"1e-3\"]\nescape_radius = \"1\"\nwindow = \"0.5\"\ngrid_points = 41\n"
           "convergence_constant = \"20\"\n";
}
}  // namespace

TEST_CASE("kh/first_saddle: kkt_start and init_direction of the wrong length are bad input naming the key",
          "[kh][case]") {
    const auto k = run(KH_FIRST_SADDLE_EXE, first_saddle("[\"1\", \"0\", \"0\"]", "[\"1\", \"1\"]"), "kh_fs_kkt_len.toml");
    CHECK(k.rc == 3);
    CHECK(k.err.find("kkt_start") != std::string::npos);
    CHECK(k.err.find("need one entry per parameter") != std::string::npos);
    const auto w = run(KH_FIRST_SADDLE_EXE, first_saddle("[\"1\", \"0\"]", "[\"1\"]"), "kh_fs_w0_len.toml");
    CHECK(w.rc == 3);
    CHECK(w.err.find("init_direction") != std::string::npos);
    const auto ok = run(KH_FIRST_SADDLE_EXE, first_saddle("[\"1\", \"0\"]", "[\"1\", \"1\"]"), "kh_fs_ok.toml");
    INFO(ok.err);
    CHECK(ok.rc == 0);  // CERTIFIED
}

TEST_CASE("kh/theorem10_escape: kkt_start and init_direction of the wrong length are bad input naming the key",
          "[kh][case]") {
    const std::string six = "[\"0.57735\", \"0\", \"0.57735\", \"0\", \"0.57735\", \"0\"]";
    const auto k = run(KH_THEOREM10_EXE, theorem10("[\"0.57735\", \"0\"]", "[\"1\", \"1\", \"1\", \"1\", \"1\", \"1\"]"),
                       "kh_t10_kkt_len.toml");
    CHECK(k.rc == 3);
    CHECK(k.err.find("kkt_start") != std::string::npos);
    const auto w = run(KH_THEOREM10_EXE, theorem10(six, "[\"1\", \"1\", \"1\", \"1\", \"1\"]"), "kh_t10_w0_len.toml");
    CHECK(w.rc == 3);
    CHECK(w.err.find("init_direction") != std::string::npos);
    CHECK(w.err.find("need one entry per parameter") != std::string::npos);
}
#else
TEST_CASE("kh parameter-list tests need the verifier executables", "[kh][case]") { FAIL("KH_FIRST_SADDLE_EXE / KH_THEOREM10_EXE not defined"); }
#endif
