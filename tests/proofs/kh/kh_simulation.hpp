// tests/proofs/kh/kh_simulation.hpp -- NON-RIGOROUS reference simulations for the KH falsification tests:
// the loss gradient flow w' = -grad L(w) [KH2025, eq. (2)] and the NCF flow u' = grad N(u) [eq. (5)] of the
// homogeneous families of the shipped cases, in long double with classical RK4, written from the loss here (not
// from the library's fields), and a reader of the few case keys they need (toml++).
#pragma once

#include <toml++/toml.h>

#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace khsim {

using Real = long double;
using Vec = std::vector<Real>;

// A homogeneous model H(x; w) with its gradient in w, for one input x.
struct Model {
    std::string kind;  // "weighted_squares", "diagonal", "feed_forward" (one hidden layer, s(z) = z^2)
    int d = 0, depth = 2, hidden = 0;
    std::vector<int> signs;
    int parameters() const { return kind == "weighted_squares" ? d : kind == "diagonal" ? depth * d : hidden * d + hidden; }
    Real value(const Vec& w, const Vec& x) const {
        Real h = 0;
        if (kind == "weighted_squares")
            for (int k = 0; k < d; ++k) h += signs[static_cast<std::size_t>(k)] * w[k] * w[k] * x[k];
        else if (kind == "diagonal")
            for (int k = 0; k < d; ++k) {
                Real b = 1;
                for (int f = 0; f < depth; ++f) b *= w[static_cast<std::size_t>(f * d + k)];
                h += b * x[k];
            }
        else
            for (int j = 0; j < hidden; ++j) {
                Real z = 0;
                for (int k = 0; k < d; ++k) z += w[static_cast<std::size_t>(j * d + k)] * x[k];
                h += w[static_cast<std::size_t>(hidden * d + j)] * z * z;
            }
        return h;
    }
    // g += a * grad_w H(x; w)
    void add_gradient(const Vec& w, const Vec& x, Real a, Vec& g) const {
        if (kind == "weighted_squares")
            for (int k = 0; k < d; ++k) g[k] += a * 2 * signs[static_cast<std::size_t>(k)] * w[k] * x[k];
        else if (kind == "diagonal")
            for (int k = 0; k < d; ++k)
                for (int f = 0; f < depth; ++f) {
                    Real p = x[k];
                    for (int h = 0; h < depth; ++h)
                        if (h != f) p *= w[static_cast<std::size_t>(h * d + k)];
                    g[static_cast<std::size_t>(f * d + k)] += a * p;
                }
        else
            for (int j = 0; j < hidden; ++j) {
                Real z = 0;
                for (int k = 0; k < d; ++k) z += w[static_cast<std::size_t>(j * d + k)] * x[k];
                const Real v = w[static_cast<std::size_t>(hidden * d + j)];
                for (int k = 0; k < d; ++k) g[static_cast<std::size_t>(j * d + k)] += a * 2 * v * z * x[k];
                g[static_cast<std::size_t>(hidden * d + j)] += a * z * z;
            }
    }
};

struct Data {
    std::vector<Vec> x;
    Vec y;
};

