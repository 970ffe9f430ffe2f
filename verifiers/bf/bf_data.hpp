// verifiers/bf/bf_data.hpp -- what the Boursier-Flammarion verifiers share: the data keys of a
// case, loading them into a nets::TwoLayerSpec, exact-rational formatting, and the optional
// `[[bounds]]` tables (claimed enclosures of named quantities, each a check_subset).
#pragma once

#include <flowcert/cert.hpp>
#include <flowcert/nets.hpp>

#include <map>
#include <string>
#include <vector>

namespace bf {

namespace cert = flowcert::cert;
namespace nets = flowcert::nets;

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

inline nets::TwoLayerSpec load_spec(const cert::Case& in) {
    nets::TwoLayerSpec s;
    s.x = in.matrix("x");
    s.y = in.number_strings("y");
    s.bias = in.has("bias") && in.boolean("bias");
    if (in.has("gamma")) s.gamma = in.number_string("gamma");
    if (in.has("loss") && in.string("loss") == "logistic") s.loss = nets::LossKind::logistic;
    return s;
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

inline flowcert::IntervalMp mp(const nets::Rational& q, long bits) {
    return flowcert::IntervalMp::from_decimal(q.str(), flowcert::Precision(bits));
}
inline std::string exact_str(const nets::Rational& q) { return q.str(); }
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

// The `[[bounds]]` tables: every claimed [lo, hi] becomes a check_subset of the named enclosure.
// Quantities the verifier does not know make the case bad input (Case::fail).
struct Quantities {
    std::map<std::string, flowcert::IntervalMp> values;
    void set(const std::string& name, const flowcert::IntervalMp& v) { values.insert_or_assign(name, v); }
};
inline void plan_bounds(const cert::Case& in, cert::Report& r) {
    if (!in.has("bounds")) return;
    for (const auto& b : in.tables("bounds")) r.plan("claimed bound: " + b.string("quantity"));
}
inline void check_bounds(const cert::Case& in, cert::Report& r, const Quantities& q, const std::string& citation) {
    if (!in.has("bounds")) return;
    for (const auto& b : in.tables("bounds")) {
        const std::string name = b.string("quantity");
        auto it = q.values.find(name);
        if (it == q.values.end()) {
            r.check_true("claimed bound: " + name, citation, false,
                         "unknown quantity '" + name + "' (not computed by this verifier for this case)");
            continue;
        }
        r.check_subset("claimed bound: " + name, citation, {name, it->second},
                       cert::Operand::exact_interval("claimed", b.number_string("lo"), b.number_string("hi")),
                       name + " in [" + b.number_string("lo") + ", " + b.number_string("hi") + "]");
    }
}

}  // namespace bf
