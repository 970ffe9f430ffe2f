// flowcert/cert/progress.hpp -- progress lines on stderr for long runs (verifier_main owns
// the sink; library code below the cert layer never prints).
#pragma once

#if !defined(FLOWCERT_CERT_INTERNAL)
#error "include <flowcert/cert.hpp>, not the internal headers"
#endif

#include <chrono>
#include <cstddef>
#include <iosfwd>
#include <mutex>
#include <string>

namespace flowcert::cert {

// Thread-safe. Lines look like "[demo/sqrt_bounds] sweep over lambda: 12/40 (30%), ETA 1m05s".
// At most one line every `min_interval` seconds (plus the first and last of a task).
class Progress {
public:
    // sink == nullptr: silent (--quiet).
    explicit Progress(std::ostream* sink, std::string prefix = {}, double min_interval_seconds = 2.0);

    void begin(const std::string& task, std::size_t total = 0);  // total 0: size unknown (no ETA)
    void advance(std::size_t steps = 1);
    void message(const std::string& text);  // always printed (if not silent)
    void finish();

private:
    void emit_locked(bool force);
    std::ostream* sink_;
    std::string prefix_;
    double min_interval_;
    std::mutex mutex_;
    std::string task_;
    std::size_t total_ = 0, done_ = 0;
    std::chrono::steady_clock::time_point started_{}, last_emit_{};
};

}  // namespace flowcert::cert
