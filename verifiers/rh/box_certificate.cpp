// verifiers/rh/box_certificate.cpp -- [LWTM2026] (reconstruction, docs/rh.md#box-certificate): for every data set
// whose normalized Gram matrix G / tau lies in the box {|G_ii/tau - 1| <= kappa, |G_ij|/tau <= eps} (tau = tr Sigma),
// with eta = h / tau and span init c = c~ / tau, the pattern is stable from K on and C1 <= ||w(inf) - w*|| /
// sqrt(n_-/tau) <= C2; and for x_i ~ N(0, Sigma_d), d >= d0, the box holds with probability >= 1 - delta(d0).
#include "box_report.hpp"

#include <cmath>

namespace {

using namespace flowcert;
using namespace flowcert::rh_verifiers;

proof::BoxSpec box_spec(const cert::Case& in) {
    proof::BoxSpec b;
    b.n = static_cast<int>(in.integer("n"));
    b.labels = in.string("targets");
    b.kappa = in.number_string("kappa");
    b.eps = in.number_string("eps");
    b.h = in.number_string("eta_trace");
    b.c = in.number_string("init_scale_trace");
    return b;
}

proof::SpectrumFamily family(const cert::Case& in) {
    proof::SpectrumFamily f;
    if (in.has("covariance")) f.kind = in.string("covariance");
    if (in.has("covariance_alpha")) f.alpha = in.interval_d("covariance_alpha");
    return f;
}

// The hypotheses of the reconstructed claim for every member of the box (their worst members, box.hpp).
void box_hypothesis_checks(cert::Report& r, const proof::BoxSpec& b, const std::string& eps_max) {
    const proof::BoxHypotheses hy = proof::box_hypotheses(b);
    r.hypothesis("box: high-dimensional regime (near-orthogonality)", "[LWTM2026, abstract; docs/rh.md#regime]")
        .statement("every member: max_{i!=j} |G_ij| / min_i G_ii <= eps / (1 - kappa) <= eps_max (attained)")
        .reconstructed(rh::Reconstruction::regime_mark)
        .le({"eps / (1 - kappa)", hy.eps_sup}, cert::exact("eps_max", eps_max));
    r.hypothesis("box: step size eta lambda_max(G) < 2", "[docs/rh.md#step-size]")
        .statement("every member: eta lambda_max(G) <= h (1 + kappa + (n - 1) eps) < 2 (Gershgorin, attained)")
        .reconstructed(rh::Reconstruction::step_size_mark)
        .lt({"h (1 + kappa + (n - 1) eps)", hy.step_sup}, cert::exact("2"));
    r.hypothesis("box: every sample active at initialization", "[docs/rh.md#initialization]")
        .statement("every member: min_i <w(0), x_i> >= c~ (1 - kappa - (n - 1) eps) > 0 (attained)")
        .reconstructed(rh::Reconstruction::initialization_mark)
        .positive({"c~ (1 - kappa - (n - 1) eps)", hy.init_inf});
}

// 1. The box statement: the affine-in-E GD on the Gram box, bisected up to max_sub_boxes (box_affine.hpp), then the
// tail and the ball around w_P on each sub-box (tail.hpp, w_star_ball.hpp).
BoxOutcome box_statement(cert::Report& r, const cert::Case& in, const proof::BoxSpec& b, const proof::GdOptions& opt) {
    const rh::Instance box = proof::box_instance(b);
    const BoxOutcome o = box_outcome(proof::certify_box(b, opt, in.has("max_sub_boxes") ? static_cast<int>(in.integer("max_sub_boxes")) : 1));
    box_hypothesis_checks(r, b, in.number_string("eps_max"));
    pattern_checks(r, box, o.pattern, "box: ");
    r.step("box: w* in a ball around w_P", "[docs/rh.md#box-certificate; w_star_ball.hpp]")
        .statement("a witness z = X^T beta (beta_N = -t 1) is feasible for every member, so ||w* - w_P|| <= R; the gap is "
                   "also enclosed through the KKT multipliers of w* (complementarity bound, w_star_ball.hpp)")
        .result(o.ball.status);
    auto lower_end = r.conclusion("box: ratio lower bound", "[LWTM2026, abstract; docs/rh.md#box-certificate]")
                         .statement("every member of the box: C1 " + kBoxNorm + " <= ||w(inf) - w*|| (C1 = ratio_lower)")
                         .case_claim("C1 = ratio_lower of the case; the paper's C1 is NOT FOUND");
    auto upper_end = r.conclusion("box: ratio upper bound", "[LWTM2026, abstract; docs/rh.md#box-certificate]")
                         .statement("every member of the box: ||w(inf) - w*|| <= C2 " + kBoxNorm + " (C2 = ratio_upper)")
                         .case_claim("C2 = ratio_upper of the case; the paper's C2 is NOT FOUND");
    const cert::Operand band{"||w(inf) - w*|| / " + kBoxNorm + " on the box", o.ball.ratio_n_minus};
    if (o.have) {
        lower_end.le(cert::exact("ratio_lower", in.number_string("ratio_lower")), band);
        upper_end.le(band, cert::exact("ratio_upper", in.number_string("ratio_upper")));
    } else {
        const std::string why = "gap not enclosed on the box: " + (o.pattern.tail.is_proven() ? o.ball.status.reason : o.pattern.tail.reason);
        lower_end.result(flowcert::ProofResult::not_proven(why));
        upper_end.result(flowcert::ProofResult::not_proven(why));
    }
    return o;
}

// 2. The probability of the box (concentration.hpp): delta(d) is non-increasing, so delta(d) <= delta(d0).
void probability_statement(cert::Report& r, const cert::Case& in, const proof::BoxSpec& b, const proof::SpectrumFamily& fam,
                           long long d0) {
    const IntervalD kappa = in.interval_d("kappa"), eps = in.interval_d("eps");
    const proof::SpectrumSums sums0 = proof::spectrum_sums(fam, d0);
    const proof::BoxProbability p0 = proof::box_failure_bound(b.n, kappa, eps, sums0);
    r.step("P(G / tau not in the box) <= delta for every d >= d0", "[LaurentMassart2000, Lemma 1; docs/rh.md#concentration]")
        .statement("delta(d0) = n (e^-s^2 + e^-x_-) + (n - 1) e^-x_v + n(n-1)/2 erfc(eps tau / sqrt(2 V)) <= delta; "
                   "delta(d) is non-increasing in d")
        .le({"delta(d0)", p0.delta}, cert::exact("delta", in.number_string("delta")));
    r.conclusion("for all d >= d0, with probability >= 1 - delta: C1 sqrt(n_-/tau) <= ||w(inf) - w*|| <= C2 sqrt(n_-/tau)",
                 "[LWTM2026, abstract; docs/rh.md#box-certificate]")
        .statement("the box statement holds on the event G / tau in the box, whose probability is >= 1 - delta(d0)")
        .implied_by({"box: pattern never changes after K", "box: w(inf) is a global minimizer", "box: ratio lower bound",
                     "box: ratio upper bound", "P(G / tau not in the box) <= delta for every d >= d0"});
    concentration_tables(r, b.n, kappa, eps, fam, d0, sums0, p0, lower(in.interval_d("delta")));
}

void run(cert::Context& ctx) {
    const cert::Case& in = ctx.input;
    record_precision(ctx);
    const proof::BoxSpec b = box_spec(in);
    const proof::SpectrumFamily fam = family(in);
    const long long d0 = static_cast<long long>(lower(in.interval_d("d0")));  // an exact integer (validate)
    const proof::GdOptions opt = gd_options(in);
    reconstruction_notes(ctx.report, 1, true);
    ctx.report.claim.proven_statement =
        "For n = " + std::to_string(b.n) + " (" + b.labels + " labels), eta = " + b.h + " / tau, span init c = " + b.c +
        " / tau, tau = tr Sigma: (box) for every data set with G / tau in {|G_ii/tau - 1| <= " + b.kappa +
        ", |G_ij|/tau <= " + b.eps + "} the pattern is stable and " + in.number_string("ratio_lower") +
        " <= ||w(inf) - w*|| / " + kBoxNorm + " <= " + in.number_string("ratio_upper") + "; (probability) for x_i ~ N(0, Sigma_d), " +
        (fam.kind == "isotropic" ? std::string("Sigma_d = I_d") : "Sigma_d = diag(k^-" + in.number_string("covariance_alpha") + ")") +
        ", every d >= d0 = " + std::to_string(d0) + ": this holds with probability >= 1 - " + in.number_string("delta") +
        " (reconstructed definitions, see notes; the paper's C1, C2, d0 are NOT FOUND)";

    const BoxOutcome box = box_statement(ctx.report, in, b, opt);
    probability_statement(ctx.report, in, b, fam, d0);

    box_tables(ctx.report, in, b, opt, box, d0);
    ctx.report.note("concentration [LaurentMassart2000, Lemma 1]: for Y = sum a_k (g_k^2 - 1), a_k >= 0: P(Y >= 2||a||_2 sqrt(x) "
                    "+ 2||a||_inf x) <= e^-x and P(Y <= -2||a||_2 sqrt(x)) <= e^-x; off-diagonal: <x_i, x_j> given x_j is "
                    "N(0, x_j^T Sigma x_j) (Gaussian tail erfc, MPFR), with x_v = x_- (theta = 1); docs/rh.md#concentration");
    ctx.report.note("the probability is over exact Gaussian data N(0, Sigma_d) with Sigma_d = diag(lambda_1..lambda_d) of the "
                    "exact reals lambda_k, and exact-arithmetic GD with eta = h / tau, c = c~ / tau (box members); the sweep "
                    "instances beside the band are the seeded doubles of docs/rh.md#data");
}

}  // namespace

