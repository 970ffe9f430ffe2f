// tools/integrate_cli.cpp -- `flowcert integrate` (see integrate_cli.hpp).
#include "integrate_cli.hpp"

#include <flowcert/cert.hpp>  // toml_guard.hpp only (header-only: nothing of cert is linked)
#include <flowcert/ode.hpp>

#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "integrate_certificate.hpp"
#include "integrate_output.hpp"

namespace flowcert::tools {
namespace {

using namespace flowcert::ode;

const char* kUsage =
    "usage: flowcert integrate [CASE.toml] --formula F --init X0 --time T [options]\n"
    "\n"
    "Encloses x(t) for x' = f(x; p), x(0) in X0, rigorously (Taylor/Lohner, docs/integrator.md).\n"
    "\n"
    "  --formula F          var:x,y; par:a; [time:t;] fun:-a*y, a*x;   (CAPD syntax, extensions below)\n"
    "  --param NAME=V       a parameter value; V is a number or an interval [LO,HI] (repeat per parameter)\n"
    "  --init V1,V2,...     the initial point or box; each Vi a number or [LO,HI]\n"
    "  --radius R           widen every initial value by [-R, R]                       (default 0)\n"
    "  --time T             the final time; T < 0 integrates backward\n"
    "  --output-times T1,.. also enclose x at these times (between 0 and T)\n"
    "  --order P            Taylor order                                               (default 20)\n"
    "  --precision BITS     53: doubles; more: MPFR intervals                          (default 53)\n"
    "  --tolerance TOL      local error target per step          (default 2^-BITS/100, relative to max(1,|x|))\n"
    "  --min-step H         smallest step before a failure is reported                 (default 1e-10)\n"
    "  --jacobian-order Q   order of the Jacobian in the mean-value form               (default: P)\n"
    "  --max-steps N        step budget; reaching it ends the run INCONCLUSIVE         (default 1000000)\n"
    "  --max-seconds S      wall-time budget, likewise                                 (default 600)\n"
    "  --tube FILE          write the step enclosures: FILE.csv or FILE.json, exact endpoints as C99 hex floats\n"
    "  --report FILE        write an HTML (FILE.html) or Markdown (FILE.md) report with tube and phase plots\n"
    "  --certificate FILE   write a certificate (the input, the enclosures and per-step hints) that\n"
    "                       `flowcert check FILE` re-validates step by step, with the switching events, at\n"
    "                       the run's precision (with --tube, the tube is in it and re-validated too)\n"
    "  --json               machine-readable result on stdout\n"
    "\n"
    "Formulas: + - * / and powers x^3, x^(-2), x^2.5 (= exp(2.5 log x), x > 0); functions sqr sqrt exp log\n"
    "sin cos atan tanh sigmoid logistic relu abs max(a,b) min(a,b), the constant pi. Kinks of relu/abs/max/min\n"
    "are integrated through: transversal crossings are certified with an enclosed crossing time, a set that\n"
    "stays on a kink moves by first-order hull steps; the switching events are listed.\n"
    "Arrays and loops: var:w[3]; par:c[3]; fun:[i=0..2] -c[i]*w[i] + sum(j=0..2, w[j])/3;\n"
    "Numbers are exact decimals (0.1, 2.5e-3) or rationals (8/3).\n"
    "\n"
    "CASE.toml takes every option as a key (formula, params = {a = \"1\"}, init = [\"1\", \"[0.9,1.1]\"], time,\n"
    "radius, order, precision, output_times, tolerance, min_step, jacobian_order, max_steps, max_seconds,\n"
    "tube, report, certificate, json = true); numbers as strings or integers; options on the command line override it.\n"
    "Exit 0: enclosure reached T; 2: a step could not be validated or a budget ran out (INCONCLUSIVE);\n"
    "3: bad input.\n";

struct BadInput : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Splits at commas outside brackets: "[0.9,1.1],2" -> "[0.9,1.1]", "2". Spaces are dropped.
std::vector<std::string> split_commas(const std::string& s) {
    std::vector<std::string> out;
    std::string cur;
    int depth = 0;
    for (char ch : s) {
        if (ch == '[') ++depth;
        if (ch == ']') --depth;
        if (ch == ',' && depth == 0) {
            out.push_back(cur);
            cur.clear();
        } else if (ch != ' ') {
            cur += ch;
        }
    }
    out.push_back(cur);
    return out;
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

// A value: an exact number "1.5" or an interval "[LO,HI]" with exact LO <= HI.
struct Value {
    std::string lo, hi;  // equal for a number
    std::string text;
};
Value parse_value(const std::string& what, const std::string& text) {
    if (!text.empty() && text.front() == '[') {
        const auto parts = text.size() >= 2 && text.back() == ']' ? split_commas(text.substr(1, text.size() - 2))
                                                                  : std::vector<std::string>{};
        if (parts.size() != 2 || !is_number(parts[0]) || !is_number(parts[1]))
            throw BadInput(what + ": expected an interval [LO,HI] of two numbers, got '" + text + "'");
        if (exact_compare(parts[0], parts[1]) > 0) throw BadInput(what + ": empty interval '" + text + "' (LO > HI)");
        return {parts[0], parts[1], text};
    }
    if (!is_number(text)) throw BadInput(what + ": not a number: '" + text + "'");
    return {text, text, text};
}

struct Request {
    std::string formula;
    std::vector<std::pair<std::string, Value>> params;
    std::vector<Value> init;
    std::string radius = "0";
    std::string time;
    std::vector<std::string> output_times;
    int order = 20;
    long precision = 53;
    bool json = false;
    std::string tube, report, certificate;
    std::string tolerance, min_step, jacobian_order;  // as given (recorded in a certificate)
    // option ("--time", "--param a") -> "FILE:LINE: key 'time'" when its value is the case file's
    std::map<std::string, std::string> from_case;
    Options options = budgeted();
    static Options budgeted() {
        Options o;
        o.max_steps = 1'000'000;  // no run goes on without end: --max-steps / --max-seconds
        o.max_seconds = 600;
        return o;
    }
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
    if (!certainly_positive(x) || !is_bounded(x)) throw BadInput(opt + " must be a positive double, got '" + v + "'");
    return upper(x);  // a step-control parameter only (not part of any enclosure)
}

// ---- the case file: every key is an option; turned into arguments placed before the
// command line's, so the command line overrides it ----
std::vector<std::string> case_arguments(const std::string& path, std::vector<std::string>& origins) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        throw BadInput("case file " + path + ": not a regular file (or no such file)");
    if (std::filesystem::file_size(path, ec) > (1u << 20)) throw BadInput("case file " + path + ": larger than 1 MiB");
    std::string text;
    {
        std::ifstream in(path, std::ios::binary);
        std::ostringstream ss;
        ss << in.rdbuf();
        text = ss.str();
    }
    if (const long l = cert::overdotted_key_line(text))
        throw BadInput(path + ":" + std::to_string(l) + ": a dotted key with more than " +
                       std::to_string(cert::max_dotted_key_parts) + " parts (the TOML reader would overflow its stack)");
    toml::table t;
    try {
        t = toml::parse(text, path);
    } catch (const toml::parse_error& e) {
        throw BadInput(path + ":" + std::to_string(e.source().begin.line) + ": not valid TOML: " +
                       std::string(e.description()));
    }
    auto where = [&](const toml::node& n, const std::string& key) {
        return path + ":" + std::to_string(n.source().begin.line) + ": key '" + key + "': ";
    };
    // a scalar: a string (exact number, interval, formula, file name) or an integer; floats are
    // refused because a TOML float has already been rounded
    auto scalar = [&](const toml::node& n, const std::string& key) -> std::string {
        if (auto s = n.value<std::string>()) return *s;
        if (n.is_integer()) return std::to_string(*n.value<long long>());
        if (n.is_floating_point())
            throw BadInput(where(n, key) + "write numbers as strings (\"0.1\") or integers; a TOML float is not exact");
        throw BadInput(where(n, key) + "expected a string or an integer");
    };
    static const std::vector<std::string> options = {"formula", "init", "radius", "time", "output_times", "order",
                                                     "precision", "tolerance", "min_step", "jacobian_order",
                                                     "max_steps", "max_seconds", "tube", "report", "certificate"};
    std::vector<std::string> args;
    for (auto&& [k, node] : t) {
        const std::string key(k.str());
        std::string opt = "--" + key;
        for (char& c : opt)
            if (c == '_') c = '-';
        if (key == "params") {
            const auto* tab = node.as_table();
            if (!tab) throw BadInput(where(node, key) + "expected a table {name = \"value\", ...}");
            for (auto&& [pk, pv] : *tab) {
                args.push_back("--param");
                args.push_back(std::string(pk.str()) + "=" + scalar(pv, "params." + std::string(pk.str())));
                const std::string o = path + ":" + std::to_string(pv.source().begin.line) + ": key 'params." +
                                      std::string(pk.str()) + "'";
                origins.insert(origins.end(), {o, o});
            }
        } else if (key == "json") {
            if (!node.is_boolean()) throw BadInput(where(node, key) + "expected true or false");
            if (node.value<bool>().value_or(false)) {
                args.push_back("--json");
                origins.push_back(where(node, key));
            }
        } else if (std::find(options.begin(), options.end(), key) != options.end()) {
            std::string v;
            if (const auto* arr = node.as_array()) {
                if (key != "init" && key != "output_times") throw BadInput(where(node, key) + "expected a single value");
                for (auto&& e : *arr) v += (v.empty() ? "" : ",") + scalar(e, key);
            } else {
                v = scalar(node, key);
            }
            args.push_back(opt);
            args.push_back(v);
            const std::string o = path + ":" + std::to_string(node.source().begin.line) + ": key '" + key + "'";
            origins.insert(origins.end(), {o, o});
        } else {
            std::string names = "params, json";
            for (const auto& o : options) names += ", " + o;
            throw BadInput(where(node, key) + "unknown key; expected one of: " + names);
        }
    }
    return args;
}

Request parse_args(const std::vector<std::string>& cli) {
    // the case file (the one argument that is not an option or an option's value) comes first
    std::vector<std::string> args, origins;
    for (std::size_t i = 0; i < cli.size(); ++i) {
        if (cli[i].rfind("--", 0) == 0) {
            if (cli[i].find('=') == std::string::npos && cli[i] != "--json") ++i;  // skip its value
            continue;
        }
        for (auto& a : case_arguments(cli[i], origins)) args.push_back(std::move(a));
    }
    const std::size_t from_case = args.size();
    for (std::size_t i = 0; i < cli.size(); ++i) {
        if (cli[i].rfind("--", 0) != 0) continue;
        args.push_back(cli[i]);
        if (cli[i].find('=') == std::string::npos && cli[i] != "--json" && i + 1 < cli.size()) args.push_back(cli[++i]);
    }
    Request q;
    bool have_formula = false, have_init = false, have_time = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::size_t at = i;  // the option's index (its value may follow)
        try {
            std::string a = args[i], v, param;
            bool has_inline = false;
            if (a.rfind("--", 0) != 0) throw BadInput("unexpected argument '" + a + "'");
            if (auto eq = a.find('='); eq != std::string::npos) {
                v = a.substr(eq + 1);
                a = a.substr(0, eq);
                has_inline = true;
            }
            auto value = [&]() -> std::string {
                if (has_inline) return v;
                if (i + 1 >= args.size() || (i + 1 == from_case && i < from_case)) throw BadInput(a + " needs a value");
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
                const std::string name = pv.substr(0, eq);
                param = name;
                Value val = parse_value("--param " + name, pv.substr(eq + 1));
                bool replaced = false;  // a later value of the same parameter overrides (command line over case)
                for (auto& [n, old] : q.params)
                    if (n == name) {
                        old = val;
                        replaced = true;
                    }
                if (!replaced) q.params.emplace_back(name, std::move(val));
            } else if (a == "--init") {
                q.init.clear();
                for (const auto& s : split_commas(value())) q.init.push_back(parse_value("--init", s));
                have_init = true;
            } else if (a == "--radius") {
                q.radius = value();
                if (!is_number(q.radius)) throw BadInput("--radius: not a number: '" + q.radius + "'");
                if (exact_compare(q.radius, "0") < 0) throw BadInput("--radius must not be negative");
            } else if (a == "--time") {
                q.time = value();
                if (!is_number(q.time)) throw BadInput("--time: not a number: '" + q.time + "'");
                if (exact_compare(q.time, "0") == 0) throw BadInput("--time must not be 0");
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
                q.tolerance = value();
                q.options.tolerance = parse_positive_double(a, q.tolerance);
            } else if (a == "--jacobian-order") {
                q.jacobian_order = value();
                q.options.jacobian_order = parse_int(a, q.jacobian_order, 1, 200);
            } else if (a == "--min-step") {
                q.min_step = value();
                q.options.min_step = parse_positive_double(a, q.min_step);
            } else if (a == "--max-steps") {
                q.options.max_steps = parse_int(a, value(), 1, 2'000'000'000);
            } else if (a == "--max-seconds") {
                q.options.max_seconds = parse_positive_double(a, value());
            } else if (a == "--tube") {
                q.tube = value();
            } else if (a == "--report") {
                q.report = value();
            } else if (a == "--certificate") {
                q.certificate = value();
            } else {
                throw BadInput("unknown argument '" + args[i] + "'");
            }
            // where the value now in force came from (a later value, e.g. the command line's, overrides)
            const std::string key = a == "--param" ? a + " " + param : a;
            if (at < from_case && at < origins.size()) q.from_case[key] = origins[at];
            else q.from_case.erase(key);
        } catch (const BadInput& e) {
            if (at < from_case && at < origins.size()) throw BadInput(origins[at] + ": " + e.what());
            throw;
        }
    }
    if (!have_formula) throw BadInput("--formula is required");
    if (!have_init) throw BadInput("--init is required");
    if (!have_time) throw BadInput("--time is required");
    for (const auto& t : q.output_times) {
        // an output time lies between 0 (excluded) and T (included), compared exactly
        const bool backward = exact_compare(q.time, "0") < 0;
        if (backward ? exact_compare(t, "0") >= 0 : exact_compare(t, "0") <= 0)
            throw BadInput("output time '" + t + "' must lie strictly after 0 in the direction of --time " + q.time);
        if (backward ? exact_compare(t, q.time) < 0 : exact_compare(t, q.time) > 0)
            throw BadInput("output time '" + t + "' is after --time " + q.time);
    }
    for (std::size_t k = 1; k < q.output_times.size(); ++k) {
        const int c = exact_compare(q.output_times[k - 1], q.output_times[k]);
        if (exact_compare(q.time, "0") > 0 ? c >= 0 : c <= 0)
            throw BadInput("--output-times must increase towards --time " + q.time);
    }
    if (!q.tube.empty() && !ends_with(q.tube, ".csv") && !ends_with(q.tube, ".json"))
        throw BadInput("--tube " + q.tube + ": the file name must end in .csv or .json");
    if (!q.report.empty() && !ends_with(q.report, ".html") && !ends_with(q.report, ".md"))
        throw BadInput("--report " + q.report + ": the file name must end in .html or .md");
    if (!q.certificate.empty() && !ends_with(q.certificate, ".json"))
        throw BadInput("--certificate " + q.certificate + ": the file name must end in .json");
    q.options.order = q.order;
    return q;
}

// The arguments that define the problem and its arithmetic, as --option=value: what a
// certificate records, and what `flowcert check` parses again with parse_args.
std::vector<std::string> problem_arguments(const Request& q) {
    std::vector<std::string> a = {"--formula=" + q.formula};
    for (const auto& [name, v] : q.params) a.push_back("--param=" + name + "=" + v.text);
    std::string init;
    for (const auto& v : q.init) init += (init.empty() ? "" : ",") + v.text;
    a.push_back("--init=" + init);
    a.push_back("--radius=" + q.radius);
    a.push_back("--time=" + q.time);
    if (!q.output_times.empty()) {
        std::string t;
        for (const auto& s : q.output_times) t += (t.empty() ? "" : ",") + s;
        a.push_back("--output-times=" + t);
    }
    a.push_back("--order=" + std::to_string(q.order));
    a.push_back("--precision=" + std::to_string(q.precision));
    if (!q.tolerance.empty()) a.push_back("--tolerance=" + q.tolerance);
    if (!q.min_step.empty()) a.push_back("--min-step=" + q.min_step);
    if (!q.jacobian_order.empty()) a.push_back("--jacobian-order=" + q.jacobian_order);
    return a;
}

// With the double back end every number must be within the double range: one beyond
// DBL_MAX would enter as an unbounded interval (and a step could never be validated).
void check_double_range(const Request& q, const taylor::VectorField& f) {
    auto check = [](const std::string& field, const std::string& text) {
        if (text == "pi") return;
        const IntervalD x = IntervalD::from_decimal(text);
        if (!is_bounded(x))
            throw BadInput(field + ": " + text + " is beyond the double range (|x| <= 1.8e308); use --precision 64 or more");
    };
    for (const auto& c : f.constants()) check("--formula: the constant", c);
    for (const auto& [name, val] : q.params) {
        check("--param " + name, val.lo);
        check("--param " + name, val.hi);
    }
    for (const auto& v : q.init) {
        check("--init", v.lo);
        check("--init", v.hi);
    }
    check("--radius", q.radius);  // the times: check_time_range, at every precision
    // a time below the double range (0 < |t| < 4.9e-324) would enter as an interval containing 0
    auto nonzero = [](const std::string& field, const std::string& text) {
        const IntervalD x = IntervalD::from_decimal(text);
        if (!certainly_positive(x) && !certainly_negative(x) && exact_compare(text, "0") != 0)
            throw BadInput(field + ": " + text + " is below the double range (|x| >= 4.9e-324); use --precision 64 or more");
    };
    nonzero("--time", q.time);
    for (const auto& t : q.output_times) nonzero("--output-times", t);
}

// At every precision the final and output times lie within the double range (|t| <= 1.8e308): no run reaches a
// time beyond it within the step budget (issue 19: --time 1e400 at 64 bits ran until the wall-time budget).
void check_time_range(const Request& q) {
    auto check = [](const std::string& field, const std::string& text) {
        if (!is_bounded(IntervalD::from_decimal(text)))
            throw BadInput(field + ": " + text + " is beyond the double range (|t| <= 1.8e308), the largest final time at every precision");
    };
    check("--time", q.time);
    for (const auto& t : q.output_times) check("--output-times", t);
}

// A domain error whose operand does not depend on the state (x/0, log(0)*x, sqrt(-1)+x) makes
// the formula undefined everywhere: bad input, found by one evaluation at the initial set.
template <Interval I>
void check_constant_domain(const taylor::VectorField& f, const std::vector<I>& params, const std::vector<I>& x0,
                           long bits) {
    taylor::TaylorEvaluator<I> ev(f, params, bits);
    ev.set_kink_hull(true);  // a kink at the initial set must not stop the evaluation before a division
    std::vector<I> out(x0.size());
    const taylor::EvalResult r = ev.evaluate(x0, out);
    if (r.status != taylor::EvalStatus::domain_error || r.node < 0) return;
    const taylor::Node& n = f.nodes()[r.node];
    const int operand = n.op == taylor::Op::Div ? n.b : n.a;
    if (f.nodes()[operand].constant)
        throw BadInput("--formula: " + r.reason + ": '" + f.to_text(operand) +
                       "' does not depend on the state, so the field is undefined everywhere");
}

// The problem as integrated: x' = f(x) with interval parameters as states, reversed when
// backward; shared by the run and by `flowcert check` of a certificate.
template <Interval I>
struct Problem {
    taylor::VectorField f;
    std::vector<I> params, x0, outs;
    I T;
    bool backward = false;
    int time_variable = -1;
};

template <Interval I>
Problem<I> prepare(const Request& q, const taylor::VectorField& parsed) {
    const long bits = q.precision;
    if constexpr (std::is_same_v<I, IntervalD>) check_double_range(q, parsed);
    check_time_range(q);
    // Backward time: x(t) for t < 0 is y(-t) with y' = -f(y) [the reversed field].
    const bool backward = exact_compare(q.time, "0") < 0;
    const taylor::VectorField fwd = backward ? taylor::reversed(parsed) : parsed;
    // Interval parameters become states p' = 0, so the Lohner set carries their dependence.
    std::vector<int> promoted;
    for (const auto& [name, val] : q.params) {
        const int j = fwd.parameter_index(name);
        if (j < 0) throw BadInput("--param " + name + ": the formula has no parameter '" + name + "'");
        if (val.lo != val.hi) promoted.push_back(j);
    }
    Problem<I> pb{promoted.empty() ? fwd : taylor::with_parameters_as_states(fwd, promoted), {}, {}, {}, {}, backward,
                  -1};
    const taylor::VectorField& f = pb.f;
    auto num = [&](const std::string& s) {
        const I x = IntervalTraits<I>::from_decimal(s, bits);
        return backward ? -x : x;
    };
    auto value = [&](const Value& v) {
        return v.lo == v.hi ? IntervalTraits<I>::from_decimal(v.lo, bits)
                            : hull(IntervalTraits<I>::from_decimal(v.lo, bits), IntervalTraits<I>::from_decimal(v.hi, bits));
    };
    std::vector<I> params(f.parameter_count());
    std::vector<bool> set(f.parameter_count(), false);
    std::vector<I> promoted_values(promoted.size());
    for (const auto& [name, val] : q.params) {
        if (const int j = f.parameter_index(name); j >= 0) {
            params[j] = value(val);
            set[j] = true;
        } else {
            const int j0 = fwd.parameter_index(name);
            promoted_values[std::find(promoted.begin(), promoted.end(), j0) - promoted.begin()] = value(val);
        }
    }
    for (int j = 0; j < f.parameter_count(); ++j)
        if (!set[j]) throw BadInput("parameter '" + f.parameters()[j] + "' has no value (use --param " +
                                    f.parameters()[j] + "=VALUE)");
    const int tv = f.time_variable();
    const int n_user = parsed.dimension() - (tv >= 0 ? 1 : 0);
    if (static_cast<int>(q.init.size()) != n_user)
        throw BadInput("--init has " + std::to_string(q.init.size()) + " values but the formula has " +
                       std::to_string(n_user) + " variables");
    const I r = IntervalTraits<I>::from_decimal(q.radius, bits);
    const I ball = hull(-r, r);
    std::vector<I> x0;
    for (const auto& v : q.init) x0.push_back(value(v) + ball);
    if (tv >= 0) x0.insert(x0.begin() + tv, IntervalTraits<I>::from_integer(0, bits));  // t(0) = 0
    for (const auto& v : promoted_values) x0.push_back(v);
    pb.T = num(q.time);
    for (const auto& s : q.output_times) pb.outs.push_back(num(s));
    check_constant_domain(f, params, x0, bits);
    pb.params = std::move(params);
    pb.x0 = std::move(x0);
    pb.time_variable = tv;
    return pb;
}

template <Interval I>
CliResult run(const Request& q, const taylor::VectorField& parsed) {
    const long bits = q.precision;
    const Problem<I> pb = prepare<I>(q, parsed);
    const taylor::VectorField& f = pb.f;
    const bool backward = pb.backward;
    const int tv = pb.time_variable;
    const auto& params = pb.params;
    const auto& x0 = pb.x0;
    const I& T = pb.T;
    const auto& outs = pb.outs;
    Options options = q.options;
    options.record_tubes = !q.tube.empty() || !q.report.empty();
    options.record_steps = !q.certificate.empty();
    const auto t0 = std::chrono::steady_clock::now();
    const Result<I> res = integrate(f, params, x0, T, outs, options, bits);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (res.status == Status::invalid_input) throw BadInput(res.reason);

    Run<I> run;
    run.field = &f;  // the integrated field: its first states and its nodes are the ones reported
    run.result = &res;
    run.backward = backward;
    run.time_variable = tv;
    run.shown_states = parsed.dimension();
    run.bits = bits;
    run.order = q.order;
    run.time_text = q.time;
    run.output_times = q.output_times;
    run.formula = q.formula;
    run.wall_seconds = secs;
    CliResult out;
    out.exit_code = res.ok() ? 0 : 2;
    out.out = q.json ? json_result(run) : text_result(run);
    if (res.ok() && bits > 53) {
        // more precision tightens only the arithmetic: when the result is far wider than the
        // double resolution, the initial box or the tolerance decide its width
        double rel = 0;
        for (const auto& x : res.final_box) rel = std::max(rel, width(x) / std::max(1.0, mag(x)));
        if (rel > 0x1p-40)
            out.err += "flowcert integrate: warning: the relative width " + format_g(rel) +
                       " is far above double resolution; --precision " + std::to_string(bits) +
                       " cannot tighten it (the initial set or the tolerance decide it) and --precision 53 is faster\n";
    }
    if (!q.tube.empty()) write_file(q.tube, ends_with(q.tube, ".csv") ? tube_csv(run) : tube_json(run));
    if (!q.report.empty()) write_file(q.report, ends_with(q.report, ".md") ? report_markdown(run) : report_html(run));
    if (!q.certificate.empty()) {
        if (res.ok()) write_file(q.certificate, integrate_certificate(run, problem_arguments(q), !q.tube.empty()));
        else out.err += "flowcert integrate: no certificate written: the run did not reach the final time\n";
    }
    return out;
}

template <Interval I>
std::string fmt_box_problem(const std::string& what, std::size_t i, const std::string& name, const I& claimed,
                            const I& derived) {
    return what + " of " + name + " [" + hex_lower(claimed) + ", " + hex_upper(claimed) +
           "] does not contain the re-derived [" + hex_lower(derived) + ", " + hex_upper(derived) + "] (component " +
           std::to_string(i) + ")";
}

// The claimed box must contain the re-derived one, component by component (exact comparisons).
template <Interval I>
bool contains_all(const std::vector<I>& claimed, const std::vector<I>& derived, const std::string& what,
                  const std::vector<std::string>& names, std::vector<std::string>& problems) {
    bool ok = claimed.size() == derived.size();
    if (!ok) problems.push_back(what + ": " + std::to_string(claimed.size()) + " components, the problem has " +
                                std::to_string(derived.size()));
    for (std::size_t i = 0; ok && i < claimed.size(); ++i)
        if (!subset(derived[i], claimed[i])) {  // exact at any precision
            problems.push_back(fmt_box_problem(what, i, names[i], claimed[i], derived[i]));
            ok = false;
        }
    return ok;
}

// The claimed tube pieces of every step against the re-derived ones: as many per step, each
// claimed time range inside the re-derived one, each claimed box containing the re-derived box.
template <Interval I>
bool tube_holds(const std::vector<std::vector<ode::TubePiece<I>>>& claimed,
                const std::vector<std::vector<ode::TubePiece<I>>>& derived, const std::vector<std::string>& names,
                std::vector<std::string>& problems, long& pieces) {
    for (std::size_t j = 0; j < claimed.size(); ++j) {
        const std::string w = "steps[" + std::to_string(j) + "].tube";
        if (claimed[j].size() != derived[j].size()) {
            problems.push_back(w + ": " + std::to_string(claimed[j].size()) + " pieces, the step has " +
                               std::to_string(derived[j].size()));
            return false;
        }
        for (std::size_t k = 0; k < claimed[j].size(); ++k) {
            const auto& c = claimed[j][k];
            const auto& d = derived[j][k];
            const std::string wk = w + "[" + std::to_string(k) + "]";
            if (!subset(hull(c.t0, c.t1), hull(d.t0, d.t1))) {
                problems.push_back(wk + ".t: [" + hex_lower(c.t0) + ", " + hex_upper(c.t1) +
                                   "] is not inside the re-derived time range [" + hex_lower(d.t0) + ", " +
                                   hex_upper(d.t1) + "]");
                return false;
            }
            if (!contains_all(c.box, d.box, wk + ".box", names, problems)) return false;
            ++pieces;
        }
    }
    return true;
}

// The certificate at its precision: the claims read exactly at q.precision bits, every step
// re-validated, the events re-derived, the claims compared with the re-derived sets.
template <Interval I>
IntegrateCheck check_at(const nlohmann::json& j, const Request& q, const Problem<I>& pb) {
    IntegrateCheck out;
    IntegrateClaim<I> c;
    std::string problem;
    if (!read_integrate_certificate<I>(j, pb.f, pb.backward, q.precision, c, problem)) {
        out.problems.push_back(problem);
        return out;
    }
    if (c.variables != pb.f.variables()) out.problems.push_back("variables: not the formula's states");
    if (c.time != q.time) out.problems.push_back("claim.time: '" + c.time + "' is not --time " + q.time);
    if (c.output_times != q.output_times) out.problems.push_back("claim.outputs: not the --output-times of the arguments");
    if (!out.problems.empty()) return out;
    out.checks.push_back("input: formula, parameters, initial set, times and options parsed again from the recorded "
                         "arguments (the code of flowcert integrate" +
                         (q.precision > 53 ? ", MPFR at " + std::to_string(q.precision) + " bits" : std::string()) +
                         ")");
    // 2. every step from its hints, the sets re-derived from the initial box
    const auto t0 = std::chrono::steady_clock::now();
    const ode::Revalidation<I> v = ode::revalidate(pb.f, pb.params, pb.x0, pb.T, pb.outs, q.options, q.precision,
                                                   c.records, c.output_records, c.final_record, &c.events, c.has_tube,
                                                   &c.output_events);
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!v.ok()) {
        out.problems.push_back("re-validation: " + v.reason);
        return out;
    }
    out.checks.push_back(std::to_string(v.smooth_steps) +
                         " smooth steps: each Taylor/Lohner inclusion re-validated from its hints (the high-order "
                         "enclosure test on the stored a priori box, B^-1 enclosed anew, the set re-derived)");
    out.checks.push_back(std::to_string(v.hull_steps) +
                         " hull steps: each Picard inclusion X + [0,h] f(Y) inside the stored a priori box re-validated");
    out.checks.push_back(std::to_string(v.crossings) + " crossings and " + std::to_string(v.contacts) +
                         " contacts: every kink straddled on a hull step is claimed; each crossing transversal (one "
                         "sign before, the other after, d/dt of one sign on every straddling hull step) and each "
                         "time enclosure contains the span of those hull steps, re-derived");
    // 3. the claims against the re-derived sets
    const auto& names = pb.f.variables();
    bool ok = contains_all(c.final_box, v.final_box, "claim.final", names, out.problems);
    if (ok) out.checks.push_back("final enclosure at t = " + q.time + ": the re-derived set lies inside the stored one");
    for (std::size_t k = 0; k < c.outputs.size(); ++k) {
        const bool okk = contains_all(c.outputs[k], v.outputs[k], "claim.outputs[" + std::to_string(k) + "]", names,
                                      out.problems);
        if (okk) out.checks.push_back("output enclosure at t = " + q.output_times[k] +
                                      ": the re-derived set lies inside the stored one");
        ok = ok && okk;
    }
    if (ok && c.has_tube) {
        long pieces = 0;
        ok = tube_holds(c.tube, v.tube, names, out.problems, pieces);
        if (ok) out.checks.push_back("tube: " + std::to_string(pieces) +
                                     " pieces, each re-derived from its step and inside the stored box");
    }
    out.accepted = ok;
    return out;
}

}  // namespace

