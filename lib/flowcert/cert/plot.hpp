// flowcert/cert/plot.hpp -- plots of a report, drawn as SVG by flowcert itself.
//
// Plot data are doubles used for display only: the rigour of a certificate lives in its
// checks, never in a picture. Band ends should still be outward (use add_band with
// interval enclosures) so that a tube drawn is a tube that encloses.
#pragma once

#if !defined(FLOWCERT_CERT_INTERNAL)
#error "include <flowcert/cert.hpp>, not the internal headers"
#endif

#include <flowcert/interval.hpp>

#include <string>
#include <variant>
#include <vector>

namespace flowcert::cert {

// How a line is stroked (a band's edges, a series' joining line; the legend shows the same stroke).
enum class LineStyle { solid, dashed };

// A band (tube) lo(t) <= y(t) <= hi(t), or a line when lo == hi.
struct Band {
    std::string label;
    std::vector<double> x;
    std::vector<double> lo;
    std::vector<double> hi;
    LineStyle style = LineStyle::solid;
};

// Enclosures over time: each band is drawn as a shaded tube with its edges.
struct TubePlot {
    std::string title, x_label, y_label;
    bool log_x = false, log_y = false;
    std::vector<Band> bands;

    // Appends one point of band `label` (created on first use) from an enclosure.
    template <Interval I> void add_point(const std::string& label, double x, const I& y) {
        Band& b = band(label);
        b.x.push_back(x);
        b.lo.push_back(lower(y));
        b.hi.push_back(upper(y));
    }
    void add_line(const std::string& label, std::vector<double> x, std::vector<double> y,
                  LineStyle style = LineStyle::solid);
    Band& band(const std::string& label);
};

// A sweep (e.g. over the initialization scale lambda) on log-log axes: each point carries a
// certified error bar [lo, hi]; optional reference lines C * x^slope. A reference whose
// coefficient is not finite (add_slope) shows only a slope: it is drawn through the first point
// of the first series, and its legend entry says so.
struct SweepPlot {
    std::string title, x_label, y_label;
    bool log_x = true, log_y = true;
    std::vector<Band> series;  // points drawn as error bars, joined by a thin line
    struct Reference {
        std::string label;
        double coefficient;
        double slope;
    };
    std::vector<Reference> references;

    // A reference slope with no meaningful height (drawn through a data point, see above).
    void add_slope(std::string label, double slope);

    template <Interval I> void add_point(const std::string& label, double x, const I& y) {
        Band& b = series_named(label);
        b.x.push_back(x);
        b.lo.push_back(lower(y));
        b.hi.push_back(upper(y));
    }
    Band& series_named(const std::string& label);
};

// Directions in the plane (d = 2) drawn on the unit circle: each arrow from the origin,
// optionally with an enclosure box [x_lo, x_hi] x [y_lo, y_hi] and a group (colour).
struct CirclePlot {
    std::string title;
    struct Direction {
        std::string label;
        std::string group;  // arrows of one group share a colour (e.g. "data", "neurons at T")
        double x_lo, x_hi, y_lo, y_hi;
        bool normalize = true;  // scale to the unit circle for display
    };
    std::vector<Direction> directions;
    std::string x_label = "coordinate 1", y_label = "coordinate 2";  // the axes of the plane

    void add(std::string label, std::string group, double x, double y, bool normalize = true);
    template <Interval I> void add(std::string label, std::string group, const I& x, const I& y, bool normalize = true) {
        directions.push_back({std::move(label), std::move(group), lower(x), upper(x), lower(y), upper(y), normalize});
    }
};

// A heat map of a matrix (e.g. weights W with rows = neurons), values by colour: white to red
// for data without negative values, blue - white - red around 0 otherwise.
struct HeatMap {
    std::string title;
    std::vector<std::string> row_labels, col_labels;  // optional
    std::vector<std::vector<double>> values;          // rows x cols
    std::string x_label = "column", y_label = "row";  // what the columns and the rows are
};

using Plot = std::variant<TubePlot, SweepPlot, CirclePlot, HeatMap>;

// A self-contained <svg> element (no scripts, no external resources).
std::string render_svg(const Plot& plot);

}  // namespace flowcert::cert
