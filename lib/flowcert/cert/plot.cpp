// SVG plots drawn by flowcert (no external plotting library, no scripts in the output).
//
// Every plot has a title, two labelled axes with at least two ticks each, its data clipped to the
// plot area, and a legend that is never cut (the picture widens for long labels and grows for
// many entries). Classes name what a reader (or tests/cli/report_pages_test.sh) looks for:
// axis-label, tick, legend; the drawn data are band, line, marker, errorbar, reference,
// direction and cell.
#include <flowcert/cert.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <tuple>
#include <utility>

namespace flowcert::cert {

void TubePlot::add_line(const std::string& label, std::vector<double> x, std::vector<double> y, LineStyle style) {
    bands.push_back(Band{label, std::move(x), y, y, style});
}
Band& TubePlot::band(const std::string& label) {
    for (auto& b : bands)
        if (b.label == label) return b;
    bands.push_back(Band{label, {}, {}, {}});
    return bands.back();
}
Band& SweepPlot::series_named(const std::string& label) {
    for (auto& b : series)
        if (b.label == label) return b;
    series.push_back(Band{label, {}, {}, {}});
    return series.back();
}
void SweepPlot::add_slope(std::string label, double slope) {
    references.push_back({std::move(label), std::numeric_limits<double>::quiet_NaN(), slope});
}
void CirclePlot::add(std::string label, std::string group, double x, double y, bool normalize) {
    directions.push_back({std::move(label), std::move(group), x, x, y, y, normalize});
}

namespace {

const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                          "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
const char* color(std::size_t i) { return kPalette[i % 10]; }

// The stroke of series k: its own style, and past the palette's ten colours a dotted stroke so that
// two series never look alike.
std::string dash(LineStyle style, std::size_t k) {
    if (style == LineStyle::dashed) return " stroke-dasharray=\"6,4\"";
    return k >= 10 ? " stroke-dasharray=\"2,2\"" : "";
}

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

// Estimated width of text in the plots' sans-serif font (generous: a label is never cut).
double text_width(const std::string& s, double font_px) { return 0.62 * font_px * static_cast<double>(s.size()); }

// Splits text at spaces into lines of at most `max_chars` characters (a longer word stays whole).
std::vector<std::string> wrap(const std::string& text, std::size_t max_chars) {
    std::vector<std::string> lines;
    std::string line, word;
    std::istringstream is(text);
    while (is >> word) {
        if (!line.empty() && line.size() + 1 + word.size() > max_chars) {
            lines.push_back(line);
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
    }
    if (!line.empty() || lines.empty()) lines.push_back(line);
    return lines;
}

// The geometry of one plot: the plot area (x0, y0, w, h) inside a picture of width W, height H,
// the title's lines above it and the legend's lines on its right.
struct Layout {
    double W = 0, H = 0, x0 = 78, y0 = 0, w = 470, h = 314;
    std::vector<std::string> title;
    double legend_x = 0;
    double right() const { return x0 + w; }
    double bottom() const { return y0 + h; }
};

struct LegendEntry {
    std::string label;
    std::string swatch;  // SVG of the sample (drawn at the origin, 24 x 10)
};

constexpr double kLegendLine = 15;
constexpr std::size_t kLegendChars = 44;

Layout layout(const std::string& title, const std::vector<LegendEntry>& legend, double area_w = 470, double area_h = 314) {
    Layout L;
    L.w = area_w;
    L.h = area_h;
    double legend_w = 0;
    std::size_t legend_lines = 0;
    for (const auto& e : legend) {
        for (const auto& l : wrap(e.label, kLegendChars)) legend_w = std::max(legend_w, text_width(l, 11));
        legend_lines += wrap(e.label, kLegendChars).size();
    }
    L.legend_x = L.right() + 14;
    L.W = L.legend_x + (legend.empty() ? 10 : 32 + legend_w + 8);
    L.title = wrap(title, static_cast<std::size_t>((L.W - 20) / (0.62 * 13)));
    L.y0 = 16 + 16.0 * static_cast<double>(L.title.size());
    L.H = std::max(L.bottom() + 54, L.y0 + kLegendLine * static_cast<double>(legend_lines) + 10);
    return L;
}

std::string clip_id(const Layout& L, const std::string& title) {
    std::uint64_t h = 1469598103934665603ULL;  // FNV-1a: equal ids only for equal titles and geometry
    for (char c : title + "|" + num(L.x0) + num(L.y0) + num(L.w) + num(L.h)) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    char b[32];
    std::snprintf(b, sizeof b, "plotclip-%016llx", static_cast<unsigned long long>(h));
    return b;
}

void open_svg(std::ostringstream& o, const Layout& L) {
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" width=\"" << num(L.W) << "\" height=\"" << num(L.H)
      << "\" viewBox=\"0 0 " << num(L.W) << " " << num(L.H) << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
    o << "<rect x=\"0\" y=\"0\" width=\"" << num(L.W) << "\" height=\"" << num(L.H) << "\" fill=\"white\"/>\n";
    for (std::size_t i = 0; i < L.title.size(); ++i)
        o << "<text class=\"title\" x=\"" << num(L.W / 2) << "\" y=\"" << num(20 + 16.0 * static_cast<double>(i))
          << "\" text-anchor=\"middle\" font-size=\"13\">" << html_escape(L.title[i]) << "</text>\n";
}

void draw_legend(std::ostringstream& o, const Layout& L, const std::vector<LegendEntry>& entries) {
    double y = L.y0 + 10;
    for (const auto& e : entries) {
        o << "<g class=\"legend\"><g transform=\"translate(" << num(L.legend_x) << "," << num(y - 8) << ")\">" << e.swatch
          << "</g>";
        for (const auto& line : wrap(e.label, kLegendChars)) {
            o << "<text x=\"" << num(L.legend_x + 30) << "\" y=\"" << num(y + 1) << "\">" << html_escape(line) << "</text>";
            y += kLegendLine;
        }
        o << "</g>\n";
    }
}

std::string line_swatch(const char* c, const std::string& stroke, bool band) {
    std::string s;
    if (band) s += std::string("<rect x=\"0\" y=\"0\" width=\"24\" height=\"10\" fill=\"") + c + "\" fill-opacity=\"0.25\"/>";
    return s + "<line x1=\"0\" y1=\"5\" x2=\"24\" y2=\"5\" stroke=\"" + c + "\" stroke-width=\"2\"" + stroke + "/>";
}

std::string marker_swatch(const char* c) {
    return std::string("<line x1=\"12\" y1=\"0\" x2=\"12\" y2=\"10\" stroke=\"") + c + "\"/><circle cx=\"12\" cy=\"5\" r=\"2.5\" fill=\"" +
           c + "\"/>";
}

std::string box_swatch(const std::string& fill) {
    return "<rect x=\"0\" y=\"0\" width=\"24\" height=\"10\" fill=\"" + fill + "\" stroke=\"#999\" stroke-width=\"0.5\"/>";
}

// Tick labels with the fewest digits (at least 3) that tell every tick apart.
std::vector<std::string> tick_labels(const std::vector<double>& ticks) {
    for (int digits = 3;; ++digits) {
        std::vector<std::string> out;
        std::set<std::string> seen;
        for (double v : ticks) {
            char buf[40];
            std::snprintf(buf, sizeof buf, "%.*g", digits, v);
            out.push_back(buf);
            seen.insert(buf);
        }
        if (seen.size() == ticks.size() || digits >= 15) return out;
    }
}

struct Axis {
    double lo = 0, hi = 1;
    bool log = false;
    double px0 = 0, px1 = 1;  // pixel positions of lo and hi
    double t(double v) const { return log ? std::log10(v) : v; }
    double map(double v) const {
        const double a = t(lo), b = t(hi);
        double x = (log && !(v > 0)) ? a - (b - a) : t(v);  // nonpositive values fall below a log axis (clipped)
        x = std::clamp(x, a - 3 * (b - a), b + 3 * (b - a));  // far outside: clipped, direction kept
        return px0 + (x - a) / (b - a) * (px1 - px0);
    }
    // Evenly spaced "nice" values (1, 2, 5 x 10^k apart) in [lo, hi]: at least two.
    static std::vector<double> linear_ticks(double lo, double hi) {
        std::vector<double> out;
        const double raw = (hi - lo) / 6;
        const double mag = std::pow(10.0, std::floor(std::log10(raw)));
        for (double m : {1.0, 2.0, 5.0, 10.0}) {
            const double step = m * mag;
            if (step < raw) continue;
            out.clear();
            for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step)
                out.push_back(std::abs(v) < step * 1e-9 ? 0 : v);
            if (out.size() >= 2) return out;
        }
        for (double m : {5.0, 2.0, 1.0}) {  // a very narrow range: a finer step
            const double step = m * mag / 10;
            out.clear();
            for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push_back(v);
            if (out.size() >= 2) return out;
        }
        return {lo, hi};
    }
    std::vector<double> ticks() const {
        if (!log) return linear_ticks(lo, hi);
        const int e0 = static_cast<int>(std::floor(std::log10(lo))), e1 = static_cast<int>(std::ceil(std::log10(hi)));
        // decades (every k-th when there are many), then 1-2-5, then 1..9 multiples, else linear
        for (const std::vector<double>& mults : {std::vector<double>{1}, {1, 2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}}) {
            const int step = mults.size() == 1 ? std::max(1, (e1 - e0) / 8) : 1;
            std::vector<double> out;
            for (int e = e0; e <= e1; e += step)
                for (double m : mults) {
                    const double v = m * std::pow(10.0, e);
                    if (v >= lo * (1 - 1e-12) && v <= hi * (1 + 1e-12)) out.push_back(v);
                }
            if (out.size() >= 2) return out;
        }
        return linear_ticks(lo, hi);
    }
};

// Range of finite values (positive only on a log axis), padded so that nothing sits on the frame;
// a sane default if there are none.
Axis make_axis(const std::vector<double>& values, bool log, double px0, double px1) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (double v : values) {
        if (!std::isfinite(v) || (log && !(v > 0))) continue;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    Axis a;
    a.log = log;
    a.px0 = px0;
    a.px1 = px1;
    if (!(lo <= hi)) {
        lo = log ? 1 : 0;
        hi = log ? 10 : 1;
    }
    if (log) {
        double l0 = std::log10(lo), l1 = std::log10(hi);
        if (l1 - l0 < 1e-9 * std::max(1.0, std::abs(l0))) {  // one value: half a decade either side
            l0 -= 0.5;
            l1 += 0.5;
        }
        const double pad = (l1 - l0) * 0.05;
        lo = std::pow(10.0, l0 - pad);
        hi = std::pow(10.0, l1 + pad);
    } else if (hi - lo <= std::abs(hi) * 1e-12 || hi == lo) {
        const double d = hi == 0 ? 1 : std::abs(hi) * 0.1;
        lo -= d;
        hi += d;
    } else {
        const double pad = (hi - lo) * 0.05;
        lo -= pad;
        hi += pad;
    }
    a.lo = lo;
    a.hi = hi;
    return a;
}

void draw_x_label(std::ostringstream& o, const Layout& L, const std::string& label, bool log) {
    o << "<text class=\"axis-label x\" x=\"" << num(L.x0 + L.w / 2) << "\" y=\"" << num(L.bottom() + 38)
      << "\" text-anchor=\"middle\">" << html_escape(label) << (log ? " (log scale)" : "") << "</text>\n";
}

void draw_y_label(std::ostringstream& o, const Layout& L, const std::string& label, bool log, double x = 16) {
    const double y = L.y0 + L.h / 2;
    o << "<text class=\"axis-label y\" x=\"" << num(x) << "\" y=\"" << num(y) << "\" text-anchor=\"middle\" transform=\"rotate(-90 "
      << num(x) << " " << num(y) << ")\">" << html_escape(label) << (log ? " (log scale)" : "") << "</text>\n";
}

// Frame, grid, ticks and axis labels; then the data go inside <g clip-path=...> (open_data).
void frame(std::ostringstream& o, const Layout& L, const std::string& xl, const std::string& yl, const Axis& ax,
           const Axis& ay, const std::string& clip) {
    o << "<defs><clipPath id=\"" << clip << "\"><rect x=\"" << num(L.x0) << "\" y=\"" << num(L.y0) << "\" width=\"" << num(L.w)
      << "\" height=\"" << num(L.h) << "\"/></clipPath></defs>\n";
    const auto xt = ax.ticks(), yt = ay.ticks();
    const auto xs = tick_labels(xt), ys = tick_labels(yt);
    for (std::size_t i = 0; i < xt.size(); ++i) {
        const double x = ax.map(xt[i]);
        o << "<line x1=\"" << num(x) << "\" y1=\"" << num(L.y0) << "\" x2=\"" << num(x) << "\" y2=\"" << num(L.bottom())
          << "\" stroke=\"#eee\"/>";
        o << "<g class=\"tick x\"><line x1=\"" << num(x) << "\" y1=\"" << num(L.bottom()) << "\" x2=\"" << num(x) << "\" y2=\""
          << num(L.bottom() + 4) << "\" stroke=\"#444\"/><text x=\"" << num(x) << "\" y=\"" << num(L.bottom() + 16)
          << "\" text-anchor=\"middle\">" << xs[i] << "</text></g>\n";
    }
    for (std::size_t i = 0; i < yt.size(); ++i) {
        const double y = ay.map(yt[i]);
        o << "<line x1=\"" << num(L.x0) << "\" y1=\"" << num(y) << "\" x2=\"" << num(L.right()) << "\" y2=\"" << num(y)
          << "\" stroke=\"#eee\"/>";
        o << "<g class=\"tick y\"><line x1=\"" << num(L.x0 - 4) << "\" y1=\"" << num(y) << "\" x2=\"" << num(L.x0) << "\" y2=\""
          << num(y) << "\" stroke=\"#444\"/><text x=\"" << num(L.x0 - 6) << "\" y=\"" << num(y + 4)
          << "\" text-anchor=\"end\">" << ys[i] << "</text></g>\n";
    }
    o << "<rect x=\"" << num(L.x0) << "\" y=\"" << num(L.y0) << "\" width=\"" << num(L.w) << "\" height=\"" << num(L.h)
      << "\" fill=\"none\" stroke=\"#444\"/>\n";
    draw_x_label(o, L, xl, ax.log);
    draw_y_label(o, L, yl, ay.log);
    o << "<g clip-path=\"url(#" << clip << ")\">\n";
}

bool finite_point(const Band& b, std::size_t i) {
    return i < b.lo.size() && i < b.hi.size() && std::isfinite(b.x[i]) && std::isfinite(b.lo[i]) && std::isfinite(b.hi[i]);
}

// The x and y axes that fit every finite point of the bands (both bounds of each y).
std::pair<Axis, Axis> band_axes(const std::vector<Band>& bands, bool log_x, bool log_y, const Layout& L) {
    std::vector<double> xs, ys;
    for (const auto& b : bands)
        for (std::size_t i = 0; i < b.x.size(); ++i)
            if (finite_point(b, i)) {
                xs.push_back(b.x[i]);
                ys.push_back(b.lo[i]);
                ys.push_back(b.hi[i]);
            }
    return {make_axis(xs, log_x, L.x0, L.right()), make_axis(ys, log_y, L.bottom(), L.y0)};
}

// One marker with its error bar (a point of a sweep, or a band of a single point).
void draw_errorbar(std::ostringstream& o, const char* c, double x, double y0, double y1, double ym) {
    o << "<g class=\"errorbar\" stroke=\"" << c << "\"><line x1=\"" << num(x) << "\" y1=\"" << num(y0) << "\" x2=\"" << num(x)
      << "\" y2=\"" << num(y1) << "\"/><line x1=\"" << num(x - 4) << "\" y1=\"" << num(y0) << "\" x2=\"" << num(x + 4)
      << "\" y2=\"" << num(y0) << "\"/><line x1=\"" << num(x - 4) << "\" y1=\"" << num(y1) << "\" x2=\"" << num(x + 4)
      << "\" y2=\"" << num(y1) << "\"/></g>\n";
    o << "<circle class=\"marker\" cx=\"" << num(x) << "\" cy=\"" << num(ym) << "\" r=\"2.5\" fill=\"" << c << "\"/>\n";
}

// The middle of [lo, hi] as drawn: geometric on a log axis.
double drawn_middle(const Axis& ay, double lo, double hi) {
    return (ay.log && lo > 0) ? ay.map(std::sqrt(lo * hi)) : (ay.map(lo) + ay.map(hi)) / 2;
}

std::string render(const TubePlot& p) {
    std::vector<LegendEntry> legend;
    for (std::size_t k = 0; k < p.bands.size(); ++k) {
        const Band& b = p.bands[k];
        bool band = false;
        for (std::size_t i = 0; i < b.x.size(); ++i) band = band || (finite_point(b, i) && b.lo[i] != b.hi[i]);
        legend.push_back({b.label, line_swatch(color(k), dash(b.style, k), band)});
    }
    const Layout L = layout(p.title, legend);
    const auto [ax, ay] = band_axes(p.bands, p.log_x, p.log_y, L);
    std::ostringstream o;
    open_svg(o, L);
    frame(o, L, p.x_label, p.y_label, ax, ay, clip_id(L, p.title));
    for (std::size_t k = 0; k < p.bands.size(); ++k) {
        const Band& b = p.bands[k];
        std::string upper, lower;
        std::size_t points = 0, last = 0;
        bool is_line = true;
        for (std::size_t i = 0; i < b.x.size(); ++i) {
            if (!finite_point(b, i)) continue;
            ++points;
            last = i;
            if (b.lo[i] != b.hi[i]) is_line = false;
            upper += num(ax.map(b.x[i])) + "," + num(ay.map(b.hi[i])) + " ";
        }
        for (std::size_t i = b.x.size(); i-- > 0;)
            if (finite_point(b, i)) lower += num(ax.map(b.x[i])) + "," + num(ay.map(b.lo[i])) + " ";
        if (points == 1)  // a single point draws no line: a marker with its enclosure
            draw_errorbar(o, color(k), ax.map(b.x[last]), ay.map(b.lo[last]), ay.map(b.hi[last]),
                          drawn_middle(ay, b.lo[last], b.hi[last]));
        else if (points > 1 && !is_line)
            o << "<polygon class=\"band\" points=\"" << upper << lower << "\" fill=\"" << color(k)
              << "\" fill-opacity=\"0.25\" stroke=\"" << color(k) << "\" stroke-width=\"1\"" << dash(b.style, k) << "/>\n";
        else if (points > 1)
            o << "<polyline class=\"line\" points=\"" << upper << "\" fill=\"none\" stroke=\"" << color(k)
              << "\" stroke-width=\"1.5\"" << dash(b.style, k) << "/>\n";
    }
    o << "</g>\n";
    draw_legend(o, L, legend);
    o << "</svg>\n";
    return o.str();
}

std::string render(const SweepPlot& p) {
    // A slope-only reference goes through the first finite point of the first series.
    std::vector<SweepPlot::Reference> refs = p.references;
    std::vector<std::string> ref_labels;
    for (auto& r : refs) {
        ref_labels.push_back(r.label);
        if (std::isfinite(r.coefficient) || p.series.empty()) continue;
        const Band& s = p.series.front();
        for (std::size_t i = 0; i < s.x.size(); ++i) {
            if (!finite_point(s, i) || (p.log_x && !(s.x[i] > 0))) continue;
            const double y = (p.log_y && s.lo[i] > 0) ? std::sqrt(s.lo[i] * s.hi[i]) : (s.lo[i] + s.hi[i]) / 2;
            r.coefficient = y / std::pow(s.x[i], r.slope);
            ref_labels.back() += " (slope only: drawn through the point at " + short_number(s.x[i]) + " of " + s.label + ")";
            break;
        }
    }
    std::vector<LegendEntry> legend;
    for (std::size_t k = 0; k < p.series.size(); ++k) legend.push_back({p.series[k].label, marker_swatch(color(k))});
    for (std::size_t r = 0; r < refs.size(); ++r)
        legend.push_back({ref_labels[r], line_swatch(color(p.series.size() + r), " stroke-dasharray=\"6,4\"", false)});
    const Layout L = layout(p.title, legend);
    const auto [ax, ay] = band_axes(p.series, p.log_x, p.log_y, L);
    std::ostringstream o;
    open_svg(o, L);
    frame(o, L, p.x_label, p.y_label, ax, ay, clip_id(L, p.title));
    for (std::size_t k = 0; k < p.series.size(); ++k) {
        const Band& b = p.series[k];
        std::string mids;
        std::size_t points = 0;
        for (std::size_t i = 0; i < b.x.size(); ++i) {
            if (!finite_point(b, i)) continue;
            ++points;
            const double x = ax.map(b.x[i]), ym = drawn_middle(ay, b.lo[i], b.hi[i]);
            mids += num(x) + "," + num(ym) + " ";
            draw_errorbar(o, color(k), x, ay.map(b.lo[i]), ay.map(b.hi[i]), ym);
        }
        if (points > 1)
            o << "<polyline class=\"line\" points=\"" << mids << "\" fill=\"none\" stroke=\"" << color(k)
              << "\" stroke-width=\"0.8\" stroke-opacity=\"0.6\"" << dash(b.style, k) << "/>\n";
    }
    for (std::size_t r = 0; r < refs.size(); ++r) {
        const auto& ref = refs[r];
        std::string pts;
        for (int i = 0; i <= 40; ++i) {
            const double s = i / 40.0;
            const double x = ax.log ? std::pow(10.0, std::log10(ax.lo) + s * (std::log10(ax.hi) - std::log10(ax.lo)))
                                    : ax.lo + s * (ax.hi - ax.lo);
            const double y = ref.coefficient * std::pow(x, ref.slope);
            if (std::isfinite(y)) pts += num(ax.map(x)) + "," + num(ay.map(y)) + " ";
        }
        o << "<polyline class=\"reference\" points=\"" << pts << "\" fill=\"none\" stroke=\"" << color(p.series.size() + r)
          << "\" stroke-width=\"1.2\" stroke-dasharray=\"6,4\"/>\n";
    }
    o << "</g>\n";
    draw_legend(o, L, legend);
    o << "</svg>\n";
    return o.str();
}

std::string render(const CirclePlot& p) {
    std::map<std::string, std::size_t> groups;
    std::vector<LegendEntry> legend;
    for (const auto& d : p.directions)
        if (!groups.count(d.group)) {
            groups[d.group] = legend.size();
            legend.push_back({d.group, line_swatch(color(legend.size()), "", false)});
        }
    const Layout L = layout(p.title, legend, 340, 314);
    std::ostringstream o;
    open_svg(o, L);
    const double cx = L.x0 + L.w / 2, cy = L.y0 + L.h / 2, R = L.h / 2 - 14;
    o << "<circle cx=\"" << num(cx) << "\" cy=\"" << num(cy) << "\" r=\"" << num(R) << "\" fill=\"none\" stroke=\"#888\"/>\n";
    o << "<line x1=\"" << num(cx - R - 8) << "\" y1=\"" << num(cy) << "\" x2=\"" << num(cx + R + 8) << "\" y2=\"" << num(cy)
      << "\" stroke=\"#ccc\"/><line x1=\"" << num(cx) << "\" y1=\"" << num(cy - R - 8) << "\" x2=\"" << num(cx)
      << "\" y2=\"" << num(cy + R + 8) << "\" stroke=\"#ccc\"/>\n";
    for (const auto& [v, dx, dy, anchor] : {std::tuple{"1", R, 14.0, "middle"}, std::tuple{"-1", -R, 14.0, "middle"},
                                            std::tuple{"1", -6.0, -R + 4, "end"}, std::tuple{"-1", -6.0, R + 4, "end"}})
        o << "<g class=\"tick\"><text x=\"" << num(cx + dx) << "\" y=\"" << num(cy + dy) << "\" text-anchor=\"" << anchor
          << "\" fill=\"#666\">" << v << "</text></g>\n";
    o << "<text class=\"axis-label x\" x=\"" << num(cx) << "\" y=\"" << num(L.bottom() + 24) << "\" text-anchor=\"middle\">"
      << html_escape(p.x_label) << " (directions scaled to the unit circle)</text>\n";
    draw_y_label(o, L, p.y_label, false, L.x0 - 30);
    for (const auto& d : p.directions) {
        if (!std::isfinite(d.x_lo) || !std::isfinite(d.x_hi) || !std::isfinite(d.y_lo) || !std::isfinite(d.y_hi)) continue;
        const double mx = (d.x_lo + d.x_hi) / 2, my = (d.y_lo + d.y_hi) / 2;
        double s = 1;
        if (d.normalize) {
            const double n = std::hypot(mx, my);
            s = n > 0 ? 1 / n : 1;
        }
        const char* c = color(groups[d.group]);
        const double ex = cx + R * std::clamp(mx * s, -1.2, 1.2), ey = cy - R * std::clamp(my * s, -1.2, 1.2);
        o << "<g class=\"direction\"><title>" << html_escape(d.label) << "</title><line x1=\"" << num(cx) << "\" y1=\"" << num(cy)
          << "\" x2=\"" << num(ex) << "\" y2=\"" << num(ey) << "\" stroke=\"" << c << "\" stroke-width=\"1.5\"/>";
        o << "<circle cx=\"" << num(ex) << "\" cy=\"" << num(ey) << "\" r=\"2.5\" fill=\"" << c << "\"/>";
        if (d.x_lo != d.x_hi || d.y_lo != d.y_hi) {
            const double x0 = cx + R * d.x_lo * s, x1 = cx + R * d.x_hi * s, y0 = cy - R * d.y_hi * s, y1 = cy - R * d.y_lo * s;
            o << "<rect x=\"" << num(x0) << "\" y=\"" << num(y0) << "\" width=\"" << num(std::max(x1 - x0, 0.5))
              << "\" height=\"" << num(std::max(y1 - y0, 0.5)) << "\" fill=\"" << c
              << "\" fill-opacity=\"0.2\" stroke=\"" << c << "\" stroke-width=\"0.5\"/>";
        }
        o << "</g>\n";
    }
    draw_legend(o, L, legend);
    o << "</svg>\n";
    return o.str();
}

// White to red for t in [0, 1]; blue - white - red for t in [-1, 1].
std::string heat_color(double t) {
    t = std::isfinite(t) ? std::clamp(t, -1.0, 1.0) : 0;
    const int a = static_cast<int>(std::lround(255 * (1 - std::abs(t))));
    char buf[16];
    std::snprintf(buf, sizeof buf, t >= 0 ? "#ff%02x%02x" : "#%02x%02xff", a, a);
    return buf;
}

std::string render(const HeatMap& p) {
    const std::size_t rows = p.values.size();
    std::size_t cols = 0;
    double vmax = 0;
    bool negative = false, nonfinite = false;
    for (const auto& r : p.values) {
        cols = std::max(cols, r.size());
        for (double v : r) {
            nonfinite = nonfinite || !std::isfinite(v);
            if (std::isfinite(v)) {
                vmax = std::max(vmax, std::abs(v));
                negative = negative || v < 0;
            }
        }
    }
    // colour bar as a legend: its top, middle and bottom values (bottom 0 when no value is negative)
    const double vmin = negative ? -vmax : 0;
    const double bar[] = {vmax, (vmax + vmin) / 2, vmin};
    std::vector<LegendEntry> legend;
    for (double v : bar) legend.push_back({short_number(v), box_swatch(heat_color(vmax > 0 ? v / vmax : 0))});
    if (nonfinite) legend.push_back({"not finite", box_swatch("#bbbbbb")});
    Layout L = layout(p.title, legend);
    std::ostringstream o;
    open_svg(o, L);
    if (rows > 0 && cols > 0) {
        const double cw = L.w / static_cast<double>(cols), ch = L.h / static_cast<double>(rows);
        for (std::size_t i = 0; i < rows; ++i)
            for (std::size_t j = 0; j < p.values[i].size(); ++j) {
                const double v = p.values[i][j];
                o << "<rect class=\"cell\" x=\"" << num(L.x0 + cw * j) << "\" y=\"" << num(L.y0 + ch * i) << "\" width=\""
                  << num(cw + 0.3) << "\" height=\"" << num(ch + 0.3) << "\" fill=\""
                  << (std::isfinite(v) ? heat_color(vmax > 0 ? v / vmax : 0) : std::string("#bbbbbb")) << "\"/>\n";
            }
        for (std::size_t i = 0; i < rows && i < p.row_labels.size() && rows <= 40; ++i)
            o << "<text x=\"" << num(L.x0 - 4) << "\" y=\"" << num(L.y0 + ch * (i + 0.5) + 4) << "\" text-anchor=\"end\">"
              << html_escape(p.row_labels[i]) << "</text>\n";
        for (std::size_t j = 0; j < cols && j < p.col_labels.size() && cols <= 40; ++j)
            o << "<text x=\"" << num(L.x0 + cw * (j + 0.5)) << "\" y=\"" << num(L.bottom() + 14) << "\" text-anchor=\"middle\">"
              << html_escape(p.col_labels[j]) << "</text>\n";
    }
    o << "<rect x=\"" << num(L.x0) << "\" y=\"" << num(L.y0) << "\" width=\"" << num(L.w) << "\" height=\"" << num(L.h)
      << "\" fill=\"none\" stroke=\"#444\"/>\n";
    draw_x_label(o, L, p.x_label, false);
    draw_y_label(o, L, p.y_label, false);
    draw_legend(o, L, legend);
    o << "</svg>\n";
    return o.str();
}

}  // namespace

std::string render_svg(const Plot& plot) {
    return std::visit([](const auto& p) { return render(p); }, plot);
}

}  // namespace flowcert::cert
