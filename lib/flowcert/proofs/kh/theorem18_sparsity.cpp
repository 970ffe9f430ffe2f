// Pieces of kh/theorem18_sparsity [KH2025, Thm 18]; see theorem18_sparsity.hpp.
#include "flowcert/proofs/kh/theorem18_sparsity.hpp"
#include <stdexcept>


#include <algorithm>
#include <cmath>

namespace flowcert::proofs::kh {

namespace {
using I = IntervalD;
using namespace flowcert::nets;
// x to `digits` significant digits: the printed decimal is the exact exhibited constant.
std::string decimal(double x, int digits = 6) { return format_g(x, digits); }
// ---- NON-RIGOROUS helpers (double, classical RK4): they only choose the KKT candidate and the exhibited
// constants T1, A2, T of the times T^1, T^2. Nothing certified depends on their accuracy.
Eigen::VectorXd ncf_rhs_nonrigorous(const Ncf<double>& ncf, const Eigen::VectorXd& u) {
    Vec<double> uu = u;
    return ncf.gradient(uu).gradient;
}
// One RK4 step of u' = grad N(u) (projected: minus the radial part, for the direction flow) of size h.
Eigen::VectorXd rk4_step_nonrigorous(const Ncf<double>& ncf, const Eigen::VectorXd& u, double h, bool projected) {
    auto f = [&](const Eigen::VectorXd& x) {
        Eigen::VectorXd g = ncf_rhs_nonrigorous(ncf, x);
        if (projected) g -= x.dot(g) / x.squaredNorm() * x;
        return g;
    };
    const Eigen::VectorXd k1 = f(u), k2 = f(u + h / 2 * k1), k3 = f(u + h / 2 * k2), k4 = f(u + h * k3);
    return u + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
}
I sup_hull(const I& acc, const I& x, bool first) {
    return first ? x : I::bounds(std::max(lower(acc), lower(x)), std::max(upper(acc), upper(x)));
}
}  // namespace

I norm_of(const std::vector<I>& x, const std::vector<int>& idx) {
    I s(0);
    for (int j : idx) s += sqr(x[static_cast<std::size_t>(j)]);
    return sqrt(s);
}
std::vector<int> all_indices(int P) {
    std::vector<int> v(static_cast<std::size_t>(P));
    for (int j = 0; j < P; ++j) v[static_cast<std::size_t>(j)] = j;
    return v;
}

// Direction limit of the NCF flow from u0 (projected flow until its tangential gradient is small).
Eigen::VectorXd ncf_direction_limit_nonrigorous(const Ncf<double>& ncf, Eigen::VectorXd u) {
    u.normalize();
    for (int it = 0; it < 200000; ++it) {
        Eigen::VectorXd g = ncf_rhs_nonrigorous(ncf, u);
        g -= u.dot(g) * u;
        const double gn = g.norm();
        if (gn < 1e-10) break;
        const double h = 0.05 / std::max(1e-12, ncf_rhs_nonrigorous(ncf, u).norm());
        u = rk4_step_nonrigorous(ncf, u, h, true);
        u.normalize();
    }
    return u;
}
// T1: first time with cos(phi(t, W0), W̄) >= 1 - gamma (unprojected NCF flow); A2 = ||phi(T1, W0)||;
// T: blow-up time of the NCF flow from phi(T1)/A2 (L > 2; from ||phi(s)||^{-(L-2)} = L(L-2) N̄ (T - s)).
ExhibitedTimes exhibited_times_nonrigorous(const Ncf<double>& ncf, const Eigen::VectorXd& W0,
                                           const Eigen::VectorXd& Wbar, double Nbar, int L, double gamma) {
    ExhibitedTimes e;
    Eigen::VectorXd u = W0;
    double t = 0;
    auto cosine = [&](const Eigen::VectorXd& x) { return x.dot(Wbar) / (x.norm() * Wbar.norm()); };
    // step: 1% relative change of u
    auto step = [&](const Eigen::VectorXd& x) { return 0.01 * x.norm() / std::max(1e-300, ncf_rhs_nonrigorous(ncf, x).norm()); };
    int it = 0;
    while (cosine(u) < 1 - gamma && it < 1000000 && u.norm() < 1e8) {
        const double h = step(u);
        u = rk4_step_nonrigorous(ncf, u, h, false);
        t += h;
        ++it;
    }
    if (cosine(u) < 1 - gamma) {
        e.reason = "the NCF flow from W0 did not reach cos >= 1 - gamma before blow-up (it may converge to another "
                   "KKT point or to 0)";
        return e;
    }
    e.T1 = decimal(t, 4);
    // re-integrate to exactly T1 (as a double) for A2
    const double T1 = std::stod(e.T1);
    u = W0;
    t = 0;
    while (t < T1) {
        const double h = std::min(step(u), T1 - t);
        u = rk4_step_nonrigorous(ncf, u, h, false);
        t += h;
    }
    e.A2 = decimal(u.norm(), 6);
    e.cos_at_T1 = cosine(u);
    if (L > 2) {
        Eigen::VectorXd z = u / u.norm();
        double s = 0;
        while (z.norm() < 1e4) {
            const double h = step(z);
            z = rk4_step_nonrigorous(ncf, z, h, false);
            s += h;
        }
        const double T = s + std::pow(z.norm(), -(L - 2)) / (L * (L - 2) * Nbar);
        e.T = decimal(T, 6);
    } else {
        e.T = "0";
    }
    e.ok = true;
    return e;
}

TubeZeroCheck check_tube_zeros(const ode::Result<I>& res, const std::vector<int>& z, const HomogeneousModel<I>& model,
                               const Vec<I>& y, const SquareLossNormalization& norm) {
    TubeZeroCheck c;
    std::vector<const std::vector<I>*> sets;
    std::vector<I> when;
    for (const auto& s : res.outputs) {
        sets.push_back(&s.box);
        when.push_back(s.time);
    }
    sets.push_back(&res.final_box);
    when.push_back(res.time);
    for (std::size_t k = 0; k < sets.size(); ++k) {
        const I nz = norm_of(*sets[k], z);
        c.sup_outputs = sup_hull(c.sup_outputs, nz, k == 0);
        bool exact = true;
        for (int j : z) exact = exact && lower((*sets[k])[static_cast<std::size_t>(j)]) == 0.0 &&
                                upper((*sets[k])[static_cast<std::size_t>(j)]) == 0.0;
        if (!exact && c.outputs_exact)
            c.first_nonzero_output = "t in " + to_string(when[k], 8) + ": ||w_z|| in " + to_string(nz, 6);
        c.outputs_exact = c.outputs_exact && exact;
        ++c.outputs;
    }
    for (const auto& piece : res.tube) {
        c.sup_pieces = sup_hull(c.sup_pieces, norm_of(piece.box, z), c.pieces == 0);
        ++c.pieces;
        Vec<I> w(static_cast<Eigen::Index>(piece.box.size()));
        for (std::size_t j = 0; j < piece.box.size(); ++j) w(static_cast<Eigen::Index>(j)) = piece.box[j];
        for (int j : z) w(j) = I(0);  // the face {w_z = 0} of the tube box
        const LossResult<I> lr = square_loss(model, w, y, norm, true);
        if (lr.status != EvalStatus::ok) {
            c.gradient_exact = false;
            continue;
        }
        for (int j : z)
            if (!(lower(lr.gradient(j)) == 0.0 && upper(lr.gradient(j)) == 0.0)) c.gradient_exact = false;
    }
    return c;
}

std::pair<IntervalD, IntervalD> theorem18_times(int L, const IntervalD& T1, const IntervalD& A2, const IntervalD& Tb,
                                                const IntervalD& Delta, const IntervalD& Nbar, const IntervalD& kappa,
                                                const IntervalD& delta) {
    const IntervalD dt = A2 * delta;  // delta~ = A2 delta (A1 = 0)
    IntervalD t1, t2;
    if (L == 2) {
        t1 = T1 + IntervalD(4) * log(IntervalD(1) / dt) / (Delta + IntervalD(8) * Nbar);  // [KH2025, Thm 18, T^1 (L = 2)]
        t2 = T1 + log(IntervalD(1) / dt) / (IntervalD(2) * Nbar);  // [Thm 18, T^2 with b_delta = 1]
    } else {
        const IntervalD dL2 = pow(dt, L - 2), dl2 = pow(delta, L - 2);
        // [KH2025, Thm 18, T^1 (L > 2)]: T1/delta^{L-2} + (T/delta~^{L-2}) (1 - delta~^{2(L-2)L^2 N̄/(2L^2 N̄ + Delta)})
        t1 = T1 / dl2 + Tb / dL2 * (IntervalD(1) - exp(IntervalD(L - 2) * (IntervalD(1) - kappa) * log(dt)));
        // [Thm 18, T^2] with (1/b^{L-2})/(L(L-2)N̄) = T: T^2 = T1/delta^{L-2} + T/delta~^{L-2}
        t2 = T1 / dl2 + Tb / dL2;
    }
    return {t1, t2};
}

RestrictedFlowAgreement restricted_flow_meets_full(const taylor::VectorField& rf, const std::vector<IntervalD>& params,
                                                   const std::vector<int>& support, const std::vector<IntervalD>& x0,
                                                   const std::vector<ode::Snapshot<IntervalD>>& full, const IntervalD& t_end,
                                                   int order, const std::vector<std::string>& names) {
    RestrictedFlowAgreement r;
    std::vector<IntervalD> xs, outs;
    for (int j : support) xs.push_back(x0[static_cast<std::size_t>(j)]);
    for (const auto& snap : full) outs.push_back(snap.time);
    ode::Options o;
    o.order = order;
    o.record_tubes = true;
    const auto res = ode::integrate<IntervalD>(rf, params, xs, t_end, outs, o, 53);
    r.steps = res.steps;
    if (!res.ok()) r.failure = std::string(ode::to_string(res.status)) + ": " + res.reason;
    r.agree = res.ok() && res.outputs.size() == full.size();
    for (std::size_t k = 0; r.agree && k < full.size(); ++k)
        for (std::size_t s = 0; s < support.size(); ++s) {
            const IntervalD& a = full[k].box[static_cast<std::size_t>(support[s])];
            const IntervalD& b = res.outputs[k].box[s];
            IntervalD meet;
            if (!intersect(a, b, meet))
                throw std::logic_error("internal inconsistency: the restricted and the full tube do not meet at output " +
                                       std::to_string(k) + ", coordinate " + names[static_cast<std::size_t>(support[s])]);
            r.max_width_full = std::max(r.max_width_full, width(a));
            r.max_width_restricted = std::max(r.max_width_restricted, width(b));
        }
    return r;
}

}  // namespace flowcert::proofs::kh
