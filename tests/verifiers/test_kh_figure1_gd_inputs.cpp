// Case keys of the kh/figure1_gd verifier (runs the executable): the optional third-plateau keys final_loss_first /
// final_loss_max and extra_snapshots are declared in its schema (a case that uses them is run, not rejected with
// exit 3 "unknown key"), they give the third-plateau conclusion (a case claim) and the extra-snapshot table, and
// malformed uses exit 3 naming the key.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#ifdef KH_FIGURE1_GD_EXE
namespace {
struct RunResult {
    int rc;
    std::string out, err;
};
RunResult run_verifier(const std::string& toml_text, const std::string& name) {
    const std::string dir = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp");
    const std::string file = dir + "/" + name;
    const std::string outf = file + ".stdout", errf = file + ".stderr";
    {
        std::ofstream f(file);
        f << toml_text;
    }
    const std::string cmd = std::string(KH_FIGURE1_GD_EXE) + " --case " + file + " --json --quiet 2> " + errf + " > " + outf;
    const int st = std::system(cmd.c_str());
    auto slurp = [](const std::string& p) {
        std::stringstream ss;
        std::ifstream e(p);
        ss << e.rdbuf();
        return ss.str();
    };
    RunResult r{WIFEXITED(st) ? WEXITSTATUS(st) : -1, slurp(outf), slurp(errf)};
    for (const std::string& p : {file, outf, errf}) std::remove(p.c_str());
    return r;
}
// 200 GD steps of the reduced setting (well under a second): still on plateau 1, L ~ 7.23.
const char* kBase =
    "verifier = \"kh/figure1_gd\"\n"
    "expect = \"inconclusive\"\n"
    "input_dim = 10\nsamples = 20\nneurons = 6\ndata_seed = 3\ninit_seed = 1\n"
    "delta = \"0.1\"\nstep = \"0.005\"\nsteps = 200\nloss_block = 10\npromote_norm = \"0.05\"\n"
    "i1 = 50\ni2 = 100\nplateau1_last = 100\nplateau2_first = 150\nplateau2_last = 200\n"
    "epsilon1 = \"0.003\"\nepsilon2 = \"0.06\"\na_min = [\"0.15\", \"3\"]\nrho_max = [\"0.1\", \"0.25\"]\n"
    "saddle_distance_max = \"0.8\"\n";
const std::string kCheck = "plateau 3: L_k <= final_loss_max for final_loss_first <= k <= steps";
// The status of the check whose name is at `at` in the certificate JSON (keys sorted: "status" follows "name").
std::string status_after(const std::string& json, std::size_t at) {
    const std::string key = "\"status\": \"";
    const auto s = json.find(key, at);
    if (s == std::string::npos) return "";
    const auto b = s + key.size();
    return json.substr(b, json.find('"', b) - b);
}
}  // namespace

TEST_CASE("kh/figure1_gd accepts final_loss_first, final_loss_max and extra_snapshots and reports them",
          "[kh][figure1_gd_inputs]") {
    // A true bound (the loss is ~7.23 < 8) and a false one (1e-300): proven and disproven, marked as case claims.
    const auto t = run_verifier(std::string(kBase) + "final_loss_first = 150\nfinal_loss_max = \"8\"\nextra_snapshots = [20, 180]\n",
                                "kh_f1_final_true.toml");
    INFO(t.err);
    CHECK(t.rc != 3);
    const auto at = t.out.find(kCheck);
    REQUIRE(at != std::string::npos);
    CHECK(status_after(t.out, at) == "proven");
    CHECK(t.out.find("\"case_claim\": \"final_loss_max") != std::string::npos);
    CHECK(t.out.find("neuron norms at the extra snapshots (evidence)") != std::string::npos);
    CHECK(t.out.find("iterate 180") != std::string::npos);  // its heat map
    const auto f = run_verifier(std::string(kBase) + "final_loss_first = 150\nfinal_loss_max = \"1e-300\"\n", "kh_f1_final_false.toml");
    INFO(f.err);
    CHECK(f.rc == 2);  // INCONCLUSIVE: no hypothesis of Figure 1 is stated, so a false claim refutes nothing
    const auto af = f.out.find(kCheck);
    REQUIRE(af != std::string::npos);
    CHECK(status_after(f.out, af) == "disproven");
    // Without the keys there is no third-plateau check.
    const auto n = run_verifier(kBase, "kh_f1_final_none.toml");
    CHECK(n.rc != 3);
    CHECK(n.out.find(kCheck) == std::string::npos);
}

TEST_CASE("kh/figure1_gd rejects malformed third-plateau and snapshot keys with exit 3 naming the key",
          "[kh][figure1_gd_inputs]") {
    const auto a = run_verifier(std::string(kBase) + "final_loss_first = 150\n", "kh_f1_first_only.toml");
    CHECK(a.rc == 3);
    CHECK(a.err.find("final_loss_first") != std::string::npos);
    const auto b = run_verifier(std::string(kBase) + "final_loss_first = 201\nfinal_loss_max = \"1\"\n", "kh_f1_first_late.toml");
    CHECK(b.rc == 3);
    CHECK(b.err.find("final_loss_first") != std::string::npos);
    const auto c = run_verifier(std::string(kBase) + "final_loss_first = 150\nfinal_loss_max = \"-1\"\n", "kh_f1_max_negative.toml");
    CHECK(c.rc == 3);
    CHECK(c.err.find("final_loss_max") != std::string::npos);
    for (const char* bad : {"[\"2.5\"]", "[300]", "[\"-1\"]"}) {
        INFO(bad);
        const auto e = run_verifier(std::string(kBase) + "extra_snapshots = " + bad + "\n", "kh_f1_bad_snapshots.toml");
        CHECK(e.rc == 3);
        CHECK(e.err.find("extra_snapshots") != std::string::npos);
    }
}
#endif
