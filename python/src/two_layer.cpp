// flowcert._flowcert.two_layer_flow / two_layer_gd: the rigorous gradient flow and gradient descent of the
// two-layer (leaky) ReLU network of [BF2025, eq. (1)] (lib/flowcert/nets) on the caller's data and weights.
#include "bindings.hpp"

#include <flowcert/nets.hpp>

#include <cmath>

namespace flowcert::python {
namespace {

using Matrix = std::vector<std::vector<std::string>>;

nets::TwoLayerSpec make_spec(const Matrix& X, const std::vector<std::string>& y, bool bias, const std::string& gamma,
                             const std::string& loss, const std::string& risk_weight) {
    nets::TwoLayerSpec spec;
    spec.x = X;
    spec.y = y;
    spec.bias = bias;
    spec.gamma = gamma;
    if (loss == "half_square") spec.loss = nets::LossKind::half_square;
    else if (loss == "logistic") spec.loss = nets::LossKind::logistic;
    else throw BadInput("loss must be 'half_square' or 'logistic', got '" + loss + "'");
    spec.risk_weight = risk_weight;
    if (const std::string p = nets::spec_problem(spec); !p.empty()) throw BadInput(p);
    return spec;
}

template <Interval I>
nets::TwoLayerParams<I> make_params(const nets::TwoLayerModel<I>& model, const std::vector<std::string>& a0,
                                    const Matrix& W0) {
    const std::size_t m = a0.size(), d = model.d();
    if (m == 0) throw BadInput("a0 must have at least one neuron");
    if (W0.size() != m)
        throw BadInput("W0 has " + std::to_string(W0.size()) + " rows but a0 has " + std::to_string(m) + " neurons");
    nets::TwoLayerParams<I> theta(m, d, model.zero());
    for (std::size_t j = 0; j < m; ++j) {
        if (W0[j].size() != d)
            throw BadInput("W0 row " + std::to_string(j) + " has " + std::to_string(W0[j].size()) +
                           " entries but the inputs have dimension " + std::to_string(d) +
                           (model.spec().bias ? " (with the bias coordinate)" : ""));
        theta.a[j] = exact_number<I>(a0[j], model.bits(), "a0[" + std::to_string(j) + "]");
        for (std::size_t i = 0; i < d; ++i)
            theta.W(j, i) =
                exact_number<I>(W0[j][i], model.bits(), "W0[" + std::to_string(j) + "][" + std::to_string(i) + "]");
    }
    return theta;
}

// A time given as exact text that must be a float64 exactly (the flow's step grid is in doubles).
double exact_time(const std::string& text, const std::string& what) {
    const IntervalD t = exact_number<IntervalD>(text, 53, what);
    if (t.lower() != t.upper())
        throw BadInput(what + " = '" + text + "' is not a float64 exactly (the flow's times are float64; pass a float)");
    return t.lower();
}

// Per-iterate arrays of a list of parameter boxes: a (S x m), w (S x m x d).
template <Interval I>
void put_params(py::dict& d, const std::vector<nets::TwoLayerParams<I>>& thetas, const std::string& prefix = "") {
    const auto S = static_cast<py::ssize_t>(thetas.size());
    const auto m = static_cast<py::ssize_t>(thetas.empty() ? 0 : thetas[0].m);
    const auto dim = static_cast<py::ssize_t>(thetas.empty() ? 0 : thetas[0].d);
    d[py::str(prefix + "a_lo")] = make_array({S, m}, [&](std::size_t i) { return lower(thetas[i / m].a[i % m]); });
    d[py::str(prefix + "a_hi")] = make_array({S, m}, [&](std::size_t i) { return upper(thetas[i / m].a[i % m]); });
    d[py::str(prefix + "w_lo")] =
        make_array({S, m, dim}, [&](std::size_t i) { return lower(thetas[i / (m * dim)].w[i % (m * dim)]); });
    d[py::str(prefix + "w_hi")] =
        make_array({S, m, dim}, [&](std::size_t i) { return upper(thetas[i / (m * dim)].w[i % (m * dim)]); });
}

template <Interval I>
void put_loss(py::dict& d, const std::vector<I>& loss) {
    const auto S = static_cast<py::ssize_t>(loss.size());
    d["loss_lo"] = make_array({S}, [&](std::size_t s) { return lower(loss[s]); });
    d["loss_hi"] = make_array({S}, [&](std::size_t s) { return upper(loss[s]); });
    py::list exact;
    for (const auto& x : loss) {
        const auto [lo, hi] = exact_endpoints(x);
        exact.append(py::make_tuple(lo, hi));
    }
    d["loss_exact"] = exact;
}

py::dict flow(const Matrix& X, const std::vector<std::string>& y, const std::vector<std::string>& a0, const Matrix& W0,
              const std::string& T, bool bias, const std::string& gamma, const std::string& risk_weight,
              const std::vector<std::string>& output_times, int order, int threads, bool allow_hull,
              std::size_t max_steps) {
    const nets::TwoLayerModel<IntervalD> model(make_spec(X, y, bias, gamma, "half_square", risk_weight));
    const nets::TwoLayerParams<IntervalD> theta0 = make_params(model, a0, W0);
    nets::FlowOptions opt;
    opt.t_end = exact_time(T, "T");
    if (!(opt.t_end > 0)) throw BadInput("T must be positive, got '" + T + "'");
    for (const auto& s : output_times) {
        const double t = exact_time(s, "output time");
        if (!(t > 0) || t > opt.t_end) throw BadInput("output time '" + s + "' must lie in (0, T]");
        if (!opt.output_times.empty() && !(opt.output_times.back() < t)) throw BadInput("output_times must be increasing");
        opt.output_times.push_back(t);
    }
    if (order < 1 || order > 16) throw BadInput("order must be between 1 and 16");
    if (threads < 1) throw BadInput("threads must be at least 1");
    opt.order = order;
    opt.threads = threads;
    opt.allow_hull = allow_hull;
    opt.max_steps = max_steps;
    nets::FlowResult res;
    std::vector<IntervalD> step_loss;
    {
        py::gil_scoped_release unlocked;
        res = nets::integrate_gradient_flow(model, theta0, opt, [&](const nets::FlowStep& s) {
            step_loss.push_back(nets::risk(model, s.tube));  // encloses L(theta(t)) for every t in the step
        });
    }
    if (res.status == nets::FlowStatus::invalid_input) throw BadInput(res.reason);
    py::dict d;
    d["status"] = nets::to_string(res.status);
    d["reason"] = res.reason;
    d["t_reached"] = res.t_reached;
    const auto S = static_cast<py::ssize_t>(res.tube.size());
    d["t0"] = make_array({S}, [&](std::size_t s) { return res.tube[s].t0; });
    d["t1"] = make_array({S}, [&](std::size_t s) { return res.tube[s].t1; });
    std::vector<nets::TwoLayerParams<IntervalD>> tubes;
    for (const auto& s : res.tube) tubes.push_back(s.tube);
    put_params(d, tubes);
    put_loss(d, step_loss);
    py::list snaps;
    for (const auto& s : res.snapshots) {
        py::dict sd;
        sd["t"] = s.t;
        put_params(sd, std::vector<nets::TwoLayerParams<IntervalD>>{s.state});
        put_loss(sd, std::vector<IntervalD>{nets::risk(model, s.state)});
        snaps.append(sd);
    }
    d["snapshots"] = snaps;
    py::dict fd;
    put_params(fd, std::vector<nets::TwoLayerParams<IntervalD>>{res.state});
    put_loss(fd, std::vector<IntervalD>{nets::risk(model, res.state)});
    d["final"] = fd;
    d["frozen"] = std::vector<bool>(res.frozen.begin(), res.frozen.end());
    py::dict st;
    st["steps"] = res.stats.steps;
    st["rejected_steps"] = res.stats.rejected_steps;
    st["smooth_neuron_steps"] = res.stats.smooth_neuron_steps;
    st["hull_neuron_steps"] = res.stats.hull_neuron_steps;
    st["transversal_crossings"] = res.stats.transversal_crossings;
    st["wall_seconds"] = res.stats.wall_total;
    d["stats"] = st;
    return d;
}

template <Interval I>
py::dict gd(const Matrix& X, const std::vector<std::string>& y, const std::vector<std::string>& a0, const Matrix& W0,
            const std::string& step, std::size_t iterations, bool bias, const std::string& gamma, const std::string& loss,
            const std::string& risk_weight, long bits, int threads) {
    const nets::TwoLayerModel<I> model(make_spec(X, y, bias, gamma, loss, risk_weight), bits);
    const I eta = exact_number<I>(step, bits, "step");
    if (!certainly_positive(eta)) throw BadInput("step must be positive, got '" + step + "'");
    if (threads < 1) throw BadInput("threads must be at least 1");
    std::vector<nets::TwoLayerParams<I>> thetas{make_params(model, a0, W0)};
    std::vector<I> losses{nets::risk(model, thetas[0])};
    std::string status = "completed", reason;
    std::size_t undecided = 0;
    {
        py::gil_scoped_release unlocked;
        for (std::size_t t = 0; t < iterations; ++t) {
            const nets::GdResult<I> r = nets::gd_iterate(model, thetas.back(), eta, {.iterations = 1, .threads = threads});
            if (r.status == nets::GdStatus::invalid_input) throw BadInput(r.reason);
            if (r.status != nets::GdStatus::completed) {
                status = nets::to_string(r.status);
                reason = "iteration " + std::to_string(t + 1) + ": " + r.reason;
                break;
            }
            undecided += r.undecided_pair_steps;
            thetas.push_back(r.theta);
            losses.push_back(nets::risk(model, thetas.back()));
        }
    }
    py::dict d;
    d["status"] = status;
    d["reason"] = reason;
    d["iterations_done"] = thetas.size() - 1;
    d["undecided_pair_steps"] = undecided;
    d["precision"] = bits;
    put_params(d, thetas);
    put_loss(d, losses);
    py::list final_exact;  // the last iterate's endpoints, exactly (hex), a then w row-major
    for (const auto& x : thetas.back().a) final_exact.append(py::make_tuple(exact_endpoints(x).first, exact_endpoints(x).second));
    for (const auto& x : thetas.back().w) final_exact.append(py::make_tuple(exact_endpoints(x).first, exact_endpoints(x).second));
    d["final_exact"] = final_exact;
    return d;
}

}  // namespace

void bind_two_layer(py::module_& m) {
    m.def("two_layer_flow", &flow, py::arg("X"), py::arg("y"), py::arg("a0"), py::arg("W0"), py::arg("T"),
          py::arg("bias"), py::arg("gamma"), py::arg("risk_weight"), py::arg("output_times"), py::arg("order"),
          py::arg("threads"), py::arg("allow_hull"), py::arg("max_steps"),
          "rigorous gradient-flow tube of the two-layer network (numbers as exact text); use flowcert.two_layer.flow");
    m.def(
        "two_layer_gd",
        [](const Matrix& X, const std::vector<std::string>& y, const std::vector<std::string>& a0, const Matrix& W0,
           const std::string& step, std::size_t iterations, bool bias, const std::string& gamma,
           const std::string& loss, const std::string& risk_weight, long precision, int threads) {
            if (precision < 53 || precision > 100000) throw BadInput("precision must be between 53 and 100000");
            if (precision == 53)
                return gd<IntervalD>(X, y, a0, W0, step, iterations, bias, gamma, loss, risk_weight, 53, threads);
            return gd<IntervalMp>(X, y, a0, W0, step, iterations, bias, gamma, loss, risk_weight, precision, threads);
        },
        py::arg("X"), py::arg("y"), py::arg("a0"), py::arg("W0"), py::arg("step"), py::arg("iterations"),
        py::arg("bias"), py::arg("gamma"), py::arg("loss"), py::arg("risk_weight"), py::arg("precision"),
        py::arg("threads"), "rigorous gradient-descent iterates of the two-layer network; use flowcert.two_layer.gd");
}

}  // namespace flowcert::python
