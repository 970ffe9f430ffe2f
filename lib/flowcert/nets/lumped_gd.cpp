// Rigorous gradient descent with the all-active class lumped (lumped_gd.hpp; docs/bf.md,
// "bf/figure2_gd"). One run: a per-neuron phase up to the hand-off, then the class moment
// as a Lohner set, its transition matrix, member screening and the individual neurons.
#include "flowcert/nets/lumped_gd.hpp"

#define FLOWCERT_NETS_LUMPED_GD_INTERNAL
#include "lumped_gd_kernel.hpp"

#include <flowcert/linalg.hpp>
#include <flowcert/nets/lumped_moments.hpp>

#include <algorithm>
#include <array>
#include <cfenv>
#include <cmath>
#include <limits>

namespace flowcert::nets {

namespace {

constexpr std::size_t kMaxMoment = 15;  // moment_size(4)

// Forward-mode derivative over intervals: value and partials with respect to the n moment entries.
struct Dual {
    IntervalD v;
    std::array<IntervalD, kMaxMoment> g{};
    int n = 0;
};
Dual operator+(const Dual& a, const Dual& b) {
    Dual r{a.v + b.v, {}, a.n};
    for (int i = 0; i < a.n; ++i) r.g[i] = a.g[i] + b.g[i];
    return r;
}
Dual operator-(const Dual& a, const Dual& b) {
    Dual r{a.v - b.v, {}, a.n};
    for (int i = 0; i < a.n; ++i) r.g[i] = a.g[i] - b.g[i];
    return r;
}
Dual operator*(const Dual& a, const Dual& b) {
    Dual r{a.v * b.v, {}, a.n};
    for (int i = 0; i < a.n; ++i) r.g[i] = a.g[i] * b.v + a.v * b.g[i];
    return r;
}
Dual operator*(const IntervalD& s, const Dual& a) {
    Dual r{s * a.v, {}, a.n};
    for (int i = 0; i < a.n; ++i) r.g[i] = s * a.g[i];
    return r;
}
template <class S> S constant_as(const IntervalD& x, const S& like) {
    if constexpr (std::is_same_v<S, Dual>) return Dual{x, {}, like.n};
    else return x;
}

// The lumped map of class P (every sample active) [BF2025, eq. (6)], with A = I + h K(r):
//   W' = W + h (D m^T + m D^T) + h^2 alpha D D^T,  m' = m + h (W D + alpha D) + h^2 D (m^T D),
//   alpha' = alpha + 2 h D^T m + h^2 D^T W D,   D = -c sum_k r_k x_k,  r_k = <x_k, m> + q_k - y_k.
struct MomentMap {
    const TwoLayerModel<IntervalD>& model;
    IntervalD h, h2, two_h, scale;
    std::size_t d, n, N;

    template <class S>
    void operator()(const S* M, const std::vector<IntervalD>& q, S* out) const {
        auto at = [&](std::size_t a, std::size_t b) -> const S& { return M[moment_index(a, b, d)]; };
        const S& alpha = at(d, d);
        std::array<S, 5> D, WD;
        for (std::size_t i = 0; i < d; ++i) D[i] = constant_as(IntervalD(0), alpha);
        for (std::size_t k = 0; k < n; ++k) {
            S rk = constant_as(q[k] - model.y(k), alpha);
            for (std::size_t i = 0; i < d; ++i) rk = rk + model.x(k, i) * at(i, d);
            for (std::size_t i = 0; i < d; ++i) D[i] = D[i] - model.x(k, i) * rk;
        }
        const IntervalD cs = model.risk_weight() * scale;
        for (std::size_t i = 0; i < d; ++i) D[i] = cs * D[i];
        S mD = constant_as(IntervalD(0), alpha), DWD = mD;
        for (std::size_t i = 0; i < d; ++i) {
            WD[i] = constant_as(IntervalD(0), alpha);
            for (std::size_t l = 0; l < d; ++l) WD[i] = WD[i] + at(i, l) * D[l];
            mD = mD + at(i, d) * D[i];
            DWD = DWD + D[i] * WD[i];
        }
        for (std::size_t i = 0; i < d; ++i) {
            for (std::size_t l = i; l < d; ++l)
                out[moment_index(i, l, d)] = at(i, l) + h * (D[i] * at(l, d) + at(i, d) * D[l]) + h2 * (alpha * (D[i] * D[l]));
            out[moment_index(i, d, d)] = at(i, d) + h * (WD[i] + alpha * D[i]) + h2 * (D[i] * mD);
        }
        out[moment_index(d, d, d)] = alpha + two_h * mD + h2 * DWD;
    }
};

IntervalD relu_hull(const IntervalD& z) { return IntervalD::bounds(std::max(z.lower(), 0.0), std::max(z.upper(), 0.0)); }

// The moment as a Lohner set x = c + B rho (c, B exact doubles; Binv encloses B^{-1}).
struct LohnerMoment {
    std::size_t N = 0;
    std::vector<double> c;
    Eigen::MatrixXd B;
    linalg::IMatrixD Binv;
    std::vector<IntervalD> rho;
    std::size_t steps = 0;
    static constexpr std::size_t kRebase = 8;

