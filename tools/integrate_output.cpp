// tools/integrate_output.cpp -- results, tubes and reports of `flowcert integrate`.
#include "integrate_output.hpp"

#include <nlohmann/json.hpp>

#include <mpfr.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace flowcert::tools {

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
void write_file(const std::string& path, const std::string& text) {
    std::ofstream f(path, std::ios::binary);
    if (!f) throw OutputError("cannot write " + path);
    f << text;
    if (!f) throw OutputError("cannot write " + path);
}

namespace {
std::string hex(double x) {
    char b[40];
    std::snprintf(b, sizeof b, "%a", x);
    return b;
}
std::string hex(mpfr_srcptr x) {
    char* s = nullptr;
    mpfr_asprintf(&s, "%Ra", x);
    std::string out(s);
    mpfr_free_str(s);
    return out;
}
}  // namespace

std::string hex_lower(const IntervalD& x) { return hex(x.lower()); }
std::string hex_upper(const IntervalD& x) { return hex(x.upper()); }
std::string hex_lower(const IntervalMp& x) { return hex(&x.get()->left); }
std::string hex_upper(const IntervalMp& x) { return hex(&x.get()->right); }

namespace {

template <Interval I> int digits_of(long bits) {
    return std::is_same_v<I, IntervalD> ? 17 : static_cast<int>(std::ceil(bits * 0.30103)) + 2;
}

// The user's variables (the time variable hidden) and their indices in the state.
template <Interval I> std::vector<int> shown(const Run<I>& run) {
    std::vector<int> v;
    for (int i = 0; i < run.shown_states; ++i)
        if (i != run.time_variable) v.push_back(i);
    return v;
}

// A time of the integration (s) as the user's time t (t = -s backward).
template <Interval I> I user_time(const Run<I>& run, const I& s) { return run.backward ? -s : s; }

template <Interval I> nlohmann::json box_json(const Run<I>& run, const std::vector<I>& box) {
    const int d = digits_of<I>(run.bits);
    nlohmann::json a = nlohmann::json::array();
    for (int i : shown(run))
        a.push_back({{"lo", lower_string(box[i], d)}, {"hi", upper_string(box[i], d)}});
    return a;
}

template <Interval I> double max_width(const Run<I>& run, const std::vector<I>& box) {
    double w = 0;
    for (int i : shown(run)) w = std::max(w, width(box[i]));
    return w;
}

template <Interval I> std::string status_text(const Run<I>& run) {
    const auto& res = *run.result;
    return res.ok() ? std::string("ok") : std::string(ode::to_string(res.status));
}
template <Interval I> std::string reason_text(const Run<I>& run) {
    const auto& res = *run.result;
    if (res.status == ode::Status::step_limit || res.status == ode::Status::time_limit)
        return "INCONCLUSIVE: " + res.reason + " (raise --max-steps / --max-seconds)";
    return res.reason;
}

template <Interval I> std::vector<std::string> names(const Run<I>& run) {
    std::vector<std::string> v;
    for (int i : shown(run)) v.push_back(run.field->variables()[i]);
    return v;
}

}  // namespace

