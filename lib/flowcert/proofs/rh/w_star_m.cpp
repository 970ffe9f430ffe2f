// The m-neuron model with m+ = m- = m/2 (docs/rh.md#w-star-m2, "m > 2"); see w_star_m.hpp.
#include "flowcert/proofs/rh/w_star_m.hpp"

#include "flowcert/proofs/rh/regime.hpp"

namespace flowcert::proofs::rh {

namespace {

// Same-sign neurons start equal: a_p(0), X u_p and ||u_p||^2 are the same exact points for every p of one sign.
bool same_sign_neurons_equal(const Instance& inst) {
    auto point_equal = [](const IntervalD& x, const IntervalD& y) {
        return lower(x) == upper(x) && lower(y) == upper(y) && lower(x) == lower(y);
    };
    for (int p = 0; p < inst.m; ++p) {
        const int first = inst.s[p] > 0 ? 0 : inst.m / 2;
        if (!point_equal(inst.uu[p], inst.uu[first])) return false;
        for (int i = 0; i < inst.n; ++i)
            if (!point_equal(inst.a0[p][i], inst.a0[first][i]) || !point_equal(inst.Xu[p][i], inst.Xu[first][i]))
                return false;
    }
    return true;
}

}  // namespace

ReductionResult reduce_to_m2(const Instance& inst) {
    ReductionResult res;
    const int m = inst.m, h = m / 2;
    Instance& r = res.reduced = inst;
    if (m < 2 || m % 2 != 0) return res.status = ProofResult::not_proven("m even >= 2 only (m+ = m- = m/2)"), res;
    const IntervalD half_m(h);  // v+- = (m/2) w_p, exactly (relu is positively homogeneous)
    r.m = r.spec.m = 2;
    r.s = {1, -1};
    r.eta = half_m * inst.eta;  // eta' = (m/2) eta: the m/2 same-sign gradients add up
    r.eta_d = half_m * inst.eta_d;
    r.eta_trace = half_m * inst.eta_trace;
    r.init_c = half_m * inst.init_c;  // v+-(0) = X^T (c' 1), c' = (m/2) c (span initialization)
    r.a0.assign(2, {});
    r.Xu.assign(2, {});
    r.uu.assign(2, {});
    for (int q = 0; q < 2; ++q) {  // neuron 0 of each sign stands for all (they are equal when proven below)
        const int p = q * h;
        for (const auto& a : inst.a0[p]) r.a0[q].push_back(half_m * a);
        for (const auto& xu : inst.Xu[p]) r.Xu[q].push_back(half_m * xu);
        r.uu[q] = sqr(half_m) * inst.uu[p];
    }
    res.eta_prime = r.eta;
    res.c_prime = r.init_c;
    if (!same_sign_neurons_equal(inst))
        return res.status = ProofResult::not_proven(
                   "the same-sign neurons do not start equal (" + inst.spec.init + " initialization), so the m-network "
                   "is not the m = 2 GD on (v+, v-): not covered (GD need not stay at the symmetric split)"),
               res;
    res.status = ProofResult::proven(
        "the m/2 neurons of each sign start equal (span initialization) and get equal gradients, so they stay equal; "
        "v+- = (m/2) w_p follows the m = 2 GD with eta' = (m/2) eta = " + to_string(res.eta_prime, 8) +
        " and c' = (m/2) c = " + to_string(res.c_prime, 8) + " (m = " + std::to_string(m) + ")");
    return res;
}

namespace {

// The deficit condition [docs/rh.md#w-star-m2]: 2 |y_i| - alpha_own,i lambda_max(G) > 0 for every i, alpha_own the
// multipliers of the neuron of y_i's sign (switching a same-sign neuron off on sample i costs more than it saves).
void check_deficit(const Instance& inst, const WStarM2Result& ws, SymmetricSplitResult& res) {
    res.lambda_max = lambda_max(inst.G);
    for (int i = 0; i < inst.n; ++i) {
        const IntervalD& alpha = inst.negative[i] ? ws.minus.alpha[i] : ws.plus.alpha[i];
        const IntervalD margin = IntervalD(2) * abs(inst.y[i]) - alpha * res.lambda_max;
        if (i == 0 || lower(margin) < lower(res.min_deficit_margin)) res.worst_sample = i;
        res.min_deficit_margin = i == 0 ? margin : min(res.min_deficit_margin, margin);
    }
    const std::string at = " (sample " + std::to_string(res.worst_sample) + ", lambda_max(G) in " +
                           to_string(res.lambda_max, 8) + ")";
    res.deficit = certainly_positive(res.min_deficit_margin)
                      ? ProofResult::proven("alpha_own,i lambda_max(G) < 2 |y_i| for every i: min margin " +
                                            to_string(res.min_deficit_margin, 6) + at)
                      : ProofResult::not_proven("deficit condition not certain: min_i 2 |y_i| - alpha_own,i lambda_max(G) in " +
                                                to_string(res.min_deficit_margin, 6) + at +
                                                "; switching a same-sign neuron off may be cheaper than the symmetric split");
}

}  // namespace

SymmetricSplitResult certify_symmetric_split(const Instance& inst, const WStarM2Result& ws, int m) {
    SymmetricSplitResult res;
    res.m = m;
    if (m < 2 || m % 2 != 0) return res.status = ProofResult::not_proven("m even >= 2 only (m+ = m- = m/2)"), res;
    if (!ws.plus.kkt.is_proven() || !ws.minus.kkt.is_proven())
        return res.status = res.deficit = ProofResult::not_proven("natural-pattern QPs not certified: " + ws.status.reason), res;
    const IntervalD scale = IntervalD(2) / IntervalD(m);
    res.norm_sq = scale * ws.norm_sq;  // U_m = ||w+*||^2 / (m/2) + ||w-*||^2 / (m/2)
    res.min_margin = scale * ws.min_margin;
    if (m == 2) res.deficit = ProofResult::proven("m = 2: one neuron per sign, no deficit (nothing to check)");
    else check_deficit(inst, ws, res);
    if (!ws.status.is_proven()) return res.status = ws.status, res;
    if (!res.deficit.is_proven()) return res.status = res.deficit, res;
    res.status = ProofResult::proven("w* = the symmetric split w_p = w+-* / (m/2): the m = 2 natural pair is certified, "
                                     "every c_i^(m) = (2/m)(alpha+_i + alpha-_i) > 0 and the deficit condition holds");
    return res;
}

}  // namespace flowcert::proofs::rh