    void init(const std::vector<IntervalD>& box) {
        N = box.size();
        c.resize(N);
        rho.resize(N);
        for (std::size_t i = 0; i < N; ++i) {
            c[i] = mid(box[i]);
            rho[i] = box[i] - IntervalD::exact(c[i]);
        }
        B = Eigen::MatrixXd::Identity(static_cast<Eigen::Index>(N), static_cast<Eigen::Index>(N));
        Binv = linalg::identity<IntervalD>(static_cast<Eigen::Index>(N), 53);
        steps = 0;
    }
    // the box of the set; with `with_centre` the box of the set and c (the mean-value segments)
    std::vector<IntervalD> box(bool with_centre = false) const {
        std::vector<IntervalD> x(N);
        for (std::size_t i = 0; i < N; ++i) {
            IntervalD s = IntervalD::exact(c[i]);
            for (std::size_t j = 0; j < N; ++j) s += IntervalD::exact(B(i, j)) * (with_centre ? hull(rho[j], IntervalD(0)) : rho[j]);
            x[i] = s;
        }
        return x;
    }
    // every state x becomes x + e for some e in delta: the centre moves to c' = mid(c + delta) and
    // rho by B^{-1} (c + delta - c'), so rho stays centred (the step's Jacobian box stays small)
    void add(const std::vector<IntervalD>& delta) {
        std::vector<IntervalD> e(N);
        for (std::size_t i = 0; i < N; ++i) {
            const IntervalD ci = IntervalD::exact(c[i]) + delta[i];
            const double c1 = mid(ci);
            e[i] = ci - IntervalD::exact(c1);
            c[i] = c1;
        }
        for (std::size_t i = 0; i < N; ++i) {
            IntervalD s(0);
            for (std::size_t j = 0; j < N; ++j) s += Binv(i, j) * e[j];
            rho[i] += s;
        }
    }
    // x <- F(x): F(X) in F(c) + J B rho with J the Jacobian enclosure over the segments from c to the
    // set (rho need not contain 0 after add(): the box of the set alone would not do) [Lohner 1987]
    bool step(const MomentMap& F, const std::vector<IntervalD>& q) {
        const std::vector<IntervalD> X = box(true);
        std::vector<IntervalD> cp(N), Fc(N);
        for (std::size_t i = 0; i < N; ++i) cp[i] = IntervalD::exact(c[i]);
        F(cp.data(), q, Fc.data());
        std::vector<Dual> Xd(N), Fd(N);
        for (std::size_t i = 0; i < N; ++i) {
            Xd[i] = Dual{X[i], {}, static_cast<int>(N)};
            Xd[i].g[i] = IntervalD(1);
        }
        F(Xd.data(), q, Fd.data());
        const auto n = static_cast<Eigen::Index>(N);
        linalg::IMatrixD JB(n, n);
        Eigen::MatrixXd A(n, n);
        for (std::size_t i = 0; i < N; ++i)
            for (std::size_t j = 0; j < N; ++j) {
                IntervalD s(0);
                for (std::size_t l = 0; l < N; ++l) s += Fd[i].g[l] * IntervalD::exact(B(l, j));
                JB(i, j) = s;
                A(i, j) = mid(s) * std::max(upper(abs(rho[j])), 1e-300);  // columns weighted by the set's extent
            }
        std::vector<double> c1(N);
        for (std::size_t i = 0; i < N; ++i) c1[i] = mid(Fc[i]);
        // a new basis every kRebase steps (any invertible B' with an enclosed inverse is valid; between the
        // QR factorizations the basis is kept, which costs nothing while the map is close to the identity)
        Eigen::MatrixXd Q = B;
        linalg::IMatrixD Qinv = Binv;
        if (steps++ % kRebase == 0) {
            auto qr = linalg::orthogonal_basis<IntervalD>(A, 53);
            Q = Eigen::MatrixXd::Identity(n, n);
            Qinv = linalg::identity<IntervalD>(n, 53);
            if (qr.status == ProofStatus::proven) {
                Q = qr.Q_double;
                Qinv = qr.Q_inverse;
            }
        }
        std::vector<IntervalD> rho1(N);
        // rho' = Q^{-1} (F(c) - c' + J B rho), grouped as (Q^{-1} J B) rho to keep the rotation exact
        for (std::size_t i = 0; i < N; ++i) {
            IntervalD s(0);
            for (std::size_t j = 0; j < N; ++j) {
                IntervalD qjb(0);
                for (std::size_t l = 0; l < N; ++l) qjb += Qinv(i, l) * JB(l, j);
                s += qjb * rho[j];
                s += Qinv(i, j) * (Fc[j] - IntervalD::exact(c1[j]));
            }
            rho1[i] = s;
            if (!is_bounded(s)) return false;
        }
        c = std::move(c1);
        B = std::move(Q);
        Binv = std::move(Qinv);
        rho = std::move(rho1);
        return true;
    }
};

using lumped_gd_detail::KinkSample;
using lumped_gd_detail::KinkState;
using lumped_gd_detail::Up;
using lumped_gd_detail::UpwardRounding;

class Run {
public:
    Run(const TwoLayerModel<IntervalD>& model, const IntervalD& step, const LumpedGdOptions& opt, const GdObserver& obs,
        LumpedGdResult& res)
        : model_(model), opt_(opt), obs_(obs), res_(res), th_(res.theta), m_(res.theta.m), d_(model.d()), n_(model.n()),
          S_(d_ + 1), h_(step), map_{model, step, sqr(step), IntervalD(2) * step, IntervalD::from_decimal(opt.k_scale), d_, n_,
                                     moment_size(d_)} {
        res_.role.assign(m_, GdNeuronRole::individual);
        res_.maybe_frozen.assign(m_, 0);
        for (std::size_t k = 0; k < n_; ++k)
            for (std::size_t i = 0; i < d_; ++i) x_.push_back(Up::of(model.x(k, i)));
        for (std::size_t j = 0; j < m_; ++j) live_.push_back(j);
        kink_of_.assign(m_, -1);
        for (std::size_t k = 0; k < n_; ++k) {
            KinkSample ks;
            IntervalD x2(0);
            for (std::size_t i = 0; i < d_; ++i) {
                ks.x[i] = Up::of(model.x(k, i));
                x2 += sqr(model.x(k, i));
            }
            ks.x2 = Up::of(x2);
            ks.inv_x2 = Up::of(IntervalD(1) / x2);
            ksample_.push_back(ks);
        }
        pairing_ = opt.pairing_residual.size() == n_;
        for (std::size_t k = 0; k < n_ && pairing_; ++k) prho_[k] = Up::of(opt.pairing_residual[k]);
        for (std::size_t k = 0; k < n_; ++k) {
            std::vector<double> u(S_, 0.0);
            double u2 = 0;
            for (std::size_t i = 0; i < d_; ++i) {
                u[i] = mid(model.x(k, i));
                u2 += u[i] * u[i];
            }
            u_.push_back(u);
            u2_.push_back(u2);
        }
    }

