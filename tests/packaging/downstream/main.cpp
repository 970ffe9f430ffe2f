// Uses three layers of an installed flowcert: encloses x' = -x from x(0) = 1 at t = 1 and checks
// that the enclosure contains exp(-1); prints the version the library reports.
#include <flowcert/cert.hpp>
#include <flowcert/ode.hpp>

#include <cmath>
#include <iostream>

int main() {
    using flowcert::IntervalD;
    const auto parsed = flowcert::taylor::parse_formula("var:x; fun:-x;");
    if (!parsed.ok()) return 2;
    const auto r = flowcert::ode::integrate<IntervalD>(*parsed.field, {}, {IntervalD::from_decimal("1")},
                                                       IntervalD::from_decimal("1"), {}, {}, 53);
    const IntervalD e = exp(IntervalD::from_decimal("-1"));
    const bool ok = r.ok() && !(upper(r.final_box[0]) < lower(e)) && !(upper(e) < lower(r.final_box[0]));
    std::cout << "flowcert " << flowcert::cert::build_provenance().flowcert_version << ": x(1) in "
              << to_string(r.final_box[0], 17) << (ok ? " (contains exp(-1))" : " (WRONG)") << "\n";
    return ok ? 0 : 1;
}
