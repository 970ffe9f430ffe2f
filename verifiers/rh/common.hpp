// verifiers/rh/common.hpp -- shared pieces of the rh verifiers (reconstruction of [LWTM2026]): the instance
// keys of a case, the reconstruction notes, --export-instance, and how the hypotheses, steps and
// conclusions of the pattern / limit / w* argument (flowcert/proofs/rh) are recorded (docs/rh.md#roles).
#pragma once

#include <flowcert/cert.hpp>
#include <flowcert/nets.hpp>
#include <flowcert/proofs/rh.hpp>

#include <algorithm>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace flowcert::rh_verifiers {

namespace cert = flowcert::cert;
namespace rh = flowcert::nets::rh;
namespace proof = flowcert::proofs::rh;
namespace nets = flowcert::nets;

inline std::vector<cert::KeySpec> instance_keys(bool with_n_d) {
    std::vector<cert::KeySpec> k;
    k.push_back({.name = "seed", .type = cert::KeyType::integer,
                 .description = "data seed: row i of X is stream (seed, \"X\", i) of flowcert::nets::RandomStream"});
    if (with_n_d) {
        k.push_back({.name = "n", .type = cert::KeyType::integer, .description = "number of samples",
                     .constraint = cert::Constraint::positive});
        k.push_back({.name = "d", .type = cert::KeyType::integer, .description = "dimension",
                     .constraint = cert::Constraint::positive});
    }
    k.push_back({.name = "m", .type = cert::KeyType::integer, .description = "1: relu(<w,x>); 2: relu(<w+,x>) - relu(<w-,x>); rh/gap_m2: any even m, m/2 neurons of each sign"});
    k.push_back({.name = "targets", .type = cert::KeyType::string,
                 .description = "'alternating' (+1,-1,...), 'teacher' (y_i = <w_t,x_i>/sqrt(d)) or n comma-separated numbers"});
    k.push_back({.name = "eta_d", .type = cert::KeyType::number,
                 .description = "eta * d (isotropic covariance); eta := lower end of the enclosure of eta_d / d (an exact "
                                "double); give eta_d or eta_trace",
                 .required = false, .constraint = cert::Constraint::positive});
    k.push_back({.name = "eta_trace", .type = cert::KeyType::number,
                 .description = "eta * tr Sigma; eta := lower end of the enclosure of eta_trace / tr Sigma (required for a "
                                "non-isotropic covariance)",
                 .required = false, .constraint = cert::Constraint::positive});
    k.push_back({.name = "init", .type = cert::KeyType::string,
                 .description = "'span': w(0) = X^T (c 1); 'gaussian': w(0) = c g, g ~ N(0, I_d) from stream (seed, \"w0\", p)",
                 .choices = {"span", "gaussian"}});
    k.push_back({.name = "init_scale", .type = cert::KeyType::number, .description = "c (give init_scale or init_scale_trace)",
                 .required = false, .constraint = cert::Constraint::positive});
    k.push_back({.name = "init_scale_trace", .type = cert::KeyType::number,
                 .description = "c tr Sigma: the init scale c := init_scale_trace / tr Sigma (span: the double below)",
                 .required = false, .constraint = cert::Constraint::positive});
    k.push_back({.name = "covariance", .type = cert::KeyType::string,
                 .description = "data covariance Sigma = diag(lambda): isotropic (default), power_law (lambda_k = k^-alpha), "
                                "spike (lambda_1 = covariance_spike, else 1), diagonal (covariance_diagonal); x_ik = fl(s_k g_ik)",
                 .required = false, .choices = {"isotropic", "power_law", "spike", "diagonal"}});
    k.push_back({.name = "covariance_alpha", .type = cert::KeyType::number,
                 .description = "power_law: alpha in [0, 8], s_k = RN(k^(-alpha/2)) with alpha the nearest double",
                 .required = false, .constraint = cert::Constraint::nonnegative});
    k.push_back({.name = "covariance_spike", .type = cert::KeyType::number,
                 .description = "spike: lambda_1 > 0 (s_1 = RN(sqrt(lambda_1)); lambda_k = 1 for k >= 2)",
                 .required = false, .constraint = cert::Constraint::positive});
    k.push_back({.name = "covariance_diagonal", .type = cert::KeyType::numbers,
                 .description = "diagonal: lambda_1..lambda_d > 0 (d entries)", .required = false,
                 .constraint = cert::Constraint::positive});
    k.push_back({.name = "eps_max", .type = cert::KeyType::number,
                 .description = "the high-dimensional regime of the claim (reconstructed; the paper's dimension condition "
                                "is NOT FOUND): near-orthogonality eps = max_{i!=j}|G_ij| / min_i G_ii <= eps_max (<= 1/2)",
                 .constraint = cert::Constraint::positive});
    k.push_back({.name = "row_order", .type = cert::KeyType::numbers,
                 .description = "optional: sample i is stream row row_order[i] (a permutation of 0..n-1; permuted point order)",
                 .required = false, .constraint = cert::Constraint::nonnegative});
    k.push_back({.name = "max_steps", .type = cert::KeyType::integer, .description = "GD steps before giving up",
                 .required = false, .constraint = cert::Constraint::positive});
    return k;
}

