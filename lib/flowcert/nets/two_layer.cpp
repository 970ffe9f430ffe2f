// Two-layer (leaky) ReLU network of [BF2025]: model, Clarke-hull field, GD map, invariants,
// seeded initialization. See two_layer.hpp.
#include "flowcert/nets/two_layer.hpp"

#include <gmp.h>

#include <stdexcept>

#include "flowcert/nets/random.hpp"

namespace flowcert::nets {

namespace {

// Exact sign of a rational string (after validation), or nullopt-like 2 on malformed input.
int rational_sign(const std::string& s, bool& ok) {
    mpq_t q;
    mpq_init(q);
    ok = !parse_rational(s, q).has_value();
    const int sg = ok ? mpq_sgn(q) : 0;
    mpq_clear(q);
    return sg;
}

// -1, 0, +1 for q - 1.
int compare_with_one(const std::string& s) {
    mpq_t q;
    mpq_init(q);
    parse_rational(s, q);
    const int c = mpq_cmp_ui(q, 1, 1);
    mpq_clear(q);
    return c;
}

}  // namespace

std::string spec_problem(const TwoLayerSpec& spec) {
    if (spec.x.empty()) return "no data points";
    if (spec.y.size() != spec.x.size())
        return "x has " + std::to_string(spec.x.size()) + " rows but y has " + std::to_string(spec.y.size());
    const std::size_t din = spec.x.front().size();
    if (din == 0 && !spec.bias) return "inputs have dimension 0";
    for (std::size_t k = 0; k < spec.x.size(); ++k) {
        if (spec.x[k].size() != din) return "row " + std::to_string(k) + " of x has a different length";
        for (const auto& s : spec.x[k])
            if (!is_number(s)) return "x[" + std::to_string(k) + "] entry '" + s + "' is not a number";
        if (!is_number(spec.y[k])) return "y[" + std::to_string(k) + "] = '" + spec.y[k] + "' is not a number";
    }
    bool ok = false;
    const int gs = rational_sign(spec.gamma, ok);
    if (!ok) return "gamma '" + spec.gamma + "' is not a number";
    if (gs < 0 || compare_with_one(spec.gamma) > 0) return "gamma must lie in [0, 1]";
    if (!spec.risk_weight.empty()) {
        const int cs = rational_sign(spec.risk_weight, ok);
        if (!ok) return "risk_weight '" + spec.risk_weight + "' is not a number";
        if (cs <= 0) return "risk_weight must be positive";
    }
    return {};
}

template <Interval I>
TwoLayerModel<I>::TwoLayerModel(const TwoLayerSpec& spec, long bits) : spec_(spec), bits_(bits) {
    if (const std::string p = spec_problem(spec); !p.empty()) throw std::invalid_argument(p);
    using T = IntervalTraits<I>;
    n_ = spec.x.size();
    d_ = spec.x.front().size() + (spec.bias ? 1 : 0);
    x_.reserve(n_ * d_);
    for (std::size_t k = 0; k < n_; ++k) {
        for (const auto& s : spec.x[k]) x_.push_back(T::from_decimal(s, bits));
        if (spec.bias) x_.push_back(T::from_integer(1, bits));
        y_.push_back(T::from_decimal(spec.y[k], bits));
    }
    gamma_ = T::from_decimal(spec.gamma, bits);
    bool ok = false;
    gamma_zero_ = rational_sign(spec.gamma, ok) == 0;
    const std::string c = spec.risk_weight.empty() ? "1/" + std::to_string(n_) : spec.risk_weight;
    c_ = T::from_decimal(c, bits);
    loss_ = spec.loss;
}

template <Interval I>
I TwoLayerModel<I>::sigma(const I& z) const {
    return leaky_relu(z, gamma_);
}

template <Interval I>
I TwoLayerModel<I>::sigma_prime_hull(const I& z) const {
    if (certainly_positive(z)) return one();
    if (certainly_negative(z)) return gamma_;
    return hull(gamma_, one());  // Clarke: sigma'(0) anywhere in [gamma, 1]
}

template <Interval I>
I TwoLayerModel<I>::loss_derivative(const I& y_hat, const I& y) const {
    if (loss_ == LossKind::half_square) return y_hat - y;
    // d/dy_hat ln(1 + e^{-y_hat y}) = -y / (1 + e^{y_hat y})
    return -y / (one() + exp(y_hat * y));
}

template <Interval I>
I TwoLayerModel<I>::loss_value(const I& y_hat, const I& y) const {
    if (loss_ == LossKind::half_square) {
        const I r = y_hat - y;
        return sqr(r) / 2;
    }
    return log1p(exp(-(y_hat * y)));
}

template <Interval I>
std::vector<I> preactivations(const TwoLayerModel<I>& model, const TwoLayerParams<I>& theta) {
    if (theta.d != model.d()) throw std::invalid_argument("parameter dimension differs from the data dimension");
    const std::size_t n = model.n(), d = model.d();
    std::vector<I> s(theta.m * n, model.zero());
    for (std::size_t j = 0; j < theta.m; ++j)
        for (std::size_t k = 0; k < n; ++k) {
            I acc = theta.W(j, 0) * model.x(k, 0);
            for (std::size_t i = 1; i < d; ++i) acc += theta.W(j, i) * model.x(k, i);
            s[j * n + k] = acc;
        }
    return s;
}

template <Interval I>
std::vector<Activation> activation_states(const TwoLayerModel<I>& model, const TwoLayerParams<I>& theta) {
    const std::vector<I> s = preactivations(model, theta);
    std::vector<Activation> out(s.size(), Activation::undecided);
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (certainly_positive(s[i])) out[i] = Activation::certainly_positive;
        else if (certainly_negative(s[i])) out[i] = Activation::certainly_negative;
    }
    return out;
}

