// Rigorous gradient flow (Taylor models coupled through the residuals, Clarke-hull fallback)
// and rigorous gradient descent for the two-layer network of [BF2025]. See two_layer_flow.hpp
// and docs/nonsmooth-flow.md for the soundness argument of every step below.
#include "flowcert/nets/two_layer_flow.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cmath>
#include <exception>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace flowcert::nets {

std::string to_string(FlowStatus s) {
    switch (s) {
        case FlowStatus::not_run: return "not_run";
        case FlowStatus::completed: return "completed";
        case FlowStatus::invalid_input: return "invalid_input";
        case FlowStatus::step_size_underflow: return "step_size_underflow";
        case FlowStatus::kink_requires_hull: return "kink_requires_hull";
        case FlowStatus::max_steps: return "max_steps";
    }
    return "unknown";
}

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

using I = IntervalD;
constexpr int kMaxOrder = 16;
constexpr std::size_t kChunk = 64;  // fixed summation blocks: sums do not depend on the thread count

// Runs f(i) for i < count on `threads` threads. Each i writes only its own outputs, so the
// result is the same for every thread count.
template <class F>
void parallel_for(std::size_t count, int threads, F&& f) {
    if (threads <= 1 || count < 2) {
        for (std::size_t i = 0; i < count; ++i) f(i);
        return;
    }
    std::atomic<std::size_t> next{0};
    std::exception_ptr error;
    std::mutex error_mutex;
    auto worker = [&] {
        try {
            for (;;) {
                const std::size_t i = next.fetch_add(1);
                if (i >= count) break;
                f(i);
            }
        } catch (...) {
            std::lock_guard<std::mutex> lock(error_mutex);
            if (!error) error = std::current_exception();
            next.store(count);
        }
    };
    std::vector<std::thread> pool;
    const int extra = std::min<int>(threads - 1, static_cast<int>(count) - 1);
    for (int t = 0; t < extra; ++t) pool.emplace_back(worker);
    worker();
    for (auto& th : pool) th.join();
    if (error) std::rethrow_exception(error);
}

// ---- univariate Taylor models on s in [0, H] ---------------------------------------------
// A Tm denotes the set of functions f with f(s) in sum_i c_i s^i + r for every s in [0, H]
// (interval coefficients, interval remainder) [Berz & Makino 1998; Makino & Berz 2003].
struct Tm {
    std::array<I, kMaxOrder + 1> c{};
    I r{};
};

struct Powers {
    int p = 0;
    I s;                                  // [0, H]
    std::array<I, 2 * kMaxOrder + 2> pw;  // pw[i] encloses {s^i : s in [0, H]} = [0, H^i]
    void set(int order, double H) {
        p = order;
        s = I::bounds(0.0, H);
        pw[0] = I(1);
        const I hh = I::exact(H);
        I acc = I(1);
        for (int i = 1; i < static_cast<int>(pw.size()); ++i) {
            acc = acc * hh;
            pw[i] = I::bounds(0.0, acc.upper());
        }
    }
};

// Horner over s in [0, H] (every s^i >= 0).
inline I poly_range(const std::array<I, kMaxOrder + 1>& c, int deg, const I& s) {
    I acc = c[deg];
    for (int i = deg - 1; i >= 0; --i) acc = acc * s + c[i];
    return acc;
}
inline I poly_at(const std::array<I, kMaxOrder + 1>& c, int deg, const I& s) { return poly_range(c, deg, s); }
inline I tm_range(const Tm& a, const Powers& P) { return poly_range(a.c, P.p, P.s) + a.r; }

void tm_zero(Tm& a, int p) {
    for (int i = 0; i <= p; ++i) a.c[i] = I(0);
    a.r = I(0);
}
void tm_add_to(Tm& acc, const Tm& b, int p) {
    for (int i = 0; i <= p; ++i) acc.c[i] += b.c[i];
    acc.r += b.r;
}
void tm_axpy(Tm& acc, const I& k, const Tm& b, int p) {
    for (int i = 0; i <= p; ++i) acc.c[i] += k * b.c[i];
    acc.r += k * b.r;
}

// out = a * b truncated at degree p; the terms of degree p+1..2p are bounded over [0, H]
// and go to the remainder with the cross terms of the remainders.
void tm_mul(const Tm& a, const Tm& b, const Powers& P, Tm& out) {
    const int p = P.p;
    for (int i = 0; i <= p; ++i) {
        I acc = a.c[0] * b.c[i];
        for (int l = 1; l <= i; ++l) acc += a.c[l] * b.c[i - l];
        out.c[i] = acc;
    }
    I high = I(0);
    for (int i = 2 * p; i >= p + 1; --i) {
        I acc = a.c[i - p] * b.c[p];
        for (int l = i - p + 1; l <= p; ++l) acc += a.c[l] * b.c[i - l];
        high = high * P.s + acc;
    }
    high = high * P.pw[p + 1];
    const I ra = poly_range(a.c, p, P.s), rb = poly_range(b.c, p, P.s);
    out.r = high + ra * b.r + rb * a.r + a.r * b.r;
}

// out(s) = x0 + int_0^s t(u) du, truncated at degree p (the degree p+1 term goes to the
// remainder); int_0^s r du lies in s * r, inside [0, H] * r.
void tm_integrate(const Tm& t, const I& x0, const Powers& P, Tm& out) {
    const int p = P.p;
    out.c[0] = x0;
    for (int i = 0; i < p; ++i) out.c[i + 1] = t.c[i] / (i + 1);
    out.r = t.r * P.s + (t.c[p] / (p + 1)) * P.pw[p + 1];
}

// The remainder needed so that every function of `image` lies in the TM (guess.c, needed):
// image.r plus the excess of each image coefficient over the guess coefficient times [0, H^i].
I needed_remainder(const Tm& image, const Tm& guess, const Powers& P) {
    I need = image.r;
    for (int i = 0; i <= P.p; ++i) {
        const double lo = std::min((I::exact(image.c[i].lower()) - I::exact(guess.c[i].lower())).lower(), 0.0);
        const double hi = std::max((I::exact(image.c[i].upper()) - I::exact(guess.c[i].upper())).upper(), 0.0);
        if (lo != 0.0 || hi != 0.0) need += I::bounds(lo, hi) * P.pw[i];
    }
    return need;
}

// [lo - f w - a, hi + f w + a], outward.
I widen(const I& x, double f, double a) {
    const double w = width(x);
    return inflate(x, f * w + a);
}

bool strictly_inside(const I& inner, const I& outer) {
    return outer.lower() < inner.lower() && inner.upper() < outer.upper();
}

// ---- problem data -------------------------------------------------------------------------
struct Problem {
    std::size_t m = 0, d = 0, n = 0, S = 0;  // S = d + 1 state components per neuron: w_0..w_{d-1}, a
    std::vector<I> x;                        // n x d
    std::vector<I> y;
    I c;      // risk weight: L = c sum_k 1/2 (h(x_k) - y_k)^2
    I gamma;
    I eta_hull;  // [gamma, 1]
    bool gamma_zero = false;
    int threads = 1;
    std::size_t offset = 0;                   // global index of local neuron 0 (partition begin)
    const FlowPartition* part = nullptr;      // reducers when the neurons are split across processes
    std::size_t chunks() const { return (m + kChunk - 1) / kChunk; }
    // Collective operations (identity for a single process); see FlowPartition.
    void sum(std::vector<I>& v) const {
        if (part && part->allreduce_sum) part->allreduce_sum(v);
    }
    bool all(bool b) const { return part && part->allreduce_and ? part->allreduce_and(b) : b; }
    double min(double x) const { return part && part->allreduce_min ? part->allreduce_min(x) : x; }
    std::string neuron_name(std::size_t j) const { return std::to_string(offset + j); }
};

// eta for an activation code: 0 positive -> 1, 1 negative -> gamma, 2 undecided -> [gamma, 1].
inline const I& eta_of(const Problem& pb, int code, const I& one) {
    return code == 0 ? one : (code == 1 ? pb.gamma : pb.eta_hull);
}
inline int sign_code(const I& z) {
    if (certainly_positive(z)) return 0;
    if (certainly_negative(z)) return 1;
    return 2;
}

// Clarke-hull field on a box B (S components) with loss derivatives l'_k in R:
// dw = a D, da = -c sum_k l'_k sigma(z_k), D = -c sum_k eta_k l'_k x_k  [BF2025, eq. (6)].
// (da uses eta_k z_k = sigma(z_k), which holds for every selection.)
void field_box(const Problem& pb, const I* B, const I* R, I* F) {
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
        const I* xk = &pb.x[k * pb.d];
        I z = B[0] * xk[0];
        for (std::size_t i = 1; i < pb.d; ++i) z += B[i] * xk[i];
        const I& eta = eta_of(pb, sign_code(z), one);
        da += R[k] * leaky_relu(z, pb.gamma);
        const I er = eta * R[k];
        for (std::size_t i = 0; i < pb.d; ++i) D[i] += er * xk[i];
    }
    const I a = B[pb.d];
    for (std::size_t i = 0; i < pb.d; ++i) F[i] = -(pb.c * D[i]) * a;
    F[pb.d] = -(pb.c * da);
}

// ---- the step engine ------------------------------------------------------------------------
enum class StepFail { none, apriori, apriori_coupling, kink, validation, hull_neuron };

struct StepOutcome {
    StepFail fail = StepFail::none;
    std::string reason;
    double h_suggest = 0;
    std::size_t smooth = 0, hull = 0, frozen = 0, parked = 0, hull_substeps = 0, validation_iterations = 0,
                crossings = 0;
    double wall_hull = 0;
};

class Engine {
public:
    Engine(const Problem& pb, const FlowOptions& opt) : pb_(pb), opt_(opt), p_(opt.order) {
        const std::size_t N = pb.m * pb.S;
        B_.resize(N);
        N_.resize(N);
        tm_.resize(N);
        newr_.resize(N);
        newr_ok_.resize(pb.m);
        code_.resize(pb.m * pb.n);
        kind_.resize(pb.m);
        pattern_.resize(pb.m);
        end_.resize(N);
        tube_.resize(N);
        hull_sub_.resize(pb.m);
        crossings_.resize(pb.m);
        park_.on.assign(pb.m, 0);
        park_.k.assign(pb.m, 0);
        park_.box.resize(N);
        park_.z.assign(pb.m, 0.0);
        tpark_ = park_;
    }

    // One step [t0, t1] from the state X (m * S boxes). On success fills end_ and tube_.
    StepOutcome step(const std::vector<I>& X, std::vector<char>& frozen, double t0, double t1);