    void run() {
        std::vector<IntervalD> q(n_), r(n_);
        for (std::size_t t = 0;; ++t) {
            if (t == opt_.handoff) handoff();
            if (lumped_) screen(t);
            individual_outputs(q);
            residuals(q, r);
            for (const auto& rk : r)
                if (!is_bounded(rk)) return fail("residual enclosure unbounded at iteration " + std::to_string(t));
            if (obs_) obs_(GdIterationView{t, r, q, lumped_, pairing_ ? pairing_sum_ : IntervalD::entire()});
            if (std::find(opt_.snapshots.begin(), opt_.snapshots.end(), t) != opt_.snapshots.end()) {
                res_.snapshots.push_back({t, state(), res_.maybe_frozen, r, {}, {}});
                kink_result(res_.snapshots.back().kink_sample, res_.snapshots.back().kink_zeta);
            }
            res_.iterations_done = t;
            if (t == opt_.iterations) {
                res_.theta = state();
                res_.residual = r;
                if (lumped_) res_.moment = set_.box();
                kink_result(res_.kink_sample, res_.kink_zeta);
                for (std::size_t j : members_alive()) res_.role[j] = GdNeuronRole::lumped;
                return;
            }
            step_individuals(r);
            if (lumped_) {
                if (!set_.step(map_, q)) return fail("moment set not finite at iteration " + std::to_string(t));
                advance_phi(r);
                ++res_.stats.lumped_steps;
                for (const auto& x : set_.rho) res_.stats.max_rho_width = std::max(res_.stats.max_rho_width, upper(abs(x)));
            }
        }
    }

private:
    void fail(const std::string& why) {
        res_.status = GdStatus::diverged;
        res_.reason = why;
    }
    IntervalD z_of(const IntervalD* th, std::size_t k) const {
        IntervalD s = th[0] * model_.x(k, 0);
        for (std::size_t i = 1; i < d_; ++i) s += th[i] * model_.x(k, i);
        return s;
    }
    IntervalD* box(std::size_t j) { return &box_[j * S_]; }

