#include <flowcert/interval.hpp>

#include <cctype>
#include <string>

namespace flowcert {

namespace {

bool all_digits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

std::string quoted(std::string_view s) {
    std::string t(s.substr(0, 60));
    if (s.size() > 60) t += "...";
    return "'" + t + "'";
}

// The exponent "[sign] digits" of a number `full` into `out`, |out| <= limit; else a message naming `name`
// ("exponent" or "binary exponent") and `bound` (e.g. "|e| <= 100000").
std::optional<std::string> signed_exponent(std::string_view e, std::string_view full, long long limit, const std::string& name,
                                           const std::string& bound, long long& out) {
    bool negative = false;
    if (!e.empty() && (e[0] == '+' || e[0] == '-')) {
        negative = e[0] == '-';
        e.remove_prefix(1);
    }
    if (!all_digits(e)) return "malformed " + name + " in " + quoted(full);
    if (e.size() > std::to_string(limit).size()) return name + " out of range in " + quoted(full) + " (" + bound + ")";
    out = std::stoll(std::string(e));
    if (out > limit) return name + " out of range in " + quoted(full) + " (" + bound + ")";
    if (negative) out = -out;
    return std::nullopt;
}

// A C99 hexadecimal float ("0x1.999999999999ap-4", "-0X1P+3", "0x.8"): [sign] 0x hexdigits [. hexdigits]
// [(p|P) [sign] digits], the exact value mantissa * 2^(exponent - 4 * fraction digits). This is how
// float64 data (numpy, PyTorch: float.hex()) enters exactly. `text` has its sign removed already.
std::optional<std::string> parse_hex_float(std::string_view full, std::string_view text, bool negative, mpq_t out) {
    std::size_t i = 2;  // after "0x"
    std::string digits;
    long long frac_digits = 0;
    bool seen_point = false;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (std::isxdigit(static_cast<unsigned char>(c))) {
            digits += c;
            if (seen_point) ++frac_digits;
        } else if (c == '.' && !seen_point) {
            seen_point = true;
        } else {
            break;
        }
    }
    if (digits.empty()) return "malformed hexadecimal float " + quoted(full) + ": expected e.g. 0x1.999999999999ap-4";
    long long exponent = 0;
    if (i < text.size()) {
        if (text[i] != 'p' && text[i] != 'P')
            return "malformed hexadecimal float " + quoted(full) + ": unexpected character '" + std::string(1, text[i]) + "'";
        if (auto err = signed_exponent(text.substr(i + 1), full, 1000000, "binary exponent", "|p| <= 1000000", exponent))
            return err;
    }
    const long long scale = exponent - 4 * frac_digits;  // value = digits * 2^scale
    mpz_t m;
    mpz_init_set_str(m, digits.c_str(), 16);
    if (negative) mpz_neg(m, m);
    mpq_set_z(out, m);
    if (scale >= 0) mpq_mul_2exp(out, out, static_cast<unsigned long>(scale));
    else mpq_div_2exp(out, out, static_cast<unsigned long>(-scale));
    mpz_clear(m);
    return std::nullopt;
}

}  // namespace

std::optional<std::string> parse_rational(std::string_view text, mpq_t out) {
    if (text.empty()) return "empty string where a number was expected";
    {
        const std::size_t s = (text[0] == '+' || text[0] == '-') ? 1 : 0;
        if (text.size() >= s + 2 && text[s] == '0' && (text[s + 1] == 'x' || text[s + 1] == 'X'))
            return parse_hex_float(text, text.substr(s), text[0] == '-', out);
    }
    const auto slash = text.find('/');
    if (slash != std::string_view::npos) {
        std::string_view num = text.substr(0, slash), den = text.substr(slash + 1);
        std::string_view num_digits = (!num.empty() && (num[0] == '-' || num[0] == '+')) ? num.substr(1) : num;
        if (!all_digits(num_digits) || !all_digits(den))
            return "malformed rational " + quoted(text) + ": expected p/q with integers p and q (e.g. 8/3)";
        std::string n(num[0] == '+' ? num.substr(1) : num), d(den);
        mpz_t zn, zd;
        mpz_init_set_str(zn, n.c_str(), 10);
        mpz_init_set_str(zd, d.c_str(), 10);
        if (mpz_sgn(zd) == 0) {
            mpz_clears(zn, zd, nullptr);
            return "rational " + quoted(text) + " has a zero denominator";
        }
        mpq_set_num(out, zn);
        mpq_set_den(out, zd);
        mpq_canonicalize(out);
        mpz_clears(zn, zd, nullptr);
        return std::nullopt;
    }
    // [sign] digits [. digits] [(e|E) [sign] digits], at least one mantissa digit.
    std::size_t i = 0;
    bool negative = false;
    if (text[i] == '+' || text[i] == '-') negative = text[i++] == '-';
    std::string digits;
    long long frac_digits = 0;
    bool seen_point = false, seen_digit = false;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (std::isdigit(static_cast<unsigned char>(c))) {
            digits += c;
            seen_digit = true;
            if (seen_point) ++frac_digits;
        } else if (c == '.' && !seen_point) {
            seen_point = true;
        } else {
            break;
        }
    }
    if (!seen_digit) return "malformed number " + quoted(text) + ": expected a decimal such as -1.25e-3 or a rational such as 8/3";
    long long exponent = 0;
    if (i < text.size()) {
        if (text[i] != 'e' && text[i] != 'E')
            return "malformed number " + quoted(text) + ": unexpected character '" + std::string(1, text[i]) + "'";
        if (auto err = signed_exponent(text.substr(i + 1), text, 100000, "exponent", "|e| <= 100000", exponent)) return err;
    }
    const long long scale = exponent - frac_digits;  // value = digits * 10^scale
    mpz_t m, p;
    mpz_init_set_str(m, digits.c_str(), 10);
    mpz_init(p);
    mpz_ui_pow_ui(p, 10, static_cast<unsigned long>(scale < 0 ? -scale : scale));
    if (negative) mpz_neg(m, m);
    if (scale >= 0) {
        mpz_mul(m, m, p);
        mpq_set_z(out, m);
    } else {
        mpq_set_num(out, m);
        mpq_set_den(out, p);
        mpq_canonicalize(out);
    }
    mpz_clears(m, p, nullptr);
    return std::nullopt;
}

bool is_number(std::string_view text) {
    mpq_t q;
    mpq_init(q);
    const bool ok = !parse_rational(text, q).has_value();
    mpq_clear(q);
    return ok;
}

}  // namespace flowcert
