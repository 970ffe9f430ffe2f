// Falsification cases of the rh verifiers (issue 14, item 4): every shipped case under cases/rh
// labelled "falsification" is re-run here as a plain (NON-rigorous) long-double gradient descent
// on the same data, and the simulation must show the verifier's conclusion false on it:
//   rh/pattern_and_limit: GD does not reach a global minimum of the loss (L(w_N) stays above
//     min L, or the iterates blow up);
//   rh/gap: the same, or the ratio ||w_N - w*|| / sqrt(n_-/d) leaves the case's band [ratio_lower,
//     ratio_upper] (w* by enumerating every face of the QP, in long double).
// Such a case must never be CERTIFIED (its `expect` is checked here too; the case test checks
// that the verifier gives it).
#include <catch2/catch.hpp>

#include <Eigen/Dense>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include <flowcert/nets.hpp>

using namespace flowcert;
using namespace flowcert::nets::rh;
using LD = long double;

namespace {

// The case files here use one `key = value` per line (strings, integers, arrays of strings).
std::map<std::string, std::string> read_case(const std::filesystem::path& p) {
    std::map<std::string, std::string> kv;
    std::ifstream f(p);
    std::string line;
    while (std::getline(f, line)) {
        if (line.empty() || line[0] == '#') continue;
        const auto eq = line.find('=');
        if (eq == std::string::npos) continue;
        auto trim = [](std::string s) {
            const auto a = s.find_first_not_of(" \t");
            const auto b = s.find_last_not_of(" \t");
            return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
        };
        std::string k = trim(line.substr(0, eq)), v = trim(line.substr(eq + 1));
        if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
        kv[k] = v;
    }
    return kv;
}

std::vector<std::string> string_array(const std::string& v) {  // ["a", "b"] -> {a, b}
    std::vector<std::string> out;
    std::string cur;
    bool in = false;
    for (char c : v) {
        if (c == '"') {
            if (in) out.push_back(cur);
            cur.clear();
            in = !in;
        } else if (in) {
            cur += c;
        }
    }
    return out;
}

LD to_ld(const std::string& s) {  // "1/4", "1e-3", "2"
    const auto slash = s.find('/');
    if (slash != std::string::npos) return std::stold(s.substr(0, slash)) / std::stold(s.substr(slash + 1));
    return std::stold(s);
}

struct Simulation {
    int n = 0, m = 1;
    long d = 0;
    std::vector<LD> y;
    LD loss_min = 0, loss = 0;
    bool blew_up = false;
    LD ratio = -1;  // ||w_N - w*|| / sqrt(n_-/d) (m = 1, when computed)
};

// Long-double GD in primal-dual coordinates on the regenerated data (NOT rigorous).
Simulation simulate(const InstanceSpec& spec, int steps, bool with_ratio) {
    const Instance inst = make_instance(spec);  // labels, eta, n_- as the verifier reads them
    Simulation s;
    const int n = s.n = inst.n, m = s.m = inst.m;
    const long d = s.d = inst.d;
    std::vector<std::vector<double>> X(n, std::vector<double>(d));
    for (int i = 0; i < n; ++i) {
        const int row = spec.row_order.empty() ? i : spec.row_order[i];
        nets::RandomStream(spec.seed, "X", static_cast<std::uint64_t>(row)).fill_gaussian(X[i]);
    }
    Eigen::Matrix<LD, Eigen::Dynamic, Eigen::Dynamic> G(n, n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            LD acc = 0;
            for (long k = 0; k < d; ++k) acc += static_cast<LD>(X[i][k]) * X[j][k];
            G(i, j) = acc;
        }
    s.y.resize(n);
    for (int i = 0; i < n; ++i) s.y[i] = static_cast<LD>(mid(inst.y[i]));
    const LD eta = static_cast<LD>(mid(inst.eta));
    // w_p = u_p + X^T a_p; beta_p = X u_p + G a_p.
    std::vector<std::vector<LD>> a(m, std::vector<LD>(n)), beta(m, std::vector<LD>(n, 0));
    std::vector<std::vector<LD>> u(m);
    for (int p = 0; p < m; ++p) {
        for (int i = 0; i < n; ++i) a[p][i] = static_cast<LD>(mid(inst.a0[p][i]));
        if (spec.init == "gaussian") {
            std::vector<double> g(d);
            nets::RandomStream(spec.seed, "w0", static_cast<std::uint64_t>(p)).fill_gaussian(g);
            u[p].resize(d);
            for (long k = 0; k < d; ++k) u[p][k] = to_ld(spec.init_scale) * g[k];
            for (int i = 0; i < n; ++i) {
                LD acc = 0;
                for (long k = 0; k < d; ++k) acc += u[p][k] * X[i][k];
                beta[p][i] = acc;
            }
        }
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) beta[p][i] += G(i, j) * a[p][j];
    }
    auto residual = [&](std::vector<LD>& r) {
        for (int i = 0; i < n; ++i) {
            LD f = 0;
            for (int p = 0; p < m; ++p)
                if (beta[p][i] > 0) f += inst.s[p] * beta[p][i];
            r[i] = f - s.y[i];
        }
    };
    std::vector<LD> r(n);
    for (int k = 0; k < steps && !s.blew_up; ++k) {
        residual(r);
        for (int p = 0; p < m; ++p) {
            std::vector<LD> v(n);
            for (int i = 0; i < n; ++i) v[i] = beta[p][i] > 0 ? r[i] : 0;
            for (int i = 0; i < n; ++i) a[p][i] -= eta * inst.s[p] * v[i];
            for (int i = 0; i < n; ++i) {
                LD gv = 0;
                for (int j = 0; j < n; ++j) gv += G(i, j) * v[j];
                beta[p][i] -= eta * inst.s[p] * gv;
                if (!std::isfinite(static_cast<double>(beta[p][i])) || std::fabs(static_cast<double>(beta[p][i])) > 1e30)
                    s.blew_up = true;
            }
        }
    }
    residual(r);
    s.loss = 0;
    for (int i = 0; i < n; ++i) s.loss += r[i] * r[i] / 2;
    for (int i = 0; i < n; ++i)
        if (m == 1 && s.y[i] <= 0) s.loss_min += s.y[i] * s.y[i] / 2;
    if (with_ratio && m == 1 && !s.blew_up && inst.n_minus > 0) {
        // w* = argmin ||w|| s.t. X_P w = y_P, X_N w <= 0: the feasible face of least norm (all 2^|N| faces).
        std::vector<int> N;
        for (int i = 0; i < n; ++i)
            if (s.y[i] <= 0) N.push_back(i);
        LD best = INFINITY;
        std::vector<LD> best_alpha(n, 0);
        for (unsigned mask = 0; mask < (1u << N.size()); ++mask) {
            std::vector<int> A;
            for (int i = 0; i < n; ++i) {
                bool in = s.y[i] > 0;
                for (size_t t = 0; t < N.size(); ++t)
                    if (N[t] == i && (mask >> t & 1u)) in = true;
                if (in) A.push_back(i);
            }
            const int k = static_cast<int>(A.size());
            Eigen::Matrix<LD, Eigen::Dynamic, Eigen::Dynamic> GA(k, k);
            Eigen::Matrix<LD, Eigen::Dynamic, 1> rhs(k);
            for (int x = 0; x < k; ++x) {
                rhs(x) = s.y[A[x]] > 0 ? s.y[A[x]] : 0;
                for (int z = 0; z < k; ++z) GA(x, z) = G(A[x], A[z]);
            }
            const Eigen::Matrix<LD, Eigen::Dynamic, 1> xa = GA.fullPivLu().solve(rhs);
            std::vector<LD> alpha(n, 0);
            for (int x = 0; x < k; ++x) alpha[A[x]] = xa(x);
            bool feasible = true;
            LD norm2 = 0;
            for (int i = 0; i < n; ++i) {
                LD bi = 0;
                for (int j = 0; j < n; ++j) bi += G(i, j) * alpha[j];
                if (s.y[i] <= 0 && bi > 1e-12L * G(i, i)) feasible = false;
                norm2 += alpha[i] * bi;
            }
            if (feasible && norm2 < best) {
                best = norm2;
                best_alpha = alpha;
            }
        }
        // ||w_N - w*||^2 = ||u||^2 + 2 (X u)^T delta + delta^T G delta, delta = a - alpha*
        LD q = 0;
        std::vector<LD> delta(n);
        for (int i = 0; i < n; ++i) delta[i] = a[0][i] - best_alpha[i];
        if (!u[0].empty()) {
            for (long k = 0; k < d; ++k) q += u[0][k] * u[0][k];
            for (int i = 0; i < n; ++i) {
                LD xu = 0;
                for (long k = 0; k < d; ++k) xu += u[0][k] * X[i][k];
                q += 2 * xu * delta[i];
            }
        }
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) q += delta[i] * G(i, j) * delta[j];
        s.ratio = std::sqrt(q) / std::sqrt(static_cast<LD>(inst.n_minus) / d);
    }
    return s;
}

