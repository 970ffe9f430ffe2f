// Rigorous gradient descent of the two-layer network of [BF2025] (two_layer_gd.hpp): every
// iteration in interval arithmetic, eta from the sign of z on the box, the Clarke hull [gamma, 1]
// where undecided. Neurons in fixed chunks summed in chunk order: identical for every thread count.
#include "flowcert/nets/two_layer_gd.hpp"

#include <flowcert/ode.hpp>

#include <barrier>
#include <exception>
#include <mutex>
#include <thread>

namespace flowcert::nets {

std::string to_string(GdStatus s) {
    switch (s) {
        case GdStatus::not_run: return "not_run";
        case GdStatus::completed: return "completed";
        case GdStatus::invalid_input: return "invalid_input";
        case GdStatus::diverged: return "diverged";
    }
    return "unknown";
}

namespace {

using ode::kBlockChunk;

// One GD run: the two phases of an iteration per chunk of neurons, the loss derivatives between
// them, and the serial / threaded iteration loops.
template <Interval I2>
class GdRun {
public:
    GdRun(const TwoLayerModel<I2>& model, const I2& step, const GdOptions& opt, GdResult<I2>& res)
        : model_(model), step_(step), opt_(opt), res_(res), th_(res.theta), m_(res.theta.m), d_(model.d()),
          n_(model.n()), C_((m_ + kBlockChunk - 1) / kBlockChunk), zero_(model.zero()), one_(model.one()),
          eta_hull_(hull(model.gamma(), one_)), c_(model.risk_weight()), z_(m_ * n_, zero_), partial_(C_ * n_, zero_),
          g_(n_, zero_), undecided_(C_, 0), step2_(sqr(step)) {
        if (opt.track_drift) {
            res.drift_sum.assign(m_, zero_);
            res.drift_step_max.assign(m_, 0.0);
            res.drift_constant.assign(m_, 0.0);
        }
    }