    const std::vector<I>& end() const { return end_; }
    const std::vector<I>& tube() const { return tube_; }
    // The parking decisions of the last successful step attempt become the committed ones (called
    // after every accepted step; a rejected attempt leaves the committed parking untouched).
    void accept() { park_ = tpark_; }
    const std::vector<char>& parked() const { return park_.on; }

private:
    const Problem& pb_;
    const FlowOptions& opt_;
    int p_;
    Powers P_;
    I delta_;  // t1 - t0
    std::vector<I> B_, N_;      // a priori boxes (Picard box) and their image (tight tube)
    std::vector<I> R_;          // residual enclosure l'_k over the step
    std::vector<Tm> tm_;        // neuron Taylor models (smooth neurons)
    std::vector<I> newr_;
    std::vector<char> newr_ok_;
    std::vector<unsigned char> code_;  // activation code per (j, k) on N_j
    std::vector<unsigned char> kind_;  // 0 smooth, 1 hull, 2 frozen, 3 parked
    std::vector<std::uint32_t> pattern_;
    std::vector<std::uint64_t> pattern_keys_;
    std::vector<I> K_;          // hull-neuron residual contributions (constants over B_j)
    std::vector<Tm> G_;         // residual Taylor models l'_k(s)
    std::vector<Tm> D_;         // per pattern u, component i: D_u(s)
    std::vector<I> Gpoly_;      // recurrence: per pattern sums
    std::vector<I> end_, tube_;
    std::vector<std::size_t> hull_sub_, crossings_;
    // Parked neurons (docs/nonsmooth-flow.md, section 4c): neuron j sits on the kink of sample
    // k[j]; box = its anchored box P_j (valid from the anchor time on while a_j r_k > 0 stays
    // certain); sigma(<w_j, x_k>) lies in [0, z[j]] on its reachable set and sigma(<w_j, x_l>) = 0
    // for l != k. park_: committed (accepted steps); tpark_: the current step attempt.
    struct Park {
        std::vector<char> on;
        std::vector<std::uint32_t> k;
        std::vector<I> box;
        std::vector<double> z;
    };
    Park park_, tpark_;
    bool try_park(std::size_t j, const std::vector<I>& X);
    bool park_sign_holds(std::size_t j) const;

    bool apriori_neuron(std::size_t j, const std::vector<I>& X);
    void residual_of_boxes(const std::vector<char>& frozen, std::vector<I>& out) { residual_of(B_, frozen, out); }
    void residual_of(const std::vector<I>& boxes, const std::vector<char>& frozen, std::vector<I>& out);
    void recurrence(const std::vector<I>& X, std::size_t U);
    void residual_tm(std::size_t U);
    bool hull_neuron(std::size_t j, const std::vector<I>& X);
    bool hull_substep(const I* Th0, double s0, double s1, const std::vector<Tm>& Gs, I* Th1, I* tube, int depth,
                      std::size_t& budget);
    bool neuron_tm(const I* Th0, double s0, double s1, const unsigned char* codes, const std::vector<Tm>& Gs,
                   std::vector<Tm>& T, Powers& Ps) const;
    bool crossing_substep(const I* Th0, double s0, double s1, const std::vector<Tm>& Gs, const std::vector<I>& Nb,
                          const std::vector<I>& FN, std::vector<unsigned char> codes, std::size_t k, int old_code,
                          I* Th1, I* tube, int depth, std::size_t& budget);
    static thread_local std::size_t crossings_tls_;  // transversal crossings of the current hull neuron
};

bool Engine::apriori_neuron(std::size_t j, const std::vector<I>& X) {
    const std::size_t S = pb_.S;
    const I* X0 = &X[j * S];
    I* B = &B_[j * S];
    I F[16];
    std::vector<I> Fbig;
    I* Fp = F;
    if (S > 16) {
        Fbig.resize(S);
        Fp = Fbig.data();
    }
    // Initial guess: X0 + [0, H] F(X0), widened.
    field_box(pb_, X0, R_.data(), Fp);
    for (std::size_t i = 0; i < S; ++i) B[i] = widen(X0[i] + P_.s * Fp[i], 0.5, 1e-300);
    for (int it = 0; it < 10; ++it) {
        field_box(pb_, B, R_.data(), Fp);
        bool inside = true;
        for (std::size_t i = 0; i < S; ++i) {
            const I Ni = X0[i] + P_.s * Fp[i];
            N_[j * S + i] = Ni;
            if (!strictly_inside(Ni, B[i])) inside = false;
        }
        if (inside) return true;  // X0 + [0,H] F(B, R) inside int(B): first-exit argument
        for (std::size_t i = 0; i < S; ++i)
            B[i] = widen(N_[j * S + i], 0.2 + 0.3 * it, 1e-300 + 1e-16 * mag(N_[j * S + i]));  // epsilon-inflation
    }
    return false;
}

// out_k encloses l'_k = h(x_k) - y_k for every theta in the product of the boxes (frozen: exact X;
// parked: their anchored reachable set, section 4c).
void Engine::residual_of(const std::vector<I>& boxes, const std::vector<char>& frozen, std::vector<I>& out) {
    const std::size_t n = pb_.n, S = pb_.S, C = pb_.chunks();
    std::vector<I> partial(C * n, I(0));
    parallel_for(C, pb_.threads, [&](std::size_t ch) {
        const std::size_t j0 = ch * kChunk, j1 = std::min(pb_.m, j0 + kChunk);
        // thread-local accumulators (adjacent chunks' partials share cache lines)
        std::array<I, 32> acc;  // n <= 32 (checked at entry)
        for (std::size_t k = 0; k < n; ++k) acc[k] = I(0);
        for (std::size_t j = j0; j < j1; ++j) {
            if (frozen[j]) continue;  // ReLU certainly inactive everywhere: contributes exactly 0
            if (tpark_.on[j]) {
                // parked: a sigma(z_k) in a * [0, z^+_A] on sample k, exactly 0 elsewhere (section 4c)
                acc[tpark_.k[j]] += tpark_.box[j * S + pb_.d] * I::bounds(0.0, tpark_.z[j]);
                continue;
            }
            const I* B = &boxes[j * S];
            for (std::size_t k = 0; k < n; ++k) {
                const I* xk = &pb_.x[k * pb_.d];
                I z = B[0] * xk[0];
                for (std::size_t i = 1; i < pb_.d; ++i) z += B[i] * xk[i];
                acc[k] += B[pb_.d] * leaky_relu(z, pb_.gamma);
            }
        }
        for (std::size_t k = 0; k < n; ++k) partial[ch * n + k] = acc[k];
    });
    out.assign(n, I(0));
    for (std::size_t ch = 0; ch < C; ++ch)
        for (std::size_t k = 0; k < n; ++k) out[k] += partial[ch * n + k];
    pb_.sum(out);  // over processes: a sum of enclosures encloses the sum
    for (std::size_t k = 0; k < n; ++k) out[k] -= pb_.y[k];
}

// Taylor coefficients of the smooth neurons (order by order, summing the residual coefficients
// over neurons per activation pattern): the polynomial parts of the Taylor models.
void Engine::recurrence(const std::vector<I>& X, std::size_t U) {
    const std::size_t S = pb_.S, d = pb_.d, n = pb_.n, C = pb_.chunks();
    const int p = p_;
    const I one(1);
    std::vector<I> partial(C * U * d);
    std::vector<I> Su(U * d), G(n);
    std::vector<std::vector<I>> Dc(static_cast<std::size_t>(p) + 1, std::vector<I>(U * d));
    for (std::size_t j = 0; j < pb_.m; ++j) {
        if (kind_[j] != 0) continue;
        for (std::size_t i = 0; i < S; ++i) {
            Tm& t = tm_[j * S + i];
            t.c[0] = X[j * S + i];
            for (int l = 1; l <= p; ++l) t.c[l] = I(0);
            t.r = I(0);
        }
    }
    for (int ord = 0; ord < p; ++ord) {
        std::fill(partial.begin(), partial.end(), I(0));
        parallel_for(C, pb_.threads, [&](std::size_t ch) {
            const std::size_t j0 = ch * kChunk, j1 = std::min(pb_.m, j0 + kChunk);
            std::vector<I> loc(U * d, I(0));  // local accumulators (no false sharing)
            for (std::size_t j = j0; j < j1; ++j) {
                if (kind_[j] != 0) continue;
                const Tm& A = tm_[j * S + d];
                const std::size_t u = pattern_[j];
                for (std::size_t i = 0; i < d; ++i) {
                    const Tm& W = tm_[j * S + i];
                    I acc = A.c[0] * W.c[ord];
                    for (int l = 1; l <= ord; ++l) acc += A.c[l] * W.c[ord - l];
                    loc[u * d + i] += acc;
                }
            }
            for (std::size_t q = 0; q < U * d; ++q) partial[ch * U * d + q] = loc[q];
        });
        std::fill(Su.begin(), Su.end(), I(0));
        for (std::size_t ch = 0; ch < C; ++ch)
            for (std::size_t q = 0; q < U * d; ++q) Su[q] += partial[ch * U * d + q];
        for (std::size_t k = 0; k < n; ++k) {
            I g(0);
            for (std::size_t u = 0; u < U; ++u) {
                const int code = static_cast<int>((pattern_keys_[u] >> (2 * k)) & 3u);
                const I& eta = eta_of(pb_, code, one);
                I zk = Su[u * d] * pb_.x[k * d];
                for (std::size_t i = 1; i < d; ++i) zk += Su[u * d + i] * pb_.x[k * d + i];
                g += eta * zk;
            }
            G[k] = g;
        }
        pb_.sum(G);  // residual coefficient of order `ord`, summed over the processes' neurons
        if (ord == 0)
            for (std::size_t k = 0; k < n; ++k) G[k] += K_[k] - pb_.y[k];
        for (std::size_t u = 0; u < U; ++u)
            for (std::size_t i = 0; i < d; ++i) {
                I acc(0);
                for (std::size_t k = 0; k < n; ++k) {
                    const int code = static_cast<int>((pattern_keys_[u] >> (2 * k)) & 3u);
                    acc += eta_of(pb_, code, one) * G[k] * pb_.x[k * d + i];
                }
                Dc[ord][u * d + i] = -(pb_.c * acc);
            }
        parallel_for(C, pb_.threads, [&](std::size_t ch) {
            const std::size_t j0 = ch * kChunk, j1 = std::min(pb_.m, j0 + kChunk);
            for (std::size_t j = j0; j < j1; ++j) {
                if (kind_[j] != 0) continue;
                const std::size_t u = pattern_[j];
                Tm& A = tm_[j * S + d];
                I da(0);
                for (std::size_t i = 0; i < d; ++i) {
                    Tm& W = tm_[j * S + i];
                    I dw(0);
                    for (int l = 0; l <= ord; ++l) {
                        da += W.c[l] * Dc[ord - l][u * d + i];
                        dw += A.c[l] * Dc[ord - l][u * d + i];
                    }
                    W.c[ord + 1] = dw / (ord + 1);
                }
                A.c[ord + 1] = da / (ord + 1);
            }
        });
        // note: W.c[ord+1] was written before A.c[ord+1] is read? A.c[l] for l <= ord only: fine.
    }
}