template <Interval I> std::string json_result(const Run<I>& run) {
    const auto& res = *run.result;
    const int d = digits_of<I>(run.bits);
    const I t = user_time(run, res.time);
    nlohmann::json j;
    j["status"] = status_text(run);
    j["reason"] = reason_text(run);
    j["time"] = res.ok() ? run.time_text : lower_string(t, d);
    j["time_enclosure"] = {{"lo", lower_string(t, d)}, {"hi", upper_string(t, d)}};
    j["steps"] = res.steps;
    j["variables"] = names(run);
    j["order"] = run.order;
    j["precision"] = run.bits;
    j["final"] = box_json(run, res.final_box);
    j["max_width"] = max_width(run, res.final_box);
    auto events = [&](const std::vector<ode::SwitchEvent<I>>& list) {
        nlohmann::json ev = nlohmann::json::array();
        for (const auto& e : list) {
            const I a = user_time(run, e.t0), b = user_time(run, e.t1);
            const I lo = run.backward ? b : a, hi = run.backward ? a : b;
            ev.push_back({{"kind", ode::to_string(e.kind)},
                          {"expression", run.field->to_text(e.argument)},
                          {"direction", run.backward ? -e.direction : e.direction},
                          {"time", {{"lo", lower_string(lo, d)}, {"hi", upper_string(hi, d)}}}});
        }
        return ev;
    };
    nlohmann::json o = nlohmann::json::array();
    // an output's events: those of the copy of the set integrated to an output time that may be
    // the final time (the run's own are in "events")
    for (std::size_t k = 0; k < res.outputs.size(); ++k)
        o.push_back({{"time", run.output_times[k]},
                     {"box", box_json(run, res.outputs[k].box)},
                     {"events", events(res.outputs[k].events)}});
    j["outputs"] = o;
    j["events"] = events(res.events);
    if (!res.ok()) j["offending_set"] = box_json(run, res.offending_set.empty() ? res.final_box : res.offending_set);
    j["wall_seconds"] = run.wall_seconds;
    return j.dump() + "\n";
}

template <Interval I> std::string text_result(const Run<I>& run) {
    const auto& res = *run.result;
    const int d = digits_of<I>(run.bits);
    const auto idx = shown(run);
    std::ostringstream s;
    s << "status: " << status_text(run) << "\n";
    if (!res.ok()) s << "reason: " << reason_text(run) << "\n";
    s << "time: " << (res.ok() ? run.time_text : to_string(user_time(run, res.time), d)) << "\n";
    s << "steps: " << res.steps << "\n";
    auto event_line = [&](const ode::SwitchEvent<I>& e) {
        const I a = user_time(run, e.t0), b = user_time(run, e.t1);
        const int dir = run.backward ? -e.direction : e.direction;  // in the user's time
        s << "event: " << ode::to_string(e.kind) << " of " << run.field->to_text(e.argument) << " = 0"
          << (dir > 0 ? " (upward)" : dir < 0 ? " (downward)" : "") << " for t in ["
          << format_g(lower(run.backward ? b : a)) << ", " << format_g(upper(run.backward ? a : b)) << "]\n";
    };
    for (const auto& e : res.events) event_line(e);
    for (std::size_t k = 0; k < res.outputs.size(); ++k) {
        s << "at t = " << run.output_times[k] << ":\n";
        for (int i : idx) s << "  " << run.field->variables()[i] << " in " << to_string(res.outputs[k].box[i], d) << "\n";
        for (const auto& e : res.outputs[k].events) {  // of the copy integrated to this output time
            s << "  ";
            event_line(e);
        }
    }
    s << (res.ok() ? "final:\n" : "last enclosure:\n");
    for (int i : idx) s << "  " << run.field->variables()[i] << " in " << to_string(res.final_box[i], d) << "\n";
    if (!res.ok() && !res.offending_set.empty()) {
        s << "offending set:\n";
        for (int i : idx) s << "  " << run.field->variables()[i] << " in " << to_string(res.offending_set[i], d) << "\n";
    }
    s << "max width: " << format_g(max_width(run, res.final_box)) << "\n";
    return s.str();
}

namespace {
// The tube pieces in the user's time, ordered by time.
template <Interval I> struct Piece {
    I t0, t1;
    const std::vector<I>* box;
};
template <Interval I> std::vector<Piece<I>> pieces(const Run<I>& run) {
    std::vector<Piece<I>> v;
    for (const auto& p : run.result->tube) {
        if (run.backward) v.push_back({-p.t1, -p.t0, &p.box});
        else v.push_back({p.t0, p.t1, &p.box});
    }
    std::stable_sort(v.begin(), v.end(), [](const Piece<I>& a, const Piece<I>& b) { return lower(a.t0) < lower(b.t0); });
    return v;
}
}  // namespace

