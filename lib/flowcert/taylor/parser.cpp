// flowcert/taylor/parser.cpp -- recursive-descent parser for CAPD's formula syntax with the
// extensions of parser.hpp (time variable, arrays, component loops, sums, more functions).
//
// Common subexpressions are shared (hash-consing): every node is looked up by (op, operands)
// before it is created, so `x*y + sin(x*y)` evaluates x*y once.
#include <flowcert/taylor.hpp>

#include <cctype>
#include <cstdlib>
#include <map>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <vector>

namespace flowcert::taylor {
namespace {

struct ParseError {
    std::string message;
    std::size_t position;
};

// Names that cannot be variables: the functions and the constant pi.
bool is_reserved(const std::string& n) {
    static const char* const names[] = {"sqr",  "sqrt", "exp",     "log",      "sin", "cos", "relu", "max",
                                        "min",  "abs",  "tanh",    "atan",     "sigmoid", "logistic", "sum", "pi"};
    for (const char* r : names)
        if (n == r) return true;
    return false;
}

class Parser {
public:
    explicit Parser(std::string_view s) : s_(s) {}

    VectorField parse() {
        std::vector<std::string> vars, pars;
        std::string time_name;
        bool have_var = false, have_par = false, have_time = false;
        std::size_t fun_start = std::string_view::npos;
        // Sections "name: list;" in the order var, par and time (optional), fun.
        while (true) {
            skip();
            if (pos_ >= s_.size()) break;
            const std::size_t at = pos_;
            const std::string key = ident("a section name (var, par, time or fun)");
            skip();
            expect(':');
            if (key == "var" || key == "par" || key == "time") {
                if (fun_start != std::string_view::npos) fail("'" + key + ":' must come before 'fun:'", at);
                bool& seen = key == "var" ? have_var : key == "par" ? have_par : have_time;
                if (seen) fail("repeated section '" + key + ":'", at);
                seen = true;
                skip();
                if (peek() != ';') {
                    while (true) {
                        skip();
                        const std::size_t name_at = pos_;
                        const std::string name = ident("a name");
                        if (is_reserved(name)) fail("'" + name + "' is a function name", name_at);
                        if (defined(name, vars, pars) || name == time_name)
                            fail("name '" + name + "' defined twice", name_at);
                        skip();
                        if (key == "time") {
                            if (peek() == '[') fail("the time variable is a scalar", pos_);
                            time_name = name;
                        } else {
                            auto& list = key == "var" ? vars : pars;
                            if (peek() == '[') {  // an array x[N]: names x[0] .. x[N-1]
                                ++pos_;
                                const std::size_t n_at = pos_;
                                const long long n = index_expr();
                                if (n < 1 || n > 1000000) fail("an array needs 1 to 1000000 elements", n_at);
                                expect(']');
                                arrays_[name] = Array{key == "var", static_cast<int>(list.size()), static_cast<int>(n)};
                                for (long long k = 0; k < n; ++k) list.push_back(name + "[" + std::to_string(k) + "]");
                            } else {
                                list.push_back(name);
                            }
                        }
                        skip();
                        if (peek() == ',' && key != "time") { ++pos_; continue; }
                        break;
                    }
                }
                skip();
                expect(';');
            } else if (key == "fun") {
                if (!have_var || vars.empty()) fail("'var:' with at least one variable must come before 'fun:'", at);
                fun_start = pos_;
                break;
            } else {
                fail("unknown section '" + key + "' (expected var, par, time or fun)", at);
            }
        }
        if (fun_start == std::string_view::npos) fail("missing 'fun:' section", s_.size());
        const int n_user = static_cast<int>(vars.size());
        if (have_time && !time_name.empty()) vars.push_back(time_name);  // t' = 1, the last state variable
        VectorField f(vars, pars);
        field_ = &f;
        std::vector<Expr> comps;
        while (true) {
            skip();
            if (peek() == '[') component_loop(comps);
            else comps.push_back(expr());
            skip();
            if (peek() == ',') { ++pos_; continue; }
            break;
        }
        skip();
        if (peek() == ';') ++pos_;
        else if (pos_ < s_.size()) fail("expected ',', ';' or an operator", pos_);
        skip();
        if (pos_ < s_.size()) fail("unexpected text after the 'fun:' section", pos_);
        if (static_cast<int>(comps.size()) != n_user)
            fail("'fun:' has " + std::to_string(comps.size()) + " components but 'var:' declares " +
                     std::to_string(n_user) + " variables",
                 fun_start);
        if (f.dimension() > n_user) {
            comps.push_back(f.constant(1));
            f.set_time_variable(n_user);
        }
        f.set_rhs(comps);
        field_ = nullptr;
        return f;
    }

private:
    struct Array {
        bool is_var;
        int first, size;
    };
    std::string_view s_;
    std::size_t pos_ = 0;
    VectorField* field_ = nullptr;
    std::map<std::string, Array> arrays_;
    std::vector<std::pair<std::string, long long>> loops_;  // bound loop variables, innermost last
    std::map<std::tuple<int, int, int>, int> memo_;         // (op, a, b) -> node: hash-consing

