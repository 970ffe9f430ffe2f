// Pattern stabilization and the limit of GD for the reconstructed [LWTM2026] model (docs/rh.md#tail).
#include "flowcert/proofs/rh/stabilization.hpp"

#include <map>
#include <sstream>

namespace flowcert::proofs::rh {

namespace {

std::string pattern_key(const Pattern& P) {
    std::string s;
    for (const auto& row : P)
        for (int v : row) s += static_cast<char>('0' + v);
    return s;
}

// The limit's loss, the global minimum and the fit error of a certified tail.
void limit_values(const Instance& inst, PatternResult& res, const std::vector<int>& U) {
    const int n = inst.n, m = inst.m;
    std::vector<int> inU(n, 0);
    for (int t : U) inU[t] = 1;
    IntervalD loss(0), lmin(0);
    for (int i = 0; i < n; ++i) {
        if (!inU[i]) loss += sqr(inst.y[i]);  // r_U(inf) = 0; samples outside U have f = 0
        if (m == 1 && inst.negative[i]) lmin += sqr(inst.y[i]);
    }
    res.loss_inf = loss / 2;
    res.loss_min = lmin / 2;
    IntervalD fit(0);
    for (int i : U) {
        IntervalD f(0);
        for (int p = 0; p < m; ++p)
            if (res.pattern[p][i]) f += inst.s[p] > 0 ? res.beta_inf[p][i] : -res.beta_inf[p][i];
        fit = max(fit, abs(f - inst.y[i]));
    }
    res.fit_error = fit;
}

// The interval GD map of nets::rh (docs/rh.md#interval-gd).
class IntervalIteration final : public GdIteration {
public:
    explicit IntervalIteration(const Instance& inst) : inst_(inst), a_(inst.a0), beta_(nets::rh::initial_predictions(inst)) {}
    void enclose(std::vector<IVec>& a, std::vector<IVec>& beta) const override {
        a = a_;
        beta = beta_;
    }
    void step(const Pattern& P) override {
        const IVec r = nets::rh::residual(inst_, P, beta_);
        nets::rh::gd_step(inst_, P, r, a_, beta_);
    }

private:
    const Instance& inst_;
    std::vector<IVec> a_, beta_;
};

}  // namespace

PatternResult certify_pattern_and_limit(const Instance& inst, const GdOptions& options) {
    IntervalIteration it(inst);
    return certify_pattern_and_limit(inst, it, options);
}

PatternResult certify_pattern_and_limit(const Instance& inst, GdIteration& iteration, const GdOptions& options) {
    PatternResult res;
    const int n = inst.n, m = inst.m;
    std::vector<IVec> a, beta;
    Pattern prev, P(m, std::vector<int>(n, 0));
    std::map<std::string, TailData> cache;
    std::string last_tail_reason = "no step with a stable pattern";
    for (int k = 0; k <= options.max_steps; ++k) {
        iteration.enclose(a, beta);
        if (options.record_trace) res.trace.push_back(beta);
        // Pattern at step k (relu'(0) = 0: active iff beta > 0).
        for (int p = 0; p < m; ++p)
            for (int i = 0; i < n; ++i) {
                if (certainly_positive(beta[p][i])) {
                    P[p][i] = 1;
                } else if (certainly_nonpositive(beta[p][i])) {
                    P[p][i] = 0;
                } else {
                    res.undetermined_step = k;
                    res.undetermined_neuron = p;
                    res.undetermined_sample = i;
                    std::ostringstream os;
                    os << "sign of <w_" << p << "(" << k << "), x_" << i << "> undetermined: enclosure "
                       << to_string(beta[p][i], 6);
                    res.signs = ProofResult::not_proven(os.str());
                    res.tail = ProofResult::not_proven("stopped: " + os.str());
                    return res;
                }
            }
        if (k > 0)
            for (int p = 0; p < m; ++p)
                for (int i = 0; i < n; ++i)
                    if (P[p][i] != prev[p][i]) {
                        res.changes.push_back({k, p, i, P[p][i]});
                        res.K = k;
                    }
        prev = P;
        const IVec r = nets::rh::residual(inst, P, beta);
        // Tail certificate attempt at step k with the current pattern.
        const std::string key = pattern_key(P);
        auto it = cache.find(key);
        const bool changed_now = !res.changes.empty() && res.changes.back().step == k;
        if (it == cache.end() && changed_now) {
            // the pattern just changed: prepare its tail data (O(n^3)) only once it persists a step
            last_tail_reason = "pattern changed at the last step run";
        } else {
            if (it == cache.end()) it = cache.emplace(key, prepare_tail(inst, P)).first;
            const TailData& td = it->second;
            res.tail_attempted = true;
            res.tail_attempt_step = k;
            res.rho_known = td.rho_known;
            res.rho = td.rho;
            res.rho_reason = td.rho_known ? "" : td.ready.reason;
            res.margin_known = false;
            res.margin_reason = td.ready.reason;
            if (!td.ready.is_proven()) {
                last_tail_reason = td.ready.reason;
            } else {
                const TailAttempt at = attempt_tail(inst, P, td, r, a, beta);
                res.margin_known = true;
                res.margin = at.margin;
                res.margin_reason.clear();
                res.worst_neuron = at.worst_neuron;
                res.worst_sample = at.worst_sample;
                std::ostringstream os;
                os << "at step " << k << ": smallest signed margin " << lower(at.margin) << " (neuron "
                   << at.worst_neuron << ", sample " << at.worst_sample << "), ||r_K|| <= " << upper(at.r_norm);
                if (at.proven) {
                    res.signs = ProofResult::proven("every sign certified at steps 0.." + std::to_string(k));
                    res.tail_step = k;
                    res.pattern = P;
                    res.lambda = td.lambda;
                    res.r_norm = at.r_norm;
                    res.a_inf = at.a_inf;
                    res.beta_inf = at.beta_inf;
                    std::ostringstream ok;
                    ok << "pattern fixed from step " << res.K << "; tail certified " << os.str() << ", rho <= "
                       << upper(td.rho) << " < 1";
                    res.tail = ProofResult::proven(ok.str());
                    limit_values(inst, res, td.U);
                    return res;
                }
                last_tail_reason = "tail certificate failed " + os.str();
            }
        }
        iteration.step(P);
    }
    res.signs = ProofResult::proven("every sign certified at steps 0.." + std::to_string(options.max_steps));
    res.tail = ProofResult::not_proven("no tail certificate within max_steps = " + std::to_string(options.max_steps) +
                                       ": " + last_tail_reason);
    res.pattern = P;
    return res;
}

ProofResult global_minimality(const Instance& inst, const PatternResult& pr) {
    if (!pr.tail.is_proven()) return ProofResult::not_proven("w(inf) not certified: " + pr.tail.reason);
    const int n = inst.n, m = inst.m;
    for (int i = 0; i < n; ++i) {
        bool active = false;
        for (int p = 0; p < m; ++p) active = active || pr.pattern[p][i];
        if (m == 1 && !inst.negative[i] && !active)
            return ProofResult::disproven("positive sample " + std::to_string(i) +
                                          " is certified inactive forever: L(w(inf)) >= min L + y_i^2/2");
        if (m == 1 && inst.negative[i] && active)  // cannot happen when the tail is certified
            return ProofResult::not_proven("non-positive sample " + std::to_string(i) + " active in the limit");
        if (m == 2 && !active && certainly_nonzero(inst.y[i]))
            return ProofResult::disproven("sample " + std::to_string(i) +
                                          " is certified inactive in both neurons forever but y_i != 0: "
                                          "L(w(inf)) >= y_i^2/2 > 0 = min L");
    }
    return ProofResult::proven(m == 1 ? "X_{P+} w(inf) = y_{P+} (every positive sample active and fitted) and "
                                        "X_N w(inf) < 0 (every non-positive sample inactive): L(w(inf)) = "
                                        "1/2 sum_{y<=0} y^2 = min L"
                                      : "every sample with y != 0 is active in some neuron and r_U(inf) = 0: "
                                        "L(w(inf)) = 0 = min L");
}

}  // namespace flowcert::proofs::rh