inline rh::InstanceSpec instance_spec(const cert::Case& in, long n, long d) {
    rh::InstanceSpec s;
    s.seed = static_cast<std::uint64_t>(in.integer("seed"));
    s.n = static_cast<int>(n);
    s.d = d;
    s.m = static_cast<int>(in.integer("m"));
    s.labels = in.string("targets");
    s.eta_d = in.has("eta_trace") ? in.number_string("eta_trace") : in.number_string("eta_d");
    s.init = in.string("init");
    s.init_per_trace = in.has("init_scale_trace");
    s.init_scale = s.init_per_trace ? in.number_string("init_scale_trace") : in.number_string("init_scale");
    if (in.has("covariance")) s.covariance.kind = in.string("covariance");
    if (in.has("covariance_alpha")) s.covariance.alpha = in.number_string("covariance_alpha");
    if (in.has("covariance_spike")) s.covariance.spike = in.number_string("covariance_spike");
    if (in.has("covariance_diagonal")) s.covariance.diagonal = in.number_strings("covariance_diagonal");
    if (in.has("row_order"))
        for (const auto& v : in.number_strings("row_order")) s.row_order.push_back(std::stoi(v));
    return s;
}

// --export-instance: the seeded data X (n x d; row i is stream (seed, "X", i), drawn in the chunks of
// rh::make_instance) and, for the gaussian init, g_p (stream (seed, "w0", p)); w_p(0) = c g_p, or X^T (c 1) for span.
inline void export_instance(const cert::Context& ctx, const rh::InstanceSpec& s) {
    if (!ctx.instance_export) return;
    const auto n = static_cast<std::size_t>(s.n), d = static_cast<std::size_t>(s.d);
    constexpr std::size_t chunk = 2048;  // as rh::make_instance: the streams are read chunk by chunk
    auto draw = [&](const char* purpose, std::size_t rows) {
        std::vector<double> out(rows * d);
        for (std::size_t i = 0; i < rows; ++i) {
            const bool permuted = purpose == std::string("X") && !s.row_order.empty();
            nets::RandomStream r(s.seed, purpose, permuted ? static_cast<std::size_t>(s.row_order[i]) : i);
            for (std::size_t k0 = 0; k0 < d; k0 += chunk)
                r.fill_gaussian(std::span<double>(out.data() + i * d + k0, std::min(chunk, d - k0)));
        }
        return out;
    };
    ctx.export_array("X", {n, d}, draw("X", n),
                     "inputs, row i = stream (seed, \"X\", i) or (seed, \"X\", row_order[i]) [LWTM2026 reconstruction]");
    if (s.init == "gaussian")
        ctx.export_array("g", {static_cast<std::size_t>(s.m), d}, draw("w0", static_cast<std::size_t>(s.m)),
                         "w_p(0) = init_scale * g_p, row p = stream (seed, \"w0\", p)");
    ctx.export_value("init_scale", s.init_scale, s.init == "span" ? "w_p(0) = X^T (c 1) with c the double nearest below"
                                                                  : "c in w_p(0) = c g_p");
    ctx.export_value("eta_d", s.eta_d, "eta * d (eta: the double nearest below eta_d / d)");
}