// Residual Taylor models G_k(s) from the current neuron Taylor models, and D_u(s) per pattern.
void Engine::residual_tm(std::size_t U) {
    const std::size_t S = pb_.S, d = pb_.d, n = pb_.n, C = pb_.chunks();
    const int p = p_;
    const I one(1);
    std::vector<Tm> partial(C * U * d);
    parallel_for(C, pb_.threads, [&](std::size_t ch) {
        for (std::size_t q = 0; q < U * d; ++q) tm_zero(partial[ch * U * d + q], p);
        const std::size_t j0 = ch * kChunk, j1 = std::min(pb_.m, j0 + kChunk);
        Tm prod;
        for (std::size_t j = j0; j < j1; ++j) {
            if (kind_[j] != 0) continue;
            const std::size_t u = pattern_[j];
            for (std::size_t i = 0; i < d; ++i) {
                tm_mul(tm_[j * S + d], tm_[j * S + i], P_, prod);  // a_j w_j
                tm_add_to(partial[(ch * U + u) * d + i], prod, p);
            }
        }
    });
    std::vector<Tm> Su(U * d);
    for (auto& t : Su) tm_zero(t, p);
    for (std::size_t ch = 0; ch < C; ++ch)
        for (std::size_t q = 0; q < U * d; ++q) tm_add_to(Su[q], partial[ch * U * d + q], p);
    G_.assign(n, Tm{});
    for (std::size_t k = 0; k < n; ++k) {
        Tm& g = G_[k];
        tm_zero(g, p);
        for (std::size_t u = 0; u < U; ++u) {
            const int code = static_cast<int>((pattern_keys_[u] >> (2 * k)) & 3u);
            const I& eta = eta_of(pb_, code, one);
            for (std::size_t i = 0; i < d; ++i) tm_axpy(g, eta * pb_.x[k * d + i], Su[u * d + i], p);
        }
    }
    if (pb_.part) {
        // Sum over processes of the residual models: the sum of Taylor models (coefficient-wise
        // and remainder-wise interval sums) contains the sum of their functions.
        std::vector<I> buf(n * (static_cast<std::size_t>(p) + 2));
        for (std::size_t k = 0; k < n; ++k) {
            for (int i = 0; i <= p; ++i) buf[k * (p + 2) + i] = G_[k].c[i];
            buf[k * (p + 2) + p + 1] = G_[k].r;
        }
        pb_.sum(buf);
        for (std::size_t k = 0; k < n; ++k) {
            for (int i = 0; i <= p; ++i) G_[k].c[i] = buf[k * (p + 2) + i];
            G_[k].r = buf[k * (p + 2) + p + 1];
        }
    }
    for (std::size_t k = 0; k < n; ++k) G_[k].c[0] += K_[k] - pb_.y[k];
    D_.assign(U * d, Tm{});
    for (std::size_t u = 0; u < U; ++u)
        for (std::size_t i = 0; i < d; ++i) {
            Tm& D = D_[u * d + i];
            tm_zero(D, p);
            for (std::size_t k = 0; k < n; ++k) {
                const int code = static_cast<int>((pattern_keys_[u] >> (2 * k)) & 3u);
                tm_axpy(D, -(pb_.c * eta_of(pb_, code, one) * pb_.x[k * d + i]), G_[k], p);
            }
        }
}

thread_local std::size_t Engine::crossings_tls_ = 0;

// Taylor model, in u = s - s0 on [0, s1 - s0], of the SMOOTH single-neuron ODE
//     w' = a D(s),  a' = <w, D(s)>,  D(s) = -c sum_k eta(codes_k) g_k(s) x_k   [BF2025, eq. (6)]
// from Th0 at s0, for every residual g_k(s) in the validated models Gs (defined on s in [0, H]).
// The pattern codes_k in {0, 1} is imposed whatever region the solution visits, so T encloses the
// flow of that polynomial ODE (Schauder/Picard inclusion as in the coupled step; docs).
bool Engine::neuron_tm(const I* Th0, double s0, double s1, const unsigned char* codes, const std::vector<Tm>& Gs,
                       std::vector<Tm>& T, Powers& Ps) const {
    const std::size_t S = pb_.S, n = pb_.n, d = pb_.d;
    const I len = I::exact(s1) - I::exact(s0);
    Ps.set(p_, len.upper());
    std::vector<Tm> Gsh(n);
    const I s0i = I::exact(s0);
    for (std::size_t k = 0; k < n; ++k) {
        // Taylor shift: coefficients of G(s0 + u) in u
        Tm& g = Gsh[k];
        g.c = Gs[k].c;
        for (int i = 0; i < p_; ++i)
            for (int l = p_ - 1; l >= i; --l) g.c[l] += s0i * g.c[l + 1];
        g.r = Gs[k].r;
    }
    const I one(1);
    std::vector<Tm> Dd(d);
    for (std::size_t i = 0; i < d; ++i) {
        tm_zero(Dd[i], p_);
        for (std::size_t k = 0; k < n; ++k)
            tm_axpy(Dd[i], -(pb_.c * eta_of(pb_, codes[k], one) * pb_.x[k * d + i]), Gsh[k], p_);
    }
    // polynomial part by recurrence (linear ODE with given D)
    T.assign(S, Tm{});
    for (std::size_t i = 0; i < S; ++i) {
        T[i].c[0] = Th0[i];
        T[i].r = I(0);
    }
    for (int ord = 0; ord < p_; ++ord) {
        I da(0);
        for (std::size_t i = 0; i < d; ++i) {
            I dw(0);
            for (int l = 0; l <= ord; ++l) {
                da += T[i].c[l] * Dd[i].c[ord - l];
                dw += T[d].c[l] * Dd[i].c[ord - l];
            }
            T[i].c[ord + 1] = dw / (ord + 1);
        }
        T[d].c[ord + 1] = da / (ord + 1);
    }
    // remainder validation (Schauder/Picard inclusion for this neuron; residual given)
    std::vector<Tm> img(S);
    std::vector<I> need(S);
    Tm prod, sum;
    for (int it = 0; it < 8; ++it) {
        tm_zero(sum, p_);
        for (std::size_t i = 0; i < d; ++i) {
            tm_mul(T[i], Dd[i], Ps, prod);
            tm_add_to(sum, prod, p_);
        }
        tm_integrate(sum, Th0[d], Ps, img[d]);
        for (std::size_t i = 0; i < d; ++i) {
            tm_mul(T[d], Dd[i], Ps, prod);
            tm_integrate(prod, Th0[i], Ps, img[i]);
        }
        bool valid = true;
        for (std::size_t i = 0; i < S; ++i) {
            need[i] = needed_remainder(img[i], T[i], Ps);
            if (!subset(need[i], T[i].r)) valid = false;
        }
        if (valid) return true;
        for (std::size_t i = 0; i < S; ++i) T[i].r = widen(hull(need[i], T[i].r), 0.1, 1e-300);
    }
    return false;
}

