// Three-point geometry and data constants [BF2025, Sec. 4, Lemma 8 proof; docs/bf.md#step-0]. See three_point.hpp.
#include "flowcert/proofs/bf/three_point.hpp"

#include <stdexcept>

namespace flowcert::proofs::bf {

namespace {
Rational cross(const nets::QVec& a, const nets::QVec& b) { return a[0] * b[1] - a[1] * b[0]; }
IntervalD enclose(const Rational& q) { return IntervalD::from_decimal(q.str()); }
}  // namespace

ThreePointOrder three_point_order(const nets::AlignmentData& data) {
    ThreePointOrder o;
    if (data.n != 3 || data.d != 2) {
        o.geometry = ProofResult::not_proven("needs n = 3 points in d = 2");
        return o;
    }
    const auto& x = data.x;
    for (std::size_t k = 0; k < 3; ++k)
        for (std::size_t l = k + 1; l < 3; ++l)
            if (nets::dot(x[k], x[l]) <= 0) {
                o.geometry = ProofResult::not_proven("<x_" + std::to_string(k + 1) + ", x_" + std::to_string(l + 1) + "> <= 0");
                return o;
            }
    for (std::size_t mid = 0; mid < 3; ++mid) {
        const std::size_t a = (mid + 1) % 3, b = (mid + 2) % 3;
        const Rational det = cross(x[a], x[b]);
        if (det == 0) continue;
        // x_mid = alpha_a x_a + alpha_b x_b (Cramer's rule)
        const Rational al_a = cross(x[mid], x[b]) / det, al_b = cross(x[a], x[mid]) / det;
        if (al_a <= 0 || al_b <= 0) continue;
        const bool a_first = cross(x[mid], x[a]) > 0;  // x_a counter-clockwise of the middle point
        o.order = {a_first ? a : b, mid, a_first ? b : a};
        o.alpha1 = a_first ? al_a : al_b;
        o.alpha3 = a_first ? al_b : al_a;
        o.geometry = ProofResult::proven("exact: pairwise <x_k, x_l> > 0; x_" + std::to_string(mid + 1) + " = (" + o.alpha1.str() +
                                         ") x_" + std::to_string(o.order[0] + 1) + " + (" + o.alpha3.str() + ") x_" +
                                         std::to_string(o.order[2] + 1) +
                                         " with both coefficients > 0 (no neuron is active on the middle point alone)");
        return o;
    }
    o.geometry = ProofResult::not_proven("no point lies strictly inside the cone of the two others (two inputs parallel)");
    return o;
}

nets::TwoLayerSpec reorder(const nets::TwoLayerSpec& spec, const std::array<std::size_t, 3>& order) {
    nets::TwoLayerSpec s = spec;
    for (std::size_t k = 0; k < 3; ++k) {
        s.x[k] = spec.x[order[k]];
        s.y[k] = spec.y[order[k]];
    }
    return s;
}

Gram2 gram_over_n(const nets::AlignmentData& data) {
    Gram2 H{0, 0, 0};
    for (std::size_t k = 0; k < data.n; ++k) {
        H.p += data.x[k][0] * data.x[k][0];
        H.q += data.x[k][0] * data.x[k][1];
        H.r += data.x[k][1] * data.x[k][1];
    }
    const Rational nn(static_cast<long>(data.n));
    H.p /= nn;
    H.q /= nn;
    H.r /= nn;
    return H;
}

IntervalMp lambda_min(const Gram2& H, long bits) {
    const auto mp = [bits](const Rational& q) { return IntervalMp::from_decimal(q.str(), Precision(bits)); };
    // lambda_max = (p + r + sqrt((p - r)^2 + 4 q^2)) / 2
    const IntervalMp lmax = (mp(H.p + H.r) + sqrt(mp((H.p - H.r) * (H.p - H.r) + 4 * H.q * H.q))) / mp(Rational(2));
    return mp(H.det()) / lmax;
}

ThreePointData three_point_data(const nets::AlignmentData& data, const LeastSquares& ls, long bits) {
    if (data.n != 3 || data.d != 2 || !ls.ok) throw std::invalid_argument("three_point_data: needs n = 3, d = 2 and X of full rank");
    ThreePointData t;
    for (std::size_t k = 0; k < 3; ++k) {
        t.X[k] = {enclose(data.x[k][0]), enclose(data.x[k][1])};
        t.xnorm[k] = sqrt(sqr(t.X[k][0]) + sqr(t.X[k][1]));
        t.y[k] = enclose(data.y[k]);
        t.rstar[k] = enclose(ls.residuals[k]);
        t.prediction[k] = enclose(ls.predictions[k]);
    }
    for (std::size_t k = 0; k < 3; ++k)
        for (std::size_t l = 0; l < 3; ++l) t.gram[k][l] = t.X[k][0] * t.X[l][0] + t.X[k][1] * t.X[l][1];
    const Gram2 H = gram_over_n(data);
    t.lambda_min = to_interval_d(lambda_min(H, bits));
    // leverages x_k^T H^{-1} x_k, H^{-1} = [[r, -q], [-q, p]] / det(H) (exact rationals, then enclosed)
    for (std::size_t k = 0; k < 3; ++k) {
        const auto& xk = data.x[k];
        const Rational lv = (H.r * xk[0] * xk[0] - 2 * H.q * xk[0] * xk[1] + H.p * xk[1] * xk[1]) / H.det();
        t.lev[k] = to_interval_d(IntervalMp::from_decimal(lv.str(), Precision(bits)));
    }
    IntervalD bstar(0);
    for (const auto& bi : ls.beta) bstar += sqr(enclose(bi));
    t.beta_star_norm = sqrt(bstar);
    const auto& x = data.x;
    const Rational det13 = cross(x[0], x[2]);
    if (det13 != 0) {  // ls.ok (X of full rank) does not exclude x_1 parallel to x_3
        t.alpha1 = enclose(cross(x[1], x[2]) / det13);
        t.alpha3 = enclose(cross(x[0], x[1]) / det13);
    } else {
        t.alpha1 = t.alpha3 = IntervalD::entire();
    }
    for (std::size_t k = 0; k < 3; ++k) t.cross_middle[k] = enclose(cross(x[k], x[1]));
    return t;
}

}  // namespace flowcert::proofs::bf
