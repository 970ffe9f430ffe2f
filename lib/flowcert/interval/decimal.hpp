// flowcert/interval/decimal.hpp -- exact parsing of decimal and rational strings.
#pragma once

#if !defined(FLOWCERT_INTERVAL_INTERNAL)
#error "include <flowcert/interval.hpp>, not the internal headers"
#endif

#include <gmp.h>

#include <optional>
#include <string>
#include <string_view>

namespace flowcert {

// The exact rational value of a number written as a decimal ("-1.25e-7", "3", ".5") or
// as a fraction of integers ("8/3", "-1/10") or as a C99 hexadecimal float ("0x1.999999999999ap-4",
// the exact binary value, e.g. of a float64 written with Python's float.hex()). On malformed input returns a message saying
// what was expected; on success writes `out` (initialised by the caller) and returns
// nullopt. Exponents are limited to |e| <= 100000.
std::optional<std::string> parse_rational(std::string_view text, mpq_t out);

// True if `text` is a well-formed number in the syntax above.
bool is_number(std::string_view text);

// Conversions between the two interval types (outward).
class IntervalD;
class IntervalMp;
struct Precision;
IntervalD to_interval_d(const IntervalMp& x);
IntervalMp to_interval_mp(const IntervalD& x, Precision p);

}  // namespace flowcert
