// Compile-fail test (tests/interval/CMakeLists.txt): with FLOWCERT_SHOULD_FAIL defined this
// file must NOT compile; without it (the positive control, the allowed spelling) it must.
#include <flowcert/interval.hpp>

using namespace flowcert;

int main() {
    [[maybe_unused]] const IntervalD x = IntervalD::from_decimal("0.3"), y = IntervalD(2);
    [[maybe_unused]] const IntervalMp mx = IntervalMp::from_decimal("0.3", Precision(100)), my = IntervalMp(2);
#ifdef FLOWCERT_SHOULD_FAIL
    [[maybe_unused]] bool b = x == y;  // no equality returning bool
#else
    [[maybe_unused]] bool b = subset(x, y) && subset(y, x);
#endif
    return 0;
}
