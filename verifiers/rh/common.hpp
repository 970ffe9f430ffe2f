// verifiers/rh/common.hpp -- shared pieces of the rh verifiers (reconstruction of [LWTM2026]):
// the instance keys of a case, the reconstruction notes, and the pattern/limit checks.
#pragma once

#include <flowcert/cert.hpp>
#include <flowcert/nets/random.hpp>
#include <flowcert/nets/relu_regression.hpp>

#include <algorithm>
#include <span>
#include <string>
#include <vector>

namespace flowcert::rh_verifiers {

namespace cert = flowcert::cert;
namespace rh = flowcert::nets::rh;
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
    k.push_back({.name = "m", .type = cert::KeyType::integer, .description = "1: relu(<w,x>); 2: relu(<w+,x>) - relu(<w-,x>)"});
    k.push_back({.name = "targets", .type = cert::KeyType::string,
                 .description = "'alternating' (+1,-1,...), 'teacher' (y_i = <w_t,x_i>/sqrt(d)) or n comma-separated numbers"});
    k.push_back({.name = "eta_d", .type = cert::KeyType::number,
                 .description = "eta * d; eta := lower end of the enclosure of eta_d / d (an exact double)",
                 .constraint = cert::Constraint::positive});
    k.push_back({.name = "init", .type = cert::KeyType::string,
                 .description = "'span': w(0) = X^T (c 1); 'gaussian': w(0) = c g, g ~ N(0, I_d) from stream (seed, \"w0\", p)",
                 .choices = {"span", "gaussian"}});
    k.push_back({.name = "init_scale", .type = cert::KeyType::number, .description = "c",
                 .constraint = cert::Constraint::positive});
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
    s.eta_d = in.number_string("eta_d");
    s.init = in.string("init");
    s.init_scale = in.number_string("init_scale");
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
            nets::RandomStream r(s.seed, purpose, i);
            for (std::size_t k0 = 0; k0 < d; k0 += chunk)
                r.fill_gaussian(std::span<double>(out.data() + i * d + k0, std::min(chunk, d - k0)));
        }
        return out;
    };
    ctx.export_array("X", {n, d}, draw("X", n), "inputs, row i = stream (seed, \"X\", i) [LWTM2026 reconstruction]");
    if (s.init == "gaussian")
        ctx.export_array("g", {static_cast<std::size_t>(s.m), d}, draw("w0", static_cast<std::size_t>(s.m)),
                         "w_p(0) = init_scale * g_p, row p = stream (seed, \"w0\", p)");
    ctx.export_value("init_scale", s.init_scale, s.init == "span" ? "w_p(0) = X^T (c 1) with c the double nearest below"
                                                                  : "c in w_p(0) = c g_p");
    ctx.export_value("eta_d", s.eta_d, "eta * d (eta: the double nearest below eta_d / d)");
}

inline void validate_instance(const cert::Case& in) {
    const long long m = in.integer("m");
    if (m != 1 && m != 2) in.fail("m", "must be 1 or 2");
    if (in.has("n") && in.has("d") && in.integer("d") < in.integer("n"))
        in.fail("d", "must be >= n (G = X X^T must be nonsingular)");
}

inline void reconstruction_notes(cert::Report& r, int m, bool with_w_star) {
    using R = rh::Reconstruction;
    r.note(R::provenance);
    r.note(std::string("model: ") + (m == 1 ? R::model_m1 : R::model_m2));
    r.note(R::coordinates);
    r.note(R::limit);
    r.note(R::tail);
    r.note(R::global_min);
    if (with_w_star) {
        r.note(R::w_star);
        r.note(R::gap);
    }
}

inline std::string fmt(const IntervalD& x, int digits = 8) { return to_string(x, digits); }

