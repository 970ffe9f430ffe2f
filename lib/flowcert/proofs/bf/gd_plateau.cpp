// The plateau bound and the closed-cone classification of a GD run (gd_plateau.hpp).
#include "flowcert/proofs/bf/gd_plateau.hpp"


#include <algorithm>
#include <limits>
#include <string>

namespace flowcert::proofs::bf {

GdPlateauTracker::GdPlateauTracker(const LeastSquares& ls, const IntervalD& risk_weight, std::vector<std::size_t> record)
    : c_(risk_weight), record_(std::move(record)) {
    for (const auto& r : ls.residuals) rstar_.push_back(to_interval_d(enclose(r, 128)));
    std::sort(record_.begin(), record_.end());
}

void GdPlateauTracker::add(const nets::GdIterationView& v) {
    // L - L* >= c <r*, q> + (c/2) |r - r*|^2  (gd_plateau.hpp)
    IntervalD rq(0), dd(0), rr(0);
    for (std::size_t k = 0; k < rstar_.size(); ++k) {
        rq += rstar_[k] * v.unlumped_output[k];
        dd += sqr(v.residual[k] - rstar_[k]);
        rr += sqr(v.residual[k]);
    }
    const IntervalD half = c_ * dd / IntervalD(2);
    const double lo_q = lower(c_ * rq + half);
    // the per-neuron form <r*, q> = sum_j a_j sum_k r*_k relu(-z_jk) enclosed by the engine (gd_plateau.hpp)
    const double lo_p = is_bounded(v.pairing) ? lower(c_ * v.pairing + half) : -std::numeric_limits<double>::infinity();
    const double lo = std::max(lo_q, lo_p);
    pairing_decisive_ += lo_q < 0 && lo_p >= 0;
    if (lo < min_lower_) {
        min_lower_ = lo;
        argmin_ = v.t;
    }
    if (lo < 0 && first_negative_ == npos) first_negative_ = v.t;
    ++count_;
    if (std::binary_search(record_.begin(), record_.end(), v.t)) points_.push_back({v.t, c_ * rr / IntervalD(2), IntervalD::exact(lo)});
}

ProofResult GdPlateauTracker::loss_above_plateau() const {
    if (count_ == 0) return ProofResult::not_proven("no iteration observed");
    if (first_negative_ != npos)
        return ProofResult::not_proven("the lower bound of L - L* is " + format_g(min_lower_) + " < 0 at iteration " + std::to_string(argmin_) +
                                       " (first below 0: iteration " + std::to_string(first_negative_) + ")");
    return ProofResult::proven("L(theta_t) - L* >= " + format_g(min_lower_) + " (its least lower bound, at iteration " + std::to_string(argmin_) +
                               ") for all " + std::to_string(count_) + " iterations");
}

namespace {
// |z_jk*| / |w_j| <= ratio on the box, for a neuron certainly active on every sample but k* (infinite if |w_j| may be 0)
double kink_ratio(const nets::TwoLayerModel<IntervalD>& model, const nets::TwoLayerParams<IntervalD>& theta, std::size_t j,
                  const IntervalD& zk) {
    IntervalD w2(0);
    for (std::size_t i = 0; i < model.d(); ++i) w2 += sqr(theta.W(j, i));
    if (!certainly_positive(w2)) return std::numeric_limits<double>::infinity();
    return upper(abs(zk) / sqrt(w2));
}
}  // namespace

ConeCounts closed_cone_membership(const nets::TwoLayerModel<IntervalD>& model, const nets::TwoLayerParams<IntervalD>& theta,
                                  const std::vector<char>& maybe_frozen, const std::vector<int>& kink_sample,
                                  const std::vector<IntervalD>& kink_zeta, const IntervalD& kink_sine) {
    ConeCounts out;
    const auto z = nets::preactivations(model, theta);
    const std::size_t n = model.n();
    std::string first;
    std::vector<IntervalD> zj(n);
    for (std::size_t j = 0; j < theta.m; ++j) {
        for (std::size_t k = 0; k < n; ++k) zj[k] = z[j * n + k];
        if (j < kink_sample.size() && kink_sample[j] >= 0) {  // both enclose z_jk*: intersect
            const std::size_t ks = static_cast<std::size_t>(kink_sample[j]);
            const IntervalD zz = kink_zeta[j];
            zj[ks] = IntervalD::bounds(std::max(zj[ks].lower(), zz.lower()), std::min(zj[ks].upper(), zz.upper()));
        }
        bool act = true, inact = true;
        std::size_t npos_ = 0, kstar = n;
        for (std::size_t k = 0; k < n; ++k) {
            act = act && certainly_nonnegative(zj[k]);
            inact = inact && certainly_nonpositive(zj[k]);
            if (certainly_positive(zj[k])) ++npos_;
            else kstar = k;
        }
        IntervalD th2 = sqr(theta.a[j]);
        for (std::size_t i = 0; i < model.d(); ++i) th2 += sqr(theta.W(j, i));
        out.max_theta = std::max(out.max_theta, upper(sqrt(th2)));
        if ((act || inact) && j < maybe_frozen.size() && maybe_frozen[j]) ++out.maybe_frozen;
        if (act) {
            ++out.all_active;
            out.all_active_positive += certainly_positive(theta.a[j]);
            continue;
        }
        if (inact) {
            ++out.all_inactive;
            continue;
        }
        if (n >= 2 && npos_ + 1 == n) {  // active on every sample but kstar: near the kink face of kstar?
            const IntervalD zk = zj[kstar];
            IntervalD x2(0);
            for (std::size_t i = 0; i < model.d(); ++i) x2 += sqr(model.x(kstar, i));
            const double ratio = kink_ratio(model, theta, j, zk);
            if (certainly_positive(kink_sine) && ratio <= lower(kink_sine * sqrt(x2))) {
                ++out.kink;
                out.kink_max_a = std::max(out.kink_max_a, upper(abs(theta.a[j])));
                out.kink_max_theta = std::max(out.kink_max_theta, upper(sqrt(th2)));
                out.kink_max_ratio = std::max(out.kink_max_ratio, ratio);
                continue;
            }
        }
        if (out.other++ == 0) first = "neuron " + std::to_string(j);
    }
    std::string counts = std::to_string(out.all_active) + " in the closed all-active cone (" + std::to_string(out.all_active_positive) +
                         " with a_j > 0), " + std::to_string(out.all_inactive) + " in the closed all-inactive cone" +
                         (out.maybe_frozen ? " (" + std::to_string(out.maybe_frozen) + " of them possibly frozen earlier in the all-inactive cone)" : "");
    if (out.kink)
        counts += ", " + std::to_string(out.kink) + " in neither but within the angle asin(" + format_g(upper(kink_sine)) +
                  ") of a kink face (active on every other sample; |z_jk*| / |w_j| <= " + format_g(out.kink_max_ratio) + ", |a_j| <= " +
                  format_g(out.kink_max_a) + ", |theta_j| <= " + format_g(out.kink_max_theta) + " against max_j |theta_j| <= " + format_g(out.max_theta) + ")";
    out.result = out.other == 0 ? ProofResult::proven(counts)
                                : ProofResult::not_proven(counts + ", " + std::to_string(out.other) + " in neither on their boxes (first: " + first + ")");
    return out;
}

}  // namespace flowcert::proofs::bf

namespace flowcert::proofs::bf {
ProofResult relu_half_square(const nets::TwoLayerSpec& spec) {
    if (parse_rational_string(spec.gamma) != 0) return ProofResult::disproven("leaky ReLU slope gamma = " + spec.gamma + " (the statements are for ReLU)");
    if (spec.loss != nets::LossKind::half_square) return ProofResult::disproven("logistic loss (the statements are for the square loss)");
    return ProofResult::proven("ReLU, half-square loss");
}
}  // namespace flowcert::proofs::bf
