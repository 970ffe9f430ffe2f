// verifiers/kh/ncf_kkt.cpp -- [KH2025] (Kumar & Haupt, JMLR 26, paper 25-1089), Sections 2 and 4:
// KKT points of the constrained NCF problem  max N(u) s.t. ||u||^2 = 1  (eq. (4)), N(u) = ytilde^T H(X; u).
//
// For one homogeneous model and data set (a case file), the verifier
//   1. FINDS candidate KKT points (non-rigorous multistart projected ascent + Newton in double), or polishes
//      a start point given by the case;
//   2. CERTIFIES for the chosen candidate: existence and local uniqueness of a true KKT point (Krawczyk on
//      F(u, mu) = (grad N - 2 mu u, ||u||^2 - 1)); N(u*) > 0; an enclosure of
//      Delta_max = L N(u*) - lambda_max(Q^T Hess N(u*) Q) and its sign (Delta-second-order positivity,
//      Sec. 2 / Lemma 20); the Euler identities (Lemma 19) and lambda* = L N/2 (Lemma 20) as consistency
//      checks; lambda_max(Hess N(u*)) = L(L-1) N(u*) (Lemma 20's proof); the zero pattern of u* (reduced-space
//      Krawczyk + exact full-space conditions) and the row/column balance of Lemma 17 (feed-forward nets);
//      optionally eq. (16) as printed (spectral norm), which is false in general (spec section 4).
// See docs/kh.md for what is certified and how it relates to the paper.
#include <flowcert/cert.hpp>
#include <flowcert/nets.hpp>
#include <flowcert/proofs/kh/ncf_kkt.hpp>

#include <string>
#include <vector>

#include "kh_case_inputs.hpp"
#include "kh_report.hpp"
#include "ncf_kkt_report.hpp"

namespace cert = flowcert::cert;
namespace la = flowcert::linalg;
using namespace flowcert;
using namespace flowcert::nets;
using namespace flowcert::proofs::kh;
using namespace khncf;

