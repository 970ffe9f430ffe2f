// flowcert/cert/instance_export.hpp -- `VERIFIER --case C --export-instance DIR` (issue 18): the data and
// the initialization a verifier generated from a seed, written next to the certificate so that a user can
// rerun exactly the same instance elsewhere (PyTorch, numpy):
//   DIR/<case>.<name>.npy    each array, float64 (numpy.load reads it)
//   DIR/<case>.instance.json the same arrays as exact C99 hex floats, the exact scalars (e.g. the scale
//                            lambda / sqrt(m) that multiplies a generated initialization), what each one is
// The hook: the verifier body calls ctx.export_array(...) / ctx.export_value(...) for what it generated
// (a no-op without --export-instance). Exported values are exactly the doubles the verifier used.
#pragma once

#if !defined(FLOWCERT_CERT_INTERNAL)
#error "include <flowcert/cert.hpp>, not the internal headers"
#endif

#include <cstddef>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

namespace flowcert::cert {

struct ExportedArray {
    std::string name;                 // file-name part: [A-Za-z0-9_]+
    std::vector<std::size_t> shape;   // C order
    std::vector<double> values;
    std::string description;
};

struct ExportedValue {
    std::string name;
    std::string exact;  // exact text (decimal, p/q, hex)
    std::string description;
};

class InstanceExport {
public:
    // Thread-safe; a name given twice keeps the first (sweep points may export the same data).
    void array(ExportedArray a);
    void value(ExportedValue v);
    bool empty() const;
    // Writes the files; returns their paths. Throws std::runtime_error on an I/O failure.
    std::vector<std::filesystem::path> write(const std::filesystem::path& dir, const std::string& case_stem,
                                             const std::string& verifier, const std::string& case_sha256) const;

private:
    mutable std::mutex mutex_;
    std::vector<ExportedArray> arrays_;
    std::vector<ExportedValue> values_;
};

// The bytes of a .npy file (format 1.0, '<f8', C order) holding `values` with `shape`.
std::string npy_bytes(const std::vector<std::size_t>& shape, const std::vector<double>& values);

}  // namespace flowcert::cert
