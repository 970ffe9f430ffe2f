// Gradient-flow fields of homogeneous models as Taylor DAGs (see homogeneous_flow.hpp).
#include <flowcert/nets/homogeneous_flow.hpp>

#include <functional>
#include <stdexcept>
#include <string>

namespace flowcert::nets {
namespace {

using taylor::Expr;
using taylor::VectorField;

VectorField make_field(const HomogeneousArchitecture& arch, int n) {
    arch.validate();
    if (n < 1) throw std::invalid_argument("homogeneous flow: need at least one sample");
    const int d = arch.input_dim, P = arch.parameter_count();
    std::vector<std::string> vars, pars;
    for (int j = 0; j < P; ++j) vars.push_back(arch.parameter_name(j));
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < d; ++k) pars.push_back("x_" + std::to_string(k) + "_" + std::to_string(i));
    for (int i = 0; i < n; ++i) pars.push_back("y_" + std::to_string(i));
    return VectorField(std::move(vars), std::move(pars));
}

// Sum of term(i) over the samples (the DAG has no zero node to start from).
Expr sample_sum(int n, const std::function<Expr(int)>& term) {
    Expr s = term(0);
    for (int i = 1; i < n; ++i) s = s + term(i);
    return s;
}

// Builds f_j = sum_i r_i dH(x_i; w)/dw_j for every parameter j, where r_i = weight(i, H_i) and
// H_i = H(x_i; w) is given to `weight` as an expression (built only when the weight needs it).
// Each family is written in factored form (derivatives [KH2025, eq. (2)], computed by hand):
std::vector<Expr> weighted_jacobian_transpose(VectorField& f, const HomogeneousArchitecture& arch, int n,
                                              const std::function<Expr(int, const std::function<Expr()>&)>& weight) {
    const int d = arch.input_dim, P = arch.parameter_count();
    auto x = [&](int k, int i) { return f.par(i * d + k); };
    std::vector<Expr> rhs;
    rhs.reserve(static_cast<std::size_t>(P));

    switch (arch.kind) {
        case ModelKind::weighted_squares: {
            // H = sum_k s_k w_k^2 x_k  =>  dH/dw_k = 2 s_k w_k x_k   [KH2025, Example 1, eq. (7)]
            auto H = [&](int i) {
                return sample_sum(d, [&](int k) { return arch.signs[k] * (sqr(f.var(k)) * x(k, i)); });
            };
            std::vector<Expr> r;
            for (int i = 0; i < n; ++i) r.push_back(weight(i, [&, i] { return H(i); }));
            for (int k = 0; k < d; ++k) {
                const Expr s = sample_sum(n, [&](int i) { return r[i] * x(k, i); });
                rhs.push_back((2 * arch.signs[k]) * (f.var(k) * s));
            }
            break;
        }
        case ModelKind::diagonal: {
            // H = sum_k (prod_f u^(f)_k) x_k  =>  dH/du^(f)_k = (prod_{g != f} u^(g)_k) x_k   [spec 9A/9B]
            const int D = arch.depth;
            auto u = [&](int fct, int k) { return f.var(fct * d + k); };
            auto product_except = [&](int k, int skip) {
                int first = skip == 0 ? 1 : 0;
                Expr p = u(first, k);
                for (int g = first + 1; g < D; ++g)
                    if (g != skip) p = p * u(g, k);
                return p;
            };
            auto H = [&](int i) {
                return sample_sum(d, [&](int k) {
                    Expr p = u(0, k);
                    for (int g = 1; g < D; ++g) p = p * u(g, k);
                    return p * x(k, i);
                });
            };
            std::vector<Expr> r;
            for (int i = 0; i < n; ++i) r.push_back(weight(i, [&, i] { return H(i); }));
            std::vector<Expr> s;  // s_k = sum_i r_i x_ki
            for (int k = 0; k < d; ++k) s.push_back(sample_sum(n, [&](int i) { return r[i] * x(k, i); }));
            for (int fct = 0; fct < D; ++fct)
                for (int k = 0; k < d; ++k) rhs.push_back(D == 1 ? s[k] : product_except(k, fct) * s[k]);
            break;
        }
        case ModelKind::feed_forward: {
            if (arch.hidden.size() != 1)
                throw std::invalid_argument("homogeneous flow: feed_forward supported with one hidden layer only");
            const HomActivation act = arch.activation;
            if (act.kind == HomActivationKind::relu || (act.kind == HomActivationKind::relu_power && act.p < 2))
                throw std::invalid_argument("homogeneous flow: activation " + act.name() +
                                            " is not C^1; the smooth integrator cannot take it");
            // H = sum_j v_j s(z_j), z_j = <W_j, x>  =>  dH/dW_jk = v_j s'(z_j) x_k,  dH/dv_j = s(z_j)
            // [KH2025, eq. (9)] with one hidden layer.
            const int k1 = arch.hidden[0], voff = arch.layer_offset(2);
            auto W = [&](int j, int k) { return f.var(j * d + k); };
            auto v = [&](int j) { return f.var(voff + j); };
            std::vector<std::vector<Expr>> z(static_cast<std::size_t>(n));
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < k1; ++j) z[i].push_back(sample_sum(d, [&](int k) { return W(j, k) * x(k, i); }));
            auto s = [&](const Expr& t) {
                switch (act.kind) {
                    case HomActivationKind::square: return sqr(t);
                    case HomActivationKind::linear: return t;
                    default: return pow(relu(t), act.p);
                }
            };
            auto ds = [&](const Expr& t) {
                switch (act.kind) {
                    case HomActivationKind::square: return 2 * t;
                    case HomActivationKind::linear: return f.constant(1);
                    default: return act.p == 2 ? 2 * relu(t) : act.p * pow(relu(t), act.p - 1);
                }
            };
            std::vector<std::vector<Expr>> sz(static_cast<std::size_t>(n));
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < k1; ++j) sz[i].push_back(s(z[i][j]));
            auto H = [&](int i) { return sample_sum(k1, [&](int j) { return v(j) * sz[i][j]; }); };
            std::vector<Expr> r;
            for (int i = 0; i < n; ++i) r.push_back(weight(i, [&, i] { return H(i); }));
            for (int j = 0; j < k1; ++j) {
                std::vector<Expr> rds;  // r_i s'(z_ji)
                for (int i = 0; i < n; ++i) rds.push_back(r[i] * ds(z[i][j]));
                for (int k = 0; k < d; ++k)
                    rhs.push_back(v(j) * sample_sum(n, [&](int i) { return rds[i] * x(k, i); }));
            }
            for (int j = 0; j < k1; ++j) rhs.push_back(sample_sum(n, [&](int i) { return r[i] * sz[i][j]; }));
            break;
        }
    }
    return rhs;
}

}  // namespace