// The covariance, step-size and init-scale keys (docs/rh.md#covariance): each parameter only with its kind,
// eta and c given once, eta_d only for the isotropic covariance, teacher labels only isotropic.
inline void validate_covariance(const cert::Case& in) {
    const std::string kind = in.has("covariance") ? in.string("covariance") : "isotropic";
    auto needs = [&](const char* key, const char* k) {
        if (kind == k && !in.has(key)) in.fail("covariance", std::string("covariance = \"") + k + "\" needs " + key);
        if (kind != k && in.has(key)) in.fail(key, std::string("only with covariance = \"") + k + "\"");
    };
    needs("covariance_alpha", "power_law");
    needs("covariance_spike", "spike");
    needs("covariance_diagonal", "diagonal");
    if (in.has("covariance_alpha") && !certainly_less_equal(in.interval_d("covariance_alpha"), IntervalD::exact(8)))
        in.fail("covariance_alpha", "must be <= 8");
    if (in.has("covariance_diagonal") && in.has("d") &&
        static_cast<long long>(in.number_strings("covariance_diagonal").size()) != in.integer("d"))
        in.fail("covariance_diagonal", "must have d = " + std::to_string(in.integer("d")) + " entries, has " +
                                           std::to_string(in.number_strings("covariance_diagonal").size()));
    if (in.has("eta_d") == in.has("eta_trace")) in.fail(in.has("eta_d") ? "eta_trace" : "eta_d", "give exactly one of eta_d and eta_trace");
    if (kind != "isotropic" && in.has("eta_d"))
        in.fail("eta_d", "eta d is the isotropic normalization; with covariance = \"" + kind + "\" give eta_trace (eta tr Sigma)");
    if (in.has("init_scale") == in.has("init_scale_trace"))
        in.fail(in.has("init_scale") ? "init_scale_trace" : "init_scale", "give exactly one of init_scale and init_scale_trace");
    if (kind != "isotropic" && in.string("targets") == "teacher")
        in.fail("targets", "teacher labels are defined for the isotropic covariance only");
}

// targets: 'alternating', 'teacher' or n comma-separated numbers (n of the case, or every n of a sweep's n_values),
// checked here so that a bad label list is a malformed case (exit 3 at its line), not an error of the instance build.
inline void validate_targets(const cert::Case& in) {
    const std::string t = in.string("targets");
    if (t == "alternating" || t == "teacher") return;
    const std::vector<std::string> parts = rh::split_commas(t);
    for (std::size_t i = 0; i < parts.size(); ++i)
        if (!is_number(parts[i]))
            in.fail("targets", "entry " + std::to_string(i + 1) + " '" + parts[i] +
                                   "' is not a number (expected 'alternating', 'teacher' or n comma-separated numbers)");
    const auto count = static_cast<long long>(parts.size());
    auto need = [&](long long n) {
        if (count != n)
            in.fail("targets", "expected 'alternating', 'teacher' or n = " + std::to_string(n) + " comma-separated numbers, got " +
                                   std::to_string(count));
    };
    if (in.has("n")) need(in.integer("n"));
    if (in.has("n_values"))
        for (const auto& s : in.number_strings("n_values"))
            if (s.find_first_not_of("0123456789") == std::string::npos && s.size() < 10) need(std::stoll(s));
    if (count == 0) in.fail("targets", "no labels given");
}

