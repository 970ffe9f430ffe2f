// Lumped activation classes (docs/nonsmooth-flow.md, "Lumped activation classes"): from the hand-off
// time on, the neurons of a certain activation pattern S are not stepped one by one; their class is
// carried by its second moment M_S (a Lohner tube of the moment ODE with the other neurons as a
// bounded input, ode::lohner_inclusion_step) and its transition matrix Phi_S (one single-neuron
// Taylor model per column, driven by the validated residual models); theta_j(t) = Phi_S(t) psi_j.
// Every step screens the members' patterns on the class tube; a member that may change pattern
// leaves the class at the start of the step (M_S minus its theta theta^T, exact at that time) and
// is stepped individually from then on.
#define FLOWCERT_NETS_FLOW_INTERNAL
#include "flow_engine.hpp"
#undef FLOWCERT_NETS_FLOW_INTERNAL

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace flowcert::nets::flow {

using ode::widen;

namespace {

// C = A B for S x S row-major interval matrices
std::vector<I> mat_mul(const std::vector<I>& A, const std::vector<I>& B, std::size_t S) {
    std::vector<I> C(S * S);
    for (std::size_t i = 0; i < S; ++i)
        for (std::size_t j = 0; j < S; ++j) {
            I acc = A[i * S] * B[j];
            for (std::size_t l = 1; l < S; ++l) acc += A[i * S + l] * B[l * S + j];
            C[i * S + j] = acc;
        }
    return C;
}
void mat_vec(const std::vector<I>& A, const I* v, std::size_t S, I* out) {
    for (std::size_t i = 0; i < S; ++i) {
        I acc = A[i * S] * v[0];
        for (std::size_t l = 1; l < S; ++l) acc += A[i * S + l] * v[l];
        out[i] = acc;
    }
}
std::vector<I> identity(std::size_t S) {
    std::vector<I> E(S * S, I(0));
    for (std::size_t i = 0; i < S; ++i) E[i * S + i] = I(1);
    return E;
}
double norm2_upper(const I* v, std::size_t S) {
    I s(0);
    for (std::size_t i = 0; i < S; ++i) s += I::exact(mag(v[i])) * I::exact(mag(v[i]));
    return sqrt(s).upper();
}

}  // namespace

// D_S(R) = -c sum_{k in S} R_k x_k (interval), for a pattern key
void Engine::lump_D(std::uint64_t key, const std::vector<I>& R, I* D) const {
    for (std::size_t i = 0; i < pb_.d; ++i) {
        I acc(0);
        for (std::size_t k = 0; k < pb_.n; ++k)
            if (code_in_key(key, k) == 0) acc += R[k] * pb_.x[k * pb_.d + i];
        D[i] = -(pb_.c * acc);
    }
}

// Hand-off: every non-frozen, non-parked neuron whose signs are all certain on its box X_j and
// which is active on some sample joins the class of its pattern (all-active only, with
// lumping.all_active_only). M_S(T0) = sum over the class of theta_j theta_j^T (interval sum).
void Engine::lump_form(std::vector<I>& X, const std::vector<char>& frozen, double t0) {
    const std::size_t m = pb_.m, S = pb_.S, n = pb_.n, d = pb_.d, Q = moment_size(d);
    std::map<std::uint64_t, std::size_t> index;
    for (std::size_t j = 0; j < m; ++j) {
        if (frozen[j] || park_.on[j]) continue;
        std::uint64_t key = 0;
        ActivationPattern pat = 0;
        bool certain = true;
        for (std::size_t k = 0; k < n && certain; ++k) {
            const int code = sign_code(pb_.preactivation(&X[j * S], k));
            if (code == 2) certain = false;
            key |= static_cast<std::uint64_t>(code) << (2 * k);
            if (code == 0) pat |= 1u << k;
        }
        if (!certain || pat == 0) continue;
        if (opt_.lumping.all_active_only && pat != (1u << n) - 1u) continue;
        auto [it, fresh] = index.emplace(key, lump_.classes.size());
        if (fresh) {
            LumpedClass cl;
            cl.key = key;
            cl.pattern = pat;
            cl.Phi = cl.Phi_ref = identity(S);
            lump_.classes.push_back(std::move(cl));
        }
        LumpedClass& cl = lump_.classes[it->second];
        cl.members.push_back(j);
        cl.psi.insert(cl.psi.end(), X.begin() + static_cast<std::ptrdiff_t>(j * S),
                      X.begin() + static_cast<std::ptrdiff_t>((j + 1) * S));
        cl.nu.push_back(norm2_upper(&X[j * S], S));
        lumped_[j] = 1;
    }
    lump_.formed = true;
    lump_.t_formed = t0;
    std::vector<I> M0(lump_.classes.size() * Q, I(0));
    std::vector<ActivationPattern> pats;
    for (std::size_t q = 0; q < lump_.classes.size(); ++q) {
        LumpedClass& cl = lump_.classes[q];
        cl.at_handoff = cl.members.size();
        pats.push_back(cl.pattern);
        for (std::size_t p = 0; p < cl.members.size(); ++p) {
            const auto mo = outer_moment(&cl.psi[p * S], d);
            for (std::size_t e = 0; e < Q; ++e) M0[q * Q + e] += mo[e];
        }
        lump_rereference(cl, t0);
    }
    lump_.field = moment_field(pats, d, n, opt_.lumping.k_scale);
    lump_.params = pb_.x;
    lump_.params.push_back(pb_.c);
    lump_.set = ode::LohnerSet::from_box(M0);
    lump_.M_t0 = lump_.set.box();
}

// Screening reference at t0: rho_j <= min_k |z_jk(t0)| / nu_j for every member (its signs at t0 are
// those of the class, else it leaves: rho_j = -1), members sorted by rho.
void Engine::lump_rereference(LumpedClass& cl, double t0) {
    const std::size_t S = pb_.S, n = pb_.n;
    cl.Phi_ref = cl.Phi;
    cl.ref_time = t0;
    cl.rho.assign(cl.members.size(), 0.0);
    std::vector<I> th(S);
    for (std::size_t p = 0; p < cl.members.size(); ++p) {
        mat_vec(cl.Phi, &cl.psi[p * S], S, th.data());
        double rho = std::numeric_limits<double>::infinity();
        for (std::size_t k = 0; k < n; ++k) {
            const I z = pb_.preactivation(th.data(), k);
            if (sign_code(z) != code_in_key(cl.key, k)) {
                rho = -1;
                break;
            }
            rho = std::min(rho, (I::exact(mig(z)) / I::exact(cl.nu[p])).lower());
        }
        cl.rho[p] = rho;
    }
    cl.by_margin.resize(cl.members.size());
    std::iota(cl.by_margin.begin(), cl.by_margin.end(), std::size_t(0));
    std::sort(cl.by_margin.begin(), cl.by_margin.end(), [&](std::size_t a, std::size_t b) { return cl.rho[a] < cl.rho[b]; });
    ++lump_.rereferences;
}

// Adds the classes' outputs sum_{S contains k} <x_k, m_S> to out_k, for the moment box Mbox.
void Engine::lump_contributions(const std::vector<I>& Mbox, std::vector<I>& out) const {
    const std::size_t d = pb_.d, Q = moment_size(d);
    for (std::size_t q = 0; q < lump_.classes.size(); ++q)
        for (std::size_t k = 0; k < pb_.n; ++k)
            if (lump_.classes[q].pattern >> k & 1u)
                for (std::size_t i = 0; i < d; ++i) out[k] += pb_.x[k * d + i] * Mbox[q * Q + moment_index(i, d, d)];
}

// A priori boxes over the step with the residual enclosure R_ (section 1 for the classes): the
// moments M' = K_S M + M K_S and the step transition Phi(s, t0)' = K_S Phi(s, t0), Phi(t0, t0) = I,
// both linear for a fixed residual, by the Picard inclusion of ode::picard_block.
bool Engine::lump_apriori(StepOutcome& out) {
    const std::size_t S = pb_.S, d = pb_.d, Q = moment_size(d), C = lump_.classes.size();
    lump_.W.resize(C * Q);
    lump_.NW.resize(C * Q);
    std::vector<I> F(std::max(Q, S * S)), D(d);
    for (std::size_t q = 0; q < C; ++q) {
        LumpedClass& cl = lump_.classes[q];
        lump_D(cl.key, R_, D.data());
        auto moment_field_box = [&](const I* M, I* Fo) {
            auto KM = [&](std::size_t a, std::size_t b) {
                if (a < d) return D[a] * M[moment_index(d, b, d)];
                I s = D[0] * M[moment_index(0, b, d)];
                for (std::size_t l = 1; l < d; ++l) s += D[l] * M[moment_index(l, b, d)];
                return s;
            };
            for (std::size_t a = 0; a <= d; ++a)
                for (std::size_t b = a; b <= d; ++b) Fo[moment_index(a, b, d)] = KM(a, b) + KM(b, a);
        };
        std::vector<I> B(Q);
        if (!ode::picard_block(Q, &lump_.M_t0[q * Q], P_.s, moment_field_box, B.data(), &lump_.NW[q * Q], F.data())) {
            out.fail = StepFail::apriori;
            out.reason = "a priori enclosure of the moments of lumped class " + std::to_string(q) + " failed";
            return false;
        }
        std::copy(B.begin(), B.end(), lump_.W.begin() + static_cast<std::ptrdiff_t>(q * Q));
        auto transition_field_box = [&](const I* P, I* Fo) {
            for (std::size_t j = 0; j < S; ++j) {
                for (std::size_t i = 0; i < d; ++i) Fo[i * S + j] = D[i] * P[d * S + j];
                I s = D[0] * P[j];
                for (std::size_t l = 1; l < d; ++l) s += D[l] * P[l * S + j];
                Fo[d * S + j] = s;
            }
        };
        const std::vector<I> E = identity(S);
        std::vector<I> PB(S * S);
        cl.Phi_step_box.resize(S * S);
        if (!ode::picard_block(S * S, E.data(), P_.s, transition_field_box, PB.data(), cl.Phi_step_box.data(), F.data())) {
            out.fail = StepFail::apriori;
            out.reason = "a priori enclosure of the transition matrix of lumped class " + std::to_string(q) + " failed";
            return false;
        }
        cl.Phi_tube = mat_mul(cl.Phi_step_box, cl.Phi, S);
    }
    return true;
}

// delta = max_k sup |x_k^T (Phi(s) - Phi_ref)_w|_2 over the class tube: a member with rho_j > delta
// keeps its signs on the step (|z_jk(s) - z_jk(t_ref)| <= delta nu_j < mig z_jk(t_ref)).
double Engine::lump_screen_delta(const LumpedClass& cl) const {
    const std::size_t S = pb_.S, d = pb_.d;
    double delta = 0;
    std::vector<I> v(S);
    for (std::size_t k = 0; k < pb_.n; ++k) {
        for (std::size_t l = 0; l < S; ++l) {
            I acc(0);
            for (std::size_t i = 0; i < d; ++i) acc += pb_.x[k * d + i] * (cl.Phi_tube[i * S + l] - cl.Phi_ref[i * S + l]);
            v[l] = acc;
        }
        delta = std::max(delta, norm2_upper(v.data(), S));
    }
    return delta;
}

// Members at positions `leave` of class q leave it at t0: X_j = Phi(t0) psi_j, M_S(t0) minus
// theta_j theta_j^T (exact for the true states; the enclosure of the difference is the set plus the
// box of -theta theta^T).
void Engine::lump_remove(std::size_t q, std::vector<std::size_t> leave, std::vector<I>& X) {
    const std::size_t S = pb_.S, d = pb_.d, Q = moment_size(d);
    LumpedClass& cl = lump_.classes[q];
    std::vector<I> delta(lump_.classes.size() * Q, I(0));
    std::vector<char> out(cl.members.size(), 0);
    for (std::size_t pos : leave) {
        const std::size_t j = cl.members[pos];
        mat_vec(cl.Phi, &cl.psi[pos * S], S, &X[j * S]);
        const auto mo = outer_moment(&X[j * S], d);
        for (std::size_t e = 0; e < Q; ++e) delta[q * Q + e] -= mo[e];
        lumped_[j] = 0;
        out[pos] = 1;
        ++lump_.left;
    }
    lump_.set.add(delta);
    lump_.M_t0 = lump_.set.box();
    std::size_t w = 0;
    for (std::size_t p = 0; p < cl.members.size(); ++p) {
        if (out[p]) continue;
        cl.members[w] = cl.members[p];
        std::copy(cl.psi.begin() + static_cast<std::ptrdiff_t>(p * S), cl.psi.begin() + static_cast<std::ptrdiff_t>((p + 1) * S),
                  cl.psi.begin() + static_cast<std::ptrdiff_t>(w * S));
        cl.nu[w] = cl.nu[p];
        cl.rho[w] = cl.rho[p];
        ++w;
    }
    cl.members.resize(w);
    cl.psi.resize(w * S);
    cl.nu.resize(w);
    cl.rho.resize(w);
    cl.by_margin.resize(w);
    std::iota(cl.by_margin.begin(), cl.by_margin.end(), std::size_t(0));
    std::sort(cl.by_margin.begin(), cl.by_margin.end(), [&](std::size_t a, std::size_t b) { return cl.rho[a] < cl.rho[b]; });
}

// Pattern screening on the a priori class tube (valid on the step by the first-exit argument of the
// a priori phase): members with rho_j <= delta get the exact test on Phi_tube psi_j; a member whose
// sign may change leaves (lump_remove). A long list of close members triggers a new reference at
// t0 first. Returns whether some member left (the a priori phase is then redone).
bool Engine::lump_screen(std::vector<I>& X, double t0) {
    const std::size_t S = pb_.S, n = pb_.n;
    bool any = false;
    std::vector<I> th(S);
    for (std::size_t q = 0; q < lump_.classes.size(); ++q) {
        LumpedClass& cl = lump_.classes[q];
        double delta = lump_screen_delta(cl);
        std::size_t close = 0;
        while (close < cl.by_margin.size() && !(cl.rho[cl.by_margin[close]] > delta)) ++close;
        if (close > std::max<std::size_t>(32, cl.members.size() / 16) && cl.ref_time != t0) {
            lump_rereference(cl, t0);
            delta = lump_screen_delta(cl);
            close = 0;
            while (close < cl.by_margin.size() && !(cl.rho[cl.by_margin[close]] > delta)) ++close;
        }
        std::vector<std::size_t> leave;
        for (std::size_t c = 0; c < close; ++c) {
            const std::size_t pos = cl.by_margin[c];
            mat_vec(cl.Phi_tube, &cl.psi[pos * S], S, th.data());
            for (std::size_t k = 0; k < n; ++k)
                if (sign_code(pb_.preactivation(th.data(), k)) != code_in_key(cl.key, k)) {
                    leave.push_back(pos);
                    break;
                }
        }
        if (leave.empty()) continue;
        lump_remove(q, std::move(leave), X);
        any = true;
    }
    return any;
}

// The Lohner step of the moments with the individually treated neurons as a bounded input u_k =
// p_k - y_k over the step (their outputs on the tight tube N_j), and the classes' part of the
// residual Taylor models.
bool Engine::lump_lohner(const std::vector<char>& frozen, StepOutcome& out) {
    const std::size_t d = pb_.d, n = pb_.n, Q = moment_size(d);
    std::vector<I> U;
    residual_of(N_, frozen, U, nullptr);
    ode::LohnerStepInput in;
    in.h = delta_;
    in.order = p_;
    in.apriori = lump_.W;
    in.input = U;
    ode::LohnerStepResult res = ode::lohner_inclusion_step(lump_.field, lump_.params, lump_.set, in);
    if (!res.ok) {
        out.fail = StepFail::validation;
        out.reason = "lumped classes: " + res.reason;
        return false;
    }
    lump_.r_models.assign(n, TimeTm{});
    for (std::size_t k = 0; k < n; ++k) {
        ode::tm_zero(lump_.r_models[k], p_);
        for (std::size_t q = 0; q < lump_.classes.size(); ++q)
            if (lump_.classes[q].pattern >> k & 1u)
                for (std::size_t i = 0; i < d; ++i)
                    ode::tm_axpy(lump_.r_models[k], pb_.x[k * d + i], res.model[q * Q + moment_index(i, d, d)], p_);
    }
    double scale = 0;
    for (const I& v : lump_.M_t0) scale = std::max(scale, mag(v));
    lump_.last_term = scale > 0 ? res.last_term / scale : 0;
    lump_.next = std::move(res.end);
    return true;
}

// Phi_S(t1) = Phi_S(t1, t0) Phi_S(t0): the step transition column by column as a single-neuron
// Taylor model of theta' = K_S(g(s)) theta from e_i, driven by the validated residual models G_
// (every member has pattern S on the step: screened), intersected with the a priori box.
bool Engine::lump_transitions(StepOutcome& out) {
    const std::size_t S = pb_.S, n = pb_.n;
    const double H = P_.s.upper();
    std::vector<TimeTm> T;
    TmPowers Ps;
    std::vector<I> e(S), step_end(S * S), step_tube(S * S);
    for (std::size_t q = 0; q < lump_.classes.size(); ++q) {
        LumpedClass& cl = lump_.classes[q];
        std::vector<unsigned char> codes(n);
        for (std::size_t k = 0; k < n; ++k) codes[k] = static_cast<unsigned char>(code_in_key(cl.key, k));
        for (std::size_t col = 0; col < S; ++col) {
            for (std::size_t i = 0; i < S; ++i) e[i] = I(i == col ? 1 : 0);
            if (!neuron_tm(e.data(), 0.0, H, codes.data(), G_, T, Ps)) {
                out.fail = StepFail::validation;
                out.reason = "lumped class " + std::to_string(q) + ": Taylor model of the transition matrix failed";
                return false;
            }
            for (std::size_t i = 0; i < S; ++i) {
                const I& apriori = cl.Phi_step_box[i * S + col];
                I o;
                const I end = ode::poly_at(T[i].c, p_, delta_) + T[i].r, tube = ode::tm_range(T[i], Ps);
                step_end[i * S + col] = intersect(end, apriori, o) ? o : end;
                step_tube[i * S + col] = intersect(tube, apriori, o) ? o : tube;
            }
        }
        cl.Phi_end = mat_mul(step_end, cl.Phi, S);
        const std::vector<I> tube = mat_mul(step_tube, cl.Phi, S);
        for (std::size_t i = 0; i < S * S; ++i) {
            I o;
            if (intersect(tube[i], cl.Phi_tube[i], o)) cl.Phi_tube[i] = o;
        }
    }
    return true;
}

// End states and tubes of the lumped neurons (lumping.neuron_tubes): Phi psi_j.
void Engine::lump_neuron_states() {
    const std::size_t S = pb_.S;
    for (const LumpedClass& cl : lump_.classes)
        ode::parallel_for(cl.members.size(), pb_.threads, [&](std::size_t p) {
            const std::size_t j = cl.members[p];
            mat_vec(cl.Phi_end, &cl.psi[p * S], S, &end_[j * S]);
            mat_vec(cl.Phi_tube, &cl.psi[p * S], S, &tube_[j * S]);
        });
}

void Engine::lump_accept() {
    if (!lump_.formed || !lump_.next) return;
    lump_.set = std::move(*lump_.next);
    lump_.next.reset();
    lump_.M_t0 = lump_.set.box();
    for (LumpedClass& cl : lump_.classes) cl.Phi = cl.Phi_end;
}

void Engine::lump_recover(std::vector<I>& X) const {
    const std::size_t S = pb_.S;
    for (const LumpedClass& cl : lump_.classes)
        for (std::size_t p = 0; p < cl.members.size(); ++p) mat_vec(cl.Phi, &cl.psi[p * S], S, &X[cl.members[p] * S]);
}

}  // namespace flowcert::nets::flow