// Transversal crossing of the hyperplane z_k = <w, x_k> = 0 inside the sub-step [s0, s1]
// (issue 8, item 2(b)). Preconditions (checked by the caller): every sign is decided at s0
// (codes0), on the a priori box Nb of the sub-step every sign but z_k's is decided (codes), and
// zdot_k = <w', x_k> has on Nb a certain sign pointing from the old side (old_code) to the other
// (transversality). Then for every solution:
//  * until its first zero tau of z_k it follows the old-pattern smooth ODE (flow Phi_old), so
//    tau >= t_lo if z_k along Phi_old keeps the old sign on [s0, t_lo], and tau < t_hi if z_k of
//    Phi_old is certainly of the new sign at t_hi;
//  * z_k is absolutely continuous with zdot_k of the certain sign a.e. while theta is in Nb, so
//    after tau it stays strictly on the new side: the solution follows the new-pattern ODE
//    (Phi_new) on [tau, s1] (no sliding);
//  * theta(t_hi) = psi(tau) with psi(t) = Phi_new(t_hi, t) Phi_old(t, s0) Th0. For fixed
//    residuals both fields are linear in theta, theta' = M(s) theta, and
//        psi'(t) = V(t_hi, t) (F_old - F_new)(Phi_old(t, s0) Th0, t),
//    V = transition matrix of the new linear ODE, |V - I|_inf <= exp(mu (t_hi - t)) - 1 with
//    mu >= |M_new(s)|_inf = sum_i |D_new,i(s)| (Groenwall); F_old - F_new = (a dD, <w, dD>),
//    dD = -c (eta_old - eta_new) g_k x_k (only the k-th sample's eta jumps). Mean value theorem:
//    theta(t_hi) in psi(t_lo) + [0, t_hi - t_lo] (J + [-1, 1] (exp(mu dt) - 1) |J|_inf).
// psi(t_lo) is enclosed by the old model at t_lo followed by a new-pattern model on [t_lo, t_hi].
// The jump of the field thus costs |a c (1 - gamma) g_k x_k| times the crossing-time
// uncertainty, instead of a first-order Clarke-hull step. The rest [t_hi, s1] is a regular
// sub-step (smooth: z_k moves away from 0).
bool Engine::crossing_substep(const I* Th0, double s0, double s1, const std::vector<Tm>& Gs, const std::vector<I>& Nb,
                              const std::vector<I>& FN, std::vector<unsigned char> codes, std::size_t k,
                              int old_code, I* Th1, I* tube, int depth, std::size_t& budget) {
    const std::size_t S = pb_.S, n = pb_.n, d = pb_.d;
    const int p = p_;
    const int new_code = 1 - old_code;
    codes[k] = static_cast<unsigned char>(old_code);
    std::vector<Tm> T;
    Powers Ps;
    if (!neuron_tm(Th0, s0, s1, codes.data(), Gs, T, Ps)) return false;
    Tm z;  // z_k along the old flow, in u = s - s0
    tm_zero(z, p);
    for (std::size_t q = 0; q < d; ++q) tm_axpy(z, pb_.x[k * d + q], T[q], p);
    auto u_of = [&](double t) { return I::exact(t) - I::exact(s0); };
    auto is_new = [&](const I& v) { return new_code == 0 ? certainly_positive(v) : certainly_negative(v); };
    auto is_old = [&](const I& v) { return old_code == 0 ? certainly_positive(v) : certainly_negative(v); };
    auto z_at = [&](double t) { return poly_at(z.c, p, u_of(t)) + z.r; };
    auto z_upto = [&](double t) { return poly_range(z.c, p, I::bounds(0.0, u_of(t).upper())) + z.r; };
    if (!is_new(z_at(s1))) return false;  // the old flow does not certainly cross inside the sub-step
    double lo = s0, hi = s1;             // t_hi: z_k(Phi_old) certainly new-signed (heuristic search)
    for (int it = 0; it < 64; ++it) {
        const double md = lo + 0.5 * (hi - lo);
        if (!(md > lo && md < hi)) break;
        (is_new(z_at(md)) ? hi : lo) = md;
    }
    double t_hi = hi;
    // Is z_k monotone along Phi_old on [s0, s1]? Its derivative a <D_old, x_k> on the range of the
    // old model (D_old from the residual range over the sub-step) has a certain sign. Then z_k is
    // old-signed on [s0, t] as soon as it is at t (both ends), which avoids the overestimation of
    // the range of the polynomial over [0, t - s0].
    bool monotone = false;
    {
        const I sig = I::bounds(s0, s1);
        I zdot_old(0);
        for (std::size_t i = 0; i < d; ++i) {
            I Di(0);
            for (std::size_t q = 0; q < n; ++q)
                Di += eta_of(pb_, codes[q], I(1)) * (poly_at(Gs[q].c, p, sig) + Gs[q].r) * pb_.x[q * d + i];
            zdot_old += -(pb_.c * Di) * pb_.x[k * d + i];
        }
        zdot_old = zdot_old * tm_range(T[d], Ps);
        monotone = sign_code(zdot_old) != 2;
    }
    auto old_upto = [&](double t) { return monotone ? is_old(z_at(t)) : is_old(z_upto(t)); };
    lo = s0;  // t_lo: z_k(Phi_old) certainly old-signed on [s0, t_lo]
    for (int it = 0; it < 64; ++it) {
        const double md = lo + 0.5 * (hi - lo);
        if (!(md > lo && md < hi)) break;
        (old_upto(md) ? lo : hi) = md;
    }
    const double t_lo = lo;
    if (!old_upto(t_lo) || !is_new(z_at(t_hi))) return false;
    const I one(1);
    const I deta = eta_of(pb_, old_code, one) - eta_of(pb_, new_code, one);
    std::vector<unsigned char> codes_new = codes;
    codes_new[k] = static_cast<unsigned char>(new_code);
    std::vector<I> th(S), Y(S), gW(n);
    std::vector<Tm> Tn;
    Powers Pn;
    bool clear = false;
    for (int attempt = 0; attempt < 6 && !clear; ++attempt) {
        if (attempt > 0) {  // heuristic: move t_hi later until theta(t_hi) is off the hyperplane
            const double nt = std::min(s1, t_hi + (t_hi - t_lo) * std::ldexp(1.0, attempt));
            if (!(nt > t_hi) || !is_new(z_at(nt))) break;
            t_hi = nt;
        }
        const I uhi = u_of(t_hi), dtau = I::exact(t_hi) - I::exact(t_lo);
        const I uW = I::bounds(u_of(t_lo).lower(), uhi.upper()), W = I::bounds(t_lo, t_hi);
        // psi(t_lo): old model at t_lo, then the new-pattern ODE on [t_lo, t_hi]
        std::vector<I> Y0(S);
        for (std::size_t i = 0; i < S; ++i) Y0[i] = poly_at(T[i].c, p, u_of(t_lo)) + T[i].r;
        if (!neuron_tm(Y0.data(), t_lo, t_hi, codes_new.data(), Gs, Tn, Pn)) return false;
        // Phi_old(t, s0) Th0 for t in W, residuals over W
        for (std::size_t i = 0; i < S; ++i) Y[i] = poly_range(T[i].c, p, uW) + T[i].r;
        for (std::size_t q = 0; q < n; ++q) gW[q] = poly_at(Gs[q].c, p, W) + Gs[q].r;
        I zY = Y[0] * pb_.x[k * d];
        for (std::size_t q = 1; q < d; ++q) zY += Y[q] * pb_.x[k * d + q];
        const I dD = -(pb_.c * deta * gW[k]);  // times x_k: the jump of D
        std::vector<I> J(S);
        double Jn = 0;
        for (std::size_t i = 0; i < d; ++i) J[i] = Y[d] * (dD * pb_.x[k * d + i]);
        J[d] = dD * zY;
        for (std::size_t i = 0; i < S; ++i) Jn = std::max(Jn, mag(J[i]));
        I mu(0);
        for (std::size_t i = 0; i < d; ++i) {
            I Di(0);
            for (std::size_t q = 0; q < n; ++q) Di += eta_of(pb_, codes_new[q], one) * gW[q] * pb_.x[q * d + i];
            mu += abs(pb_.c * Di);
        }
        const double ev = expm1(I::bounds(0.0, (mu * dtau).upper())).upper();
        const double e = (I::exact(ev) * I::exact(Jn)).upper();
        const I dt0 = I::bounds(0.0, dtau.upper());
        clear = true;
        for (std::size_t i = 0; i < S; ++i) {
            const I v = poly_at(Tn[i].c, p, dtau) + Tn[i].r + dt0 * (J[i] + I::bounds(-e, e));
            I o;
            th[i] = intersect(v, Nb[i], o) ? o : v;  // theta(t_hi) of a true solution lies in Nb
        }
        I zt = th[0] * pb_.x[k * d];
        for (std::size_t q = 1; q < d; ++q) zt += th[q] * pb_.x[k * d + q];
        clear = is_new(zt);
    }
    // tube on [s0, t_hi]: old flow up to tau, then theta(tau) + [0, t_hi - tau] F(Nb)
    const I dt0 = I::bounds(0.0, (I::exact(t_hi) - I::exact(t_lo)).upper());
    for (std::size_t i = 0; i < S; ++i) {
        const I told = poly_range(T[i].c, p, I::bounds(0.0, u_of(t_hi).upper())) + T[i].r;
        I tb = hull(hull(told, Y[i] + dt0 * FN[i]), th[i]), o;
        tube[i] = intersect(tb, Nb[i], o) ? o : tb;
    }
    if (!(t_hi < s1)) {
        for (std::size_t i = 0; i < S; ++i) Th1[i] = th[i];
        return true;
    }
    std::vector<I> tube2(S);
    if (!hull_substep(th.data(), t_hi, s1, Gs, Th1, tube2.data(), depth + 1, budget)) return false;
    for (std::size_t i = 0; i < S; ++i) tube[i] = hull(tube[i], tube2[i]);
    return true;
}

// Hull neuron: sub-steps of [s0, s1] driven by the validated residual Taylor models Gs (defined on
// [0, H]); bisection where a sign is undecided. Th0: state at s0; writes state at s1 and a tube.
bool Engine::hull_substep(const I* Th0, double s0, double s1, const std::vector<Tm>& Gs, I* Th1, I* tube, int depth,
                          std::size_t& budget) {
    const std::size_t S = pb_.S, n = pb_.n, d = pb_.d;
    if (budget == 0) return false;
    --budget;
    const I sig = I::bounds(s0, s1);  // the times of this sub-step (as s values)
    const I len = I::exact(s1) - I::exact(s0);
    const I ds = I::bounds(0.0, len.upper());
    std::vector<I> R(n);
    for (std::size_t k = 0; k < n; ++k) R[k] = poly_at(Gs[k].c, p_, sig) + Gs[k].r;
    // a priori box of this neuron on the sub-step (first-exit argument, residual in R)
    std::vector<I> B(S), Nb(S), F(S), FN(S);
    field_box(pb_, Th0, R.data(), F.data());
    for (std::size_t i = 0; i < S; ++i) B[i] = widen(Th0[i] + ds * F[i], 0.5, 1e-300);
    bool ok = false;
    for (int it = 0; it < 10 && !ok; ++it) {
        field_box(pb_, B.data(), R.data(), F.data());
        ok = true;
        for (std::size_t i = 0; i < S; ++i) {
            Nb[i] = Th0[i] + ds * F[i];
            if (!strictly_inside(Nb[i], B[i])) ok = false;
        }
        if (!ok)
            for (std::size_t i = 0; i < S; ++i) B[i] = widen(Nb[i], 0.2 + 0.3 * it, 1e-300 + 1e-16 * mag(Nb[i]));
    }
    if (!ok) return false;
    // Every solution stays in Nb on the sub-step, where its field lies in FN (Clarke hull on Nb).
    field_box(pb_, Nb.data(), R.data(), FN.data());
    // Signs: decided on Nb, or (transversal_crossings) decided at s0 and kept because zdot_k =
    // <w', x_k> has on Nb the sign of z_k(s0): z_k moves away from 0 (absolutely continuous with a
    // derivative of certain sign a.e.).
    std::vector<unsigned char> codes(n), codes0(n);
    std::size_t undecided = 0, kx = n;
    std::vector<I> zdot(n);
    for (std::size_t k = 0; k < n; ++k) {
        I z = Nb[0] * pb_.x[k * d], z0 = Th0[0] * pb_.x[k * d];
        zdot[k] = FN[0] * pb_.x[k * d];
        for (std::size_t i = 1; i < d; ++i) {
            z += Nb[i] * pb_.x[k * d + i];
            z0 += Th0[i] * pb_.x[k * d + i];
            zdot[k] += FN[i] * pb_.x[k * d + i];
        }
        const int c = sign_code(z), c0 = sign_code(z0);
        codes0[k] = static_cast<unsigned char>(c0);
        codes[k] = static_cast<unsigned char>(c);
        if (c != 2) continue;
        if (opt_.transversal_crossings && c0 != 2 && sign_code(zdot[k]) == c0) {
            codes[k] = static_cast<unsigned char>(c0);  // moving away from the hyperplane
            continue;
        }
        ++undecided;
        kx = k;
    }
    const bool decided = undecided == 0;
    if (!decided && undecided == 1 && opt_.transversal_crossings && codes0[kx] != 2 &&
        sign_code(zdot[kx]) == 1 - codes0[kx]) {
        // transversal crossing of <w, x_kx> = 0 (the sign of zdot points to the other side)
        std::size_t b = budget;
        if (crossing_substep(Th0, s0, s1, Gs, Nb, FN, codes, kx, codes0[kx], Th1, tube, depth, b)) {
            budget = b;
            ++crossings_tls_;
            return true;
        }
    }
    const double H = s1 - s0;
    bool can_split = depth < opt_.hull_max_depth && budget >= 2 && H > 0;
    if (!decided && can_split) {
        // Heuristic: stop bisecting once the first-order hull step adds no more width than the
        // state already has (further halving would only multiply sub-steps).
        bool negligible = true;
        for (std::size_t i = 0; i < S && negligible; ++i) {
            const double wh = width(len * F[i]);
            if (wh > std::max(width(Th0[i]), 1e-16 * mag(Th0[i]))) negligible = false;
        }
        if (negligible) can_split = false;
        // Heuristic: a start box that already straddles the kink (sliding, or just after a
        // crossing) gains little from deep bisection.
        if (depth >= 3)
            for (std::size_t k = 0; k < n; ++k)
                if (codes0[k] == 2) can_split = false;
    }
    if (!decided && can_split) {
        // Bisect towards the switching time: only the part where the sign is undecided keeps
        // the first-order hull step.
        const double sm = s0 + 0.5 * H;
        if (sm > s0 && sm < s1) {
            std::vector<I> Tm1(S), tube1(S), tube2(S);
            if (hull_substep(Th0, s0, sm, Gs, Tm1.data(), tube1.data(), depth + 1, budget) &&
                hull_substep(Tm1.data(), sm, s1, Gs, Th1, tube2.data(), depth + 1, budget)) {
                for (std::size_t i = 0; i < S; ++i) tube[i] = hull(tube1[i], tube2[i]);
                return true;
            }
            // budget exhausted inside: fall back to the one-shot hull step below
        }
    }
    if (decided) {
        // Smooth on this sub-step: Taylor model of order p of this neuron alone, driven by the
        // residual models shifted to the sub-step: G(s0 + u), u in [0, len].
        std::vector<Tm> T;
        Powers Ps;
        if (neuron_tm(Th0, s0, s1, codes.data(), Gs, T, Ps)) {
            for (std::size_t i = 0; i < S; ++i) {
                I e = poly_at(T[i].c, p_, len) + T[i].r;
                I tb = tm_range(T[i], Ps);
                I out;
                Th1[i] = intersect(e, Nb[i], out) ? out : e;
                tube[i] = intersect(tb, Nb[i], out) ? out : tb;
            }
            return true;
        }
        // fall through to the first-order step
    }
    // First-order (Clarke hull) step: theta(s1) in Th0 + len * F(Nb, R), valid for every
    // selection of eta in [gamma, 1] (sliding included).
    for (std::size_t i = 0; i < S; ++i) {
        I e = Th0[i] + len * FN[i], out;
        Th1[i] = intersect(e, Nb[i], out) ? out : e;
        tube[i] = Nb[i];
    }
    return true;
}

