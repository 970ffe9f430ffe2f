// flowcert/ode/cli.cpp -- `flowcert integrate` (see cli.hpp).
#include <flowcert/ode.hpp>

#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include <chrono>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace flowcert::ode {
namespace {

const char* kUsage =
    "usage: flowcert integrate --formula \"var:x,y; par:a; fun:-a*y, a*x;\" [--param NAME=VALUE]...\n"
    "         --init V1,V2,... [--radius R] --time T [--order P] [--precision BITS]\n"
    "         [--output-times T1,T2,...] [--tolerance TOL] [--min-step H] [--jacobian-order Q] [--json]\n"
    "Numbers are exact decimals (0.1, 2.5e-3) or rationals (8/3).\n"
    "CASE.toml holds the same fields: formula, params = {s = \"10\"}, init = [\"1\", ...], radius, time, order,\n"
    "precision, output_times = [...] (numbers as strings or integers); options on the command line override it.\n"
    "Exit 0: enclosure reached T; 2: a step could not be validated; 3: bad input.\n";

struct BadInput : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::vector<std::string> split_commas(const std::string& s) {
    std::vector<std::string> out;
    std::string cur;
    for (char ch : s) {
        if (ch == ',') {
            out.push_back(cur);
            cur.clear();
        } else if (ch != ' ') {
            cur += ch;
        }
    }
    out.push_back(cur);
    return out;
}

struct Request {
    std::string formula;
    std::vector<std::pair<std::string, std::string>> params;
    std::vector<std::string> init;
    std::string radius = "0";
    std::string time;
    std::vector<std::string> output_times;
    int order = 20;
    long precision = 53;
    bool json = false;
    Options options;
};

int parse_int(const std::string& opt, const std::string& v, long lo, long hi) {
    std::size_t used = 0;
    long x = 0;
    try {
        x = std::stol(v, &used);
    } catch (const std::exception&) {
        throw BadInput(opt + " needs an integer, got '" + v + "'");
    }
    if (used != v.size()) throw BadInput(opt + " needs an integer, got '" + v + "'");
    if (x < lo || x > hi) throw BadInput(opt + " must be between " + std::to_string(lo) + " and " + std::to_string(hi));
    return static_cast<int>(x);
}

double parse_positive_double(const std::string& opt, const std::string& v) {
    if (!is_number(v)) throw BadInput(opt + " needs a number, got '" + v + "'");
    const IntervalD x = IntervalD::from_decimal(v);
    if (!certainly_positive(x)) throw BadInput(opt + " must be positive, got '" + v + "'");
    return upper(x);  // a step-control parameter only (not part of any enclosure)
}

// A TOML number field: a string (exact decimal/rational) or an integer; floats are refused
// because a TOML float has already been rounded.
std::string toml_number(const toml::node& n, const std::string& key) {
    if (auto s = n.value<std::string>()) {
        if (!is_number(*s)) throw BadInput("case file: " + key + ": not a number: '" + *s + "'");
        return *s;
    }
    if (n.is_integer()) return std::to_string(*n.value<long long>());
    throw BadInput("case file: " + key + ": write numbers as strings (\"0.1\") or integers; a TOML float is not exact");
}

void load_case(const std::string& path, Request& q, bool& have_formula, bool& have_init, bool& have_time) {
    toml::table t;
    try {
        t = toml::parse_file(path);
    } catch (const toml::parse_error& e) {
        throw BadInput("case file " + path + ": " + std::string(e.description()));
    }
    for (auto&& [k, node] : t) {
        const std::string key(k.str());
        if (key == "formula") {
            auto s = node.value<std::string>();
            if (!s) throw BadInput("case file: formula must be a string");
            q.formula = *s;
            have_formula = true;
        } else if (key == "params") {
            auto* tab = node.as_table();
            if (!tab) throw BadInput("case file: params must be a table name = value");
            for (auto&& [pk, pv] : *tab) q.params.emplace_back(std::string(pk.str()), toml_number(pv, "params"));
        } else if (key == "init" || key == "output_times") {
            auto* arr = node.as_array();
            if (!arr) throw BadInput("case file: " + key + " must be an array");
            std::vector<std::string> v;
            for (auto&& e : *arr) v.push_back(toml_number(e, key));
            (key == "init" ? q.init : q.output_times) = v;
            if (key == "init") have_init = true;
        } else if (key == "radius") {
            q.radius = toml_number(node, key);
        } else if (key == "time") {
            q.time = toml_number(node, key);
            have_time = true;
        } else if (key == "order") {
            q.order = parse_int("order", toml_number(node, key), 1, 200);
        } else if (key == "precision") {
            q.precision = parse_int("precision", toml_number(node, key), 53, 100000);
        } else {
            throw BadInput("case file: unknown key '" + key + "'");
        }
    }
}

Request parse_args(const std::vector<std::string>& args) {
    Request q;
    bool have_formula = false, have_init = false, have_time = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i].rfind("--", 0) == 0) {
            if (args[i].find('=') == std::string::npos && args[i] != "--json") ++i;  // skip its value
            continue;
        }
        load_case(args[i], q, have_formula, have_init, have_time);
    }
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string a = args[i], v;
        if (a.rfind("--", 0) != 0) continue;  // the case file, loaded above
        bool has_inline = false;
        if (a.rfind("--", 0) == 0) {
            if (auto eq = a.find('='); eq != std::string::npos) {
                v = a.substr(eq + 1);
                a = a.substr(0, eq);
                has_inline = true;
            }
        }
        auto value = [&]() -> std::string {
            if (has_inline) return v;
            if (i + 1 >= args.size()) throw BadInput(a + " needs a value");
            return args[++i];
        };
        if (a == "--json") {
            q.json = true;
        } else if (a == "--formula") {
            q.formula = value();
            have_formula = true;
        } else if (a == "--param") {
            const std::string pv = value();
            const auto eq = pv.find('=');
            if (eq == std::string::npos || eq == 0) throw BadInput("--param needs NAME=VALUE, got '" + pv + "'");
            const std::string val = pv.substr(eq + 1);
            if (!is_number(val)) throw BadInput("parameter '" + pv.substr(0, eq) + "': not a number: '" + val + "'");
            q.params.emplace_back(pv.substr(0, eq), val);
        } else if (a == "--init") {
            q.init = split_commas(value());
            for (const auto& s : q.init)
                if (!is_number(s)) throw BadInput("--init: not a number: '" + s + "'");
            have_init = true;
        } else if (a == "--radius") {
            q.radius = value();
            if (!is_number(q.radius)) throw BadInput("--radius: not a number: '" + q.radius + "'");
            if (certainly_negative(IntervalD::from_decimal(q.radius))) throw BadInput("--radius must not be negative");
        } else if (a == "--time") {
            q.time = value();
            if (!is_number(q.time)) throw BadInput("--time: not a number: '" + q.time + "'");
            if (!certainly_positive(IntervalD::from_decimal(q.time)) &&
                !certainly_positive(IntervalMp::from_decimal(q.time, Precision(4096))))
                throw BadInput("--time must be positive, got '" + q.time + "'");
            have_time = true;
        } else if (a == "--output-times") {
            q.output_times = split_commas(value());
            for (const auto& s : q.output_times)
                if (!is_number(s)) throw BadInput("--output-times: not a number: '" + s + "'");
        } else if (a == "--order") {
            q.order = parse_int(a, value(), 1, 200);
        } else if (a == "--precision") {
            q.precision = parse_int(a, value(), 53, 100000);
        } else if (a == "--tolerance") {
            q.options.tolerance = parse_positive_double(a, value());
        } else if (a == "--jacobian-order") {
            q.options.jacobian_order = parse_int(a, value(), 1, 200);
        } else if (a == "--min-step") {
            q.options.min_step = parse_positive_double(a, value());
        } else {
            throw BadInput("unknown argument '" + args[i] + "'");
        }
    }
    if (have_time) {
        if (!is_number(q.time)) throw BadInput("--time: not a number: '" + q.time + "'");
        if (!certainly_positive(IntervalMp::from_decimal(q.time, Precision(4096))))
            throw BadInput("--time must be positive, got '" + q.time + "'");
    }
    if (certainly_negative(IntervalD::from_decimal(q.radius))) throw BadInput("--radius must not be negative");
    if (!have_formula) throw BadInput("--formula is required");
    if (!have_init) throw BadInput("--init is required");
    if (!have_time) throw BadInput("--time is required");
    q.options.order = q.order;
    return q;
}

