// verifiers/bf/bf_data.hpp -- what the Boursier-Flammarion verifiers share (presentation only; the
// mathematics is in lib/flowcert/proofs/bf): the data keys of a case and loading them into a
// nets::TwoLayerSpec, the initialization keys, formatting, and the optional `[[bounds]]` tables (claimed
// enclosures of named quantities, each a conclusion check `inside`).
#pragma once

#include <flowcert/cert.hpp>
#include <flowcert/nets.hpp>
#include <flowcert/proofs/bf.hpp>

#include <map>
#include <regex>
#include <string>
#include <vector>

namespace bf {

namespace cert = flowcert::cert;
namespace nets = flowcert::nets;
namespace proofs = flowcert::proofs::bf;

inline std::vector<cert::KeySpec> data_keys() {
    return {
        {.name = "x", .type = cert::KeyType::matrix, .description = "inputs, one row per data point (before the bias coordinate)"},
        {.name = "y", .type = cert::KeyType::numbers, .description = "labels, one per data point"},
        {.name = "bias", .type = cert::KeyType::boolean, .description = "append the coordinate 1 to every input (default false)", .required = false},
        {.name = "gamma", .type = cert::KeyType::number, .description = "leaky-ReLU slope in [0, 1] (default 0: ReLU)",
         .required = false, .constraint = cert::Constraint::unit_interval},
        {.name = "loss", .type = cert::KeyType::string, .description = "half_square (default) or logistic",
         .required = false, .choices = {"half_square", "logistic"}},
        {.name = "bounds", .type = cert::KeyType::tables,
         .description = "claimed enclosures [lo, hi] of named quantities (see docs/bf.md)", .required = false,
         .fields = {{.name = "quantity", .type = cert::KeyType::string, .description = "quantity name"},
                    {.name = "lo", .type = cert::KeyType::number, .description = "claimed lower bound"},
                    {.name = "hi", .type = cert::KeyType::number, .description = "claimed upper bound"}}},
    };
}

// The keys of a seeded initialization of eq. (3) and of a flow horizon.
inline std::vector<cert::KeySpec> init_keys() {
    return {
        {.name = "m", .type = cert::KeyType::integer, .description = "number of neurons", .constraint = cert::Constraint::positive},
        {.name = "seed", .type = cert::KeyType::integer, .description = "initialization seed"},
        {.name = "lambda", .type = cert::KeyType::number, .description = "initialization scale, eq. (3)", .constraint = cert::Constraint::positive},
        {.name = "init", .type = cert::KeyType::string, .description = "initialization kind (default balanced_gaussian)",
         .required = false, .choices = {"balanced_gaussian", "dominated_uniform_ball", "unbalanced_gaussian"}},
    };
}

inline nets::TwoLayerSpec load_spec(const cert::Case& in) {
    nets::TwoLayerSpec s;
    s.x = in.matrix("x");
    s.y = in.number_strings("y");
    s.bias = in.has("bias") && in.boolean("bias");
    if (in.has("gamma")) s.gamma = in.number_string("gamma");
    if (in.has("loss") && in.string("loss") == "logistic") s.loss = nets::LossKind::logistic;
    return s;
}

inline nets::InitSpec load_init(const cert::Case& in) {
    nets::InitSpec is;
    if (in.has("init")) {
        const std::string k = in.string("init");
        if (k == "dominated_uniform_ball") is.kind = nets::InitKind::dominated_uniform_ball;
        if (k == "unbalanced_gaussian") is.kind = nets::InitKind::unbalanced_gaussian;
    }
    is.m = static_cast<std::size_t>(in.integer("m"));
    is.seed = static_cast<std::uint64_t>(in.integer("seed"));
    is.lambda = in.number_string("lambda");
    return is;
}

inline void validate_data(const cert::Case& in) {
    const auto s = load_spec(in);
    if (const std::string p = nets::spec_problem(s); !p.empty()) in.fail("x", p);
}

// --export-instance: the seeded initialization theta(0) = scale (a~, w~) [BF2025, eq. (3)], with a~, w~ the
// exact generated doubles and scale = lambda / sqrt(m) (or lambda), and the case's data as the nearest float64.
template <class Init>
void export_initialization(const cert::Context& ctx, const nets::InitSpec& is, const nets::TwoLayerModel<flowcert::IntervalD>& model,
                           const Init& init) {
    if (!ctx.instance_export) return;
    const std::size_t m = is.m, d = model.d(), n = model.n();
    ctx.export_array("w_tilde", {m, d}, init.w_tilde, "w~_j, row j (exact generated doubles; with the bias coordinate last)");
    ctx.export_array("a_sign", {m}, init.a_sign, "s_j (balanced: a~_j = s_j |w~_j|; dominated: a~_j = s_j) or a~_j (unbalanced)");
    std::vector<double> a0(m), w0(m * d), x(n * d), y(n);
    for (std::size_t j = 0; j < m; ++j) {
        a0[j] = flowcert::mid(init.theta.a[j]);
        for (std::size_t i = 0; i < d; ++i) w0[j * d + i] = flowcert::mid(init.theta.W(j, i));
    }
    for (std::size_t k = 0; k < n; ++k) {
        y[k] = flowcert::mid(model.y(k));
        for (std::size_t i = 0; i < d; ++i) x[k * d + i] = flowcert::mid(model.x(k, i));
    }
    ctx.export_array("a0", {m}, a0, "a_j(0), the float64 nearest the exact initialization (non-rigorous rounding)");
    ctx.export_array("W0", {m, d}, w0, "w_j(0), the float64 nearest the exact initialization (non-rigorous rounding)");
    ctx.export_array("X", {n, d}, x, "inputs (with the bias coordinate if bias = true), float64 nearest the case's decimals");
    ctx.export_array("y", {n}, y, "labels, float64 nearest the case's decimals");
    ctx.export_value("lambda", is.lambda, "the initialization scale lambda of eq. (3)");
    ctx.export_value("m", std::to_string(m), std::string("neurons; theta(0) = ") +
                                                  (is.divide_by_sqrt_m ? "lambda / sqrt(m)" : "lambda") + " * (a~, w~)");
}

inline flowcert::IntervalMp mp(const flowcert::Rational& q, long bits) { return flowcert::enclose(q, bits); }
using flowcert::format_g;
inline std::string vec_str(const nets::QVec& v) {
    std::string s = "(";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i].str();
    return s + ")";
}
inline std::string vec_dec(const nets::QVec& v, int digits = 10) {
    std::string s = "(";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + nets::decimal_string(v[i], digits);
    return s + ")";
}
inline std::string signs_str(const std::vector<int>& u) {
    std::string s;
    for (int v : u) s += v > 0 ? '+' : (v < 0 ? '-' : '0');
    return s;
}

