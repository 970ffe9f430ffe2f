// bench_problems -- the five problems of the integrator benchmark (docs/integrator.md,
// "Benchmark"), each run by the rigorous integrator (IntervalD, order 20, from the formula as
// `flowcert integrate` parses it) and by Boost.Odeint's Bulirsch-Stoer (a non-rigorous
// extrapolation method of adaptive order up to ~18, tolerance 1e-14) in the same process.
// Printed per problem: CPU times (median of the repetitions), their ratio rigorous/odeint, the
// steps and rejected step attempts, the max width of the final enclosure, the odeint error
// measured against the enclosure (max |x_odeint - mid|; the true error is within width/2 of it)
// and width / odeint error.
//
// Run: build/bench/ode/bench_problems [repetitions, default 7] [tolerance, default 2^-53/100]
// odeint first: its unqualified pow must not see Boost.Interval's (pulled in by flowcert)
#include <boost/numeric/odeint.hpp>

#include <flowcert/ode.hpp>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "../bench_clock.hpp"

using flowcert::bench::cpu_seconds;
using flowcert::bench::wall_seconds;

using flowcert::IntervalD;
namespace taylor = flowcert::taylor;
namespace ode = flowcert::ode;

namespace {

using State = std::vector<double>;

struct Problem {
    std::string name, formula;
    std::vector<std::string> params;  // values in the formula's parameter order
    std::vector<std::string> init;
    std::string radius;
    int T;
    std::function<void(const State&, State&, double)> rhs;  // the same field in double
};


double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

std::vector<Problem> problems() {
    const double s = 10, r = 28, b = 8.0 / 3, mu = 1, a = 0.2, rb = 0.2, c = 5.7, x1 = 1, x2 = 0.5, y = 1;
    auto lorenz = [=](const State& x, State& d, double) {
        d[0] = s * (x[1] - x[0]);
        d[1] = x[0] * (r - x[2]) - x[1];
        d[2] = x[0] * x[1] - b * x[2];
    };
    const std::string L = "var:x,y,z; par:s,r,b; fun:s*(y-x), x*(r-z)-y, x*y-b*z;";
    return {
        {"Lorenz (1,1,1), T = 10", L, {"10", "28", "8/3"}, {"1", "1", "1"}, "0", 10, lorenz},
        {"Lorenz box +-1e-10, T = 10", L, {"10", "28", "8/3"}, {"1", "1", "1"}, "1e-10", 10, lorenz},
        {"Van der Pol mu = 1 from (2,0), T = 20", "var:x,y; par:mu; fun:y, mu*(1-x^2)*y - x;", {"1"}, {"2", "0"}, "0",
         20,
         [=](const State& x, State& d, double) {
             d[0] = x[1];
             d[1] = mu * (1 - x[0] * x[0]) * x[1] - x[0];
         }},
        {"Rossler (0,-6.78,0.02), T = 50", "var:x,y,z; par:a,b,c; fun:-y-z, x+a*y, b+z*(x-c);", {"0.2", "0.2", "5.7"},
         {"0", "-6.78", "0.02"}, "0", 50,
         [=](const State& x, State& d, double) {
             d[0] = -x[1] - x[2];
             d[1] = x[0] + a * x[1];
             d[2] = rb + x[2] * (x[0] - c);
         }},
        // gradient flow of (f - y)^2 / 2 for the two-neuron linear net f = a1 <w1, x> + a2 <w2, x>
        // on one sample, from a small initialization
        {"two-neuron gradient flow (6-dim, small init), T = 1000",
         "var:a1,w11,w12,a2,w21,w22; par:x1,x2,y;"
         "fun:-(a1*(w11*x1+w12*x2)+a2*(w21*x1+w22*x2)-y)*(w11*x1+w12*x2),"
         "-(a1*(w11*x1+w12*x2)+a2*(w21*x1+w22*x2)-y)*a1*x1, -(a1*(w11*x1+w12*x2)+a2*(w21*x1+w22*x2)-y)*a1*x2,"
         "-(a1*(w11*x1+w12*x2)+a2*(w21*x1+w22*x2)-y)*(w21*x1+w22*x2),"
         "-(a1*(w11*x1+w12*x2)+a2*(w21*x1+w22*x2)-y)*a2*x1, -(a1*(w11*x1+w12*x2)+a2*(w21*x1+w22*x2)-y)*a2*x2;",
         {"1", "0.5", "1"}, {"0.001", "0.002", "-0.001", "-0.002", "0.001", "0.003"}, "0", 1000,
         [=](const State& q, State& d, double) {
             const double h1 = q[1] * x1 + q[2] * x2, h2 = q[4] * x1 + q[5] * x2;
             const double res = q[0] * h1 + q[3] * h2 - y;
             d[0] = -res * h1;
             d[1] = -res * q[0] * x1;
             d[2] = -res * q[0] * x2;
             d[3] = -res * h2;
             d[4] = -res * q[3] * x1;
             d[5] = -res * q[3] * x2;
         }},
    };
}

}  // namespace

