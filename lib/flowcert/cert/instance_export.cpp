// --export-instance (instance_export.hpp).
#include <flowcert/cert.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace flowcert::cert {
namespace {

void check_name(const std::string& n) {
    if (n.empty() || !std::all_of(n.begin(), n.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }))
        throw std::logic_error("export_array / export_value: name '" + n + "' must be [A-Za-z0-9_]+");
}

void write_file(const std::filesystem::path& f, const std::string& bytes) {
    std::ofstream out(f, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write '" + f.string() + "'");
}

}  // namespace

void InstanceExport::array(ExportedArray a) {
    check_name(a.name);
    std::size_t n = 1;
    for (auto s : a.shape) n *= s;
    if (n != a.values.size()) throw std::logic_error("export_array '" + a.name + "': shape does not match the values");
    std::lock_guard lock(mutex_);
    if (std::none_of(arrays_.begin(), arrays_.end(), [&](const ExportedArray& b) { return b.name == a.name; }))
        arrays_.push_back(std::move(a));
}

void InstanceExport::value(ExportedValue v) {
    check_name(v.name);
    if (!is_number(v.exact)) throw std::logic_error("export_value '" + v.name + "': '" + v.exact + "' is not an exact number");
    std::lock_guard lock(mutex_);
    if (std::none_of(values_.begin(), values_.end(), [&](const ExportedValue& b) { return b.name == v.name; }))
        values_.push_back(std::move(v));
}

bool InstanceExport::empty() const {
    std::lock_guard lock(mutex_);
    return arrays_.empty() && values_.empty();
}

std::string npy_bytes(const std::vector<std::size_t>& shape, const std::vector<double>& values) {
    std::string dims;
    for (std::size_t i = 0; i < shape.size(); ++i) dims += (i ? ", " : "") + std::to_string(shape[i]);
    if (shape.size() == 1) dims += ",";  // (3,) for one dimension, (3, 2) for two, as numpy writes them
    std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (" + dims + "), }";
    const std::size_t total = 10 + header.size() + 1;  // magic, version, length, header, '\n'
    header.append((64 - total % 64) % 64, ' ');        // numpy aligns the data to 64 bytes
    header += '\n';
    std::string out("\x93NUMPY\x01\x00", 8);
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>(header.size() >> 8);
    out += header;
    for (double v : values) {
        unsigned char b[8];
        std::memcpy(b, &v, 8);
        if constexpr (std::endian::native == std::endian::big) std::reverse(b, b + 8);
        out.append(reinterpret_cast<const char*>(b), 8);
    }
    return out;
}

std::vector<std::filesystem::path> InstanceExport::write(const std::filesystem::path& dir, const std::string& stem,
                                                         const std::string& verifier, const std::string& sha) const {
    std::lock_guard lock(mutex_);
    std::filesystem::create_directories(dir);
    std::vector<std::filesystem::path> files;
    nlohmann::json j;
    j["verifier"] = verifier;
    j["case"] = stem;
    j["case_sha256"] = sha;
    j["flowcert_version"] = build_provenance().flowcert_version;
    j["arrays"] = nlohmann::json::array();
    for (const auto& a : arrays_) {
        const auto f = dir / (stem + "." + a.name + ".npy");
        write_file(f, npy_bytes(a.shape, a.values));
        files.push_back(f);
        nlohmann::json values = nlohmann::json::array();
        for (double v : a.values) values.push_back(exact_string(v));
        j["arrays"].push_back({{"name", a.name}, {"file", f.filename().string()}, {"shape", a.shape},
                               {"description", a.description}, {"values", values}});
    }
    j["values"] = nlohmann::json::array();
    for (const auto& v : values_)
        j["values"].push_back({{"name", v.name}, {"exact", v.exact}, {"description", v.description}});
    const auto f = dir / (stem + ".instance.json");
    write_file(f, j.dump(1) + "\n");
    files.push_back(f);
    return files;
}

}  // namespace flowcert::cert
