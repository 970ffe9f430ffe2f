// verifiers/kh/theorem18_case.hpp -- the case of kh/theorem18_sparsity: its schema, its keys read into the instance
// (data, model, initial direction W0, the claimed zero set) and the names of its checks. Presentation: case keys ->
// library specs, no mathematics. Local to verifiers/kh.
#pragma once

#include <flowcert/cert.hpp>
#include <flowcert/nets.hpp>
#include <flowcert/proofs/kh/theorem18_sparsity.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "kh_case_inputs.hpp"

namespace kh18 {

using flowcert::IntervalD;

// The names of the checks (plan, records and premises agree on them).
namespace names {
inline const std::string KKT = "KKT point W̄ exists and is unique in its box", NPOS = "N(W̄) > 0",
                         DPOS = "Delta_max > 0 (W̄ is Delta-second-order positive)", ZP = "zero pattern of W̄",
                         DLE = "0 < Delta <= Delta_max (the Delta used)", L17 = "Lemma 17 row/column balance at W̄",
                         CAP = "Lemma 23 cap: (28), (29) and N > 0 on {W̄^T w >= 1 - gamma}",
                         ENTER = "NCF tube from W0 enters the Lemma 23 cap", STABLE = "W0 in S(W̄)",
                         WZ = "w_z is the zero rows and columns of W̄ (Theorem 18's w_z)",
                         UNION = "w_z is a union of Lemma 16 units",
                         FIELD_LOSS = "loss-flow field: f_z vanishes on {w_z = 0} (structural)",
                         FIELD_NCF = "NCF field: f_z vanishes on {w_z = 0} (structural)",
                         TUBE_BAR = "tube from delta W̄ keeps w_z at 0",
                         RESTRICTED = "restricted flow (w_z = exact 0) meets the full flow",
                         TUBE_MASK = "tube from delta W0 masked on w_z keeps w_z at 0",
                         GRAD = "grad_z L = [0, 0] on every tube box (independent evaluator)", T1 = "T1 > 0 (exhibited)",
                         A2 = "A2 > 0 (exhibited)", TB = "T >= 1/(L(L-2) N̄) (exhibited)",
                         CONCL = "Theorem 18 bounds on the sweep (eqs. (11)-(14)) with the exhibited times and constants";
inline std::string reach(const std::string& ds) { return "tube from delta W0 reaches T^2 + T~, delta = " + ds; }
inline std::string t1_positive(const std::string& ds) { return "T^1 > 0, delta = " + ds; }
inline std::string eq13_norm(const std::string& ds) { return "eq. (13) ||psi(T^1)|| <= b1 delta^kappa, delta = " + ds; }
inline std::string eq13_ratio(const std::string& ds) { return "eq. (13) ratio <= b2 delta^(L kappa), delta = " + ds; }
inline std::string eq14_sup(const std::string& ds) { return "eq. (14) sup ||psi_z|| <= C~ delta^kappa, delta = " + ds; }
}  // namespace names

// The instance of a case: data (exact doubles), model, loss, W0, the deltas and the options of the tubes.
struct Instance {
    khcase::CaseData<IntervalD> data;
    flowcert::nets::HomogeneousArchitecture arch;
    flowcert::nets::SquareLossNormalization norm;
    int d = 0, n = 0, L = 0, P = 0;
    bool ff = false;                  // one-hidden-layer feed-forward net (else diagonal)
    std::vector<std::string> deltas;  // empty: no sweep
    Eigen::VectorXd W0;
    std::vector<IntervalD> W0i;
    int order = 20;
    std::string flow_engine = "dense";  // the loss-flow integrator: "dense" (Taylor/Lohner on the DAG) or "square_blocks"
};

// Reads the instance; records the seeds and the notes on the data, the model and W0.
inline Instance read_instance(const flowcert::cert::Context& ctx, flowcert::cert::Report& rep) {
    using namespace flowcert;
    const cert::Case& in = ctx.input;
    Instance s;
    s.data = khcase::read_data<IntervalD>(in, 53);
    khcase::export_data(ctx, s.data);  // --export-instance
    s.d = static_cast<int>(s.data.Xd.rows());
    s.n = static_cast<int>(s.data.Xd.cols());
    if (s.data.teacher) {
        rep.set_seed("data (kh/inputs, kh/teacher streams)", std::to_string(s.data.seed));
        rep.note("data: " + std::to_string(s.n) + " seeded inputs on the unit sphere of R^" + std::to_string(s.d) +
                 ", labels from the teacher " + s.data.teacher->describe() + " (doubles; those doubles are the exact data)");
    } else {
        for (int i = 0; i < s.n; ++i) {
            for (int k = 0; k < s.d; ++k)
                if (!is_point(s.data.X(k, i)))
                    throw std::invalid_argument("inputs: entries must be exact doubles (the flow field takes point data)");
            if (!is_point(s.data.y(i))) throw std::invalid_argument("targets: entries must be exact doubles");
        }
    }
    s.arch = khcase::parse_architecture(in, s.d);
    s.norm = khcase::parse_loss(in.string("loss"));
    s.L = s.arch.homogeneity_order();
    s.P = s.arch.parameter_count();
    s.ff = s.arch.kind == nets::ModelKind::feed_forward;
    rep.note("model: " + s.arch.describe() + "; loss " + s.norm.describe() + "; IntervalD (53 bits)");
    if (in.has("deltas")) s.deltas = in.number_strings("deltas");
    if (in.has("order")) s.order = static_cast<int>(in.integer("order"));
    if (in.has("flow_engine")) s.flow_engine = in.string("flow_engine");
    s.W0.resize(s.P);
    if (in.has("init_direction")) {
        const auto v = in.number_strings("init_direction");
        if (static_cast<int>(v.size()) != s.P) throw std::invalid_argument("init_direction: need one entry per parameter");
        for (int j = 0; j < s.P; ++j) {
            const IntervalD x = IntervalD::from_decimal(v[static_cast<std::size_t>(j)]);
            if (!is_point(x)) throw std::invalid_argument("init_direction: entries must be exact doubles");
            s.W0(j) = lower(x);
        }
    } else {
        const auto seed = static_cast<std::uint64_t>(in.integer("init_seed"));
        rep.set_seed("initial direction (kh/theorem18_init stream)", std::to_string(seed));
        nets::RandomStream rs(seed, "kh/theorem18_init", 0);
        for (int j = 0; j < s.P; ++j) s.W0(j) = rs.gaussian();
        s.W0 /= s.W0.norm();  // in double: the resulting doubles ARE W0 (its norm is enclosed below)
    }
    for (int j = 0; j < s.P; ++j) s.W0i.push_back(IntervalD::exact(s.W0(j)));
    rep.note("initial direction W0: " + std::string(in.has("init_direction") ? "from the case" : "seeded Gaussian "
             "normalized in double") + "; ||W0|| in " +
             to_string(flowcert::proofs::kh::norm_of(s.W0i, flowcert::proofs::kh::all_indices(s.P)), 17));
    return s;
}

// The checks in the order they are recorded.
inline void plan(flowcert::cert::Report& rep, const Instance& s) {
    using namespace names;
    for (const auto& c : {KKT, NPOS, DPOS, ZP, DLE}) rep.plan(c);
    if (s.ff) rep.plan(L17);
    for (const auto& c : {WZ, UNION, FIELD_LOSS, FIELD_NCF, TUBE_BAR, RESTRICTED, TUBE_MASK, GRAD}) rep.plan(c);
    if (!s.deltas.empty()) {
        for (const auto& c : {CAP, ENTER, STABLE, T1, A2}) rep.plan(c);
        if (s.L > 2) rep.plan(TB);
    }
    for (const auto& ds : s.deltas)
        for (const auto& c : {reach(ds), t1_positive(ds), eq13_norm(ds), eq13_ratio(ds), eq14_sup(ds)}) rep.plan(c);
    if (!s.deltas.empty()) rep.plan(CONCL);
}

// `claimed_zero_set` (parameter names) as sorted indices.
inline std::vector<int> claimed_zero_set(const flowcert::cert::Case& in, const flowcert::nets::HomogeneousArchitecture& arch) {
    std::vector<int> z;
    for (const auto& name : in.strings("claimed_zero_set")) {
        int found = -1;
        for (int j = 0; j < arch.parameter_count(); ++j)
            if (arch.parameter_name(j) == name) found = j;
        if (found < 0) throw std::invalid_argument("claimed_zero_set: unknown parameter " + name);
        z.push_back(found);
    }
    std::sort(z.begin(), z.end());
    return z;
}

// The keys of the case (model, data, W0, sweep, exhibited constants, tubes) and the checks across keys.
inline flowcert::cert::CaseSchema schema() {
    using flowcert::cert::Constraint;
    using flowcert::cert::KeyType;
    return khcase::join({
        {
            {.name = "model", .type = KeyType::string, .description = "architecture", .choices = {"feed_forward", "diagonal"}},
            {.name = "depth", .type = KeyType::integer, .description = "diagonal: number of factors", .required = false},
            {.name = "hidden", .type = KeyType::numbers, .description = "feed_forward: one hidden width", .required = false},
            {.name = "activation", .type = KeyType::string, .description = "feed_forward activation", .required = false,
             .choices = {"square", "relu_power", "linear"}},
            {.name = "power", .type = KeyType::integer, .description = "relu_power exponent p >= 2", .required = false},
        },
        khcase::data_keys({"square", "linear"}),
        {
            {.name = "init_seed", .type = KeyType::integer, .description = "seed of the Gaussian initial direction W0", .required = false},
            {.name = "init_direction", .type = KeyType::numbers, .description = "explicit W0 (exact doubles)", .required = false},
            {.name = "deltas", .type = KeyType::numbers, .description = "initialization scales (decreasing)", .required = false,
             .constraint = Constraint::positive},
            {.name = "Delta", .type = KeyType::number, .description = "the Delta of Thm 18 (default: just below Delta_max)",
             .required = false, .constraint = Constraint::positive},
            {.name = "T_tilde", .type = KeyType::number, .description = "half-width of the post-escape window",
             .constraint = Constraint::positive},
            {.name = "align_gamma", .type = KeyType::number, .description = "cap 1 - cos <= gamma defining T1 (default 1e-2)",
             .required = false, .constraint = Constraint::positive},
            {.name = "cap_gamma", .type = KeyType::number,
             .description = "gamma of the Lemma 23 cap {W̄^T w >= 1 - gamma} of the stable-set proof (default 1e-3)",
             .required = false, .constraint = Constraint::positive},
            {.name = "cap_pieces", .type = KeyType::integer, .description = "pieces of the cap certificate (default 64)",
             .required = false, .constraint = Constraint::positive},
            {.name = "ncf_horizon", .type = KeyType::number,
             .description = "longest NCF tube into the cap, in flow time (default 20/Delta_max)", .required = false,
             .constraint = Constraint::positive},
            {.name = "T1", .type = KeyType::number, .description = "override the exhibited T1", .required = false},
            {.name = "A2", .type = KeyType::number, .description = "override the exhibited A2", .required = false},
            {.name = "T_blowup", .type = KeyType::number, .description = "override the exhibited T (L > 2)", .required = false},
            {.name = "b1", .type = KeyType::number, .description = "exhibited b1 of eq. (11)/(13)", .required = false,
             .constraint = Constraint::positive},
            {.name = "b2", .type = KeyType::number, .description = "exhibited b2 of eq. (11)/(13)", .required = false,
             .constraint = Constraint::positive},
            {.name = "c_tilde", .type = KeyType::number, .description = "exhibited C~ of eq. (12)/(14)", .required = false,
             .constraint = Constraint::positive},
            {.name = "claimed_zero_set", .type = KeyType::strings,
             .description = "test Def. 15 on these parameters (names as W1[j,k], v[j]) instead of the KKT zero set",
             .required = false},
            {.name = "zero_tube_tolerance", .type = KeyType::number,
             .description = "bound for ||psi_z|| on the invariance tubes (rounding leaks through the Lohner basis; default 1e-12)",
             .required = false, .constraint = Constraint::positive},
            {.name = "invariance_delta", .type = KeyType::number, .description = "delta of the invariance tubes", .required = false,
             .constraint = Constraint::positive},
            {.name = "heat_map_delta", .type = KeyType::number, .description = "delta whose heat maps are drawn", .required = false},
            {.name = "order", .type = KeyType::integer, .description = "Taylor order of the integrator (default 20)", .required = false,
             .constraint = Constraint::positive},
            {.name = "flow_engine", .type = KeyType::string,
             .description = "loss-flow integrator of the tubes and the sweep: \"dense\" (default; Taylor/Lohner on the flow DAG) "
                            "or \"square_blocks\" (nets::integrate_square_net_flow, one-hidden-layer square nets)",
             .required = false},
            {.name = "block_order", .type = KeyType::integer, .description = "Taylor order of square_blocks (default 12, <= 16)",
             .required = false, .constraint = Constraint::positive},
            {.name = "promote_norm", .type = KeyType::number,
             .description = "square_blocks: a neuron joins the Lohner frame when its norm exceeds this (default 0.05)",
             .required = false, .constraint = Constraint::positive},
            {.name = "block_jacobian_pieces", .type = KeyType::integer,
             .description = "square_blocks: the frame's flow Jacobian as a product over this many sub-intervals per step (default 1)",
             .required = false, .constraint = Constraint::positive},
            {.name = "block_frame_support", .type = KeyType::boolean,
             .description = "square_blocks: the support neurons of the KKT point in the Lohner frame from t = 0 (default false)",
             .required = false},
            {.name = "block_mean_value_remainder", .type = KeyType::boolean,
             .description = "square_blocks: the mean-value remainder validation (SquareNetFlowOptions::remainder_mean_value; "
                            "default false: the Taylor-model one)",
             .required = false},
        },
    });
}

inline void validate(const flowcert::cert::Case& c) {
    const std::string m = c.string("model");
    if (m == "diagonal" && !c.has("depth")) c.fail("depth", "required for diagonal");
    if (m == "feed_forward" && (!c.has("hidden") || !c.has("activation")))
        c.fail("hidden", "feed_forward needs hidden and activation");
    if (m == "feed_forward") khcase::validate_widths(c, "hidden");
    if (m == "feed_forward" && c.number_strings("hidden").size() != 1)
        c.fail("hidden", "one hidden layer only (the flow field supports K = 1)");
    khcase::validate_data_keys(c);
    if (!c.has("init_seed") && !c.has("init_direction")) c.fail("init_seed", "need init_seed or init_direction");
    if (c.has("deltas") && c.number_strings("deltas").size() < 2) c.fail("deltas", "need at least two values");
    if (c.has("flow_engine")) {
        const std::string e = c.string("flow_engine");
        if (e != "dense" && e != "square_blocks") c.fail("flow_engine", "\"dense\" or \"square_blocks\"");
        if (e == "square_blocks" && (m != "feed_forward" || c.string("activation") != "square"))
            c.fail("flow_engine", "square_blocks integrates v^T (W x)^2 only (feed_forward, activation square)");
    }
    if (c.has("block_order") && c.integer("block_order") > 16) c.fail("block_order", "at most 16");
    if (c.has("block_jacobian_pieces") && c.integer("block_jacobian_pieces") > 64) c.fail("block_jacobian_pieces", "at most 64");
}

}  // namespace kh18
