// Homogeneous models for [KH2025]; see homogeneous.hpp.
#include "flowcert/nets/homogeneous.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "flowcert/nets/random.hpp"

namespace flowcert::nets {

// ---- scalar helpers: double (non-rigorous) and the interval types ----------------------------------
namespace {

template <class T> struct Ops;

template <> struct Ops<double> {
    static bool certainly_pos(double z) { return z > 0; }
    static bool certainly_neg(double z) { return z < 0; }
    static double relu(double z) { return z > 0 ? z : 0.0; }
    static double pw(double z, int n) {
        double r = 1.0;
        for (int i = 0; i < n; ++i) r *= z;
        return r;
    }
    static double intersect_sym(double a, double b) { return 0.5 * (a + b); }
    static std::string str(double z) {
        std::ostringstream os;
        os.precision(17);
        os << z;
        return os.str();
    }
};

template <Interval I> struct Ops<I> {
    static bool certainly_pos(const I& z) { return certainly_positive(z); }
    static bool certainly_neg(const I& z) { return certainly_negative(z); }
    static I relu(const I& z) { return flowcert::relu(z); }
    static I pw(const I& z, int n) { return n == 0 ? I(1) : (n == 1 ? z : flowcert::pow(z, n)); }
    // Both are enclosures of the same exact number (a symmetric Hessian entry): their intersection is one too.
    static I intersect_sym(const I& a, const I& b) {
        I out;
        if (!flowcert::intersect(a, b, out))
            throw std::logic_error("homogeneous: disjoint enclosures of a symmetric Hessian entry (a bug)");
        return out;
    }
    static std::string str(const I& z) { return to_string(z, 10); }
};

// HomActivation and its first two derivatives. `kink` is set when the derivative is not defined somewhere in
// the enclosure (a ReLU kink for s', or the jump of s'' of max(z,0)^2 or ReLU at 0).
template <class T> T act(const HomActivation& a, const T& z) {
    switch (a.kind) {
        case HomActivationKind::square: return z * z;
        case HomActivationKind::linear: return z;
        case HomActivationKind::relu: return Ops<T>::relu(z);
        case HomActivationKind::relu_power: return Ops<T>::pw(Ops<T>::relu(z), a.p);
    }
    return z;
}
template <class T> T act_d1(const HomActivation& a, const T& z, bool& kink) {
    switch (a.kind) {
        case HomActivationKind::square: return T(2) * z;
        case HomActivationKind::linear: return T(1);
        case HomActivationKind::relu:
        case HomActivationKind::relu_power:
            if (a.p == 1) {
                if (Ops<T>::certainly_pos(z)) return T(1);
                if (Ops<T>::certainly_neg(z)) return T(0);
                kink = true;
                return T(0);
            }
            return T(a.p) * Ops<T>::pw(Ops<T>::relu(z), a.p - 1);
    }
    return T(0);
}
template <class T> T act_d2(const HomActivation& a, const T& z, bool& kink) {
    switch (a.kind) {
        case HomActivationKind::square: return T(2);
        case HomActivationKind::linear: return T(0);
        case HomActivationKind::relu:
        case HomActivationKind::relu_power:
            if (a.p <= 2) {
                if (Ops<T>::certainly_neg(z)) return T(0);
                if (Ops<T>::certainly_pos(z)) return T(a.p * (a.p - 1));
                kink = true;
                return T(0);
            }
            return T(a.p * (a.p - 1)) * Ops<T>::pw(Ops<T>::relu(z), a.p - 2);
    }
    return T(0);
}

// Dual numbers a + b eps (eps^2 = 0) over T, for forward-over-reverse Hessian-vector products.
template <class T> struct Dual {
    T a{}, b{};
    Dual() : a(T(0)), b(T(0)) {}
    Dual(T a_, T b_) : a(std::move(a_)), b(std::move(b_)) {}
    friend Dual operator+(const Dual& x, const Dual& y) { return {x.a + y.a, x.b + y.b}; }
    friend Dual operator*(const Dual& x, const Dual& y) { return {x.a * y.a, x.a * y.b + x.b * y.a}; }
    Dual& operator+=(const Dual& y) { a += y.a; b += y.b; return *this; }
};
template <class T> struct Lift { static T from(const T& x) { return x; } };
template <class T> struct Lift<Dual<T>> { static Dual<T> from(const T& x) { return {x, T(0)}; } };

// s and s' on the network scalar S (T or Dual<T>): s(a + b eps) = s(a) + s'(a) b eps, and so on.
template <class T> T act_s(const HomActivation& a, const T& z, bool&) { return act(a, z); }
template <class T> T act_s_d1(const HomActivation& a, const T& z, bool& kink) { return act_d1(a, z, kink); }
template <class T> Dual<T> act_s(const HomActivation& a, const Dual<T>& z, bool& kink) {
    return {act(a, z.a), act_d1(a, z.a, kink) * z.b};
}
template <class T> Dual<T> act_s_d1(const HomActivation& a, const Dual<T>& z, bool& kink) {
    return {act_d1(a, z.a, kink), act_d2(a, z.a, kink) * z.b};
}
template <class T> const T& primal(const T& z) { return z; }
template <class T> const T& primal(const Dual<T>& z) { return z.a; }

// One sample of a feed-forward net: value += r H(x; w), grad += r grad_w H(x; w) (reverse mode).
// Returns false (with `why`) at a kink of s'.
template <class T, class S>
bool ff_accumulate(const HomogeneousArchitecture& arch, const std::vector<S>& w, const T* x, const S& r,
                   S& value, std::vector<S>& grad, std::string& why) {
    const int K = static_cast<int>(arch.hidden.size());
    const HomActivation& s = arch.activation;
    std::vector<std::vector<S>> z(K + 1), a(K + 1);
    a[0].resize(arch.input_dim);
    for (int c = 0; c < arch.input_dim; ++c) a[0][c] = Lift<S>::from(x[c]);
    bool kink = false;
    for (int l = 1; l <= K; ++l) {
        const int rows = arch.layer_rows(l), cols = arch.layer_cols(l), off = arch.layer_offset(l);
        z[l].assign(rows, S());
        a[l].resize(rows);
        for (int j = 0; j < rows; ++j) {
            S acc = S();
            for (int c = 0; c < cols; ++c) acc += w[off + j * cols + c] * a[l - 1][c];
            z[l][j] = acc;
            a[l][j] = act_s(s, acc, kink);
        }
    }
    const int voff = arch.layer_offset(K + 1), kK = arch.layer_rows(K);
    S out = S();
    for (int j = 0; j < kK; ++j) out += w[voff + j] * a[K][j];
    value += r * out;
    std::vector<S> g(kK);
    for (int j = 0; j < kK; ++j) {
        grad[voff + j] += r * a[K][j];
        g[j] = r * w[voff + j];
    }
    for (int l = K; l >= 1; --l) {
        const int rows = arch.layer_rows(l), cols = arch.layer_cols(l), off = arch.layer_offset(l);
        std::vector<S> delta(rows);
        for (int j = 0; j < rows; ++j) {
            bool k1 = false;
            delta[j] = g[j] * act_s_d1(s, z[l][j], k1);
            if (k1) {
                why = "derivative of " + s.name() + " undefined: pre-activation of layer " + std::to_string(l) +
                      " neuron " + std::to_string(j) + " encloses " + Ops<T>::str(primal(z[l][j])) +
                      ", which contains the kink 0";
                return false;
            }
        }
        for (int j = 0; j < rows; ++j)
            for (int c = 0; c < cols; ++c) grad[off + j * cols + c] += delta[j] * a[l - 1][c];
        if (l > 1) {
            std::vector<S> gn(cols);
            for (int c = 0; c < cols; ++c) {
                S acc = S();
                for (int j = 0; j < rows; ++j) acc += w[off + j * cols + c] * delta[j];
                gn[c] = acc;
            }
            g = std::move(gn);
        }
    }
    return true;
}

template <class T> Vec<T> data_times(const Mat<T>& X, const Vec<T>& r) {
    // b = X r, b_k = sum_i r_i x_{k,i}.
    Vec<T> b(X.rows());
    for (Eigen::Index k = 0; k < X.rows(); ++k) {
        T acc = T(0);
        for (Eigen::Index i = 0; i < X.cols(); ++i) acc += X(k, i) * r(i);
        b(k) = acc;
    }
    return b;
}

}  // namespace

// ---- HomActivation / architecture ---------------------------------------------------------------------

int HomActivation::degree() const {
    switch (kind) {
        case HomActivationKind::square: return 2;
        case HomActivationKind::relu_power: return p;
        case HomActivationKind::linear: return 1;
        case HomActivationKind::relu: return 1;
    }
    return 1;
}
bool HomActivation::has_continuous_derivative() const {
    return kind == HomActivationKind::square || kind == HomActivationKind::linear ||
           (kind == HomActivationKind::relu_power && p >= 2);
}
bool HomActivation::has_continuous_second_derivative() const {
    return kind == HomActivationKind::square || kind == HomActivationKind::linear ||
           (kind == HomActivationKind::relu_power && p >= 3);
}
std::string HomActivation::name() const {
    switch (kind) {
        case HomActivationKind::square: return "z^2";
        case HomActivationKind::relu_power: return p == 1 ? "max(z,0)" : "max(z,0)^" + std::to_string(p);
        case HomActivationKind::linear: return "z";
        case HomActivationKind::relu: return "relu";
    }
    return "?";
}

const char* to_string(EvalStatus s) {
    switch (s) {
        case EvalStatus::not_evaluated: return "not_evaluated";
        case EvalStatus::ok: return "ok";
        case EvalStatus::refused: return "refused";
    }
    return "?";
}

HomogeneousArchitecture HomogeneousArchitecture::weighted_squares(std::vector<int> signs) {
    HomogeneousArchitecture a;
    a.kind = ModelKind::weighted_squares;
    a.input_dim = static_cast<int>(signs.size());
    a.signs = std::move(signs);
    a.validate();
    return a;
}
HomogeneousArchitecture HomogeneousArchitecture::diagonal(int input_dim, int depth) {
    HomogeneousArchitecture a;
    a.kind = ModelKind::diagonal;
    a.input_dim = input_dim;
    a.depth = depth;
    a.validate();
    return a;
}
HomogeneousArchitecture HomogeneousArchitecture::feed_forward(int input_dim, std::vector<int> hidden,
                                                              HomActivation activation) {
    HomogeneousArchitecture a;
    a.kind = ModelKind::feed_forward;
    a.input_dim = input_dim;
    a.hidden = std::move(hidden);
    if (activation.kind == HomActivationKind::relu) activation.p = 1;
    a.activation = activation;
    a.validate();
    return a;
}

void HomogeneousArchitecture::validate() const {
    if (input_dim < 1) throw std::invalid_argument("homogeneous model: input_dim must be >= 1");
    switch (kind) {
        case ModelKind::weighted_squares:
            if (static_cast<int>(signs.size()) != input_dim)
                throw std::invalid_argument("weighted_squares: need one sign per input coordinate");
            for (int s : signs)
                if (s != 1 && s != -1) throw std::invalid_argument("weighted_squares: signs must be +1 or -1");
            break;
        case ModelKind::diagonal:
            if (depth < 1) throw std::invalid_argument("diagonal: depth must be >= 1");
            break;
        case ModelKind::feed_forward:
            if (hidden.empty()) throw std::invalid_argument("feed_forward: need at least one hidden layer");
            for (int k : hidden)
                if (k < 1) throw std::invalid_argument("feed_forward: hidden widths must be >= 1");
            if (activation.kind == HomActivationKind::relu_power && activation.p < 1)
                throw std::invalid_argument("feed_forward: max(z,0)^p needs p >= 1");
            break;
    }
}

int HomogeneousArchitecture::layer_rows(int l) const {
    const int K = static_cast<int>(hidden.size());
    return l == K + 1 ? 1 : hidden.at(l - 1);
}
int HomogeneousArchitecture::layer_cols(int l) const { return l == 1 ? input_dim : hidden.at(l - 2); }
int HomogeneousArchitecture::layer_offset(int l) const {
    int off = 0;
    for (int m = 1; m < l; ++m) off += layer_rows(m) * layer_cols(m);
    return off;
}

int HomogeneousArchitecture::parameter_count() const {
    switch (kind) {
        case ModelKind::weighted_squares: return input_dim;
        case ModelKind::diagonal: return depth * input_dim;
        case ModelKind::feed_forward: {
            const int K = static_cast<int>(hidden.size());
            return layer_offset(K + 1) + hidden.back();
        }
    }
    return 0;
}

int HomogeneousArchitecture::homogeneity_order() const {
    switch (kind) {
        case ModelKind::weighted_squares: return 2;
        case ModelKind::diagonal: return depth;
        case ModelKind::feed_forward: {
            // h_1 = s(W_1 x) has degree p; h_l = s(W_l h_{l-1}) has degree p (1 + deg h_{l-1}); the output
            // v^T h_K has degree 1 + deg h_K; so L = 1 + p + ... + p^K (spec section 3).
            const int p = activation.degree();
            int deg = 0;
            for (std::size_t l = 0; l < hidden.size(); ++l) deg = p * (1 + deg);
            return 1 + deg;
        }
    }
    return 0;
}

std::string HomogeneousArchitecture::describe() const {
    std::ostringstream os;
    switch (kind) {
        case ModelKind::weighted_squares:
            os << "H(x; w) = sum_k s_k w_k^2 x_k, s = (";
            for (std::size_t k = 0; k < signs.size(); ++k) os << (k ? ", " : "") << (signs[k] > 0 ? "+1" : "-1");
            os << ")";
            break;
        case ModelKind::diagonal:
            os << "diagonal net H(x) = sum_k (prod_{f=1}^{" << depth << "} u^(f)_k) x_k, d = " << input_dim;
            break;
        case ModelKind::feed_forward:
            os << "feed-forward v^T s(W_K ... s(W_1 x)), s(z) = " << activation.name() << ", widths " << input_dim;
            for (int k : hidden) os << " -> " << k;
            os << " -> 1";
            break;
    }
    os << " (" << parameter_count() << " parameters, " << homogeneity_order() << "-homogeneous)";
    return os.str();
}

std::string HomogeneousArchitecture::parameter_name(int j) const {
    switch (kind) {
        case ModelKind::weighted_squares: return "w[" + std::to_string(j) + "]";
        case ModelKind::diagonal:
            return "u" + std::to_string(j / input_dim + 1) + "[" + std::to_string(j % input_dim) + "]";
        case ModelKind::feed_forward: {
            const int K = static_cast<int>(hidden.size());
            for (int l = 1; l <= K; ++l) {
                const int off = layer_offset(l), cols = layer_cols(l);
                if (j < off + layer_rows(l) * cols) {
                    const int e = j - off;
                    return "W" + std::to_string(l) + "[" + std::to_string(e / cols) + "," + std::to_string(e % cols) + "]";
                }
            }
            return "v[" + std::to_string(j - layer_offset(K + 1)) + "]";
        }
    }
    return "?";
}

// ---- HomogeneousModel ---------------------------------------------------------------------------------

template <class T>
HomogeneousModel<T>::HomogeneousModel(HomogeneousArchitecture arch, Mat<T> X) : arch_(std::move(arch)), X_(std::move(X)) {
    arch_.validate();
    if (X_.rows() != arch_.input_dim)
        throw std::invalid_argument("HomogeneousModel: X must have input_dim rows (one column per sample)");
}

template <class T>
OutputsResult<T> HomogeneousModel<T>::outputs(const Vec<T>& w) const {
    OutputsResult<T> res;
    if (w.size() != parameter_count()) {
        res.status = EvalStatus::refused;
        res.reason = "parameter vector has the wrong size";
        return res;
    }
    const int n = sample_count(), d = arch_.input_dim;
    res.outputs.resize(n);
    switch (arch_.kind) {
        case ModelKind::weighted_squares:
            for (int i = 0; i < n; ++i) {
                T acc = T(0);
                for (int k = 0; k < d; ++k) acc += T(arch_.signs[k]) * (w(k) * w(k)) * X_(k, i);
                res.outputs(i) = acc;
            }
            break;
        case ModelKind::diagonal:
            for (int i = 0; i < n; ++i) {
                T acc = T(0);
                for (int k = 0; k < d; ++k) {
                    T prod = X_(k, i);
                    for (int f = 0; f < arch_.depth; ++f) prod *= w(f * d + k);
                    acc += prod;
                }
                res.outputs(i) = acc;
            }
            break;
        case ModelKind::feed_forward: {
            const int K = static_cast<int>(arch_.hidden.size());
            bool kink = false;
            for (int i = 0; i < n; ++i) {
                std::vector<T> a(X_.col(i).data(), X_.col(i).data() + d);
                for (int l = 1; l <= K; ++l) {
                    const int rows = arch_.layer_rows(l), cols = arch_.layer_cols(l), off = arch_.layer_offset(l);
                    std::vector<T> an(rows);
                    for (int j = 0; j < rows; ++j) {
                        T acc = T(0);
                        for (int c = 0; c < cols; ++c) acc += w(off + j * cols + c) * a[c];
                        an[j] = act_s(arch_.activation, acc, kink);
                    }
                    a = std::move(an);
                }
                T out = T(0);
                const int voff = arch_.layer_offset(K + 1);
                for (int j = 0; j < arch_.hidden.back(); ++j) out += w(voff + j) * a[j];
                res.outputs(i) = out;
            }
            break;
        }
    }
    res.status = EvalStatus::ok;
    res.reason = "";
    return res;
}

template <class T>
GradientResult<T> HomogeneousModel<T>::weighted_gradient(const Vec<T>& w, const Vec<T>& r) const {
    GradientResult<T> res;
    const int P = parameter_count(), n = sample_count(), d = arch_.input_dim;
    if (w.size() != P || r.size() != n) {
        res.status = EvalStatus::refused;
        res.reason = "parameter or weight vector has the wrong size";
        return res;
    }
    res.gradient.resize(P);
    switch (arch_.kind) {
        case ModelKind::weighted_squares: {
            // r^T H = sum_k s_k b_k w_k^2, b = X r; d/dw_k = 2 s_k b_k w_k.
            const Vec<T> b = data_times(X_, r);
            T val = T(0);
            for (int k = 0; k < d; ++k) {
                const T sb = T(arch_.signs[k]) * b(k);
                val += sb * (w(k) * w(k));
                res.gradient(k) = T(2) * sb * w(k);
            }
            res.value = val;
            break;
        }
        case ModelKind::diagonal: {
            // r^T H = sum_k b_k prod_f u_fk; d/du_fk = b_k prod_{g != f} u_gk.
            const Vec<T> b = data_times(X_, r);
            const int D = arch_.depth;
            T val = T(0);
            for (int k = 0; k < d; ++k) {
                T all = b(k);
                for (int f = 0; f < D; ++f) all *= w(f * d + k);
                val += all;
                for (int f = 0; f < D; ++f) {
                    T g = b(k);
                    for (int h = 0; h < D; ++h)
                        if (h != f) g *= w(h * d + k);
                    res.gradient(f * d + k) = g;
                }
            }
            res.value = val;
            break;
        }
        case ModelKind::feed_forward: {
            std::vector<T> wv(w.data(), w.data() + P), grad(P, T(0));
            T val = T(0);
            for (int i = 0; i < n; ++i) {
                std::string why;
                if (!ff_accumulate<T, T>(arch_, wv, X_.col(i).data(), r(i), val, grad, why)) {
                    res.status = EvalStatus::refused;
                    res.reason = "gradient not defined (sample " + std::to_string(i) + "): " + why;
                    return res;
                }
            }
            res.value = val;
            for (int j = 0; j < P; ++j) res.gradient(j) = grad[j];
            break;
        }
    }
    res.status = EvalStatus::ok;
    res.reason = "";
    return res;
}

template <class T>
HessianResult<T> HomogeneousModel<T>::weighted_hessian(const Vec<T>& w, const Vec<T>& r) const {
    HessianResult<T> res;
    const int P = parameter_count(), n = sample_count(), d = arch_.input_dim;
    {
        GradientResult<T> g = weighted_gradient(w, r);
        if (g.status != EvalStatus::ok) {
            res.status = g.status;
            res.reason = g.reason;
            return res;
        }
        res.value = g.value;
        res.gradient = std::move(g.gradient);
    }
    res.hessian = Mat<T>::Constant(P, P, T(0));
    Mat<T>& Hs = res.hessian;
    switch (arch_.kind) {
        case ModelKind::weighted_squares: {
            const Vec<T> b = data_times(X_, r);
            for (int k = 0; k < d; ++k) Hs(k, k) = T(2 * arch_.signs[k]) * b(k);  // d^2/dw_k^2 = 2 s_k b_k
            break;
        }
        case ModelKind::diagonal: {
            // d^2/du_fk du_gk = b_k prod_{h != f, g} u_hk (f != g); all other entries 0.
            const Vec<T> b = data_times(X_, r);
            const int D = arch_.depth;
            for (int k = 0; k < d; ++k)
                for (int f = 0; f < D; ++f)
                    for (int g = f + 1; g < D; ++g) {
                        T e = b(k);
                        for (int h = 0; h < D; ++h)
                            if (h != f && h != g) e *= w(h * d + k);
                        Hs(f * d + k, g * d + k) = e;
                        Hs(g * d + k, f * d + k) = e;
                    }
            break;
        }
        case ModelKind::feed_forward: {
            const HomActivation& s = arch_.activation;
            if (arch_.hidden.size() == 1) {
                // Two layers, N_r = sum_j v_j sum_i r_i s(z_ij), z_ij = w_j . x_i:
                //   d^2/dv_j dw_j = sum_i r_i s'(z_ij) x_i,  d^2/dw_j dw_j = v_j sum_i r_i s''(z_ij) x_i x_i^T,
                //   d^2/dv_j dv_k = 0, and blocks of different neurons are 0.
                const int m = arch_.hidden[0], voff = arch_.layer_offset(2);
                Mat<T> M;  // for s = z^2 (s'' = 2): sum_i r_i x_i x_i^T, computed once
                if (s.kind == HomActivationKind::square) {
                    M = Mat<T>::Constant(d, d, T(0));
                    for (int i = 0; i < n; ++i)
                        for (int a = 0; a < d; ++a) {
                            const T rx = r(i) * X_(a, i);
                            for (int c = a; c < d; ++c) M(a, c) += rx * X_(c, i);
                        }
                }
                for (int j = 0; j < m; ++j) {
                    const int off = j * d;
                    Vec<T> G = Vec<T>::Constant(d, T(0));
                    Mat<T> C;
                    if (s.kind != HomActivationKind::square) C = Mat<T>::Constant(d, d, T(0));
                    for (int i = 0; i < n; ++i) {
                        T z = T(0);
                        for (int c = 0; c < d; ++c) z += w(off + c) * X_(c, i);
                        bool kink = false;
                        const T s1 = r(i) * act_d1(s, z, kink);
                        T s2 = T(0);
                        if (s.kind != HomActivationKind::square) s2 = r(i) * act_d2(s, z, kink);
                        if (kink) {
                            res.status = EvalStatus::refused;
                            res.reason = "Hessian not defined: pre-activation of neuron " + std::to_string(j) +
                                         " on sample " + std::to_string(i) + " encloses " + Ops<T>::str(z) +
                                         ", which contains the kink 0 of " + s.name();
                            res.hessian.resize(0, 0);
                            return res;
                        }
                        for (int c = 0; c < d; ++c) G(c) += s1 * X_(c, i);
                        if (s.kind != HomActivationKind::square)
                            for (int a = 0; a < d; ++a) {
                                const T sx = s2 * X_(a, i);
                                for (int c = a; c < d; ++c) C(a, c) += sx * X_(c, i);
                            }
                    }
                    const T& v = w(voff + j);
                    for (int c = 0; c < d; ++c) {
                        Hs(voff + j, off + c) = G(c);
                        Hs(off + c, voff + j) = G(c);
                    }
                    for (int a = 0; a < d; ++a)
                        for (int c = a; c < d; ++c) {
                            const T e = s.kind == HomActivationKind::square ? T(2) * v * M(a, c) : v * C(a, c);
                            Hs(off + a, off + c) = e;
                            Hs(off + c, off + a) = e;
                        }
                }
            } else {
                // Forward-over-reverse: column j of the Hessian is the eps-part of the reverse-mode
                // gradient evaluated at w + eps e_j [Griewank & Walther, Evaluating Derivatives, 2nd ed., Sec. 5.2].
                using D2 = Dual<T>;
                std::vector<D2> wd(P);
                for (int k = 0; k < P; ++k) wd[k] = D2(w(k), T(0));
                for (int j = 0; j < P; ++j) {
                    wd[j].b = T(1);
                    std::vector<D2> grad(P);
                    D2 val;
                    for (int i = 0; i < n; ++i) {
                        std::string why;
                        if (!ff_accumulate<T, D2>(arch_, wd, X_.col(i).data(), D2(r(i), T(0)), val, grad, why)) {
                            res.status = EvalStatus::refused;
                            res.reason = "Hessian not defined (sample " + std::to_string(i) + "): " + why;
                            res.hessian.resize(0, 0);
                            return res;
                        }
                    }
                    for (int k = 0; k < P; ++k) Hs(k, j) = grad[k].b;
                    wd[j].b = T(0);
                }
                for (int j = 0; j < P; ++j)
                    for (int k = j + 1; k < P; ++k) {
                        const T e = Ops<T>::intersect_sym(Hs(j, k), Hs(k, j));
                        Hs(j, k) = e;
                        Hs(k, j) = e;
                    }
            }
            break;
        }
    }
    res.status = EvalStatus::ok;
    res.reason = "";
    return res;
}

// ---- loss and NCF -----------------------------------------------------------------------------------

std::string SquareLossNormalization::describe() const {
    std::string s = half ? "(1/2) " : "";
    if (mean) s += "(1/n) ";
    return s + "sum_i (H(x_i; w) - y_i)^2";
}

template <class T> T loss_scale(const SquareLossNormalization& norm, int n, const T& like) {
    T c = like * T(0) + T(1);  // 1 at the precision of `like`
    if (norm.half) c = c / T(2);
    if (norm.mean) c = c / T(n);
    return c;
}

template <class T> Vec<T> ncf_weights(const Vec<T>& y, const SquareLossNormalization& norm) {
    // l(p, y) = c (p - y)^2  =>  -l'(0, y) = 2 c y  [KH2025, eq. (3); App. E: ytilde = 2y for c = 1].
    Vec<T> yt(y.size());
    if (y.size() == 0) return yt;
    const T c2 = T(2) * loss_scale(norm, static_cast<int>(y.size()), y(0));
    for (Eigen::Index i = 0; i < y.size(); ++i) yt(i) = c2 * y(i);
    return yt;
}

template <class T>
LossResult<T> square_loss(const HomogeneousModel<T>& model, const Vec<T>& w, const Vec<T>& y,
                          const SquareLossNormalization& norm, bool with_gradient) {
    LossResult<T> res;
    OutputsResult<T> out = model.outputs(w);
    if (out.status != EvalStatus::ok || y.size() != model.sample_count()) {
        res.status = EvalStatus::refused;
        res.reason = out.status != EvalStatus::ok ? out.reason : "label vector has the wrong size";
        return res;
    }
    const int n = model.sample_count();
    const T c = loss_scale(norm, n, y.size() ? y(0) : T(0));
    T acc = T(0);
    Vec<T> r(n);
    for (int i = 0; i < n; ++i) {
        const T e = out.outputs(i) - y(i);
        acc += e * e;
        r(i) = T(2) * c * e;  // l'(p_i, y_i) = 2 c (p_i - y_i)
    }
    res.value = c * acc;
    if (with_gradient) {
        GradientResult<T> g = model.weighted_gradient(w, r);  // grad L = J^T l'(H, y) [KH2025, eq. (2)]
        if (g.status != EvalStatus::ok) {
            res.status = g.status;
            res.reason = g.reason;
            return res;
        }
        res.gradient = std::move(g.gradient);
    }
    res.status = EvalStatus::ok;
    res.reason = "";
    return res;
}

template <class T>
OutputsResult<T> Ncf<T>::value(const Vec<T>& u) const {
    OutputsResult<T> out = model_.outputs(u);
    if (out.status != EvalStatus::ok) return out;
    T acc = T(0);
    for (Eigen::Index i = 0; i < ytilde_.size(); ++i) acc += ytilde_(i) * out.outputs(i);
    out.outputs = Vec<T>::Constant(1, acc);
    return out;
}

// ---- data ---------------------------------------------------------------------------------------------

SphereTeacherData make_sphere_teacher_data(std::uint64_t seed, int d, int n, const HomogeneousArchitecture& teacher) {
    if (teacher.input_dim != d) throw std::invalid_argument("make_sphere_teacher_data: teacher input_dim != d");
    SphereTeacherData data;
    data.X.resize(d, n);
    std::vector<double> g(d);
    for (int i = 0; i < n; ++i) {
        RandomStream rs(seed, "kh/inputs", static_cast<std::uint64_t>(i));
        rs.fill_gaussian(g);
        double ss = 0;
        for (double v : g) ss += v * v;
        const double nrm = std::sqrt(ss);
        for (int k = 0; k < d; ++k) data.X(k, i) = g[k] / nrm;
    }
    data.teacher_weights.resize(teacher.parameter_count());
    RandomStream rt(seed, "kh/teacher", 0);
    rt.fill_gaussian(std::span<double>(data.teacher_weights.data(), data.teacher_weights.size()));
    HomogeneousModel<double> tm(teacher, data.X);
    OutputsResult<double> out = tm.outputs(data.teacher_weights);
    data.y = out.outputs;
    return data;
}

template <class T> Mat<T> convert_matrix(const Eigen::MatrixXd& M, long bits) {
    Mat<T> out(M.rows(), M.cols());
    for (Eigen::Index i = 0; i < M.rows(); ++i)
        for (Eigen::Index j = 0; j < M.cols(); ++j) {
            if constexpr (std::is_same_v<T, double>) {
                out(i, j) = M(i, j);
            } else {
                out(i, j) = IntervalTraits<T>::exact(M(i, j), bits);
            }
        }
    return out;
}
template <class T> Vec<T> convert_vector(const Eigen::VectorXd& v, long bits) {
    Mat<T> m = convert_matrix<T>(Eigen::MatrixXd(v), bits);
    return m.col(0);
}

FLOWCERT_NETS_HOMOGENEOUS_DECLARE(double, )
FLOWCERT_NETS_HOMOGENEOUS_DECLARE(IntervalD, )
FLOWCERT_NETS_HOMOGENEOUS_DECLARE(IntervalMp, )

}  // namespace flowcert::nets