bool Engine::hull_neuron(std::size_t j, const std::vector<I>& X) {
    const std::size_t S = pb_.S;
    std::size_t budget = static_cast<std::size_t>(std::max(1, opt_.hull_max_substeps));
    const std::size_t b0 = budget;
    std::vector<I> th1(S), tb(S);
    const double H = P_.s.upper();
    // s runs over [0, H], H = upper bound of the step length; the end value at s = delta is
    // obtained by evaluating at the true step length below (sub-steps end exactly at H only
    // when delta is a point; otherwise we also keep the first-order enclosure).
    crossings_tls_ = 0;
    const bool ok = hull_substep(&X[j * S], 0.0, H, G_, th1.data(), tb.data(), 0, budget);
    hull_sub_[j] = b0 - budget;
    crossings_[j] = crossings_tls_;
    if (!ok) return false;
    for (std::size_t i = 0; i < S; ++i) {
        I out;
        tube_[j * S + i] = intersect(tb[i], N_[j * S + i], out) ? out : N_[j * S + i];
        end_[j * S + i] = intersect(th1[i], N_[j * S + i], out) ? out : N_[j * S + i];
    }
    return true;
}

// ---- parked neurons (docs/nonsmooth-flow.md, section 4c) ----------------------------------
// ReLU (gamma = 0), c > 0. Neuron j with anchor box A = X_j (its enclosure at the anchor time t_A)
// is parked on the kink of sample k when on A: sign(a) is certain (i), z_k = <w, x_k> is
// undecided (straddles 0, or is <= 0 without being certainly < 0), and every other z_l is
// certainly < 0. While (i), (ii) [z_l < 0 for l != k] and (iii) [a r_k > 0] hold, the Clarke
// field is w' = -c a r_k eta_k x_k (eta_k = 1 for z_k > 0, 0 for z_k < 0, [0, 1] at 0) and
// a' = -c r_k z_k^+ [BF2025, eq. (6)], so w(t) = w_A + mu(t) x_k with mu non-increasing,
// z_k(t) = z_A + mu |x_k|^2 never goes below min(z_A, 0): mu in [-z_A^+/|x_k|^2, 0]; |a| is
// non-increasing and |a(t) - a_A| <= Q / beta with Q = (z_A^+)^2 / (2 |x_k|^2), beta < alpha = min |a_A|,
// beta (alpha - beta) > Q (first exit: |a| > beta throughout). The enclosure is time independent;
// (ii) and (i) are checked here on the reachable set, (iii) per step (park_sign_holds).
bool Engine::try_park(std::size_t j, const std::vector<I>& X) {
    const std::size_t S = pb_.S, n = pb_.n, d = pb_.d;
    const I* A = &X[j * S];
    const I& a = A[d];
    const bool pos = certainly_positive(a);
    if (!pos && !certainly_negative(a)) return false;  // (i) on the anchor
    std::array<I, 32> zA;
    std::size_t kk = n;
    for (std::size_t k = 0; k < n; ++k) {
        I z = A[0] * pb_.x[k * d];
        for (std::size_t i = 1; i < d; ++i) z += A[i] * pb_.x[k * d + i];
        zA[k] = z;
        const int code = sign_code(z);
        if (code == 0) return false;  // certainly active on some sample: not parked
        if (code == 2) {
            if (kk != n) return false;  // undecided on two samples
            kk = k;
        }
    }
    if (kk == n) return false;  // certainly inactive everywhere: frozen, not parked
    const I* xk = &pb_.x[kk * d];
    I xx = sqr(xk[0]);
    for (std::size_t i = 1; i < d; ++i) xx += sqr(xk[i]);  // |x_k|^2
    if (!certainly_positive(xx)) return false;
    const double Zu = std::max(zA[kk].upper(), 0.0);  // >= z_A^+ for every point of A
    const I Z = I::exact(Zu);
    const I mu = I::bounds((-(Z / xx)).lower(), 0.0);  // mu(t) in [-z_A^+/|x_k|^2, 0]
    // (ii) on the reachable set {w_A + mu x_k}: <w_A, x_l> + mu <x_k, x_l> < 0 for every l != k.
    for (std::size_t l = 0; l < n; ++l) {
        if (l == kk) continue;
        I xkl = xk[0] * pb_.x[l * d];
        for (std::size_t i = 1; i < d; ++i) xkl += xk[i] * pb_.x[l * d + i];
        if (!certainly_negative(zA[l] + mu * xkl)) return false;
    }
    // |a(t) - a_A| <= Delta: int |a'| = int z_k^+ |mu'| / |a| <= Q / beta.
    double Delta = 0;
    if (Zu > 0) {
        const I Q = sqr(Z) / (I(2) * xx);
        const I alpha = I::exact(mig(a));
        const double beta = (alpha - I(2) * Q / alpha).lower();
        if (!(beta > 0)) return false;
        const I b = I::exact(beta);
        if (!certainly_less(Q, b * (alpha - b))) return false;  // strict: the first-exit argument
        Delta = (Q / b).upper();
    }
    std::array<I, 17> P;
    if (S > P.size()) return false;
    for (std::size_t i = 0; i < d; ++i) P[i] = A[i] + mu * xk[i];
    P[d] = pos ? a + I::bounds(-Delta, 0.0) : a + I::bounds(0.0, Delta);  // |a| shrinks
    if (pos ? !certainly_positive(P[d]) : !certainly_negative(P[d])) return false;  // (i) on the box
    for (std::size_t i = 0; i < S; ++i) tpark_.box[j * S + i] = P[i];
    tpark_.on[j] = 1;
    tpark_.k[j] = static_cast<std::uint32_t>(kk);
    tpark_.z[j] = Zu;
    return true;
}

// (iii): a r_k > 0 for every a in the parked box and every r_k in R_k (the caller puts the residual
// enclosure to check in R_: the state residual at t0 as a filter, the tight-tube residual Rn on the step).
bool Engine::park_sign_holds(std::size_t j) const {
    const I& a = tpark_.box[j * pb_.S + pb_.d];
    const I& r = R_[tpark_.k[j]];
    return certainly_positive(a) ? certainly_positive(r) : (certainly_negative(a) && certainly_negative(r));
}