    // ---- individual neurons: outputs (freezing those inactive on every sample), then one GD step each, in the
    // upward-rounding kernel (one rounding-mode switch per pass instead of one per operation)
    void individual_outputs(std::vector<IntervalD>& q) {
        z_.resize(live_.size() * n_);
        std::array<Up, 32> acc;
        std::size_t keep = 0;
        Up pair{0, 0};
        {
            const UpwardRounding up;
            for (std::size_t k = 0; k < n_; ++k) acc[k] = Up{0, 0};
            for (std::size_t p = 0; p < live_.size(); ++p) {
                const std::size_t j = live_[p];
                std::array<Up, 5> w;
                for (std::size_t i = 0; i < d_; ++i) w[i] = Up::of(th_.W(j, i));
                const Up a = Up::of(th_.a[j]);
                bool dead = true;
                std::array<Up, 32> zz;
                for (std::size_t k = 0; k < n_; ++k) {
                    Up s = w[0] * x_[k * d_];
                    for (std::size_t i = 1; i < d_; ++i) s = s + w[i] * x_[k * d_ + i];
                    zz[k] = s;
                }
                if (kink_of_[j] >= 0) {  // z_k of a kink neuron is its coordinate zeta (w is rebuilt from it)
                    const KinkState& ks = kinks_[static_cast<std::size_t>(kink_of_[j])];
                    zz[ks.k] = ks.zeta;
                }
                for (std::size_t k = 0; k < n_; ++k) dead = dead && zz[k].hi <= 0;  // sigma(z) = 0, sigma'(z) = 0 (PyTorch's sigma'(0))
                if (dead) {
                    res_.role[j] = GdNeuronRole::frozen;
                    kink_leave(j);
                    continue;
                }
                const bool mf = res_.maybe_frozen[j] != 0;
                Up pj{0, 0};
                for (std::size_t k = 0; k < n_; ++k) {
                    const Up out = a * zz[k].relu();
                    acc[k] = acc[k] + (mf ? out.hull_zero() : out);  // a frozen branch contributes 0
                    z_[keep * n_ + k] = zz[k];
                    if (pairing_) pj = pj + prho_[k] * zz[k].neg().relu();
                }
                if (pairing_) pair = pair + (mf ? (a * pj).hull_zero() : a * pj);
                live_[keep++] = j;
            }
        }
        for (std::size_t k = 0; k < n_; ++k) q[k] = acc[k].interval();
        pairing_sum_ = pair.interval();
        live_.resize(keep);
    }
    void step_individuals(const std::vector<IntervalD>& r) {
        std::array<Up, 32> rk;
        std::size_t und = 0;
        {
            const UpwardRounding up;
            for (std::size_t k = 0; k < n_; ++k) rk[k] = Up::of(r[k]);
            const Up h = Up::of(h_), mc = Up::of(model_.risk_weight()).neg();
            std::array<Up, 5> DS;  // D_S over all samples, for the kink steps
            for (std::size_t i = 0; i < d_; ++i) {
                Up s{0, 0};
                for (std::size_t k = 0; k < n_; ++k) s = s + rk[k] * x_[k * d_ + i];
                DS[i] = mc * s;
            }
            for (std::size_t p = 0; p < live_.size(); ++p) {
                const std::size_t j = live_[p];
                std::array<Up, 5> D, w;
                for (std::size_t i = 0; i < d_; ++i) {
                    D[i] = Up{0, 0};
                    w[i] = Up::of(th_.W(j, i));
                }
                // one sample undecided and every other certainly inactive: the neuron is either active there
                // (pattern {k}, stepped exactly) or frozen for good (dead-or-alive split, no hull)
                std::size_t nund = 0, nact = 0;
                for (std::size_t k = 0; k < n_; ++k) {
                    const Up& z = z_[p * n_ + k];
                    nund += z.hi > 0 && !(z.nl < 0);
                    nact += z.nl < 0;
                }
                if (kink_track(p, j, nund, nact)) {
                    kink_advance(j, rk, DS, mc, h);
                    continue;
                }
                const bool split = nund == 1 && nact == 0;
                if (split) res_.maybe_frozen[j] = 1;
                bool undecided = false;
                for (std::size_t k = 0; k < n_; ++k) {
                    const Up& z = z_[p * n_ + k];
                    if (z.hi <= 0) continue;  // sigma'(z) = 0
                    Up g = rk[k];
                    if (!(z.nl < 0) && !split) {  // not certainly positive: sigma'(z) in [0, 1]
                        g = g.hull_zero();
                        undecided = true;
                    }
                    for (std::size_t i = 0; i < d_; ++i) D[i] = D[i] + g * x_[k * d_ + i];
                }
                const Up a = Up::of(th_.a[j]);
                Up wd{0, 0};
                for (std::size_t i = 0; i < d_; ++i) {
                    D[i] = mc * D[i];
                    wd = wd + w[i] * D[i];
                }
                const Up ha = h * a;
                for (std::size_t i = 0; i < d_; ++i) w[i] = w[i] + ha * D[i];
                const Up a1 = a + h * wd;
                for (std::size_t i = 0; i < d_; ++i) wbuf_[i] = w[i];
                abuf_ = a1;
                store(j);
                und += undecided;
            }
        }
        res_.stats.neuron_steps += live_.size();
        res_.stats.undecided_steps += und;
    }
    // ---- kink neurons (lumped_gd_kernel.hpp; docs/bf.md, "Kink neurons"): certainly active on every sample but one,
    // k. Individual neuron j (position p in live_) enters when it is not certainly active on k, undecided there and not
    // flagged maybe-frozen; it stays while every other sign is certainly positive, whatever its sign on k (leaving
    // when that sign is decided, and re-entering from the rebuilt box, would widen zeta at each cycle).
    bool kink_track(std::size_t p, std::size_t j, std::size_t nund, std::size_t nact) {
        if (kink_of_[j] >= 0) {
            const std::size_t kk = kinks_[static_cast<std::size_t>(kink_of_[j])].k;
            bool others = true;
            for (std::size_t k = 0; k < n_; ++k) others = others && (k == kk || z_[p * n_ + k].positive());
            if (!others) kink_leave(j);
            return kink_of_[j] >= 0;
        }
        if (!opt_.kink_neurons || n_ < 2 || nact + 1 != n_ || nund != 1 || res_.maybe_frozen[j]) return false;
        std::size_t kk = 0;
        for (std::size_t k = 0; k < n_; ++k)
            if (!z_[p * n_ + k].positive()) kk = k;
        std::array<Up, 5> w;
        for (std::size_t i = 0; i < d_; ++i) w[i] = Up::of(th_.W(j, i));
        int slot;
        if (!kink_free_.empty()) {
            slot = kink_free_.back();
            kink_free_.pop_back();
        } else {
            slot = static_cast<int>(kinks_.size());
            kinks_.emplace_back();
        }
        kinks_[static_cast<std::size_t>(slot)] = lumped_gd_detail::kink_enter(kk, z_[p * n_ + kk], w, ksample_[kk], d_);
        kink_of_[j] = slot;
        ++res_.stats.kink_entries;
        res_.stats.kink_max = std::max(res_.stats.kink_max, kinks_.size() - kink_free_.size());
        return true;
    }
    void kink_leave(std::size_t j) {
        if (kink_of_[j] < 0) return;
        kink_free_.push_back(kink_of_[j]);
        kink_of_[j] = -1;
        ++res_.stats.kink_exits;
    }
    // the two-branch step; the neuron's box is rebuilt from the new coordinates (its outputs, its state)
    void kink_advance(std::size_t j, const std::array<Up, 32>& rk, const std::array<Up, 5>& DS, const Up& mc, const Up& h) {
        KinkState& st = kinks_[static_cast<std::size_t>(kink_of_[j])];
        Up a = Up::of(th_.a[j]);
        lumped_gd_detail::kink_step(st, a, ksample_[st.k], d_, DS, mc.neg() * rk[st.k], h, opt_.kink_mutation == "kink_branch_A_without_kick");
        lumped_gd_detail::kink_rebuild(st, ksample_[st.k], d_, wbuf_);
        abuf_ = a;
        store(j);
        ++res_.stats.kink_steps;
    }
    void kink_result(std::vector<int>& sample, std::vector<IntervalD>& zeta) const {
        sample.assign(m_, -1);
        zeta.assign(m_, IntervalD::entire());
        for (std::size_t j = 0; j < m_; ++j)
            if (kink_of_[j] >= 0) {
                const KinkState& st = kinks_[static_cast<std::size_t>(kink_of_[j])];
                sample[j] = static_cast<int>(st.k);
                zeta[j] = st.zeta.interval();
            }
    }