template <Interval I> std::string tube_csv(const Run<I>& run) {
    std::ostringstream s;
    s << "# flowcert integrate tube: for every t in [t_lo, t_hi] and every initial value, x(t) lies in the box;\n"
      << "# endpoints are exact C99 hexadecimal floats (strtod reads them exactly). formula: " << run.formula << "\n";
    s << "t_lo,t_hi";
    for (const auto& n : names(run)) s << "," << n << "_lo," << n << "_hi";
    s << "\n";
    for (const auto& p : pieces(run)) {
        s << hex_lower(p.t0) << "," << hex_upper(p.t1);
        for (int i : shown(run)) s << "," << hex_lower((*p.box)[i]) << "," << hex_upper((*p.box)[i]);
        s << "\n";
    }
    return s.str();
}

template <Interval I> std::string tube_json(const Run<I>& run) {
    nlohmann::json j;
    j["meaning"] = "for every t in [t.lo, t.hi] and every initial value, x(t) lies in the box; endpoints are exact "
                   "C99 hexadecimal floats";
    j["formula"] = run.formula;
    j["variables"] = names(run);
    j["precision"] = run.bits;
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& p : pieces(run)) {
        nlohmann::json b = nlohmann::json::array();
        for (int i : shown(run)) b.push_back({{"lo", hex_lower((*p.box)[i])}, {"hi", hex_upper((*p.box)[i])}});
        steps.push_back({{"t", {{"lo", hex_lower(p.t0)}, {"hi", hex_upper(p.t1)}}}, {"box", b}});
    }
    j["steps"] = steps;
    return j.dump(1) + "\n";
}

namespace {

std::string esc(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (c == '<') o += "&lt;";
        else if (c == '>') o += "&gt;";
        else if (c == '&') o += "&amp;";
        else if (c == '"') o += "&quot;";
        else o += c;
    }
    return o;
}

// An SVG of rectangles [x0,x1] x [y0,y1] (display doubles), with axes, ticks and labels.
struct Rects {
    std::string title, x_label, y_label;
    std::vector<std::array<double, 4>> r;
};
std::string svg(const Rects& p) {
    const double W = 660, H = 360, L = 90, R = 20, T = 30, B = 50;
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (const auto& q : p.r)
        if (std::isfinite(q[0] + q[1] + q[2] + q[3])) {
            x0 = std::min(x0, q[0]), x1 = std::max(x1, q[1]), y0 = std::min(y0, q[2]), y1 = std::max(y1, q[3]);
        }
    if (!(x0 <= x1)) x0 = 0, x1 = 1;
    if (!(y0 <= y1)) y0 = 0, y1 = 1;
    if (x1 - x0 <= 0) x0 -= 0.5, x1 += 0.5;
    if (y1 - y0 <= 0) y0 -= 0.5 * std::max(1.0, std::fabs(y0)) * 1e-9 + 0.5e-300, y1 = 2 * y1 - y0;
    const double pad = 0.04 * (y1 - y0);
    y0 -= pad, y1 += pad;
    auto X = [&](double x) { return L + (x - x0) / (x1 - x0) * (W - L - R); };
    auto Y = [&](double y) { return H - B - (y - y0) / (y1 - y0) * (H - T - B); };
    std::ostringstream s;
    s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H << "\" viewBox=\"0 0 " << W
      << " " << H << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    s << "<text x=\"" << W / 2 << "\" y=\"18\" text-anchor=\"middle\" font-size=\"14\">" << esc(p.title) << "</text>\n";
    s << "<rect x=\"" << L << "\" y=\"" << T << "\" width=\"" << W - L - R << "\" height=\"" << H - T - B
      << "\" fill=\"none\" stroke=\"#444\"/>\n";
    for (int k = 0; k <= 4; ++k) {
        const double xv = x0 + (x1 - x0) * k / 4, yv = y0 + (y1 - y0) * k / 4;
        s << "<text x=\"" << X(xv) << "\" y=\"" << H - B + 16 << "\" text-anchor=\"middle\">" << format_g(xv) << "</text>\n";
        s << "<text x=\"" << L - 4 << "\" y=\"" << Y(yv) + 4 << "\" text-anchor=\"end\">" << format_g(yv) << "</text>\n";
    }
    s << "<text x=\"" << (L + W - R) / 2 << "\" y=\"" << H - 10 << "\" text-anchor=\"middle\">" << esc(p.x_label)
      << "</text>\n";
    s << "<text x=\"14\" y=\"" << (T + H - B) / 2 << "\" text-anchor=\"middle\" transform=\"rotate(-90 14 "
      << (T + H - B) / 2 << ")\">" << esc(p.y_label) << "</text>\n";
    s << "<g fill=\"#3b78c4\" fill-opacity=\"0.35\" stroke=\"#1f4f8f\" stroke-width=\"0.6\">\n";
    for (const auto& q : p.r) {
        if (!std::isfinite(q[0] + q[1] + q[2] + q[3])) continue;
        const double w = std::max(0.6, X(q[1]) - X(q[0])), h = std::max(0.6, Y(q[2]) - Y(q[3]));
        s << "<rect x=\"" << X(q[0]) << "\" y=\"" << Y(q[3]) << "\" width=\"" << w << "\" height=\"" << h << "\"/>\n";
    }
    s << "</g>\n</svg>\n";
    return s.str();
}

