#include <flowcert/cert.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace flowcert;
using namespace flowcert::cert;

namespace {
std::size_t count(const std::string& s, const std::string& what) {
    std::size_t n = 0;
    for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
    return n;
}
}  // namespace

TEST_CASE("a tube plot draws one shaded band per enclosure series", "[cert][plot]") {
    TubePlot p{.title = "a < b", .x_label = "t", .y_label = "y"};
    for (int k = 0; k <= 10; ++k) {
        p.add_point("u", k / 10.0, IntervalD::bounds(k - 0.5, k + 0.5));
        p.add_point("v", k / 10.0, IntervalD::bounds(-k - 0.5, -k + 0.5));
    }
    const std::string svg = render_svg(p);
    CHECK(count(svg, "class=\"band\"") == 2);
    CHECK_THAT(svg, Catch::Contains("a &lt; b"));  // escaped title
    CHECK_THAT(svg, !Catch::Contains("nan") && !Catch::Contains("inf"));
}

TEST_CASE("a log-log sweep draws error bars and skips non-finite or nonpositive data", "[cert][plot]") {
    SweepPlot p{.title = "s", .x_label = "lambda", .y_label = "gap"};
    p.add_point("g", 1e-4, IntervalD::bounds(1e-6, 2e-6));
    p.add_point("g", 1e-3, IntervalD::bounds(0, 2e-5));  // touches 0 on a log axis
    p.add_point("g", 1e-2, IntervalD::entire());          // unbounded: skipped
    p.references.push_back({"lambda", 1, 1});
    const std::string svg = render_svg(p);
    CHECK(count(svg, "class=\"errorbar\"") == 2);
    CHECK(count(svg, "class=\"reference\"") == 1);
    CHECK_THAT(svg, !Catch::Contains("nan") && !Catch::Contains("inf"));
}

TEST_CASE("circle and heat map plots render with empty and degenerate data", "[cert][plot]") {
    CirclePlot c{.title = "dirs"};
    CHECK_THAT(render_svg(c), Catch::Contains("<circle"));
    c.add("x", "data", 0.0, 0.0);  // zero vector: drawn at the origin, no division by zero
    c.add("y", "data", 3.0, 4.0);
    CHECK(count(render_svg(c), "class=\"direction\"") == 2);
    HeatMap h{.title = "empty", .row_labels = {}, .col_labels = {}, .values = {}};
    CHECK_THAT(render_svg(h), Catch::Contains("</svg>"));
    h.values = {{std::numeric_limits<double>::quiet_NaN(), 1}, {0, -2}};
    CHECK_THAT(render_svg(h), !Catch::Contains("nan"));
}