    // writes the kernel's result for neuron j back (plain stores, valid under any rounding mode)
    void store(std::size_t j) {
        for (std::size_t i = 0; i < d_; ++i) th_.W(j, i) = wbuf_[i].interval();
        th_.a[j] = abuf_.interval();
    }

    // ---- the lumped class
    void handoff() {
        if (d_ + 1 > 5 || moment_size(d_) > kMaxMoment) return;
        std::vector<IntervalD> M(moment_size(d_), IntervalD(0));
        box_.assign(m_ * S_, IntervalD(0));
        std::size_t keep = 0;
        for (std::size_t j : live_) {
            if (kink_of_[j] >= 0) {  // a kink neuron stays individual (it leaves that representation by itself)
                live_[keep++] = j;
                continue;
            }
            bool all = true, dead = true;
            for (std::size_t k = 0; k < n_; ++k) {
                const IntervalD z = z_of(&th_.w[j * d_], k);
                all = all && certainly_positive(z);
                dead = dead && certainly_nonpositive(z);
            }
            if (dead) {
                res_.role[j] = GdNeuronRole::frozen;
                continue;
            }
            if (!all) {
                live_[keep++] = j;
                continue;
            }
            IntervalD* b = box(j);
            for (std::size_t i = 0; i < d_; ++i) b[i] = th_.W(j, i);
            b[d_] = th_.a[j];
            for (std::size_t a = 0; a <= d_; ++a)
                for (std::size_t c = a; c <= d_; ++c) M[moment_index(a, c, d_)] += a == c ? sqr(b[a]) : b[a] * b[c];
            members_.push_back(j);
            res_.role[j] = GdNeuronRole::lumped;
        }
        live_.resize(keep);
        res_.stats.members_at_handoff = members_.size();
        res_.stats.individual_at_handoff = live_.size();
        for (auto ro : res_.role) res_.stats.frozen_at_handoff += ro == GdNeuronRole::frozen;
        gone_.assign(m_, 0);
        set_.init(M);
        lumped_ = true;
        rereference();
    }
    std::vector<std::size_t> members_alive() const {
        std::vector<std::size_t> out;
        for (std::size_t j : members_)
            if (!gone_[j]) out.push_back(j);
        return out;
    }
    // Phi <- (I + h K(r)) Phi
    void advance_phi(const std::vector<IntervalD>& r) {
        std::array<IntervalD, 5> D;
        for (std::size_t i = 0; i < d_; ++i) {
            IntervalD s(0);
            for (std::size_t k = 0; k < n_; ++k) s -= r[k] * model_.x(k, i);
            D[i] = h_ * (model_.risk_weight() * s);
        }
        std::vector<IntervalD> P(S_ * S_);
        for (std::size_t col = 0; col < S_; ++col) {
            for (std::size_t i = 0; i < d_; ++i) P[i * S_ + col] = phi_[i * S_ + col] + D[i] * phi_[d_ * S_ + col];
            IntervalD s = phi_[d_ * S_ + col];
            for (std::size_t i = 0; i < d_; ++i) s += D[i] * phi_[i * S_ + col];
            P[d_ * S_ + col] = s;
        }
        phi_ = std::move(P);
    }
    void apply_phi(const IntervalD* b, IntervalD* out) const {
        for (std::size_t i = 0; i < S_; ++i) {
            IntervalD s(0);
            for (std::size_t l = 0; l < S_; ++l) s += phi_[i * S_ + l] * b[l];
            out[i] = s;
        }
    }
    // members' reference boxes <- Phi times them; Phi <- I; margins rho_j = min_k <u_k, theta_j> / |theta_j|
    void rereference() {
        std::vector<IntervalD> tmp(S_);
        const bool ident = phi_.empty();
        rho_.assign(m_, -1.0);
        order_.clear();
        for (std::size_t j : members_) {
            if (gone_[j]) continue;
            if (!ident) {
                apply_phi(box(j), tmp.data());
                std::copy(tmp.begin(), tmp.end(), box(j));
            }
            const IntervalD* b = box(j);
            IntervalD nn(0);
            for (std::size_t i = 0; i < S_; ++i) nn += sqr(b[i]);
            const IntervalD nj = IntervalD::exact(upper(sqrt(nn)));
            double rj = std::numeric_limits<double>::infinity();
            for (std::size_t k = 0; k < n_; ++k) {
                IntervalD s(0);
                for (std::size_t i = 0; i < d_; ++i) s += IntervalD::exact(u_[k][i]) * b[i];
                rj = std::min(rj, lower(IntervalD::exact(lower(s)) / nj));
            }
            rho_[j] = rj;
            order_.push_back(j);
        }
        std::sort(order_.begin(), order_.end(), [&](std::size_t x, std::size_t y) { return rho_[x] < rho_[y] || (rho_[x] == rho_[y] && x < y); });
        phi_.assign(S_ * S_, IntervalD(0));
        for (std::size_t i = 0; i < S_; ++i) phi_[i * S_ + i] = IntervalD(1);
        ++res_.stats.rereferences;
    }
    // tau >= max_k |delta_k| / alpha_k with Phi^T x_k = alpha_k u_k + delta_k (infinite if some alpha_k <= 0)
    double threshold(std::vector<std::vector<IntervalD>>& v) const {
        double tau = 0;
        v.assign(n_, std::vector<IntervalD>(S_));
        for (std::size_t k = 0; k < n_; ++k) {
            double au = 0;
            for (std::size_t l = 0; l < S_; ++l) {
                IntervalD s(0);
                for (std::size_t i = 0; i < d_; ++i) s += phi_[i * S_ + l] * model_.x(k, i);
                v[k][l] = s;
                au += mid(s) * u_[k][l];
            }
            const double alpha = au / u2_[k];
            if (!(alpha > 0)) return std::numeric_limits<double>::infinity();
            IntervalD dn(0);
            for (std::size_t l = 0; l < S_; ++l) dn += sqr(v[k][l] - IntervalD::exact(alpha) * IntervalD::exact(u_[k][l]));
            tau = std::max(tau, upper(sqrt(dn) / IntervalD::exact(alpha)));
        }
        return tau;
    }
    // Members whose sign may have changed at iteration t are checked; those not certainly active on
    // every sample leave the class (their outer product is taken out of the moment).
    void screen(std::size_t t) {
        std::vector<std::vector<IntervalD>> v;
        double tau = threshold(v);
        auto at_risk = [&] {
            return static_cast<std::size_t>(std::upper_bound(order_.begin(), order_.end(), tau, [&](double x, std::size_t j) { return x < rho_[j]; }) -
                                            order_.begin());
        };
        std::size_t cnt = at_risk();
        if (cnt > opt_.screen_budget) {
            rereference();
            tau = threshold(v);
            cnt = at_risk();
        }
        std::vector<IntervalD> th(S_);
        for (std::size_t p = 0; p < cnt; ++p) {
            const std::size_t j = order_[p];
            if (gone_[j]) continue;
            ++res_.stats.screened_checks;
            const IntervalD* b = box(j);
            bool all = true;
            for (std::size_t k = 0; k < n_ && all; ++k) {
                IntervalD s(0);
                for (std::size_t l = 0; l < S_; ++l) s += v[k][l] * b[l];
                all = certainly_positive(s);
            }
            if (all) continue;
            apply_phi(b, th.data());
            std::vector<IntervalD> minus(moment_size(d_));
            for (std::size_t a = 0; a <= d_; ++a)
                for (std::size_t c = a; c <= d_; ++c) minus[moment_index(a, c, d_)] = -(a == c ? sqr(th[a]) : th[a] * th[c]);
            set_.add(minus);
            for (std::size_t i = 0; i < d_; ++i) th_.W(j, i) = th[i];
            th_.a[j] = th[d_];
            gone_[j] = 1;
            res_.role[j] = GdNeuronRole::individual;
            live_.push_back(j);
            ++res_.stats.left;
        }
    }
    // r_k = <x_k, m_P> + q_k - y_k with m_P = c + B rho taken row by row (no hull of the set)
    void residuals(const std::vector<IntervalD>& q, std::vector<IntervalD>& r) const {
        for (std::size_t k = 0; k < n_; ++k) {
            IntervalD s = q[k] - model_.y(k);
            if (lumped_) {
                IntervalD cpart(0);
                for (std::size_t i = 0; i < d_; ++i) cpart += model_.x(k, i) * IntervalD::exact(set_.c[moment_index(i, d_, d_)]);
                s += cpart;
                for (std::size_t j = 0; j < set_.N; ++j) {
                    IntervalD g(0);
                    for (std::size_t i = 0; i < d_; ++i) g += model_.x(k, i) * IntervalD::exact(set_.B(static_cast<Eigen::Index>(moment_index(i, d_, d_)), static_cast<Eigen::Index>(j)));
                    s += g * set_.rho[j];
                }
            }
            r[k] = s;
        }
    }
    TwoLayerParams<IntervalD> state() const {
        TwoLayerParams<IntervalD> out = th_;
        if (!lumped_) return out;
        std::vector<IntervalD> tmp(S_);
        for (std::size_t j : members_) {
            if (gone_[j]) continue;
            apply_phi(&box_[j * S_], tmp.data());
            for (std::size_t i = 0; i < d_; ++i) out.W(j, i) = tmp[i];
            out.a[j] = tmp[d_];
        }
        return out;
    }