StepOutcome Engine::step(const std::vector<I>& X, std::vector<char>& frozen, double t0, double t1) {
    StepOutcome out;
    const std::size_t m = pb_.m, S = pb_.S, n = pb_.n, d = pb_.d;
    delta_ = I::exact(t1) - I::exact(t0);
    P_.set(p_, delta_.upper());
    const I one(1);

    // (iv) freezing: ReLU neuron certainly inactive on every sample: the field vanishes on an open
    // neighbourhood of its box, so it is exactly constant for all later times.
    if (pb_.gamma_zero)
        for (std::size_t j = 0; j < m; ++j) {
            if (frozen[j]) continue;
            bool all_neg = true;
            for (std::size_t k = 0; k < n && all_neg; ++k) {
                I z = X[j * S] * pb_.x[k * d];
                for (std::size_t i = 1; i < d; ++i) z += X[j * S + i] * pb_.x[k * d + i];
                if (!certainly_negative(z)) all_neg = false;
            }
            if (all_neg) frozen[j] = 1;
        }
    for (std::size_t j = 0; j < m; ++j)
        if (frozen[j])
            for (std::size_t i = 0; i < S; ++i) B_[j * S + i] = N_[j * S + i] = X[j * S + i];

    // (v) parking (section 4c): committed parked neurons keep their anchors (their state X_j is
    // their anchored box); neurons newly on a kink are parked with anchor X_j. Per neuron only.
    tpark_ = park_;
    for (std::size_t j = 0; j < m; ++j)
        if (frozen[j]) tpark_.on[j] = 0;
    if (opt_.park_neurons && pb_.gamma_zero && certainly_positive(pb_.c)) {
        // Residual at t0 (collective; the state boxes, parked neurons by their anchored sets):
        // a candidate whose a r_k is not certainly positive at t0 would fail (iii) on the step anyway
        // (a filter only: it saves redoing the a priori phase).
        std::vector<I> R0;
        residual_of(X, frozen, R0);
        const std::vector<I> Rsave = R_;
        R_ = R0;
        for (std::size_t j = 0; j < m; ++j) {
            if (frozen[j] || tpark_.on[j] || !try_park(j, X)) continue;
            if (!park_sign_holds(j)) tpark_.on[j] = 0;
        }
        R_ = Rsave;
    }

    // (i) a priori enclosure: per-neuron Picard boxes with R fixed, R grown until it contains
    // the residuals of all boxes. Parked neurons: B_j = N_j = anchored box, valid on the step as
    // long as (iii) holds on R (checked below; a neuron failing it is unparked and the a priori
    // phase is redone, collectively).
    bool coupled = false;
    for (;;) {
        for (std::size_t j = 0; j < m; ++j) {
            if (frozen[j]) continue;
            const I* src = tpark_.on[j] ? &tpark_.box[j * S] : &X[j * S];
            for (std::size_t i = 0; i < S; ++i) B_[j * S + i] = N_[j * S + i] = src[i];
        }
        residual_of_boxes(frozen, R_);
        for (auto& r : R_) r = widen(r, 0.1, 1e-300);
        coupled = false;
        std::vector<I> Rb;
        for (int outer = 0; outer < 12 && !coupled; ++outer) {
            std::vector<char> okv(m, 1);
            parallel_for(pb_.chunks(), pb_.threads, [&](std::size_t ch) {
                const std::size_t j0 = ch * kChunk, j1 = std::min(m, j0 + kChunk);
                for (std::size_t j = j0; j < j1; ++j)
                    if (!frozen[j] && !tpark_.on[j]) okv[j] = apriori_neuron(j, X) ? 1 : 0;
            });
            const auto bad = std::find(okv.begin(), okv.end(), 0);
            if (!pb_.all(bad == okv.end())) {  // collective: every process rejects the step
                out.fail = StepFail::apriori;
                out.reason = bad != okv.end() ? "a priori enclosure of neuron " +
                                                    pb_.neuron_name(static_cast<std::size_t>(bad - okv.begin())) +
                                                    " failed (Picard inclusion)"
                                              : "a priori enclosure failed on another process (Picard inclusion)";
                return out;
            }
            residual_of_boxes(frozen, Rb);
            coupled = true;
            for (std::size_t k = 0; k < n; ++k)
                if (!subset(Rb[k], R_[k])) coupled = false;
            if (!coupled)
                for (std::size_t k = 0; k < n; ++k) R_[k] = widen(hull(R_[k], Rb[k]), 0.2, 1e-300);
        }
        if (!coupled) {
            out.fail = StepFail::apriori_coupling;
            out.reason = "a priori residual enclosure not consistent with the neuron boxes";
            return out;
        }
        // Parking condition (iii), a r_k > 0 on the step, for every parked neuron, checked on the
        // residual Rn of the tight tube (N_j for the others, the anchored set for parked neurons):
        // on [0, t*] (first exit from prod B_j) every solution has theta_j in N_j, so r is in Rn,
        // and Rn strictly signed carries the sign past t* by continuity (section 4c). Neurons
        // failing it are unparked (they continue from their anchored box, a valid enclosure at t0)
        // and the a priori phase is redone.
        std::vector<I> Rn;
        residual_of(N_, frozen, Rn);
        std::swap(R_, Rn);
        std::vector<char> fail(m, 0);
        for (std::size_t j = 0; j < m; ++j) fail[j] = tpark_.on[j] && !park_sign_holds(j);
        std::swap(R_, Rn);
        bool unparked = false;
        for (std::size_t j = 0; j < m; ++j)
            if (fail[j]) {
                tpark_.on[j] = 0;
                unparked = true;
            }
        if (pb_.all(!unparked)) break;  // collective: if any process unparked, all redo the a priori phase
    }

    // (iii) classification on the step tube N_j.
    std::map<std::uint64_t, std::uint32_t> pat;
    std::string kink_reason;
    for (std::size_t j = 0; j < m; ++j) {
        if (frozen[j]) {
            kind_[j] = 2;
            ++out.frozen;
            continue;
        }
        if (tpark_.on[j]) {
            kind_[j] = 3;
            ++out.parked;
            continue;
        }
        std::uint64_t key = 0;
        bool undecided = false;
        for (std::size_t k = 0; k < n; ++k) {
            I z = N_[j * S] * pb_.x[k * d];
            for (std::size_t i = 1; i < d; ++i) z += N_[j * S + i] * pb_.x[k * d + i];
            const int code = sign_code(z);
            code_[j * n + k] = static_cast<unsigned char>(code);
            if (code == 2) undecided = true;
            key |= static_cast<std::uint64_t>(code) << (2 * k);
        }
        if (undecided) {
            if (!opt_.allow_hull) {
                if (kink_reason.empty()) {
                    std::size_t kk = 0;
                    while (code_[j * n + kk] != 2) ++kk;
                    kink_reason = "neuron " + pb_.neuron_name(j) + " straddles the switching hyperplane <w_j, x_" +
                                  std::to_string(kk) + "> = 0 on the step tube and Clarke-hull steps are disabled";
                }
                continue;
            }
            kind_[j] = 1;
            ++out.hull;
        } else {
            kind_[j] = 0;
            ++out.smooth;
            pat.emplace(key, 0);
        }
    }
    if (!opt_.allow_hull && !pb_.all(kink_reason.empty())) {
        out.fail = StepFail::kink;
        out.reason = kink_reason.empty() ? "a neuron of another process straddles a switching hyperplane on the step "
                                           "tube and Clarke-hull steps are disabled"
                                         : kink_reason;
        return out;
    }
    pattern_keys_.clear();
    for (auto& [key, idx] : pat) {
        idx = static_cast<std::uint32_t>(pattern_keys_.size());
        pattern_keys_.push_back(key);
    }
    const std::size_t U = pattern_keys_.size();
    for (std::size_t j = 0; j < m; ++j)
        if (kind_[j] == 0) {
            std::uint64_t key = 0;
            for (std::size_t k = 0; k < n; ++k) key |= static_cast<std::uint64_t>(code_[j * n + k]) << (2 * k);
            pattern_[j] = pat[key];
        }
    // hull neurons enter the residual models as constants over their Picard boxes B_j, parked
    // neurons as a * [0, z^+_A] on their sample (section 4c)
    K_.assign(n, I(0));
    for (std::size_t j = 0; j < m; ++j) {
        if (kind_[j] == 3) {
            K_[tpark_.k[j]] += tpark_.box[j * S + d] * I::bounds(0.0, tpark_.z[j]);
            continue;
        }
        if (kind_[j] != 1) continue;
        const I* B = &B_[j * S];
        for (std::size_t k = 0; k < n; ++k) {
            I z = B[0] * pb_.x[k * d];
            for (std::size_t i = 1; i < d; ++i) z += B[i] * pb_.x[k * d + i];
            K_[k] += B[d] * leaky_relu(z, pb_.gamma);
        }
    }
    pb_.sum(K_);

    // (ii) Taylor models of the smooth neurons, coupled through the residual models.
    recurrence(X, U);
    bool valid = false;
    for (int it = 0; it < 8 && !valid; ++it) {
        ++out.validation_iterations;
        residual_tm(U);
        std::vector<char> okc(pb_.chunks(), 1);
        parallel_for(pb_.chunks(), pb_.threads, [&](std::size_t ch) {
            const std::size_t j0 = ch * kChunk, j1 = std::min(m, j0 + kChunk);
            Tm prod, sum, img;
            for (std::size_t j = j0; j < j1; ++j) {
                if (kind_[j] != 0) continue;
                const std::size_t u = pattern_[j];
                bool ok = true;
                tm_zero(sum, p_);
                for (std::size_t i = 0; i < d; ++i) {
                    tm_mul(tm_[j * S + i], D_[u * d + i], P_, prod);  // <w, D>
                    tm_add_to(sum, prod, p_);
                }
                tm_integrate(sum, X[j * S + d], P_, img);
                newr_[j * S + d] = needed_remainder(img, tm_[j * S + d], P_);
                if (!subset(newr_[j * S + d], tm_[j * S + d].r)) ok = false;
                for (std::size_t i = 0; i < d; ++i) {
                    tm_mul(tm_[j * S + d], D_[u * d + i], P_, prod);  // a D
                    tm_integrate(prod, X[j * S + i], P_, img);
                    newr_[j * S + i] = needed_remainder(img, tm_[j * S + i], P_);
                    if (!subset(newr_[j * S + i], tm_[j * S + i].r)) ok = false;
                }
                newr_ok_[j] = ok ? 1 : 0;
                if (!ok) okc[ch] = 0;
            }
        });
        const bool local_valid = std::all_of(okc.begin(), okc.end(), [](char c) { return c != 0; });
        valid = pb_.all(local_valid);  // collective: the residual models are shared
        if (!local_valid)
            for (std::size_t j = 0; j < m; ++j)
                if (kind_[j] == 0 && !newr_ok_[j])
                    for (std::size_t i = 0; i < S; ++i)
                        tm_[j * S + i].r = widen(hull(newr_[j * S + i], tm_[j * S + i].r), 0.1, 1e-300);
    }
    if (!valid) {
        out.fail = StepFail::validation;
        out.reason = "Taylor-model remainder validation of the coupled smooth neurons failed";
        return out;
    }
    // Hull neurons: the Schauder set fixes them in C([0,H], B_j); check T maps it into itself:
    // X_j + [0,H] F(B_j, range of G) inside B_j.
    std::vector<I> Grange(n);
    for (std::size_t k = 0; k < n; ++k) Grange[k] = tm_range(G_[k], P_);
    std::string hull_box_reason;
    for (std::size_t j = 0; j < m && hull_box_reason.empty(); ++j) {
        if (kind_[j] != 1) continue;
        std::vector<I> F(S);
        field_box(pb_, &B_[j * S], Grange.data(), F.data());
        for (std::size_t i = 0; i < S; ++i)
            if (!subset(X[j * S + i] + P_.s * F[i], B_[j * S + i])) {
                hull_box_reason = "hull neuron " + pb_.neuron_name(j) + " leaves its box under the residual models";
                break;
            }
    }
    if (!pb_.all(hull_box_reason.empty())) {
        out.fail = StepFail::validation;
        out.reason = hull_box_reason.empty() ? "a hull neuron of another process leaves its box under the residual "
                                               "models"
                                             : hull_box_reason;
        return out;
    }

    // Results: smooth neurons from their models, intersected with the a priori tube.
    double e_max = 0;
    for (std::size_t j = 0; j < m; ++j) {
        if (kind_[j] == 2) {
            for (std::size_t i = 0; i < S; ++i) end_[j * S + i] = tube_[j * S + i] = X[j * S + i];
            continue;
        }
        if (kind_[j] == 3) {  // parked: the anchored box, for every t while (iii) holds
            for (std::size_t i = 0; i < S; ++i) end_[j * S + i] = tube_[j * S + i] = tpark_.box[j * S + i];
            continue;
        }
        if (kind_[j] != 0) continue;
        double scale = 0;
        for (std::size_t i = 0; i < S; ++i) scale = std::max(scale, mag(X[j * S + i]));
        for (std::size_t i = 0; i < S; ++i) {
            const Tm& t = tm_[j * S + i];
            I e = poly_at(t.c, p_, delta_) + t.r, tb = tm_range(t, P_), o;
            end_[j * S + i] = intersect(e, N_[j * S + i], o) ? o : e;
            tube_[j * S + i] = intersect(tb, N_[j * S + i], o) ? o : tb;
            if (scale > 0) e_max = std::max(e_max, mag(t.c[p_]) * std::pow(P_.s.upper(), p_) / scale);
        }
    }
    // Hull neurons: per-neuron sub-steps driven by the validated residual models.
    std::string hull_reason;
    const auto hull_t0 = std::chrono::steady_clock::now();
    if (out.hull > 0) {
        std::vector<char> okh(m, 1);
        const bool point_step = is_point(delta_);
        // Scheduled one hull neuron at a time (their cost varies by orders of magnitude with the
        // number of sub-steps; blocks of 64 left one thread idle). Each writes only its own outputs.
        std::vector<std::size_t> hl;
        for (std::size_t j = 0; j < m; ++j)
            if (kind_[j] == 1) hl.push_back(j);
        parallel_for(hl.size(), pb_.threads, [&](std::size_t q) {
            const std::size_t j = hl[q];
            {
                {
                    if (!point_step) {
                        // step length not exactly representable: first-order enclosure
                        std::vector<I> F(S);
                        field_box(pb_, &N_[j * S], R_.data(), F.data());
                        for (std::size_t i = 0; i < S; ++i) {
                            I e = X[j * S + i] + delta_ * F[i], o;
                            end_[j * S + i] = intersect(e, N_[j * S + i], o) ? o : e;
                            tube_[j * S + i] = N_[j * S + i];
                        }
                        hull_sub_[j] = 1;
                        crossings_[j] = 0;
                    } else if (!hull_neuron(j, X)) {
                        okh[j] = 0;
                    }
                }
            }
        });
        for (std::size_t j = 0; j < m; ++j) {
            if (kind_[j] != 1) continue;
            if (!okh[j] && hull_reason.empty())
                hull_reason = "hull neuron " + pb_.neuron_name(j) + ": no sub-step enclosure";
            out.hull_substeps += hull_sub_[j];
            out.crossings += crossings_[j];
        }
    }
    out.wall_hull = std::chrono::duration<double>(std::chrono::steady_clock::now() - hull_t0).count();
    if (!pb_.all(hull_reason.empty())) {
        out.fail = StepFail::hull_neuron;
        out.reason = hull_reason.empty() ? "a hull neuron of another process: no sub-step enclosure" : hull_reason;
        return out;
    }
    // Heuristic (non-rigorous) step-size suggestion from the size of the last Taylor term.
    const double H = P_.s.upper();
    double factor = 2.0;
    if (e_max > 0) factor = std::clamp(0.9 * std::pow(opt_.tolerance / e_max, 1.0 / p_), 0.5, 2.0);
    out.h_suggest = pb_.min(H * factor);  // collective: the largest e_max over all processes decides
    return out;
}

}  // namespace