// many_neurons: the verifier checks m itself (rh/gap_m2: even m); otherwise m must be 1 or 2 (validate_instance).
inline void validate_instance_keys(const cert::Case& in, bool many_neurons) {
    validate_covariance(in);
    validate_targets(in);
    const long long m = in.integer("m");
    if (!many_neurons && m != 1 && m != 2) in.fail("m", "must be 1 or 2");
    if (in.has("n") && in.has("d") && in.integer("d") < in.integer("n"))
        in.fail("d", "must be >= n (G = X X^T must be nonsingular)");
    if (!certainly_less_equal(in.interval_d("eps_max"), IntervalD::exact(0.5)))
        in.fail("eps_max", "must be <= 1/2 (near-orthogonality)");
    if (in.has("row_order")) {
        std::vector<int> seen;
        for (const auto& v : in.number_strings("row_order")) {
            if (v.find_first_not_of("0123456789") != std::string::npos) in.fail("row_order", "integers expected");
            seen.push_back(std::stoi(v));
        }
        std::sort(seen.begin(), seen.end());
        for (size_t i = 0; i < seen.size(); ++i)
            if (seen[i] != static_cast<int>(i)) in.fail("row_order", "must be a permutation of 0..n-1");
        if (in.has("n") && static_cast<long long>(seen.size()) != in.integer("n"))
            in.fail("row_order", "must have n entries");
    }
}

inline void validate_instance(const cert::Case& in) { validate_instance_keys(in, false); }

inline void reconstruction_notes(cert::Report& r, int m, bool with_w_star) {
    using R = rh::Reconstruction;
    r.note(R::provenance);
    r.note(std::string("model: ") + (m == 1 ? R::model_m1 : m == 2 ? R::model_m2 : R::model_m_even));
    r.note(R::coordinates);
    r.note(R::covariance);
    r.note(R::regime);
    r.note(R::limit);
    r.note(R::tail);
    r.note(R::global_min);
    if (with_w_star) {
        r.note(m == 1 ? R::w_star : R::w_star_m2);
        if (m > 2) r.note(R::w_star_m);
        r.note(R::gap);
    }
}

inline std::string fmt(const IntervalD& x, int digits = 8) { return to_string(x, digits); }

// The rh pipeline computes in IntervalD (53-bit double intervals) whatever --precision or the case's
// `precision` asks: the certificate records the precision actually used.
inline void record_precision(cert::Context& ctx) {
    ctx.report.provenance.precision_bits = 53;
    ctx.report.note("arithmetic: IntervalD (53-bit double intervals, outward rounding); a requested precision "
                    "other than 53 bits is not used");
}

// GD options of a case: its `max_steps`, if given (every rh verifier).
inline proof::GdOptions gd_options(const cert::Case& in) {
    proof::GdOptions opt;
    if (in.has("max_steps")) opt.max_steps = static_cast<int>(in.integer("max_steps"));
    return opt;
}

// The start of a single-instance verifier (rh/gap, rh/gap_m2, rh/pattern_and_limit): the precision recorded, the
// instance read from the case's n and d (under --export-instance: written, and the run ends), the data seed recorded.
inline rh::InstanceSpec start_instance(cert::Context& ctx) {
    record_precision(ctx);
    const rh::InstanceSpec spec = instance_spec(ctx.input, ctx.input.integer("n"), ctx.input.integer("d"));
    export_instance(ctx, spec);  // --export-instance
    ctx.report.set_seed("data", std::to_string(spec.seed));
    return spec;
}

