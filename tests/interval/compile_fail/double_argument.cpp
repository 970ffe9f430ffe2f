// Compile-fail test (tests/interval/CMakeLists.txt): with FLOWCERT_SHOULD_FAIL defined this
// file must NOT compile; without it (the positive control, the allowed spelling) it must.
#include <flowcert/interval.hpp>

using namespace flowcert;
void takes(const IntervalD&) {}
int main() {
    [[maybe_unused]] const IntervalD x = IntervalD::from_decimal("0.3"), y = IntervalD(2);
    [[maybe_unused]] const IntervalMp mx = IntervalMp::from_decimal("0.3", Precision(100)), my = IntervalMp(2);
#ifdef FLOWCERT_SHOULD_FAIL
    takes(0.1);  // no implicit double -> IntervalD at a call
#else
    takes(IntervalD::from_decimal("0.1"));
#endif
    return 0;
}
