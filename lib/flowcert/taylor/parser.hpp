// flowcert/taylor/parser.hpp -- vector fields from CAPD's formula syntax.
//
//   var:x,y,z; par:s,r,b; fun:s*(y-x), x*(r-z)-y, x*y-b*z;
//
// Operators + - * / and integer powers `^` (x^3, x^(-2)); functions sqr, sqrt, exp, log, sin,
// cos, relu(.) and max(., 0) / max(0, .). Numbers are exact decimals ("0.1", "2.5e-3");
// `8/3` is the exact quotient. A malformed formula yields a message with the 0-based
// character position of the error.
#pragma once

#if !defined(FLOWCERT_TAYLOR_INTERNAL)
#error "include <flowcert/taylor.hpp>, not the internal headers"
#endif

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "expr.hpp"

namespace flowcert::taylor {

struct ParseResult {
    std::optional<VectorField> field;  // set on success
    std::string error;                 // empty on success
    std::size_t position = 0;          // 0-based offset of the error in the formula
    bool ok() const { return field.has_value(); }
    // "formula error at position P: MESSAGE\n  FORMULA\n  ^" (empty on success).
    std::string message(std::string_view formula) const;
};

ParseResult parse_formula(std::string_view formula);

}  // namespace flowcert::taylor