// The hypotheses of the (reconstructed) theorem on one instance: the high-dimensional regime
// (near-orthogonality), the step size and an initialization that activates every sample.
inline void hypothesis_checks(cert::Report& r, const rh::Instance& inst, const std::string& eps_max,
                              const std::string& prefix = {}) {
    r.hypothesis(prefix + "high-dimensional regime (near-orthogonality)", "[LWTM2026, abstract; docs/rh.md#regime]")
        .statement("eps = max_{i!=j} |G_ij| / min_i G_ii <= eps_max (the claim's regime; the paper's dimension "
                   "condition is NOT FOUND)")
        .reconstructed(rh::Reconstruction::regime_mark)
        .le({"eps", proof::near_orthogonality(inst)}, cert::exact("eps_max", eps_max));
    if (inst.m <= 2)
        r.hypothesis(prefix + "step size eta lambda_max(G) < 2", "[docs/rh.md#step-size]")
            .statement("GD is stable on every active subset: eta lambda_max(G_SS) <= eta lambda_max(G) < 2")
            .reconstructed(rh::Reconstruction::step_size_mark)
            .lt({"eta lambda_max(G)", proof::step_size_ratio(inst)}, cert::exact("2"));
    else  // m/2 same-sign neurons act on the residual together (docs/rh.md#w-star-m2, m > 2)
        r.hypothesis(prefix + "step size (m/2) eta lambda_max(G) < 2", "[docs/rh.md#step-size]")
            .statement("GD is stable on every active subset with the m/2 neurons of a sign moving together: "
                       "(m/2) eta lambda_max(G_SS) <= (m/2) eta lambda_max(G) < 2 (m = " + std::to_string(inst.m) + ")")
            .reconstructed(rh::Reconstruction::step_size_mark)
            .lt({"(m/2) eta lambda_max(G)", IntervalD(inst.m / 2) * proof::step_size_ratio(inst)}, cert::exact("2"));
    r.hypothesis(prefix + "every sample active at initialization", "[docs/rh.md#initialization]")
        .statement("<w_p(0), x_i> > 0 for every neuron p and sample i (w = 0 is stationary when relu'(0) = 0)")
        .reconstructed(rh::Reconstruction::initialization_mark)
        .positive({"min_{p,i} <w_p(0), x_i>", proof::initial_activity(inst)});
}

// The steps and conclusions of the pattern / limit argument ([docs/rh.md#tail]).
inline void pattern_checks(cert::Report& r, const rh::Instance& inst, const proof::PatternResult& pr,
                           const std::string& prefix = {}) {
    const std::string signs = prefix + "activation signs certified up to the tail step";
    const std::string rho = prefix + "tail contraction rho < 1";
    const std::string margin = prefix + "tail margin";
    r.step(signs, "[docs/rh.md#interval-gd]")
        .statement("sign(<w_p(k), x_i>) determined for k = 0..K_tail (interval GD in primal-dual coordinates)")
        .result(pr.signs);
    if (pr.rho_known)
        r.step(rho, "[docs/rh.md#tail]")
            .statement("rho = max(|1 - eta lambda_min(H_UU)|, |1 - eta lambda_max(H_UU)|) < 1 at the last tail attempt")
            .lt({"rho = ||I - eta H_UU||_2", pr.rho}, cert::exact("1"));
    else
        r.step(rho, "[docs/rh.md#tail]").result(flowcert::ProofResult::not_proven(pr.rho_reason));
    if (pr.margin_known)
        r.step(margin, "[docs/rh.md#tail]")
            .statement("min_{p,i} s_p,i (beta_p,i(inf) -+ ||B_p,i|| ||r_K||) > 0: every active sample stays active and "
                       "every inactive one inactive for all k >= K_tail")
            .positive({"smallest signed margin (neuron " + std::to_string(pr.worst_neuron) + ", sample " +
                           std::to_string(pr.worst_sample) + ")",
                       pr.margin});
    else
        r.step(margin, "[docs/rh.md#tail]").result(flowcert::ProofResult::not_proven(pr.margin_reason));
    r.conclusion(prefix + "pattern never changes after K", "[LWTM2026, abstract; docs/rh.md#tail]")
        .statement("D_k = D_K for every k >= K: the activation pattern stabilizes (K = " + std::to_string(pr.K) + ")")
        .implied_by({signs, rho, margin});
    r.conclusion(prefix + "w(inf) is a global minimizer", "[docs/rh.md#global-minimum]")
        .statement(inst.m == 1 ? "X_{P+} w(inf) = y_{P+} and X_N w(inf) < 0, so L(w(inf)) = 1/2 sum_{y<=0} y^2 = min L"
                               : "every sample with y != 0 is fitted in the limit, so L(w(inf)) = 0 = min L")
        .result(proof::global_minimality(inst, pr));
}

