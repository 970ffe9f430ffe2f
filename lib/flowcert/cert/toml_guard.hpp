// flowcert/cert/toml_guard.hpp -- a scan of a TOML text before toml++ parses it (header only, so
// `flowcert integrate`'s case reader uses it without linking the cert layer).
//
// toml++ recurses once per part of a dotted key ([a.b.c] or a.b.c = 1) and overflows the stack at
// ~30,000 parts (SIGSEGV; its nesting limit TOML_MAX_NESTED_VALUES covers arrays and inline tables
// only). A key path of more than max_dotted_key_parts parts (dots outside strings and comments,
// between the separators = , [ ] { } and line ends) is refused before parsing.
#pragma once

#if !defined(FLOWCERT_CERT_INTERNAL)
#error "include <flowcert/cert.hpp>, not the internal headers"
#endif

#include <cstddef>
#include <string_view>

namespace flowcert::cert {

inline constexpr int max_dotted_key_parts = 256;

// The 1-based line of the first key path with more than max_dotted_key_parts parts; 0 if none.
inline long overdotted_key_line(std::string_view text) {
    long line = 1;
    int dots = 0;
    const std::size_t n = text.size();
    auto at = [&](std::size_t i, std::string_view s) { return text.substr(i, s.size()) == s; };
    for (std::size_t i = 0; i < n; ++i) {
        const char c = text[i];
        if (c == '\n') {
            ++line;
            dots = 0;
        } else if (c == '#') {  // a comment, to the end of the line
            while (i + 1 < n && text[i + 1] != '\n') ++i;
        } else if (c == '"' || c == '\'') {  // a string: basic (escapes) or literal, one- or multi-line
            const std::string_view triple = c == '"' ? std::string_view("\"\"\"") : std::string_view("'''");
            const bool multi = at(i, triple);
            const std::string_view close = multi ? triple : text.substr(i, 1);
            i += multi ? 3 : 1;
            for (; i < n && !at(i, close); ++i) {
                if (text[i] == '\n') {
                    if (!multi) {  // an unterminated string (toml++ reports it): the line end is seen below
                        --i;
                        break;
                    }
                    ++line;
                }
                if (c == '"' && text[i] == '\\') ++i;
            }
            if (multi && i < n) {
                i += 2;
                while (i + 1 < n && text[i + 1] == c) ++i;  // """"" : quotes before the closing ones
            }
        } else if (c == '.') {
            if (++dots >= max_dotted_key_parts) return line;
        } else if (c == '=' || c == ',' || c == '[' || c == ']' || c == '{' || c == '}') {
            dots = 0;
        }
    }
    return 0;
}

}  // namespace flowcert::cert
