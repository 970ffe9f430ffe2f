// bf/extremal_vectors -- [BF2025, Sec. 3, Def. 1, Lemmas 2, 3, 15, eqs. (20)-(24)]: every activation cone of
// the data (d = 2), D_u exactly, the cones carrying an extremal vector, D_max, D_min, the local maxima and
// minima of G on the circle, the no-saddle hypothesis of Theorem 1 and a lower bound on lambda*_{alpha_0} of
// eq. (21) (lib/flowcert/nets/alignment.hpp, lib/flowcert/proofs/bf/theorem1_constants.hpp). With
// `least_squares = true` also the least-squares quantities of Section 4. See docs/bf.md.
#include <string>

#include "bf_data.hpp"

namespace {

using namespace bf;
using flowcert::IntervalD;
using flowcert::IntervalMp;

void run(cert::Context& ctx) {
    const cert::Case& in = ctx.input;
    cert::Report& R = ctx.report;
    const long bits = ctx.precision_bits;
    const nets::TwoLayerSpec spec = load_spec(in);
    const nets::AlignmentData data = nets::alignment_data(spec);
    const std::string a0 = in.number_string("alpha0"), eps = in.number_string("epsilon");
    for (const char* c : {"epsilon < 1/3", "alpha0 <= 1", "activation cones enumerated exactly", "Lemma 2: families of <= d vectors d1l(0,y_k) x_k independent",
                          "Lemma 2: no D_u on the boundary of its cone", "no saddle of G (conclusion of Lemma 15)", "Lemma 3: an extremal vector exists",
                          "D_min > 0", "lambda* > 0"})
        R.plan(c);
    for (const char* k : {"expected_extremal", "expected_local_max", "expected_local_min", "lambda_star_lower"})
        if (in.has(k)) R.plan(std::string(k) == "expected_extremal" ? "number of extremal vectors"
                              : std::string(k) == "expected_local_max" ? "number of strict local maxima of G"
                              : std::string(k) == "expected_local_min" ? "number of strict local minima of G" : "lambda* lower bound");
    plan_bounds(in, R);
    R.hypothesis("epsilon < 1/3", "[BF2025, Thm 1]").lt({"epsilon", in.interval_mp("epsilon", ctx.precision())}, cert::exact("1/3"));
    R.hypothesis("alpha0 <= 1", "[BF2025, Condition 1, eq. (21)]").le({"alpha0", in.interval_mp("alpha0", ctx.precision())}, cert::exact("1"));

    const nets::Cones2 cones = nets::activation_cones_2d(data);
    const bool exact = cones.status == nets::Cones2::Status::exact;
    R.step("activation cones enumerated exactly", "[BF2025, Sec. 3; Cover 1965]")
        .holds(exact, exact ? std::to_string(cones.cones.size()) + " cones of A(R^2 \\ {0}) from the exact angular order of the rays <w, x_k> = 0"
                            : cones.reason);
    const proofs::Theorem1Constants K = proofs::theorem1_constants(data, cones, bits);
    if (!K.result.is_proven()) R.note("constants of Theorem 1 unavailable: " + K.result.reason);

    cert::Table& T = R.table("activation cones (counter-clockwise)", {"u = A(w)", "kind", "direction", "D_u (exact)", "|D_u|", "extremal (Def. 1)", "G critical point"});
    Quantities Q;
    cert::CirclePlot circle{.title = "data directions, cone boundaries and extremal vectors (d = 2)"};
    for (std::size_t k = 0; exact && k < data.n; ++k) circle.add("x_" + std::to_string(k + 1), "data", mp(data.x[k][0], 64), mp(data.x[k][1], 64));
    int i_ext = 0;
    for (const auto& c : cones.cones) {
        const IntervalMp nD = sqrt(mp(nets::dot(c.D.D, c.D.D), bits));
        T.add_row({signs_str(c.u), c.is_ray ? "ray" : "sector", vec_dec(c.dir, 6), vec_str(c.D.D), to_string(nD, 12),
                   c.extremal_pos ? "yes: D_u in A^{-1}(u)" : (c.extremal_neg ? "yes: D_u in -A^{-1}(u)" : "no"), nets::to_string(c.critical)});
        if (c.is_ray) circle.add("", "cone boundaries", mp(c.dir[0], 64), mp(c.dir[1], 64));
        if (!c.extremal_pos && !c.extremal_neg) continue;
        const std::string nm = "extremal " + std::to_string(++i_ext);
        circle.add(nm + " (u = " + signs_str(c.u) + ")", c.extremal_pos ? "extremal, D in A^{-1}(u)" : "extremal, D in -A^{-1}(u)", mp(c.D.D[0], 64), mp(c.D.D[1], 64));
        Q.set(nm + " |D|", nD);
        Q.set(nm + " D_1", mp(c.D.D[0], bits));
        Q.set(nm + " D_2", mp(c.D.D[1], bits));
    }
    if (exact) R.add_plot(circle);
    cert::Table& E = R.table("strict local extrema of G on the circle (exact positions)", {"kind", "cone u", "direction (exact)", "G at the unit direction"});
    int imax = 0, imin = 0;
    for (const auto& c : cones.cones) {
        const bool mx = c.critical == nets::Critical::strict_local_max;
        if (!mx && c.critical != nets::Critical::strict_local_min) continue;
        const IntervalMp g = c.G_critical.enclose(bits);
        const std::string nm = mx ? "local max " + std::to_string(++imax) : "local min " + std::to_string(++imin);
        Q.set(nm + " G", g);
        E.add_row({nm, signs_str(c.u), vec_str(c.critical_dir), to_string(g, 15)});
    }
    // Lemma 2 (the deterministic part of Assumption 2 that Theorem 1 and Lemma 15 use) is a hypothesis on the data.
    const bool have = K.n_cones > 0;
    auto lemma2 = [&](bool ok, const std::string& yes, const std::string& no) {
        return !have ? flowcert::ProofResult::not_proven(K.result.reason) : ok ? flowcert::ProofResult::proven(yes) : flowcert::ProofResult::disproven(no);
    };
    R.hypothesis("Lemma 2: families of <= d vectors d1l(0,y_k) x_k independent", "[BF2025, Lemma 2]")
        .result(lemma2(K.lemma2_independence, "every d1l(0,y_k) x_k is non-zero and no two are parallel (exact)",
                       "two of the vectors d1l(0,y_k) x_k are parallel or one is zero (exact)"));
    R.hypothesis("Lemma 2: no D_u on the boundary of its cone", "[BF2025, Lemma 2]")
        .result(lemma2(K.lemma2_boundary, "for every sector with D_u != 0, D_u is on neither boundary line (exact cross products)",
                       "some sector's D_u lies on one of its boundary lines: " + K.no_saddle_reason));
    R.conclusion("no saddle of G (conclusion of Lemma 15)", "[BF2025, Thm 1 hypothesis; Lemma 15]").result(proofs::no_saddle(K));
    R.conclusion("Lemma 3: an extremal vector exists", "[BF2025, Lemma 3]")
        .holds(K.n_extremal >= 1, std::to_string(K.n_extremal) + " cone(s) carry an extremal vector");
    auto count = [&](const char* key, const char* name, std::size_t found, const char* cit) {
        if (!in.has(key)) return;
        R.conclusion(name, cit)
            .statement("exactly " + std::to_string(in.integer(key)) + " (up to scaling)")
            .holds(static_cast<long long>(found) == in.integer(key), std::to_string(found) + " found, " + std::to_string(in.integer(key)) + " claimed");
    };
    count("expected_extremal", "number of extremal vectors", K.n_extremal, "[BF2025, Def. 1]");
    count("expected_local_max", "number of strict local maxima of G", K.n_local_max, "[BF2025, Thm 1 (ii)]");
    count("expected_local_min", "number of strict local minima of G", K.n_local_min, "[BF2025, Thm 1 (ii)]");

    if (K.result.is_proven()) {
        R.step("D_min > 0", "[BF2025, App. D]").positive({"D_min", K.D_min});
        for (const auto& [n, v] : std::vector<std::pair<const char*, IntervalMp>>{{"D_max", K.D_max}, {"D_min", K.D_min}, {"max_G", K.max_G},
                                                                                  {"min_G", K.min_G}, {"alpha_min", K.alpha_min}, {"delta0", K.delta0}})
            Q.set(n, v);
        cert::Table& C = R.table("constants of Theorem 1 (App. D)", {"constant", "enclosure", "how"});
        C.add_row({"D_max = max_w |D(w,0)|", to_string(K.D_max, 15), "sqrt of the exact max of |D_u|^2 over all cones"});
        C.add_row({"D_min (eq. (21))", to_string(K.D_min, 15), K.D_min_complete ? "sqrt of the exact min of |D_u|^2 over cones with D_u != 0"
                                                                                 : "over cones u != 0 only (gamma > 0: the cone u = 0 is not computed)"});
        C.add_row({"max of G on the circle", to_string(K.max_G, 15), "max over rays and interior critical points (exact comparison)"});
        C.add_row({"min of G on the circle", to_string(K.min_G, 15), "likewise"});
        C.add_row({"alpha_{min,+}^2 (eqs. (22)-(24))", K.alpha_plus_empty ? "1 (empty set)" : nets::decimal_string(K.alpha_plus_sq, 15),
                   "1 - (max cosine between D_u and its closed cone)^2, exact"});
        C.add_row({"alpha_{min,-}^2", K.alpha_minus_empty ? "1 (empty set)" : nets::decimal_string(K.alpha_minus_sq, 15), "1 - (min cosine)^2, exact"});
        C.add_row({"alpha_min", to_string(K.alpha_min, 15), "sqrt(min of the two)"});
        C.add_row({"delta_0' (eq. (20))", K.delta0_prime_empty ? "none (no extremal ray)" : to_string(K.delta0_prime, 15),
                   "|g_k| min(eta_k^u - gamma, 1 - eta_k^u) over extremal rays"});
        C.add_row({"delta_0''", K.delta0_second_empty ? "none" : to_string(K.delta0_second, 15), "min |<D_u, x_k>| / |x_k| over extremal cones, u_k != 0"});
        C.add_row({"delta_0", to_string(K.delta0, 15), "min(delta_0', delta_0'')"});
        const proofs::LambdaStar L = proofs::lambda_star(data, K, a0, eps, bits);
        if (L.result.is_proven()) {
            R.conclusion("lambda* > 0", "[BF2025, eq. (21)]").positive({"lambda*_{alpha0}", L.lambda_star});
            Q.set("lambda_star", L.lambda_star);
            C.add_row({"n/sum|x|^2 alpha_min^2 D_min/8", to_string(L.term_alpha_min, 15), "eq. (21)"});
            C.add_row({"n/sum|x|^2 alpha_0^2 D_min/4", to_string(L.term_alpha0, 15), "eq. (21)"});
            C.add_row({"n/sum|x|^2 delta_0", to_string(L.term_delta0, 15), "eq. (21)"});
            C.add_row({"min_k |d1l(0,y_k)| / |x_k|", to_string(L.term_labels, 15), "eq. (21)"});
            C.add_row({"lambda*_{alpha_0} (alpha_0 = " + a0 + ", eps = " + eps + ")", to_string(L.lambda_star, 15), "min(...)^{1/(2-4 eps)}"});
            if (in.has("lambda_star_lower"))
                R.conclusion("lambda* lower bound", "[BF2025, eq. (21)]")
                    .case_claim("lambda_star_lower")
                    .le(cert::exact("claimed", in.number_string("lambda_star_lower")), {"lambda*_{alpha0}", L.lambda_star});
        } else {
            R.conclusion("lambda* > 0", "[BF2025, eq. (21)]").holds(false, L.result.reason);
            if (in.has("lambda_star_lower")) R.conclusion("lambda* lower bound", "[BF2025, eq. (21)]").holds(false, L.result.reason);
        }
    } else {
        R.step("D_min > 0", "[BF2025, App. D]").holds(false, K.result.reason);
        R.conclusion("lambda* > 0", "[BF2025, eq. (21)]").holds(false, K.result.reason);
        if (in.has("lambda_star_lower")) R.conclusion("lambda* lower bound", "[BF2025, eq. (21)]").holds(false, K.result.reason);
    }
    if (exact) {  // G on the circle (display; interval evaluation at 721 points)
        const nets::TwoLayerModel<IntervalD> model(spec);
        cert::TubePlot g{.title = "G(cos t, sin t) on the circle (interval enclosures)", .x_label = "t (degrees)", .y_label = "G"};
        const IntervalD pi = IntervalD::pi();
        for (int s = 0; s <= 720; ++s) {
            const IntervalD t = pi * IntervalD(s) / IntervalD(360);
            g.add_point("G", s * 0.5, nets::G_enclosure(model, std::vector<IntervalD>{cos(t), sin(t)}));
        }
        R.add_plot(g);
    }
    if (in.has("least_squares") && in.boolean("least_squares")) {  // Section 4 (Figure-2 values); the hypotheses are reported only
        const proofs::LeastSquares ls = proofs::least_squares(data);
        if (!ls.ok) R.note("least squares: " + ls.reason);
        least_squares_table(R, ls, data.n, bits, Q, /*full=*/true);
        if (ls.ok) {
            const auto order = proofs::three_point_order(data);
            const auto a3 = proofs::check_assumption3(data, order.order);
            const auto a = proofs::check_assumptions_456(data);
            cert::Table& H = R.table("hypotheses of Theorem 2 (reported, exact; certified by bf/theorem2_hypotheses)", {"hypothesis", "holds", "detail"});
            H.add_row({"Assumption 3 with eta < 1/6", a3.shape_ok && a3.eta_min < flowcert::Rational(1, 6) ? "yes" : "no",
                       a3.shape_ok ? "least admissible eta = " + nets::decimal_string(a3.eta_min, 10) : a3.reason});
            H.add_row({"Assumption 4", a.a4 ? "yes" : "no", a.a4 ? "" : a.a4_reason});
            for (std::size_t i = 0; i < a.K.size(); ++i)
                H.add_row({"Assumption 5, k = " + std::to_string(a.K[i] + 1), nets::compare(a.a5_lhs[i], a.a5_rhs[i]) > 0 ? "yes" : "no",
                           "y_k |x_k|^2 = " + to_string(a.a5_lhs[i].enclose(bits), 10) + " vs sqrt(sum y^2) sqrt(sum <x_k',x_k>^2) = " +
                               to_string(a.a5_rhs[i].enclose(bits), 10)});
            bool a6 = !a.K.empty();
            for (std::size_t k : a.K) a6 = a6 && ls.residuals[k].sign() < 0;
            H.add_row({"Assumption 6 sign condition (<beta*, x_k> < y_k, k in K)", a6 ? "yes" : "no", ""});
            if (order.geometry.is_proven()) H.add_row({"middle point (Lemma 8)", "", order.geometry.reason});
        }
    }
    check_bounds(in, R, Q, "[BF2025; this case's claimed value]");
    R.claim.proven_statement = "for the data of this case (exact decimals" + std::string(spec.bias ? ", bias coordinate 1" : "") + ", gamma = " + spec.gamma +
                               "): the " + std::to_string(cones.cones.size()) + " activation cones, D_u and the extremal vectors are computed exactly; " +
                               std::to_string(K.n_extremal) + " extremal vector(s), " + std::to_string(K.n_local_max) + " strict local max(ima) and " +
                               std::to_string(K.n_local_min) + " strict local min(ima) of G on the circle; the constants of eqs. (20)-(24) and "
                               "lambda*_{alpha_0} of eq. (21) as transcribed in docs/bf.md are enclosed";
    R.note("D(w, 0) uses the paper's risk (1/n) sum l; for d = 2 every 𝔇_u of a ray is a segment parallel to the tangent of the ray, so an "
           "extremal element of 𝔇_u, if any, is its min-norm element D_u (docs/bf.md).");
    R.note("Lemma 15 assumes Assumption 7 (a density), which a fixed data set cannot satisfy or violate; this verifier certifies Lemma 15's "
           "conclusion (no saddle) directly.");
}

}  // namespace