template <Interval I> std::vector<std::pair<std::string, std::string>> plots(const Run<I>& run) {
    std::vector<std::pair<std::string, std::string>> out;  // (name, svg)
    const auto ps = pieces(run);
    const auto idx = shown(run);
    for (int i : idx) {
        Rects r{"tube of " + run.field->variables()[i], "t", run.field->variables()[i], {}};
        for (const auto& p : ps) r.r.push_back({lower(p.t0), upper(p.t1), lower((*p.box)[i]), upper((*p.box)[i])});
        out.emplace_back(run.field->variables()[i], svg(r));
    }
    if (idx.size() >= 2) {
        const int a = idx[0], b = idx[1];
        const auto& va = run.field->variables()[a];
        const auto& vb = run.field->variables()[b];
        Rects r{"phase plane " + va + ", " + vb, va, vb, {}};
        for (const auto& p : ps)
            r.r.push_back({lower((*p.box)[a]), upper((*p.box)[a]), lower((*p.box)[b]), upper((*p.box)[b])});
        out.emplace_back("phase_" + va + "_" + vb, svg(r));
    }
    return out;
}

// The run's switching events and those of the copies integrated to an output time (Snapshot::events),
// each with what it belongs to ("the run" or "the copy to t = ...").
template <Interval I>
std::vector<std::pair<const ode::SwitchEvent<I>*, std::string>> all_events(const Run<I>& run) {
    const auto& res = *run.result;
    std::vector<std::pair<const ode::SwitchEvent<I>*, std::string>> out;
    for (const auto& e : res.events) out.emplace_back(&e, "the run");
    for (std::size_t k = 0; k < res.outputs.size(); ++k)
        for (const auto& e : res.outputs[k].events) out.emplace_back(&e, "the copy to t = " + run.output_times[k]);
    return out;
}

template <Interval I> std::string summary_markdown(const Run<I>& run) {
    const auto& res = *run.result;
    const int d = digits_of<I>(run.bits);
    std::ostringstream s;
    s << "- formula: `" << run.formula << "`\n- final time: " << run.time_text << (run.backward ? " (backward)" : "")
      << "\n- status: **" << status_text(run) << "**" << (res.ok() ? "" : ": " + reason_text(run)) << "\n- steps: "
      << res.steps << ", precision " << run.bits << " bits, " << format_g(run.wall_seconds) << " s\n";
    s << "\n| variable | enclosure at the " << (res.ok() ? "final" : "last") << " time | width |\n|---|---|---|\n";
    for (int i : shown(run))
        s << "| " << run.field->variables()[i] << " | " << to_string(res.final_box[i], d) << " | "
          << format_g(width(res.final_box[i])) << " |\n";
    const auto events = all_events(run);
    if (!events.empty()) {
        s << "\n| switching event | expression | time enclosure | of |\n|---|---|---|---|\n";
        for (const auto& [e, of] : events) {
            const I a = user_time(run, e->t0), b = user_time(run, e->t1);
            s << "| " << ode::to_string(e->kind) << " | `" << run.field->to_text(e->argument) << "` | ["
              << format_g(lower(run.backward ? b : a)) << ", " << format_g(upper(run.backward ? a : b)) << "] | " << of << " |\n";
        }
    }
    s << "\nEach rectangle of a plot is one step enclosure: for every t in its time span and every initial value, "
         "x(t) lies in it.\n";
    return s.str();
}

}  // namespace

