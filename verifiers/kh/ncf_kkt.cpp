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

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "kh_case_inputs.hpp"
#include "kh_report.hpp"

namespace cert = flowcert::cert;
namespace la = flowcert::linalg;
using namespace flowcert;
using namespace flowcert::nets;
using namespace flowcert::proofs::kh;

namespace {

using khcase::parse_loss;
using khcase::parse_architecture;
using khreport::fmt;

template <Interval I> I hull_all(const std::vector<I>& v) {
    I h = v.front();
    for (const I& x : v) h = hull(h, x);
    return h;
}

template <Interval I>
void run_typed(cert::Context& ctx) {
    const cert::Case& in = ctx.input;
    auto& rep = ctx.report;
    const long bits = std::is_same_v<I, IntervalD> ? 53 : ctx.precision_bits;
    const khreport::Stopwatch stopwatch;

    // ---- data -------------------------------------------------------------------------------------
    const khcase::CaseData<I> data = khcase::read_data<I>(in, bits);
    khcase::export_data(ctx, data);  // --export-instance
    const Mat<I>& Xi = data.X;
    const Vec<I>& yi = data.y;
    const Eigen::MatrixXd& Xd = data.Xd;
    const Eigen::VectorXd& yd = data.yd;
    if (data.teacher) {
        rep.set_seed("data (kh/inputs, kh/teacher streams)", std::to_string(data.seed));
        rep.note("data: " + std::to_string(Xd.cols()) + " inputs = seeded Gaussians normalized to the unit sphere of R^" +
                 std::to_string(Xd.rows()) + " (in double; those doubles are the data), labels from the teacher " +
                 data.teacher->describe() + " with seeded Gaussian weights, evaluated in double (exact data)");
    }
    const int d = static_cast<int>(Xd.rows());
    const HomogeneousArchitecture arch = parse_architecture(in, d);
    const SquareLossNormalization norm = parse_loss(in.string("loss"));
    const Ncf<double> ncf_d(HomogeneousModel<double>(arch, Xd), ncf_weights<double>(yd, norm));
    const Ncf<I> ncf(HomogeneousModel<I>(arch, Xi), ncf_weights<I>(yi, norm));
    const int L = arch.homogeneity_order(), P = arch.parameter_count();
    rep.note("model: " + arch.describe() + "; loss " + norm.describe() + ", so ytilde = -l'(0, y) = " +
             (norm.half ? "" : "2") + (norm.mean ? "y/n" : "y") + "; arithmetic " + IntervalTraits<I>::name +
             " (" + std::to_string(bits) + " bits)");

    // ---- which checks -----------------------------------------------------------------------------
    const bool second_order = !in.has("require_second_order") || in.boolean("require_second_order");
    const bool eq16 = in.has("check_eq16") && in.boolean("check_eq16");
    const bool ff = arch.kind == ModelKind::feed_forward;
    const std::string tol = in.has("identity_tolerance") ? in.number_string("identity_tolerance") : "1e-8";
    std::vector<std::string> planned = {"KKT point exists and is unique in its box", "N(u*) > 0"};
    if (second_order) planned.push_back("Delta_max > 0 (Delta-second-order positive)");
    for (const char* name : {
                                              "Euler identity u^T grad N = L N", "Euler identity Hess N u = (L-1) grad N",
                             "multiplier lambda* = L N(u*)/2",
                             "Hess N(u*) u* = L(L-1) N(u*) u*",
                             "lambda_max(Hess N(u*)) = L(L-1) N(u*)", "zero pattern of u*"})
        planned.push_back(name);
    for (const auto& c : planned) rep.plan(c);
    if (ff) rep.plan("Lemma 17 row/column balance");
    if (in.has("expected_ncf")) rep.plan("N(u*) = expected value");
    if (in.has("expected_delta_max")) rep.plan("Delta_max = expected value");
    if (in.has("closed_form")) rep.plan("Delta_max = closed form");
    if (eq16) rep.plan("eq. (16) as printed: ||Hess N(u*)||_2 <= L(L-1) N(u*)");

    // ---- find (non-rigorous) ----------------------------------------------------------------------
    std::vector<KktCandidateNonrigorous> cands;
    if (in.has("start_point")) {
        Eigen::VectorXd s(P);
        const auto sp = in.number_strings("start_point");
        if (static_cast<int>(sp.size()) != P) throw std::invalid_argument("start_point: need one entry per parameter");
        for (int j = 0; j < P; ++j) s(j) = mid(IntervalD::from_decimal(sp[j]));
        cands.push_back(polish_kkt_point_nonrigorous(ncf_d, s, 20));
        rep.note("candidate: Newton (double, non-rigorous) from the case's start_point");
    } else {
        KktSearchOptions opt;
        if (in.has("search_starts")) opt.starts = static_cast<int>(in.integer("search_starts"));
        if (in.has("search_seed")) opt.seed = static_cast<std::uint64_t>(in.integer("search_seed"));
        rep.set_seed("search (kh/ncf_start streams)", std::to_string(opt.seed));
        cands = find_kkt_points_nonrigorous(ncf_d, opt);
        rep.note("candidates: non-rigorous multistart projected gradient ascent on the sphere (" +
                 std::to_string(opt.starts) + " seeded Gaussian starts) + Newton in double; the best is certified");
    }
    cert::Table& ct = rep.table("candidate KKT points (non-rigorous search)",
                                {"#", "N(u) (double)", "KKT residual", "start", "ascent iterations", "nonzeros"});
    for (std::size_t k = 0; k < cands.size(); ++k) {
        int nz = 0;
        const double sc = cands[k].u.cwiseAbs().maxCoeff();
        for (int j = 0; j < P; ++j) nz += std::abs(cands[k].u(j)) > 1e-8 * sc;
        ct.add_row({std::to_string(k), fmt(cands[k].value), fmt(cands[k].residual), std::to_string(cands[k].start),
                    std::to_string(cands[k].ascent_iterations), std::to_string(nz)});
    }
    // The hypotheses of Lemmas 19-20 on the instance: u* a first-order KKT point of (4), N(u*) > 0, Delta_max > 0.
    if (cands.empty() || !(cands[0].residual < 1e-8)) {
        rep.hypothesis("KKT point exists and is unique in its box", "[KH2025, Sec. 2]")
            .result(ProofResult::not_proven("the non-rigorous search found no candidate with a small KKT residual"));
        return;
    }
    const KktCandidateNonrigorous& c = cands[0];

    // ---- existence and uniqueness -------------------------------------------------------------------
    const KktExistence<I> ex = prove_kkt_point(ncf, c.u, c.mu);
    rep.hypothesis("KKT point exists and is unique in its box", "[KH2025, Sec. 2; Krawczyk 1969]")
        .result({ex.status, ex.reason + " (dimension " + std::to_string(P + 1) + ", ||I - R J||_inf <= " +
                                fmt(ex.contraction_bound) + ")"});
    if (ex.status != ProofStatus::proven) return;
    double wmax = la::max_width(ex.u);
    rep.note("the certified KKT box has max width " + fmt(wmax) + "; every statement below is about the unique "
             "KKT point u* in it");

    // ---- N, Delta_max, spectra -------------------------------------------------------------------------
    const TangentSpectrum<I> ts = tangent_spectrum(ncf, ex.u);
    const HessianSpectrum<I> hs = hessian_spectrum(ncf, ex.u);
    const EulerResiduals<I> er = euler_residuals(ncf, ex.u, ex.mu);
    const GradientResult<I> gv = ncf.gradient(ex.u);
    const I Nval = ts.status == ProofStatus::proven ? ts.ncf_value : gv.value;
    rep.hypothesis("N(u*) > 0", "[KH2025, Sec. 2 (positive KKT point)]").positive({"N(u*)", Nval});
    const auto tolbox = [&](const std::string& t) { return cert::Operand::exact_interval("[-" + t + ", " + t + "]", "-" + t, t); };
    // Identities for every L-homogeneous N (Lemma 19) and every KKT point (Lemma 20): consistency checks of the
    // enclosures, labelled as holding for every input (shown, never counted).
    const std::string ident = "an identity for every L-homogeneous N and KKT point [KH2025, Lemmas 19-20]: a consistency "
                              "check of the enclosures";
    if (er.status != ProofStatus::not_proven) {
        rep.conclusion("Euler identity u^T grad N = L N", "[KH2025, Lemma 19]").trivially_true(ident)
            .inside({"u^T grad N(u) - L N(u) over the box", er.value_identity}, tolbox(tol));
        rep.conclusion("Euler identity Hess N u = (L-1) grad N", "[KH2025, Lemma 19]").trivially_true(ident)
            .inside({"hull_j (Hess N u - (L-1) grad N)_j", er.hessian_identity}, tolbox(tol));
        rep.conclusion("multiplier lambda* = L N(u*)/2", "[KH2025, Lemma 20]").trivially_true(ident)
            .inside({"2 lambda* - L N(u*)", er.multiplier_identity}, tolbox(tol));
        rep.conclusion("Hess N(u*) u* = L(L-1) N(u*) u*", "[KH2025, proof of Lemma 20]").trivially_true(ident)
            .inside({"hull_j (Hess N u - L(L-1) N u)_j", er.eigen_identity}, tolbox(tol));
    } else {
        rep.conclusion("Euler identity u^T grad N = L N", "[KH2025, Lemma 19]").trivially_true(ident).holds(false, er.reason);
    }
    const I LL1N = I(L * (L - 1)) * Nval;
    if (ts.status == ProofStatus::proven) {
        if (second_order)
            rep.hypothesis("Delta_max > 0 (Delta-second-order positive)", "[KH2025, Sec. 2; Lemma 20, eq. (15)]")
                .positive({"Delta_max = L N(u*) - lambda_max(Q^T Hess N(u*) Q)", ts.delta_max});
        // eig(Hess N(u*)) = {L(L-1)N} U eig(Q^T Hess Q) because Hess u* = L(L-1)N u* (Lemma 19 + KKT).
        rep.conclusion("lambda_max(Hess N(u*)) = L(L-1) N(u*)", "[KH2025, proof of Lemma 20]")
            .le({"lambda_max(Q^T Hess N(u*) Q)", ts.lambda_max_tangent}, {"L(L-1) N(u*)", LL1N});
    } else {
        if (second_order)
            rep.hypothesis("Delta_max > 0 (Delta-second-order positive)", "[KH2025, Lemma 20]")
                .result(ProofResult::not_proven(ts.reason));
        rep.conclusion("lambda_max(Hess N(u*)) = L(L-1) N(u*)", "[KH2025, Lemma 20]").holds(false, ts.reason);
    }
    if (in.has("expected_ncf")) {
        const I e = in.interval<I>("expected_ncf", bits);
        const I t = in.interval<I>("expected_tolerance", bits);
        // The case's closed-form value: the certified point is the one the case means (a step).
        rep.step("N(u*) = expected value", "[case]")
            .within({"N(u*)", Nval}, {"expected_ncf - expected_tolerance", e - t}, {"expected_ncf + expected_tolerance", e + t});
    }
    if (in.has("expected_delta_max")) {
        const I e = in.interval<I>("expected_delta_max", bits);
        const I t = in.interval<I>("expected_tolerance", bits);
        if (ts.status == ProofStatus::proven)
            rep.step("Delta_max = expected value", "[case]")
                .within({"Delta_max", ts.delta_max}, {"expected_delta_max - expected_tolerance", e - t},
                        {"expected_delta_max + expected_tolerance", e + t});
        else
            rep.step("Delta_max = expected value", "[case]").holds(false, ts.reason);
    }
    if (in.has("closed_form")) {
        // Spec section 9A: diagonal net sum_k u_k v_k x_k, N = sum_k b_k u_k v_k with b = X ytilde;
        // Delta_max = |b|_(1) - |b|_(2) at the maximizer.
        if (arch.kind != ModelKind::diagonal || arch.depth != 2)
            throw std::invalid_argument("closed_form = \"diagonal_gap\" needs model = \"diagonal\" with depth 2");
        const DiagonalGap<I> dg = diagonal_gap_closed_form(Xi, ncf.ytilde());
        const I& gap = dg.gap;
        const I t = in.interval<I>("expected_tolerance", bits);
        rep.note("closed form (spec 9A, order by midpoints; valid because the top two |b_k| are separated): "
                 "|b|_(1) - |b|_(2) in " + to_string(gap, 12));
        if (ts.status == ProofStatus::proven && dg.ordered)
            rep.step("Delta_max = closed form", "[docs/kh.md#verifier-khncf_kkt (diagonal net)]")
                .trivially_true("an identity of the depth-2 diagonal family (docs/kh.md#verifier-khncf_kkt): a cross-check of "
                                "the certified spectrum against the closed form, never a decision")
                .within({"Delta_max", ts.delta_max}, {"|b|_(1) - |b|_(2) - expected_tolerance", gap - t},
                        {"|b|_(1) - |b|_(2) + expected_tolerance", gap + t});
        else
            rep.step("Delta_max = closed form", "[docs/kh.md#verifier-khncf_kkt (diagonal net)]")
                .trivially_true("an identity of the depth-2 diagonal family (docs/kh.md#verifier-khncf_kkt): a cross-check of "
                                "the certified spectrum against the closed form, never a decision")
                .holds(false, "the order of the |b_k| is not certain or Delta_max is not enclosed");
    }
    if (eq16) {
        if (hs.status == ProofStatus::proven) {
            // Lemma 20's eq. (16) as printed: with the hypotheses proven, a violation is a counterexample to it.
            rep.conclusion("eq. (16) as printed: ||Hess N(u*)||_2 <= L(L-1) N(u*)", "[KH2025, Lemma 20, eq. (16)]")
                .le({"-lambda_min(Hess N(u*))", -hs.lambda_min}, {"L(L-1) N(u*)", LL1N});
            if (certainly_less(LL1N, -hs.lambda_min))
                rep.note("REFUTED CLAIM, eq. (16) of Lemma 20 as printed: here ||Hess N(u*)||_2 >= -lambda_min = " +
                         lower_string(-hs.lambda_min, 8) + " > L(L-1)N(u*) <= " + upper_string(LL1N, 8) +
                         ". The proof of Lemma 20 only bounds lambda_max, which is certified above; "
                         "the uses of (16) in (52), (66), (81) need only that one-sided bound (spec section 4).");
        } else {
            rep.conclusion("eq. (16) as printed: ||Hess N(u*)||_2 <= L(L-1) N(u*)", "[KH2025, eq. (16)]").holds(false, hs.reason);
        }
    }

    // ---- zero pattern and Lemma 17 ------------------------------------------------------------------------
    const double ztol = in.has("zero_tolerance") ? mid(in.interval_d("zero_tolerance")) : 1e-8;
    const ZeroPattern<I> zp = prove_zero_pattern(ncf, c.u, c.mu, ztol, ex.uniqueness_box);
    const bool zp_ok = zp.status == ProofStatus::proven && zp.inside_uniqueness_box;
    rep.step("zero pattern of u*", "[KH2025, Def. 15, Lemma 16]")
        .holds(zp_ok, zp.reason + (zp.status == ProofStatus::proven
                                    ? (zp.inside_uniqueness_box ? "; it lies in the full-space uniqueness box, so u* "
                                                                  "itself has exactly the zero set Z"
                                                                : "; but it is not inside the full uniqueness box")
                                    : "") +
                       " (|Z| = " + std::to_string(zp.zero_indices.size()) + " of " + std::to_string(P) + ")");
    if (ff) {
        const la::IVector<I>& U = zp_ok ? zp.u : ex.u;
        const auto bal = lemma17_balance<I>(arch, U);
        std::vector<I> res;
        int exact = 0;
        cert::Table& bt = rep.table("Lemma 17: ||W_l[j,:]||^2 - p ||W_{l+1}[:,j]||^2 (nonzero pairs)",
                                    {"layer l", "neuron j", "residual enclosure"});
        for (const auto& e : bal) {
            res.push_back(e.residual);
            exact += e.exact_zero_pair;
            if (!e.exact_zero_pair) bt.add_row({std::to_string(e.layer), std::to_string(e.neuron), to_string(e.residual, 8)});
        }
        rep.note("Lemma 17: " + std::to_string(exact) + " of " + std::to_string(bal.size()) +
                 " (row, column) pairs are exactly zero (they form the zero-preserving subset of Lemma 16)");
        rep.conclusion("Lemma 17 row/column balance", "[KH2025, Lemma 17]")
            .trivially_true("an identity at every positive KKT point of (10) [KH2025, Lemma 17]: a consistency check")
            .inside({"hull of the balance residuals", hull_all(res)}, tolbox(tol));
        // Heat maps of |W_1| and |v| at u*.
        cert::HeatMap hm{.title = "|W_1| at the certified KKT point (rows = hidden neurons)", .row_labels = {},
                         .col_labels = {}, .values = {}};
        const int r1 = arch.layer_rows(1), c1 = arch.layer_cols(1);
        for (int j = 0; j < r1; ++j) {
            std::vector<double> row;
            for (int k = 0; k < c1; ++k) row.push_back(std::abs(c.u(j * c1 + k)));
            hm.values.push_back(row);
        }
        rep.add_plot(hm);
    }

    // ---- tables ---------------------------------------------------------------------------------------------
    cert::Table& et = rep.table("certified enclosures at u*", {"quantity", "enclosure"});
    et.add_row({"homogeneity order L", std::to_string(L)});
    et.add_row({"N(u*)", to_string(Nval, 17)});
    et.add_row({"lambda* = mu*", to_string(ex.mu, 17)});
    if (ts.status == ProofStatus::proven) {
        et.add_row({"lambda_max(Q^T Hess N(u*) Q)", to_string(ts.lambda_max_tangent, 17)});
        et.add_row({"Delta_max", to_string(ts.delta_max, 17)});
        et.add_row({"Delta_max / (Delta_max + 2 L^2 N(u*)) (Thm 4/10 exponent at Delta_max)",
                    to_string(ts.delta_max / (ts.delta_max + I(2 * L * L) * Nval), 12)});
    }
    if (hs.status == ProofStatus::proven) {
        et.add_row({"lambda_max(Hess N(u*))", to_string(hs.lambda_max, 17)});
        et.add_row({"lambda_min(Hess N(u*))", to_string(hs.lambda_min, 17)});
    }
    et.add_row({"L(L-1) N(u*)", to_string(LL1N, 17)});
    et.add_row({"max width of the KKT box", fmt(wmax)});
    if (P <= 40) {
        cert::Table& ut = rep.table("u* (certified box)", {"parameter", "enclosure"});
        for (int j = 0; j < P; ++j) ut.add_row({arch.parameter_name(j), to_string(ex.u(j), 17)});
    }
    if (!ts.reason.empty() && ts.status != ProofStatus::proven) rep.note("Delta_max not enclosed: " + ts.reason);
    if (!hs.reason.empty() && hs.status != ProofStatus::proven) rep.note("Hessian spectrum not enclosed: " + hs.reason);
    stopwatch.note(rep, 6, "wall time of search + certification");
    rep.claim.proven_statement =
        std::string("the box contains exactly one first-order KKT point u* of max N s.t. ||u|| = 1; ") +
        (second_order ? "it is Delta-second-order positive for every Delta in (0, Delta_max], with Delta_max enclosed as "
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
    using cert::KeyType;
    cert::VerifierSpec spec{
        .name = "kh/ncf_kkt",
        .summary = "certifies KKT points of max N(u) s.t. |u| = 1: existence, N > 0, Delta_max, zero pattern",
        .claim = {.paper = "KH2025",
                  .locator = "Sec. 2 (eq. (4), Delta-second-order KKT points), Lemmas 17, 19, 20",
                  .paper_statement = "w* is a Delta-second-order positive KKT point of (4): grad N(w*) = L N(w*) w*, "
                                     "N(w*) > 0 and L N(w*) - b^T Hess N(w*) b >= Delta for all unit b orthogonal to w*",
                  .proven_statement = {}},
        .schema = khcase::join({
            {
                {.name = "model", .type = KeyType::string, .description = "architecture",
                 .choices = {"example1", "weighted_squares", "diagonal", "feed_forward"}},
                {.name = "signs", .type = KeyType::numbers, .description = "weighted_squares: s_k in {+1,-1}", .required = false},
                {.name = "depth", .type = KeyType::integer, .description = "diagonal: number of factors", .required = false},
                {.name = "hidden", .type = KeyType::numbers, .description = "feed_forward: hidden widths", .required = false},
                {.name = "activation", .type = KeyType::string, .description = "feed_forward activation", .required = false,
                 .choices = {"square", "relu_power", "linear", "relu"}},
                {.name = "power", .type = KeyType::integer, .description = "relu_power exponent p", .required = false},
            },
            khcase::data_keys({"square", "linear", "relu"}),
            {
                {.name = "interval_type", .type = KeyType::string, .description = "IntervalD (default) or IntervalMp",
                 .required = false, .choices = {"IntervalD", "IntervalMp"}},
                {.name = "search_starts", .type = KeyType::integer, .description = "random starts of the search", .required = false},
                {.name = "search_seed", .type = KeyType::integer, .description = "seed of the search", .required = false},
                {.name = "start_point", .type = KeyType::numbers, .description = "polish and certify this point instead of searching",
                 .required = false},
                {.name = "require_second_order", .type = KeyType::boolean, .description = "check Delta_max > 0 (default true)",
                 .required = false},
                {.name = "check_eq16", .type = KeyType::boolean, .description = "also check eq. (16) as printed", .required = false},
                {.name = "expected_ncf", .type = KeyType::number, .description = "expected N(u*)", .required = false},
                {.name = "expected_delta_max", .type = KeyType::number, .description = "expected Delta_max", .required = false},
                {.name = "expected_tolerance", .type = KeyType::number, .description = "tolerance of the expected values",
                 .required = false, .constraint = cert::Constraint::positive},
                {.name = "closed_form", .type = KeyType::string, .description = "compare Delta_max with a closed form",
                 .required = false, .choices = {"diagonal_gap"}},
                {.name = "identity_tolerance", .type = KeyType::number, .description = "bound for identity residuals (default 1e-8)",
                 .required = false, .constraint = cert::Constraint::positive},
                {.name = "zero_tolerance", .type = KeyType::number, .description = "relative size below which an entry is zero",
                 .required = false, .constraint = cert::Constraint::positive},
            },
        }),
        .default_precision_bits = 128,
        .validate =
            [](const cert::Case& c) {
                const std::string m = c.string("model");
                if (m == "weighted_squares" && !c.has("signs")) c.fail("signs", "required for weighted_squares");
                if (m == "diagonal" && !c.has("depth")) c.fail("depth", "required for diagonal");
                if (m == "feed_forward" && (!c.has("hidden") || !c.has("activation")))
                    c.fail("hidden", "feed_forward needs hidden and activation");
                khcase::validate_data_keys(c);
                if ((c.has("expected_ncf") || c.has("expected_delta_max") || c.has("closed_form")) &&
                    !c.has("expected_tolerance"))
                    c.fail("expected_tolerance", "required with expected values");
            },
        .run = run,
    };
    return cert::verifier_main(argc, argv, spec);
}
