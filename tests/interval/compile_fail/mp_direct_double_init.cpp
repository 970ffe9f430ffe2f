// Compile-fail test (tests/interval/CMakeLists.txt): with FLOWCERT_SHOULD_FAIL defined this
// file must NOT compile; without it (the positive control, the allowed spelling) it must.
#include <flowcert/interval.hpp>

using namespace flowcert;

int main() {
    [[maybe_unused]] const IntervalD x = IntervalD::from_decimal("0.3"), y = IntervalD(2);
    [[maybe_unused]] const IntervalMp mx = IntervalMp::from_decimal("0.3", Precision(100)), my = IntervalMp(2);
#ifdef FLOWCERT_SHOULD_FAIL
    [[maybe_unused]] IntervalMp z(0.1);  // no constructor from double, even explicit
#else
    [[maybe_unused]] IntervalMp z(1);
#endif
    return 0;
}
