// Exceptions: C++ BadInput becomes flowcert.BadInput (code 3, the command line's exit code for bad input);
// any other std::exception becomes flowcert.InternalError (code 5). The classes live in flowcert/errors.py.
#include "bindings.hpp"

namespace flowcert::python {

void bind_errors(py::module_& m) {
    (void)m;
    py::register_exception_translator([](std::exception_ptr p) {
        if (!p) return;
        try {
            std::rethrow_exception(p);
        } catch (const BadInput& e) {
            const py::object cls = py::module_::import("flowcert.errors").attr("BadInput");
            PyErr_SetObject(cls.ptr(), py::str(e.what()).ptr());
        } catch (const py::error_already_set&) {
            throw;
        } catch (const py::builtin_exception&) {
            throw;
        } catch (const std::exception& e) {
            const py::object cls = py::module_::import("flowcert.errors").attr("InternalError");
            PyErr_SetObject(cls.ptr(), py::str(e.what()).ptr());
        }
    });
}

}  // namespace flowcert::python
