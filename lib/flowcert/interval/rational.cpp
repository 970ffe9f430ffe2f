#include <flowcert/interval.hpp>

#include <stdexcept>
#include <string>

namespace flowcert {

Rational parse_rational_string(std::string_view text) {
    Rational r;
    if (auto err = parse_rational(text, r.backend().data()))
        throw std::invalid_argument("'" + std::string(text) + "': " + *err);
    return r;
}

IntervalMp enclose(const Rational& q, long bits) { return IntervalMp::from_decimal(q.str(), Precision(bits)); }

}  // namespace flowcert