namespace {

template <Interval I>
void run_typed(cert::Context& ctx) {
    const cert::Case& in = ctx.input;
    auto& rep = ctx.report;
    const long bits = std::is_same_v<I, IntervalD> ? 53 : ctx.precision_bits;
    const khreport::Stopwatch stopwatch;

    // ---- data and model -------------------------------------------------------------------------
    const khcase::CaseData<I> data = khcase::read_data<I>(in, bits);
    khcase::export_data(ctx, data);  // --export-instance
    if (data.teacher) {
        rep.set_seed("data (kh/inputs, kh/teacher streams)", std::to_string(data.seed));
        rep.note("data: " + std::to_string(data.Xd.cols()) + " inputs = seeded Gaussians normalized to the unit sphere of R^" +
                 std::to_string(data.Xd.rows()) + " (in double; those doubles are the data), labels from the teacher " +
                 data.teacher->describe() + " with seeded Gaussian weights, evaluated in double (exact data)");
    }
    const HomogeneousArchitecture arch = khcase::parse_architecture(in, static_cast<int>(data.Xd.rows()));
    const SquareLossNormalization norm = khcase::parse_loss(in.string("loss"));
    const Ncf<double> ncf_d(HomogeneousModel<double>(arch, data.Xd), ncf_weights<double>(data.yd, norm));
    const Ncf<I> ncf(HomogeneousModel<I>(arch, data.X), ncf_weights<I>(data.y, norm));
    const int L = arch.homogeneity_order(), P = arch.parameter_count();
    rep.note("model: " + arch.describe() + "; loss " + norm.describe() + ", so ytilde = -l'(0, y) = " +
             (norm.half ? "" : "2") + (norm.mean ? "y/n" : "y") + "; arithmetic " + IntervalTraits<I>::name +
             " (" + std::to_string(bits) + " bits)");
    const Options o = read_options(in, arch);
    plan_checks(rep, in, o);

    // ---- find (non-rigorous), then existence and uniqueness (Krawczyk) --------------------------------
    const std::vector<KktCandidateNonrigorous> cands = find_candidates(rep, in, ncf_d, P);
    // The hypotheses of Lemmas 19-20 on the instance: u* a first-order KKT point of (4), N(u*) > 0, Delta_max > 0.
    if (cands.empty() || !(cands[0].residual < 1e-8)) {
        rep.hypothesis("KKT point exists and is unique in its box", "[KH2025, Sec. 2]")
            .result(ProofResult::not_proven("the non-rigorous search found no candidate with a small KKT residual"));
        return;
    }
    const KktCandidateNonrigorous& c = cands[0];
    const KktExistence<I> ex = prove_kkt_point(ncf, c.u, c.mu);
    rep.hypothesis("KKT point exists and is unique in its box", "[KH2025, Sec. 2; Krawczyk 1969]")
        .result({ex.status, ex.reason + " (dimension " + std::to_string(P + 1) + ", ||I - R J||_inf <= " +
                                format_g(ex.contraction_bound) + ")"});
    if (ex.status != ProofStatus::proven) return;
    const double wmax = la::max_width(ex.u);
    rep.note("the certified KKT box has max width " + format_g(wmax) + "; every statement below is about the unique "
             "KKT point u* in it");

    // ---- N, Delta_max, spectra, identities ----------------------------------------------------------
    const TangentSpectrum<I> ts = tangent_spectrum(ncf, ex.u);
    const HessianSpectrum<I> hs = hessian_spectrum(ncf, ex.u);
    const EulerResiduals<I> er = euler_residuals(ncf, ex.u, ex.mu);
    const I Nval = ts.status == ProofStatus::proven ? ts.ncf_value : ncf.gradient(ex.u).value;
    rep.hypothesis("N(u*) > 0", "[KH2025, Sec. 2 (positive KKT point)]").positive({"N(u*)", Nval});
    identity_checks(rep, er, o.tol);
    const I LL1N = radial_hessian_eigenvalue(Nval, L);
    spectrum_checks(rep, ts, LL1N, o.second_order);
    case_value_checks(rep, in, bits, ts, Nval);
    if (in.has("closed_form")) {
        if (arch.kind != ModelKind::diagonal || arch.depth != 2)
            throw std::invalid_argument("closed_form = \"diagonal_gap\" needs model = \"diagonal\" with depth 2");
        closed_form_check(rep, in, bits, ts, diagonal_gap_closed_form(data.X, ncf.ytilde()));
    }
    if (o.eq16) eq16_check(rep, hs, LL1N);

    // ---- zero pattern and Lemma 17 ------------------------------------------------------------------
    const double ztol = in.has("zero_tolerance") ? mid(in.interval_d("zero_tolerance")) : 1e-8;
    const ZeroPattern<I> zp = prove_zero_pattern(ncf, c.u, c.mu, ztol, ex.uniqueness_box);
    const bool zp_ok = zero_pattern_step(rep, zp, P);
    if (o.feed_forward) lemma17_checks(rep, arch, lemma17_balance<I>(arch, zp_ok ? zp.u : ex.u), c.u, o.tol);

    // ---- tables -------------------------------------------------------------------------------------
    enclosure_tables(rep, arch, ex, ts, hs, Nval, LL1N, wmax);
    stopwatch.note(rep, 6, "wall time of search + certification");
    rep.claim.proven_statement =
        std::string("the box contains exactly one first-order KKT point u* of max N s.t. ||u|| = 1; ") +
        (o.second_order ? "it is Delta-second-order positive for every Delta in (0, Delta_max], with Delta_max enclosed as "
                          "reported; "
                        : "") +
        "lambda_max(Hess N(u*)) = L(L-1)N(u*); u* has exactly the reported zero pattern";
}

void run(cert::Context& ctx) {
    const std::string t = ctx.input.has("interval_type") ? ctx.input.string("interval_type") : "IntervalD";
    if (t == "IntervalMp")
        run_typed<IntervalMp>(ctx);
    else
        run_typed<IntervalD>(ctx);
}

}  // namespace

int main(int argc, char** argv) {
    cert::VerifierSpec spec{
        .name = "kh/ncf_kkt",
        .summary = "certifies KKT points of max N(u) s.t. |u| = 1: existence, N > 0, Delta_max, zero pattern",
        .claim = {.paper = "KH2025",
                  .locator = "Sec. 2 (eq. (4), Delta-second-order KKT points), Lemmas 17, 19, 20",
                  .paper_statement = "w* is a Delta-second-order positive KKT point of (4): grad N(w*) = L N(w*) w*, "
                                     "N(w*) > 0 and L N(w*) - b^T Hess N(w*) b >= Delta for all unit b orthogonal to w*",
                  .proven_statement = {}},
        .schema = schema(),
        .default_precision_bits = 128,
        .validate = validate,
        .run = run,
    };
    return cert::verifier_main(argc, argv, spec);
}
