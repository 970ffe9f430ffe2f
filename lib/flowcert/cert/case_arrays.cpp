// .npy references in case files (case_arrays.hpp).
#include "case_arrays.hpp"

#include <filesystem>
#include <fstream>

namespace flowcert::cert::detail {
namespace {

toml::array strings(const std::vector<std::string>& v, std::size_t begin, std::size_t count) {
    toml::array a;
    for (std::size_t i = begin; i < begin + count; ++i) a.push_back(v[i]);
    return a;
}

}  // namespace

void expand_array_files(toml::table& root, const std::vector<KeySpec>& schema, const std::string& case_file,
                        std::string& digests) {
    const std::filesystem::path dir = std::filesystem::path(case_file).parent_path();
    for (const auto& spec : schema) {
        toml::node* v = root.get(spec.name);
        if (!v) continue;
        if (spec.type == KeyType::table && v->is_table()) {
            expand_array_files(*v->as_table(), spec.fields, case_file, digests);
            continue;
        }
        if (spec.type == KeyType::tables && v->is_array()) {
            for (auto& e : *v->as_array())
                if (e.is_table()) expand_array_files(*e.as_table(), spec.fields, case_file, digests);
            continue;
        }
        if ((spec.type != KeyType::numbers && spec.type != KeyType::matrix) || !v->is_string()) continue;
        const std::string name = v->as_string()->get();
        const long line = static_cast<long>(v->source().begin.line);
        const std::filesystem::path file = dir / name;
        NpyArray a;
        std::string bytes;
        try {
            std::ifstream in(file, std::ios::binary);
            if (!in) throw std::runtime_error("cannot open '" + file.string() + "'");
            bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
            a = parse_npy(bytes);
        } catch (const std::exception& e) {
            throw CaseError(case_file, line, spec.name, "cannot read '" + name + "' as a .npy file: " + e.what());
        }
        const std::size_t want = spec.type == KeyType::numbers ? 1 : 2;
        if (a.shape.size() != want)
            throw CaseError(case_file, line, spec.name,
                            "'" + name + "' has " + std::to_string(a.shape.size()) + " dimension(s), expected " +
                                std::to_string(want) + (want == 1 ? " (a vector)" : " (a matrix)"));
        toml::array arr;
        if (want == 1) {
            arr = strings(a.values, 0, a.shape[0]);
        } else {
            for (std::size_t r = 0; r < a.shape[0]; ++r) arr.push_back(strings(a.values, r * a.shape[1], a.shape[1]));
        }
        root.insert_or_assign(spec.name, std::move(arr));  // entries have no line: messages name the key
        digests += name + " " + sha256_hex(bytes) + "\n";
    }
}

}  // namespace flowcert::cert::detail
