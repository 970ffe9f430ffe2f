// bf/theorem2_three_point -- [BF2025, Theorem 2, Sec. 4]: on three-point data, gradient flow from
// a small balanced (or dominated) initialization converges to a spurious stationary point whose
// predictions are the least-squares fit x_k^T beta*, so the loss stays >= L* > 0 for all t >= 0.
//
// Certified for one concrete instance (data, m, seed, lambda), in three parts (docs/bf.md has
// the proof; every numeric premise below is a check):
//   (a) the data hypotheses (Assumption 3 with eta < 1/6, or Assumptions 4-6), shared with
//       bf/theorem2_hypotheses; route "none" certifies the conclusion for the instance without them;
//   (b) the certified gradient-flow tube (nets::integrate_gradient_flow) through the alignment and
//       growth phases up to T [BF2025, Sec. 4.1.1-4.1.2];
//   (c) a trapping argument from the box at T (verifiers/bf/theorem2_trap.hpp): every neuron is
//       frozen, all-active with a margin (set P), a negative neuron that can only be active on one
//       extreme sample k (set N_k), or a negative neuron certainly active on x_2 and on one extreme
//       sample, possibly inactive on the other one i (set S_i). With Gamma(t) = int_T^t |g|,
//       g = (1/n) X^T r: P and S neurons move by at most |theta_j(T)| (e^Gamma - 1); N_k neurons move
//       along -x_k only and reach the kink <w_j, x_k> = 0, S_i neurons move towards <w_j, x_i> = 0 from
//       below and never go back (while r_k < 0 and c_i = r_2 <x_i, x_2> + r_i' <x_i, x_i'> > 0), so after
//       T1 = T + tau the predictions are X beta with beta = sum_{P, S} a_j w_j; before T1 they differ
//       by a tiny perturbation p. The Polyak-Lojasiewicz inequality |grad L|^2 >= 2 lambda_min(H) A (L - L*)
//       (perturbed by q(p) before T1) bounds int |g| by about sqrt(2 (L(T) - L*) / lambda_min(H)) / A_min.
//       A fixed point Gamma* < Gamma of these bounds keeps the flow in the region forever, the
//       predictions converge to x_k^T beta* and L(t) >= L* for every t >= 0 (L is non-increasing).
#include <flowcert/cert.hpp>
#include <flowcert/nets/alignment.hpp>
#include <flowcert/nets/two_layer_flow.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "theorem2_data_hypotheses.hpp"
#include "theorem2_trap.hpp"

namespace cert = flowcert::cert;
namespace nets = flowcert::nets;
using flowcert::IntervalD;
using flowcert::IntervalMp;

