// flowcert/cert/glance.hpp -- a report at a glance: the one sentence that says what a run
// proved (or which hypothesis failed, or what was not proven), the check that decides it, and
// numbers in short form (%.3g) with the exact value kept beside them (index page, case pages).
#pragma once

#if !defined(FLOWCERT_CERT_INTERNAL)
#error "include <flowcert/cert.hpp>, not the internal headers"
#endif

#include <string>

#include "report.hpp"

namespace flowcert::cert {

struct Headline {
    // "Proven: <the statement proven by this run>", "Outside the hypotheses: hypothesis '...' is
    // false (<statement>)", "Not proven: step '...' (<statement>)", "Counterexample: ...", "Error: ...".
    std::string sentence;
    // The check the verdict turns on: for CERTIFIED the proven decisive check with the smallest
    // margin (the weakest link), else the check verdict_reason names; null if there is none.
    const Check* decisive = nullptr;
};
Headline headline(const Report& report);

// A number in short form: "%.3g" of a double ("1.23e-11"); "" for nullopt-like NaN.
std::string short_number(double x);
// HTML-escapes `text` and shows every number with more than 6 significant digits in short form
// (3 digits, or as many as keep two different numbers of the text apart), the exact text in a
// tooltip: <span class="num" title="1.41421356237309504880e+00">1.41</span>.
std::string html_with_short_numbers(const std::string& text);
// The same for plain text (Markdown): long numbers in short form, nothing else changed.
std::string text_with_short_numbers(const std::string& text);
std::string html_escape(const std::string& text);

}  // namespace flowcert::cert