InstanceSpec spec_of(const std::map<std::string, std::string>& kv) {
    InstanceSpec s;
    s.seed = std::stoull(kv.at("seed"));
    s.n = std::stoi(kv.at("n"));
    s.d = std::stol(kv.at("d"));
    s.m = std::stoi(kv.at("m"));
    s.labels = kv.at("targets");
    s.eta_d = kv.at("eta_d");
    s.init = kv.at("init");
    s.init_scale = kv.at("init_scale");
    if (kv.count("row_order"))
        for (const auto& v : string_array(kv.at("row_order"))) s.row_order.push_back(std::stoi(v));
    return s;
}

}  // namespace

TEST_CASE("every rh falsification case: a long-double simulation shows its conclusion false", "[rh][falsification]") {
    int cases = 0;
    for (const auto& entry : std::filesystem::directory_iterator(FLOWCERT_RH_CASES_DIR)) {
        if (entry.path().extension() != ".toml") continue;
        const auto kv = read_case(entry.path());
        const auto labels = string_array(kv.count("labels") ? kv.at("labels") : "");
        if (std::find(labels.begin(), labels.end(), "falsification") == labels.end()) continue;
        ++cases;
        INFO("case " << entry.path().filename().string());
        REQUIRE(kv.at("expect") != "certified");
        const std::string verifier = kv.at("verifier");
        REQUIRE((verifier == "rh/pattern_and_limit" || verifier == "rh/gap"));
        const bool gap = verifier == "rh/gap";
        const Simulation s = simulate(spec_of(kv), 4000, gap);
        INFO("loss " << static_cast<double>(s.loss) << " min " << static_cast<double>(s.loss_min) << " blew up "
                     << s.blew_up << " ratio " << static_cast<double>(s.ratio));
        const bool not_global_min = s.blew_up || s.loss - s.loss_min > 1e-3L;
        bool out_of_band = false;
        if (gap && s.ratio >= 0)
            out_of_band = s.ratio < to_ld(kv.at("ratio_lower")) || s.ratio > to_ld(kv.at("ratio_upper"));
        CHECK((not_global_min || out_of_band));
    }
    CHECK(cases >= 9);  // several seeds of each negative family (cases/rh)
}

TEST_CASE("the simulation is not biased towards failure: it reaches the global minimum on certified cases",
          "[rh][falsification]") {
    for (const char* name : {"pattern_m1_fast.toml", "gap_seed5.toml"}) {
        const auto kv = read_case(std::filesystem::path(FLOWCERT_RH_CASES_DIR) / name);
        const Simulation s = simulate(spec_of(kv), 4000, std::string(name) == "gap_seed5.toml");
        INFO(name << " loss " << static_cast<double>(s.loss) << " min " << static_cast<double>(s.loss_min));
        CHECK_FALSE(s.blew_up);
        CHECK(s.loss - s.loss_min < 1e-12L);
        if (s.ratio >= 0) CHECK(std::fabs(static_cast<double>(s.ratio) - 0.37104315) < 1e-6);  // the certified ratio (gap_seed5)
    }
}