    // Parentheses and function calls nest at most this deep: the descent recurses once per
    // level, so a bound keeps any input from overflowing the stack.
    static constexpr int max_depth = 256;
    int depth_ = 0;
    struct Nest {
        Parser& p;
        Nest(Parser& parser, std::size_t at) : p(parser) {
            if (++p.depth_ > max_depth)
                p.fail("parentheses nested deeper than " + std::to_string(max_depth) + " levels", at);
        }
        ~Nest() { --p.depth_; }
    };
    // Loops unroll into at most this many components / summands in total.
    static constexpr long long max_unrolled = 1000000;
    long long unrolled_ = 0;

    [[noreturn]] void fail(const std::string& m, std::size_t at) { throw ParseError{m, at}; }
    void skip() {
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    }
    char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
    bool at_text(std::string_view t) const { return s_.substr(pos_, t.size()) == t; }
    void expect(char c) {
        skip();
        if (peek() != c) {
            std::string got = pos_ < s_.size() ? std::string("'") + s_[pos_] + "'" : std::string("end of formula");
            fail(std::string("expected '") + c + "', found " + got, pos_);
        }
        ++pos_;
    }
    bool defined(const std::string& name, const std::vector<std::string>& vars, const std::vector<std::string>& pars) {
        if (arrays_.count(name)) return true;
        for (const auto& v : vars)
            if (v == name) return true;
        for (const auto& v : pars)
            if (v == name) return true;
        return false;
    }
    std::string ident(const char* what) {
        skip();
        const std::size_t b = pos_;
        if (!(std::isalpha(static_cast<unsigned char>(peek())) || peek() == '_')) fail(std::string("expected ") + what, pos_);
        while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
        return std::string(s_.substr(b, pos_ - b));
    }
    const long long* loop_value(const std::string& name) const {
        for (auto it = loops_.rbegin(); it != loops_.rend(); ++it)
            if (it->first == name) return &it->second;
        return nullptr;
    }

    // ---- hash-consed node builders ----
    Expr make(Op op, Expr a, Expr b) {
        int x = a.id(), y = b.id();
        if ((op == Op::Add || op == Op::Mul) && y < x) std::swap(x, y);  // commutative: one key
        const auto key = std::make_tuple(static_cast<int>(op), x, y);
        if (auto it = memo_.find(key); it != memo_.end()) return Expr(field_, it->second);
        const Expr e = field_->binary(op, Expr(field_, x), Expr(field_, y));
        memo_.emplace(key, e.id());
        return e;
    }
    Expr make(Op op, Expr a) {
        const auto key = std::make_tuple(static_cast<int>(op), a.id(), -1);
        if (auto it = memo_.find(key); it != memo_.end()) return Expr(field_, it->second);
        const Expr e = field_->unary(op, a);
        memo_.emplace(key, e.id());
        return e;
    }
    Expr integer(long long k) { return field_->constant(k); }
    Expr power(Expr a, long long n) {  // repeated squaring, as VectorField::power, shared
        if (n == 0) return integer(1);
        if (n < 0) return make(Op::Div, integer(1), power(a, -n));
        if (n == 1) return a;
        if (n % 2 == 0) return make(Op::Sqr, power(a, n / 2));
        return make(Op::Mul, a, power(a, n - 1));
    }
    // relu-based forms of the kinked functions (exact identities):
    //   max(a, b) = a + relu(b - a),  min(a, b) = a - relu(a - b),  abs(a) = relu(a) + relu(-a).
    Expr relu_of(Expr a) { return make(Op::Relu, a); }
    Expr max_of(Expr a, Expr b) {
        if (is_zero(b)) return relu_of(a);
        if (is_zero(a)) return relu_of(b);
        return make(Op::Add, a, relu_of(make(Op::Sub, b, a)));
    }
    Expr min_of(Expr a, Expr b) {
        if (is_zero(b)) return make(Op::Neg, relu_of(make(Op::Neg, a)));
        return make(Op::Sub, a, relu_of(make(Op::Sub, a, b)));
    }
    // tanh(a) = 1 - 2 / (exp(2a) + 1), sigmoid(a) = 1 / (1 + exp(-a)) (exact identities).
    Expr tanh_of(Expr a) {
        const Expr e = make(Op::Exp, make(Op::Mul, integer(2), a));
        return make(Op::Sub, integer(1), make(Op::Div, integer(2), make(Op::Add, e, integer(1))));
    }
    Expr sigmoid_of(Expr a) { return make(Op::Div, integer(1), make(Op::Add, integer(1), make(Op::Exp, make(Op::Neg, a)))); }

