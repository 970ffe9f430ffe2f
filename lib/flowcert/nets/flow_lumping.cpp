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

// Joining: every individual neuron that is not frozen or parked, whose signs are all certain on its
// box X_j, which is active on some sample (and, after the hand-off, has been smooth with that pattern
// for lumping.join_after accepted steps) joins the class of its pattern, in a new cohort started at
// t0 (Phi_c = I, psi_j = X_j): M_S(t0) plus sum over the joiners of theta_j theta_j^T (exact for
// the true states; a new pattern appends its moment to the Lohner set and the moment field is rebuilt).
void Engine::lump_join(std::vector<I>& X, double t0) {
    const std::size_t S = pb_.S, n = pb_.n, d = pb_.d, Q = moment_size(d);
    const bool handoff = !lump_.formed;
    std::map<std::uint64_t, std::size_t> fresh_cohort;  // pattern key -> cohort created at t0
    std::vector<I> delta(lump_.patterns.size() * Q, I(0));
    std::vector<std::vector<I>> new_moments;
    bool field_changed = false;
    const std::vector<std::uint32_t> candidates = individuals();  // a copy: joining changes the list
    for (std::size_t j : candidates) {
        if (park_.on(j)) continue;  // the committed parking (restored at the start of the step)
        if (!handoff && stable_[j] < opt_.lumping.join_after) continue;
        if (opt_.lumping.max_joins > 0 && joins_[j] >= opt_.lumping.max_joins) continue;
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
        std::size_t q = 0;
        while (q < lump_.patterns.size() && lump_.patterns[q].key != key) ++q;
        if (q == lump_.patterns.size()) {
            LumpedPattern lp;
            lp.key = key;
            lp.pattern = pat;
            lump_.patterns.push_back(lp);
            new_moments.emplace_back(Q, I(0));
            delta.resize(lump_.patterns.size() * Q, I(0));
            field_changed = true;
        }
        auto [it, created] = fresh_cohort.emplace(key, lump_.cohorts.size());
        if (created) {
            LumpedCohort co;
            co.pattern = q;
            co.t_join = t0;
            co.Phi = identity(S);
            lump_.cohorts.push_back(std::move(co));
        }
        LumpedCohort& co = lump_.cohorts[it->second];
        co.members.push_back(j);
        co.psi.insert(co.psi.end(), X.begin() + static_cast<std::ptrdiff_t>(j * S),
                      X.begin() + static_cast<std::ptrdiff_t>((j + 1) * S));
        co.nu.push_back(norm2_upper(&X[j * S], S));
        const auto mo = outer_moment(&X[j * S], d);
        const std::size_t old = lump_.patterns.size() - new_moments.size();
        for (std::size_t e = 0; e < Q; ++e) {
            if (q >= old) new_moments[q - old][e] += mo[e];
            else delta[q * Q + e] += mo[e];
        }
        (handoff ? lump_.patterns[q].at_handoff : lump_.patterns[q].joined) += 1;
        if (!handoff) ++lump_.joined;
        set_lumped(j, true);
        ++joins_[j];
    }
    if (handoff) {
        lump_.formed = true;
        lump_.t_formed = t0;
        lump_.set = ode::LohnerSet::from_box({});
        lump_.params = pb_.x;
        lump_.params.push_back(pb_.c);
    }
    delta.resize((lump_.patterns.size() - new_moments.size()) * Q);
    if (!delta.empty()) lump_.set.add(delta);
    for (const auto& mo : new_moments) lump_.set.append(mo);
    if (field_changed) {
        std::vector<ActivationPattern> pats;
        for (const auto& lp : lump_.patterns) pats.push_back(lp.pattern);
        lump_.field = moment_field(pats, d, n, opt_.lumping.k_scale);
        lump_.ev.emplace(lump_.field, lump_.params);
    }
    lump_.M_t0 = lump_.set.box();
    for (auto& [key, c] : fresh_cohort) lump_rereference(lump_.cohorts[c], t0);
    lump_.max_cohorts = std::max(lump_.max_cohorts, lump_.cohorts.size());
}

