// verifiers/kh/kh_case_inputs.hpp -- case-file conversions shared by the kh/* verifiers.
#pragma once

#include <flowcert/nets/homogeneous.hpp>

#include <string>
#include <vector>

namespace khcase {

// Integer list given as strings in the case file (numbers are strings in every case).
inline std::vector<int> to_ints(const std::vector<std::string>& v) {
    std::vector<int> out;
    for (const auto& s : v) out.push_back(std::stoi(s));
    return out;
}

// `loss = "sum" | "mean" | "half" | "half_mean"`: the normalization c of L = c sum (p - y)^2.
inline flowcert::nets::SquareLossNormalization parse_loss(const std::string& s) {
    flowcert::nets::SquareLossNormalization n;
    n.half = s == "half" || s == "half_mean";
    n.mean = s == "mean" || s == "half_mean";
    return n;
}

}  // namespace khcase