namespace {
template <Interval I>
std::vector<I> outputs_from(const TwoLayerModel<I>& model, const TwoLayerParams<I>& theta, const std::vector<I>& s) {
    const std::size_t n = model.n();
    std::vector<I> h(n, model.zero());
    for (std::size_t j = 0; j < theta.m; ++j)
        for (std::size_t k = 0; k < n; ++k) h[k] += theta.a[j] * model.sigma(s[j * n + k]);
    return h;
}
}  // namespace

template <Interval I>
std::vector<I> outputs(const TwoLayerModel<I>& model, const TwoLayerParams<I>& theta) {
    return outputs_from(model, theta, preactivations(model, theta));
}

template <Interval I>
std::vector<I> loss_derivatives(const TwoLayerModel<I>& model, const TwoLayerParams<I>& theta) {
    std::vector<I> h = outputs(model, theta);
    for (std::size_t k = 0; k < h.size(); ++k) h[k] = model.loss_derivative(h[k], model.y(k));
    return h;
}

template <Interval I>
I risk(const TwoLayerModel<I>& model, const TwoLayerParams<I>& theta) {
    const std::vector<I> h = outputs(model, theta);
    I acc = model.zero();
    for (std::size_t k = 0; k < h.size(); ++k) acc += model.loss_value(h[k], model.y(k));
    return model.risk_weight() * acc;
}

