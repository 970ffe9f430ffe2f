#include <flowcert/interval.hpp>

#include <cstdio>

namespace flowcert {

std::string format_g(double x, int digits) {
    char b[64];
    std::snprintf(b, sizeof b, "%.*g", digits, x);
    return b;
}

}  // namespace flowcert