int main(int argc, char** argv) {
    using namespace flowcert::rh_verifiers;
    std::vector<cert::KeySpec> k;
    k.push_back({.name = "n", .type = cert::KeyType::integer, .description = "number of samples", .constraint = cert::Constraint::positive});
    k.push_back({.name = "targets", .type = cert::KeyType::string, .description = "labels: 'alternating' (+1, -1, ...)",
                 .choices = {"alternating"}});
    k.push_back({.name = "eta_trace", .type = cert::KeyType::number, .description = "h = eta tau (tau = tr Sigma)",
                 .constraint = cert::Constraint::positive});
    k.push_back({.name = "init_scale_trace", .type = cert::KeyType::number, .description = "c~ = c tau: span init w(0) = X^T (c 1)",
                 .constraint = cert::Constraint::positive});
    k.push_back({.name = "kappa", .type = cert::KeyType::number, .description = "box: |G_ii / tau - 1| <= kappa (0 < kappa < 1)",
                 .constraint = cert::Constraint::positive});
    k.push_back({.name = "eps", .type = cert::KeyType::number, .description = "box: |G_ij| / tau <= eps for i != j",
                 .constraint = cert::Constraint::positive});
    k.push_back({.name = "eps_max", .type = cert::KeyType::number,
                 .description = "the regime of the claim: near-orthogonality <= eps_max (<= 1/2) for every member",
                 .constraint = cert::Constraint::positive});
    k.push_back({.name = "covariance", .type = cert::KeyType::string,
                 .description = "Sigma_d = diag(lambda_1..lambda_d): isotropic (lambda_k = 1, default) or power_law (k^-alpha)",
                 .required = false, .choices = {"isotropic", "power_law"}});
    k.push_back({.name = "covariance_alpha", .type = cert::KeyType::number, .description = "power_law: alpha in [0, 8]",
                 .required = false, .constraint = cert::Constraint::nonnegative});
    k.push_back({.name = "d0", .type = cert::KeyType::number, .description = "the claim holds for every d >= d0 (an integer <= 2^52)",
                 .constraint = cert::Constraint::positive});
    k.push_back({.name = "delta", .type = cert::KeyType::number, .description = "claimed failure probability (0 < delta < 1)",
                 .constraint = cert::Constraint::positive});
    k.push_back({.name = "ratio_lower", .type = cert::KeyType::number, .description = "C1 > 0", .constraint = cert::Constraint::positive});
    k.push_back({.name = "ratio_upper", .type = cert::KeyType::number, .description = "C2", .constraint = cert::Constraint::positive});
    k.push_back({.name = "max_sub_boxes", .type = cert::KeyType::integer, .description = "sub-boxes run at most (1: no subdivision)",
                 .required = false, .constraint = cert::Constraint::positive});
    k.push_back({.name = "max_steps", .type = cert::KeyType::integer, .description = "GD steps before giving up", .required = false,
                 .constraint = cert::Constraint::positive});
    k.push_back({.name = "compare_seed", .type = cert::KeyType::integer, .description = "first data seed of the sweep instances beside the band",
                 .required = false});
    k.push_back({.name = "compare_seeds", .type = cert::KeyType::integer, .description = "number of seeds per d", .required = false,
                 .constraint = cert::Constraint::positive});
    k.push_back({.name = "compare_d_values", .type = cert::KeyType::numbers, .description = "dimensions of the sweep instances",
                 .required = false, .constraint = cert::Constraint::positive});
    cert::VerifierSpec spec{
        .name = "rh/box_certificate",
        .summary = "ReLU regression (m = 1): the pattern and the gap ratio band on the scale-free Gram box, and the probability "
                   "of the box for Gaussian data, for every d >= d0 (reconstruction of [LWTM2026])",
        .claim = {.paper = "LWTM2026", .locator = "abstract; reconstruction docs/rh.md#box-certificate",
                  .paper_statement = "[VERIFIED abstract, v2/COLT] with high probability the gap is Theta(sqrt(n / ||lambda||_1)) "
                                     "for Gaussian data with covariance spectrum lambda (constants, d0 NOT FOUND)",
                  .proven_statement = {}},
        .schema = k,
        .default_precision_bits = 53,
        .validate =
            [](const cert::Case& c) {
                const std::string kind = c.has("covariance") ? c.string("covariance") : "isotropic";
                if ((kind == "power_law") != c.has("covariance_alpha"))
                    c.fail(c.has("covariance_alpha") ? "covariance_alpha" : "covariance", "covariance_alpha goes with covariance = \"power_law\" only");
                if (c.has("covariance_alpha") && !certainly_less_equal(c.interval_d("covariance_alpha"), IntervalD::exact(8)))
                    c.fail("covariance_alpha", "must be <= 8");
                if (!certainly_less(c.interval_d("kappa"), IntervalD(1))) c.fail("kappa", "must be < 1");
                if (!certainly_less(c.interval_d("delta"), IntervalD(1))) c.fail("delta", "must be < 1");
                if (!certainly_less_equal(c.interval_d("eps_max"), IntervalD::exact(0.5))) c.fail("eps_max", "must be <= 1/2 (near-orthogonality)");
                if (c.integer("n") < 2) c.fail("n", "must be >= 2 (n_- >= 1)");
                const IntervalD d0 = c.interval_d("d0");
                if (!(lower(d0) == upper(d0) && lower(d0) == std::floor(lower(d0)) && lower(d0) >= 1 && lower(d0) <= 0x1p52))
                    c.fail("d0", "must be an integer in [1, 2^52]");
                if (c.has("compare_d_values") != c.has("compare_seed"))
                    c.fail(c.has("compare_seed") ? "compare_seed" : "compare_d_values", "compare_seed and compare_d_values go together");
                if (c.has("compare_d_values"))
                    for (const auto& v : c.number_strings("compare_d_values"))
                        if (v.find_first_not_of("0123456789") != std::string::npos || std::stoll(v) < c.integer("n"))
                            c.fail("compare_d_values", "integers >= n expected, got " + v);
            },
        .run = run,
    };
    return cert::verifier_main(argc, argv, spec);
}