namespace {

std::string fmt(double v) {
    char b[64];
    std::snprintf(b, sizeof b, "%.6g", v);
    return b;
}
IntervalD to_d(const IntervalMp& x) { return IntervalD::bounds(lower(x), upper(x)); }
IntervalD qd(const nets::Rational& q) { return IntervalD::from_decimal(q.str()); }
IntervalD pos_part(const IntervalD& x) { return relu(x); }

// A premise of the trapping argument (docs/bf.md): a sufficient condition, so an enclosure
// that fails it refutes nothing: recorded as a re-checkable check_lt when proven, otherwise as
// not proven with the enclosures in the reason (never "disproven").
void premise_lt(cert::Report& R, const std::string& name, const std::string& cit, const std::string& lname, const IntervalD& lhs,
                const std::string& rname, const IntervalD& rhs, const std::string& statement) {
    if (certainly_less(lhs, rhs)) {
        R.check_lt(name, cit, {lname, lhs}, {rname, rhs}, statement);
        return;
    }
    R.check_true(name, cit, false,
                 "not proven: " + lname + " in " + to_string(lhs, 8) + ", " + rname + " in " + to_string(rhs, 8) +
                     " (a sufficient condition of the trapping argument; a longer or tighter tube may satisfy it); " + statement,
                 statement);
}

nets::InitKind init_kind(const cert::Case& in) {
    if (!in.has("init")) return nets::InitKind::balanced_gaussian;
    const std::string k = in.string("init");
    if (k == "dominated_uniform_ball") return nets::InitKind::dominated_uniform_ball;
    if (k == "unbalanced_gaussian") return nets::InitKind::unbalanced_gaussian;
    return nets::InitKind::balanced_gaussian;
}

using bf::trap::Cls;
using bf::trap::Trap;

void run(cert::Context& ctx) {
    const cert::Case& in = ctx.input;
    cert::Report& R = ctx.report;
    const long bits = 128;
    const nets::TwoLayerSpec spec = bf::load_spec(in);
    const bf::Theorem2Data t2 = bf::theorem2_data(spec);
    const auto& data = t2.data;
    const auto& ls = t2.ls;
    const std::string route = in.has("hypotheses") ? in.string("hypotheses") : "none";
    const bool three = data.n == 3 && data.d == 2;

    // ---- plan -------------------------------------------------------------------------------
    if (route != "none") bf::plan_theorem2_hypotheses(R, t2, route);
    const char* c_geom = "(c) three-point geometry";
    const char* c_lstar = "(c) least-squares loss L* > 0";
    const char* c_lmin = "(c) lambda_min(X^T X / n) > 0";
    const char* b_tube = "(b) certified tube reaches T";
    const char* b_loss = "(b) loss on [0, T] bounded below by a positive number";
    const char* c_class = "(c) every neuron at T is frozen, all-active (P), a negative one-sample neuron (N_k) or a negative two-sample neuron (S_i)";
    const char* c_speed = "(c) N_k neurons: |a_j(t)| bounded away from 0 until z_jk <= 0 (Lemma 1 or step 2')";
    const char* c_res = "(c) residual sign r_k(t) < 0 at the samples of N_k and S_k neurons";
    const char* c_sdrift = "(c) S_i neurons: c_i(t) = r_2 <x_i, x_2> + r_i' <x_i, x_i'> > 0 (z_ji increases while negative)";
    const char* c_smarg = "(c) S_i neurons stay active on x_2 and x_i' (margin at Gamma), |a_j| bounded away from 0";
    const char* c_amin = "(c) A_min = inf sum_P a_j^2 > 0";
    const char* c_marg = "(c) P neurons stay all-active (margin at Gamma)";
    const char* c_boot = "(c) trajectory-length bootstrap Gamma* < Gamma";
    const std::vector<const char*> all_checks = {c_geom, c_lstar, c_lmin, b_tube, b_loss, c_class, c_speed, c_res,
                                                 c_sdrift, c_smarg, c_amin, c_marg, c_boot};
    for (const char* c : all_checks) R.plan(c);
    bf::plan_bounds(in, R);

    bf::Quantities Q;
    if (route != "none") bf::check_theorem2_hypotheses(R, spec, t2, route, bits, Q);
    bf::least_squares_table(R, t2, bits, Q, /*full=*/true);

    // ---- exact three-point facts ------------------------------------------------------------
    {
        std::string why;
        bool ok = three && data.gamma == 0 && data.loss == nets::LossKind::half_square && ls.ok;
        if (!three) why = "needs n = 3 points in d = 2";
        else if (!ok) why = "needs ReLU, the half-square loss and X of full rank";
        nets::Rational al1, al3;
        if (ok) {
            for (std::size_t k = 0; k < 3 && ok; ++k)
                for (std::size_t l = k + 1; l < 3 && ok; ++l)
                    if (nets::dot(data.x[k], data.x[l]) <= 0) {
                        ok = false;
                        why = "<x_" + std::to_string(k + 1) + ", x_" + std::to_string(l + 1) + "> <= 0";
                    }
        }
        if (ok) {
            // x_2 = alpha_1 x_1 + alpha_3 x_3 (Cramer's rule, exact)
            const auto& a = data.x[0];
            const auto& b = data.x[2];
            const auto& c = data.x[1];
            const nets::Rational det = a[0] * b[1] - a[1] * b[0];
            if (det == 0) {
                ok = false;
                why = "x_1, x_3 parallel";
            } else {
                al1 = (c[0] * b[1] - c[1] * b[0]) / det;
                al3 = (a[0] * c[1] - a[1] * c[0]) / det;
                if (al1 <= 0 || al3 <= 0) {
                    ok = false;
                    why = "x_2 not in the open cone of x_1, x_3: alpha_1 = " + al1.str() + ", alpha_3 = " + al3.str();
                }
            }
        }
        R.check_true(c_geom, "[BF2025, Lemma 8 proof]", ok,
                     ok ? "exact: pairwise <x_k, x_l> > 0, x_2 = (" + al1.str() + ") x_1 + (" + al3.str() +
                              ") x_3 with both coefficients > 0 (no neuron is active on x_2 alone; z_1, z_3 < 0 implies z_2 < 0)"
                        : why,
                     "ReLU, half-square loss, n = 3, d = 2, X of full rank, <x_k, x_l> > 0, x_2 in the open cone of x_1, x_3");
        if (!ok) return;
    }
    R.check_positive(c_lstar, "[BF2025, Thm 2]", {"L* = (1/(2n)) sum r*_k^2", bf::mp(ls.loss_paper, bits)},
                     "the least-squares fit does not interpolate");
    // H = X^T X / n (2 x 2, exact), lambda_min = (p + r - sqrt((p - r)^2 + 4 q^2)) / 2
    nets::Rational hp = 0, hq = 0, hr = 0;
    for (std::size_t k = 0; k < 3; ++k) {
        hp += data.x[k][0] * data.x[k][0];
        hq += data.x[k][0] * data.x[k][1];
        hr += data.x[k][1] * data.x[k][1];
    }
    hp /= 3;
    hq /= 3;
    hr /= 3;
    const nets::Rational hdet = hp * hr - hq * hq;
    // lambda_min = det / lambda_max (no cancellation); lambda_max = (p + r + sqrt((p-r)^2 + 4 q^2)) / 2
    const IntervalMp lmax = (bf::mp(hp + hr, bits) + sqrt(bf::mp((hp - hr) * (hp - hr) + 4 * hq * hq, bits))) / bf::mp(nets::Rational(2), bits);
    const IntervalMp lmin_mp = bf::mp(hdet, bits) / lmax;
    R.check_positive(c_lmin, "[PL inequality, docs/bf.md step 6]", {"lambda_min(H)", lmin_mp});
    const IntervalD lmin = to_d(lmin_mp);
    Q.set("lambda_min_H", lmin_mp);

    // ---- (b) the certified tube -------------------------------------------------------------
    const nets::TwoLayerModel<IntervalD> model(spec);
    nets::InitSpec is;
    is.kind = init_kind(in);
    is.m = static_cast<std::size_t>(in.integer("m"));
    is.seed = static_cast<std::uint64_t>(in.integer("seed"));
    is.lambda = in.number_string("lambda");
    R.set_seed("init", std::to_string(is.seed));
    const auto init = nets::initialize<IntervalD>(is, model.d());
    bf::export_initialization(ctx, is, model, init);  // --export-instance
    const auto b0 = nets::balancedness(init.theta);
    const std::size_t m = is.m;

    const auto cones = nets::activation_cones_2d(data);
    const auto k1 = nets::theorem1_constants(data, cones, bits);
    const bool have_dmax = k1.status == nets::Constants::Status::certified;
    const IntervalD eps = in.has("epsilon") ? in.interval_d("epsilon") : IntervalD::from_decimal("0.3");
    const IntervalD lam = IntervalD::from_decimal(is.lambda);
    const IntervalD T = in.interval_d("T");
    nets::FlowOptions o;
    o.t_end = T.lower();
    if (in.has("order")) o.order = static_cast<int>(in.integer("order"));
    o.store_tube = false;
    o.threads = 2;
    double tau_d = 0;
    if (have_dmax) {
        const IntervalD tau = -eps * log(lam) / to_d(k1.D_max);
        if (upper(tau) < o.t_end) {
            tau_d = tau.lower();
            o.output_times.push_back(tau_d);
        }
    }
    std::vector<double> extra = {0.25, 0.5, 0.75};
    for (double f : extra) {
        const double tt = f * o.t_end;
        if (tt > tau_d + 1e-9) o.output_times.push_back(tt);
    }
    std::sort(o.output_times.begin(), o.output_times.end());

    cert::TubePlot loss_plot;
    loss_plot.title = "loss L(theta(t)) along the certified tube (paper convention), and L*";
    loss_plot.x_label = "t";
    loss_plot.y_label = "L";
    cert::TubePlot pred_plot;
    pred_plot.title = "predictions h(x_k) along the certified tube, least-squares predictions dashed";
    pred_plot.x_label = "t";
    pred_plot.y_label = "h(x_k)";
    double loss_lo = std::numeric_limits<double>::infinity();
    std::size_t step_no = 0;
    // N_k tracking (docs/bf.md step 2): the first step box on which neuron j is certainly negative
    // and certainly inactive on both samples l != k; from then on, while r_k < 0, w_j moves along
    // -x_k only, so its state is controlled by that (tight) box rather than by later, wider ones.
    std::vector<bf::trap::NTrack> ntrack(m);
    bf::trap::ResidualSigns rsigns;  // largest t1 of a step on which r_k is not certainly negative
    struct RStep {
        double t0, t1;
        double rup[3];  // upper bounds of r_k on the step box
    };
    std::vector<RStep> rsteps;
    const auto res = nets::integrate_gradient_flow(model, init.theta, o, [&](const nets::FlowStep& st) {
        const IntervalD L = nets::risk(model, st.tube);
        loss_lo = std::min(loss_lo, lower(L));
        const auto hs = nets::outputs(model, st.tube);
        RStep rs{st.t0, st.t1, {0, 0, 0}};
        std::array<IntervalD, 3> rk;
        for (std::size_t k = 0; k < 3; ++k) {
            rk[k] = hs[k] - model.y(k);
            rs.rup[k] = upper(rk[k]);
        }
        rsigns.add_step(st.t1, rk);
        rsteps.push_back(rs);
        const auto zs = nets::preactivations(model, st.tube);
        for (std::size_t j = 0; j < m; ++j) {
            if (ntrack[j].on) continue;
            const std::size_t k = bf::trap::one_sample_of(st.tube.a[j], {zs[j * 3], zs[j * 3 + 1], zs[j * 3 + 2]});
            if (k == 3) continue;
            ntrack[j] = {true, k, st.t0, st.tube.a[j], st.tube.W(j, 0), st.tube.W(j, 1)};
        }
        if (step_no++ % 4 == 0) {
            loss_plot.add_point("L(theta(t))", st.t1, L);
            const auto h = nets::outputs(model, st.tube);
            for (std::size_t k = 0; k < 3; ++k) pred_plot.add_point("h(x_" + std::to_string(k + 1) + ")", st.t1, h[k]);
        }
    });
    R.check_true(b_tube, "[BF2025, eq. (6), Sec. 4.1.1-4.1.2]", res.completed() && o.t_end == T.lower(),
                 res.completed() ? "tube certified on [0, " + fmt(res.t_reached) + "], " + std::to_string(res.stats.steps) + " steps"
                                 : "integrator stopped at t = " + fmt(res.t_reached) + ": " + nets::to_string(res.status) + ": " + res.reason);
    {
        const double lstar_lo = lower(bf::mp(ls.loss_paper, bits));
        loss_plot.add_line("L*", {0.0, res.t_reached}, {lstar_lo, lstar_lo});
        for (std::size_t k = 0; k < 3; ++k) {
            const double p = mid(to_d(bf::mp(ls.predictions[k], bits)));
            pred_plot.add_line("x_" + std::to_string(k + 1) + "^T beta*", {0.0, res.t_reached}, {p, p});
        }
    }
    R.add_plot(loss_plot);
    R.add_plot(pred_plot);
    if (!res.completed()) return;
    premise_lt(R, b_loss, "[BF2025, Thm 2]", "0", IntervalD(0), "min over tube steps of L (lower bound)",
               IntervalD::bounds(loss_lo, loss_lo), "L(theta(t)) >= this bound for every t in [0, T] (interval risk on every step box)");

    // snapshots: the phases of Sec. 4.1
    {
        auto& tb = R.table("(b) snapshots of the certified tube", {"t", "phase", "L(theta(t))", "sum_{a>0} a^2",
                                                                 "positive all-active", "positive other", "negative not frozen",
                                                                 "|beta_P - beta*|"});
        auto row = [&](double tt, const std::string& phase, const nets::TwoLayerParams<IntervalD>& th) {
            const auto z = nets::preactivations(model, th);
            IntervalD sa2(0), bx(0), by(0);
            std::size_t pa = 0, po = 0, nn = 0;
            for (std::size_t j = 0; j < m; ++j) {
                bool allpos = true, allneg13 = certainly_negative(z[j * 3 + 0]) && certainly_negative(z[j * 3 + 2]);
                for (std::size_t k = 0; k < 3; ++k) allpos = allpos && certainly_positive(z[j * 3 + k]);
                if (certainly_positive(th.a[j])) {
                    sa2 += sqr(th.a[j]);
                    if (allpos) ++pa;
                    else if (!allneg13) ++po;
                } else if (!allneg13) {
                    ++nn;
                }
                if (allpos) {
                    bx += th.a[j] * th.W(j, 0);
                    by += th.a[j] * th.W(j, 1);
                }
            }
            const IntervalD db = sqrt(sqr(bx - qd(ls.beta[0])) + sqr(by - qd(ls.beta[1])));
            tb.add_row({fmt(tt), phase, to_string(nets::risk(model, th), 6), to_string(sa2, 4), std::to_string(pa), std::to_string(po),
                        std::to_string(nn), to_string(db, 4)});
        };
        row(0, "initialization", init.theta);
        for (const auto& sn : res.snapshots)
            row(sn.t, sn.t == tau_d ? "end of alignment, tau = eps ln(1/lambda)/D_max" : "growth / fitting", sn.state);
        row(res.t_reached, "T: start of the trapping argument", res.state);
    }

    // ---- (c) the trapping argument from the box at T ----------------------------------------
    const auto& th = res.state;
    const auto z = nets::preactivations(model, th);
    const auto h = nets::outputs(model, th);
    Trap tr;
    tr.n = 3;
    tr.inv_n = IntervalD(1) / IntervalD(3);
    tr.lambda_min = lmin;
    tr.X.assign(3, std::vector<IntervalD>(2, IntervalD(0)));
    for (std::size_t k = 0; k < 3; ++k) {
        tr.X[k][0] = model.x(k, 0);
        tr.X[k][1] = model.x(k, 1);
        tr.xnorm.push_back(sqrt(sqr(model.x(k, 0)) + sqr(model.x(k, 1))));
        tr.y.push_back(model.y(k));
    }
    for (std::size_t k = 0; k < 3; ++k) tr.rstar.push_back(qd(ls.residuals[k]));
    // leverages x_k^T H^{-1} x_k, H^{-1} = [[hr, -hq], [-hq, hp]] / det(H) (exact rationals, then enclosed)
    for (std::size_t k = 0; k < 3; ++k) {
        const auto& xk = data.x[k];
        const nets::Rational lv = (hr * xk[0] * xk[0] - 2 * hq * xk[0] * xk[1] + hp * xk[1] * xk[1]) / hdet;
        tr.lev.push_back(to_d(bf::mp(lv, bits)));
    }
    tr.gram.assign(3, std::vector<IntervalD>(3, IntervalD(0)));
    for (std::size_t k = 0; k < 3; ++k)
        for (std::size_t l = 0; l < 3; ++l) tr.gram[k][l] = model.x(k, 0) * model.x(l, 0) + model.x(k, 1) * model.x(l, 1);
    std::vector<Cls> cls(m, Cls::unclassified);
    std::size_t n_frozen = 0, first_bad = m;
    std::string bad_reason;
    std::size_t n_no_speed = 0;             // N_k neurons without the Lemma 1 speed bound
    IntervalD min_speed;
    bool have_speed = false;
    for (std::size_t j = 0; j < m; ++j) {
        const IntervalD* zj = &z[j * 3];
        const std::array<IntervalD, 3> zb{zj[0], zj[1], zj[2]};
        const bf::trap::NTrack& nt = ntrack[j];
        const bf::trap::Classified c = bf::trap::classify(th.a[j], zb, nt, rsigns);
        cls[j] = c.cls;
        if (c.cls == Cls::frozen) {  // z_2 = alpha_1 z_1 + alpha_3 z_3 < 0 too
            ++n_frozen;
            continue;
        }
        if (c.cls == Cls::all_active) {
            tr.add_all_active(j, th.a[j], th.W(j, 0), th.W(j, 1), zb, b0[j]);
            continue;
        }
        if (c.cls == Cls::two_sample) {  // S_i (docs/bf.md step 3)
            tr.add_two_sample(j, c.k, th.a[j], th.W(j, 0), th.W(j, 1), zb, b0[j]);
            continue;
        }
        if (c.cls == Cls::unclassified) {
            if (first_bad == m) {
                first_bad = j;
                bad_reason = "neuron " + std::to_string(j) + ": a = " + to_string(th.a[j], 6) + ", z = (" + to_string(zj[0], 6) + ", " +
                             to_string(zj[1], 6) + ", " + to_string(zj[2], 6) + ")" +
                             (nt.on ? ", N_" + std::to_string(nt.k + 1) + " since t = " + fmt(nt.t) + " but r_" + std::to_string(nt.k + 1) +
                                          " not certainly < 0 up to t = " + fmt(rsigns.last_not_negative[nt.k])
                                    : "");
            }
            continue;
        }
        // N_k: negative neuron possibly active on exactly one extreme sample k in {1, 3}, tracked
        // since a time T_N after which r_k < 0 on every step box of the tube
        const std::size_t kk = c.k;
        // z_jk is non-increasing after T_N and the neuron's output a_j sigma(z_jk) shrinks in magnitude
        const IntervalD zN = nt.w0 * model.x(kk, 0) + nt.w1 * model.x(kk, 1);
        IntervalD zp = IntervalD::bounds(0.0, std::max(0.0, upper(zN)));
        // |P_perp w_j| = |det(w_j, x_k)| / |x_k| is constant while w_j moves along x_k;
        // Lemma 1: a_j(t)^2 = |w_j(t)|^2 + b_j >= |P_perp w_j|^2 + b_j  [BF2025, Lemma 1]
        const IntervalD q = abs(nt.w0 * model.x(kk, 1) - nt.w1 * model.x(kk, 0)) / tr.xnorm[kk];
        const IntervalD q2b = sqr(q) + b0[j];
        IntervalD sp = IntervalD(0);
        if (certainly_positive(q2b)) {
            sp = sqrt(IntervalD::bounds(lower(q2b), lower(q2b)));
            min_speed = have_speed ? min(min_speed, sp) : sp;
            have_speed = true;
            // while z_jk > 0: dz_jk/dt = a_j (-r_k / n) |x_k|^2 <= -|a_j| (-r_k^+ / n) |x_k|^2, r_k^+ the
            // upper bound of r_k on the step box (< 0 after T_N): z_jk(T) <= (z_jk(T_N)^+ - drop)^+
            IntervalD drop(0);
            for (const auto& rs : rsteps) {
                if (rs.t0 < nt.t) continue;
                const IntervalD dt = IntervalD::bounds(rs.t1, rs.t1) - IntervalD::bounds(rs.t0, rs.t0);
                drop += dt * IntervalD::bounds(-rs.rup[kk], -rs.rup[kk]);
            }
            drop = drop * sp * tr.inv_n * sqr(tr.xnorm[kk]);
            zp = IntervalD::bounds(0.0, std::max(0.0, upper(zp - drop)));
        } else {
            ++n_no_speed;
        }
        // the tube's own box at T bounds z_jk(T) too; |a_j| is non-increasing after T_N (a_j < 0, a_j' >= 0)
        zp = IntervalD::bounds(0.0, std::max(0.0, std::min(upper(zp), upper(zj[kk]))));
        tr.add_one_sample(j, kk, zp, sp, mig(th.a[j]), std::min(mag(nt.a), mag(th.a[j])));
    }
    const std::size_t n_unclassified =
        static_cast<std::size_t>(std::count(cls.begin(), cls.end(), Cls::unclassified));
    R.check_true(c_class, "[BF2025, Sec. 4.1.3; docs/bf.md step 1]", n_unclassified == 0,
                 std::to_string(n_frozen) + " frozen, " + std::to_string(tr.P.size()) + " all-active, " +
                     std::to_string(tr.Nk_count[0]) + " N_1, " + std::to_string(tr.Nk_count[2]) + " N_3, " +
                     std::to_string(tr.Si_count[0]) + " S_1, " + std::to_string(tr.Si_count[2]) + " S_3, " +
                     std::to_string(n_unclassified) + " unclassified" + (n_unclassified ? " (first: " + bad_reason + ")" : ""));
    // E(T) = L(theta(T)) - L* = (1/(2n)) sum_k d_k (d_k + 2 r*_k), d_k = h_k(T) - x_k^T beta*
    {
        IntervalD e(0);
        for (std::size_t k = 0; k < 3; ++k) {
            const IntervalD d = h[k] - qd(ls.predictions[k]);
            e += d * (d + IntervalD(2) * qd(ls.residuals[k]));
        }
        tr.E_T = e * tr.inv_n / IntervalD(2);
        IntervalD bstar(0);
        for (const auto& bi : ls.beta) bstar += sqr(qd(bi));
        tr.beta_star_norm = sqrt(bstar);
    }
    if (n_unclassified != 0) {
        R.note("part (c) stopped: a neuron at T is neither frozen, nor all-active, nor a negative neuron active on at most one "
               "extreme sample; a longer horizon T may resolve it (" + bad_reason + ")");
        return;
    }
    // choose Gamma (heuristic, non-rigorous search; every premise is then checked at this Gamma)
    double G = 0;
    {
        const IntervalD gs0 = tr.gamma_star(IntervalD(0));
        double g = std::isfinite(upper(gs0)) ? upper(gs0) * 1.05 + 1e-12 : 1e-3;
        for (int it = 0; it < 60; ++it) {
            const IntervalD gi = IntervalD::bounds(g, g);
            const IntervalD gsi = tr.gamma_star(gi);
            if (std::isfinite(upper(gsi)) && upper(gsi) < g) {
                G = g;
                break;
            }
            g = std::isfinite(upper(gsi)) ? std::max(upper(gsi) * 1.05, g * 1.01) : g * 1.5;
            g = std::min(g, 10.0);  // beyond this the premises cannot hold (e^Gamma - 1 > 2e4)
            G = g;
        }
        const IntervalD gsG = tr.gamma_star(IntervalD::bounds(G, G));
        if (!(std::isfinite(upper(gsG)) && upper(gsG) < G)) {
            // Diagnostic only (no check depends on it): the premises at the smallest budget the
            // bootstrap could ever accept, Gamma = 1.05 Gamma*(0), name the binding one.
            const double g0 = std::isfinite(upper(gs0)) ? std::min(upper(gs0) * 1.05, 10.0) : 0.0;
            const IntervalD g0i = IntervalD::bounds(g0, g0);
            std::size_t jS = 0, jP = 0;
            const IntervalD mS = tr.S.empty() ? IntervalD(0) : tr.margin_S(g0i, &jS), mP = tr.margin_P(g0i, &jP);
            R.note("Gamma search (step 7) found no fixed point Gamma*(Gamma) < Gamma. Gamma*(0) <= " + fmt(upper(gs0)) +
                   "; at Gamma = " + fmt(g0) + ": Gamma*(Gamma) <= " + fmt(upper(tr.gamma_star(g0i))) +
                   ", S margin " + (tr.S.empty() ? std::string("(no S neuron)") : fmt(lower(mS)) + " (neuron " + std::to_string(jS) + ")") +
                   ", P margin " + fmt(lower(mP)) + " (neuron " + std::to_string(jP) + "), tau_S <= " + fmt(upper(tr.tau_S(g0i))) +
                   ", tau_pin <= " + fmt(upper(tr.tau_pin(g0i))) + "; step 6 terms: E(T) <= " + fmt(upper(tr.E_T)) +
                   ", A_min >= " + fmt(lower(tr.A_all(g0i))) + ", q_max <= " + fmt(upper(tr.q_max(g0i))) +
                   ", |pi| <= " + fmt(upper(tr.pnorm(g0i))));
        }
    }
    const IntervalD Gi = IntervalD::bounds(G, G);
    // every N_k neuron with z_jk(T)^+ > 0 has a positive lower bound of |a_j| until z_jk <= 0 (step 2)
    if (tr.Nsample.empty()) {
        R.check_true(c_speed, "[BF2025, Lemma 1]", true, "no N_k neuron at T (vacuous)");
    } else {
        std::string why;
        for (std::size_t i = 0; i < tr.Nsample.size() && why.empty(); ++i)
            if (upper(tr.zpos[i]) > 0 && !certainly_positive(tr.speed[i]) && !std::isfinite(tr.tau_pin_shrinking(i, Gi)))
                why = "neuron " + std::to_string(tr.N[i]) + ": z_jk(T)^+ <= " + fmt(upper(tr.zpos[i])) +
                      ", |P_perp w|^2 + (a^2 - |w|^2)(0) not > 0 and |a_j(T)| >= " + fmt(lower(tr.aN[i])) +
                      " does not outlast the pinning (step 2', A0^2 > 2 B Z fails or r_k not certainly < 0)";
        R.check_true(c_speed, "[BF2025, Lemma 1, eq. (4); docs/bf.md step 2]", why.empty(),
                     why.empty() ? (have_speed ? "|a_j(t)| >= sqrt(|P_perp w_j(T)|^2 + (a_j^2 - |w_j|^2)(0)) >= " + to_string(min_speed, 6) : std::string("no Lemma 1 bound")) +
                                       (n_no_speed ? "; " + std::to_string(n_no_speed) + " neuron(s) by step 2' (|a_j| >= |a_j(T)| - B (t - T))" : std::string("")) +
                                       "; tau_pin <= " + fmt(upper(tr.tau_pin(Gi)))
                                 : why);
    }
    // residual signs at the samples of N_k and S_k neurons (steps 2, 3)
    {
        std::string why;
        double worst = -1;
        bool any = false;
        for (std::size_t k : {std::size_t(0), std::size_t(2)}) {
            if (tr.Nk_count[k] == 0 && tr.Si_count[k] == 0) continue;
            const IntervalD rk = tr.residual_all(k, Gi);
            why += (why.empty() ? "" : "; ") + std::string("r_") + std::to_string(k + 1) + "(t) in " + to_string(rk, 6);
            worst = any ? std::max(worst, upper(rk)) : upper(rk);
            any = true;
        }
        if (!any)
            R.check_true(c_res, "[BF2025, Assumption 6; docs/bf.md step 5]", true, "no N_k or S_k neuron (vacuous)");
        else
            premise_lt(R, c_res, "[BF2025, Assumption 6; docs/bf.md step 5]", "max_k sup_{t >= T} r_k(t)", bf::trap::point(worst), "0",
                       IntervalD(0),
                       why + " (Gamma = " + fmt(G) + (tr.early() ? ", bound valid on all of [T, infinity)" : ", after T1 = T") + ")");
    }
    // S_i neurons (step 3)
    IntervalD c_lo_all;
    {
        if (tr.S.empty()) {
            R.check_true(c_sdrift, "[docs/bf.md step 3]", true, "no S_i neuron (vacuous)");
            R.check_true(c_smarg, "[docs/bf.md step 3]", true, "no S_i neuron (vacuous)");
        } else {
            double cl = std::numeric_limits<double>::infinity();
            std::string why;
            for (std::size_t i : {std::size_t(0), std::size_t(2)}) {
                if (tr.Si_count[i] == 0) continue;
                const IntervalD c = tr.c_lower(i, Gi);
                why += (why.empty() ? "" : "; ") + std::string("c_") + std::to_string(i + 1) + "(t) >= " + to_string(c, 6);
                cl = std::min(cl, lower(c));
            }
            c_lo_all = bf::trap::point(cl);
            premise_lt(R, c_sdrift, "[docs/bf.md step 3]", "0", IntervalD(0), "min_i inf_{t >= T} c_i(t)", c_lo_all,
                       why + " (residual enclosures valid for all t >= T at Gamma = " + fmt(G) + ")");
            std::size_t sj = 0;
            const IntervalD ms = tr.margin_S(Gi, &sj);
            double amin_s = std::numeric_limits<double>::infinity();
            for (std::size_t q = 0; q < tr.S.size(); ++q) amin_s = std::min(amin_s, lower(tr.a_lower_S(q, Gi)));
            const IntervalD lo = min(ms, bf::trap::point(amin_s));
            std::string tight_box;
            for (std::size_t q = 0; q < tr.S.size(); ++q)
                if (tr.S[q] == sj)
                    tight_box = " (|theta_j(T)| in " + to_string(tr.sS[q], 6) + ", z_j(T) = (" + to_string(tr.zS[q][0], 6) + ", " +
                                to_string(tr.zS[q][1], 6) + ", " + to_string(tr.zS[q][2], 6) + "), S_" + std::to_string(tr.Si[q] + 1) + ")";
            premise_lt(R, c_smarg, "[BF2025, Lemma 1; docs/bf.md step 3]", "0", IntervalD(0),
                       "min(min_{j in S, k} z_jk(T) - |x_k| dw_j(Gamma), min_{j in S} |a_j|_lower)", lo,
                       "margin " + to_string(ms, 6) + " (tightest: neuron " + std::to_string(sj) + tight_box + "), inf |a_j| >= " +
                           to_string(bf::trap::point(amin_s), 6) + "; tau_S = " + to_string(tr.tau_S(Gi), 6));
        }
    }
    const IntervalD Amin = tr.A_all(Gi);
    premise_lt(R, c_amin, "[docs/bf.md step 6]", "0", IntervalD(0), "A_min", Amin,
               "sum_P a_j(t)^2 >= A_min for t >= T while Gamma(t) <= Gamma (A_moving = " + to_string(tr.A_moving(Gi), 6) +
                   " for all t >= T)");
    std::size_t arg_j = 0;
    const IntervalD marg = tr.margin_P(Gi, &arg_j);
    premise_lt(R, c_marg, "[docs/bf.md step 4]", "0", IntervalD(0), "min_{j in P, k} z_jk(T) - |x_k| dw_j(Gamma)",
               marg, "every P neuron stays strictly active on every sample while Gamma(t) <= Gamma (tightest: neuron " +
                         std::to_string(arg_j) + ")");
    const IntervalD gstar = tr.gamma_star(Gi);
    const IntervalD tp = tr.tau(Gi);
    premise_lt(R, c_boot, "[docs/bf.md step 7]", "Gamma*(Gamma), docs/bf.md step 6", gstar, "Gamma", Gi,
               "the region {Gamma(t) < Gamma} cannot be left, so the flow stays in it for all t >= T");

    // report the constants of the argument
    {
        auto& tb = R.table("(c) trapping argument: constants at T", {"quantity", "enclosure"});
        tb.add_row({"T", fmt(res.t_reached)});
        tb.add_row({"L(theta(T))", to_string(nets::risk(model, th), 10)});
        tb.add_row({"E(T) = L(theta(T)) - L*", to_string(tr.E_T, 6)});
        tb.add_row({"lambda_min(H)", to_string(lmin, 8)});
        tb.add_row({"|P| (all-active), sum_P |theta_j(T)|^2", std::to_string(tr.P.size()) + ", " + to_string(tr.S2, 6)});
        tb.add_row({"N_1, N_3 (negative one-sample neurons)", std::to_string(tr.Nk_count[0]) + ", " + std::to_string(tr.Nk_count[2])});
        tb.add_row({"contribution bounds C_1, C_3", to_string(tr.CN[0], 4) + ", " + to_string(tr.CN[2], 4)});
        tb.add_row({"S_1, S_3 (negative two-sample neurons), sum_S |theta_j(T)|^2",
                    std::to_string(tr.Si_count[0]) + ", " + std::to_string(tr.Si_count[2]) + ", " + to_string(tr.S2S, 6)});
        tb.add_row({"tau_pin, tau_S", to_string(tr.tau_pin(Gi), 6) + ", " + to_string(tr.tau_S(Gi), 6)});
        tb.add_row({"output perturbation q_max on [T, T1]", to_string(tr.q_max(Gi), 6)});
        tb.add_row({"A_moving (all t >= T)", to_string(tr.A_moving(Gi), 6)});
        tb.add_row({"Gamma (chosen)", fmt(G)});
        tb.add_row({"Gamma*(Gamma)", to_string(gstar, 6)});
        tb.add_row({"tau = max(tau_pin, tau_S) (T1 = T + tau)", to_string(tp, 6)});
        tb.add_row({"G0 = sup |g| for t >= T", to_string(tr.G0(Gi), 6)});
        tb.add_row({"A_min", to_string(Amin, 6)});
        tb.add_row({"PL rate 2 lambda_min A_min: E(t) <= E(T) exp(-rate (t - T1))", to_string(IntervalD(2) * lmin * Amin, 6)});
        tb.add_row({"min margin", to_string(marg, 6)});
        for (std::size_t k = 0; k < 3; ++k)
            tb.add_row({"r_" + std::to_string(k + 1) + "(t), t >= T (step 4 bound)", to_string(tr.residual(k, Gi), 6)});
    }
    bool all_c = true;
    for (const char* c : all_checks) {
        const cert::Check* ck = R.find_check(c);
        all_c = all_c && ck && ck->status == cert::CheckStatus::proven;
    }
    R.check_true("(c) conclusion: predictions -> x_k^T beta*, L(theta(t)) >= L* > 0 for all t >= 0",
                 "[BF2025, Thm 2; eq. (2) chain rule]", all_c,
                 all_c ? "T1 = T + tau <= " + fmt(res.t_reached + upper(tp)) + "; for t >= T1: E(t) <= E(T) exp(-2 lambda_min A_min (t - T1)) -> 0, "
                             "so h(x_k) -> x_k^T beta*; L is non-increasing along the flow, so L(theta(t)) >= L* = " +
                             to_string(bf::mp(ls.loss_paper, bits), 10) + " for all t >= 0 (directly from the tube: L >= " + fmt(loss_lo) +
                             " on [0, T])"
                       : "some premise of parts (b)-(c) is not proven (see above)",
                 "every solution converges to a point whose predictions are the least-squares fit, with loss >= L* > 0 throughout");
    bf::check_bounds(in, R, Q, "[BF2025; this case's claimed value]");
    R.claim.proven_statement =
        "for this initialization (m = " + std::to_string(m) + ", seed " + std::to_string(is.seed) + ", lambda = " + is.lambda +
        "): every gradient-flow solution converges, its predictions converge to the least-squares fit x_k^T beta*, and "
        "L(theta(t)) >= L* = " + nets::decimal_string(ls.loss_paper, 10) + " > 0 for all t >= 0" +
        (route == "none" ? std::string(" (the data hypotheses of Theorem 2 are not assumed)") : ", and the data satisfy " + route);
}

}  // namespace

