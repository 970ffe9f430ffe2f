// flowcert/nets/lumped_gd_kernel.hpp (internal to nets::lumped_gd) -- the upward-rounding per-neuron kernel and
// the kink-neuron step in adapted coordinates (docs/bf.md, "bf/figure2_gd", "Kink neurons").
#pragma once

#if !defined(FLOWCERT_NETS_LUMPED_GD_INTERNAL)
#error "internal header of nets::lumped_gd"
#endif

#include <flowcert/interval.hpp>

#include <algorithm>
#include <array>
#include <cfenv>
#include <cmath>
#include <cstddef>

namespace flowcert::nets::lumped_gd_detail {

// An interval as (-lo, hi), every operation rounded upward (the rounding mode is set once per pass by
// UpwardRounding; -frounding-math keeps the compiler from folding across it), so -lo and hi are both upper
// bounds [the negation trick of fast interval libraries, e.g. Goualard's GAOL].
struct Up {
    double nl = 0, hi = 0;  // the interval [-nl, hi]
    static Up of(const IntervalD& x) { return {-x.lower(), x.upper()}; }
    // overflow or NaN (an enclosure that blew up) becomes the whole line, still an enclosure
    IntervalD interval() const { return std::isfinite(nl) && std::isfinite(hi) ? IntervalD::bounds(-nl, hi) : IntervalD::entire(); }
    Up neg() const { return {hi, nl}; }
    Up relu() const { return {std::min(nl, 0.0), std::max(hi, 0.0)}; }
    Up hull_zero() const { return {std::max(nl, 0.0), std::max(hi, 0.0)}; }  // hull with 0: {s g : s in [0, 1]}
    bool positive() const { return nl < 0; }                                  // lower bound > 0
};
inline Up operator+(const Up& a, const Up& b) { return {a.nl + b.nl, a.hi + b.hi}; }
inline Up operator-(const Up& a, const Up& b) { return a + b.neg(); }
// [al, ah] [bl, bh]: hi = max of the four products rounded up; -lo = max of their negations rounded up
inline Up operator*(const Up& a, const Up& b) {
    const double al = -a.nl, bl = -b.nl, nah = -a.hi;  // exact negations
    const double hi = std::max(std::max(a.hi * b.hi, al * bl), std::max(a.hi * bl, al * b.hi));
    const double nl = std::max(std::max(nah * b.hi, a.nl * bl), std::max(nah * bl, a.nl * b.hi));
    return {nl, hi};
}
inline Up hull(const Up& a, const Up& b) { return {std::max(a.nl, b.nl), std::max(a.hi, b.hi)}; }

class UpwardRounding {
public:
    UpwardRounding() : old_(std::fegetround()) { std::fesetround(FE_UPWARD); }
    ~UpwardRounding() { std::fesetround(old_); }
    UpwardRounding(const UpwardRounding&) = delete;
    UpwardRounding& operator=(const UpwardRounding&) = delete;

private:
    int old_;
};

// A kink neuron: certainly active on every sample but k, undecided on k. Its state in adapted coordinates:
// zeta = <w, x_k> and y = P w with P = I - x_k x_k^T / |x_k|^2 (d redundant coordinates spanning x_k^perp), so
// w = y + zeta x_k / |x_k|^2 exactly, and a (kept in the neuron's a box).
struct KinkState {
    std::size_t k = 0;
    Up zeta;
    std::array<Up, 4> y;
};

// The data of the kink step (all Up; the caller holds an UpwardRounding): the sample x_k, |x_k|^2 and an
// enclosure of 1 / |x_k|^2.
struct KinkSample {
    std::array<Up, 4> x;
    Up x2, inv_x2;
};

// w = y + zeta x_k / |x_k|^2 (an enclosure of the true w when y, zeta enclose the true coordinates)
inline void kink_rebuild(const KinkState& s, const KinkSample& xs, std::size_t d, std::array<Up, 5>& w) {
    const Up f = s.zeta * xs.inv_x2;
    for (std::size_t i = 0; i < d; ++i) w[i] = s.y[i] + xs.x[i] * f;
}
// The coordinates of a neuron entering the kink representation: zeta = z_k (its enclosure), y = w - zeta x_k / |x_k|^2.
inline KinkState kink_enter(std::size_t k, const Up& zk, const std::array<Up, 5>& w, const KinkSample& xs, std::size_t d) {
    KinkState s;
    s.k = k;
    s.zeta = zk;
    const Up f = zk * xs.inv_x2;
    for (std::size_t i = 0; i < d; ++i) s.y[i] = w[i] - xs.x[i] * f;
    return s;
}

// One GD step of a kink neuron (docs/bf.md, "Kink neurons"). D_S = -c sum_k r_k x_k over all samples (`DS`) and
// c r_k (`crk`); with sigma'(0) = 0 the neuron moves exactly by
//   branch A (zeta <= 0, pattern S minus k, D = D_S + c r_k x_k): zeta' = zeta + h a (<D_S, x_k> + c r_k |x_k|^2),
//                                                                  a' = a + h <D_S, w> + h c r_k zeta;
//   branch B (zeta > 0, pattern S, D = D_S):                       zeta' = zeta + h a <D_S, x_k>,  a' = a + h <D_S, w>;
// and in both y' = y + h a P D_S (P x_k = 0, so the c r_k x_k of branch A leaves y unchanged). The box is split at
// zeta = 0, each part moved by its branch's map, and the images hulled.
// `wrong_branch_A` (mutation tests only) moves part A by branch B's map.
inline void kink_step(KinkState& s, Up& a, const KinkSample& xs, std::size_t d, const std::array<Up, 5>& DS, const Up& crk_, const Up& h,
                      bool wrong_branch_A = false) {
    const Up crk = wrong_branch_A ? Up{0, 0} : crk_;
    std::array<Up, 5> w;
    kink_rebuild(s, xs, d, w);
    Up dsx{0, 0}, dsw{0, 0};
    for (std::size_t i = 0; i < d; ++i) {
        dsx = dsx + DS[i] * xs.x[i];
        dsw = dsw + DS[i] * w[i];
    }
    const Up ha = h * a, base = a + h * dsw;
    const Up& z = s.zeta;
    const bool partA = z.nl >= 0, partB = z.hi > 0;  // lower <= 0; upper > 0
    Up zeta1{-INFINITY, -INFINITY}, a1 = base;        // (-inf, -inf): the empty interval under hull
    if (partA) {
        const Up zA{z.nl, std::min(z.hi, 0.0)};
        zeta1 = hull(zeta1, zA + ha * (dsx + crk * xs.x2));
        a1 = partB ? hull(base, base + h * (crk * zA)) : base + h * (crk * zA);
    }
    if (partB) {
        const Up zB{std::min(z.nl, 0.0), z.hi};
        zeta1 = hull(zeta1, zB + ha * dsx);
    }
    const Up f = dsx * xs.inv_x2;
    for (std::size_t i = 0; i < d; ++i) s.y[i] = s.y[i] + ha * (DS[i] - xs.x[i] * f);
    s.zeta = zeta1;
    a = a1;
}

}  // namespace flowcert::nets::lumped_gd_detail