// The sign of a - b for two exact numbers (both already checked by is_number).
int exact_compare(const std::string& a, const std::string& b) {
    mpq_t x, y;
    mpq_init(x);
    mpq_init(y);
    parse_rational(a, x);
    parse_rational(b, y);
    const int c = mpq_cmp(x, y);
    mpq_clear(x);
    mpq_clear(y);
    return c;
}

template <Interval I>
nlohmann::json box_json(const std::vector<I>& box, int digits) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& x : box) a.push_back({{"lo", lower_string(x, digits)}, {"hi", upper_string(x, digits)}});
    return a;
}

template <Interval I>
double max_width(const std::vector<I>& box) {
    double w = 0;
    for (const auto& x : box) w = std::max(w, width(x));
    return w;
}

template <Interval I>
CliResult run(const Request& q, const taylor::VectorField& f) {
    const long bits = q.precision;
    const int digits = std::is_same_v<I, IntervalD> ? 17 : static_cast<int>(std::ceil(bits * 0.30103)) + 2;
    auto num = [&](const std::string& s) { return IntervalTraits<I>::from_decimal(s, bits); };
    std::vector<I> params(f.parameter_count());
    std::vector<bool> set(f.parameter_count(), false);
    for (const auto& [name, val] : q.params) {
        const int j = f.parameter_index(name);
        if (j < 0) throw BadInput("--param " + name + ": the formula has no parameter '" + name + "'");
        if (set[j]) throw BadInput("parameter '" + name + "' given twice");
        params[j] = num(val);
        set[j] = true;
    }
    for (int j = 0; j < f.parameter_count(); ++j)
        if (!set[j]) throw BadInput("parameter '" + f.parameters()[j] + "' has no value (use --param " +
                                    f.parameters()[j] + "=VALUE)");
    if (static_cast<int>(q.init.size()) != f.dimension())
        throw BadInput("--init has " + std::to_string(q.init.size()) + " values but the formula has " +
                       std::to_string(f.dimension()) + " variables");
    const I r = num(q.radius);
    const I ball = hull(-r, r);
    std::vector<I> x0;
    for (const auto& s : q.init) x0.push_back(num(s) + ball);
    const I T = num(q.time);
    std::vector<I> outs;
    for (const auto& s : q.output_times) {
        const I t = num(s);
        if (!certainly_positive(t)) throw BadInput("output time '" + s + "' must be positive");
        if (exact_compare(s, q.time) > 0) throw BadInput("output time '" + s + "' is after --time " + q.time);
        if (!outs.empty() && !certainly_less(outs.back(), t)) throw BadInput("--output-times must be increasing");
        outs.push_back(t);
    }
    const auto t0 = std::chrono::steady_clock::now();
    const Result<I> res = integrate(f, params, x0, T, outs, q.options, bits);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (res.status == Status::invalid_input) throw BadInput(res.reason);

    CliResult out;
    out.exit_code = res.ok() ? 0 : 2;
    if (q.json) {
        nlohmann::json j;
        j["status"] = res.ok() ? std::string("ok") : std::string(to_string(res.status));
        j["reason"] = res.reason;
        j["time"] = res.ok() ? q.time : lower_string(res.time, digits);
        j["time_enclosure"] = {{"lo", lower_string(res.time, digits)}, {"hi", upper_string(res.time, digits)}};
        j["steps"] = res.steps;
        j["variables"] = f.variables();
        j["order"] = q.order;
        j["precision"] = bits;
        j["final"] = box_json(res.final_box, digits);
        j["max_width"] = max_width(res.final_box);
        nlohmann::json o = nlohmann::json::array();
        for (std::size_t k = 0; k < res.outputs.size(); ++k)
            o.push_back({{"time", q.output_times[k]}, {"box", box_json(res.outputs[k].box, digits)}});
        j["outputs"] = o;
        if (!res.ok()) j["offending_set"] = box_json(res.offending_set, digits);
        j["wall_seconds"] = secs;
        out.out = j.dump() + "\n";
    } else {
        std::ostringstream s;
        s << "status: " << (res.ok() ? "ok" : to_string(res.status)) << "\n";
        if (!res.ok()) s << "reason: " << res.reason << "\n";
        s << "time: " << (res.ok() ? q.time : to_string(res.time, digits)) << "\n";
        s << "steps: " << res.steps << "\n";
        for (std::size_t k = 0; k < res.outputs.size(); ++k) {
            s << "at t = " << q.output_times[k] << ":\n";
            for (int i = 0; i < f.dimension(); ++i)
                s << "  " << f.variables()[i] << " in " << to_string(res.outputs[k].box[i], digits) << "\n";
        }
        s << (res.ok() ? "final:\n" : "last enclosure:\n");
        for (int i = 0; i < f.dimension(); ++i)
            s << "  " << f.variables()[i] << " in " << to_string(res.final_box[i], digits) << "\n";
        if (!res.ok()) {
            s << "offending set:\n";
            for (std::size_t i = 0; i < res.offending_set.size(); ++i)
                s << "  " << f.variables()[i] << " in " << to_string(res.offending_set[i], digits) << "\n";
        }
        s << "max width: " << max_width(res.final_box) << "\n";
        out.out = s.str();
    }
    return out;
}

}  // namespace

CliResult integrate_cli(const std::vector<std::string>& args) {
    CliResult r;
    for (const auto& a : args)
        if (a == "--help" || a == "-h") {
            r.exit_code = 0;
            r.out = kUsage;
            return r;
        }
    try {
        const Request q = parse_args(args);
        const taylor::ParseResult parsed = taylor::parse_formula(q.formula);
        if (!parsed.ok()) throw BadInput(parsed.message(q.formula));
        if (q.precision == 53) return run<IntervalD>(q, *parsed.field);
        return run<IntervalMp>(q, *parsed.field);
    } catch (const BadInput& e) {
        r.exit_code = 3;
        r.out.clear();
        r.err = std::string("flowcert integrate: ") + e.what() + "\n" + kUsage;
    } catch (const std::exception& e) {
        r.exit_code = 5;
        r.out.clear();
        r.err = std::string("flowcert integrate: internal error: ") + e.what() + "\n";
    }
    return r;
}

}  // namespace flowcert::ode
