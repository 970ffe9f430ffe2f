// Private to the cert layer: exact (GMP rational, possibly infinite) interval bounds.
#pragma once

#include <flowcert/cert.hpp>

#include <string>
#include <vector>

namespace flowcert::cert::detail {

struct ExactBound {
    int inf = 0;  // -1: -inf, +1: +inf, 0: finite value q
    Rational q;
    static ExactBound parse(const std::string& text);  // "inf", "-inf" or a number; throws std::invalid_argument
};
int compare(const ExactBound& a, const ExactBound& b);

struct ExactInterval {
    ExactBound lo, hi;
    static ExactInterval parse(const Enclosure& e);  // throws std::invalid_argument (malformed, lo > hi)
};

std::size_t arity(Relation r);
CheckStatus evaluate(Relation r, const std::vector<ExactInterval>& x, const std::vector<Enclosure>& names,
                     std::string* detail);

}  // namespace flowcert::cert::detail
