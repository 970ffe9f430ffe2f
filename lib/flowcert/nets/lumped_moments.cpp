// The moment ODE of the lumped activation classes (lumped_moments.hpp).
#include "flowcert/nets/lumped_moments.hpp"

namespace flowcert::nets {

std::size_t moment_size(std::size_t d) { return (d + 1) * (d + 2) / 2; }

std::size_t moment_index(std::size_t a, std::size_t b, std::size_t d) {
    if (a > b) std::swap(a, b);
    // rows 0..a-1 hold (d+1) + d + ... + (d+2-a) entries
    return a * (d + 1) - a * (a - 1) / 2 + (b - a);
}

taylor::VectorField moment_field(const std::vector<ActivationPattern>& patterns, std::size_t d, std::size_t n,
                                 const std::string& k_scale) {
    const std::size_t Q = moment_size(d), C = patterns.size();
    std::vector<std::string> vars, pars;
    for (std::size_t q = 0; q < C; ++q)
        for (std::size_t a = 0; a <= d; ++a)
            for (std::size_t b = a; b <= d; ++b)
                vars.push_back("M" + std::to_string(q) + "_" + std::to_string(a) + "_" + std::to_string(b));
    for (std::size_t k = 0; k < n; ++k) vars.push_back("u" + std::to_string(k));
    for (std::size_t k = 0; k < n; ++k)
        for (std::size_t i = 0; i < d; ++i) pars.push_back("x" + std::to_string(k) + "_" + std::to_string(i));
    pars.push_back("c");
    taylor::VectorField f(vars, pars);
    auto M = [&](std::size_t q, std::size_t a, std::size_t b) { return f.var(static_cast<int>(q * Q + moment_index(a, b, d))); };
    auto x = [&](std::size_t k, std::size_t i) { return f.par(static_cast<int>(k * d + i)); };
    const taylor::Expr c = f.par(static_cast<int>(n * d));
    const taylor::Expr scale = f.constant(k_scale);
    // r_k = u_k + sum_{q: k in S_q} <x_k, m_q>
    std::vector<taylor::Expr> r;
    for (std::size_t k = 0; k < n; ++k) {
        taylor::Expr rk = f.var(static_cast<int>(C * Q + k));
        for (std::size_t q = 0; q < C; ++q)
            if (patterns[q] >> k & 1u)
                for (std::size_t i = 0; i < d; ++i) rk = rk + x(k, i) * M(q, i, d);
        r.push_back(rk);
    }
    std::vector<taylor::Expr> rhs;
    for (std::size_t q = 0; q < C; ++q) {
        // D_q,i = -c k_scale sum_{k in S_q} r_k x_{k,i}
        std::vector<taylor::Expr> D;
        for (std::size_t i = 0; i < d; ++i) {
            taylor::Expr s = f.constant(0);
            bool any = false;
            for (std::size_t k = 0; k < n; ++k)
                if (patterns[q] >> k & 1u) {
                    s = any ? s + r[k] * x(k, i) : r[k] * x(k, i);
                    any = true;
                }
            D.push_back(-(c * scale * s));
        }
        // M' = K M + M K: (K M)_{ib} = D_i M_{d b} (i < d), (K M)_{d b} = sum_l D_l M_{l b}
        auto KM = [&](std::size_t a, std::size_t b) {
            if (a < d) return D[a] * M(q, d, b);
            taylor::Expr s = D[0] * M(q, 0, b);
            for (std::size_t l = 1; l < d; ++l) s = s + D[l] * M(q, l, b);
            return s;
        };
        for (std::size_t a = 0; a <= d; ++a)
            for (std::size_t b = a; b <= d; ++b) rhs.push_back(KM(a, b) + KM(b, a));
    }
    for (std::size_t k = 0; k < n; ++k) rhs.push_back(f.constant(0));
    f.set_rhs(rhs);
    return f;
}

std::vector<IntervalD> moment_field_params(const TwoLayerModel<IntervalD>& model) {
    std::vector<IntervalD> p;
    for (std::size_t k = 0; k < model.n(); ++k)
        for (std::size_t i = 0; i < model.d(); ++i) p.push_back(model.x(k, i));
    p.push_back(model.risk_weight());
    return p;
}

std::vector<IntervalD> outer_moment(const IntervalD* theta, std::size_t d) {
    std::vector<IntervalD> out(moment_size(d));
    for (std::size_t a = 0; a <= d; ++a)
        for (std::size_t b = a; b <= d; ++b) out[moment_index(a, b, d)] = a == b ? sqr(theta[a]) : theta[a] * theta[b];
    return out;
}

}  // namespace flowcert::nets
