// verifiers/kh/ncf_kkt_report.hpp -- the presentation of kh/ncf_kkt [KH2025, Sec. 2, Lemmas 17, 19, 20]: its case
// keys and plan, the candidate table, and the checks recorded from the certified KKT point: the Euler and
// multiplier identities (consistency checks), the spectrum statements, the case's expected values and closed form,
// eq. (16) as printed, the zero pattern with Lemma 17 and the enclosure tables. Templates over the interval type
// (IntervalD / IntervalMp). Local to verifiers/kh; no mathematics (every enclosure comes from proofs/kh/ncf_kkt.hpp).
#pragma once

#include <flowcert/cert.hpp>
#include <flowcert/nets.hpp>
#include <flowcert/proofs/kh/ncf_kkt.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "kh_case_inputs.hpp"
#include "kh_report.hpp"

namespace khncf {

namespace cert = flowcert::cert;
using flowcert::format_g;
using namespace flowcert::proofs::kh;
using flowcert::ProofStatus;

// Which optional checks a case asks for.
struct Options {
    bool second_order = true, eq16 = false, feed_forward = false;
    std::string tol = "1e-8";  // identity_tolerance
};
inline Options read_options(const cert::Case& in, const flowcert::nets::HomogeneousArchitecture& arch) {
    Options o;
    o.second_order = !in.has("require_second_order") || in.boolean("require_second_order");
    o.eq16 = in.has("check_eq16") && in.boolean("check_eq16");
    o.feed_forward = arch.kind == flowcert::nets::ModelKind::feed_forward;
    if (in.has("identity_tolerance")) o.tol = in.number_string("identity_tolerance");
    return o;
}

inline void plan_checks(cert::Report& rep, const cert::Case& in, const Options& o) {
    std::vector<std::string> planned = {"KKT point exists and is unique in its box", "N(u*) > 0"};
    if (o.second_order) planned.push_back("Delta_max > 0 (Delta-second-order positive)");
    for (const char* name : {"Euler identity u^T grad N = L N", "Euler identity Hess N u = (L-1) grad N",
                             "multiplier lambda* = L N(u*)/2", "Hess N(u*) u* = L(L-1) N(u*) u*",
                             "lambda_max(Hess N(u*)) = L(L-1) N(u*)", "zero pattern of u*"})
        planned.push_back(name);
    for (const auto& c : planned) rep.plan(c);
    if (o.feed_forward) rep.plan("Lemma 17 row/column balance");
    if (in.has("expected_ncf")) rep.plan("N(u*) = expected value");
    if (in.has("expected_delta_max")) rep.plan("Delta_max = expected value");
    if (in.has("closed_form")) rep.plan("Delta_max = closed form");
    if (o.eq16) rep.plan("eq. (16) as printed: ||Hess N(u*)||_2 <= L(L-1) N(u*)");
}

// The candidates (non-rigorous): Newton from the case's start_point, or the seeded multistart search; with notes,
// the search seed and the candidate table.
inline std::vector<KktCandidateNonrigorous> find_candidates(cert::Report& rep, const cert::Case& in,
                                                            const flowcert::nets::Ncf<double>& ncf_d, int P) {
    std::vector<KktCandidateNonrigorous> cands;
    if (in.has("start_point")) {
        Eigen::VectorXd s(P);
        const auto sp = in.number_strings("start_point");
        if (static_cast<int>(sp.size()) != P) throw std::invalid_argument("start_point: need one entry per parameter");
        for (int j = 0; j < P; ++j) s(j) = flowcert::mid(flowcert::IntervalD::from_decimal(sp[j]));
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
        ct.add_row({std::to_string(k), format_g(cands[k].value), format_g(cands[k].residual), std::to_string(cands[k].start),
                    std::to_string(cands[k].ascent_iterations), std::to_string(nz)});
    }
    return cands;
}

// [-t, t] for the decimal t, the tolerance box of the identity checks.
inline cert::Operand tolerance_box(const std::string& t) { return cert::Operand::exact_interval("[-" + t + ", " + t + "]", "-" + t, t); }

// Identities for every L-homogeneous N (Lemma 19) and every KKT point (Lemma 20): consistency checks of the
// enclosures, labelled as holding for every input (shown, never counted).
template <flowcert::Interval I>
void identity_checks(cert::Report& rep, const EulerResiduals<I>& er, const std::string& tol) {
    const std::string ident = "an identity for every L-homogeneous N and KKT point [KH2025, Lemmas 19-20]: a consistency "
                              "check of the enclosures";
    if (er.status == ProofStatus::not_proven) {
        rep.conclusion("Euler identity u^T grad N = L N", "[KH2025, Lemma 19]").trivially_true(ident).holds(false, er.reason);
        return;
    }
    rep.conclusion("Euler identity u^T grad N = L N", "[KH2025, Lemma 19]").trivially_true(ident)
        .inside({"u^T grad N(u) - L N(u) over the box", er.value_identity}, tolerance_box(tol));
    rep.conclusion("Euler identity Hess N u = (L-1) grad N", "[KH2025, Lemma 19]").trivially_true(ident)
        .inside({"hull_j (Hess N u - (L-1) grad N)_j", er.hessian_identity}, tolerance_box(tol));
    rep.conclusion("multiplier lambda* = L N(u*)/2", "[KH2025, Lemma 20]").trivially_true(ident)
        .inside({"2 lambda* - L N(u*)", er.multiplier_identity}, tolerance_box(tol));
    rep.conclusion("Hess N(u*) u* = L(L-1) N(u*) u*", "[KH2025, proof of Lemma 20]").trivially_true(ident)
        .inside({"hull_j (Hess N u - L(L-1) N u)_j", er.eigen_identity}, tolerance_box(tol));
}

// Delta_max > 0 (the hypothesis, when asked for) and lambda_max(Hess N(u*)) = L(L-1) N(u*): eig(Hess N(u*)) =
// {L(L-1)N} U eig(Q^T Hess Q) because Hess u* = L(L-1)N u* (Lemma 19 + KKT).
template <flowcert::Interval I>
void spectrum_checks(cert::Report& rep, const TangentSpectrum<I>& ts, const I& LL1N, bool second_order) {
    if (ts.status == ProofStatus::proven) {
        if (second_order)
            rep.hypothesis("Delta_max > 0 (Delta-second-order positive)", "[KH2025, Sec. 2; Lemma 20, eq. (15)]")
                .positive({"Delta_max = L N(u*) - lambda_max(Q^T Hess N(u*) Q)", ts.delta_max});
        rep.conclusion("lambda_max(Hess N(u*)) = L(L-1) N(u*)", "[KH2025, proof of Lemma 20]")
            .le({"lambda_max(Q^T Hess N(u*) Q)", ts.lambda_max_tangent}, {"L(L-1) N(u*)", LL1N});
        return;
    }
    if (second_order)
        rep.hypothesis("Delta_max > 0 (Delta-second-order positive)", "[KH2025, Lemma 20]")
            .result(flowcert::ProofResult::not_proven(ts.reason));
    rep.conclusion("lambda_max(Hess N(u*)) = L(L-1) N(u*)", "[KH2025, Lemma 20]").holds(false, ts.reason);
}

// The case's expected N(u*) and Delta_max (the certified point is the one the case means: steps), the closed form
// of the depth-2 diagonal family (a cross-check, never a decision), and eq. (16) as printed.
template <flowcert::Interval I>
void case_value_checks(cert::Report& rep, const cert::Case& in, long bits, const TangentSpectrum<I>& ts, const I& Nval) {
    if (in.has("expected_ncf")) {
        const I e = in.interval<I>("expected_ncf", bits), t = in.interval<I>("expected_tolerance", bits);
        rep.step("N(u*) = expected value", "[case]")
            .within({"N(u*)", Nval}, {"expected_ncf - expected_tolerance", e - t}, {"expected_ncf + expected_tolerance", e + t});
    }
    if (in.has("expected_delta_max")) {
        const I e = in.interval<I>("expected_delta_max", bits), t = in.interval<I>("expected_tolerance", bits);
        if (ts.status == ProofStatus::proven)
            rep.step("Delta_max = expected value", "[case]")
                .within({"Delta_max", ts.delta_max}, {"expected_delta_max - expected_tolerance", e - t},
                        {"expected_delta_max + expected_tolerance", e + t});
        else
            rep.step("Delta_max = expected value", "[case]").holds(false, ts.reason);
    }
}

// Spec section 9A: diagonal net sum_k u_k v_k x_k, N = sum_k b_k u_k v_k with b = X ytilde; Delta_max = |b|_(1) -
// |b|_(2) at the maximizer (proofs::kh::diagonal_gap_closed_form).
template <flowcert::Interval I>
void closed_form_check(cert::Report& rep, const cert::Case& in, long bits, const TangentSpectrum<I>& ts, const DiagonalGap<I>& dg) {
    const I t = in.interval<I>("expected_tolerance", bits);
    rep.note("closed form (spec 9A, order by midpoints; valid because the top two |b_k| are separated): "
             "|b|_(1) - |b|_(2) in " + to_string(dg.gap, 12));
    const std::string why = "an identity of the depth-2 diagonal family (docs/kh.md#verifier-khncf_kkt): a cross-check of "
                            "the certified spectrum against the closed form, never a decision";
    if (ts.status == ProofStatus::proven && dg.ordered)
        rep.step("Delta_max = closed form", "[docs/kh.md#verifier-khncf_kkt (diagonal net)]")
            .trivially_true(why)
            .within({"Delta_max", ts.delta_max}, {"|b|_(1) - |b|_(2) - expected_tolerance", dg.gap - t},
                    {"|b|_(1) - |b|_(2) + expected_tolerance", dg.gap + t});
    else
        rep.step("Delta_max = closed form", "[docs/kh.md#verifier-khncf_kkt (diagonal net)]")
            .trivially_true(why)
            .holds(false, "the order of the |b_k| is not certain or Delta_max is not enclosed");
}

// Lemma 20's eq. (16) as printed: with the hypotheses proven, a violation is a counterexample to it.
template <flowcert::Interval I>
void eq16_check(cert::Report& rep, const HessianSpectrum<I>& hs, const I& LL1N) {
    if (hs.status != ProofStatus::proven) {
        rep.conclusion("eq. (16) as printed: ||Hess N(u*)||_2 <= L(L-1) N(u*)", "[KH2025, eq. (16)]").holds(false, hs.reason);
        return;
    }
    rep.conclusion("eq. (16) as printed: ||Hess N(u*)||_2 <= L(L-1) N(u*)", "[KH2025, Lemma 20, eq. (16)]")
        .le({"-lambda_min(Hess N(u*))", -hs.lambda_min}, {"L(L-1) N(u*)", LL1N});
    if (certainly_less(LL1N, -hs.lambda_min))
        rep.note("REFUTED CLAIM, eq. (16) of Lemma 20 as printed: here ||Hess N(u*)||_2 >= -lambda_min = " +
                 lower_string(-hs.lambda_min, 8) + " > L(L-1)N(u*) <= " + upper_string(LL1N, 8) +
                 ". The proof of Lemma 20 only bounds lambda_max, which is certified above; "
                 "the uses of (16) in (52), (66), (81) need only that one-sided bound (spec section 4).");
}

// The zero pattern of u* [KH2025, Def. 15, Lemma 16] (proven and inside the full-space uniqueness box). True when so.
template <flowcert::Interval I>
bool zero_pattern_step(cert::Report& rep, const ZeroPattern<I>& zp, int P) {
    const bool ok = zp.status == ProofStatus::proven && zp.inside_uniqueness_box;
    rep.step("zero pattern of u*", "[KH2025, Def. 15, Lemma 16]")
        .holds(ok, zp.reason + (zp.status == ProofStatus::proven
                                    ? (zp.inside_uniqueness_box ? "; it lies in the full-space uniqueness box, so u* "
                                                                  "itself has exactly the zero set Z"
                                                                : "; but it is not inside the full uniqueness box")
                                    : "") +
                       " (|Z| = " + std::to_string(zp.zero_indices.size()) + " of " + std::to_string(P) + ")");
    return ok;
}

// Lemma 17 on feed-forward nets: the table of the nonzero balance pairs, the consistency check on their hull, and
// the heat map of |W_1| at the candidate.
template <flowcert::Interval I>
void lemma17_checks(cert::Report& rep, const flowcert::nets::HomogeneousArchitecture& arch,
                    const std::vector<BalanceEntry<I>>& bal, const Eigen::VectorXd& u, const std::string& tol) {
    int exact = 0;
    cert::Table& bt = rep.table("Lemma 17: ||W_l[j,:]||^2 - p ||W_{l+1}[:,j]||^2 (nonzero pairs)",
                                {"layer l", "neuron j", "residual enclosure"});
    for (const auto& e : bal) {
        exact += e.exact_zero_pair;
        if (!e.exact_zero_pair) bt.add_row({std::to_string(e.layer), std::to_string(e.neuron), to_string(e.residual, 8)});
    }
    rep.note("Lemma 17: " + std::to_string(exact) + " of " + std::to_string(bal.size()) +
             " (row, column) pairs are exactly zero (they form the zero-preserving subset of Lemma 16)");
    rep.conclusion("Lemma 17 row/column balance", "[KH2025, Lemma 17]")
        .trivially_true("an identity at every positive KKT point of (10) [KH2025, Lemma 17]: a consistency check")
        .inside({"hull of the balance residuals", balance_residual_hull(bal)}, tolerance_box(tol));
    cert::HeatMap hm{.title = "|W_1| at the certified KKT point (rows = hidden neurons)", .row_labels = {},
                     .col_labels = {}, .values = {}};
    const int r1 = arch.layer_rows(1), c1 = arch.layer_cols(1);
    for (int j = 0; j < r1; ++j) {
        std::vector<double> row;
        for (int k = 0; k < c1; ++k) row.push_back(std::abs(u(j * c1 + k)));
        hm.values.push_back(row);
    }
    rep.add_plot(hm);
}

// The tables "certified enclosures at u*" and (P <= 40) "u* (certified box)", and the notes on what was not enclosed.
template <flowcert::Interval I>
void enclosure_tables(cert::Report& rep, const flowcert::nets::HomogeneousArchitecture& arch, const KktExistence<I>& ex,
                      const TangentSpectrum<I>& ts, const HessianSpectrum<I>& hs, const I& Nval, const I& LL1N, double wmax) {
    const int L = arch.homogeneity_order(), P = arch.parameter_count();
    cert::Table& et = rep.table("certified enclosures at u*", {"quantity", "enclosure"});
    et.add_row({"homogeneity order L", std::to_string(L)});
    et.add_row({"N(u*)", to_string(Nval, 17)});
    et.add_row({"lambda* = mu*", to_string(ex.mu, 17)});
    if (ts.status == ProofStatus::proven) {
        et.add_row({"lambda_max(Q^T Hess N(u*) Q)", to_string(ts.lambda_max_tangent, 17)});
        et.add_row({"Delta_max", to_string(ts.delta_max, 17)});
        et.add_row({"Delta_max / (Delta_max + 2 L^2 N(u*)) (Thm 4/10 exponent at Delta_max)",
                    to_string(distance_exponent(ts.delta_max, Nval, L), 12)});
    }
    if (hs.status == ProofStatus::proven) {
        et.add_row({"lambda_max(Hess N(u*))", to_string(hs.lambda_max, 17)});
        et.add_row({"lambda_min(Hess N(u*))", to_string(hs.lambda_min, 17)});
    }
    et.add_row({"L(L-1) N(u*)", to_string(LL1N, 17)});
    et.add_row({"max width of the KKT box", format_g(wmax)});
    if (P <= 40) {
        cert::Table& ut = rep.table("u* (certified box)", {"parameter", "enclosure"});
        for (int j = 0; j < P; ++j) ut.add_row({arch.parameter_name(j), to_string(ex.u(j), 17)});
    }
    if (!ts.reason.empty() && ts.status != ProofStatus::proven) rep.note("Delta_max not enclosed: " + ts.reason);
    if (!hs.reason.empty() && hs.status != ProofStatus::proven) rep.note("Hessian spectrum not enclosed: " + hs.reason);
}

// The case keys of kh/ncf_kkt.
inline cert::CaseSchema schema() {
    using cert::KeyType;
    return khcase::join({
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
    });
}

inline void validate(const cert::Case& c) {
    const std::string m = c.string("model");
    if (m == "weighted_squares" && !c.has("signs")) c.fail("signs", "required for weighted_squares");
    if (m == "diagonal" && !c.has("depth")) c.fail("depth", "required for diagonal");
    if (m == "feed_forward" && (!c.has("hidden") || !c.has("activation")))
        c.fail("hidden", "feed_forward needs hidden and activation");
    if (m == "feed_forward") khcase::validate_widths(c, "hidden");
    khcase::validate_data_keys(c);
    if ((c.has("expected_ncf") || c.has("expected_delta_max") || c.has("closed_form")) &&
        !c.has("expected_tolerance"))
        c.fail("expected_tolerance", "required with expected values");
}

}  // namespace khncf
