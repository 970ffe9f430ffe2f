// verifiers/kh/theorem4_case.hpp -- the case of kh/theorem4_limit_path: its schema, the instance read from its keys
// (data, the 2-homogeneous model, w0 up to scale, the permutation of unit inputs of the weighted-squares closed form)
// and the names of its checks. Presentation: case keys -> library specs, no mathematics. Local to verifiers/kh.
#pragma once

#include <flowcert/cert.hpp>
#include <flowcert/nets.hpp>
#include <flowcert/proofs/kh/theorem4_limit_path.hpp>

#include <string>
#include <vector>

#include "kh_case_inputs.hpp"

namespace kh4 {

// The names of the checks (plan, records and premises agree on them).
namespace names {
inline const std::string H_L2 = "H is 2-homogeneous", KKT = "w* is a KKT point of (4) (unique in its box)",
                         NPOS = "N(w*) > 0", DPOS = "Delta_max > 0", DLE = "0 < Delta <= Delta_max",
                         CAP = "Lemma 23 cap: (1 - gamma)(2 - gamma) Delta_max >= Delta, gamma < 1",
                         STABLE = "w0 in S(w*) (Definition 2)", ENTER = "the NCF tube from w0 enters the Lemma 23/24 cap",
                         C0 = "w*^T w0 > 0 (the exhibited shift is defined)", CAPN = "Lemma 24 (32): N(w) > 0 on the cap",
                         PCF = "p(t) closed form applies (the certified w* is the closed form's KKT point)",
                         PLP = "p(t) enclosed by the Lyapunov-Perron ball (self-map and contraction)",
                         CONCL = "Theorem 4 bound on the sweep: E(delta) <= C~ delta^kappa for the exhibited shift";
inline std::string tube(const std::string& ds) { return "tube on |t| <= T~, delta = " + ds; }
inline std::string bound(const std::string& ds) { return "E(delta) <= C~ delta^kappa, delta = " + ds; }
}  // namespace names

template <flowcert::Interval I>
struct Instance {
    long bits = 53;
    khcase::CaseData<I> data;
    flowcert::nets::HomogeneousArchitecture arch;
    flowcert::nets::SquareLossNormalization norm;
    int n = 0, d = 0, L = 0, P = 0;
    std::vector<I> v0;  // w0 up to scale (normalized by the proof step)
    std::vector<std::string> deltas;
    std::vector<int> sample_of;  // limit_path = weighted_squares: x_i = e_k for i = sample_of[k]
};

// The permutation of inputs x_i = e_{pi(i)} (written 1 / 0): sample_of[pi(i)] = i; the weighted-squares closed form
// needs it (then the loss is sum_i c (s_pi(i) w_pi(i)^2 - y_i)^2). Empty when the inputs are not such.
inline std::vector<int> unit_inputs(const std::vector<std::vector<std::string>>& rows, int d) {
    std::vector<int> sample_of(static_cast<std::size_t>(d), -1);
    const int n = static_cast<int>(rows.size());
    bool unit = n == d;
    for (int i = 0; i < n && unit; ++i) {
        int one_at = -1, ones = 0;
        for (int k = 0; k < d; ++k) {
            if (rows[i][k] == "1") ++ones, one_at = k;
            else unit = unit && rows[i][k] == "0";
        }
        unit = unit && ones == 1 && sample_of[static_cast<std::size_t>(one_at)] < 0;
        if (unit) sample_of[static_cast<std::size_t>(one_at)] = i;
    }
    return unit ? sample_of : std::vector<int>{};
}

template <flowcert::Interval I>
Instance<I> read_instance(const flowcert::cert::Context& ctx, flowcert::cert::Report& rep) {
    using namespace flowcert;
    using namespace flowcert::nets;
    const cert::Case& in = ctx.input;
    Instance<I> s;
    s.bits = std::is_same_v<I, IntervalD> ? 53 : ctx.precision_bits;
    s.data = khcase::read_explicit_data<I>(in, s.bits);  // rows of equal length: the schema
    s.n = static_cast<int>(s.data.X.cols());
    s.d = static_cast<int>(s.data.X.rows());
    const std::string model = in.string("model");
    if (model == "example1") s.arch = HomogeneousArchitecture::example1();
    else if (model == "weighted_squares") s.arch = HomogeneousArchitecture::weighted_squares(khcase::to_ints(in.number_strings("signs")));
    else if (model == "linear_one_neuron") s.arch = HomogeneousArchitecture::feed_forward(s.d, {1}, HomActivation::linear());
    else s.arch = HomogeneousArchitecture::diagonal(s.d, 2);  // (depth 2: not khcase::parse_architecture's `depth` key)
    if (s.arch.input_dim != s.d) in.fail("inputs", "the input dimension does not match the model");
    s.norm = khcase::parse_loss(in.string("loss"));
    s.L = s.arch.homogeneity_order();
    s.P = s.arch.parameter_count();
    rep.note("model: " + s.arch.describe() + "; loss " + s.norm.describe() + " (ytilde = 2c y); arithmetic " +
             IntervalTraits<I>::name + " (" + std::to_string(s.bits) + " bits)");
    const auto w0v = in.number_strings("initial_direction");
    if (static_cast<int>(w0v.size()) != s.P) in.fail("initial_direction", "need one entry per parameter");
    for (const auto& x : w0v) s.v0.push_back(IntervalTraits<I>::from_decimal(x, s.bits));
    s.deltas = in.number_strings("deltas");
    if (in.string("limit_path") == "weighted_squares") s.sample_of = unit_inputs(in.matrix("inputs"), s.d);
    return s;
}

// The checks in the order they are recorded.
inline void plan(flowcert::cert::Report& rep, const std::vector<std::string>& deltas, bool lp) {
    using namespace names;
    for (const auto& c : {KKT, NPOS, DPOS, DLE, CAP, CAPN, ENTER, STABLE, C0}) rep.plan(c);
    rep.plan(lp ? PLP : PCF);
    for (const auto& ds : deltas) rep.plan(tube(ds));
    for (std::size_t i = 1; i < deltas.size(); ++i) rep.plan(bound(deltas[i]));
    rep.plan(CONCL);
}

inline flowcert::cert::CaseSchema schema() {
    using flowcert::cert::Constraint;
    using flowcert::cert::KeyType;
    return {
        {.name = "model", .type = KeyType::string, .description = "architecture (L = 2)",
         .choices = {"example1", "weighted_squares", "diagonal", "linear_one_neuron"}},
        {.name = "signs", .type = KeyType::numbers, .description = "weighted_squares: s_k in {+1,-1}", .required = false},
        {.name = "inputs", .type = KeyType::matrix, .description = "one row per sample x_i"},
        {.name = "targets", .type = KeyType::numbers, .description = "labels y_i"},
        {.name = "loss", .type = KeyType::string, .description = "square-loss normalization (paper: sum (p-y)^2)",
         .choices = {"paper", "half", "mean", "half_mean"}},
        {.name = "interval_type", .type = KeyType::string, .description = "IntervalD (default) or IntervalMp",
         .required = false, .choices = {"IntervalD", "IntervalMp"}},
        {.name = "initial_direction", .type = KeyType::numbers,
         .description = "w0 up to scale (normalized in interval arithmetic)"},
        {.name = "kkt_start", .type = KeyType::numbers,
         .description = "start of Newton for w* (default: the NCF-flow direction from w0)", .required = false},
        {.name = "delta", .type = KeyType::number, .description = "Delta (default: lower bound of Delta_max)",
         .required = false, .constraint = Constraint::positive},
        {.name = "cap_gamma", .type = KeyType::number, .description = "gamma of the Lemma 23 cap",
         .constraint = Constraint::positive},
        {.name = "ncf_horizon", .type = KeyType::number, .description = "longest NCF tube (default 10)",
         .required = false, .constraint = Constraint::positive},
        {.name = "deltas", .type = KeyType::numbers, .description = "initialization scales, decreasing",
         .constraint = Constraint::positive},
        {.name = "window", .type = KeyType::number, .description = "T~ (window |t| <= T~)",
         .constraint = Constraint::positive},
        {.name = "window_grid", .type = KeyType::integer, .description = "output times on the window (default 400)",
         .required = false, .constraint = Constraint::positive},
        {.name = "taylor_order", .type = KeyType::integer, .description = "Taylor order (default 20)",
         .required = false, .constraint = Constraint::positive},
        {.name = "limit_path", .type = KeyType::string,
         .description = "closed form of p(t), or lyapunov_perron: p enclosed without a closed form (docs/kh.md)",
         .choices = {"weighted_squares", "diagonal", "lyapunov_perron"}},
        {.name = "actual_slope_tolerance", .type = KeyType::number,
         .description = "also check the last slope against Delta_max/(2N*)", .required = false,
         .constraint = Constraint::positive},
    };
}

inline void validate(const flowcert::cert::Case& c) {
    if (c.string("model") == "linear_one_neuron" && c.string("limit_path") != "lyapunov_perron")
        c.fail("limit_path", "linear_one_neuron has no closed-form p(t): use lyapunov_perron");
    if (c.string("model") == "weighted_squares" && !c.has("signs")) c.fail("signs", "required for weighted_squares");
    const auto ds = c.number_strings("deltas");
    // C~ is fixed by the first delta, so with one delta the bound C~ delta^kappa holds by construction.
    if (ds.size() < 2)
        c.fail("deltas", "need at least two deltas (C~ is exhibited from the first, the bound is checked on the others)");
    for (std::size_t i = 0; i + 1 < ds.size(); ++i)
        if (!flowcert::certainly_less(flowcert::IntervalD::from_decimal(ds[i + 1]), flowcert::IntervalD::from_decimal(ds[i])))
            c.fail("deltas", "must be strictly decreasing");
}

// The start of Newton for w* (non-rigorous; certified afterwards): the case's kkt_start, or the direction of the
// NCF flow from w0 at large t (Euler iterates); records which.
inline Eigen::VectorXd newton_start(const flowcert::cert::Case& in, flowcert::cert::Report& rep, int P,
                                    const flowcert::nets::Ncf<double>& ncf_d, const Eigen::VectorXd& w0d) {
    Eigen::VectorXd start;
    if (in.has("kkt_start")) {
        const auto sp = in.number_strings("kkt_start");
        if (static_cast<int>(sp.size()) != P) in.fail("kkt_start", "need one entry per parameter");
        start.resize(P);
        for (int j = 0; j < P; ++j) start(j) = flowcert::mid(flowcert::IntervalD::from_decimal(sp[static_cast<std::size_t>(j)]));
        rep.note("w*: Newton (double, non-rigorous) from the case's kkt_start, then certified");
    } else {
        start = flowcert::proofs::kh::ncf_flow_direction_nonrigorous(ncf_d, w0d, 20000);
        rep.note("w*: the direction of the NCF flow from w0 at large t (non-rigorous Euler iterates), polished by "
                 "Newton in double, then certified; that w0 really converges to it is the stable-set check below");
    }
    return start;
}

// The case's limit_path must fit its model (and weighted squares its unit inputs): bad input otherwise.
template <flowcert::Interval I>
void check_closed_form_shape(const flowcert::cert::Case& in, const Instance<I>& s, bool diagonal) {
    using flowcert::nets::ModelKind;
    if (!diagonal && s.arch.kind != ModelKind::weighted_squares) in.fail("limit_path", "weighted_squares needs a weighted-squares model");
    if (!diagonal && s.sample_of.empty())
        in.fail("inputs", "limit_path = weighted_squares needs the inputs x_i = unit vectors e_k in some order (written 1 / 0)");
    if (diagonal && s.arch.kind != ModelKind::diagonal) in.fail("limit_path", "diagonal needs the diagonal model");
}

}  // namespace kh4