template <Interval I> std::string report_markdown(const Run<I>& run) {
    // the plots are inline SVG (HTML inside Markdown), which common renderers display
    std::ostringstream s;
    s << "# flowcert integrate\n\n" << summary_markdown(run) << "\n";
    for (const auto& [name, svgtext] : plots(run)) s << "\n## " << name << "\n\n" << svgtext << "\n";
    return s.str();
}

template <Interval I> std::string report_html(const Run<I>& run) {
    const auto& res = *run.result;
    const int d = digits_of<I>(run.bits);
    std::ostringstream s;
    s << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>flowcert integrate</title>\n"
      << "<style>body{font-family:sans-serif;max-width:60em;margin:1em auto}table{border-collapse:collapse}"
         "td,th{border:1px solid #ccc;padding:2px 6px}code{background:#eee}</style></head><body>\n"
      << "<h1>flowcert integrate</h1>\n<ul><li>formula: <code>" << esc(run.formula) << "</code></li><li>final time: "
      << esc(run.time_text) << (run.backward ? " (backward)" : "") << "</li><li>status: <b>" << esc(status_text(run))
      << "</b>" << (res.ok() ? "" : ": " + esc(reason_text(run))) << "</li><li>steps: " << res.steps << ", precision "
      << run.bits << " bits, " << format_g(run.wall_seconds) << " s</li></ul>\n";
    s << "<table><tr><th>variable</th><th>enclosure at the " << (res.ok() ? "final" : "last")
      << " time</th><th>width</th></tr>\n";
    for (int i : shown(run))
        s << "<tr><td>" << esc(run.field->variables()[i]) << "</td><td><code>" << esc(to_string(res.final_box[i], d))
          << "</code></td><td>" << format_g(width(res.final_box[i])) << "</td></tr>\n";
    s << "</table>\n";
    const auto events = all_events(run);
    if (!events.empty()) {
        s << "<h2>switching events</h2>\n<table><tr><th>kind</th><th>expression</th><th>time enclosure</th><th>of</th></tr>\n";
        for (const auto& [e, of] : events) {
            const I a = user_time(run, e->t0), b = user_time(run, e->t1);
            s << "<tr><td>" << ode::to_string(e->kind) << "</td><td><code>" << esc(run.field->to_text(e->argument))
              << " = 0</code></td><td>[" << format_g(lower(run.backward ? b : a)) << ", "
              << format_g(upper(run.backward ? a : b)) << "]</td><td>" << esc(of) << "</td></tr>\n";
        }
        s << "</table>\n";
    }
    s << "<p>Each rectangle of a plot is one step enclosure: for every t in its time span and every initial value, "
         "x(t) lies in it.</p>\n";
    for (const auto& [name, svgtext] : plots(run)) s << "<h2>" << esc(name) << "</h2>\n" << svgtext;
    s << "</body></html>\n";
    return s.str();
}

#define FLOWCERT_INTEGRATE_OUTPUT(I)                              \
    template std::string text_result(const Run<I>&);              \
    template std::string json_result(const Run<I>&);              \
    template std::string tube_csv(const Run<I>&);                 \
    template std::string tube_json(const Run<I>&);                \
    template std::string report_html(const Run<I>&);              \
    template std::string report_markdown(const Run<I>&);
FLOWCERT_INTEGRATE_OUTPUT(IntervalD)
FLOWCERT_INTEGRATE_OUTPUT(IntervalMp)

}  // namespace flowcert::tools
