// flowcert/nets/two_layer_field.hpp (internal to the two-layer flow engine) -- the gradient-flow
// field of the two-layer (leaky) ReLU network on boxes, its sign functions, and the problem data
// of one run [BF2025, eq. (6)]. docs/nonsmooth-flow.md has the system.
#pragma once

#if !defined(FLOWCERT_NETS_FLOW_INTERNAL)
#error "internal header of the two-layer flow engine"
#endif

#include <flowcert/interval.hpp>
#include <flowcert/ode.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace flowcert::nets::flow {

using I = IntervalD;
using ode::TimeTm;
using ode::TmPowers;

// The owned neurons as blocks (S = d + 1 components per neuron: w_0..w_{d-1}, a) and the data.
struct Problem : ode::BlockSystem {
    std::size_t d = 0, n = 0;
    std::vector<I> x;  // n x d
    std::vector<I> y;
    I c;      // risk weight: L = c sum_k 1/2 (h(x_k) - y_k)^2
    I gamma;
    I eta_hull;  // [gamma, 1]
    bool gamma_zero = false;
    std::string neuron_name(std::size_t j) const { return block_name(j); }
    const I* xk(std::size_t k) const { return &x[k * d]; }
    // <w, x_k> for the w components of a neuron box B.
    I preactivation(const I* B, std::size_t k) const {
        const I* xr = xk(k);
        I z = B[0] * xr[0];
        for (std::size_t i = 1; i < d; ++i) z += B[i] * xr[i];
        return z;
    }
};

// Activation codes: 0 positive (eta = 1), 1 negative (eta = gamma), 2 undecided ([gamma, 1]).
inline const I& eta_of(const Problem& pb, int code, const I& one) {
    return code == 0 ? one : (code == 1 ? pb.gamma : pb.eta_hull);
}
inline int sign_code(const I& z) {
    if (certainly_positive(z)) return 0;
    if (certainly_negative(z)) return 1;
    return 2;
}
// The code of sample k in a pattern key (2 bits per sample).
inline int code_in_key(std::uint64_t key, std::size_t k) { return static_cast<int>((key >> (2 * k)) & 3u); }

// Clarke-hull field on a box B (S components) with loss derivatives l'_k in R:
// dw = a D, da = -c sum_k l'_k sigma(z_k), D = -c sum_k eta_k l'_k x_k  [BF2025, eq. (6)].
// (da uses eta_k z_k = sigma(z_k), which holds for every selection.)
inline void field_box(const Problem& pb, const I* B, const I* R, I* F) {
    const I one(1);
    std::array<I, 8> Dsmall;
    std::vector<I> Dbig;
    I* D = Dsmall.data();
    if (pb.d > Dsmall.size()) {
        Dbig.assign(pb.d, I(0));
        D = Dbig.data();
    } else {
        for (std::size_t i = 0; i < pb.d; ++i) D[i] = I(0);
    }
    I da(0);
    for (std::size_t k = 0; k < pb.n; ++k) {
        const I* xk = pb.xk(k);
        const I z = pb.preactivation(B, k);
        const I& eta = eta_of(pb, sign_code(z), one);
        da += R[k] * leaky_relu(z, pb.gamma);
        const I er = eta * R[k];
        for (std::size_t i = 0; i < pb.d; ++i) D[i] += er * xk[i];
    }
    const I a = B[pb.d];
    for (std::size_t i = 0; i < pb.d; ++i) F[i] = -(pb.c * D[i]) * a;
    F[pb.d] = -(pb.c * da);
}

}  // namespace flowcert::nets::flow