// The steps of the KKT certificate of w* (m = 1; [docs/rh.md#w-star]).
inline void wstar_checks(cert::Report& r, const proof::WStarResult& ws, const std::string& prefix = {}) {
    const bool solved = ws.solve.is_proven();
    r.step(prefix + "w*: verified solve on the guessed face", "[docs/rh.md#w-star]")
        .statement("G_AA alpha_A = (y_P+; 0_T), A = P+ u T (verified solve)")
        .result(ws.solve);
    auto mult = r.step(prefix + "KKT multipliers alpha*_T <= 0", "[docs/rh.md#w-star]").statement("dual feasibility");
    if (solved && ws.has_tight)
        mult.le({"max_{j in T} alpha*_j", ws.max_multiplier}, cert::exact("0"));
    else
        mult.result(solved ? flowcert::ProofResult::proven("T is empty: no multiplier to check")
                           : flowcert::ProofResult::not_proven("no solution on the face: " + ws.solve.reason));
    auto feas = r.step(prefix + "KKT primal feasibility on N \\ T", "[docs/rh.md#w-star]")
                    .statement("X_N w* <= 0 off the tight set");
    if (solved && ws.has_slack)
        feas.le({"max_{j in N\\T} <w*, x_j>", ws.max_slack}, cert::exact("0"));
    else
        feas.result(solved ? flowcert::ProofResult::proven("N \\ T is empty: every non-positive sample is tight")
                           : flowcert::ProofResult::not_proven("no solution on the face: " + ws.solve.reason));
}

// The data covariance and the normalizations of one instance (a table; docs/rh.md#covariance).
inline void covariance_table(cert::Report& r, const rh::Instance& inst) {
    auto& t = r.table("covariance and normalizations", {"quantity", "enclosure"});
    const auto& c = inst.cov;
    t.add_row({"covariance", inst.spec.covariance.kind +
                                 (inst.spec.covariance.kind == "power_law" ? " (alpha = " + inst.spec.covariance.alpha + ")"
                                  : inst.spec.covariance.kind == "spike"   ? " (lambda_1 = " + inst.spec.covariance.spike + ")"
                                                                           : std::string())});
    t.add_row({"d", std::to_string(inst.d)});
    t.add_row({"||lambda||_1 = tr Sigma", to_string(c.trace, 10)});
    t.add_row({"||lambda||_1 / d", to_string(c.trace / IntervalD(inst.d), 6)});
    t.add_row({"lambda_max", to_string(c.lambda_max, 10)});
    t.add_row({"effective rank r = tr Sigma / lambda_max", to_string(c.rank_r(), 6)});
    t.add_row({"effective rank R = (tr Sigma)^2 / tr Sigma^2", to_string(c.rank_R(), 6)});
    t.add_row({"eta tr Sigma", to_string(inst.eta_trace, 10)});
    t.add_row({"eta d", to_string(inst.eta_d, 10)});
    t.add_row({"init scale c, c tr Sigma", to_string(inst.init_c, 6) + ", " + to_string(inst.init_c * c.trace, 6)});
}

// ---- the band claim of rh/gap and rh/gap_m2: C1 sqrt(n_-/tau) <= ||w(inf) - w*|| <= C2 sqrt(n_-/tau) ----
inline constexpr const char* kGapPaperStatement =
    "[VERIFIED abstract, v1] the implicit bias approximates the min-l2-norm solution with a gap of order "
    "Theta(sqrt(n/d)); [seed summary] C1 sqrt(n_-/d) <= ||w(inf) - w*|| <= C2 sqrt(n_-/d) (constants NOT FOUND)";

inline void add_band_keys(std::vector<cert::KeySpec>& schema) {
    schema.push_back({.name = "ratio_lower", .type = cert::KeyType::number,
                      .description = "C1 > 0: claimed lower bound of ||w(inf)-w*|| / sqrt(n_-/d) (C1 = 0 is vacuous)",
                      .constraint = cert::Constraint::positive});
    schema.push_back({.name = "ratio_upper", .type = cert::KeyType::number,
                      .description = "C2: claimed upper bound of ||w(inf)-w*|| / sqrt(n_-/d)",
                      .constraint = cert::Constraint::positive});
}