bool is_integrate_certificate(const nlohmann::json& j) {
    return j.is_object() && j.contains("format") && j["format"] == kIntegrateCertificateFormat;
}

IntegrateCheck check_integrate_certificate(const nlohmann::json& j) {
    IntegrateCheck out;
    std::vector<std::string> arguments;
    std::string problem;
    if (!read_certificate_arguments(j, arguments, problem)) {
        out.problems.push_back(problem);
        return out;
    }
    // 1. the problem, from the recorded arguments, by the code of the run (--option=value only:
    //    no case file is read)
    for (const auto& a : arguments)
        if (a.rfind("--", 0) != 0 || a.find('=') == std::string::npos) {
            out.problems.push_back("arguments: '" + a + "' is not of the form --option=value");
            return out;
        }
    try {
        const Request q = parse_args(arguments);
        if (!q.tube.empty() || !q.report.empty() || !q.certificate.empty() || q.json)
            throw BadInput("output options are not part of a certificate's arguments");
        const taylor::ParseResult parsed = taylor::parse_formula(q.formula);
        if (!parsed.ok()) throw BadInput("--formula: " + parsed.message(q.formula));
        if (q.precision == 53) return check_at<IntervalD>(j, q, prepare<IntervalD>(q, *parsed.field));
        return check_at<IntervalMp>(j, q, prepare<IntervalMp>(q, *parsed.field));
    } catch (const BadInput& e) {
        out.problems.push_back(std::string("arguments: ") + e.what());
        return out;
    }
}