taylor::VectorField homogeneous_loss_flow_field(const HomogeneousArchitecture& arch, int n,
                                                const SquareLossNormalization& norm) {
    VectorField f = make_field(arch, n);
    const int yoff = arch.input_dim * n;
    // -dL/dH_i = 2c (y_i - H_i), c = (half ? 1/2 : 1) (mean ? 1/n : 1)   [KH2025, eq. (1)-(2)]
    const std::string two_c = std::string(norm.half ? "1" : "2") + (norm.mean ? "/" + std::to_string(n) : "");
    const Expr scale = f.constant(two_c);
    auto weight = [&](int i, const std::function<Expr()>& H) { return scale * (f.par(yoff + i) - H()); };
    f.set_rhs(weighted_jacobian_transpose(f, arch, n, weight));
    return f;
}

taylor::VectorField ncf_direction_flow_field(const HomogeneousArchitecture& arch, int n) {
    VectorField f = make_field(arch, n);
    const int yoff = arch.input_dim * n;
    auto weight = [&](int i, const std::function<Expr()>&) { return f.par(yoff + i); };
    // g = grad N(theta) [KH2025, eq. (5)]; theta' = g - (theta . g) theta, theta . g = L N(theta) by Euler (docs/kh.md)
    const std::vector<Expr> g = weighted_jacobian_transpose(f, arch, n, weight);
    Expr radial = f.var(0) * g[0];
    for (std::size_t j = 1; j < g.size(); ++j) radial = radial + f.var(static_cast<int>(j)) * g[j];
    std::vector<Expr> rhs;
    rhs.reserve(g.size());
    for (std::size_t j = 0; j < g.size(); ++j) rhs.push_back(g[j] - radial * f.var(static_cast<int>(j)));
    f.set_rhs(rhs);
    return f;
}