// Screening reference at t0: rho_j <= min_k |z_jk(t0)| / nu_j for every member (its signs at t0 are
// those of the class, else rho_j = -1 and it leaves at the next screening), members sorted by rho.
void Engine::lump_rereference(LumpedCohort& co, double t0) {
    const std::size_t S = pb_.S, n = pb_.n;
    const std::uint64_t key = lump_.patterns[co.pattern].key;
    co.Phi_ref = co.Phi;
    co.ref_time = t0;
    co.rho.assign(co.members.size(), 0.0);
    std::vector<I> th(S);
    for (std::size_t p = 0; p < co.members.size(); ++p) {
        mat_vec(co.Phi, &co.psi[p * S], S, th.data());
        double rho = std::numeric_limits<double>::infinity();
        for (std::size_t k = 0; k < n; ++k) {
            const I z = pb_.preactivation(th.data(), k);
            if (sign_code(z) != code_in_key(key, k)) {
                rho = -1;
                break;
            }
            rho = std::min(rho, (I::exact(mig(z)) / I::exact(co.nu[p])).lower());
        }
        co.rho[p] = rho;
    }
    sort_by_margin(co);
    ++lump_.rereferences;
}

void Engine::sort_by_margin(LumpedCohort& co) {
    co.by_margin.resize(co.members.size());
    std::iota(co.by_margin.begin(), co.by_margin.end(), std::size_t(0));
    std::sort(co.by_margin.begin(), co.by_margin.end(), [&](std::size_t a, std::size_t b) { return co.rho[a] < co.rho[b]; });
}

// Adds the classes' outputs sum_{S contains k} <x_k, m_S> to out_k, for the moment box Mbox.
void Engine::lump_contributions(const std::vector<I>& Mbox, std::vector<I>& out) const {
    const std::size_t d = pb_.d, Q = moment_size(d);
    for (std::size_t q = 0; q < lump_.patterns.size(); ++q)
        for (std::size_t k = 0; k < pb_.n; ++k)
            if (lump_.patterns[q].pattern >> k & 1u)
                for (std::size_t i = 0; i < d; ++i) out[k] += pb_.x[k * d + i] * Mbox[q * Q + moment_index(i, d, d)];
}

// A priori boxes over the step with the residual enclosure R_ (section 1 for the classes): the
// moments M' = K_S M + M K_S and the step transition Phi_S(s, t0)' = K_S Phi_S(s, t0), Phi_S(t0, t0) = I,
// both linear for a fixed residual, by the Picard inclusion of ode::picard_block; each cohort's tube
// is Phi_S(s, t0) Phi_c(t0).
bool Engine::lump_apriori(StepOutcome& out) {
    const std::size_t S = pb_.S, d = pb_.d, Q = moment_size(d), C = lump_.patterns.size();
    lump_.W.resize(C * Q);
    lump_.NW.resize(C * Q);
    std::vector<I> F(std::max(Q, S * S)), D(d), B(std::max(Q, S * S));
    const std::vector<I> E = identity(S);
    for (std::size_t q = 0; q < C; ++q) {
        LumpedPattern& lp = lump_.patterns[q];
        lump_D(lp.key, R_, D.data());
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
        if (!ode::picard_block(Q, &lump_.M_t0[q * Q], P_.s, moment_field_box, B.data(), &lump_.NW[q * Q], F.data())) {
            out.fail = StepFail::apriori;
            out.reason = "a priori enclosure of the moments of lumped class " + std::to_string(lp.pattern) + " failed";
            return false;
        }
        std::copy(B.begin(), B.begin() + static_cast<std::ptrdiff_t>(Q), lump_.W.begin() + static_cast<std::ptrdiff_t>(q * Q));
        auto transition_field_box = [&](const I* P, I* Fo) {
            for (std::size_t j = 0; j < S; ++j) {
                for (std::size_t i = 0; i < d; ++i) Fo[i * S + j] = D[i] * P[d * S + j];
                I s = D[0] * P[j];
                for (std::size_t l = 1; l < d; ++l) s += D[l] * P[l * S + j];
                Fo[d * S + j] = s;
            }
        };
        lp.Phi_step_box.resize(S * S);
        if (!ode::picard_block(S * S, E.data(), P_.s, transition_field_box, B.data(), lp.Phi_step_box.data(), F.data())) {
            out.fail = StepFail::apriori;
            out.reason = "a priori enclosure of the transition matrix of lumped class " + std::to_string(lp.pattern) + " failed";
            return false;
        }
    }
    for (LumpedCohort& co : lump_.cohorts) co.Phi_tube = mat_mul(lump_.patterns[co.pattern].Phi_step_box, co.Phi, S);
    return true;
}

