// The .npy reader (npy.hpp): numpy's format, NEP 1 ("A simple file format for NumPy arrays").
#include <flowcert/cert.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace flowcert::cert {
namespace {

[[noreturn]] void bad(const std::string& what) { throw std::runtime_error("not a readable .npy file: " + what); }

// The value of key `key` in the header dict literal, as raw text up to the next top-level comma or '}'.
std::string dict_value(std::string_view header, std::string_view key) {
    for (const char q : {'\'', '"'}) {
        const std::string k = std::string(1, q) + std::string(key) + std::string(1, q);
        const auto at = header.find(k);
        if (at == std::string_view::npos) continue;
        auto i = header.find(':', at + k.size());
        if (i == std::string_view::npos) bad("header key '" + std::string(key) + "' has no value");
        ++i;
        while (i < header.size() && header[i] == ' ') ++i;
        int depth = 0;
        std::size_t j = i;
        for (; j < header.size(); ++j) {
            const char c = header[j];
            if (c == '(' || c == '[') ++depth;
            else if (c == ')' || c == ']') --depth;
            else if ((c == ',' || c == '}') && depth == 0) break;
        }
        return std::string(header.substr(i, j - i));
    }
    bad("the header has no '" + std::string(key) + "'");
}

std::vector<std::size_t> parse_shape(const std::string& s) {
    if (s.size() < 2 || s.front() != '(' || s.back() != ')') bad("shape '" + s + "' is not a tuple");
    std::vector<std::size_t> shape;
    std::string cur;
    for (std::size_t i = 1; i + 1 < s.size(); ++i) {
        const char c = s[i];
        if (c >= '0' && c <= '9') cur += c;
        else if (c == ',') {
            if (!cur.empty()) shape.push_back(std::stoull(cur));
            cur.clear();
        } else if (c != ' ' && c != 'L') bad("shape '" + s + "' is not a tuple of integers");
    }
    if (!cur.empty()) shape.push_back(std::stoull(cur));
    for (auto n : shape)
        if (n > (std::size_t{1} << 40)) bad("shape '" + s + "' is too large");
    return shape;
}

template <class T>
T load(const unsigned char* p, bool big_endian) {
    unsigned char b[sizeof(T)];
    std::memcpy(b, p, sizeof(T));
    if (big_endian != (std::endian::native == std::endian::big))
        for (std::size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(b[i], b[sizeof(T) - 1 - i]);
    T v;
    std::memcpy(&v, b, sizeof(T));
    return v;
}

std::string hex_of(double x) {
    if (!std::isfinite(x)) bad("contains a non-finite value (" + std::to_string(x) + ")");
    return exact_string(x);
}

}  // namespace

NpyArray parse_npy(std::string_view bytes) {
    static constexpr char magic[] = "\x93NUMPY";
    if (bytes.size() < 10 || bytes.substr(0, 6) != std::string_view(magic, 6)) bad("it does not start with \\x93NUMPY");
    const auto u = [&](std::size_t i) { return static_cast<unsigned char>(bytes[i]); };
    const int major = u(6);
    std::size_t header_len = 0, offset = 0;
    if (major == 1) {
        header_len = u(8) | (u(9) << 8);
        offset = 10;
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12) bad("truncated header");
        header_len = u(8) | (u(9) << 8) | (std::size_t(u(10)) << 16) | (std::size_t(u(11)) << 24);
        offset = 12;
    } else {
        bad("format version " + std::to_string(major) + " (1, 2 and 3 are supported)");
    }
    if (bytes.size() < offset + header_len) bad("truncated header");
    const std::string_view header = bytes.substr(offset, header_len);
    NpyArray out;
    std::string descr = dict_value(header, "descr");
    if (descr.size() < 2 || (descr.front() != '\'' && descr.front() != '"')) bad("descr " + descr + " is not a simple dtype");
    out.descr = descr.substr(1, descr.size() - 2);
    const std::string fortran = dict_value(header, "fortran_order");
    if (fortran != "True" && fortran != "False") bad("fortran_order '" + fortran + "'");
    out.shape = parse_shape(dict_value(header, "shape"));

    const std::string& d = out.descr;
    if (d.size() < 3) bad("dtype '" + d + "' is not supported");
    const char order = d[0], kind = d[1];
    const int size = std::atoi(d.c_str() + 2);
    const bool big = order == '>';
    if (order != '<' && order != '>' && order != '|' && order != '=') bad("dtype '" + d + "' is not supported");
    const bool ok = (kind == 'f' && (size == 4 || size == 8)) ||
                    ((kind == 'i' || kind == 'u') && (size == 1 || size == 2 || size == 4 || size == 8));
    if (!ok) bad("dtype '" + d + "' is not supported (float64, float32 and integers are)");
    std::size_t count = 1;
    for (auto n : out.shape) count *= n;
    const std::size_t data_at = offset + header_len;
    if (bytes.size() - data_at < count * static_cast<std::size_t>(size))
        bad("the data is truncated (" + std::to_string(bytes.size() - data_at) + " bytes for " + std::to_string(count) +
            " values of " + std::to_string(size) + " bytes)");
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data() + data_at);
    std::vector<std::string> raw(count);
    for (std::size_t i = 0; i < count; ++i) {
        const unsigned char* q = p + i * size;
        if (kind == 'f') raw[i] = hex_of(size == 8 ? load<double>(q, big) : static_cast<double>(load<float>(q, big)));
        else if (kind == 'i')
            raw[i] = std::to_string(size == 1 ? load<std::int8_t>(q, big) : size == 2 ? load<std::int16_t>(q, big)
                                    : size == 4 ? load<std::int32_t>(q, big) : load<std::int64_t>(q, big));
        else
            raw[i] = std::to_string(size == 1 ? load<std::uint8_t>(q, big) : size == 2 ? load<std::uint16_t>(q, big)
                                    : size == 4 ? load<std::uint32_t>(q, big) : load<std::uint64_t>(q, big));
    }
    if (fortran == "False" || out.shape.size() < 2) {
        out.values = std::move(raw);
        return out;
    }
    // Fortran order: the first index varies fastest; rewrite in C order.
    out.values.resize(count);
    const std::size_t r = out.shape.size();
    std::vector<std::size_t> idx(r, 0);
    for (std::size_t c = 0; c < count; ++c) {  // c: C-order position of idx
        std::size_t f = 0, stride = 1;
        for (std::size_t k = 0; k < r; ++k) {
            f += idx[k] * stride;
            stride *= out.shape[k];
        }
        out.values[c] = raw[f];
        for (std::size_t k = r; k-- > 0;) {
            if (++idx[k] < out.shape[k]) break;
            idx[k] = 0;
        }
    }
    return out;
}

NpyArray read_npy(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open '" + file.string() + "'");
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    try {
        return parse_npy(bytes);
    } catch (const std::runtime_error& e) {
        throw std::runtime_error("'" + file.string() + "': " + e.what());
    }
}

}  // namespace flowcert::cert