taylor::VectorField ncf_flow_field(const HomogeneousArchitecture& arch, int n) {
    VectorField f = make_field(arch, n);
    const int yoff = arch.input_dim * n;
    // grad N(u) = J(X; u)^T ytilde   [KH2025, eq. (5)]
    auto weight = [&](int i, const std::function<Expr()>&) { return f.par(yoff + i); };
    f.set_rhs(weighted_jacobian_transpose(f, arch, n, weight));
    return f;
}

template <Interval I>
std::vector<I> homogeneous_flow_parameters(const Mat<I>& X, const Vec<I>& y) {
    if (X.cols() != y.size()) throw std::invalid_argument("homogeneous flow: X has n columns, y n entries");
    std::vector<I> p;
    p.reserve(static_cast<std::size_t>(X.size() + y.size()));
    for (Eigen::Index i = 0; i < X.cols(); ++i)
        for (Eigen::Index k = 0; k < X.rows(); ++k) p.push_back(X(k, i));
    for (Eigen::Index i = 0; i < y.size(); ++i) p.push_back(y(i));
    return p;
}

template std::vector<IntervalD> homogeneous_flow_parameters<IntervalD>(const Mat<IntervalD>&, const Vec<IntervalD>&);
template std::vector<IntervalMp> homogeneous_flow_parameters<IntervalMp>(const Mat<IntervalMp>&,
                                                                         const Vec<IntervalMp>&);

// Logistic loss l(p, y) = ln(1 + exp(-p y)) [KH2025, Assumption 2 names it; no formula in the paper]:
//   w' = -grad L = sum_i g_i grad_w H(x_i; w),  g_i = y_i / (1 + exp(y_i H_i)),  ytilde = -l'(0, y) = y/2,
// with grad H for weighted squares (dH/dw_k = 2 s_k w_k x_k) and diagonal nets (dH/du^(f)_k = prod_{g != f} u^(g)_k x_k).
// Parameters as homogeneous_flow_parameters: x(k, i) at i*d + k, then y_i.
taylor::VectorField logistic_loss_flow_field(const HomogeneousArchitecture& arch, int n) {
    const int d = arch.input_dim, P = arch.parameter_count();
    const bool diag = arch.kind == ModelKind::diagonal;
    const int D = diag ? arch.depth : 1;
    std::vector<std::string> vars, pars;
    for (int j = 0; j < P; ++j) vars.push_back(arch.parameter_name(j));
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < d; ++k) pars.push_back("x_" + std::to_string(k) + "_" + std::to_string(i));
    for (int i = 0; i < n; ++i) pars.push_back("y_" + std::to_string(i));
    taylor::VectorField f(vars, pars);
    auto x = [&](int k, int i) { return f.par(i * d + k); };
    auto u = [&](int fct, int k) { return f.var(fct * d + k); };
    auto beta = [&](int k) {  // the coefficient of x_k in H
        if (!diag) return arch.signs[k] * sqr(f.var(k));
        taylor::Expr p = u(0, k);
        for (int g = 1; g < D; ++g) p = p * u(g, k);
        return p;
    };
    std::vector<taylor::Expr> g;
    for (int i = 0; i < n; ++i) {
        taylor::Expr H = beta(0) * x(0, i);
        for (int k = 1; k < d; ++k) H = H + beta(k) * x(k, i);
        const taylor::Expr y = f.par(n * d + i);
        g.push_back(y / (1 + exp(y * H)));
    }
    std::vector<taylor::Expr> sk;  // sum_i g_i x_ki
    for (int k = 0; k < d; ++k) {
        taylor::Expr t = g[0] * x(k, 0);
        for (int i = 1; i < n; ++i) t = t + g[i] * x(k, i);
        sk.push_back(t);
    }
    std::vector<taylor::Expr> rhs;
    for (int fct = 0; fct < D; ++fct)
        for (int k = 0; k < d; ++k) {
            if (!diag) {
                rhs.push_back((2 * arch.signs[k]) * (f.var(k) * sk[k]));
                continue;
            }
            const int first = fct == 0 ? 1 : 0;
            taylor::Expr p = u(first, k);
            for (int h = first + 1; h < D; ++h)
                if (h != fct) p = p * u(h, k);
            rhs.push_back(p * sk[k]);
        }
    f.set_rhs(rhs);
    return f;
}

}  // namespace flowcert::nets
