// Smooth neurons by the transition matrix of their activation pattern (docs/nonsmooth-flow.md,
// section 3c; FlowOptions::class_transitions). On a step, a neuron j whose signs are all certain on
// its tube N_j (pattern u) satisfies theta_j' = K_u(r(s)) theta_j exactly [BF2025, eq. (6)], so
// theta_j(s) = Phi_u(s) theta_j(t0) with Phi_u' = K_u Phi_u, Phi_u(0) = I, one matrix per pattern. Its
// columns are states of the same linear field from e_col: they get the recurrence and the Schauder
// pass of section 3 (validate_state), with residual models built from the moment box
// M_u = sum_j theta_j(t0) theta_j(t0)^T: sum_j a_j w_j,i = sum_{p,q} Phi_u,ap Phi_u,iq M_u,pq.
#define FLOWCERT_NETS_FLOW_INTERNAL
#include "flow_engine.hpp"
#undef FLOWCERT_NETS_FLOW_INTERNAL

#include <algorithm>
#include <cmath>

namespace flowcert::nets::flow {

using ode::tm_add_to;
using ode::tm_axpy;
using ode::tm_mul;
using ode::tm_zero;

// The box of M_u = sum over the pattern's smooth neurons of X_j X_j^T (this process's neurons; the
// residual models are summed over the processes afterwards). Contains sum_j xi_j xi_j^T for every
// choice of xi_j in X_j.
void Engine::class_moments(const std::vector<I>& X, std::size_t U) {
    const std::size_t S = pb_.S, SS = S * S;
    Mu_ = list_sum<I>(
        smooth_, U * SS, I(0),
        [&](std::size_t j, I* acc) {
            const I* x = &X[j * S];
            I* M = acc + pattern_[j] * SS;
            for (std::size_t p = 0; p < S; ++p) {
                M[p * S + p] += sqr(x[p]);
                for (std::size_t q = p + 1; q < S; ++q) {
                    const I v = x[p] * x[q];
                    M[p * S + q] += v;
                    M[q * S + p] += v;
                }
            }
        },
        [](I& o, const I& v) { o += v; });
    if (opt_.class_moment_scale != "1") {  // the mutation test only
        const I scale = I::from_decimal(opt_.class_moment_scale);
        for (auto& v : Mu_) v *= scale;
    }
}

// Polynomial parts of the columns of Phi_u (order by order, as `recurrence` does for neurons).
void Engine::class_recurrence(std::size_t U) {
    const std::size_t S = pb_.S, d = pb_.d, SS = S * S;
    const int p = p_;
    phi_.assign(U * SS, TimeTm{});
    for (std::size_t u = 0; u < U; ++u)
        for (std::size_t col = 0; col < S; ++col) {
            TimeTm* th = phi_column(u, col);
            for (std::size_t i = 0; i < S; ++i) th[i].c[0] = I(i == col ? 1 : 0);
        }
    std::vector<std::vector<I>> Dc(static_cast<std::size_t>(p) + 1, std::vector<I>(U * d));
    std::vector<I> Su(U * d);
    for (int ord = 0; ord < p; ++ord) {
        // order-ord coefficient of sum_{p,q} Phi_ap Phi_iq M_pq
        for (std::size_t u = 0; u < U; ++u)
            for (std::size_t i = 0; i < d; ++i) {
                I acc(0);
                for (std::size_t a = 0; a < S; ++a)
                    for (std::size_t b = 0; b < S; ++b) {
                        const TimeTm& A = phi_column(u, a)[d];
                        const TimeTm& W = phi_column(u, b)[i];
                        I c = A.c[0] * W.c[ord];
                        for (int l = 1; l <= ord; ++l) c += A.c[l] * W.c[ord - l];
                        acc += Mu_[u * SS + a * S + b] * c;
                    }
                Su[u * d + i] = acc;
            }
        pattern_coefficients(Su, U, ord, Dc[ord]);
        for (std::size_t u = 0; u < U; ++u)
            for (std::size_t col = 0; col < S; ++col) advance_coefficients(phi_column(u, col), u, ord, Dc);
    }
}

// Residual models G_k(s) and D_u(s) from the columns of Phi_u and the moment boxes: for every
// matrix function in the models and every xi_j in X_j they contain the residual of the neurons
// Phi_u(s) xi_j (the sum of the bilinear form over the pattern is the form applied to M_u).
void Engine::class_residual_tm(std::size_t U) {
    const std::size_t S = pb_.S, d = pb_.d, SS = S * S;
    const int p = p_;
    std::vector<TimeTm> Su(U * d);
    TimeTm prod;
    for (std::size_t u = 0; u < U; ++u)
        for (std::size_t i = 0; i < d; ++i) {
            TimeTm& acc = Su[u * d + i];
            tm_zero(acc, p);
            for (std::size_t a = 0; a < S; ++a)
                for (std::size_t b = 0; b < S; ++b) {
                    tm_mul(phi_column(u, a)[d], phi_column(u, b)[i], P_, prod);  // Phi_ua,a Phi_ub,i
                    tm_axpy(acc, Mu_[u * SS + a * S + b], prod, p);
                }
        }
    residual_models_from(Su, U);
}

// One Schauder pass over the columns (the Picard image of each column must lie in its model).
bool Engine::class_validate_pass(std::size_t U) {
    const std::size_t S = pb_.S;
    std::vector<I> e(S), newr(S);
    bool valid = true;
    for (std::size_t u = 0; u < U; ++u)
        for (std::size_t col = 0; col < S; ++col) {
            for (std::size_t i = 0; i < S; ++i) e[i] = I(i == col ? 1 : 0);
            TimeTm* th = phi_column(u, col);
            if (validate_state(th, e.data(), u, newr.data())) continue;
            widen_remainders(th, newr.data());
            valid = false;
        }
    return valid;
}

// Section 3c: the Schauder set is prod_u {Phi_u in its models} x the hull neurons' boxes; for the
// true initial states xi_j the operator Phi_u -> I + int K_u(r) Phi_u (r from Phi_u xi_j, hull,
// parked, lumped and frozen neurons) maps it into itself, so its unique fixed point, the true
// transition matrices, lies in it, and theta_j(s) in Phi_u(s) X_j.
bool Engine::class_models(const std::vector<I>& X, StepOutcome& out) {
    class_moments(X, pattern_keys_.size());
    class_recurrence(pattern_keys_.size());
    return remainder_passes(X, true, out);
}

// End states and tubes of the smooth neurons, Phi_u(h) X_j and Phi_u([0, H]) X_j met with the a
// priori tube (frozen and parked ones: their boxes, written when they freeze or park); returns the largest last
// Taylor term of a column (relative to |e_col| = 1, for the step-size proposal).
double Engine::class_results(const std::vector<I>& X) {
    const std::size_t S = pb_.S, SS = S * S, U = pattern_keys_.size();
    std::vector<I> at_end(U * SS), range(U * SS);  // row i, column col
    double e_max = 0;
    for (std::size_t u = 0; u < U; ++u)
        for (std::size_t col = 0; col < S; ++col)
            for (std::size_t i = 0; i < S; ++i) {
                const TimeTm& t = phi_column(u, col)[i];
                at_end[u * SS + i * S + col] = ode::poly_at(t.c, p_, delta_) + t.r;
                range[u * SS + i * S + col] = ode::tm_range(t, P_);
                e_max = std::max(e_max, mag(t.c[p_]) * std::pow(P_.s.upper(), p_));
            }
    for_list_chunks(smooth_, [&](std::size_t, std::size_t p0, std::size_t p1) {
        for (std::size_t p = p0; p < p1; ++p) {
            const std::size_t j = smooth_[p];
            I* end = &end_[j * S];
            I* tube = &tube_[j * S];
            const std::size_t u = pattern_[j];
            for (std::size_t i = 0; i < S; ++i) {
                I e(0), tb(0), o;
                for (std::size_t col = 0; col < S; ++col) {
                    e += at_end[u * SS + i * S + col] * X[j * S + col];
                    tb += range[u * SS + i * S + col] * X[j * S + col];
                }
                end[i] = intersect(e, N_[j * S + i], o) ? o : e;
                tube[i] = intersect(tb, N_[j * S + i], o) ? o : tb;
            }
        }
    });
    return e_max;
}

}  // namespace flowcert::nets::flow