// The `[[bounds]]` tables: every claimed [lo, hi] is a conclusion "the named enclosure lies inside it".
struct Quantities {
    std::map<std::string, flowcert::IntervalMp> values;
    void set(const std::string& name, const flowcert::IntervalMp& v) { values.insert_or_assign(name, v); }
};
// Every name a bf verifier can store in Quantities (the Q.set calls of verifiers/bf; docs/bf.md lists them). A
// [[bounds]] entry naming anything else is a malformed case (exit 3 at its line); a known name this run did not
// compute (another route, a failed step) leaves the claimed bound not proven.
inline bool known_quantity(const std::string& name) {
    static const std::regex known(
        "(beta|prediction|residual|D_star|a5_lhs|a5_rhs)_[0-9]+|h_[0-9]+_final|loss_paper|loss_code|D_star_norm|eta_min|"
        "lambda_min_H|lambda_star|D_max|D_min|max_G|min_G|alpha_min|delta0|"
        "extremal [0-9]+ (\\|D\\||D_1|D_2)|local (max|min) [0-9]+ G");
    return std::regex_match(name, known);
}
inline void plan_bounds(const cert::Case& in, cert::Report& r) {
    if (!in.has("bounds")) return;
    std::map<std::string, long> seen;  // name -> line of its first entry
    for (const auto& b : in.tables("bounds")) {
        const std::string name = b.string("quantity");
        if (!known_quantity(name))
            b.fail("quantity", "'" + name + "' is not a quantity any bf verifier computes (names: docs/bf.md, [[bounds]])");
        if (const auto [it, fresh] = seen.emplace(name, b.line_of("quantity")); !fresh)
            b.fail("quantity", "a second [[bounds]] entry for '" + name + "' (the first is at line " + std::to_string(it->second) +
                                   "): claim one interval per quantity");
        // An empty claimed interval is a malformed claim (compared exactly, as the case wrote it), not an internal error.
        if (flowcert::parse_rational_string(b.number_string("hi")) < flowcert::parse_rational_string(b.number_string("lo")))
            b.fail("hi", "must be >= lo = " + b.number_string("lo") + " (the claimed interval [lo, hi] is empty)");
        r.plan("claimed bound: " + name);
    }
}
inline void check_bounds(const cert::Case& in, cert::Report& r, const Quantities& q, const std::string& citation) {
    if (!in.has("bounds")) return;
    for (const auto& b : in.tables("bounds")) {
        const std::string name = b.string("quantity");
        auto it = q.values.find(name);
        auto ck = r.conclusion("claimed bound: " + name, citation).case_claim("[[bounds]] entry '" + name + "' of the case");
        if (it == q.values.end()) {
            ck.holds(false, "unknown quantity '" + name + "' (not computed by this verifier for this case)");
            continue;
        }
        ck.statement(name + " in [" + b.number_string("lo") + ", " + b.number_string("hi") + "]")
            .inside({name, it->second}, cert::Operand::exact_interval("claimed", b.number_string("lo"), b.number_string("hi")));
    }
}

