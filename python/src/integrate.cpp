// flowcert._flowcert.integrate: the rigorous Taylor/Lohner enclosure of `flowcert integrate`
// (lib/flowcert/ode) with the same input rules and messages, the tube and the boxes returned as arrays.
#include "bindings.hpp"

#include <flowcert/ode.hpp>
#include <flowcert/taylor.hpp>

#include <chrono>

namespace flowcert::python {
namespace {

struct Request {
    std::string formula;
    std::vector<std::pair<std::string, std::string>> params;
    std::vector<std::string> init;
    std::string radius = "0";
    std::string time;
    std::vector<std::string> output_times;
    long precision = 53;
    bool tube = true;
    ode::Options options;
};

template <Interval I>
py::dict box_record(const std::vector<I>& box) {
    py::list exact;
    for (const auto& x : box) {
        const auto [lo, hi] = exact_endpoints(x);
        exact.append(py::make_tuple(lo, hi));
    }
    const auto n = static_cast<py::ssize_t>(box.size());
    py::dict d;
    d["lo"] = make_array({n}, [&](std::size_t i) { return lower(box[i]); });
    d["hi"] = make_array({n}, [&](std::size_t i) { return upper(box[i]); });
    d["exact"] = exact;
    return d;
}

template <Interval I>
py::dict run(const Request& q, const taylor::VectorField& f) {
    const long bits = q.precision;
    std::vector<I> params(f.parameter_count());
    std::vector<bool> set(f.parameter_count(), false);
    for (const auto& [name, val] : q.params) {
        const int j = f.parameter_index(name);
        if (j < 0) throw BadInput("params: the formula has no parameter '" + name + "'");
        params[j] = exact_number<I>(val, bits, "parameter '" + name + "'");
        set[j] = true;
    }
    for (int j = 0; j < f.parameter_count(); ++j)
        if (!set[j]) throw BadInput("parameter '" + f.parameters()[j] + "' has no value (params={'" + f.parameters()[j] + "': ...})");
    if (static_cast<int>(q.init.size()) != f.dimension())
        throw BadInput("init has " + std::to_string(q.init.size()) + " values but the formula has " +
                       std::to_string(f.dimension()) + " variables");
    const I r = exact_number<I>(q.radius, bits, "radius");
    if (certainly_negative(r)) throw BadInput("radius must not be negative");
    const I ball = hull(-r, r);
    std::vector<I> x0;
    for (std::size_t i = 0; i < q.init.size(); ++i)
        x0.push_back(exact_number<I>(q.init[i], bits, "init[" + std::to_string(i) + "]") + ball);
    const I T = exact_number<I>(q.time, bits, "T");
    if (!certainly_positive(T)) throw BadInput("T must be positive, got '" + q.time + "'");
    std::vector<I> outs;
    for (const auto& s : q.output_times) {
        const I t = exact_number<I>(s, bits, "output time");
        if (!certainly_positive(t)) throw BadInput("output time '" + s + "' must be positive");
        if (certainly_less(T, t)) throw BadInput("output time '" + s + "' is after T = " + q.time);
        if (!outs.empty() && !certainly_less(outs.back(), t)) throw BadInput("output_times must be increasing");
        outs.push_back(t);
    }
    ode::Options opt = q.options;
    opt.record_tubes = q.tube;
    ode::Result<I> res;
    double secs = 0;
    {
        py::gil_scoped_release unlocked;  // the integration touches no Python object
        const auto t0 = std::chrono::steady_clock::now();
        res = ode::integrate(f, params, x0, T, outs, opt, bits);
        secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    if (res.status == ode::Status::invalid_input) throw BadInput(res.reason);

    py::dict d;
    d["status"] = res.ok() ? std::string("ok") : std::string(ode::to_string(res.status));
    d["reason"] = res.reason;
    d["variables"] = f.variables();
    d["steps"] = res.steps;
    d["precision"] = bits;
    d["time"] = py::make_tuple(exact_endpoints(res.time).first, exact_endpoints(res.time).second);
    d["final"] = box_record(res.final_box);
    py::list outputs;
    for (std::size_t k = 0; k < res.outputs.size(); ++k) {
        py::dict o = box_record(res.outputs[k].box);
        o["time"] = q.output_times[k];
        outputs.append(o);
    }
    d["outputs"] = outputs;
    if (!res.ok()) d["offending_set"] = box_record(res.offending_set);
    const auto steps = static_cast<py::ssize_t>(res.tube.size());
    const auto n = static_cast<py::ssize_t>(f.dimension());
    d["t_lo"] = make_array({steps}, [&](std::size_t s) { return lower(res.tube[s].t0); });
    d["t_hi"] = make_array({steps}, [&](std::size_t s) { return upper(res.tube[s].t1); });
    d["x_lo"] = make_array({steps, n}, [&](std::size_t i) { return lower(res.tube[i / n].box[i % n]); });
    d["x_hi"] = make_array({steps, n}, [&](std::size_t i) { return upper(res.tube[i / n].box[i % n]); });
    d["wall_seconds"] = secs;
    return d;
}

}  // namespace

void bind_integrate(py::module_& m) {
    m.def(
        "integrate",
        [](const std::string& formula, const std::vector<std::string>& init, const std::string& time,
           const std::vector<std::pair<std::string, std::string>>& params, const std::string& radius,
           const std::vector<std::string>& output_times, int order, long precision, bool tube, double tolerance,
           double min_step, int jacobian_order) {
            Request q;
            q.formula = formula;
            q.init = init;
            q.time = time;
            q.params = params;
            q.radius = radius;
            q.output_times = output_times;
            q.precision = precision;
            q.tube = tube;
            if (order < 1 || order > 200) throw BadInput("order must be between 1 and 200");
            if (precision < 53 || precision > 100000) throw BadInput("precision must be between 53 and 100000");
            if (!(tolerance >= 0)) throw BadInput("tolerance must not be negative");
            if (!(min_step > 0)) throw BadInput("min_step must be positive");
            q.options.order = order;
            q.options.tolerance = tolerance;
            q.options.min_step = min_step;
            q.options.jacobian_order = jacobian_order;
            const taylor::ParseResult parsed = taylor::parse_formula(q.formula);
            if (!parsed.ok()) throw BadInput(parsed.message(q.formula));
            if (precision == 53) return run<IntervalD>(q, *parsed.field);
            return run<IntervalMp>(q, *parsed.field);
        },
        py::arg("formula"), py::arg("init"), py::arg("time"), py::arg("params"), py::arg("radius"),
        py::arg("output_times"), py::arg("order"), py::arg("precision"), py::arg("tube"), py::arg("tolerance"),
        py::arg("min_step"), py::arg("jacobian_order"),
        "rigorous enclosure of x' = f(x; p) (numbers as exact text); use flowcert.integrate");
}

}  // namespace flowcert::python