    // ---- integer index expressions: literals, loop variables, + - * and parentheses ----
    long long index_expr() {
        long long v = index_term();
        while (true) {
            skip();
            if (peek() == '+') { ++pos_; v = checked(v + index_term()); }
            else if (peek() == '-') { ++pos_; v = checked(v - index_term()); }
            else return v;
        }
    }
    long long index_term() {
        long long v = index_factor();
        while (true) {
            skip();
            if (peek() != '*') return v;
            ++pos_;
            const long long w = index_factor();
            if (v != 0 && (w > max_unrolled * 1000 || w < -max_unrolled * 1000 || std::llabs(v) > max_unrolled * 1000))
                fail("index arithmetic out of range", pos_);
            v = checked(v * w);
        }
    }
    long long index_factor() {
        skip();
        const std::size_t at = pos_;
        if (peek() == '-') { ++pos_; return -index_factor(); }
        if (peek() == '(') {
            ++pos_;
            const Nest nest(*this, at);
            const long long v = index_expr();
            expect(')');
            return v;
        }
        if (std::isdigit(static_cast<unsigned char>(peek()))) {
            long long v = 0;
            while (std::isdigit(static_cast<unsigned char>(peek()))) {
                v = v * 10 + (s_[pos_++] - '0');
                if (v > 1000000000LL) fail("index too large", at);
            }
            return v;
        }
        if (std::isalpha(static_cast<unsigned char>(peek())) || peek() == '_') {
            const std::string name = ident("an index");
            if (const long long* v = loop_value(name)) return *v;
            fail("'" + name + "' is not a loop variable (indices are integers and loop variables)", at);
        }
        fail("expected an integer index", at);
    }
    long long checked(long long v) {
        if (v > 1000000000000LL || v < -1000000000000LL) fail("index arithmetic out of range", pos_);
        return v;
    }
    // "NAME = LO .. HI" of a loop; returns the bounds, binds nothing.
    std::string loop_header(long long& lo, long long& hi) {
        const std::size_t at = pos_;
        const std::string name = ident("a loop variable");
        if (is_reserved(name) || field_->variable_index(name) >= 0 || field_->parameter_index(name) >= 0 ||
            arrays_.count(name))
            fail("loop variable '" + name + "' hides a declared name", at);
        expect('=');
        lo = index_expr();
        skip();
        if (!at_text("..")) fail("expected '..' in a range LO..HI", pos_);
        pos_ += 2;
        hi = index_expr();
        if (lo > hi) fail("empty range " + std::to_string(lo) + ".." + std::to_string(hi), at);
        if ((unrolled_ += hi - lo + 1) > max_unrolled)
            fail("loops unroll into more than " + std::to_string(max_unrolled) + " terms", at);
        return name;
    }
    // "[i = LO..HI] EXPR": one component per value of i.
    void component_loop(std::vector<Expr>& comps) {
        const std::size_t at = pos_;
        ++pos_;
        long long lo = 0, hi = 0;
        const std::string name = loop_header(lo, hi);
        expect(']');
        const std::size_t body = pos_;
        for (long long v = lo; v <= hi; ++v) {
            pos_ = body;
            loops_.emplace_back(name, v);
            const Nest nest(*this, at);
            comps.push_back(expr());
            loops_.pop_back();
        }
    }

