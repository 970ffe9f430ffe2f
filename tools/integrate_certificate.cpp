// tools/integrate_certificate.cpp -- writing and reading integration certificates (see
// integrate_certificate.hpp).
#include "integrate_certificate.hpp"

#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <type_traits>

namespace flowcert::tools {

namespace {

using nlohmann::json;

template <Interval I> json hex_interval(const I& x) { return json::array({hex_lower(x), hex_upper(x)}); }
template <Interval I> json hex_points(const std::vector<I>& v) {
    json a = json::array();
    for (const auto& x : v) a.push_back(hex_lower(x));
    return a;
}
template <Interval I> json hex_box(const std::vector<I>& v) {
    json a = json::array();
    for (const auto& x : v) a.push_back(hex_interval(x));
    return a;
}

// Thrown with the path of the field that is not well formed.
struct Malformed : std::runtime_error {
    using std::runtime_error::runtime_error;
};

const json& field(const json& j, const std::string& key, const std::string& where) {
    if (!j.is_object() || !j.contains(key)) throw Malformed(where + key + ": missing");
    return j[key];
}

// A number of the certificate, read exactly at `bits` into an MPFR number: a finite hexadecimal
// (or decimal) float that `bits` bits represent without rounding; anything else is malformed.
class ExactNumber {
public:
    explicit ExactNumber(long bits) { mpfr_init2(v_, bits); }
    ~ExactNumber() { mpfr_clear(v_); }
    ExactNumber(const ExactNumber&) = delete;
    ExactNumber& operator=(const ExactNumber&) = delete;
    mpfr_srcptr read(const json& j, const std::string& where) {
        if (!j.is_string()) throw Malformed(where + ": expected a hexadecimal float string");
        const std::string s = j.get<std::string>();
        char* end = nullptr;
        const int inexact = s.empty() ? 1 : mpfr_strtofr(v_, s.c_str(), &end, 0, MPFR_RNDN);
        if (s.empty() || end != s.c_str() + s.size() || !mpfr_number_p(v_))
            throw Malformed(where + ": '" + s + "' is not a finite number");
        if (inexact != 0)
            throw Malformed(where + ": '" + s + "' is not exact at " + std::to_string(mpfr_get_prec(v_)) + " bits");
        return v_;
    }

private:
    mpfr_t v_;
};

template <Interval I> class Reader {
public:
    explicit Reader(long bits) : bits_(bits), lo_(bits), hi_(bits) {}
    I point(const json& j, const std::string& where) { return interval(j, j, where, where); }
    I interval(const json& j, const std::string& where) {
        if (!j.is_array() || j.size() != 2) throw Malformed(where + ": expected [lo, hi]");
        return interval(j[0], j[1], where + "[0]", where + "[1]");
    }
    std::vector<I> box(const json& j, const std::string& where, std::size_t n) {
        if (!j.is_array() || j.size() != n) throw Malformed(where + ": expected " + std::to_string(n) + " intervals");
        std::vector<I> out;
        for (std::size_t i = 0; i < n; ++i) out.push_back(interval(j[i], where + "[" + std::to_string(i) + "]"));
        return out;
    }
    std::vector<I> points(const json& j, const std::string& where, std::size_t n) {
        if (!j.is_array() || j.size() != n) throw Malformed(where + ": expected " + std::to_string(n) + " numbers");
        std::vector<I> out;
        for (std::size_t i = 0; i < n; ++i) out.push_back(point(j[i], where + "[" + std::to_string(i) + "]"));
        return out;
    }

private:
    I interval(const json& a, const json& b, const std::string& wa, const std::string& wb) {
        mpfr_srcptr lo = lo_.read(a, wa), hi = hi_.read(b, wb);
        if (mpfr_cmp(lo, hi) > 0) throw Malformed(wa + ": lo > hi");
        if constexpr (std::is_same_v<I, IntervalD>) {
            const double l = mpfr_get_d(lo, MPFR_RNDN), h = mpfr_get_d(hi, MPFR_RNDN);
            if (!std::isfinite(l) || !std::isfinite(h) || mpfr_cmp_d(lo, l) != 0 || mpfr_cmp_d(hi, h) != 0)
                throw Malformed(wa + ": not a double (beyond the double range, or subnormal rounding)");
            return IntervalD::bounds(l, h);
        } else {
            return IntervalMp::from_mpfr(lo, hi, Precision(bits_));
        }
    }
    long bits_;
    ExactNumber lo_, hi_;
};

// A field that is one of two words: false for `first`, true for `second`.
bool is_second(const json& j, const std::string& where, const char* first, const char* second) {
    if (j == first) return false;
    if (j == second) return true;
    throw Malformed(where + ": expected \"" + first + "\" or \"" + second + "\"");
}

int read_int(const json& j, const std::string& where, int lo, int hi) {
    if (!j.is_number_integer()) throw Malformed(where + ": expected an integer");
    const long long v = j.get<long long>();
    if (v < lo || v > hi) throw Malformed(where + ": out of range");
    return static_cast<int>(v);
}
std::vector<std::string> read_strings(const json& j, const std::string& where) {
    if (!j.is_array()) throw Malformed(where + ": expected an array of strings");
    std::vector<std::string> out;
    for (const auto& s : j) {
        if (!s.is_string()) throw Malformed(where + ": expected an array of strings");
        out.push_back(s.get<std::string>());
    }
    return out;
}

// Events in the user's time (t = -s backward), as the JSON result shows them.
template <Interval I> json events_json(const Run<I>& run, const std::vector<ode::SwitchEvent<I>>& list) {
    json ev = json::array();
    for (const auto& e : list) {
        const I lo = run.backward ? -e.t1 : e.t0, hi = run.backward ? -e.t0 : e.t1;
        ev.push_back({{"kind", ode::to_string(e.kind)},
                      {"relu", e.relu},
                      {"expression", run.field->to_text(e.argument)},
                      {"direction", run.backward ? -e.direction : e.direction},
                      {"before", e.before},
                      {"after", e.after},
                      {"time", json::array({hex_lower(lo), hex_upper(hi)})}});
    }
    return ev;
}

}  // namespace

template <Interval I>
std::string integrate_certificate(const Run<I>& run, const std::vector<std::string>& arguments, bool tube) {
    const auto& res = *run.result;
    json steps = json::array();
    for (const auto& r : res.records) {
        json s = {{"kind", ode::to_string(r.kind)}, {"from", r.from}, {"stop", r.stop},
                  {"h", r.stop < 0 ? json(hex_lower(r.h)) : json(nullptr)}, {"apriori", hex_box(r.apriori)},
                  {"centre", hex_points(r.centre)}};
        if (r.kind == ode::StepKind::smooth) {
            s["centre_dd"] = r.centre_dd;
            s["C"] = hex_points(r.C);
            s["B"] = hex_points(r.B);
        }
        if (tube) {
            json pieces = json::array();
            for (std::size_t k = r.tube_begin; k < r.tube_end; ++k)
                pieces.push_back({{"t", json::array({hex_lower(res.tube[k].t0), hex_upper(res.tube[k].t1)})},
                                  {"box", hex_box(res.tube[k].box)}});
            s["tube"] = std::move(pieces);
        }
        steps.push_back(std::move(s));
    }
    json outputs = json::array(), records = json::array();
    for (std::size_t k = 0; k < res.outputs.size(); ++k) {
        outputs.push_back({{"time", run.output_times[k]},
                           {"box", hex_box(res.outputs[k].box)},
                           {"events", events_json(run, res.outputs[k].events)}});
        records.push_back(res.outputs[k].record);
    }
    const json j = {
        {"format", kIntegrateCertificateFormat},
        {"format_version", kIntegrateCertificateVersion},
        {"arguments", arguments},
        {"variables", run.field->variables()},
        {"claim",
         {{"time", run.time_text}, {"final", hex_box(res.final_box)}, {"outputs", outputs}, {"events", events_json(run, res.events)},
          {"tube", tube}}},
        {"steps", steps},
        {"output_records", records},
        {"final_record", res.final_record},
        {"statistics", {{"steps", res.steps}, {"hull_steps", res.hull_steps}, {"wall_seconds", run.wall_seconds}}},
    };
    return j.dump(1) + "\n";
}

bool read_certificate_arguments(const json& j, std::vector<std::string>& arguments, std::string& problem) {
    try {
        if (!j.is_object() || j.value("format", "") != kIntegrateCertificateFormat)
            throw Malformed(std::string("format: not \"") + kIntegrateCertificateFormat + "\"");
        if (read_int(field(j, "format_version", ""), "format_version", 0, 1000) != kIntegrateCertificateVersion)
            throw Malformed("format_version: only version " + std::to_string(kIntegrateCertificateVersion) +
                            " is known (version 1 claimed no switching events)");
        arguments = read_strings(field(j, "arguments", ""), "arguments");
    } catch (const std::exception& e) {
        problem = e.what();
        return false;
    }
    return true;
}

template <Interval I>
bool read_integrate_certificate(const json& j, const taylor::VectorField& f, bool backward, long bits,
                                IntegrateClaim<I>& c, std::string& problem) {
    try {
        if (!read_certificate_arguments(j, c.arguments, problem)) return false;
        Reader<I> rd(bits);
        c.variables = read_strings(field(j, "variables", ""), "variables");
        const std::size_t n = c.variables.size();
        const json& claim = field(j, "claim", "");
        if (!field(claim, "time", "claim.").is_string()) throw Malformed("claim.time: expected a string");
        c.time = claim["time"].get<std::string>();
        c.final_box = rd.box(field(claim, "final", "claim."), "claim.final", n);
        const json& outs = field(claim, "outputs", "claim.");
        if (!outs.is_array()) throw Malformed("claim.outputs: expected an array");
        for (std::size_t k = 0; k < outs.size(); ++k) {
            const std::string w = "claim.outputs[" + std::to_string(k) + "].";
            if (!field(outs[k], "time", w).is_string()) throw Malformed(w + "time: expected a string");
            c.output_times.push_back(outs[k]["time"].get<std::string>());
            c.outputs.push_back(rd.box(field(outs[k], "box", w), w + "box", n));
        }
        const json& tube = field(claim, "tube", "claim.");
        if (!tube.is_boolean()) throw Malformed("claim.tube: expected true or false");
        c.has_tube = tube.get<bool>();
        const json& steps = field(j, "steps", "");
        if (!steps.is_array()) throw Malformed("steps: expected an array");
        const int count = static_cast<int>(steps.size());
        const int nodes = static_cast<int>(f.nodes().size());
        auto read_events = [&](const json& evs, const std::string& list, std::vector<ode::SwitchEvent<I>>& into) {
            if (!evs.is_array()) throw Malformed(list + ": expected an array");
            for (std::size_t k = 0; k < evs.size(); ++k) {
                const json& e = evs[k];
                const std::string w = list + "[" + std::to_string(k) + "].";
                ode::SwitchEvent<I> ev;
                ev.kind = is_second(field(e, "kind", w), w + "kind", "crossing", "contact") ? ode::EventKind::contact
                                                                                             : ode::EventKind::crossing;
                ev.relu = read_int(field(e, "relu", w), w + "relu", 0, nodes - 1);
                const json& expr = field(e, "expression", w);
                if (!expr.is_string()) throw Malformed(w + "expression: expected a string");
                // the argument the event names: the relu's own argument when the text is its text
                const int arg = f.nodes()[ev.relu].op == taylor::Op::Relu ? f.nodes()[ev.relu].a : -1;
                ev.argument = arg >= 0 && f.to_text(arg) == expr.get<std::string>() ? arg : -1;
                const int dir = read_int(field(e, "direction", w), w + "direction", -1, 1);
                ev.before = read_int(field(e, "before", w), w + "before", -1, count - 1);
                ev.after = read_int(field(e, "after", w), w + "after", -1, count - 1);
                const I t = rd.interval(field(e, "time", w), w + "time");
                // stored in the user's time; the records are in the integration time s = -t backward
                ev.t0 = ev.t1 = backward ? -t : t;
                ev.direction = backward ? -dir : dir;
                into.push_back(std::move(ev));
            }
        };
        read_events(field(claim, "events", "claim."), "claim.events", c.events);
        // an output's own events (format 2 certificates written before they were listed have
        // none: an output integrated on a copy of the set then fails the check if its chain
        // straddles a kink)
        c.output_events.resize(outs.size());
        for (std::size_t k = 0; k < outs.size(); ++k)
            if (outs[k].contains("events"))
                read_events(outs[k]["events"], "claim.outputs[" + std::to_string(k) + "].events", c.output_events[k]);
        for (int i = 0; i < count; ++i) {
            const json& s = steps[i];
            const std::string w = "steps[" + std::to_string(i) + "].";
            ode::StepRecord<I> r;
            r.kind = is_second(field(s, "kind", w), w + "kind", "smooth", "hull") ? ode::StepKind::hull
                                                                                   : ode::StepKind::smooth;
            r.from = read_int(field(s, "from", w), w + "from", -1, i - 1);
            r.stop = read_int(field(s, "stop", w), w + "stop", -1, static_cast<int>(outs.size()));
            if (r.stop < 0) r.h = rd.point(field(s, "h", w), w + "h");
            r.apriori = rd.box(field(s, "apriori", w), w + "apriori", n);
            r.centre = rd.points(field(s, "centre", w), w + "centre", n);
            if (r.kind == ode::StepKind::smooth) {
                const json& dd = field(s, "centre_dd", w);
                if (!dd.is_boolean()) throw Malformed(w + "centre_dd: expected true or false");
                r.centre_dd = dd.get<bool>();
                r.C = rd.points(field(s, "C", w), w + "C", n * n);
                r.B = rd.points(field(s, "B", w), w + "B", n * n);
            }
            if (c.has_tube) {
                const json& pieces = field(s, "tube", w);
                if (!pieces.is_array()) throw Malformed(w + "tube: expected an array");
                std::vector<ode::TubePiece<I>> tp;
                for (std::size_t k = 0; k < pieces.size(); ++k) {
                    const std::string wp = w + "tube[" + std::to_string(k) + "].";
                    const I t = rd.interval(field(pieces[k], "t", wp), wp + "t");
                    tp.push_back({t, t, rd.box(field(pieces[k], "box", wp), wp + "box", n)});
                }
                c.tube.push_back(std::move(tp));
            }
            c.records.push_back(std::move(r));
        }
        const json& orec = field(j, "output_records", "");
        if (!orec.is_array() || orec.size() != outs.size())
            throw Malformed("output_records: expected one record per output");
        for (std::size_t k = 0; k < orec.size(); ++k)
            c.output_records.push_back(read_int(orec[k], "output_records[" + std::to_string(k) + "]", -1, count - 1));
        c.final_record = read_int(field(j, "final_record", ""), "final_record", -1, count - 1);
    } catch (const Malformed& e) {
        problem = e.what();
        return false;
    } catch (const std::exception& e) {  // a JSON type error
        problem = std::string("not well formed: ") + e.what();
        return false;
    }
    return true;
}

#define FLOWCERT_INTEGRATE_CERTIFICATE(I)                                                                        \
    template std::string integrate_certificate(const Run<I>&, const std::vector<std::string>&, bool);            \
    template bool read_integrate_certificate(const json&, const taylor::VectorField&, bool, long, IntegrateClaim<I>&, \
                                             std::string&);
FLOWCERT_INTEGRATE_CERTIFICATE(IntervalD)
FLOWCERT_INTEGRATE_CERTIFICATE(IntervalMp)
#undef FLOWCERT_INTEGRATE_CERTIFICATE

}  // namespace flowcert::tools