// The pattern / limit checks shared by rh/pattern_and_limit and rh/gap ([LWTM2026] reconstruction,
// spec 6.2-6.6). `prefix` distinguishes instances in a sweep.
inline void pattern_checks(cert::Report& r, const rh::Instance& inst, const rh::PatternResult& pr,
                           const std::string& prefix = {}) {
    // 6.2 initial activity: min_{p,i} <w_p(0), x_i> > 0
    IntervalD mn = pr.trace.empty() ? IntervalD::entire() : pr.trace[0][0][0];
    if (!pr.trace.empty())
        for (const auto& row : pr.trace[0])
            for (const auto& b : row) mn = min(mn, b);
    if (pr.init_active == rh::Status::refuted) mn = pr.init_witness_beta;
    const auto& c0 = r.check_positive(prefix + "every sample active at initialization", "[spec 6.2]",
                                      {"min_{p,i} <w_p(0), x_i>", mn}, "<w_p(0), x_i> > 0 for every neuron p and sample i");
    (void)c0;
    if (pr.init_active == rh::Status::refuted)
        r.note(prefix + "witness (init): " + pr.init_reason);
    r.check_true(prefix + "activation signs certified at every step up to the tail", "[spec 6.3]",
                 pr.signs == rh::Status::proven, pr.signs_reason,
                 "sign(<w_p(k), x_i>) determined for k = 0..K_tail (interval GD in primal-dual coordinates)");
    if (pr.tail == rh::Status::proven) {
        r.check_lt(prefix + "tail contraction rho < 1", "[spec 6.4]", {"rho = ||I - eta H_UU||_2", pr.rho},
                   cert::exact("1"), "rho = max(|1 - eta lambda_min(H_UU)|, |1 - eta lambda_max(H_UU)|) < 1");
        r.check_positive(prefix + "tail margin", "[spec 6.4]",
                         {"min_{p,i} (|beta_p,i(inf)| - ||B_p,i|| ||r_K||) (lower bound)",
                          IntervalD::bounds(pr.tail_margin, rounding::kInf)},
                         "every active stays active and every inactive stays inactive for all k >= K_tail");
    }
    r.check_true(prefix + "pattern never changes after K", "[spec 6.4]", pr.tail == rh::Status::proven,
                 pr.tail_reason, "D_k = D_K for every k >= K (closed-form tail)");
    if (pr.tail == rh::Status::proven) {
        const flowcert::ProofResult gm{pr.global_min == rh::Status::proven    ? flowcert::ProofStatus::proven
                                       : pr.global_min == rh::Status::refuted ? flowcert::ProofStatus::disproven
                                                                              : flowcert::ProofStatus::not_proven,
                                       pr.global_min_reason};
        r.conclusion(prefix + "w(inf) is a global minimizer", "[spec 4.3, 6.6]")
            .statement(inst.m == 1 ? "X_{P+} w(inf) = y_{P+} and X_N w(inf) < 0, so L(w(inf)) = 1/2 sum_{y<=0} y^2 = min L"
                                   : "every sample with y != 0 is fitted in the limit, so L(w(inf)) = 0 = min L")
            .result(gm);
        if (inst.m == 1)
            r.check_true(prefix + "limit equals least squares on the active subset", "[spec 4.2]",
                         pr.ls_crosscheck == rh::Status::proven,
                         "enclosure of G_SS^{-1}(y_S - (Xu)_S - G_{S,S^c} a_{S^c}(K)) meets the tail formula's a(inf)",
                         "a_S(inf) = G_SS^{-1}(y_S - (Xu)_S - G_{S,S^c} a_{S^c}(K))");
    }
}

}  // namespace flowcert::rh_verifiers

namespace flowcert::rh_verifiers {

// w* (KKT certificate, spec 6.7) and gap (spec 4.3, 6.8) checks for one m = 1 instance.
inline void wstar_checks(cert::Report& r, const rh::Instance& inst, const rh::WStarResult& ws,
                         const std::string& prefix = {}) {
    r.check_true(prefix + "w* certified by KKT", "[spec 6.7]", ws.status == rh::Status::proven, ws.reason,
                 "w* = X^T alpha*, G_AA alpha*_A = (y_P+; 0_T) (verified solve), alpha*_T <= 0, <w*, x_j> <= 0 on N \\ T");
    if (ws.status != rh::Status::proven) return;
    IntervalD amax = IntervalD::entire(), bmax = IntervalD::entire();
    bool any_t = false, any_s = false;
    for (int j = 0; j < inst.n; ++j) {
        if (!inst.negative[j]) continue;
        const bool tight = std::find(ws.tight.begin(), ws.tight.end(), j) != ws.tight.end();
        if (tight) {
            amax = any_t ? max(amax, ws.alpha[j]) : ws.alpha[j];
            any_t = true;
        } else {
            bmax = any_s ? max(bmax, ws.beta[j]) : ws.beta[j];
            any_s = true;
        }
    }
    if (any_t)
        r.check_le(prefix + "KKT multipliers alpha*_T <= 0", "[spec 6.7]", {"max_{j in T} alpha*_j", amax},
                   cert::exact("0"), "dual feasibility");
    if (any_s)
        r.check_le(prefix + "KKT primal feasibility on N \\ T", "[spec 6.7]", {"max_{j in N\\T} <w*, x_j>", bmax},
                   cert::exact("0"), "X_N w* <= 0 off the tight set");
}

struct GapOutcome {
    rh::PatternResult pattern;
    rh::WStarResult wstar;
    rh::GapResult gap;
    IntervalD eps, eta_d;
    int n_minus = 0;
    double seconds = 0;
    std::string error;
};

inline GapOutcome run_gap_instance(const rh::InstanceSpec& spec, const rh::GdOptions& opt, rh::Instance* keep = nullptr) {
    GapOutcome o;
    const rh::Instance inst = rh::make_instance(spec);
    o.pattern = rh::certify_pattern_and_limit(inst, opt);
    o.wstar = rh::certify_w_star(inst);
    o.gap = rh::enclose_gap(inst, o.pattern, o.wstar);
    o.eps = rh::near_orthogonality(inst).eps;
    o.eta_d = inst.eta_d;
    o.n_minus = inst.n_minus;
    if (keep) *keep = inst;
    return o;
}

}  // namespace flowcert::rh_verifiers