    void run() {
        const int T = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(std::max(1, opt_.threads)), C_));
        if (T <= 1)
            run_serial();
        else
            run_threads(T);
        for (auto u : undecided_) res_.undecided_pair_steps += u;
    }

private:
    // Phase 1 (per chunk): z_jk and the chunk's partial outputs, accumulated locally (the partials
    // of adjacent chunks share cache lines).
    void phase1(std::size_t ch) {
        std::vector<I2> acc(n_, zero_);
        const std::size_t j0 = ch * kBlockChunk, j1 = std::min(m_, j0 + kBlockChunk);
        for (std::size_t j = j0; j < j1; ++j)
            for (std::size_t k = 0; k < n_; ++k) {
                I2 s = th_.W(j, 0) * model_.x(k, 0);
                for (std::size_t i = 1; i < d_; ++i) s += th_.W(j, i) * model_.x(k, i);
                z_[j * n_ + k] = s;
                acc[k] += th_.a[j] * model_.sigma(s);
            }
        for (std::size_t k = 0; k < n_; ++k) partial_[ch * n_ + k] = acc[k];
    }
    // outputs h(x_k), summed in chunk order, then loss derivatives l'_k
    void loss_derivs() {
        for (std::size_t k = 0; k < n_; ++k) {
            I2 acc = zero_;
            for (std::size_t ch = 0; ch < C_; ++ch) acc += partial_[ch * n_ + k];
            // l'_k: h - y (half square) or -y / (1 + e^{h y}) (logistic) [BF2025, Sec. 2]
            g_[k] = model_.loss() == LossKind::half_square ? acc - model_.y(k) : model_.loss_derivative(acc, model_.y(k));
        }
    }
    // exact per-step drift step^2 (<w,D>^2 - a^2 |D|^2)  [BF2025, Lemma 1, GD version]
    void track_drift(std::size_t j, const std::vector<I2>& D, const I2& a, const I2& wd) {
        I2 D2 = sqr(D[0]), w2 = sqr(th_.W(j, 0));
        for (std::size_t i = 1; i < d_; ++i) {
            D2 += sqr(D[i]);
            w2 += sqr(th_.W(j, i));
        }
        const I2 drift = step2_ * (sqr(wd) - sqr(a) * D2);
        res_.drift_sum[j] += drift;
        const double dm = upper(abs(drift));
        if (dm > res_.drift_step_max[j]) res_.drift_step_max[j] = dm;
        const double cm = upper(D2 * max(sqr(a), w2));
        if (cm > res_.drift_constant[j]) res_.drift_constant[j] = cm;
    }
    // Phase 2 (per chunk): D_j and the update of every neuron of the chunk.
    void phase2(std::size_t ch) {
        const std::size_t j0 = ch * kBlockChunk, j1 = std::min(m_, j0 + kBlockChunk);
        std::vector<I2> D(d_, zero_);
        std::size_t und = 0;
        for (std::size_t j = j0; j < j1; ++j) {
            for (std::size_t i = 0; i < d_; ++i) D[i] = zero_;
            for (std::size_t k = 0; k < n_; ++k) {
                const I2& s = z_[j * n_ + k];
                I2 eg = g_[k];
                if (certainly_negative(s)) {
                    eg = model_.gamma() * g_[k];
                } else if (!certainly_positive(s)) {
                    eg = eta_hull_ * g_[k];  // Clarke hull: sigma'(0) anywhere in [gamma, 1]
                    ++und;
                }
                for (std::size_t i = 0; i < d_; ++i) D[i] += eg * model_.x(k, i);
            }
            for (std::size_t i = 0; i < d_; ++i) D[i] = -(c_ * D[i]);
            const I2 a = th_.a[j];
            I2 wd = th_.W(j, 0) * D[0];
            for (std::size_t i = 1; i < d_; ++i) wd += th_.W(j, i) * D[i];
            if (opt_.track_drift) track_drift(j, D, a, wd);
            for (std::size_t i = 0; i < d_; ++i) th_.W(j, i) += step_ * a * D[i];
            th_.a[j] += step_ * wd;
        }
        undecided_[ch] += und;
    }
    // after an iteration: true if the run must stop (unbounded residual enclosure)
    bool check(std::size_t it) {
        res_.iterations_done = it + 1;
        for (std::size_t k = 0; k < n_; ++k)
            if (!is_bounded(g_[k])) {
                res_.status = GdStatus::diverged;
                res_.reason = "residual enclosure unbounded at iteration " + std::to_string(it);
                return true;
            }
        return false;
    }
    void run_serial() {
        for (std::size_t it = 0; it < opt_.iterations; ++it) {
            for (std::size_t ch = 0; ch < C_; ++ch) phase1(ch);
            loss_derivs();
            for (std::size_t ch = 0; ch < C_; ++ch) phase2(ch);
            if (check(it)) break;
        }
    }
    // Persistent threads (one spawn per run, not per phase), chunks assigned statically
    // (ch = tid mod T); every chunk writes only its own outputs and sums run in chunk order,
    // so the result is the same for every thread count. Barriers separate the phases.
    void run_threads(int T) {
        std::barrier<> bar(T);
        bool stop = false;  // written by thread 0 between barriers, read after them
        std::exception_ptr error;
        std::mutex error_mutex;
        auto guarded = [&](auto&& f) {
            try {
                f();
            } catch (...) {
                std::lock_guard<std::mutex> lock(error_mutex);
                if (!error) error = std::current_exception();
            }
        };
        auto worker = [&](int tid) {
            const auto own = [&](auto&& phase) {
                for (std::size_t ch = static_cast<std::size_t>(tid); ch < C_; ch += static_cast<std::size_t>(T)) phase(ch);
            };
            for (std::size_t it = 0; it < opt_.iterations; ++it) {
                guarded([&] { own([&](std::size_t ch) { phase1(ch); }); });
                bar.arrive_and_wait();
                if (tid == 0) guarded([&] { loss_derivs(); });
                bar.arrive_and_wait();
                guarded([&] { own([&](std::size_t ch) { phase2(ch); }); });
                bar.arrive_and_wait();
                if (tid == 0) {
                    std::lock_guard<std::mutex> lock(error_mutex);
                    stop = error != nullptr || check(it);
                }
                bar.arrive_and_wait();
                if (stop) break;
            }
        };
        std::vector<std::thread> pool;
        for (int t = 1; t < T; ++t) pool.emplace_back(worker, t);
        worker(0);
        for (auto& thd : pool) thd.join();
        if (error) std::rethrow_exception(error);
    }

    const TwoLayerModel<I2>& model_;
    const I2& step_;
    const GdOptions& opt_;
    GdResult<I2>& res_;
    TwoLayerParams<I2>& th_;
    const std::size_t m_, d_, n_, C_;
    const I2 zero_, one_, eta_hull_, c_;
    std::vector<I2> z_, partial_, g_;
    std::vector<std::size_t> undecided_;
    const I2 step2_;
};

}  // namespace

template <Interval I2>
GdResult<I2> gd_iterate(const TwoLayerModel<I2>& model, const TwoLayerParams<I2>& theta0, const I2& step,
                        const GdOptions& opt) {
    GdResult<I2> res;
    if (theta0.d != model.d()) {
        res.status = GdStatus::invalid_input;
        res.reason = "parameter dimension differs from the data dimension";
        return res;
    }
    if (!certainly_positive(step)) {
        res.status = GdStatus::invalid_input;
        res.reason = "the step must be certainly positive";
        return res;
    }
    res.theta = theta0;
    GdRun<I2>(model, step, opt, res).run();
    if (res.status == GdStatus::not_run) res.status = GdStatus::completed;
    return res;
}

template GdResult<IntervalD> gd_iterate(const TwoLayerModel<IntervalD>&, const TwoLayerParams<IntervalD>&,
                                        const IntervalD&, const GdOptions&);
template GdResult<IntervalMp> gd_iterate(const TwoLayerModel<IntervalMp>&, const TwoLayerParams<IntervalMp>&,
                                         const IntervalMp&, const GdOptions&);

}  // namespace flowcert::nets