// The VerifierSpec of a single-instance gap verifier (rh/gap for m, rh/gap_m2): the instance keys with n and d and
// the band keys, the band statement, 53-bit arithmetic; `validate` checks the instance and then calls `extra`.
inline cert::VerifierSpec gap_verifier_spec(std::string name, std::string summary, std::string locator,
                                            std::function<void(const cert::Case&)> extra,
                                            std::function<void(cert::Context&)> run, bool many_neurons = false) {
    auto schema = instance_keys(true);
    add_band_keys(schema);
    return cert::VerifierSpec{
        .name = std::move(name),
        .summary = std::move(summary),
        .claim = {.paper = "LWTM2026", .locator = std::move(locator), .paper_statement = kGapPaperStatement,
                  .proven_statement = {}},
        .schema = schema,
        .default_precision_bits = 53,
        .validate =
            [extra = std::move(extra), many_neurons](const cert::Case& c) {
                validate_instance_keys(c, many_neurons);
                extra(c);
            },
        .run = std::move(run),
    };
}

// The conclusions "ratio lower bound" / "ratio upper bound" for the certified ratio (have), else not proven (why).
inline void band_conclusions(cert::Report& r, const cert::Case& in, bool have, const IntervalD& ratio,
                             const std::string& norm, const std::string& why) {
    auto lower_end = r.conclusion("ratio lower bound", "[LWTM2026, abstract; docs/rh.md#gap]")
                         .statement("C1 " + norm + " <= ||w(inf) - w*|| with C1 = ratio_lower (the case's claim)")
                         .case_claim("C1 = ratio_lower of the case; the paper's C1 is NOT FOUND");
    auto upper_end = r.conclusion("ratio upper bound", "[LWTM2026, abstract; docs/rh.md#gap]")
                         .statement("||w(inf) - w*|| <= C2 " + norm + " with C2 = ratio_upper (the case's claim)")
                         .case_claim("C2 = ratio_upper of the case; the paper's C2 is NOT FOUND");
    if (have) {
        lower_end.le(cert::exact("ratio_lower", in.number_string("ratio_lower")), {"||w(inf) - w*|| / " + norm, ratio});
        upper_end.le({"||w(inf) - w*|| / " + norm, ratio}, cert::exact("ratio_upper", in.number_string("ratio_upper")));
    } else {
        lower_end.result(flowcert::ProofResult::not_proven("gap not enclosed: " + why));
        upper_end.result(flowcert::ProofResult::not_proven("gap not enclosed: " + why));
    }
}

struct GapOutcome {
    proof::PatternResult pattern;
    proof::WStarResult wstar;
    proof::GapResult gap;
    IntervalD eps, eta_d, step_ratio, init_min;
    IntervalD trace;  // ||lambda||_1 = tr Sigma
    flowcert::ProofResult global_min;
    int n_minus = 0;
    double seconds = 0;
    std::string error;
};

inline GapOutcome run_gap_instance(const rh::InstanceSpec& spec, const proof::GdOptions& opt,
                                   rh::Instance* keep = nullptr) {
    GapOutcome o;
    const rh::Instance inst = rh::make_instance(spec);
    o.pattern = proof::certify_pattern_and_limit(inst, opt);
    o.wstar = proof::certify_w_star(inst);
    o.gap = proof::enclose_gap(inst, o.pattern, o.wstar);
    o.eps = proof::near_orthogonality(inst);
    o.step_ratio = proof::step_size_ratio(inst);
    o.init_min = proof::initial_activity(inst);
    o.global_min = proof::global_minimality(inst, o.pattern);
    o.eta_d = inst.eta_d;
    o.trace = inst.cov.trace;
    o.n_minus = inst.n_minus;
    if (keep) *keep = inst;
    return o;
}

}  // namespace flowcert::rh_verifiers