// The exact least-squares quantities [BF2025, Sec. 4] as a table; `full` adds beta* components, predictions,
// the code's loss, D* and |D*|. Stores them in Q under the names of docs/bf.md.
inline void least_squares_table(cert::Report& R, const proofs::LeastSquares& ls, std::size_t n, long bits, Quantities& Q, bool full) {
    if (!ls.ok) return;
    cert::Table& T = R.table("least squares (exact)", {"quantity", "exact", "enclosure"});
    auto row = [&](const std::string& qname, const std::string& label, const flowcert::Rational& v) {
        if (!qname.empty()) Q.set(qname, mp(v, bits));
        T.add_row({label, v.str(), to_string(mp(v, bits), 15)});
    };
    for (std::size_t i = 0; i < ls.beta.size(); ++i) row("beta_" + std::to_string(i + 1), "beta*_" + std::to_string(i + 1), ls.beta[i]);
    if (full)
        for (std::size_t k = 0; k < n; ++k)
            row("prediction_" + std::to_string(k + 1), "prediction x_" + std::to_string(k + 1) + "^T beta*", ls.predictions[k]);
    for (std::size_t k = 0; k < n; ++k) row(full ? "residual_" + std::to_string(k + 1) : "", "residual r_" + std::to_string(k + 1), ls.residuals[k]);
    row("loss_paper", "(1/(2n)) sum r^2", ls.loss_paper);
    if (!full) return;
    row("loss_code", "(1/n) sum r^2 (authors' code)", ls.loss_code);
    flowcert::Rational nn = 0;
    for (std::size_t i = 0; i < ls.D_star.size(); ++i) {
        row("D_star_" + std::to_string(i + 1), "D*_" + std::to_string(i + 1), ls.D_star[i]);
        nn += ls.D_star[i] * ls.D_star[i];
    }
    const auto norm = sqrt(mp(nn, bits));
    Q.set("D_star_norm", norm);
    T.add_row({"|D*| = sqrt(" + nn.str() + ")", "-", to_string(norm, 15)});
}

}  // namespace bf