FlowResult integrate_gradient_flow(const TwoLayerModel<IntervalD>& model, const TwoLayerParams<IntervalD>& theta0,
                                   const FlowOptions& opt, const FlowObserver& observer) {
    FlowResult res;
    auto invalid = [&](std::string why) {
        res.status = FlowStatus::invalid_input;
        res.reason = std::move(why);
        return res;
    };
    if (model.loss() != LossKind::half_square) return invalid("only the half-square loss is supported by the flow");
    if (theta0.d != model.d()) return invalid("parameter dimension differs from the data dimension");
    if (theta0.m == 0) return invalid("no neurons");
    if (model.n() > 32) return invalid("at most 32 samples are supported");
    if (opt.order < 1 || opt.order > kMaxOrder) return invalid("order must lie in 1..16");
    if (!(opt.t_end > 0) || !std::isfinite(opt.t_end)) return invalid("t_end must be positive and finite");
    if (!(opt.h_min > 0) || !(opt.h_initial >= opt.h_min) || !(opt.h_max >= opt.h_min))
        return invalid("need 0 < h_min <= h_initial, h_max");
    if (opt.threads < 1) return invalid("threads must be >= 1");
    std::vector<double> targets = opt.output_times;
    std::sort(targets.begin(), targets.end());
    for (double t : targets)
        if (!(t > 0 && t <= opt.t_end)) return invalid("output times must lie in (0, t_end]");
    // Partition: decided collectively, so that no process waits in a reduction for one that left.
    const FlowPartition& part = opt.partition;
    const std::size_t jb = part.begin, je = std::min(part.end, theta0.m);
    {
        std::string why;
        if (part.distributed() && (!part.allreduce_and || !part.allreduce_min))
            return invalid("a partition needs all three reducers (allreduce_sum, allreduce_and, allreduce_min)");
        if (!part.distributed() && (part.begin != 0 || je != theta0.m))
            return invalid("a partial neuron range needs the reducers of FlowPartition");
        if (jb > je) why = "partition: begin > end";
        if (part.distributed()) {
            std::vector<IntervalD> count{IntervalD(static_cast<long long>(why.empty() ? je - jb : 0))};
            part.allreduce_sum(count);
            const bool ok = part.allreduce_and(why.empty());
            if (!ok && why.empty()) why = "partition: invalid range on another process";
            const double mm = static_cast<double>(theta0.m);  // exact counts (< 2^53)
            if (ok && !(count[0].lower() == mm && count[0].upper() == mm))
                why = "partition: the owned ranges do not add up to m = " + std::to_string(theta0.m);
        }
        if (!why.empty()) return invalid(why);
    }
    res.owned_begin = jb;
    res.owned_end = je;
    targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
    const std::vector<double> snaps = targets;
    if (targets.empty() || targets.back() != opt.t_end) targets.push_back(opt.t_end);

    Problem pb;
    pb.m = je - jb;  // the engine sees only the owned neurons (local index j <-> global jb + j)
    pb.offset = jb;
    pb.part = part.distributed() ? &part : nullptr;
    pb.d = model.d();
    pb.n = model.n();
    pb.S = pb.d + 1;
    for (std::size_t k = 0; k < pb.n; ++k) {
        for (std::size_t i = 0; i < pb.d; ++i) pb.x.push_back(model.x(k, i));
        pb.y.push_back(model.y(k));
    }
    pb.c = model.risk_weight();
    pb.gamma = model.gamma();
    pb.eta_hull = hull(model.gamma(), IntervalD(1));
    pb.gamma_zero = model.gamma_is_zero();
    pb.threads = opt.threads;

    const std::size_t S = pb.S;
    std::vector<IntervalD> X(pb.m * S);
    for (std::size_t j = 0; j < pb.m; ++j) {
        for (std::size_t i = 0; i < pb.d; ++i) X[j * S + i] = theta0.W(jb + j, i);
        X[j * S + pb.d] = theta0.a[jb + j];
    }
    // Non-owned neurons keep theta0 (documented: not enclosures; see gather_flow_result).
    auto to_params = [&](const std::vector<IntervalD>& v) {
        TwoLayerParams<IntervalD> p = theta0;
        for (std::size_t j = 0; j < pb.m; ++j) {
            for (std::size_t i = 0; i < pb.d; ++i) p.W(jb + j, i) = v[j * S + i];
            p.a[jb + j] = v[j * S + pb.d];
        }
        return p;
    };
    std::vector<char> frozen_local(pb.m, 0);
    Engine engine(pb, opt);
    const auto run_t0 = std::chrono::steady_clock::now();
    double t = 0, h = std::min(opt.h_initial, opt.h_max);
    std::size_t next_target = 0, snap_i = 0;
    bool first_step = true;
    try {
        while (next_target < targets.size()) {
            if (res.stats.steps >= opt.max_steps) {
                res.status = FlowStatus::max_steps;
                res.reason = "step budget exhausted at t = " + std::to_string(t);
                break;
            }
            const double target = targets[next_target];
            double t1 = t + h;
            if (t1 >= target - 1e-3 * h) t1 = target;
            const StepOutcome so = engine.step(X, frozen_local, t, t1);
            if (so.fail != StepFail::none) {
                ++res.stats.rejected_steps;
                res.stats.last_rejection = so.reason;
                h = 0.5 * (t1 - t);
                if (h < opt.h_min) {
                    res.status = so.fail == StepFail::kink ? FlowStatus::kink_requires_hull
                                                           : FlowStatus::step_size_underflow;
                    res.reason = so.reason + " (at t = " + std::to_string(t) + ", step < h_min)";
                    break;
                }
                continue;
            }
            X = engine.end();
            engine.accept();
            ++res.stats.steps;
            res.stats.smooth_neuron_steps += so.smooth;
            res.stats.hull_neuron_steps += so.hull;
            res.stats.parked_neuron_steps += so.parked;
            res.stats.hull_substeps += so.hull_substeps;
            res.stats.transversal_crossings += so.crossings;
            res.stats.wall_hull_phase += so.wall_hull;
            res.stats.validation_iterations += so.validation_iterations;
            const double hs = t1 - t;
            if (first_step || hs < res.stats.h_smallest) res.stats.h_smallest = hs;
            res.stats.h_largest = std::max(res.stats.h_largest, hs);
            first_step = false;
            if (opt.store_tube || observer) {
                FlowStep st;
                st.t0 = t;
                st.t1 = t1;
                st.tube = to_params(engine.tube());
                st.smooth = so.smooth;
                st.hull = so.hull;
                st.frozen = so.frozen;
                st.parked = so.parked;
                st.hull_substeps = so.hull_substeps;
                st.crossings = so.crossings;
                if (observer) observer(st);
                if (opt.store_tube) res.tube.push_back(std::move(st));
            }
            t = t1;
            res.t_reached = t;
            if (t == target) {
                ++next_target;
                if (snap_i < snaps.size() && snaps[snap_i] == t) {
                    res.snapshots.push_back({t, to_params(X)});
                    ++snap_i;
                }
            }
            h = std::clamp(so.h_suggest, opt.h_min, opt.h_max);
        }
        if (res.status == FlowStatus::not_run) res.status = FlowStatus::completed;
    } catch (const std::exception& e) {
        res.status = FlowStatus::step_size_underflow;
        res.reason = std::string("arithmetic failure during a step: ") + e.what();
    }
    res.stats.wall_total = std::chrono::duration<double>(std::chrono::steady_clock::now() - run_t0).count();
    res.state = to_params(X);
    res.frozen.assign(theta0.m, 0);
    std::copy(frozen_local.begin(), frozen_local.end(), res.frozen.begin() + static_cast<std::ptrdiff_t>(jb));
    res.stats.frozen_neurons = static_cast<std::size_t>(std::count(res.frozen.begin(), res.frozen.end(), 1));
    res.parked.assign(theta0.m, 0);
    std::copy(engine.parked().begin(), engine.parked().end(), res.parked.begin() + static_cast<std::ptrdiff_t>(jb));
    res.stats.parked_neurons = static_cast<std::size_t>(std::count(res.parked.begin(), res.parked.end(), 1));
    return res;
}

