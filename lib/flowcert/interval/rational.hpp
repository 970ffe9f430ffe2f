// flowcert/interval/rational.hpp -- the one exact rational type of the project (GMP's mpq_t behind
// Boost.Multiprecision's value semantics): exact data (BF's three-point data, Theorem-1 constants), exact
// re-checks of certificate relations, case-file constraints. Parsing and the tight enclosure live here too.
#pragma once

#if !defined(FLOWCERT_INTERVAL_INTERNAL)
#error "include <flowcert/interval.hpp>, not the internal headers"
#endif

#include <boost/multiprecision/gmp.hpp>

#include <string_view>

namespace flowcert {

using Rational = boost::multiprecision::mpq_rational;

class IntervalMp;

// A number in the syntax of parse_rational (decimal.hpp) as an exact rational; std::invalid_argument
// naming the text if it is not a number.
Rational parse_rational_string(std::string_view text);
// The tight outward enclosure of an exact rational at `bits` bits.
IntervalMp enclose(const Rational& q, long bits);

}  // namespace flowcert
