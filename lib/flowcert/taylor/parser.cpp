// flowcert/taylor/parser.cpp -- recursive-descent parser for CAPD's formula syntax.
#include <flowcert/taylor.hpp>

#include <cctype>
#include <stdexcept>
#include <vector>

namespace flowcert::taylor {
namespace {

struct ParseError {
    std::string message;
    std::size_t position;
};

class Parser {
public:
    explicit Parser(std::string_view s) : s_(s) {}

    VectorField parse() {
        std::vector<std::string> vars, pars;
        std::vector<std::pair<std::size_t, std::size_t>> fun_span;  // not used
        bool have_var = false, have_par = false;
        std::size_t fun_start = std::string_view::npos;
        // Sections "name: list;" in the order var, par (optional), fun.
        while (true) {
            skip();
            if (pos_ >= s_.size()) break;
            const std::size_t at = pos_;
            const std::string key = ident("a section name (var, par or fun)");
            skip();
            expect(':');
            if (key == "var" || key == "par") {
                if (fun_start != std::string_view::npos) fail("'" + key + ":' must come before 'fun:'", at);
                if ((key == "var" && have_var) || (key == "par" && have_par)) fail("repeated section '" + key + ":'", at);
                auto& list = key == "var" ? vars : pars;
                (key == "var" ? have_var : have_par) = true;
                skip();
                if (peek() != ';') {
                    while (true) {
                        skip();
                        const std::size_t name_at = pos_;
                        std::string name = ident("a name");
                        if (is_reserved(name)) fail("'" + name + "' is a function name", name_at);
                        for (const auto& v : vars)
                            if (v == name) fail("name '" + name + "' defined twice", name_at);
                        for (const auto& v : pars)
                            if (v == name) fail("name '" + name + "' defined twice", name_at);
                        list.push_back(std::move(name));
                        skip();
                        if (peek() == ',') { ++pos_; continue; }
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
                fail("unknown section '" + key + "' (expected var, par or fun)", at);
            }
        }
        if (fun_start == std::string_view::npos) fail("missing 'fun:' section", s_.size());
        VectorField f(vars, pars);
        field_ = &f;
        std::vector<Expr> comps;
        while (true) {
            comps.push_back(expr());
            skip();
            if (peek() == ',') { ++pos_; continue; }
            break;
        }
        skip();
        if (peek() == ';') ++pos_;
        else if (pos_ < s_.size()) fail("expected ',', ';' or an operator", pos_);
        skip();
        if (pos_ < s_.size()) fail("unexpected text after the 'fun:' section", pos_);
        if (static_cast<int>(comps.size()) != f.dimension())
            fail("'fun:' has " + std::to_string(comps.size()) + " components but 'var:' declares " +
                     std::to_string(f.dimension()) + " variables",
                 fun_start);
        f.set_rhs(comps);
        field_ = nullptr;
        return f;
    }

private:
    std::string_view s_;
    std::size_t pos_ = 0;
    VectorField* field_ = nullptr;

    [[noreturn]] void fail(const std::string& m, std::size_t at) { throw ParseError{m, at}; }
    void skip() {
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    }
    char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
    void expect(char c) {
        skip();
        if (peek() != c) {
            std::string got = pos_ < s_.size() ? std::string("'") + s_[pos_] + "'" : std::string("end of formula");
            fail(std::string("expected '") + c + "', found " + got, pos_);
        }
        ++pos_;
    }
    static bool is_reserved(const std::string& n) {
        return n == "sqr" || n == "sqrt" || n == "exp" || n == "log" || n == "sin" || n == "cos" || n == "relu" ||
               n == "max";
    }
    std::string ident(const char* what) {
        skip();
        const std::size_t b = pos_;
        if (!(std::isalpha(static_cast<unsigned char>(peek())) || peek() == '_')) fail(std::string("expected ") + what, pos_);
        while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
        return std::string(s_.substr(b, pos_ - b));
    }

    // expr := term (('+'|'-') term)*
    Expr expr() {
        Expr e = term();
        while (true) {
            skip();
            if (peek() == '+') { ++pos_; e = e + term(); }
            else if (peek() == '-') { ++pos_; e = e - term(); }
            else return e;
        }
    }
    // term := unary (('*'|'/') unary)*
    Expr term() {
        Expr e = unary();
        while (true) {
            skip();
            if (peek() == '*') { ++pos_; e = e * unary(); }
            else if (peek() == '/') { ++pos_; e = e / unary(); }
            else return e;
        }
    }
    // unary := ('-'|'+') unary | power
    Expr unary() {
        skip();
        if (peek() == '-') { ++pos_; return -unary(); }
        if (peek() == '+') { ++pos_; return unary(); }
        return power();
    }
    // power := primary ('^' integer | '^' '(' ['-'] integer ')')?
    Expr power() {
        Expr base = primary();
        skip();
        if (peek() != '^') return base;
        ++pos_;
        skip();
        const std::size_t at = pos_;
        bool paren = false, neg = false;
        if (peek() == '(') { paren = true; ++pos_; skip(); }
        if (peek() == '-') { neg = true; ++pos_; skip(); }
        if (!std::isdigit(static_cast<unsigned char>(peek()))) fail("expected an integer exponent after '^'", pos_);
        long long n = 0;
        while (std::isdigit(static_cast<unsigned char>(peek()))) {
            n = n * 10 + (s_[pos_] - '0');
            if (n > 1000000) fail("exponent too large", at);
            ++pos_;
        }
        if (peek() == '.') fail("only integer exponents are supported", at);
        if (paren) expect(')');
        return pow(base, static_cast<int>(neg ? -n : n));
    }
    Expr number() {
        const std::size_t b = pos_;
        while (std::isdigit(static_cast<unsigned char>(peek()))) ++pos_;
        if (peek() == '.') {
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
    Expr primary() {
        skip();
        const std::size_t at = pos_;
        const char c = peek();
        if (c == '(') {
            ++pos_;
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
                if (name == "max") {
                    skip();
                    const std::size_t a0 = pos_;
                    Expr a = expr();
                    expect(',');
                    skip();
                    const std::size_t b0 = pos_;
                    Expr b = expr();
                    expect(')');
                    if (is_zero(b)) return relu(a);
                    if (is_zero(a)) return relu(b);
                    (void)a0;
                    fail("max is supported only as max(expr, 0) or max(0, expr)", b0);
                }
                Expr a = expr();
                expect(')');
                if (name == "sqr") return sqr(a);
                if (name == "sqrt") return sqrt(a);
                if (name == "exp") return exp(a);
                if (name == "log") return log(a);
                if (name == "sin") return sin(a);
                if (name == "cos") return cos(a);
                if (name == "relu") return relu(a);
                fail("unknown function '" + name + "'", at);
            }
            if (const int i = field_->variable_index(name); i >= 0) return field_->var(i);
            if (const int j = field_->parameter_index(name); j >= 0) return field_->par(j);
            if (is_reserved(name)) fail("function '" + name + "' needs an argument in parentheses", at);
            fail("undefined name '" + name + "' (not a declared variable or parameter)", at);
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
    std::string m = "formula error at position " + std::to_string(position) + ": " + error + "\n  ";
    m += formula;
    m += "\n  " + std::string(position, ' ') + "^";
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
