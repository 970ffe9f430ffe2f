// tests/proofs/bf/theorem2_case.hpp -- the data and initialization of a bf/theorem2_three_point case file
// (x, y, bias; init, m, seed, lambda), read as the tests' reference flows need them (flow_reference.hpp).
#pragma once

#include <flowcert/nets.hpp>

#include <toml++/toml.h>

#include <cstdint>
#include <string>
#include <vector>

namespace flowcert::test_support {

// A TOML number written as a string ("1e-3") or an integer, as its decimal text.
inline std::string number_text(const toml::node& n) {
    if (const auto* s = n.as_string()) return s->get();
    return std::to_string(n.value<long long>().value());
}

inline void read_theorem2_instance(const toml::table& t, nets::TwoLayerSpec& spec, nets::InitSpec& init) {
    for (const auto& row : *t["x"].as_array()) {
        std::vector<std::string> r;
        for (const auto& v : *row.as_array()) r.push_back(number_text(v));
        spec.x.push_back(r);
    }
    for (const auto& v : *t["y"].as_array()) spec.y.push_back(number_text(v));
    spec.bias = t["bias"].value_or(false);
    const std::string kind = t["init"].value_or(std::string("balanced_gaussian"));
    init.kind = kind == "unbalanced_gaussian"      ? nets::InitKind::unbalanced_gaussian
                : kind == "dominated_uniform_ball" ? nets::InitKind::dominated_uniform_ball
                                                   : nets::InitKind::balanced_gaussian;
    init.m = static_cast<std::size_t>(t["m"].value<long long>().value());
    init.seed = static_cast<std::uint64_t>(t["seed"].value<long long>().value());
    init.lambda = number_text(*t.get("lambda"));
}

}  // namespace flowcert::test_support