template <Interval I>
FieldEnclosure<I> vector_field(const TwoLayerModel<I>& model, const TwoLayerParams<I>& theta) {
    const std::size_t n = model.n(), d = model.d(), m = theta.m;
    const std::vector<I> s = preactivations(model, theta);
    const std::vector<I> h = outputs_from(model, theta, s);
    // rho_k = c * d1 loss(h_k, y_k)  [BF2025, eq. (6) with the risk weight c]
    std::vector<I> rho(n, model.zero());
    for (std::size_t k = 0; k < n; ++k) rho[k] = model.risk_weight() * model.loss_derivative(h[k], model.y(k));

    // Per-sample products precomputed once (O(n d)), so a (neuron, sample) pair costs only
    // additions for the w-field: rho_k eta x_k for eta = 1, gamma and the Clarke hull [gamma, 1].
    const I eta_hull = hull(model.gamma(), model.one());
    std::vector<I> rx_pos(n * d, model.zero()), rx_neg(n * d, model.zero()), rx_und(n * d, model.zero());
    std::vector<I> rho_gamma(n, model.zero());
    for (std::size_t k = 0; k < n; ++k) {
        rho_gamma[k] = rho[k] * model.gamma();
        const I rho_hull = rho[k] * eta_hull;
        for (std::size_t i = 0; i < d; ++i) {
            rx_pos[k * d + i] = rho[k] * model.x(k, i);
            rx_neg[k * d + i] = rho_gamma[k] * model.x(k, i);
            rx_und[k * d + i] = rho_hull * model.x(k, i);
        }
    }

    FieldEnclosure<I> out;
    out.dtheta = TwoLayerParams<I>(m, d, model.zero());
    out.frozen.assign(m, 0);
    std::vector<I> g(d, model.zero());
    for (std::size_t j = 0; j < m; ++j) {
        bool all_negative = true;
        I da = model.zero();
        for (std::size_t i = 0; i < d; ++i) g[i] = model.zero();
        for (std::size_t k = 0; k < n; ++k) {
            const I& z = s[j * n + k];
            const I* rx;
            if (certainly_positive(z)) {
                all_negative = false;
                da -= rho[k] * z;  // -c l'_k sigma(z), sigma(z) = z
                rx = &rx_pos[k * d];
            } else if (certainly_negative(z)) {
                da -= rho_gamma[k] * z;  // sigma(z) = gamma z
                rx = &rx_neg[k * d];
            } else {
                all_negative = false;
                ++out.undecided_pairs;
                da -= rho[k] * model.sigma(z);
                rx = &rx_und[k * d];  // eta in the Clarke hull [gamma, 1]
            }
            for (std::size_t i = 0; i < d; ++i) g[i] += rx[i];
        }
        if (all_negative && model.gamma_is_zero()) {
            out.frozen[j] = 1;  // sigma = sigma' = 0 on a neighbourhood: exactly zero field
            continue;
        }
        out.dtheta.a[j] = da;
        for (std::size_t i = 0; i < d; ++i) out.dtheta.W(j, i) = -(theta.a[j] * g[i]);  // -a_j c sum_k l'_k eta x_k
    }
    return out;
}

template <Interval I>
TwoLayerParams<I> gd_step(const TwoLayerModel<I>& model, const TwoLayerParams<I>& theta, const I& step) {
    if (!certainly_positive(step)) throw std::invalid_argument("gd_step: the step must be certainly positive");
    const FieldEnclosure<I> f = vector_field(model, theta);
    TwoLayerParams<I> out = theta;
    for (std::size_t j = 0; j < theta.m; ++j) {
        if (f.frozen[j]) continue;
        out.a[j] += step * f.dtheta.a[j];
        for (std::size_t i = 0; i < theta.d; ++i) out.W(j, i) += step * f.dtheta.W(j, i);
    }
    return out;
}

template <Interval I>
std::vector<I> balancedness(const TwoLayerParams<I>& theta) {
    std::vector<I> out;
    out.reserve(theta.m);
    for (std::size_t j = 0; j < theta.m; ++j) {
        I v = sqr(theta.a[j]);
        for (std::size_t i = 0; i < theta.d; ++i) v -= sqr(theta.W(j, i));
        out.push_back(v);
    }
    return out;
}