int main(int argc, char** argv) {
    auto keys = bf::data_keys();
    keys.push_back({.name = "m", .type = cert::KeyType::integer, .description = "number of neurons", .constraint = cert::Constraint::positive});
    keys.push_back({.name = "seed", .type = cert::KeyType::integer, .description = "initialization seed"});
    keys.push_back({.name = "lambda", .type = cert::KeyType::number, .description = "initialization scale, eq. (3)", .constraint = cert::Constraint::positive});
    keys.push_back({.name = "init", .type = cert::KeyType::string, .description = "initialization kind (default balanced_gaussian)",
                    .required = false, .choices = {"balanced_gaussian", "dominated_uniform_ball", "unbalanced_gaussian"}});
    keys.push_back({.name = "T", .type = cert::KeyType::number, .description = "horizon of the tube, part (b)", .constraint = cert::Constraint::positive});
    keys.push_back({.name = "hypotheses", .type = cert::KeyType::string,
                    .description = "part (a): assumption3, assumptions4to6, or none (certify the conclusion for this instance only)",
                    .required = false, .choices = {"assumption3", "assumptions4to6", "none"}});
    keys.push_back({.name = "epsilon", .type = cert::KeyType::number, .description = "eps of the alignment time tau (default 0.3)",
                    .required = false, .constraint = cert::Constraint::positive});
    keys.push_back({.name = "order", .type = cert::KeyType::integer, .description = "Taylor order (default 8)", .required = false});
    cert::VerifierSpec spec{
        .name = "bf/theorem2_three_point",
        .summary = "certifies convergence to the least-squares predictor (loss >= L* > 0 for all t) on three-point data: "
                   "hypotheses, certified tube, trapping argument",
        .claim = {.paper = "Boursier & Flammarion, JMLR 26 (2025), paper 24-1523", .locator = "Sec. 4, Theorem 2, Lemmas 4-8",
                  .paper_statement = "under Assumption 3 with eta < 1/6, for lambda < lambda~ and every m, theta^t -> theta_infty with "
                                     "h(x_k) = x_k^T beta*, hence lim L(theta^t) > 0",
                  .proven_statement = {}},
        .schema = keys,
        .default_precision_bits = 53,
        .validate = bf::validate_data,
        .run = run,
    };
    return cert::verifier_main(argc, argv, spec);
}
