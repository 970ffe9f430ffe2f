#include <flowcert/cert.hpp>

#include <cstdio>
#include <ostream>

namespace flowcert::cert {

namespace {
std::string duration_text(double s) {
    char buf[32];
    if (s < 60) std::snprintf(buf, sizeof buf, "%.0fs", s);
    else if (s < 3600) std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
    else std::snprintf(buf, sizeof buf, "%dh%02dm", static_cast<int>(s) / 3600, static_cast<int>(s) / 60 % 60);
    return buf;
}
}  // namespace

Progress::Progress(std::ostream* sink, std::string prefix, double min_interval_seconds)
    : sink_(sink), prefix_(std::move(prefix)), min_interval_(min_interval_seconds) {}

void Progress::begin(const std::string& task, std::size_t total) {
    std::lock_guard<std::mutex> lock(mutex_);
    task_ = task;
    total_ = total;
    done_ = 0;
    started_ = std::chrono::steady_clock::now();
    last_emit_ = started_;
    emit_locked(true);
}

void Progress::advance(std::size_t steps) {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ += steps;
    emit_locked(false);
}

void Progress::message(const std::string& text) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (sink_) *sink_ << "[" << prefix_ << "] " << text << std::endl;
}

void Progress::finish() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (task_.empty()) return;
    const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    // Only announce the end of tasks that were long enough to report on.
    if (sink_ && el >= min_interval_) *sink_ << "[" << prefix_ << "] " << task_ << ": done in " << duration_text(el) << std::endl;
    task_.clear();
}

void Progress::emit_locked(bool force) {
    if (!sink_) return;
    const auto now = std::chrono::steady_clock::now();
    const double since = std::chrono::duration<double>(now - last_emit_).count();
    if (!force && since < min_interval_) return;
    if (force && done_ == 0) return;  // the first line comes after min_interval (short runs stay quiet)
    last_emit_ = now;
    const double el = std::chrono::duration<double>(now - started_).count();
    *sink_ << "[" << prefix_ << "] " << task_ << ": " << done_;
    if (total_ > 0) {
        *sink_ << "/" << total_ << " (" << (100 * done_ / total_) << "%)";
        if (done_ > 0 && done_ < total_)
            *sink_ << ", ETA " << duration_text(el * static_cast<double>(total_ - done_) / static_cast<double>(done_));
    }
    *sink_ << ", elapsed " << duration_text(el) << std::endl;
}

}  // namespace flowcert::cert
