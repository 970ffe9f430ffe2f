// The affine-in-E form of GD on the Gram box and the subdivided box certificate; see box_affine.hpp.
#include "flowcert/proofs/rh/box_affine.hpp"

#include <algorithm>
#include <stdexcept>

namespace flowcert::proofs::rh {

int pair_index(int n, int i, int j) {
    if (i > j) std::swap(i, j);
    return i * n - i * (i - 1) / 2 + (j - i);  // row i of the packed upper triangle starts at i n - i (i - 1) / 2
}

const IntervalD& GramBox::at(int i, int j) const { return entry[pair_index(n, i, j)]; }

linalg::IMatrixD GramBox::hull() const {
    linalg::IMatrixD G(n, n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) G(i, j) = at(i, j);
    return G;
}

GramBox whole_box(const BoxSpec& spec) {
    const linalg::IMatrixD G = box_instance(spec).G;  // validates the spec
    GramBox b;
    b.n = spec.n;
    b.entry.resize(spec.n * (spec.n + 1) / 2);
    for (int i = 0; i < spec.n; ++i)
        for (int j = i; j < spec.n; ++j) b.entry[pair_index(spec.n, i, j)] = G(i, j);
    return b;
}

namespace {
double up(const IntervalD& x) { return upper(x); }
IntervalD pm(double r) { return IntervalD::bounds(-r, r); }
// sum_s |c_s| + rem, rounded up
double abs_sum(const AffineForm& f) {
    IntervalD s = IntervalD::exact(f.rem);
    for (const IntervalD& c : f.c) s += IntervalD::exact(mag(c));
    return up(s);
}
AffineForm constant(const IntervalD& v, int symbols) { return {v, std::vector<IntervalD>(symbols, IntervalD(0)), 0.0}; }
// f - s g (s an interval scalar): c_0, c_s exact in interval arithmetic, remainders added with |s|
void sub_scaled(AffineForm& f, const IntervalD& s, const AffineForm& g) {
    f.c0 -= s * g.c0;
    if (f.c.size() < g.c.size()) f.c.resize(g.c.size(), IntervalD(0));
    for (std::size_t k = 0; k < g.c.size(); ++k) f.c[k] -= s * g.c[k];
    f.rem = up(IntervalD::exact(f.rem) + IntervalD::exact(mag(s)) * IntervalD::exact(g.rem));
}
}  // namespace

IntervalD AffineForm::range() const {
    IntervalD s = IntervalD::exact(rem);
    for (const IntervalD& x : c) s += IntervalD::exact(mag(x));
    return c0 + pm(up(s));
}

AffineIteration::AffineIteration(const Instance& box_inst, const GramBox& box) : inst_(box_inst), box_(box) {
    if (inst_.m != 1 || inst_.n != box.n) throw std::invalid_argument("affine box GD: m = 1 and the box's n only");
    for (int i = 0; i < inst_.n; ++i)
        if (!(lower(inst_.Xu[0][i]) == 0 && upper(inst_.Xu[0][i]) == 0))
            throw std::invalid_argument("affine box GD: span initialization (u = 0) only");
    const std::size_t N = box.entry.size();
    symbols_ = N;
    mid_.resize(N);
    rad_.resize(N);
    for (std::size_t s = 0; s < N; ++s) {
        mid_[s] = mid(box.entry[s]);
        rad_[s] = rad(box.entry[s]);  // entry within mid +- rad
    }
    a_.assign(inst_.n, constant(inst_.a0[0][0], static_cast<int>(N)));
    for (int i = 0; i < inst_.n; ++i) a_[i].c0 = inst_.a0[0][i];
    const Pattern all(1, std::vector<int>(inst_.n, 1));
    beta_.resize(inst_.n);
    for (int i = 0; i < inst_.n; ++i) beta_[i] = times_gram_row(i, a_, all);  // beta(0) = G a^(0)
}

// sum_{j active} G_ij v_j with G_ij = mid + rad e_s: mid v_j exactly on the form, rad c_0(v_j) e_s to symbol s,
// and rad e_s (sum_t c_t(v_j) e_t + rem_j) + |mid| rem_j to the remainder (box_affine.hpp).
AffineForm AffineIteration::times_gram_row(int i, const std::vector<AffineForm>& v, const Pattern& P) const {
    std::size_t len = mid_.size();
    for (int j = 0; j < inst_.n; ++j)
        if (P[0][j]) len = std::max(len, v[j].c.size());
    AffineForm out = constant(IntervalD(0), static_cast<int>(len));
    IntervalD rem(0);
    for (int j = 0; j < inst_.n; ++j) {
        if (!P[0][j]) continue;
        const int s = pair_index(inst_.n, i, j);
        const IntervalD g = IntervalD::exact(mid_[s]), r = IntervalD::exact(rad_[s]);
        out.c0 += g * v[j].c0;
        for (std::size_t t = 0; t < v[j].c.size(); ++t) out.c[t] += g * v[j].c[t];
        out.c[s] += r * v[j].c0;
        rem += IntervalD::exact(std::abs(mid_[s])) * IntervalD::exact(v[j].rem) + r * IntervalD::exact(abs_sum(v[j]));
    }
    out.rem = drop_remainder ? 0.0 : up(rem);
    return out;
}

void AffineIteration::enclose(std::vector<IVec>& a, std::vector<IVec>& beta) const {
    a.assign(1, IVec(inst_.n));
    beta.assign(1, IVec(inst_.n));
    for (int i = 0; i < inst_.n; ++i) {
        a[0][i] = a_[i].range();
        beta[0][i] = beta_[i].range();
    }
}

void AffineIteration::step(const Pattern& P) {
    const int n = inst_.n;
    std::vector<AffineForm> r(n, constant(IntervalD(0), 0));
    for (int j = 0; j < n; ++j)
        if (P[0][j]) {
            r[j] = beta_[j];
            r[j].c0 -= inst_.y[j];
        }
    for (int i = 0; i < n; ++i) {
        if (P[0][i]) sub_scaled(a_[i], inst_.eta, r[i]);  // a^ <- a^ - h D r
        sub_scaled(beta_[i], inst_.eta, times_gram_row(i, r, P));  // beta <- beta - h G D r
    }
    // Each remainder becomes a fresh noise symbol (standard affine arithmetic): the next steps then carry it
    // linearly, so the contraction of GD acts on it (a remainder added in absolute value would grow by 1 + h
    // per step). a^ has no remainder of its own (a^ - h r is linear in the forms).
    for (int i = 0; i < n; ++i)
        if (beta_[i].rem > 0) {
            beta_[i].c.resize(symbols_ + 1, IntervalD(0));
            beta_[i].c[symbols_++] = IntervalD::exact(beta_[i].rem);
            beta_[i].rem = 0;
        }
}

namespace {
// The symbol with the largest first-order coefficient in f.
int largest_symbol(const AffineForm& f, std::size_t base) {
    int best = -1;
    double m = 0;
    for (std::size_t s = 0; s < std::min(f.c.size(), base); ++s)  // a coordinate of the box, not a remainder symbol
        if (mag(f.c[s]) > m) m = mag(f.c[s]), best = static_cast<int>(s);
    return best;
}
}  // namespace

namespace {
// [DERIVED] A lower bound of the gap that keeps the correlation between a_j(inf) and the multiplier alpha_j of each
// negative sample j (docs/rh.md#affine-form-and-subdivision). From complementarity (w_star_ball.cpp),
// |alpha_j| <= max(0, b_j + A off_j) / S_jj <= max(0, sigma_j b_j) + A off_j sigma_j with sigma_j >= 1 / S_jj, so
// a_j - alpha_j lies in [a_j, U_j], U_j = max(sup a_j, sup(a_j + sigma_j b_j)) + A off_j sigma_j, the sups taken on the
// affine forms of a_j (the iteration at the tail step: j is inactive from K on) and of b_j = <w_P, x_j> =
// sum_{k in P} G_jk gamma_k, gamma = G_PP^{-1} y_P = y_P - (G_PP - I) gamma: b_j = sum_k G_jk y_k (affine, exact) minus
// sum_k G_jk ((G_PP - I) gamma)_k (second order, an interval). Where U_j < 0, |a_j - alpha_j| >= -U_j, and
// gap^2 = v^T S v >= lambda_min(S) sum_j (-U_j)^2. Returns the lower bound of the gap (0 when it gives nothing).
double correlated_gap_lower(const Instance& inst, const GramBox& box, const AffineIteration& it, const WStarBall& ball) {
    if (!ball.by_multipliers) return 0;
    std::vector<int> P, N;
    for (int i = 0; i < inst.n; ++i) (inst.negative[i] ? N : P).push_back(i);
    const int np = static_cast<int>(P.size()), nn = static_cast<int>(N.size());
    linalg::IMatrixD GPP(np, np);
    linalg::IVectorD yP(np);
    for (int a = 0; a < np; ++a) {
        yP(a) = inst.y[P[a]];
        for (int b = 0; b < np; ++b) GPP(a, b) = inst.G(P[a], P[b]);
    }
    const auto gamma = linalg::verified_solve<IntervalD>(GPP, yP);
    if (gamma.status != ProofStatus::proven) return 0;
    IVec second(np);  // ((G_PP - I) gamma)_k
    for (int a = 0; a < np; ++a) {
        IntervalD s(0);
        for (int b = 0; b < np; ++b) s += (a == b ? inst.G(P[a], P[a]) - IntervalD(1) : inst.G(P[a], P[b])) * gamma.x(b);
        second[a] = s;
    }
    IntervalD sum_sq(0);
    for (int b = 0; b < nn; ++b) {
        const int j = N[b];
        AffineForm bj{IntervalD(0), std::vector<IntervalD>(box.entry.size(), IntervalD(0)), 0.0};
        for (int a = 0; a < np; ++a) {
            const int s = pair_index(inst.n, j, P[a]);
            const IntervalD& e = box.entry[s];
            bj.c0 += IntervalD::exact(mid(e)) * inst.y[P[a]] - inst.G(j, P[a]) * second[a];
            bj.c[s] += IntervalD::exact(rad(e)) * inst.y[P[a]];
        }
        const double sigma = upper(IntervalD(1) / IntervalD::exact(ball.s_diag_inf[b]));
        AffineForm f = it.a(j);
        sub_scaled(f, IntervalD::exact(-sigma), bj);  // a_j + sigma b_j
        const double u = upper(IntervalD::exact(std::max(upper(it.a(j).range()), upper(f.range()))) +
                               IntervalD::exact(ball.A) * IntervalD::exact(ball.off_sup[b]) * IntervalD::exact(sigma));
        if (!(u < 0)) return 0;
        sum_sq += sqr(IntervalD::exact(-u));
    }
    return lower(sqrt(IntervalD::exact(lower(IntervalD::exact(ball.lambda_min_inf) * sum_sq))));
}
}  // namespace

BoxLeaf certify_sub_box(const BoxSpec& spec, const GramBox& box, const GdOptions& options) {
    BoxLeaf leaf;
    leaf.box = box;
    const Instance inst = box_member(spec, box.hull());
    AffineIteration it(inst, box);
    leaf.pattern = certify_pattern_and_limit(inst, it, options);
    leaf.ball = enclose_gap_by_ball(inst, leaf.pattern);
    if (leaf.ball.status.is_proven()) {
        const double lo = correlated_gap_lower(inst, box, it, leaf.ball);
        if (lo > lower(leaf.ball.gap) && lo <= upper(leaf.ball.gap)) {
            leaf.ball.gap = IntervalD::bounds(lo, upper(leaf.ball.gap));
            leaf.ball.ratio_n_minus = leaf.ball.gap / sqrt(IntervalD(static_cast<int>(inst.n_minus)) / IntervalD(inst.d));
        }
    }
    leaf.certified = leaf.pattern.tail.is_proven() && leaf.ball.status.is_proven();
    if (leaf.certified) return leaf;
    int sample = leaf.pattern.undetermined_sample >= 0 ? leaf.pattern.undetermined_sample : leaf.pattern.worst_sample;
    leaf.failure = !leaf.pattern.signs.is_proven() ? leaf.pattern.signs.reason
                   : !leaf.pattern.tail.is_proven() ? leaf.pattern.tail.reason
                                                    : leaf.ball.status.reason;
    if (sample >= 0) {
        leaf.split_symbol = largest_symbol(it.beta(sample), box.entry.size());
    } else {  // the ball: the largest coefficient over every beta
        double m = 0;
        for (int i = 0; i < spec.n; ++i) {
            const int s = largest_symbol(it.beta(i), box.entry.size());
            if (s >= 0 && mag(it.beta(i).c[s]) > m) m = mag(it.beta(i).c[s]), leaf.split_symbol = s;
        }
    }
    return leaf;
}

namespace {
// The report's aggregate of certified leaves (box_affine.hpp).
void aggregate(BoxCertificate& cert) {
    PatternResult& p = cert.pattern;
    WStarBall& b = cert.ball;
    p = cert.leaves.front().pattern;
    b = cert.leaves.front().ball;
    for (std::size_t k = 1; k < cert.leaves.size(); ++k) {
        const PatternResult& q = cert.leaves[k].pattern;
        const WStarBall& c = cert.leaves[k].ball;
        if (q.pattern != p.pattern) {
            p.tail = ProofResult::not_proven("the final pattern differs between sub-boxes 0 and " + std::to_string(k));
            cert.status = p.tail;
            return;
        }
        p.K = std::max(p.K, q.K);
        p.tail_step = std::max(p.tail_step, q.tail_step);
        if (upper(q.rho) > upper(p.rho)) p.rho = q.rho, p.lambda = q.lambda;
        if (lower(q.margin) < lower(p.margin)) p.margin = q.margin, p.worst_neuron = q.worst_neuron, p.worst_sample = q.worst_sample;
        p.r_norm = hull(p.r_norm, q.r_norm);
        for (std::size_t i = 0; i < p.a_inf[0].size(); ++i) {
            p.a_inf[0][i] = hull(p.a_inf[0][i], q.a_inf[0][i]);
            p.beta_inf[0][i] = hull(p.beta_inf[0][i], q.beta_inf[0][i]);
        }
        p.fit_error = hull(p.fit_error, q.fit_error);
        b.t = hull(b.t, c.t);
        b.radius = hull(b.radius, c.radius);
        b.dist = hull(b.dist, c.dist);
        b.gap = hull(b.gap, c.gap);
        b.ratio_n_minus = hull(b.ratio_n_minus, c.ratio_n_minus);
    }
    const std::string each = " (in each of " + std::to_string(cert.leaves.size()) + " sub-boxes, affine-in-E GD)";
    p.signs = ProofResult::proven("every sign certified up to the tail step" + each);
    p.tail = ProofResult::proven("pattern fixed from step " + std::to_string(p.K) + ", tail certified by step " +
                                 std::to_string(p.tail_step) + each + "; rho <= " + std::to_string(upper(p.rho)));
    b.status = ProofResult::proven("w* in B(w_P, R) for every member" + each);
    cert.status = ProofResult::proven("every sub-box certified" + each);
}
}  // namespace

BoxCertificate certify_box(const BoxSpec& spec, const GdOptions& options, int max_boxes) {
    BoxCertificate cert;
    std::vector<GramBox> todo{whole_box(spec)};
    while (!todo.empty()) {
        GramBox box = std::move(todo.back());
        todo.pop_back();
        BoxLeaf leaf = certify_sub_box(spec, box, options);
        ++cert.boxes_run;
        if (leaf.certified) {
            cert.leaves.push_back(std::move(leaf));
            continue;
        }
        const bool budget = cert.boxes_run + static_cast<int>(todo.size()) + 2 <= max_boxes;
        if (leaf.split_symbol < 0 || !budget) {  // give up: this leaf decides the result
            const std::string why = "sub-box " + std::to_string(cert.boxes_run) + " of at most " + std::to_string(max_boxes) +
                                    (leaf.split_symbol < 0 ? " (no coordinate to split)" : " (budget reached)") + ": " + leaf.failure;
            cert.status = ProofResult::not_proven(why);
            cert.pattern = leaf.pattern;
            cert.ball = leaf.ball;
            cert.leaves.push_back(std::move(leaf));
            return cert;
        }
        const IntervalD& e = box.entry[leaf.split_symbol];
        const double m = mid(e);
        GramBox lo = box, hi = box;
        lo.entry[leaf.split_symbol] = IntervalD::bounds(lower(e), m);
        hi.entry[leaf.split_symbol] = IntervalD::bounds(m, upper(e));
        todo.push_back(std::move(hi));
        todo.push_back(std::move(lo));
    }
    aggregate(cert);
    return cert;
}

}  // namespace flowcert::proofs::rh