int main(int argc, char** argv) {
    auto schema = bf::data_keys();
    schema.push_back({.name = "alpha0", .type = cert::KeyType::number, .description = "alpha_0 of Condition 1 and eq. (21), in (0, 1]",
                      .constraint = cert::Constraint::positive});
    schema.push_back({.name = "epsilon", .type = cert::KeyType::number, .description = "epsilon in (0, 1/3) (exponent of eq. (21))",
                      .constraint = cert::Constraint::positive});
    schema.push_back({.name = "expected_extremal", .type = cert::KeyType::integer, .description = "claimed number of extremal vectors", .required = false});
    schema.push_back({.name = "expected_local_max", .type = cert::KeyType::integer, .description = "claimed number of strict local maxima of G", .required = false});
    schema.push_back({.name = "expected_local_min", .type = cert::KeyType::integer, .description = "claimed number of strict local minima of G", .required = false});
    schema.push_back({.name = "lambda_star_lower", .type = cert::KeyType::number, .description = "claimed lower bound on lambda*_{alpha0}", .required = false});
    schema.push_back({.name = "least_squares", .type = cert::KeyType::boolean, .description = "also certify beta*, residuals, limiting losses and D* (Sec. 4)", .required = false});
    cert::VerifierSpec spec{
        .name = "bf/extremal_vectors",
        .summary = "activation cones, extremal vectors, G extrema, no-saddle hypothesis and lambda* of Boursier-Flammarion (d = 2)",
        .claim = {.paper = "Boursier & Flammarion, JMLR 26 (2025), paper 24-1523",
                  .locator = "Sec. 3 (Def. 1, eq. (7), Lemmas 2, 3, 15), Thm 1 hypotheses, App. D eqs. (20)-(24), eq. (21)",
                  .paper_statement = "extremal vectors are the critical points of G on the sphere (at most one per activation "
                                     "cone); G has no saddle for d <= 2 (Lemma 15); Theorem 1 holds for lambda < lambda*_{alpha0} "
                                     "given by eq. (21)",
                  .proven_statement = {}},
        .schema = schema,
        .default_precision_bits = 128,
        .validate = bf::validate_data,
        .run = run,
    };
    return cert::verifier_main(argc, argv, spec);
}
