// SVG plots drawn by flowcert (no external plotting library, no scripts in the output).
#include <flowcert/cert.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <sstream>
#include <utility>

namespace flowcert::cert {

void TubePlot::add_line(const std::string& label, std::vector<double> x, std::vector<double> y) {
    bands.push_back(Band{label, std::move(x), y, y});
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
void CirclePlot::add(std::string label, std::string group, double x, double y, bool normalize) {
    directions.push_back({std::move(label), std::move(group), x, x, y, y, normalize});
}

namespace {

constexpr double W = 640, H = 400, ML = 78, MR = 150, MT = 34, MB = 52;  // frame and margins (px)
const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                          "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
const char* color(std::size_t i) { return kPalette[i % 10]; }

std::string esc(const std::string& s) {
    std::string o;
    for (char c : s) {
        switch (c) {
            case '&': o += "&amp;"; break;
            case '<': o += "&lt;"; break;
            case '>': o += "&gt;"; break;
            case '"': o += "&quot;"; break;
            default: o += c;
        }
    }
    return o;
}

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}
std::string tick_label(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

struct Axis {
    double lo = 0, hi = 1;
    bool log = false;
    double px0 = 0, px1 = 1;  // pixel positions of lo and hi
    double t(double v) const { return log ? std::log10(v) : v; }
    double map(double v) const {
        double a = t(lo), b = t(hi);
        double x;
        if (log && !(v > 0)) x = a;  // nonpositive values go to the low edge of a log axis
        else x = t(v);
        x = std::clamp(x, a - 0.05 * (b - a), b + 0.05 * (b - a));
        return px0 + (x - a) / (b - a) * (px1 - px0);
    }
    std::vector<double> ticks() const {
        std::vector<double> out;
        if (log) {
            const int e0 = static_cast<int>(std::floor(std::log10(lo))), e1 = static_cast<int>(std::ceil(std::log10(hi)));
            const int step = std::max(1, (e1 - e0) / 8);
            for (int e = e0; e <= e1; e += step) {
                const double v = std::pow(10.0, e);
                if (v >= lo * (1 - 1e-12) && v <= hi * (1 + 1e-12)) out.push_back(v);
            }
            return out;
        }
        const double span = hi - lo;
        const double raw = span / 6;
        const double mag = std::pow(10.0, std::floor(std::log10(raw)));
        double step = mag;
        for (double m : {1.0, 2.0, 5.0, 10.0})
            if (m * mag >= raw) {
                step = m * mag;
                break;
            }
        for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push_back(std::abs(v) < step * 1e-9 ? 0 : v);
        return out;
    }
};

// Range of finite values (positive only on a log axis); a sane default if there are none.
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
        if (hi / lo < 10) {
            const double c = std::sqrt(lo * hi);
            lo = c / std::sqrt(10.0) * (hi / lo < 1.0001 ? 1 : 1);
            hi = c * std::sqrt(10.0);
        }
    } else if (hi - lo <= std::abs(hi) * 1e-12 || hi == lo) {
        const double d = hi == 0 ? 1 : std::abs(hi) * 0.1;
        lo -= d;
        hi += d;
    } else {
        const double pad = (hi - lo) * 0.04;
        lo -= pad;
        hi += pad;
    }
    a.lo = lo;
    a.hi = hi;
    return a;
}

void frame(std::ostringstream& o, const std::string& title, const std::string& xl, const std::string& yl, const Axis& ax,
           const Axis& ay) {
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" width=\"" << W << "\" height=\"" << H
      << "\" viewBox=\"0 0 " << W << " " << H << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
    o << "<rect x=\"0\" y=\"0\" width=\"" << W << "\" height=\"" << H << "\" fill=\"white\"/>\n";
    o << "<text x=\"" << num((ML + W - MR) / 2) << "\" y=\"20\" text-anchor=\"middle\" font-size=\"13\">" << esc(title)
      << "</text>\n";
    o << "<rect x=\"" << ML << "\" y=\"" << MT << "\" width=\"" << (W - ML - MR) << "\" height=\"" << (H - MT - MB)
      << "\" fill=\"none\" stroke=\"#444\"/>\n";
    for (double v : ax.ticks()) {
        const double x = ax.map(v);
        o << "<line x1=\"" << num(x) << "\" y1=\"" << H - MB << "\" x2=\"" << num(x) << "\" y2=\"" << H - MB + 4
          << "\" stroke=\"#444\"/><text x=\"" << num(x) << "\" y=\"" << H - MB + 16 << "\" text-anchor=\"middle\">"
          << tick_label(v) << "</text>\n";
        o << "<line x1=\"" << num(x) << "\" y1=\"" << MT << "\" x2=\"" << num(x) << "\" y2=\"" << H - MB
          << "\" stroke=\"#eee\"/>\n";
    }
    for (double v : ay.ticks()) {
        const double y = ay.map(v);
        o << "<line x1=\"" << ML - 4 << "\" y1=\"" << num(y) << "\" x2=\"" << ML << "\" y2=\"" << num(y)
          << "\" stroke=\"#444\"/><text x=\"" << ML - 6 << "\" y=\"" << num(y + 4) << "\" text-anchor=\"end\">"
          << tick_label(v) << "</text>\n";
        o << "<line x1=\"" << ML << "\" y1=\"" << num(y) << "\" x2=\"" << W - MR << "\" y2=\"" << num(y)
          << "\" stroke=\"#eee\"/>\n";
    }
    o << "<text x=\"" << num((ML + W - MR) / 2) << "\" y=\"" << H - 12 << "\" text-anchor=\"middle\">" << esc(xl)
      << (ax.log ? " (log)" : "") << "</text>\n";
    o << "<text x=\"16\" y=\"" << num((MT + H - MB) / 2) << "\" text-anchor=\"middle\" transform=\"rotate(-90 16 "
      << num((MT + H - MB) / 2) << ")\">" << esc(yl) << (ay.log ? " (log)" : "") << "</text>\n";
}

void legend(std::ostringstream& o, const std::vector<std::string>& labels) {
    for (std::size_t i = 0; i < labels.size() && i < 20; ++i) {
        const double y = MT + 8 + 16.0 * static_cast<double>(i);
        o << "<rect x=\"" << W - MR + 10 << "\" y=\"" << num(y - 8) << "\" width=\"12\" height=\"10\" fill=\"" << color(i)
          << "\"/><text x=\"" << W - MR + 26 << "\" y=\"" << num(y + 1) << "\">" << esc(labels[i].substr(0, 22))
          << "</text>\n";
    }
}

bool finite_point(const Band& b, std::size_t i) {
    return std::isfinite(b.x[i]) && std::isfinite(b.lo[i]) && std::isfinite(b.hi[i]);
}

// The x and y axes that fit every finite point of the bands (both bounds of each y).
std::pair<Axis, Axis> band_axes(const std::vector<Band>& bands, bool log_x, bool log_y) {
    std::vector<double> xs, ys;
    for (const auto& b : bands)
        for (std::size_t i = 0; i < b.x.size(); ++i)
            if (finite_point(b, i)) {
                xs.push_back(b.x[i]);
                ys.push_back(b.lo[i]);
                ys.push_back(b.hi[i]);
            }
    return {make_axis(xs, log_x, ML, W - MR), make_axis(ys, log_y, H - MB, MT)};
}

std::string render(const TubePlot& p) {
    const auto [ax, ay] = band_axes(p.bands, p.log_x, p.log_y);
    std::ostringstream o;
    frame(o, p.title, p.x_label, p.y_label, ax, ay);
    std::vector<std::string> labels;
    for (std::size_t k = 0; k < p.bands.size(); ++k) {
        const Band& b = p.bands[k];
        labels.push_back(b.label);
        std::string upper, lower;
        bool is_line = true;
        for (std::size_t i = 0; i < b.x.size(); ++i) {
            if (!finite_point(b, i)) continue;
            if (b.lo[i] != b.hi[i]) is_line = false;
            upper += num(ax.map(b.x[i])) + "," + num(ay.map(b.hi[i])) + " ";
        }
        for (std::size_t i = b.x.size(); i-- > 0;)
            if (finite_point(b, i)) lower += num(ax.map(b.x[i])) + "," + num(ay.map(b.lo[i])) + " ";
        if (!is_line)
            o << "<polygon class=\"band\" points=\"" << upper << lower << "\" fill=\"" << color(k)
              << "\" fill-opacity=\"0.25\" stroke=\"" << color(k) << "\" stroke-width=\"1\"/>\n";
        else
            o << "<polyline class=\"line\" points=\"" << upper << "\" fill=\"none\" stroke=\"" << color(k)
              << "\" stroke-width=\"1.5\"/>\n";
    }
    legend(o, labels);
    o << "</svg>\n";
    return o.str();
}

std::string render(const SweepPlot& p) {
    const auto [ax, ay] = band_axes(p.series, p.log_x, p.log_y);
    std::ostringstream o;
    frame(o, p.title, p.x_label, p.y_label, ax, ay);
    std::vector<std::string> labels;
    for (std::size_t k = 0; k < p.series.size(); ++k) {
        const Band& b = p.series[k];
        labels.push_back(b.label);
        std::string mids;
        for (std::size_t i = 0; i < b.x.size(); ++i) {
            if (!finite_point(b, i)) continue;
            const double x = ax.map(b.x[i]), y0 = ay.map(b.lo[i]), y1 = ay.map(b.hi[i]);
            const double ym = (p.log_y && b.lo[i] > 0) ? ay.map(std::sqrt(b.lo[i] * b.hi[i])) : (y0 + y1) / 2;
            mids += num(x) + "," + num(ym) + " ";
            o << "<g class=\"errorbar\" stroke=\"" << color(k) << "\"><line x1=\"" << num(x) << "\" y1=\"" << num(y0)
              << "\" x2=\"" << num(x) << "\" y2=\"" << num(y1) << "\"/><line x1=\"" << num(x - 4) << "\" y1=\"" << num(y0)
              << "\" x2=\"" << num(x + 4) << "\" y2=\"" << num(y0) << "\"/><line x1=\"" << num(x - 4) << "\" y1=\""
              << num(y1) << "\" x2=\"" << num(x + 4) << "\" y2=\"" << num(y1) << "\"/></g>\n";
            o << "<circle cx=\"" << num(x) << "\" cy=\"" << num(ym) << "\" r=\"2.5\" fill=\"" << color(k) << "\"/>\n";
        }
        o << "<polyline points=\"" << mids << "\" fill=\"none\" stroke=\"" << color(k)
          << "\" stroke-width=\"0.8\" stroke-opacity=\"0.6\"/>\n";
    }
    for (std::size_t r = 0; r < p.references.size(); ++r) {
        const auto& ref = p.references[r];
        const std::size_t k = p.series.size() + r;
        labels.push_back(ref.label);
        std::string pts;
        for (int i = 0; i <= 40; ++i) {
            const double s = i / 40.0;
            const double x = ax.log ? std::pow(10.0, std::log10(ax.lo) + s * (std::log10(ax.hi) - std::log10(ax.lo)))
                                    : ax.lo + s * (ax.hi - ax.lo);
            const double y = ref.coefficient * std::pow(x, ref.slope);
            if (std::isfinite(y)) pts += num(ax.map(x)) + "," + num(ay.map(y)) + " ";
        }
        o << "<polyline class=\"reference\" points=\"" << pts << "\" fill=\"none\" stroke=\"" << color(k)
          << "\" stroke-dasharray=\"5,4\"/>\n";
    }
    legend(o, labels);
    o << "</svg>\n";
    return o.str();
}

std::string render(const CirclePlot& p) {
    std::ostringstream o;
    const double cx = (ML + W - MR) / 2, cy = (MT + H - MB) / 2 + 4, R = (H - MT - MB) / 2 - 6;
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" width=\"" << W << "\" height=\"" << H
      << "\" viewBox=\"0 0 " << W << " " << H << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
    o << "<rect x=\"0\" y=\"0\" width=\"" << W << "\" height=\"" << H << "\" fill=\"white\"/>\n";
    o << "<text x=\"" << num(cx) << "\" y=\"20\" text-anchor=\"middle\" font-size=\"13\">" << esc(p.title) << "</text>\n";
    o << "<circle cx=\"" << num(cx) << "\" cy=\"" << num(cy) << "\" r=\"" << num(R)
      << "\" fill=\"none\" stroke=\"#888\"/>\n";
    o << "<line x1=\"" << num(cx - R - 8) << "\" y1=\"" << num(cy) << "\" x2=\"" << num(cx + R + 8) << "\" y2=\"" << num(cy)
      << "\" stroke=\"#ccc\"/><line x1=\"" << num(cx) << "\" y1=\"" << num(cy - R - 8) << "\" x2=\"" << num(cx)
      << "\" y2=\"" << num(cy + R + 8) << "\" stroke=\"#ccc\"/>\n";
    std::map<std::string, std::size_t> groups;
    std::vector<std::string> labels;
    for (const auto& d : p.directions)
        if (!groups.count(d.group)) {
            groups[d.group] = labels.size();
            labels.push_back(d.group);
        }
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
        o << "<g class=\"direction\"><title>" << esc(d.label) << "</title><line x1=\"" << num(cx) << "\" y1=\"" << num(cy)
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
    legend(o, labels);
    o << "</svg>\n";
    return o.str();
}

std::string heat_color(double v, double vmax) {
    // diverging blue (negative) - white (0) - red (positive)
    double t = vmax > 0 && std::isfinite(v) ? std::clamp(v / vmax, -1.0, 1.0) : 0;
    int r, g, b;
    if (t >= 0) {
        r = 255;
        g = static_cast<int>(255 * (1 - t));
        b = static_cast<int>(255 * (1 - t));
    } else {
        r = static_cast<int>(255 * (1 + t));
        g = static_cast<int>(255 * (1 + t));
        b = 255;
    }
    char buf[16];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", r, g, b);
    return buf;
}

std::string render(const HeatMap& p) {
    std::ostringstream o;
    const std::size_t rows = p.values.size();
    std::size_t cols = 0;
    double vmax = 0;
    for (const auto& r : p.values) {
        cols = std::max(cols, r.size());
        for (double v : r)
            if (std::isfinite(v)) vmax = std::max(vmax, std::abs(v));
    }
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" width=\"" << W << "\" height=\"" << H
      << "\" viewBox=\"0 0 " << W << " " << H << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
    o << "<rect x=\"0\" y=\"0\" width=\"" << W << "\" height=\"" << H << "\" fill=\"white\"/>\n";
    o << "<text x=\"" << num((ML + W - MR) / 2) << "\" y=\"20\" text-anchor=\"middle\" font-size=\"13\">" << esc(p.title)
      << "</text>\n";
    if (rows > 0 && cols > 0) {
        const double cw = (W - ML - MR) / static_cast<double>(cols), ch = (H - MT - MB) / static_cast<double>(rows);
        for (std::size_t i = 0; i < rows; ++i)
            for (std::size_t j = 0; j < p.values[i].size(); ++j)
                o << "<rect x=\"" << num(ML + cw * j) << "\" y=\"" << num(MT + ch * i) << "\" width=\"" << num(cw + 0.3)
                  << "\" height=\"" << num(ch + 0.3) << "\" fill=\"" << heat_color(p.values[i][j], vmax) << "\"/>\n";
        for (std::size_t i = 0; i < rows && i < p.row_labels.size() && rows <= 40; ++i)
            o << "<text x=\"" << ML - 4 << "\" y=\"" << num(MT + ch * (i + 0.5) + 4) << "\" text-anchor=\"end\">"
              << esc(p.row_labels[i]) << "</text>\n";
        for (std::size_t j = 0; j < cols && j < p.col_labels.size() && cols <= 40; ++j)
            o << "<text x=\"" << num(ML + cw * (j + 0.5)) << "\" y=\"" << H - MB + 14 << "\" text-anchor=\"middle\">"
              << esc(p.col_labels[j]) << "</text>\n";
        o << "<rect x=\"" << ML << "\" y=\"" << MT << "\" width=\"" << (W - ML - MR) << "\" height=\"" << (H - MT - MB)
          << "\" fill=\"none\" stroke=\"#444\"/>\n";
    }
    // colour bar
    for (int k = 0; k <= 20; ++k) {
        const double v = vmax * (1 - k / 10.0);
        o << "<rect x=\"" << W - MR + 20 << "\" y=\"" << num(MT + k * 12.0) << "\" width=\"16\" height=\"12.5\" fill=\""
          << heat_color(v, vmax) << "\"/>\n";
    }
    o << "<text x=\"" << W - MR + 42 << "\" y=\"" << MT + 9 << "\">" << tick_label(vmax) << "</text>\n";
    o << "<text x=\"" << W - MR + 42 << "\" y=\"" << MT + 126 << "\">0</text>\n";
    o << "<text x=\"" << W - MR + 42 << "\" y=\"" << MT + 250 << "\">" << tick_label(-vmax) << "</text>\n";
    o << "</svg>\n";
    return o.str();
}

}  // namespace

std::string render_svg(const Plot& plot) {
    return std::visit([](const auto& p) { return render(p); }, plot);
}

}  // namespace flowcert::cert