template <Interval I>
Initialization<I> initialize(const InitSpec& spec, std::size_t d, long bits) {
    using T = IntervalTraits<I>;
    if (spec.m == 0) throw std::invalid_argument("initialize: m must be positive");
    if (d == 0) throw std::invalid_argument("initialize: d must be positive");
    if (!is_number(spec.lambda)) throw std::invalid_argument("initialize: lambda '" + spec.lambda + "' is not a number");
    const I lambda = T::from_decimal(spec.lambda, bits);
    if (!certainly_positive(lambda)) throw std::invalid_argument("initialize: lambda must be positive");
    const I scale = spec.divide_by_sqrt_m ? lambda / sqrt(T::from_integer(static_cast<long long>(spec.m), bits)) : lambda;
    const I zero = T::from_integer(0, bits);
    const I one = T::from_integer(1, bits);

    Initialization<I> out;
    out.theta = TwoLayerParams<I>(spec.m, d, zero);
    out.w_tilde.assign(spec.m * d, 0.0);
    out.a_sign.assign(spec.m, 0.0);
    out.eq4_holds = true;
    I running = zero;
    I best = zero;
    for (std::size_t j = 0; j < spec.m; ++j) {
        RandomStream rw(spec.seed, "bf.init.w", j);
        RandomStream ra(spec.seed, "bf.init.a", j);
        double* wt = &out.w_tilde[j * d];
        I norm2 = zero;
        if (spec.kind == InitKind::dominated_uniform_ball) {
            // Rejection sampling from the cube [-1, 1)^d; accept only if |w~|^2 < 1 is certified.
            for (;;) {
                norm2 = zero;
                for (std::size_t i = 0; i < d; ++i) {
                    wt[i] = rw.uniform_pm1();
                    norm2 += sqr(T::exact(wt[i], bits));
                }
                if (certainly_less(norm2, one)) break;
            }
        } else {
            for (std::size_t i = 0; i < d; ++i) {
                wt[i] = rw.gaussian();
                norm2 += sqr(T::exact(wt[i], bits));
            }
        }
        I a_tilde = zero;
        if (spec.kind == InitKind::unbalanced_gaussian) {
            out.a_sign[j] = ra.gaussian();
            a_tilde = T::exact(out.a_sign[j], bits);
            if (!certainly_less_equal(norm2, sqr(a_tilde))) {
                out.eq4_holds = false;
                if (certainly_less(sqr(a_tilde), norm2)) ++out.eq4_violations;
            }
        } else {
            out.a_sign[j] = (ra.next_u64() >> 63) ? -1.0 : 1.0;
            const I s = T::exact(out.a_sign[j], bits);
            a_tilde = spec.kind == InitKind::balanced_gaussian ? s * sqrt(norm2) : s;  // eq. (4)
        }
        out.theta.a[j] = scale * a_tilde;  // eq. (3)
        for (std::size_t i = 0; i < d; ++i) out.theta.W(j, i) = scale * T::exact(wt[i], bits);
        // eq. (5): (1/k) sum_{j <= k} a~_j^2
        running += spec.kind == InitKind::balanced_gaussian ? norm2 : sqr(a_tilde);
        const I mean = running / T::from_integer(static_cast<long long>(j + 1), bits);
        best = j == 0 ? mean : max(best, mean);
    }
    out.eq5_max_running_mean = best;
    out.eq5_certified = certainly_less_equal(best, one);
    return out;
}

template class TwoLayerModel<IntervalD>;
template class TwoLayerModel<IntervalMp>;
#define FLOWCERT_TWO_LAYER_INST(I)                                                                \
    template std::vector<I> preactivations(const TwoLayerModel<I>&, const TwoLayerParams<I>&);   \
    template std::vector<Activation> activation_states(const TwoLayerModel<I>&,                 \
                                                       const TwoLayerParams<I>&);               \
    template std::vector<I> outputs(const TwoLayerModel<I>&, const TwoLayerParams<I>&);          \
    template std::vector<I> loss_derivatives(const TwoLayerModel<I>&, const TwoLayerParams<I>&); \
    template I risk(const TwoLayerModel<I>&, const TwoLayerParams<I>&);                          \
    template FieldEnclosure<I> vector_field(const TwoLayerModel<I>&, const TwoLayerParams<I>&);  \
    template TwoLayerParams<I> gd_step(const TwoLayerModel<I>&, const TwoLayerParams<I>&, const I&); \
    template std::vector<I> balancedness(const TwoLayerParams<I>&);                              \
    template Initialization<I> initialize(const InitSpec&, std::size_t, long);
FLOWCERT_TWO_LAYER_INST(IntervalD)
FLOWCERT_TWO_LAYER_INST(IntervalMp)
#undef FLOWCERT_TWO_LAYER_INST

}  // namespace flowcert::nets