CliResult integrate_cli(const std::vector<std::string>& args) {
    CliResult r;
    for (const auto& a : args)
        if (a == "--help" || a == "-h") {
            r.exit_code = 0;
            r.out = kUsage;
            return r;
        }
    std::optional<Request> q;
    try {
        q.emplace(parse_args(args));
        const taylor::ParseResult parsed = taylor::parse_formula(q->formula);
        if (!parsed.ok()) throw BadInput("--formula: " + parsed.message(q->formula));
        if (q->precision == 53) return run<IntervalD>(*q, *parsed.field);
        return run<IntervalMp>(*q, *parsed.field);
    } catch (const BadInput& e) {
        // a message about an option whose value is the case file's names the file, line and key
        std::string where;
        const std::string m = e.what();
        if (q)
            for (const auto& [opt, origin] : q->from_case)
                if (m.rfind(opt, 0) == 0 && m.size() > opt.size() && (m[opt.size()] == ':' || m[opt.size()] == ' '))
                    where = origin + ": ";
        r.exit_code = 3;
        r.out.clear();
        r.err = "flowcert integrate: " + where + m + "\n(flowcert integrate --help lists the options)\n";
    } catch (const OutputError& e) {
        r.exit_code = 3;
        r.out.clear();
        r.err = std::string("flowcert integrate: ") + e.what() + "\n";
    } catch (const std::exception& e) {
        r.exit_code = 5;
        r.out.clear();
        r.err = std::string("flowcert integrate: internal error: ") + e.what() + "\n";
    }
    return r;
}

}  // namespace flowcert::tools
