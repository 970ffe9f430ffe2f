// The compiled part of the Python package: `import flowcert` loads it as flowcert._flowcert.
#include "bindings.hpp"

#include <flowcert/cert.hpp>

#include <nlohmann/json.hpp>

namespace flowcert::python {

std::pair<std::string, std::string> exact_endpoints(const IntervalD& x) {
    return {cert::exact_string(x.lower()), cert::exact_string(x.upper())};
}
std::pair<std::string, std::string> exact_endpoints(const IntervalMp& x) {
    const nlohmann::json j = cert::exact_json(x);
    return {j.at("lo").get<std::string>(), j.at("hi").get<std::string>()};
}

}  // namespace flowcert::python

namespace py = pybind11;

PYBIND11_MODULE(_flowcert, m) {
    namespace fp = flowcert::python;
    m.doc() = "flowcert: rigorous enclosures of ODE flows and two-layer network training (compiled part)";
    const flowcert::cert::Provenance p = flowcert::cert::build_provenance();
    m.attr("__version__") = p.flowcert_version;
    m.attr("git_commit") = p.git_commit;
    m.def("self_test", [] {
        const flowcert::SelfTestResult r = flowcert::run_rounding_self_test();
        return py::make_tuple(r.passed, r.summary());
    }, "runs the rounding self-test every verifier runs: (passed, summary)");
    m.def("is_number", [](const std::string& s) { return flowcert::is_number(s); },
          "true if the text is an exact number flowcert accepts (decimal, p/q, C99 hex float)");
    fp::bind_errors(m);
    fp::bind_integrate(m);
    fp::bind_two_layer(m);
}
