// The scale-free box instance (issue 17 item 1); see box.hpp.
#include "flowcert/proofs/rh/box.hpp"

#include <stdexcept>

namespace flowcert::proofs::rh {

namespace {

Instance rescaled_instance(const BoxSpec& spec, linalg::IMatrixD G) {
    const int n = spec.n;
    if (n < 1) throw std::invalid_argument("box: n must be >= 1");
    const IntervalD h = IntervalD::from_decimal(spec.h), c = IntervalD::from_decimal(spec.c);
    if (!certainly_positive(h) || !certainly_positive(c)) throw std::invalid_argument("box: h and c~ must be > 0");
    Instance inst;
    inst.spec.n = n;
    inst.spec.d = 1;
    inst.spec.m = 1;
    inst.spec.labels = spec.labels;
    inst.spec.eta_d = spec.h;
    inst.spec.init = "span";
    inst.spec.init_scale = spec.c;
    inst.n = n;
    inst.d = 1;  // rescaled coordinates: tau = 1 (box.hpp)
    inst.m = 1;
    inst.y.assign(n, IntervalD(0));
    if (spec.labels != "alternating") throw std::invalid_argument("box: only alternating labels so far");
    inst.negative.assign(n, 0);
    for (int i = 0; i < n; ++i) {
        inst.y[i] = IntervalD(i % 2 == 0 ? 1 : -1);
        inst.negative[i] = i % 2;
    }
    inst.n_minus = n / 2;
    // h and c~ widened by the relative 2^-30: a data instance has eta tau = RD(h / tau) tau and
    // c tau = RD(c~ / tau) tau within x (1 -+ 2^-52 w), w the relative width of the enclosure of tau (exact
    // when isotropic, ~1e-11 for a power law at d = 1e6), so it is a member of the box.
    const IntervalD widen = IntervalD::bounds(1.0 - 0x1p-30, 1.0 + 0x1p-30);
    inst.eta = IntervalD::exact(upper(h)) * widen;
    inst.eta_d = inst.eta;
    inst.eta_trace = inst.eta;
    inst.init_c = IntervalD::exact(upper(c)) * widen;
    inst.cov.trace = IntervalD(1);
    inst.cov.trace_sq = IntervalD(1);
    inst.cov.lambda_max = IntervalD(1);
    inst.G = std::move(G);
    inst.s = {1};
    inst.a0.assign(1, std::vector<IntervalD>(n, inst.init_c));
    inst.Xu.assign(1, std::vector<IntervalD>(n, IntervalD(0)));
    inst.uu.assign(1, IntervalD(0));
    return inst;
}

}  // namespace

Instance box_instance(const BoxSpec& spec) {
    const IntervalD kappa = IntervalD::from_decimal(spec.kappa), eps = IntervalD::from_decimal(spec.eps);
    if (!(lower(kappa) >= 0) || !(upper(kappa) < 1)) throw std::invalid_argument("box: kappa must be in [0, 1)");
    if (!(lower(eps) >= 0)) throw std::invalid_argument("box: eps must be >= 0");
    linalg::IMatrixD G(spec.n, spec.n);
    const IntervalD diag = hull(IntervalD(1) - kappa, IntervalD(1) + kappa);
    const IntervalD off = hull(-eps, eps);
    for (int i = 0; i < spec.n; ++i)
        for (int j = 0; j < spec.n; ++j) G(i, j) = i == j ? diag : off;
    return rescaled_instance(spec, std::move(G));
}

Instance box_member(const BoxSpec& spec, const linalg::IMatrixD& normalized_gram) {
    if (normalized_gram.rows() != spec.n || normalized_gram.cols() != spec.n)
        throw std::invalid_argument("box member: Gram matrix must be n x n");
    return rescaled_instance(spec, normalized_gram);
}

BoxHypotheses box_hypotheses(const BoxSpec& spec) {
    const IntervalD kappa = IntervalD::from_decimal(spec.kappa), eps = IntervalD::from_decimal(spec.eps);
    const Instance box = box_instance(spec);
    const IntervalD &h = box.eta, &c = box.init_c;  // h and c~ as widened in the box
    const IntervalD spread = IntervalD(spec.n - 1) * eps;
    return {eps / (IntervalD(1) - kappa), h * (IntervalD(1) + kappa + spread), c * (IntervalD(1) - kappa - spread)};
}

ProofResult data_in_box(const BoxSpec& spec, const Instance& data) {
    if (data.n != spec.n || data.m != 1 || data.spec.init != "span" || data.spec.labels != spec.labels)
        return ProofResult::not_proven("not an instance of the box's setting (n, m = 1, span init, labels)");
    const Instance box = box_instance(spec);
    const IntervalD& tau = data.cov.trace;
    auto inside = [](const IntervalD& x, const IntervalD& range) { return lower(range) <= lower(x) && upper(x) <= upper(range); };
    if (!inside(data.eta * tau, box.eta)) return ProofResult::not_proven("eta tau = " + to_string(data.eta * tau, 17) + " not in " + to_string(box.eta, 17));
    if (!inside(data.init_c * tau, box.init_c))
        return ProofResult::not_proven("c tau = " + to_string(data.init_c * tau, 17) + " not in " + to_string(box.init_c, 17));
    for (int i = 0; i < spec.n; ++i)
        for (int j = 0; j < spec.n; ++j) {
            const IntervalD g = data.G(i, j) / tau;
            if (!inside(g, box.G(i, j)))
                return ProofResult::not_proven("G(" + std::to_string(i) + ", " + std::to_string(j) + ")" + " / tau = " + to_string(g, 6) + " not in " +
                                               to_string(box.G(i, j), 6));
        }
    return ProofResult::proven("G / tau, eta tau and c tau in the box");
}

}  // namespace flowcert::proofs::rh
