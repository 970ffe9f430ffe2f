// Rigorous gradient flow of the two-layer network of [BF2025]: input checks, the problem data, and
// the step loop around the Engine (flow_engine.hpp). See two_layer_flow.hpp and
// docs/nonsmooth-flow.md for the soundness argument of every phase.
#include "flowcert/nets/two_layer_flow.hpp"

#define FLOWCERT_NETS_FLOW_INTERNAL
#include "flow_engine.hpp"
#undef FLOWCERT_NETS_FLOW_INTERNAL

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace flowcert::nets {

std::string to_string(FlowStatus s) {
    switch (s) {
        case FlowStatus::not_run: return "not_run";
        case FlowStatus::completed: return "completed";
        case FlowStatus::invalid_input: return "invalid_input";
        case FlowStatus::step_size_underflow: return "step_size_underflow";
        case FlowStatus::kink_requires_hull: return "kink_requires_hull";
        case FlowStatus::max_steps: return "max_steps";
        case FlowStatus::arithmetic_failure: return "arithmetic_failure";
    }
    return "unknown";
}

namespace {

using flow::Engine;
using flow::Problem;
using flow::StepFail;
using flow::StepOutcome;

// Why the model/options are not supported (empty: supported).
std::string unsupported(const TwoLayerModel<IntervalD>& model, const TwoLayerParams<IntervalD>& theta0,
                        const FlowOptions& opt) {
    if (model.loss() != LossKind::half_square) return "only the half-square loss is supported by the flow";
    if (theta0.d != model.d()) return "parameter dimension differs from the data dimension";
    if (theta0.m == 0) return "no neurons";
    if (model.n() > 32) return "at most 32 samples are supported";
    if (opt.order < 1 || opt.order > ode::kTmMaxOrder) return "order must lie in 1..16";
    if (!(opt.t_end > 0) || !std::isfinite(opt.t_end)) return "t_end must be positive and finite";
    if (!(opt.h_min > 0) || !(opt.h_initial >= opt.h_min) || !(opt.h_max >= opt.h_min))
        return "need 0 < h_min <= h_initial, h_max";
    if (opt.threads < 1) return "threads must be >= 1";
    for (double t : opt.output_times)
        if (!(t > 0 && t <= opt.t_end)) return "output times must lie in (0, t_end]";
    if (opt.lumping.from != std::numeric_limits<double>::infinity()) {
        if (!(opt.lumping.from >= 0)) return "lumping.from must be >= 0 (or +infinity: no lumping)";
        if (!model.gamma_is_zero()) return "lumped classes need ReLU (gamma = 0)";
        if (opt.partition.distributed()) return "lumped classes are not supported with a partition";
    }
    return {};
}

// The partition, checked collectively (so that no process waits in a reduction for one that left).
std::string partition_problem(const FlowPartition& part, std::size_t m, std::size_t jb, std::size_t je) {
    if (part.distributed() && (!part.allreduce_and || !part.allreduce_min))
        return "a partition needs all three reducers (allreduce_sum, allreduce_and, allreduce_min)";
    if (!part.distributed() && (part.begin != 0 || je != m)) return "a partial neuron range needs the reducers of FlowPartition";
    std::string why;
    if (jb > je) why = "partition: begin > end";
    if (part.distributed()) {
        std::vector<IntervalD> count{IntervalD(static_cast<long long>(why.empty() ? je - jb : 0))};
        part.allreduce_sum(count);
        const bool ok = part.allreduce_and(why.empty());
        if (!ok && why.empty()) why = "partition: invalid range on another process";
        const double mm = static_cast<double>(m);  // exact counts (< 2^53)
        if (ok && !(count[0].lower() == mm && count[0].upper() == mm))
            why = "partition: the owned ranges do not add up to m = " + std::to_string(m);
    }
    return why;
}

Problem make_problem(const TwoLayerModel<IntervalD>& model, const FlowOptions& opt, std::size_t jb, std::size_t je) {
    Problem pb;
    pb.m = je - jb;  // the engine sees only the owned neurons (local index j <-> global jb + j)
    pb.offset = jb;
    pb.part = opt.partition.distributed() ? &opt.partition : nullptr;
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
    return pb;
}

FlowStatus status_of(const ode::DriveResult& dr) {
    switch (dr.status) {
        case ode::DriveStatus::completed: return FlowStatus::completed;
        case ode::DriveStatus::max_steps: return FlowStatus::max_steps;
        case ode::DriveStatus::arithmetic_failure: return FlowStatus::arithmetic_failure;
        case ode::DriveStatus::step_size_underflow:
            return dr.failure == static_cast<int>(StepFail::kink) ? FlowStatus::kink_requires_hull
                                                                  : FlowStatus::step_size_underflow;
        case ode::DriveStatus::not_run: break;
    }
    return FlowStatus::not_run;
}

void add_counts(FlowStats& st, const StepOutcome& so) {
    st.smooth_neuron_steps += so.smooth;
    st.hull_neuron_steps += so.hull;
    st.parked_neuron_steps += so.parked;
    st.hull_substeps += so.hull_substeps;
    st.transversal_crossings += so.crossings;
    st.wall_hull_phase += so.wall_hull;
    st.validation_iterations += so.validation_iterations;
    st.lumped_neuron_steps += so.lumped;
}

FlowStep flow_step(double t0, double t1, TwoLayerParams<IntervalD> tube, const StepOutcome& so) {
    FlowStep st;
    st.t0 = t0;
    st.t1 = t1;
    st.tube = std::move(tube);
    st.smooth = so.smooth;
    st.hull = so.hull;
    st.frozen = so.frozen;
    st.parked = so.parked;
    st.hull_substeps = so.hull_substeps;
    st.crossings = so.crossings;
    st.lumped = so.lumped;
    return st;
}

// The lumped classes at the end of the run (their moments from the Lohner set) and the counts.
void record_lumping(const Engine& engine, FlowResult& res, const Problem& pb, std::size_t m) {
    const flow::LumpState& L = engine.lumping();
    res.lumped.assign(m, 0);
    std::copy(engine.lumped().begin(), engine.lumped().end(), res.lumped.begin() + static_cast<std::ptrdiff_t>(res.owned_begin));
    if (!L.formed) return;
    res.handoff_time = L.t_formed;
    const std::size_t S = pb.S, d = pb.d, Q = moment_size(d);
    std::vector<std::size_t> members(L.patterns.size(), 0);
    for (const auto& co : L.cohorts) members[co.pattern] += co.members.size();
    for (std::size_t q = 0; q < L.patterns.size(); ++q) {
        FlowResult::LumpedClass c;
        c.pattern = L.patterns[q].pattern;
        c.members_at_handoff = L.patterns[q].at_handoff;
        c.joined = L.patterns[q].joined;
        c.members = members[q];
        c.moment.resize(S * S);
        for (std::size_t a = 0; a < S; ++a)
            for (std::size_t b = 0; b < S; ++b) c.moment[a * S + b] = L.M_t0[q * Q + moment_index(a, b, d)];
        res.stats.lumped_at_handoff += c.members_at_handoff;
        res.classes.push_back(std::move(c));
    }
    res.stats.lumped_joined = L.joined;
    res.stats.lumped_max_cohorts = L.max_cohorts;
    res.stats.lumped_left = L.left;
    res.stats.lumped_rereferences = L.rereferences;
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
    if (std::string why = unsupported(model, theta0, opt); !why.empty()) return invalid(why);
    const FlowPartition& part = opt.partition;
    const std::size_t jb = part.begin, je = std::min(part.end, theta0.m);
    if (std::string why = partition_problem(part, theta0.m, jb, je); !why.empty()) return invalid(why);
    res.owned_begin = jb;
    res.owned_end = je;
    std::vector<double> targets = opt.output_times;
    std::sort(targets.begin(), targets.end());
    targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
    const std::vector<double> snaps = targets;
    if (targets.empty() || targets.back() != opt.t_end) targets.push_back(opt.t_end);

    const Problem pb = make_problem(model, opt, jb, je);
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
    Engine engine(pb, opt);
    const auto run_t0 = std::chrono::steady_clock::now();
    std::size_t snap_i = 0;
    StepOutcome so;
    auto attempt = [&](double t0, double t1) {
        so = engine.step(X, t0, t1);
        ode::StepAttempt a;
        a.ok = so.fail == StepFail::none;
        a.failure = static_cast<int>(so.fail);
        a.reason = so.reason;
        a.h_suggest = so.h_suggest;
        return a;
    };
    auto accept = [&](double t0, double t1, const ode::StepAttempt&, bool at_target) {
        engine.accept(X);  // X = the end state (the neurons the step moved)
        add_counts(res.stats, so);
        if (opt.store_tube || observer) {
            const bool with_tube = opt.store_tube || opt.observer_tube;  // O(m) per step
            FlowStep st = flow_step(t0, t1, with_tube ? to_params(engine.tube()) : TwoLayerParams<IntervalD>{}, so);
            st.residual = engine.residual_tube();
            if (observer) observer(st);
            if (opt.store_tube) res.tube.push_back(std::move(st));
        }
        if (at_target && snap_i < snaps.size() && snaps[snap_i] == t1) {
            engine.recover_lumped(X);
            res.snapshots.push_back({t1, to_params(X), engine.state_residual(X)});
            ++snap_i;
        }
    };
    const ode::StepControlOptions sc{opt.h_initial, opt.h_min, opt.h_max, opt.max_steps};
    const ode::DriveResult dr = ode::drive_steps(targets, sc, attempt, accept);
    res.status = status_of(dr);
    res.reason = dr.reason;
    res.t_reached = dr.t_reached;
    res.stats.steps = dr.steps;
    res.stats.rejected_steps = dr.rejected_steps;
    res.stats.h_smallest = dr.h_smallest;
    res.stats.h_largest = dr.h_largest;
    res.stats.last_rejection = dr.last_rejection;
    engine.recover_lumped(X);
    res.residual = engine.state_residual(X);
    record_lumping(engine, res, pb, theta0.m);
    res.stats.wall_total = std::chrono::duration<double>(std::chrono::steady_clock::now() - run_t0).count();
    res.state = to_params(X);
    res.frozen.assign(theta0.m, 0);
    std::copy(engine.frozen().begin(), engine.frozen().end(), res.frozen.begin() + static_cast<std::ptrdiff_t>(jb));
    res.stats.frozen_neurons = static_cast<std::size_t>(std::count(res.frozen.begin(), res.frozen.end(), 1));
    res.parked.assign(theta0.m, 0);
    const std::vector<char> parked = engine.parked();
    std::copy(parked.begin(), parked.end(), res.parked.begin() + static_cast<std::ptrdiff_t>(jb));
    res.stats.parked_neurons = static_cast<std::size_t>(std::count(res.parked.begin(), res.parked.end(), 1));
    return res;
}

}  // namespace flowcert::nets
