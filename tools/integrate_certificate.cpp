// tools/integrate_certificate.cpp -- writing and reading integration certificates (see
// integrate_certificate.hpp).
#include "integrate_certificate.hpp"

#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace flowcert::tools {

namespace {

using nlohmann::json;

json hex_interval(const IntervalD& x) { return json::array({hex_lower(x), hex_upper(x)}); }
json hex_points(const std::vector<IntervalD>& v) {
    json a = json::array();
    for (const auto& x : v) a.push_back(hex_lower(x));
    return a;
}
json hex_box(const std::vector<IntervalD>& v) {
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
double read_double(const json& j, const std::string& where) {
    if (!j.is_string()) throw Malformed(where + ": expected a hexadecimal float string");
    const std::string s = j.get<std::string>();
    char* end = nullptr;
    const double x = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(x))
        throw Malformed(where + ": '" + s + "' is not a finite number");
    return x;
}
IntervalD read_interval(const json& j, const std::string& where) {
    if (!j.is_array() || j.size() != 2) throw Malformed(where + ": expected [lo, hi]");
    const double lo = read_double(j[0], where + "[0]"), hi = read_double(j[1], where + "[1]");
    if (!(lo <= hi)) throw Malformed(where + ": lo > hi");
    return IntervalD::bounds(lo, hi);
}
std::vector<IntervalD> read_box(const json& j, const std::string& where, std::size_t n) {
    if (!j.is_array() || j.size() != n) throw Malformed(where + ": expected " + std::to_string(n) + " intervals");
    std::vector<IntervalD> out;
    for (std::size_t i = 0; i < n; ++i) out.push_back(read_interval(j[i], where + "[" + std::to_string(i) + "]"));
    return out;
}
std::vector<IntervalD> read_points(const json& j, const std::string& where, std::size_t n) {
    if (!j.is_array() || j.size() != n) throw Malformed(where + ": expected " + std::to_string(n) + " numbers");
    std::vector<IntervalD> out;
    for (std::size_t i = 0; i < n; ++i)
        out.push_back(IntervalD::exact(read_double(j[i], where + "[" + std::to_string(i) + "]")));
    return out;
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

}  // namespace

std::string integrate_certificate(const Run<IntervalD>& run, const std::vector<std::string>& arguments) {
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
        steps.push_back(std::move(s));
    }
    json outputs = json::array(), records = json::array();
    for (std::size_t k = 0; k < res.outputs.size(); ++k) {
        outputs.push_back({{"time", run.output_times[k]}, {"box", hex_box(res.outputs[k].box)}});
        records.push_back(res.outputs[k].record);
    }
    const json j = {
        {"format", kIntegrateCertificateFormat},
        {"format_version", 1},
        {"arguments", arguments},
        {"variables", run.field->variables()},
        {"claim", {{"time", run.time_text}, {"final", hex_box(res.final_box)}, {"outputs", outputs}}},
        {"steps", steps},
        {"output_records", records},
        {"final_record", res.final_record},
        {"statistics", {{"steps", res.steps}, {"hull_steps", res.hull_steps}, {"wall_seconds", run.wall_seconds}}},
    };
    return j.dump(1) + "\n";
}

bool read_integrate_certificate(const json& j, IntegrateClaim& c, std::string& problem) {
    try {
        if (!j.is_object() || j.value("format", "") != kIntegrateCertificateFormat)
            throw Malformed(std::string("format: not \"") + kIntegrateCertificateFormat + "\"");
        if (read_int(field(j, "format_version", ""), "format_version", 0, 1000) != 1)
            throw Malformed("format_version: only version 1 is known");
        c.arguments = read_strings(field(j, "arguments", ""), "arguments");
        c.variables = read_strings(field(j, "variables", ""), "variables");
        const std::size_t n = c.variables.size();
        const json& claim = field(j, "claim", "");
        if (!field(claim, "time", "claim.").is_string()) throw Malformed("claim.time: expected a string");
        c.time = claim["time"].get<std::string>();
        c.final_box = read_box(field(claim, "final", "claim."), "claim.final", n);
        const json& outs = field(claim, "outputs", "claim.");
        if (!outs.is_array()) throw Malformed("claim.outputs: expected an array");
        for (std::size_t k = 0; k < outs.size(); ++k) {
            const std::string w = "claim.outputs[" + std::to_string(k) + "].";
            if (!field(outs[k], "time", w).is_string()) throw Malformed(w + "time: expected a string");
            c.output_times.push_back(outs[k]["time"].get<std::string>());
            c.outputs.push_back(read_box(field(outs[k], "box", w), w + "box", n));
        }
        const json& steps = field(j, "steps", "");
        if (!steps.is_array()) throw Malformed("steps: expected an array");
        const int count = static_cast<int>(steps.size());
        for (int i = 0; i < count; ++i) {
            const json& s = steps[i];
            const std::string w = "steps[" + std::to_string(i) + "].";
            ode::StepRecord<IntervalD> r;
            const json& kind = field(s, "kind", w);
            if (kind == "smooth") r.kind = ode::StepKind::smooth;
            else if (kind == "hull") r.kind = ode::StepKind::hull;
            else throw Malformed(w + "kind: expected \"smooth\" or \"hull\"");
            r.from = read_int(field(s, "from", w), w + "from", -1, i - 1);
            r.stop = read_int(field(s, "stop", w), w + "stop", -1, static_cast<int>(outs.size()));
            if (r.stop < 0) r.h = IntervalD::exact(read_double(field(s, "h", w), w + "h"));
            r.apriori = read_box(field(s, "apriori", w), w + "apriori", n);
            r.centre = read_points(field(s, "centre", w), w + "centre", n);
            if (r.kind == ode::StepKind::smooth) {
                const json& dd = field(s, "centre_dd", w);
                if (!dd.is_boolean()) throw Malformed(w + "centre_dd: expected true or false");
                r.centre_dd = dd.get<bool>();
                r.C = read_points(field(s, "C", w), w + "C", n * n);
                r.B = read_points(field(s, "B", w), w + "B", n * n);
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

}  // namespace flowcert::tools
