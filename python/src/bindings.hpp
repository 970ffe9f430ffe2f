// python/src/bindings.hpp -- the pieces of the compiled module flowcert._flowcert (issue 18), one per file:
// errors.cpp (exceptions with the command line's codes), integrate.cpp (flowcert integrate), two_layer.cpp
// (the rigorous two-layer gradient flow and gradient descent), module.cpp (version, self-test).
// Numbers cross the boundary as exact text (decimal, p/q or C99 hex float: the Python package writes a
// float64 with float.hex()), enclosures come back as outward-rounded float64 numpy arrays and, where the
// precision exceeds 53 bits, as exact hexadecimal endpoint strings.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <flowcert/interval.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace flowcert::python {

namespace py = pybind11;

// Bad input (exit code 3 on the command line): raised in Python as flowcert.BadInput with the message.
struct BadInput : std::runtime_error {
    using std::runtime_error::runtime_error;
};

void bind_errors(py::module_& m);
void bind_integrate(py::module_& m);
void bind_two_layer(py::module_& m);

// The exact value of `text` at `bits` (53: IntervalD); BadInput naming `what` if it is not a number.
template <Interval I>
I exact_number(const std::string& text, long bits, const std::string& what) {
    if (!is_number(text)) throw BadInput(what + ": not a number: '" + text + "'");
    return IntervalTraits<I>::from_decimal(text, bits);
}

// Endpoints as exact strings: C99 hex floats ("%a" for a double bound, "%Ra" for an MPFR bound).
std::pair<std::string, std::string> exact_endpoints(const IntervalD& x);
std::pair<std::string, std::string> exact_endpoints(const IntervalMp& x);

// A float64 array of the given shape filled by f(flat index) (outward bounds are doubles already).
template <class F>
py::array_t<double> make_array(const std::vector<py::ssize_t>& shape, F&& f) {
    py::array_t<double> a(shape);
    double* p = a.mutable_data();
    py::ssize_t n = 1;
    for (auto s : shape) n *= s;
    for (py::ssize_t i = 0; i < n; ++i) p[i] = f(static_cast<std::size_t>(i));
    return a;
}

}  // namespace flowcert::python