// delta = max_k sup |x_k^T (Phi_c(s) - Phi_ref)_w|_2 over the cohort tube: a member with rho_j > delta
// keeps its signs on the step (|z_jk(s) - z_jk(t_ref)| <= delta nu_j < mig z_jk(t_ref)).
double Engine::lump_screen_delta(const LumpedCohort& co) const {
    const std::size_t S = pb_.S, d = pb_.d;
    double delta = 0;
    std::vector<I> v(S);
    for (std::size_t k = 0; k < pb_.n; ++k) {
        for (std::size_t l = 0; l < S; ++l) {
            I acc(0);
            for (std::size_t i = 0; i < d; ++i) acc += pb_.x[k * d + i] * (co.Phi_tube[i * S + l] - co.Phi_ref[i * S + l]);
            v[l] = acc;
        }
        delta = std::max(delta, norm2_upper(v.data(), S));
    }
    return delta;
}

// Members at positions `leave` of cohort c leave their class at t0: X_j = Phi_c(t0) psi_j, M_S(t0)
// minus theta_j theta_j^T (exact for the true states; the enclosure of the difference is the set
// plus the box of -theta theta^T).
void Engine::lump_remove(std::size_t c, const std::vector<std::size_t>& leave, std::vector<I>& X) {
    const std::size_t S = pb_.S, d = pb_.d, Q = moment_size(d);
    LumpedCohort& co = lump_.cohorts[c];
    std::vector<I> delta(lump_.patterns.size() * Q, I(0));
    std::vector<char> out(co.members.size(), 0);
    for (std::size_t pos : leave) {
        const std::size_t j = co.members[pos];
        mat_vec(co.Phi, &co.psi[pos * S], S, &X[j * S]);
        const auto mo = outer_moment(&X[j * S], d);
        for (std::size_t e = 0; e < Q; ++e) delta[co.pattern * Q + e] -= mo[e];
        set_lumped(j, false);
        stable_[j] = 0;
        out[pos] = 1;
        ++lump_.left;
    }
    lump_.set.add(delta);
    std::size_t w = 0;
    std::vector<std::size_t> new_pos(co.members.size(), 0);
    for (std::size_t p = 0; p < co.members.size(); ++p) {
        if (out[p]) continue;
        new_pos[p] = w;
        co.members[w] = co.members[p];
        std::copy(co.psi.begin() + static_cast<std::ptrdiff_t>(p * S), co.psi.begin() + static_cast<std::ptrdiff_t>((p + 1) * S),
                  co.psi.begin() + static_cast<std::ptrdiff_t>(w * S));
        co.nu[w] = co.nu[p];
        co.rho[w] = co.rho[p];
        ++w;
    }
    co.members.resize(w);
    co.psi.resize(w * S);
    co.nu.resize(w);
    co.rho.resize(w);
    // by_margin without the leavers, renumbered (still sorted by rho: O(members), no re-sort)
    std::size_t b = 0;
    for (std::size_t p : co.by_margin)
        if (!out[p]) co.by_margin[b++] = new_pos[p];
    co.by_margin.resize(b);
    // a class without members has M_S = 0 exactly: its moments are reset (their enclosure would
    // otherwise keep and grow the widths of the removed theta theta^T)
    std::size_t members = 0;
    for (const LumpedCohort& o : lump_.cohorts)
        if (o.pattern == co.pattern) members += o.members.size();
    if (members == 0) lump_.set.zero_components(co.pattern * Q, Q);
    lump_.M_t0 = lump_.set.box();
}

