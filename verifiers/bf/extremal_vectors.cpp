// verifiers/bf/extremal_vectors.cpp -- [BF2025, Sec. 3, Def. 1, Lemmas 2, 3, 15, eqs. (20)-(24)]:
// enumerate every activation cone of the data (d = 2), compute D_u exactly, decide which cones
// carry an extremal vector, certify D_max, D_min, the local maxima and minima of G on the circle,
// the no-saddle hypothesis of Theorem 1, and a lower bound on lambda*_{alpha_0} of eq. (21).
// With `least_squares = true` it also certifies the least-squares quantities of Section 4
// (beta*, predictions, residuals, limiting losses, D*) and reports Assumptions 3-6.
// Thin: load case -> library (lib/flowcert/nets/alignment.hpp) -> checks and report. See docs/bf.md.
#include <cmath>
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
    const bool want_ls = in.has("least_squares") && in.boolean("least_squares");

    // ---- plan ----------------------------------------------------------------------------
    R.plan("activation cones enumerated exactly");
    R.plan("Lemma 2: families of <= d vectors d1l(0,y_k) x_k independent");
    R.plan("Lemma 2: no D_u on the boundary of its cone");
    R.plan("no saddle of G (conclusion of Lemma 15)");
    R.plan("Lemma 3: an extremal vector exists");
    if (in.has("expected_extremal")) R.plan("number of extremal vectors");
    if (in.has("expected_local_max")) R.plan("number of strict local maxima of G");
    if (in.has("expected_local_min")) R.plan("number of strict local minima of G");
    R.plan("D_min > 0");
    R.plan("lambda* > 0");
    if (in.has("lambda_star_lower")) R.plan("lambda* lower bound");
    plan_bounds(in, R);

    const nets::Cones2 cones = nets::activation_cones_2d(data);
    R.check_true("activation cones enumerated exactly", "[BF2025, Sec. 3; Cover 1965]",
                 cones.status == nets::Cones2::Status::exact,
                 cones.status == nets::Cones2::Status::exact
                     ? std::to_string(cones.cones.size()) + " cones of A(R^2 \\ {0}) from the exact angular order of the rays <w, x_k> = 0"
                     : cones.reason);
    if (cones.status != nets::Cones2::Status::exact) return;
    const nets::Constants K = nets::theorem1_constants(data, cones, bits);
    if (K.status != nets::Constants::Status::certified) {
        R.note("constants of Theorem 1 unavailable: " + K.reason);
    }

    // ---- the cone table ------------------------------------------------------------------
    cert::Table& T = R.table("activation cones (counter-clockwise)",
                             {"u = A(w)", "kind", "direction", "D_u (exact)", "|D_u|", "extremal (Def. 1)", "G critical point"});
    Quantities Q;
    cert::CirclePlot circle{.title = "data directions, cone boundaries and extremal vectors (d = 2)"};
    for (std::size_t k = 0; k < data.n; ++k)
        circle.add("x_" + std::to_string(k + 1), "data", mp(data.x[k][0], 64),
                   mp(data.x[k][1], 64));
    int i_ext = 0;
    for (const auto& c : cones.cones) {
        const IntervalMp nD = sqrt(mp(nets::dot(c.D.D, c.D.D), bits));
        std::string ext = c.extremal_pos ? "yes: D_u in A^{-1}(u)" : (c.extremal_neg ? "yes: D_u in -A^{-1}(u)" : "no");
        T.add_row({signs_str(c.u), c.is_ray ? "ray" : "sector", vec_dec(c.dir, 6), vec_str(c.D.D), to_string(nD, 12), ext,
                   nets::to_string(c.critical)});
        if (c.is_ray)
            circle.add("", "cone boundaries", mp(c.dir[0], 64),
                       mp(c.dir[1], 64));
        if (c.extremal_pos || c.extremal_neg) {
            ++i_ext;
            const std::string nm = "extremal " + std::to_string(i_ext);
            circle.add(nm + " (u = " + signs_str(c.u) + ")", c.extremal_pos ? "extremal, D in A^{-1}(u)" : "extremal, D in -A^{-1}(u)",
                       mp(c.D.D[0], 64), mp(c.D.D[1], 64));
            Q.set(nm + " |D|", nD);
            Q.set(nm + " D_1", mp(c.D.D[0], bits));
            Q.set(nm + " D_2", mp(c.D.D[1], bits));
        }
    }
    R.add_plot(circle);
    {
        cert::Table& E = R.table("strict local extrema of G on the circle (exact positions)",
                                 {"kind", "cone u", "direction (exact)", "G at the unit direction"});
        int imax = 0, imin = 0;
        for (const auto& c : cones.cones) {
            const bool mx = c.critical == nets::Critical::strict_local_max, mn = c.critical == nets::Critical::strict_local_min;
            if (!mx && !mn) continue;
            const IntervalMp g = c.G_critical.enclose(bits);
            const std::string nm = mx ? "local max " + std::to_string(++imax) : "local min " + std::to_string(++imin);
            Q.set(nm + " G", g);
            E.add_row({nm, signs_str(c.u), vec_str(c.critical_dir), to_string(g, 15)});
        }
    }

    R.check_true("Lemma 2: families of <= d vectors d1l(0,y_k) x_k independent", "[BF2025, Lemma 2]", K.lemma2_independence,
                 K.lemma2_independence ? "every d1l(0,y_k) x_k is non-zero and no two are parallel (exact)"
                                       : "two of the vectors d1l(0,y_k) x_k are parallel or one is zero");
    R.check_true("Lemma 2: no D_u on the boundary of its cone", "[BF2025, Lemma 2]", K.lemma2_boundary,
                 K.lemma2_boundary ? "for every sector with D_u != 0, D_u is on neither boundary line (exact cross products)"
                                   : "some sector's D_u lies on one of its boundary lines: " + K.no_saddle_reason);
    R.check_true("no saddle of G (conclusion of Lemma 15)", "[BF2025, Thm 1 hypothesis; Lemma 15]", K.no_saddle,
                 K.no_saddle ? "every Clarke-critical direction of G on the circle with D(w,0) != 0 is a strict local "
                               "maximum or minimum (exact one-sided derivatives at every ray, exact position of D_u in "
                               "every sector)"
                             : (K.no_saddle_reason.empty() ? K.reason : K.no_saddle_reason));
    R.check_true("Lemma 3: an extremal vector exists", "[BF2025, Lemma 3]", K.n_extremal >= 1,
                 std::to_string(K.n_extremal) + " cone(s) carry an extremal vector");
    if (in.has("expected_extremal"))
        R.check_true("number of extremal vectors", "[BF2025, Def. 1]",
                     static_cast<long long>(K.n_extremal) == in.integer("expected_extremal"),
                     std::to_string(K.n_extremal) + " found, " + std::to_string(in.integer("expected_extremal")) + " claimed",
                     "exactly " + std::to_string(in.integer("expected_extremal")) + " extremal vectors (up to scaling)");
    if (in.has("expected_local_max"))
        R.check_true("number of strict local maxima of G", "[BF2025, Thm 1 (ii)]",
                     static_cast<long long>(K.n_local_max) == in.integer("expected_local_max"),
                     std::to_string(K.n_local_max) + " found, " + std::to_string(in.integer("expected_local_max")) + " claimed");
    if (in.has("expected_local_min"))
        R.check_true("number of strict local minima of G", "[BF2025, Thm 1 (ii)]",
                     static_cast<long long>(K.n_local_min) == in.integer("expected_local_min"),
                     std::to_string(K.n_local_min) + " found, " + std::to_string(in.integer("expected_local_min")) + " claimed");

    if (K.status == nets::Constants::Status::certified) {
        R.check_positive("D_min > 0", "[BF2025, App. D]", {"D_min", K.D_min});
        Q.set("D_max", K.D_max);
        Q.set("D_min", K.D_min);
        Q.set("max_G", K.max_G);
        Q.set("min_G", K.min_G);
        Q.set("alpha_min", K.alpha_min);
        Q.set("delta0", K.delta0);
        cert::Table& C = R.table("constants of Theorem 1 (App. D)", {"constant", "enclosure", "how"});
        C.add_row({"D_max = max_w |D(w,0)|", to_string(K.D_max, 15), "sqrt of the exact max of |D_u|^2 over all cones"});
        C.add_row({"D_min (eq. (21))", to_string(K.D_min, 15), "sqrt of the exact min of |D_u|^2 over cones with D_u != 0"});
        C.add_row({"max of G on the circle", to_string(K.max_G, 15), "max over rays and interior critical points (exact comparison)"});
        C.add_row({"min of G on the circle", to_string(K.min_G, 15), "likewise"});
        C.add_row({"alpha_{min,+}^2 (eqs. (22)-(24))", K.alpha_plus_empty ? "1 (empty set)" : nets::decimal_string(K.alpha_plus_sq, 15),
                   "1 - (max cosine between D_u and its closed cone)^2, exact"});
        C.add_row({"alpha_{min,-}^2", K.alpha_minus_empty ? "1 (empty set)" : nets::decimal_string(K.alpha_minus_sq, 15),
                   "1 - (min cosine)^2, exact"});
        C.add_row({"alpha_min", to_string(K.alpha_min, 15), "sqrt(min of the two)"});
        C.add_row({"delta_0' (eq. (20))", K.delta0_prime_empty ? "none (no extremal ray)" : to_string(K.delta0_prime, 15),
                   "|g_k| min(eta_k^u - gamma, 1 - eta_k^u) over extremal rays"});
        C.add_row({"delta_0''", K.delta0_second_empty ? "none" : to_string(K.delta0_second, 15),
                   "min |<D_u, x_k>| / |x_k| over extremal cones, u_k != 0"});
        C.add_row({"delta_0", to_string(K.delta0, 15), "min(delta_0', delta_0'')"});

        const std::string a0 = in.number_string("alpha0"), eps = in.number_string("epsilon");
        const nets::LambdaStar L = nets::lambda_star(data, K, a0, eps, bits);
        if (L.status == nets::LambdaStar::Status::certified) {
            R.check_positive("lambda* > 0", "[BF2025, eq. (21)]", {"lambda*_{alpha0}", L.lambda_star});
            Q.set("lambda_star", L.lambda_star);
            C.add_row({"n/sum|x|^2 alpha_min^2 D_min/8", to_string(L.term_alpha_min, 15), "eq. (21)"});
            C.add_row({"n/sum|x|^2 alpha_0^2 D_min/4", to_string(L.term_alpha0, 15), "eq. (21)"});
            C.add_row({"n/sum|x|^2 delta_0", to_string(L.term_delta0, 15), "eq. (21)"});
            C.add_row({"min_k |d1l(0,y_k)| / |x_k|", to_string(L.term_labels, 15), "eq. (21)"});
            C.add_row({"lambda*_{alpha_0} (alpha_0 = " + a0 + ", eps = " + eps + ")", to_string(L.lambda_star, 15),
                       "min(...)^{1/(2-4 eps)}"});
            if (in.has("lambda_star_lower"))
                R.check_le("lambda* lower bound", "[BF2025, eq. (21)]", cert::exact("claimed", in.number_string("lambda_star_lower")),
                           {"lambda*_{alpha0}", L.lambda_star});
        } else {
            R.check_true("lambda* > 0", "[BF2025, eq. (21)]", false, L.reason);
            if (in.has("lambda_star_lower")) R.check_true("lambda* lower bound", "[BF2025, eq. (21)]", false, L.reason);
        }
    } else {
        R.check_true("D_min > 0", "[BF2025, App. D]", false, K.reason);
        R.check_true("lambda* > 0", "[BF2025, eq. (21)]", false, K.reason);
        if (in.has("lambda_star_lower")) R.check_true("lambda* lower bound", "[BF2025, eq. (21)]", false, K.reason);
    }

    // ---- G on the circle (display; interval evaluation at 721 points) -------------------------
    {
        const nets::TwoLayerModel<IntervalD> model(spec);
        cert::TubePlot g{.title = "G(cos t, sin t) on the circle (interval enclosures)", .x_label = "t (degrees)", .y_label = "G"};
        const IntervalD pi = IntervalD::pi();
        for (int s = 0; s <= 720; ++s) {
            const IntervalD t = pi * IntervalD(s) / IntervalD(360);
            g.add_point("G", s * 0.5, nets::G_enclosure(model, std::vector<IntervalD>{cos(t), sin(t)}));
        }
        R.add_plot(g);
    }

    // ---- least squares (Section 4, Figure-2 values) -------------------------------------------
    if (want_ls) {
        const nets::LeastSquares ls = nets::least_squares(data);
        if (!ls.ok) {
            R.note("least squares: " + ls.reason);
        } else {
            cert::Table& L = R.table("least squares (exact rationals, enclosed)", {"quantity", "exact", "enclosure"});
            for (std::size_t i = 0; i < ls.beta.size(); ++i) {
                Q.set("beta_" + std::to_string(i + 1), mp(ls.beta[i], bits));
                L.add_row({"beta*_" + std::to_string(i + 1), exact_str(ls.beta[i]), to_string(mp(ls.beta[i], bits), 15)});
            }
            for (std::size_t k = 0; k < data.n; ++k) {
                const std::string s = std::to_string(k + 1);
                Q.set("prediction_" + s, mp(ls.predictions[k], bits));
                Q.set("residual_" + s, mp(ls.residuals[k], bits));
                L.add_row({"x_" + s + "^T beta*", exact_str(ls.predictions[k]), to_string(mp(ls.predictions[k], bits), 15)});
                L.add_row({"residual r_" + s + " = x^T beta* - y", exact_str(ls.residuals[k]), to_string(mp(ls.residuals[k], bits), 15)});
            }
            Q.set("loss_paper", mp(ls.loss_paper, bits));
            Q.set("loss_code", mp(ls.loss_code, bits));
            L.add_row({"limiting loss, paper (1/(2n)) sum r^2", exact_str(ls.loss_paper), to_string(mp(ls.loss_paper, bits), 15)});
            L.add_row({"limiting loss, code (1/n) sum r^2", exact_str(ls.loss_code), to_string(mp(ls.loss_code, bits), 15)});
            IntervalMp nDs = sqrt(mp(nets::dot(ls.D_star, ls.D_star), bits));
            for (std::size_t i = 0; i < ls.D_star.size(); ++i) {
                Q.set("D_star_" + std::to_string(i + 1), mp(ls.D_star[i], bits));
                L.add_row({"D*_" + std::to_string(i + 1) + " = (1/n) sum y_k x_k", exact_str(ls.D_star[i]),
                           to_string(mp(ls.D_star[i], bits), 15)});
            }
            Q.set("D_star_norm", nDs);
            L.add_row({"|D*|", "sqrt(" + exact_str(nets::dot(ls.D_star, ls.D_star)) + ")", to_string(nDs, 15)});

            // Hypotheses of Theorem 2, reported (the verifier bf/theorem2_hypotheses certifies them).
            const nets::Assumption3 a3 = nets::check_assumption3(data);
            const nets::Assumptions456 a = nets::check_assumptions_456(data, ls);
            cert::Table& H = R.table("hypotheses of Theorem 2 (reported, exact)", {"hypothesis", "holds", "detail"});
            H.add_row({"Assumption 3 with eta < 1/6", a3.eta_below_one_sixth ? "yes" : "no",
                       a3.shape_ok ? "least admissible eta = " + nets::decimal_string(a3.eta_min, 10) : a3.reason});
            H.add_row({"Assumption 4", a.a4 ? "yes" : "no", a.a4 ? "" : a.a4_reason});
            for (std::size_t i = 0; i < a.K.size(); ++i)
                H.add_row({"Assumption 5, k = " + std::to_string(a.K[i] + 1), a.a5_holds[i] ? "yes" : "no",
                           "y_k |x_k|^2 = " + to_string(a.a5_lhs[i].enclose(bits), 10) + " vs sqrt(sum y^2) sqrt(sum <x_k',x_k>^2) = " +
                               to_string(a.a5_rhs[i].enclose(bits), 10)});
            H.add_row({"Assumption 6 sign condition (<beta*, x_k> < y_k, k in K)", a.a6_sign ? "yes" : "no", ""});
            if (a.has_x2_decomposition)
                H.add_row({"x_2 = alpha_1 x_1 + alpha_3 x_3 (Lemma 8)", "", "alpha_1 = " + exact_str(a.alpha1) + ", alpha_3 = " + exact_str(a.alpha3)});
            if (!a.a5) R.note("Assumption 5 fails for these data (reported, not a check of this verifier): see the hypotheses table.");
        }
    }
    check_bounds(in, R, Q, "[BF2025; this case's claimed value]");

    R.claim.proven_statement =
        "for the data of this case (exact decimals" + std::string(spec.bias ? ", bias coordinate 1" : "") +
        ", gamma = " + spec.gamma + "): the " + std::to_string(cones.cones.size()) +
        " activation cones, D_u and the extremal vectors are computed exactly; " + std::to_string(K.n_extremal) +
        " extremal vector(s), " + std::to_string(K.n_local_max) + " strict local max(ima) and " +
        std::to_string(K.n_local_min) + " strict local min(ima) of G on the circle; the constants of eqs. (20)-(24) and "
        "lambda*_{alpha_0} of eq. (21) as transcribed in docs/bf.md are enclosed";
    R.note("D(w, 0) uses the paper's risk (1/n) sum l; for d = 2 every 𝔇_u of a ray is a segment parallel to the tangent "
           "of the ray, so an extremal element of 𝔇_u, if any, is its min-norm element D_u (docs/bf.md).");
    R.note("Lemma 15 assumes Assumption 7 (a density), which a fixed data set cannot satisfy or violate; this verifier "
           "certifies Lemma 15's conclusion (no saddle) directly.");
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