int main(int argc, char** argv) {
    const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 7;
    const double tolerance = argc > 2 ? std::atof(argv[2]) : 0;  // 0: the integrator's default
    namespace odeint = boost::numeric::odeint;
    std::printf("%-52s %9s %9s %7s %6s %6s %10s %10s %9s %6s\n", "problem", "rig ms", "odeint ms", "ratio", "steps",
                "rej", "width", "odeint err", "w/err", "nodes");
    for (const auto& p : problems()) {
        auto parsed = taylor::parse_formula(p.formula);
        if (!parsed.ok()) {
            std::printf("%s: %s\n", p.name.c_str(), parsed.message(p.formula).c_str());
            return 1;
        }
        const auto& f = *parsed.field;
        std::vector<IntervalD> params, x0;
        for (const auto& v : p.params) params.push_back(IntervalD::from_decimal(v));
        const IntervalD rad = IntervalD::from_decimal(p.radius);
        for (const auto& v : p.init) x0.push_back(IntervalD::from_decimal(v) + flowcert::hull(-rad, rad));
        ode::Options opt;  // order 20
        opt.tolerance = tolerance;
        ode::Result<IntervalD> res;
        std::vector<double> rig, nr;
        for (int k = 0; k < reps; ++k) {
            const double t0 = cpu_seconds();
            res = ode::integrate(f, params, x0, IntervalD(p.T), {}, opt, 53);
            rig.push_back(cpu_seconds() - t0);
        }
        State x;
        for (int k = 0; k < reps; ++k) {
            x.clear();
            for (const auto& v : p.init) x.push_back(flowcert::mid(IntervalD::from_decimal(v)));
            const double t0 = cpu_seconds();
            odeint::integrate_adaptive(odeint::bulirsch_stoer<State>(1e-14, 1e-14), p.rhs, x, 0.0,
                                       static_cast<double>(p.T), 1e-3);
            nr.push_back(cpu_seconds() - t0);
        }
        double w = 0, err = 0;
        for (std::size_t i = 0; i < res.final_box.size(); ++i) {
            w = std::max(w, flowcert::width(res.final_box[i]));
            err = std::max(err, std::fabs(x[i] - flowcert::mid(res.final_box[i])));
        }
        const double tr = median(rig), tn = median(nr);
        std::printf("%-52s %9.2f %9.2f %7.2f %6ld %6ld %10.3g %10.3g %9.3g %6zu%s\n", p.name.c_str(), 1e3 * tr, 1e3 * tn,
                    tr / tn, res.steps, res.rejected_steps, w, err, err > 0 ? w / err : 0.0, f.nodes().size(),
                    res.ok() ? "" : (" FAILED: " + res.reason).c_str());
    }
    return 0;
}