// Pattern screening on the a priori cohort tubes (valid on the step by the first-exit argument of
// the a priori phase): members with rho_j <= delta get the exact test on Phi_tube psi_j; a member
// whose sign may change leaves (lump_remove). A long list of close members triggers a new reference
// at t0 first. Returns whether some member left (the a priori phase is then redone).
bool Engine::lump_screen(std::vector<I>& X, double t0) {
    const std::size_t S = pb_.S, n = pb_.n;
    bool any = false;
    std::vector<I> th(S);
    for (std::size_t c = 0; c < lump_.cohorts.size(); ++c) {
        LumpedCohort& co = lump_.cohorts[c];
        const std::uint64_t key = lump_.patterns[co.pattern].key;
        double delta = lump_screen_delta(co);
        auto close_count = [&] {
            std::size_t close = 0;
            while (close < co.by_margin.size() && !(co.rho[co.by_margin[close]] > delta)) ++close;
            return close;
        };
        std::size_t close = close_count();
        if (close > std::max<std::size_t>(32, co.members.size() / 16) && co.ref_time != t0) {
            lump_rereference(co, t0);
            delta = lump_screen_delta(co);
            close = close_count();
        }
        std::vector<std::size_t> leave;
        for (std::size_t i = 0; i < close; ++i) {
            const std::size_t pos = co.by_margin[i];
            mat_vec(co.Phi_tube, &co.psi[pos * S], S, th.data());
            for (std::size_t k = 0; k < n; ++k)
                if (sign_code(pb_.preactivation(th.data(), k)) != code_in_key(key, k)) {
                    leave.push_back(pos);
                    break;
                }
        }
        if (leave.empty()) continue;
        lump_remove(c, leave, X);
        any = true;
    }
    return any;
}

// The Lohner step of the moments with the individually treated neurons as a bounded input u_k =
// p_k - y_k over the step (their outputs on the tight tube N_j), and the classes' part of the
// residual Taylor models.
bool Engine::lump_lohner(StepOutcome& out) {
    const std::size_t d = pb_.d, n = pb_.n, Q = moment_size(d);
    std::vector<I> U;
    residual_of(N_, U, nullptr);
    ode::LohnerStepInput in;
    in.h = delta_;
    in.order = p_;
    in.apriori = lump_.W;
    in.input = U;
    if (!lump_.ev) lump_.ev.emplace(lump_.field, lump_.params);  // no class yet: the empty field
    ode::LohnerStepResult res = ode::lohner_inclusion_step(*lump_.ev, lump_.set, in);
    if (!res.ok) {
        out.fail = StepFail::validation;
        out.reason = "lumped classes: " + res.reason;
        return false;
    }
    lump_.r_models.assign(n, TimeTm{});
    for (std::size_t k = 0; k < n; ++k) {
        ode::tm_zero(lump_.r_models[k], p_);
        for (std::size_t q = 0; q < lump_.patterns.size(); ++q)
            if (lump_.patterns[q].pattern >> k & 1u)
                for (std::size_t i = 0; i < d; ++i)
                    ode::tm_axpy(lump_.r_models[k], pb_.x[k * d + i], res.model[q * Q + moment_index(i, d, d)], p_);
    }
    double scale = 0;
    for (const I& v : lump_.M_t0) scale = std::max(scale, mag(v));
    lump_.last_term = scale > 0 ? res.last_term / scale : 0;
    lump_.next = std::move(res.end);
    return true;
}

