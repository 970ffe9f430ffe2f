// verifiers/kh/kh_case_inputs.hpp -- case-file conversions shared by the kh/* verifiers.
#pragma once

#include <flowcert/nets/homogeneous.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace khcase {

// Integer list given as strings in the case file (numbers are strings in every case).
inline std::vector<int> to_ints(const std::vector<std::string>& v) {
    std::vector<int> out;
    for (const auto& s : v) out.push_back(std::stoi(s));
    return out;
}

// `loss = "paper" | "mean" | "half" | "half_mean"`: the normalization c of L = c sum (p - y)^2.
inline flowcert::nets::SquareLossNormalization parse_loss(const std::string& s) {
    flowcert::nets::SquareLossNormalization n;
    n.half = s == "half" || s == "half_mean";
    n.mean = s == "mean" || s == "half_mean";
    return n;
}

// `activation` / `teacher_activation = "square" | "linear" | "relu" | "relu_power"` of a feed-forward net
// [KH2025, eq. (9)]: z^2, z, max(z, 0) and max(z, 0)^p with p = `power`. "relu" is the plain ReLU (degree 1; the
// model layer flags its kink, so nothing certified uses an undefined derivative), never max(z, 0)^p. Which names
// a verifier admits is its schema's choice list (kh/theorem18_sparsity leaves "relu" out: [KH2025, Thm 18]
// needs p >= 2 or the linear net); an unknown name throws instead of falling back to some activation.
inline flowcert::nets::HomActivation parse_activation(const std::string& name, long long power) {
    using flowcert::nets::HomActivation;
    if (name == "square") return HomActivation::square();
    if (name == "linear") return HomActivation::linear();
    if (name == "relu") return HomActivation::relu();
    if (name == "relu_power") return HomActivation::relu_power(static_cast<int>(power));
    throw std::invalid_argument("unknown activation \"" + name + "\" (square, linear, relu, relu_power)");
}

}  // namespace khcase
