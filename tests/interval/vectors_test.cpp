// IEEE 1788-style test vectors: reads tests/interval/data/ieee1788.txt (its header documents
// the format) and checks, for IntervalD and IntervalMp at 53 and 128 bits, that every result
// contains the expected set and is tight where the expected bound is exact.
#include <catch2/catch.hpp>

#include <flowcert/interval.hpp>

#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "adapters.hpp"
#include "reference.hpp"

#ifndef FLOWCERT_INTERVAL_TEST_DATA
#error "FLOWCERT_INTERVAL_TEST_DATA must name tests/interval/data"
#endif

using namespace flowcert;
using namespace flowcert::testing;

namespace {

// A bound of the data file: an exact rational, an approximate value d with |true - d| <= delta,
// or an infinity.
struct FileBound {
    enum Kind { Exact, Approx, NegInf, PosInf } kind = Exact;
    Rat value, delta;
};
struct FileInterval {
    bool entire = false, empty = false;
    FileBound lo, hi;
};
struct Vector {
    int line = 0;
    std::string text, op;
    std::vector<FileInterval> args;
    int n = 0;  // pow exponent
    FileInterval expected;
};

std::string trim(std::string s) {
    const auto b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

FileBound parse_bound(std::string s) {
    FileBound b;
    s = trim(s);
    if (s == "inf" || s == "+inf") { b.kind = FileBound::PosInf; return b; }
    if (s == "-inf") { b.kind = FileBound::NegInf; return b; }
    if (!s.empty() && s[0] == '~') {
        b.kind = FileBound::Approx;
        s = s.substr(1);
    }
    if (s.find("0x") != std::string::npos) {  // hex float: exact at a precision of 4 bits per digit
        mpfr_t t;
        mpfr_init2(t, static_cast<long>(4 * s.size() + 8));
        char* end = nullptr;
        if (mpfr_strtofr(t, s.c_str(), &end, 16, MPFR_RNDN) != 0 || *end != '\0')
            throw std::runtime_error("bad or inexact hex float '" + s + "'");
        mpfr_get_q(b.value.v, t);
        mpfr_clear(t);
    } else if (auto err = parse_rational(s, b.value.v)) {
        throw std::runtime_error(*err);
    }
    if (b.kind == FileBound::Approx) {  // 60 significant digits: |error| <= |d| * 1e-59
        mpq_abs(b.delta.v, b.value.v);
        Rat scale;
        mpq_set_str(scale.v, "1/100000000000000000000000000000000000000000000000000000000000", 10);
        mpq_mul(b.delta.v, b.delta.v, scale.v);
    }
    return b;
}

FileInterval parse_interval(const std::string& s) {
    FileInterval x;
    const std::string body = trim(s.substr(1, s.size() - 2));
    if (body == "entire") { x.entire = true; x.lo.kind = FileBound::NegInf; x.hi.kind = FileBound::PosInf; return x; }
    if (body == "empty") { x.empty = true; return x; }
    const auto comma = body.find(',');
    if (comma == std::string::npos) throw std::runtime_error("expected [lo, hi], got " + s);
    x.lo = parse_bound(body.substr(0, comma));
    x.hi = parse_bound(body.substr(comma + 1));
    return x;
}

std::vector<Vector> load_vectors() {
    const std::string path = std::string(FLOWCERT_INTERVAL_TEST_DATA) + "/ieee1788.txt";
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path);
    std::vector<Vector> out;
    std::string line;
    int no = 0;
    while (std::getline(in, line)) {
        ++no;
        line = trim(line);
        if (line.empty() || line[0] == '#') continue;
        Vector v;
        v.line = no;
        v.text = line;
        const auto arrow = line.find("->");
        if (arrow == std::string::npos) throw std::runtime_error("line " + std::to_string(no) + ": missing ->");
        v.expected = parse_interval(trim(line.substr(arrow + 2)));
        std::istringstream lhs(line.substr(0, arrow));
        lhs >> v.op;
        std::string rest;
        std::getline(lhs, rest);
        rest = trim(rest);
        while (!rest.empty()) {
            if (rest[0] == '[') {
                const auto close = rest.find(']');
                v.args.push_back(parse_interval(rest.substr(0, close + 1)));
                rest = trim(rest.substr(close + 1));
            } else {
                v.n = std::stoi(rest);
                rest.clear();
            }
        }
        out.push_back(std::move(v));
    }
    return out;
}

// ---- the working format: rounding of exact values, ulp steps ----------------------------
struct DoubleFormat {
    using I = IntervalD;
    using A = AdapterD;
    long prec = 53;
    // value rounded to a double in direction rnd (subnormals and overflow included)
    Real round(const mpq_t q, mpfr_rnd_t rnd) const {
        Real t(53);
        mpfr_set_q(t.v, q, rnd);
        mpfr_set_d(t.v, mpfr_get_d(t.v, rnd), MPFR_RNDN);
        return t;
    }
    void step(Real& r, int dir) const {
        const double d = mpfr_get_d(r.v, MPFR_RNDN);
        mpfr_set_d(r.v, dir > 0 ? rounding::next_up(d) : rounding::next_down(d), MPFR_RNDN);
    }
    I make(const Real& lo, const Real& hi) const {
        return IntervalD::bounds(mpfr_get_d(lo.v, MPFR_RNDN), mpfr_get_d(hi.v, MPFR_RNDN));
    }
};
struct MpFormat {
    using I = IntervalMp;
    using A = AdapterMp;
    long prec;
    Real round(const mpq_t q, mpfr_rnd_t rnd) const {
        Real t(prec);
        mpfr_set_q(t.v, q, rnd);
        return t;
    }
    void step(Real& r, int dir) const {
        if (dir > 0) mpfr_nextabove(r.v); else mpfr_nextbelow(r.v);
    }
    I make(const Real& lo, const Real& hi) const { return IntervalMp::from_mpfr(lo.v, hi.v, Precision(prec)); }
};

// An operand at the working precision (outward); `exact` is cleared if a bound was rounded.
template <class F>
typename F::I operand(const F& f, const FileInterval& x, bool& exact) {
    Real lo(f.prec), hi(f.prec);
    if (x.lo.kind == FileBound::NegInf) mpfr_set_inf(lo.v, -1);
    else {
        lo = f.round(x.lo.value.v, MPFR_RNDD);
        exact = exact && mpfr_cmp_q(lo.v, x.lo.value.v) == 0;
    }
    if (x.hi.kind == FileBound::PosInf) mpfr_set_inf(hi.v, +1);
    else {
        hi = f.round(x.hi.value.v, MPFR_RNDU);
        exact = exact && mpfr_cmp_q(hi.v, x.hi.value.v) == 0;
    }
    return f.make(lo, hi);
}

template <class I>
I apply(const std::string& op, const std::vector<I>& a, int n) {
    if (op == "add") return a.at(0) + a.at(1);
    if (op == "sub") return a.at(0) - a.at(1);
    if (op == "mul") return a.at(0) * a.at(1);
    if (op == "div") return a.at(0) / a.at(1);
    if (op == "neg") return -a.at(0);
    if (op == "sqr") return sqr(a.at(0));
    if (op == "pow") return pow(a.at(0), n);
    if (op == "sqrt") return sqrt(a.at(0));
    if (op == "exp") return exp(a.at(0));
    if (op == "expm1") return expm1(a.at(0));
    if (op == "log") return log(a.at(0));
    if (op == "log1p") return log1p(a.at(0));
    if (op == "sin") return sin(a.at(0));
    if (op == "cos") return cos(a.at(0));
    if (op == "atan") return atan(a.at(0));
    if (op == "abs") return abs(a.at(0));
    if (op == "min") return min(a.at(0), a.at(1));
    if (op == "max") return max(a.at(0), a.at(1));
    if (op == "relu") return relu(a.at(0));
    if (op == "leaky_relu") return leaky_relu(a.at(0), a.at(1));
    if (op == "hull") return hull(a.at(0), a.at(1));
    if (op == "intersect") {
        I out = a.at(0);
        if (!intersect(a.at(0), a.at(1), out)) throw std::domain_error("disjoint");
        return out;
    }
    throw std::runtime_error("unknown op " + op);
}

bool basic_op(const std::string& op) {
    return op != "pow" && op != "exp" && op != "expm1" && op != "log" && op != "log1p" && op != "sin" && op != "cos" &&
           op != "atan";
}

// Checks one side of the result. dir = -1: lower bound `r` against expected lower `e`.
template <class F>
void check_bound(const F& f, const Real& r, const FileBound& e, int dir, bool tight_inputs, int k,
                 std::vector<std::string>& problems) {
    const char* side = dir < 0 ? "lower" : "upper";
    const bool r_inf = mpfr_inf_p(r.v) != 0;
    if (e.kind == FileBound::NegInf || e.kind == FileBound::PosInf) {
        if (!r_inf) problems.push_back(std::string(side) + " bound must be infinite");
        return;
    }
    // the extreme value the true bound can take: d - delta (lower) or d + delta (upper)
    Rat extreme;
    if (e.kind == FileBound::Approx) {
        if (dir < 0) mpq_sub(extreme.v, e.value.v, e.delta.v); else mpq_add(extreme.v, e.value.v, e.delta.v);
    } else {
        mpq_set(extreme.v, e.value.v);
    }
    const int c = r_inf ? (mpfr_sgn(r.v) > 0 ? 1 : -1) : mpfr_cmp_q(r.v, extreme.v);
    if ((dir < 0 && c > 0) || (dir > 0 && c < 0)) {
        problems.push_back(std::string(side) + " bound excludes part of the expected set (not an enclosure)");
        return;
    }
    if (!tight_inputs) return;
    Real tightest = f.round(extreme.v, dir < 0 ? MPFR_RNDD : MPFR_RNDU);
    if (e.kind == FileBound::Exact && mpfr_cmp_q(tightest.v, e.value.v) == 0) {
        if (mpfr_cmp(r.v, tightest.v) != 0) problems.push_back(std::string(side) + " bound is exact but not returned exactly");
        return;
    }
    for (int i = 0; i < k; ++i) f.step(tightest, dir);
    if ((dir < 0 && mpfr_cmp(r.v, tightest.v) < 0) || (dir > 0 && mpfr_cmp(r.v, tightest.v) > 0))
        problems.push_back(std::string(side) + " bound is more than " + std::to_string(k) + " ulps from the tightest");
}

template <class F>
int run_vectors(const F& f, const std::vector<Vector>& vs, const char* name) {
    int checked = 0;
    for (const Vector& v : vs) {
        bool exact_inputs = true;
        std::vector<typename F::I> args;
        for (const auto& a : v.args) args.push_back(operand(f, a, exact_inputs));
        std::vector<std::string> problems;
        std::optional<typename F::I> r;
        try {
            r = apply(v.op, args, v.n);
        } catch (const std::domain_error&) {
            if (!v.expected.empty) problems.push_back("raised a domain error but the expected set is not empty");
        }
        if (r) {
            if (v.expected.empty) {
                problems.push_back("returned a result for an empty expected set");
            } else {
                const Bounds b = F::A::bounds(*r);
                const int k = basic_op(v.op) ? 1 : 2;
                check_bound(f, b.lo, v.expected.lo, -1, exact_inputs, k, problems);
                check_bound(f, b.hi, v.expected.hi, +1, exact_inputs, k, problems);
                for (auto& p : problems) p += ", got " + b.str();
            }
        }
        ++checked;
        for (const auto& p : problems) FAIL_CHECK(std::string(name) << " line " << v.line << " '" << v.text << "': " << p);
    }
    return checked;
}

}  // namespace