// Square loss c sum_i (H_i - y_i)^2 (c = 1 "paper", 1/2 "half", ...) or logistic sum_i ln(1 + exp(-y_i H_i)).
struct Loss {
    std::string name = "paper";
    Real c(int n) const {
        Real s = name == "half" || name == "half_mean" ? 0.5L : 1.0L;
        return name == "mean" || name == "half_mean" ? s / n : s;
    }
    Real value(const Model& m, const Data& D, const Vec& w) const {
        Real L = 0;
        for (std::size_t i = 0; i < D.x.size(); ++i) {
            const Real h = m.value(w, D.x[i]);
            L += name == "logistic" ? std::log1p(std::exp(-D.y[i] * h)) : c(static_cast<int>(D.x.size())) * (h - D.y[i]) * (h - D.y[i]);
        }
        return L;
    }
    // -grad L(w)
    Vec flow(const Model& m, const Data& D, const Vec& w) const {
        Vec g(w.size(), 0);
        for (std::size_t i = 0; i < D.x.size(); ++i) {
            const Real h = m.value(w, D.x[i]);
            const Real dl = name == "logistic" ? -D.y[i] / (1 + std::exp(D.y[i] * h))
                                               : 2 * c(static_cast<int>(D.x.size())) * (h - D.y[i]);
            m.add_gradient(w, D.x[i], -dl, g);
        }
        return g;
    }
    // ytilde = -l'(0, y): 2c y (square) or y/2 (logistic); the NCF flow u' = sum_i ytilde_i grad H(x_i; u)
    Vec ncf_flow(const Model& m, const Data& D, const Vec& u) const {
        Vec g(u.size(), 0);
        for (std::size_t i = 0; i < D.x.size(); ++i)
            m.add_gradient(u, D.x[i], name == "logistic" ? D.y[i] / 2 : 2 * c(static_cast<int>(D.x.size())) * D.y[i], g);
        return g;
    }
};

inline Real norm(const Vec& v) {
    Real s = 0;
    for (Real x : v) s += x * x;
    return std::sqrt(s);
}

// Classical RK4 with step h from t0 to t1 (the last step shortened); `observe(t, x)` after each step, returns
// false to stop early.
inline Vec rk4(const std::function<Vec(const Vec&)>& f, Vec x, Real t0, Real t1, Real h,
               const std::function<bool(Real, const Vec&)>& observe = {}) {
    Real t = t0;
    const std::size_t n = x.size();
    while (t < t1) {
        const Real s = std::min(h, t1 - t);
        const Vec k1 = f(x);
        Vec y(n);
        for (std::size_t i = 0; i < n; ++i) y[i] = x[i] + s / 2 * k1[i];
        const Vec k2 = f(y);
        for (std::size_t i = 0; i < n; ++i) y[i] = x[i] + s / 2 * k2[i];
        const Vec k3 = f(y);
        for (std::size_t i = 0; i < n; ++i) y[i] = x[i] + s * k3[i];
        const Vec k4 = f(y);
        for (std::size_t i = 0; i < n; ++i) x[i] += s / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
        t += s;
        if (observe && !observe(t, x)) break;
    }
    return x;
}

// ---- the case keys ----------------------------------------------------------------------------------------
inline Real number(const toml::node& n) {
    if (auto s = n.value<std::string>()) return std::stold(*s);
    if (auto i = n.value<long long>()) return static_cast<Real>(*i);
    throw std::runtime_error("not a number");
}
inline Vec numbers(const toml::table& t, const std::string& key) {
    Vec v;
    if (const auto* a = t[key].as_array())
        for (const auto& e : *a) v.push_back(number(e));
    return v;
}
inline Real number(const toml::table& t, const std::string& key) { return number(*t.get(key)); }

struct Case {
    toml::table t;
    Model model;
    Data data;
    Loss loss;
};
inline Case read_case(const std::string& path) {
    Case c;
    c.t = toml::parse_file(path);
    c.model.kind = c.t["model"].value_or(std::string("diagonal"));
    if (c.t.contains("depth")) c.model.depth = static_cast<int>(c.t["depth"].value_or(2LL));
    for (Real s : numbers(c.t, "signs")) c.model.signs.push_back(static_cast<int>(s));
    if (const auto* rows = c.t["inputs"].as_array())
        for (const auto& r : *rows) {
            Vec x;
            for (const auto& e : *r.as_array()) x.push_back(number(e));
            c.data.x.push_back(x);
        }
    c.data.y = numbers(c.t, "targets");
    if (!c.data.x.empty()) c.model.d = static_cast<int>(c.data.x.front().size());
    if (c.t.contains("hidden")) c.model.hidden = static_cast<int>(numbers(c.t, "hidden").front());
    c.loss.name = c.t["loss"].value_or(std::string("paper"));
    return c;
}
inline Vec unit(Vec v) {
    const Real n = norm(v);
    for (Real& x : v) x /= n;
    return v;
}

}  // namespace khsim