    const TwoLayerModel<IntervalD>& model_;
    const LumpedGdOptions& opt_;
    const GdObserver& obs_;
    LumpedGdResult& res_;
    TwoLayerParams<IntervalD>& th_;
    const std::size_t m_, d_, n_, S_;
    const IntervalD h_;
    const MomentMap map_;
    std::vector<std::size_t> live_;          // individual neurons not frozen
    std::vector<Up> z_;                      // their pre-activations at the current iteration
    std::vector<Up> x_;                      // the inputs x_{k,i} (row-major)
    std::array<Up, 5> wbuf_;
    Up abuf_;
    std::vector<std::vector<double>> u_;     // x_k as exact doubles (a-component 0)
    std::vector<double> u2_;
    bool lumped_ = false;
    LohnerMoment set_;
    std::vector<std::size_t> members_, order_;
    std::vector<char> gone_;
    std::vector<IntervalD> box_, phi_;      // members' reference boxes (m x S), Phi(t, t_ref) (S x S)
    std::vector<double> rho_;
    std::vector<int> kink_of_;               // per neuron: its slot in kinks_, -1 if not a kink neuron
    std::vector<KinkState> kinks_;
    std::vector<int> kink_free_;
    std::vector<KinkSample> ksample_;        // per sample
    bool pairing_ = false;                   // LumpedGdOptions::pairing_residual given
    std::array<Up, 32> prho_{};
    IntervalD pairing_sum_ = IntervalD::entire();
};

}  // namespace

LumpedGdResult lumped_gd(const TwoLayerModel<IntervalD>& model, const TwoLayerParams<IntervalD>& theta0, const IntervalD& step,
                         const LumpedGdOptions& options, const GdObserver& observe) {
    LumpedGdResult res;
    auto bad = [&](const std::string& why) {
        res.status = GdStatus::invalid_input;
        res.reason = why;
        return res;
    };
    if (theta0.d != model.d()) return bad("parameter dimension differs from the data dimension");
    if (!model.gamma_is_zero()) return bad("the lumped GD needs ReLU (gamma = 0)");
    if (model.loss() != LossKind::half_square) return bad("the lumped GD needs the half-square loss");
    if (model.d() > 4) return bad("the lumped GD supports d <= 4 (with the bias coordinate)");
    if (model.n() > 32) return bad("the lumped GD supports n <= 32 samples");
    if (!certainly_positive(step)) return bad("the step must be certainly positive");
    for (std::size_t t : options.snapshots)
        if (t > options.iterations) return bad("snapshot iteration " + std::to_string(t) + " after the last iteration");
    res.theta = theta0;
    Run(model, step, options, observe, res).run();
    if (res.status == GdStatus::not_run) res.status = GdStatus::completed;
    return res;
}

}  // namespace flowcert::nets