void gather_owned(TwoLayerParams<IntervalD>& params, const FlowPartition& part) {
    if (!part.distributed()) return;
    const std::size_t m = params.m, d = params.d, S = d + 1;
    const std::size_t jb = std::min(part.begin, m), je = std::min(part.end, m);
    std::vector<IntervalD> v(m * S, IntervalD(0));
    for (std::size_t j = jb; j < je; ++j) {
        for (std::size_t i = 0; i < d; ++i) v[j * S + i] = params.W(j, i);
        v[j * S + d] = params.a[j];
    }
    part.allreduce_sum(v);  // x + [0, 0] is exact (IntervalD addition of an exact zero)
    for (std::size_t j = 0; j < m; ++j) {
        for (std::size_t i = 0; i < d; ++i) params.W(j, i) = v[j * S + i];
        params.a[j] = v[j * S + d];
    }
}

void gather_flow_result(FlowResult& res, const FlowPartition& part) {
    if (!part.distributed()) return;
    gather_owned(res.state, part);
    for (auto& sn : res.snapshots) gather_owned(sn.state, part);
    for (auto& st : res.tube) gather_owned(st.tube, part);
    // counts (exact integers < 2^53) and frozen flags
    std::vector<IntervalD> v;
    auto push = [&](std::size_t c) { v.push_back(IntervalD(static_cast<long long>(c))); };
    push(res.stats.smooth_neuron_steps);
    push(res.stats.hull_neuron_steps);
    push(res.stats.hull_substeps);
    push(res.stats.transversal_crossings);
    push(res.stats.parked_neuron_steps);
    for (const auto& st : res.tube) {
        push(st.smooth);
        push(st.hull);
        push(st.frozen);
        push(st.parked);
        push(st.hull_substeps);
        push(st.crossings);
    }
    for (char f : res.frozen) push(f ? 1 : 0);
    res.parked.resize(res.frozen.size(), 0);
    for (char f : res.parked) push(f ? 1 : 0);
    part.allreduce_sum(v);
    std::size_t q = 0;
    auto pop = [&] { return static_cast<std::size_t>(v[q++].lower()); };
    res.stats.smooth_neuron_steps = pop();
    res.stats.hull_neuron_steps = pop();
    res.stats.hull_substeps = pop();
    res.stats.transversal_crossings = pop();
    res.stats.parked_neuron_steps = pop();
    for (auto& st : res.tube) {
        st.smooth = pop();
        st.hull = pop();
        st.frozen = pop();
        st.parked = pop();
        st.hull_substeps = pop();
        st.crossings = pop();
    }
    for (auto& f : res.frozen) f = pop() != 0 ? 1 : 0;
    for (auto& f : res.parked) f = pop() != 0 ? 1 : 0;
    res.stats.frozen_neurons = static_cast<std::size_t>(std::count(res.frozen.begin(), res.frozen.end(), 1));
    res.stats.parked_neurons = static_cast<std::size_t>(std::count(res.parked.begin(), res.parked.end(), 1));
    res.owned_begin = 0;
    res.owned_end = res.state.m;
}

// ---- rigorous gradient descent ----------------------------------------------------------------

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
    const std::size_t m = theta0.m, d = model.d(), n = model.n();
    const std::size_t C = (m + kChunk - 1) / kChunk;
    res.theta = theta0;
    TwoLayerParams<I2>& th = res.theta;
    const I2 zero = model.zero(), one = model.one();
    const I2 eta_hull = hull(model.gamma(), one);
    const I2 c = model.risk_weight();
    if (opt.track_drift) {
        res.drift_sum.assign(m, zero);
        res.drift_step_max.assign(m, 0.0);
        res.drift_constant.assign(m, 0.0);
    }
    std::vector<I2> z(m * n, zero), partial(C * n, zero), g(n, zero);
    std::vector<std::size_t> undecided(C, 0);
    const I2 step2 = sqr(step);
    // Phase 1 (per chunk): z_jk and the chunk's partial outputs, accumulated locally (the partials
    // of adjacent chunks share cache lines).
    auto phase1 = [&](std::size_t ch) {
        std::vector<I2> acc(n, zero);
        const std::size_t j0 = ch * kChunk, j1 = std::min(m, j0 + kChunk);
        for (std::size_t j = j0; j < j1; ++j)
            for (std::size_t k = 0; k < n; ++k) {
                I2 s = th.W(j, 0) * model.x(k, 0);
                for (std::size_t i = 1; i < d; ++i) s += th.W(j, i) * model.x(k, i);
                z[j * n + k] = s;
                acc[k] += th.a[j] * model.sigma(s);
            }
        for (std::size_t k = 0; k < n; ++k) partial[ch * n + k] = acc[k];
    };
    // outputs h(x_k), summed in chunk order, then loss derivatives l'_k
    auto loss_derivs = [&] {
        for (std::size_t k = 0; k < n; ++k) {
            I2 acc = zero;
            for (std::size_t ch = 0; ch < C; ++ch) acc += partial[ch * n + k];
            // l'_k: h - y (half square) or -y / (1 + e^{h y}) (logistic) [BF2025, Sec. 2]
            g[k] = model.loss() == LossKind::half_square ? acc - model.y(k) : model.loss_derivative(acc, model.y(k));
        }
    };
    // Phase 2 (per chunk): D_j and the update of every neuron of the chunk.
    auto phase2 = [&](std::size_t ch) {
        const std::size_t j0 = ch * kChunk, j1 = std::min(m, j0 + kChunk);
        std::vector<I2> D(d, zero);
        std::size_t und = 0;
        for (std::size_t j = j0; j < j1; ++j) {
            for (std::size_t i = 0; i < d; ++i) D[i] = zero;
            for (std::size_t k = 0; k < n; ++k) {
                const I2& s = z[j * n + k];
                I2 eg = g[k];
                if (certainly_negative(s)) {
                    eg = model.gamma() * g[k];
                } else if (!certainly_positive(s)) {
                    eg = eta_hull * g[k];  // Clarke hull: sigma'(0) anywhere in [gamma, 1]
                    ++und;
                }
                for (std::size_t i = 0; i < d; ++i) D[i] += eg * model.x(k, i);
            }
            for (std::size_t i = 0; i < d; ++i) D[i] = -(c * D[i]);
            const I2 a = th.a[j];
            I2 wd = th.W(j, 0) * D[0];
            for (std::size_t i = 1; i < d; ++i) wd += th.W(j, i) * D[i];
            if (opt.track_drift) {
                // exact per-step drift step^2 (<w,D>^2 - a^2 |D|^2)  [BF2025, Lemma 1, GD version]
                I2 D2 = sqr(D[0]), w2 = sqr(th.W(j, 0));
                for (std::size_t i = 1; i < d; ++i) {
                    D2 += sqr(D[i]);
                    w2 += sqr(th.W(j, i));
                }
                const I2 drift = step2 * (sqr(wd) - sqr(a) * D2);
                res.drift_sum[j] += drift;
                const double dm = upper(abs(drift));
                if (dm > res.drift_step_max[j]) res.drift_step_max[j] = dm;
                const double cm = upper(D2 * max(sqr(a), w2));
                if (cm > res.drift_constant[j]) res.drift_constant[j] = cm;
            }
            for (std::size_t i = 0; i < d; ++i) th.W(j, i) += step * a * D[i];
            th.a[j] += step * wd;
        }
        undecided[ch] += und;
    };
    // after an iteration: true if the run must stop (unbounded residual enclosure)
    auto check = [&](std::size_t it) {
        res.iterations_done = it + 1;
        for (std::size_t k = 0; k < n; ++k)
            if (!is_bounded(g[k])) {
                res.status = GdStatus::diverged;
                res.reason = "residual enclosure unbounded at iteration " + std::to_string(it);
                return true;
            }
        return false;
    };
    const int T = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(std::max(1, opt.threads)), C));
    if (T <= 1) {
        for (std::size_t it = 0; it < opt.iterations; ++it) {
            for (std::size_t ch = 0; ch < C; ++ch) phase1(ch);
            loss_derivs();
            for (std::size_t ch = 0; ch < C; ++ch) phase2(ch);
            if (check(it)) break;
        }
    } else {
        // Persistent threads (one spawn per run, not per phase), chunks assigned statically
        // (ch = tid mod T); every chunk writes only its own outputs and sums run in chunk order,
        // so the result is the same for every thread count. Barriers separate the phases.
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
            for (std::size_t it = 0; it < opt.iterations; ++it) {
                guarded([&] {
                    for (std::size_t ch = static_cast<std::size_t>(tid); ch < C; ch += static_cast<std::size_t>(T))
                        phase1(ch);
                });
                bar.arrive_and_wait();
                if (tid == 0) guarded(loss_derivs);
                bar.arrive_and_wait();
                guarded([&] {
                    for (std::size_t ch = static_cast<std::size_t>(tid); ch < C; ch += static_cast<std::size_t>(T))
                        phase2(ch);
                });
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
    for (auto u : undecided) res.undecided_pair_steps += u;
    if (res.status == GdStatus::not_run) res.status = GdStatus::completed;
    return res;
}

template GdResult<IntervalD> gd_iterate(const TwoLayerModel<IntervalD>&, const TwoLayerParams<IntervalD>&,
                                        const IntervalD&, const GdOptions&);
template GdResult<IntervalMp> gd_iterate(const TwoLayerModel<IntervalMp>&, const TwoLayerParams<IntervalMp>&,
                                         const IntervalMp&, const GdOptions&);

}  // namespace flowcert::nets
