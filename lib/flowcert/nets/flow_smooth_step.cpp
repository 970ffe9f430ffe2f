// Coupled Taylor models of the smooth neurons (docs/nonsmooth-flow.md, section 3): the polynomial
// parts by the order-by-order recurrence of the coupled system (residual coefficients summed over
// neurons per activation pattern), the remainders by the Schauder/Picard inclusion in Taylor-model
// arithmetic, with the residual Taylor models G_k shared by all neurons.
#define FLOWCERT_NETS_FLOW_INTERNAL
#include "flow_engine.hpp"
#undef FLOWCERT_NETS_FLOW_INTERNAL

#include <algorithm>

namespace flowcert::nets::flow {

using ode::tm_add_to;
using ode::tm_axpy;
using ode::tm_integrate;
using ode::tm_mul;
using ode::tm_zero;
using ode::widen;

// The pattern-level part of order `ord` of the recurrence: from Su (per pattern u and component i, the
// order-ord coefficient of the sum of a_j w_j over its members) the residual coefficient G_k of that
// order (summed over the processes, plus the lumped classes, the hull constants and -y_k at order 0)
// and the coefficients D_u(s)_i of that order, into Dc (U * d).
void Engine::pattern_coefficients(const std::vector<I>& Su, std::size_t U, int ord, std::vector<I>& Dc) const {
    const std::size_t d = pb_.d, n = pb_.n;
    const I one(1);
    std::vector<I> G(n);
    for (std::size_t k = 0; k < n; ++k) {
        I g(0);
        for (std::size_t u = 0; u < U; ++u)
            g += eta_of(pb_, code_in_key(pattern_keys_[u], k), one) * pb_.preactivation(&Su[u * d], k);
        G[k] = g;
    }
    pb_.sum(G);  // residual coefficient of order `ord`, summed over the processes' neurons
    if (lump_.formed)  // the lumped classes' part of the residual (its polynomial coefficients)
        for (std::size_t k = 0; k < n; ++k) G[k] += lump_.r_models[k].c[ord];
    if (ord == 0)
        for (std::size_t k = 0; k < n; ++k) G[k] += K_[k] - pb_.y[k];
    for (std::size_t u = 0; u < U; ++u)
        for (std::size_t i = 0; i < d; ++i) {
            I acc(0);
            for (std::size_t k = 0; k < n; ++k)
                acc += eta_of(pb_, code_in_key(pattern_keys_[u], k), one) * G[k] * pb_.x[k * d + i];
            Dc[u * d + i] = -(pb_.c * acc);
        }
}

// Order ord + 1 of one smooth state th (S models, pattern u) of the linear field w' = a D_u,
// a' = <w, D_u> [BF2025, eq. (6)], from the D_u coefficients of orders 0..ord.
void Engine::advance_coefficients(TimeTm* th, std::size_t u, int ord, const std::vector<std::vector<I>>& Dc) const {
    const std::size_t d = pb_.d;
    TimeTm& A = th[d];
    I da(0);
    for (std::size_t i = 0; i < d; ++i) {
        TimeTm& W = th[i];
        I dw(0);
        for (int l = 0; l <= ord; ++l) {
            da += W.c[l] * Dc[ord - l][u * d + i];
            dw += A.c[l] * Dc[ord - l][u * d + i];
        }
        W.c[ord + 1] = dw / (ord + 1);
    }
    A.c[ord + 1] = da / (ord + 1);  // reads A.c[l] for l <= ord only
}

// Taylor coefficients of the smooth neurons (order by order, summing the residual coefficients
// over neurons per activation pattern): the polynomial parts of the Taylor models.
void Engine::recurrence(const std::vector<I>& X, std::size_t U) {
    const std::size_t S = pb_.S, d = pb_.d;
    const int p = p_;
    std::vector<std::vector<I>> Dc(static_cast<std::size_t>(p) + 1, std::vector<I>(U * d));
    for (std::uint32_t j : smooth_) {
        for (std::size_t i = 0; i < S; ++i) {
            TimeTm& t = tm_[j * S + i];
            t.c[0] = X[j * S + i];
            for (int l = 1; l <= p; ++l) t.c[l] = I(0);
            t.r = I(0);
        }
    }
    for (int ord = 0; ord < p; ++ord) {
        // per pattern u and component i: sum over its neurons of the order-ord coefficient of a_j w_j
        const std::vector<I> Su = list_sum<I>(
            smooth_, U * d, I(0),
            [&](std::size_t j, I* acc) {
                const TimeTm& A = tm_[j * S + d];
                const std::size_t u = pattern_[j];
                for (std::size_t i = 0; i < d; ++i) {
                    const TimeTm& W = tm_[j * S + i];
                    I a = A.c[0] * W.c[ord];
                    for (int l = 1; l <= ord; ++l) a += A.c[l] * W.c[ord - l];
                    acc[u * d + i] += a;
                }
            },
            [](I& o, const I& v) { o += v; });
        pattern_coefficients(Su, U, ord, Dc[ord]);
        for_list_chunks(smooth_, [&](std::size_t, std::size_t p0, std::size_t p1) {
            for (std::size_t p = p0; p < p1; ++p) advance_coefficients(&tm_[smooth_[p] * S], pattern_[smooth_[p]], ord, Dc);
        });
    }
}

// Residual Taylor models G_k(s) from the current neuron Taylor models, and D_u(s) per pattern.
void Engine::residual_tm(std::size_t U) {
    const std::size_t S = pb_.S, d = pb_.d;
    const int p = p_;
    TimeTm zero;
    tm_zero(zero, p);
    const std::vector<TimeTm> Su = list_sum<TimeTm>(
        smooth_, U * d, zero,
        [&](std::size_t j, TimeTm* acc) {
            TimeTm prod;
            const std::size_t u = pattern_[j];
            for (std::size_t i = 0; i < d; ++i) {
                tm_mul(tm_[j * S + d], tm_[j * S + i], P_, prod);  // a_j w_j
                tm_add_to(acc[u * d + i], prod, p);
            }
        },
        [p](TimeTm& o, const TimeTm& v) { tm_add_to(o, v, p); });
    residual_models_from(Su, U);
}

// G_k(s) (summed over the processes, plus the lumped classes, the hull constants and -y_k) and
// D_u(s) per pattern from Su: per pattern u and component i, a Taylor model of the sum of a_j w_j
// over the pattern's smooth neurons.
void Engine::residual_models_from(const std::vector<TimeTm>& Su, std::size_t U) {
    const std::size_t d = pb_.d, n = pb_.n;
    const int p = p_;
    const I one(1);
    G_.assign(n, TimeTm{});
    for (std::size_t k = 0; k < n; ++k) {
        TimeTm& g = G_[k];
        tm_zero(g, p);
        for (std::size_t u = 0; u < U; ++u) {
            const I& eta = eta_of(pb_, code_in_key(pattern_keys_[u], k), one);
            for (std::size_t i = 0; i < d; ++i) tm_axpy(g, eta * pb_.x[k * d + i], Su[u * d + i], p);
        }
    }
    if (pb_.part) {
        // Sum over processes of the residual models: the sum of Taylor models (coefficient-wise
        // and remainder-wise interval sums) contains the sum of their functions.
        std::vector<I> buf(n * (static_cast<std::size_t>(p) + 2));
        for (std::size_t k = 0; k < n; ++k) {
            for (int i = 0; i <= p; ++i) buf[k * (p + 2) + i] = G_[k].c[i];
            buf[k * (p + 2) + p + 1] = G_[k].r;
        }
        pb_.sum(buf);
        for (std::size_t k = 0; k < n; ++k) {
            for (int i = 0; i <= p; ++i) G_[k].c[i] = buf[k * (p + 2) + i];
            G_[k].r = buf[k * (p + 2) + p + 1];
        }
    }
    if (lump_.formed)  // the lumped classes' residual models (valid for every solution, lump_lohner)
        for (std::size_t k = 0; k < n; ++k) ode::tm_add_to(G_[k], lump_.r_models[k], p);
    for (std::size_t k = 0; k < n; ++k) G_[k].c[0] += K_[k] - pb_.y[k];
    D_.assign(U * d, TimeTm{});
    for (std::size_t u = 0; u < U; ++u)
        for (std::size_t i = 0; i < d; ++i) {
            TimeTm& D = D_[u * d + i];
            tm_zero(D, p);
            for (std::size_t k = 0; k < n; ++k)
                tm_axpy(D, -(pb_.c * eta_of(pb_, code_in_key(pattern_keys_[u], k), one) * pb_.x[k * d + i]), G_[k], p);
        }
}

// The Picard image of one smooth state th (S models, pattern u, start x0) under the shared residual
// models: the remainders it needs, into newr; whether they lie in th's remainders.
bool Engine::validate_state(const TimeTm* th, const I* x0, std::size_t u, I* newr) const {
    const std::size_t d = pb_.d;
    TimeTm prod, sum, img;
    bool ok = true;
    tm_zero(sum, p_);
    for (std::size_t i = 0; i < d; ++i) {
        tm_mul(th[i], D_[u * d + i], P_, prod);  // <w, D>
        tm_add_to(sum, prod, p_);
    }
    tm_integrate(sum, x0[d], P_, img);
    newr[d] = ode::needed_remainder(img, th[d], P_);
    if (!subset(newr[d], th[d].r)) ok = false;
    for (std::size_t i = 0; i < d; ++i) {
        tm_mul(th[d], D_[u * d + i], P_, prod);  // a D
        tm_integrate(prod, x0[i], P_, img);
        newr[i] = ode::needed_remainder(img, th[i], P_);
        if (!subset(newr[i], th[i].r)) ok = false;
    }
    return ok;
}

// One Schauder pass over this process's smooth neurons: the image of every neuron's model under
// the Picard operator (with the shared residual models) must lie in the model; a neuron whose
// image does not fit gets the needed remainder (widened). Returns whether every local neuron fits.
bool Engine::validate_pass(const std::vector<I>& X) {
    const std::size_t S = pb_.S;
    std::vector<char> okc((smooth_.size() + ode::kBlockChunk - 1) / ode::kBlockChunk, 1);
    for_list_chunks(smooth_, [&](std::size_t ch, std::size_t p0, std::size_t p1) {
        for (std::size_t p = p0; p < p1; ++p) {
            const std::size_t j = smooth_[p];
            const bool ok = validate_state(&tm_[j * S], &X[j * S], pattern_[j], &newr_[j * S]);
            newr_ok_[j] = ok ? 1 : 0;
            if (!ok) okc[ch] = 0;
        }
    });
    const bool local_valid = std::all_of(okc.begin(), okc.end(), [](char c) { return c != 0; });
    if (!local_valid)
        for (std::uint32_t j : smooth_)
            if (!newr_ok_[j]) widen_remainders(&tm_[j * S], &newr_[j * S]);
    return local_valid;
}

// A state that did not fit gets the remainders its image needs, widened (a heuristic guess; the
// next pass validates it).
void Engine::widen_remainders(TimeTm* th, const I* newr) const {
    for (std::size_t i = 0; i < pb_.S; ++i) th[i].r = widen(hull(newr[i], th[i].r), 0.1, 1e-300);
}

// Taylor models of the smooth neurons, coupled through the residual models (section 3).
bool Engine::smooth_models(const std::vector<I>& X, StepOutcome& out) {
    recurrence(X, pattern_keys_.size());
    return remainder_passes(X, false, out);
}

// The Schauder passes (at most 8): residual models from the current models, then every smooth state's
// image must lie in its model (a state that does not fit gets wider remainders for the next pass).
// by_class: the states are the columns of the patterns' transition matrices (section 3c).
bool Engine::remainder_passes(const std::vector<I>& X, bool by_class, StepOutcome& out) {
    const std::size_t U = pattern_keys_.size();
    bool valid = false;
    for (int it = 0; it < 8 && !valid; ++it) {
        ++out.validation_iterations;
        if (by_class) class_residual_tm(U);
        else residual_tm(U);
        valid = pb_.all(by_class ? class_validate_pass(U) : validate_pass(X));  // collective: shared residual models
    }
    if (!valid) {
        out.fail = StepFail::validation;
        out.reason = by_class ? "Taylor-model remainder validation of the class transition matrices failed"
                              : "Taylor-model remainder validation of the coupled smooth neurons failed";
    }
    return valid;
}

// Hull neurons: the Schauder set fixes them in C([0,H], B_j); check T maps it into itself:
// X_j + [0,H] F(B_j, range of G) inside B_j.
bool Engine::hull_boxes_hold(const std::vector<I>& X, StepOutcome& out) {
    const std::size_t S = pb_.S, n = pb_.n;
    std::vector<I> Grange(n);
    for (std::size_t k = 0; k < n; ++k) Grange[k] = ode::tm_range(G_[k], P_);
    std::string hull_box_reason;
    for (std::size_t q = 0; q < hull_.size() && hull_box_reason.empty(); ++q) {
        const std::size_t j = hull_[q];
        std::vector<I> F(S);
        field_box(pb_, &B_[j * S], Grange.data(), F.data());
        for (std::size_t i = 0; i < S; ++i)
            if (!subset(X[j * S + i] + P_.s * F[i], B_[j * S + i])) {
                hull_box_reason = "hull neuron " + pb_.neuron_name(j) + " leaves its box under the residual models";
                break;
            }
    }
    if (!pb_.all(hull_box_reason.empty())) {
        out.fail = StepFail::validation;
        out.reason = hull_box_reason.empty() ? "a hull neuron of another process leaves its box under the residual "
                                               "models"
                                             : hull_box_reason;
        return false;
    }
    return true;
}

}  // namespace flowcert::nets::flow