TEST_CASE("IEEE 1788-style vectors: results contain the set-semantics result and are tight where exact") {
    const std::vector<Vector> vs = load_vectors();
    REQUIRE(vs.size() >= 100);
    CHECK(run_vectors(DoubleFormat{}, vs, "IntervalD") == static_cast<int>(vs.size()));
    CHECK(run_vectors(MpFormat{53}, vs, "IntervalMp@53") == static_cast<int>(vs.size()));
    CHECK(run_vectors(MpFormat{128}, vs, "IntervalMp@128") == static_cast<int>(vs.size()));
}

TEST_CASE("the vector checker rejects a wrong expected result (the vectors can fail)") {
    // A tampered copy of one vector: add [1, 2] [3, 4] -> [4, 5] (true: [4, 6]) must be reported.
    std::vector<Vector> vs = load_vectors();
    REQUIRE(!vs.empty());
    Vector bad = vs.front();
    REQUIRE(bad.text == "add [1, 2] [3, 4] -> [4, 6]");
    std::vector<std::string> problems;
    const IntervalD r = IntervalD::bounds(1, 2) + IntervalD::bounds(3, 4);
    FileBound tampered = parse_bound("5");
    check_bound(DoubleFormat{}, AdapterD::bounds(r).hi, tampered, +1, true, 1, problems);
    REQUIRE(problems.size() == 1);  // upper 6 is exact-representable but 5 was "expected"
    problems.clear();
    FileBound outside = parse_bound("7");  // an expected set reaching 7 is not enclosed by [4, 6]
    check_bound(DoubleFormat{}, AdapterD::bounds(r).hi, outside, +1, true, 1, problems);
    REQUIRE(problems.size() == 1);
}