// Phi_S(t1, t0) column by column as a single-neuron Taylor model of theta' = K_S(g(s)) theta from
// e_i, driven by the validated residual models G_ (every member has pattern S on the step:
// screened), intersected with the a priori box; each cohort: Phi_c(t1) = Phi_S(t1, t0) Phi_c(t0).
bool Engine::lump_transitions(StepOutcome& out) {
    const std::size_t S = pb_.S, n = pb_.n;
    const double H = P_.s.upper();
    std::vector<TimeTm> T;
    TmPowers Ps;
    std::vector<I> e(S);
    std::vector<unsigned char> codes(n);
    for (LumpedPattern& lp : lump_.patterns) {
        for (std::size_t k = 0; k < n; ++k) codes[k] = static_cast<unsigned char>(code_in_key(lp.key, k));
        lp.step_end.resize(S * S);
        lp.step_tube.resize(S * S);
        for (std::size_t col = 0; col < S; ++col) {
            for (std::size_t i = 0; i < S; ++i) e[i] = I(i == col ? 1 : 0);
            if (!neuron_tm(e.data(), 0.0, H, codes.data(), G_, T, Ps)) {
                out.fail = StepFail::validation;
                out.reason = "lumped class " + std::to_string(lp.pattern) + ": Taylor model of the transition matrix failed";
                return false;
            }
            for (std::size_t i = 0; i < S; ++i) {
                const I& apriori = lp.Phi_step_box[i * S + col];
                I o;
                const I end = ode::poly_at(T[i].c, p_, delta_) + T[i].r, tube = ode::tm_range(T[i], Ps);
                lp.step_end[i * S + col] = intersect(end, apriori, o) ? o : end;
                lp.step_tube[i * S + col] = intersect(tube, apriori, o) ? o : tube;
            }
        }
    }
    for (LumpedCohort& co : lump_.cohorts) {
        const LumpedPattern& lp = lump_.patterns[co.pattern];
        co.Phi_end = mat_mul(lp.step_end, co.Phi, S);
        const std::vector<I> tube = mat_mul(lp.step_tube, co.Phi, S);
        for (std::size_t i = 0; i < S * S; ++i) {
            I o;
            if (intersect(tube[i], co.Phi_tube[i], o)) co.Phi_tube[i] = o;
        }
    }
    return true;
}

// End states and tubes of the lumped neurons (lumping.neuron_tubes): Phi_c psi_j.
void Engine::lump_neuron_states() {
    const std::size_t S = pb_.S;
    for (const LumpedCohort& co : lump_.cohorts)
        ode::parallel_for(co.members.size(), pb_.threads, [&](std::size_t p) {
            const std::size_t j = co.members[p];
            mat_vec(co.Phi_end, &co.psi[p * S], S, &end_[j * S]);
            mat_vec(co.Phi_tube, &co.psi[p * S], S, &tube_[j * S]);
        });
}

// Commits the attempt: the moments at t1, every cohort's Phi_c(t1); empty cohorts are dropped; the
// join counters of the individual neurons (smooth with the same pattern on consecutive steps).
void Engine::lump_accept() {
    if (opt_.lumping.from == std::numeric_limits<double>::infinity()) return;
    // the individuals of the accepted attempt (classify set kind_ for each; the frozen and lumped
    // neurons' counters are never read: a neuron that leaves a class restarts at 0, lump_remove)
    for (std::uint32_t j : individuals()) {
        if (kind_[j] != kSmooth) {
            stable_[j] = 0;
            continue;
        }
        std::uint64_t key = 0;
        for (std::size_t k = 0; k < pb_.n; ++k) key |= static_cast<std::uint64_t>(code_[j * pb_.n + k]) << (2 * k);
        stable_[j] = key == stable_key_[j] ? stable_[j] + 1 : 1;
        stable_key_[j] = key;
    }
    if (!lump_.formed || !lump_.next) return;
    lump_.set = std::move(*lump_.next);
    lump_.next.reset();
    lump_.M_t0 = lump_.set.box();
    for (LumpedCohort& co : lump_.cohorts) co.Phi = co.Phi_end;
    lump_.cohorts.erase(std::remove_if(lump_.cohorts.begin(), lump_.cohorts.end(),
                                       [](const LumpedCohort& co) { return co.members.empty(); }),
                        lump_.cohorts.end());
}

void Engine::lump_recover(std::vector<I>& X) const {
    const std::size_t S = pb_.S;
    for (const LumpedCohort& co : lump_.cohorts)
        for (std::size_t p = 0; p < co.members.size(); ++p) mat_vec(co.Phi, &co.psi[p * S], S, &X[co.members[p] * S]);
}

}  // namespace flowcert::nets::flow