    // expr := term (('+'|'-') term)*
    Expr expr() {
        Expr e = term();
        while (true) {
            skip();
            if (peek() == '+') { ++pos_; e = make(Op::Add, e, term()); }
            else if (peek() == '-') { ++pos_; e = make(Op::Sub, e, term()); }
            else return e;
        }
    }
    // term := unary (('*'|'/') unary)*
    Expr term() {
        Expr e = unary();
        while (true) {
            skip();
            if (peek() == '*') { ++pos_; e = make(Op::Mul, e, unary()); }
            else if (peek() == '/') { ++pos_; e = make(Op::Div, e, unary()); }
            else return e;
        }
    }
    // unary := ('-'|'+')* power  (signs counted in a loop: no recursion per sign)
    Expr unary() {
        bool negate = false;
        while (true) {
            skip();
            if (peek() == '-') negate = !negate;
            else if (peek() != '+') break;
            ++pos_;
        }
        Expr e = power_expr();
        return negate ? make(Op::Neg, e) : e;
    }
    // power := primary ('^' ['-'|'+'] primary)?  An integer exponent gives repeated products;
    // any other exponent e gives exp(e * log(base)) (defined for a positive base).
    Expr power_expr() {
        Expr base = primary();
        skip();
        if (peek() != '^') return base;
        ++pos_;
        skip();
        const std::size_t at = pos_;
        bool neg = false;
        if (peek() == '-' || peek() == '+') {
            neg = peek() == '-';
            ++pos_;
        }
        const Expr e = primary();
        if (const auto n = integer_value(e)) {
            if (*n > 1000000 || *n < -1000000) fail("exponent too large", at);
            return power(base, neg ? -*n : *n);
        }
        const Expr ex = neg ? make(Op::Neg, e) : e;
        return make(Op::Exp, make(Op::Mul, ex, make(Op::Log, base)));
    }
    // The value of an integer constant node (or its negation), if it is one.
    std::optional<long long> integer_value(Expr e) const {
        const Node& n = field_->nodes()[e.id()];
        if (n.op == Op::Neg) {
            const auto v = integer_value(Expr(field_, n.a));
            return v ? std::optional<long long>(-*v) : std::nullopt;
        }
        if (n.op != Op::Const) return std::nullopt;
        const std::string& t = field_->constants()[n.index];
        if (t.empty() || t.size() > 9) return std::nullopt;
        for (char ch : t)
            if (!std::isdigit(static_cast<unsigned char>(ch))) return std::nullopt;
        return std::stoll(t);
    }
    Expr number() {
        const std::size_t b = pos_;
        while (std::isdigit(static_cast<unsigned char>(peek()))) ++pos_;
        if (peek() == '.' && !at_text("..")) {
            ++pos_;
            while (std::isdigit(static_cast<unsigned char>(peek()))) ++pos_;
        }
        if (peek() == 'e' || peek() == 'E') {
            const std::size_t save = pos_;
            ++pos_;
            if (peek() == '+' || peek() == '-') ++pos_;
            if (!std::isdigit(static_cast<unsigned char>(peek()))) pos_ = save;
            else
                while (std::isdigit(static_cast<unsigned char>(peek()))) ++pos_;
        }
        const std::string text(s_.substr(b, pos_ - b));
        try {
            return field_->constant(text);
        } catch (const std::invalid_argument&) {
            fail("malformed number '" + text + "'", b);
        }
    }
    Expr call(const std::string& name, std::size_t at) {
        if (name == "sum") {  // sum(j = LO..HI, EXPR)
            long long lo = 0, hi = 0;
            const std::string j = loop_header(lo, hi);
            expect(',');
            const std::size_t body = pos_;
            std::optional<Expr> acc;
            for (long long v = lo; v <= hi; ++v) {
                pos_ = body;
                loops_.emplace_back(j, v);
                const Expr term = expr();
                loops_.pop_back();
                acc = acc ? make(Op::Add, *acc, term) : term;
            }
            expect(')');
            return *acc;
        }
        if (name == "max" || name == "min") {
            Expr a = expr();
            expect(',');
            Expr b = expr();
            expect(')');
            return name == "max" ? max_of(a, b) : min_of(a, b);
        }
        Expr a = expr();
        expect(')');
        if (name == "sqr") return make(Op::Sqr, a);
        if (name == "sqrt") return make(Op::Sqrt, a);
        if (name == "exp") return make(Op::Exp, a);
        if (name == "log") return make(Op::Log, a);
        if (name == "sin") return make(Op::Sin, a);
        if (name == "cos") return make(Op::Cos, a);
        if (name == "atan") return make(Op::Atan, a);
        if (name == "relu") return relu_of(a);
        if (name == "abs") return make(Op::Add, relu_of(a), relu_of(make(Op::Neg, a)));
        if (name == "tanh") return tanh_of(a);
        if (name == "sigmoid" || name == "logistic") return sigmoid_of(a);
        fail("unknown function '" + name + "' (functions: sqr sqrt exp log sin cos atan tanh sigmoid logistic relu "
             "abs max min sum)", at);
    }
    Expr primary() {
        skip();
        const std::size_t at = pos_;
        const char c = peek();
        if (c == '(') {
            ++pos_;
            const Nest nest(*this, at);
            Expr e = expr();
            expect(')');
            return e;
        }
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number();
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            const std::string name = ident("a name");
            skip();
            if (peek() == '(') {
                ++pos_;
                const Nest nest(*this, at);
                if (!is_reserved(name) || name == "pi") fail("unknown function '" + name + "'", at);
                return call(name, at);
            }
            if (name == "pi") return field_->constant("pi");
            if (const long long* v = loop_value(name)) return integer(*v);
            if (auto it = arrays_.find(name); it != arrays_.end()) {
                if (peek() != '[') fail("'" + name + "' is an array: write " + name + "[INDEX]", at);
                ++pos_;
                const std::size_t i_at = pos_;
                const long long k = index_expr();
                expect(']');
                if (k < 0 || k >= it->second.size)
                    fail("index " + std::to_string(k) + " out of range for " + name + "[" +
                             std::to_string(it->second.size) + "]",
                         i_at);
                const int id = it->second.first + static_cast<int>(k);
                return it->second.is_var ? field_->var(id) : field_->par(id);
            }
            if (const int i = field_->variable_index(name); i >= 0) return field_->var(i);
            if (const int j = field_->parameter_index(name); j >= 0) return field_->par(j);
            if (is_reserved(name)) fail("function '" + name + "' needs an argument in parentheses", at);
            fail("undefined name '" + name + "' (not a declared variable, parameter or loop variable)", at);
        }
        if (pos_ >= s_.size()) fail("unexpected end of formula: expected an operand", pos_);
        fail(std::string("unexpected character '") + c + "': expected an operand", pos_);
    }
    bool is_zero(Expr e) const {
        const Node& n = field_->nodes()[e.id()];
        if (n.op != Op::Const) return false;
        const std::string& t = field_->constants()[n.index];
        for (char ch : t)
            if (ch != '0' && ch != '.') return false;
        return true;
    }
};

}  // namespace

std::string ParseResult::message(std::string_view formula) const {
    if (ok()) return {};
    // show about 70 characters around the error, not a whole long formula
    const std::size_t from = position > 40 ? position - 40 : 0;
    std::string shown(formula.substr(from, 70));
    for (char& ch : shown)
        if (ch == '\n' || ch == '\t') ch = ' ';
    std::string m = "formula error at position " + std::to_string(position) + ": " + error + "\n  ";
    m += (from > 0 ? "..." : "") + shown + (from + 70 < formula.size() ? "..." : "");
    m += "\n  " + std::string(position - from + (from > 0 ? 3 : 0), ' ') + "^";
    return m;
}

ParseResult parse_formula(std::string_view formula) {
    ParseResult r;
    try {
        Parser p(formula);
        r.field.emplace(p.parse());
    } catch (const ParseError& e) {
        r.error = e.message;
        r.position = e.position;
    }
    return r;
}

}  // namespace flowcert::taylor
