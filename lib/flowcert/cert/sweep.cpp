// Sweeps split into parts and merged (sweep.hpp; issue 7).
#include <flowcert/cert.hpp>

#include <mpfi.h>
#include <mpfr.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <numeric>
#include <set>
#include <sstream>
#include <thread>

namespace flowcert::cert {

using nlohmann::json;

// ---- exact encodings -------------------------------------------------------------------------

std::string exact_string(double x) {
    if (std::isnan(x)) throw std::invalid_argument("exact_string: NaN has no exact encoding");
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%a", x);  // C99 hexadecimal float: every bit of x
    return buf;
}

double parse_exact_double(const std::string& text) {
    if (text == "inf") return INFINITY;
    if (text == "-inf") return -INFINITY;
    const bool neg = !text.empty() && text[0] == '-';
    if (text.compare(neg ? 1 : 0, 2, "0x") != 0)
        throw std::invalid_argument("'" + text + "' is not an exact (hexadecimal) double");
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    // Only the canonical form of exact_string is accepted: a string that converts with rounding,
    // or that is not the printout of the double it converts to, is not an exact record.
    if (end != text.c_str() + text.size() || errno == ERANGE || std::isnan(v) || exact_string(v) != text)
        throw std::invalid_argument("'" + text + "' is not an exact (canonical hexadecimal) double");
    return v;
}

json exact_json(const IntervalD& x) { return json::array({exact_string(x.lower()), exact_string(x.upper())}); }

json exact_json(const ProofResult& r) { return {{"status", std::string(to_string(r.status))}, {"reason", r.reason}}; }

ProofResult proof_result_from_json(const json& j) {
    const auto st = parse_check_status(j.at("status").get<std::string>());
    if (!st) throw std::invalid_argument("bad status in a sweep record");
    return {*st, j.at("reason").get<std::string>()};
}

IntervalD interval_d_from_json(const json& j) {
    if (!j.is_array() || j.size() != 2 || !j[0].is_string() || !j[1].is_string())
        throw std::invalid_argument("an interval record must be [\"lo\", \"hi\"], got " + j.dump().substr(0, 80));
    return IntervalD::bounds(parse_exact_double(j[0].get<std::string>()), parse_exact_double(j[1].get<std::string>()));
}

namespace {

std::string mpfr_exact_string(mpfr_srcptr v) {
    if (mpfr_nan_p(v)) throw std::invalid_argument("exact_json: NaN bound has no exact encoding");
    char* buf = nullptr;
    if (mpfr_asprintf(&buf, "%Ra", v) < 0 || !buf) throw std::runtime_error("mpfr_asprintf failed");
    std::string s(buf);
    mpfr_free_str(buf);
    return s;
}

// Exact conversion of a canonical "%Ra" string at `bits` bits into v (initialised at bits).
void mpfr_from_exact_string(mpfr_ptr v, const std::string& text) {
    char* end = nullptr;
    const int inexact = mpfr_strtofr(v, text.c_str(), &end, 0, MPFR_RNDN);
    if (text.empty() || end != text.c_str() + text.size() || inexact != 0 || mpfr_nan_p(v) ||
        mpfr_exact_string(v) != text)
        throw std::invalid_argument("'" + text + "' is not an exact (canonical hexadecimal) bound at " +
                                    std::to_string(mpfr_get_prec(v)) + " bits");
}

}  // namespace

json exact_json(const IntervalMp& x) {
    const long bits = x.precision();
    mpfr_t l, u;
    mpfr_init2(l, bits);
    mpfr_init2(u, bits);
    mpfi_get_left(l, x.get());  // exact at the interval's own precision
    mpfi_get_right(u, x.get());
    json j;
    try {
        j = {{"bits", bits}, {"lo", mpfr_exact_string(l)}, {"hi", mpfr_exact_string(u)}};
    } catch (...) {
        mpfr_clears(l, u, static_cast<mpfr_ptr>(nullptr));
        throw;
    }
    mpfr_clears(l, u, static_cast<mpfr_ptr>(nullptr));
    return j;
}

IntervalMp interval_mp_from_json(const json& j) {
    if (!j.is_object() || !j.contains("bits") || !j["bits"].is_number_integer() || !j.contains("lo") ||
        !j["lo"].is_string() || !j.contains("hi") || !j["hi"].is_string())
        throw std::invalid_argument("an IntervalMp record must be {\"bits\": p, \"lo\": ..., \"hi\": ...}, got " +
                                    j.dump().substr(0, 80));
    const long bits = j["bits"].get<long>();
    if (bits < 2 || bits > 100000) throw std::invalid_argument("IntervalMp record: precision out of range");
    mpfr_t l, u;
    mpfr_init2(l, bits);
    mpfr_init2(u, bits);
    try {
        mpfr_from_exact_string(l, j["lo"].get<std::string>());
        mpfr_from_exact_string(u, j["hi"].get<std::string>());
        IntervalMp r = IntervalMp::from_mpfr(l, u, Precision(bits));  // same precision: exact
        mpfr_clears(l, u, static_cast<mpfr_ptr>(nullptr));
        return r;
    } catch (...) {
        mpfr_clears(l, u, static_cast<mpfr_ptr>(nullptr));
        throw;
    }
}

// ---- parts ------------------------------------------------------------------------------------

namespace {

std::string digest_of(json j) {
    j.erase("digest");
    return sha256_hex(j.dump());
}

}  // namespace

json to_json(const SweepPart& part) {
    const SweepIdentity& id = part.identity;
    json points = json::array();
    for (const auto& p : part.points) {
        if (p.failed) points.push_back({{"index", p.index}, {"error", p.error}});
        else points.push_back({{"index", p.index}, {"record", json::parse(p.record)}});
    }
    json j = {{"format", sweep_part_format},
              {"format_version", sweep_part_format_version},
              {"verifier", id.verifier},
              {"case_sha256", id.case_sha256},
              {"build_id", id.build_id},
              {"precision_bits", id.precision_bits},
              {"sweep", id.sweep},
              {"count", id.count},
              {"points", std::move(points)}};
    j["digest"] = digest_of(j);
    return j;
}

SweepPart sweep_part_from_json(const json& j) {
    try {
        if (!j.is_object() || j.value("format", "") != sweep_part_format)
            throw SweepMergeError("not a flowcert sweep part");
        if (j.at("format_version").get<int>() != sweep_part_format_version)
            throw SweepMergeError("sweep part format version " + j.at("format_version").dump() + " (expected " +
                                  std::to_string(sweep_part_format_version) + ")");
        if (!j.contains("digest") || j.at("digest").get<std::string>() != digest_of(j))
            throw SweepMergeError("digest mismatch: the part was changed after it was written");
        SweepPart p;
        p.identity.verifier = j.at("verifier").get<std::string>();
        p.identity.case_sha256 = j.at("case_sha256").get<std::string>();
        p.identity.build_id = j.at("build_id").get<std::string>();
        p.identity.precision_bits = j.at("precision_bits").get<long>();
        p.identity.sweep = j.at("sweep").get<std::string>();
        p.identity.count = j.at("count").get<std::size_t>();
        for (const auto& e : j.at("points")) {
            SweepPart::Point q;
            q.index = e.at("index").get<std::size_t>();
            if (e.contains("error")) {
                q.failed = true;
                q.error = e.at("error").get<std::string>();
            } else {
                q.record = e.at("record").dump();
            }
            p.points.push_back(std::move(q));
        }
        return p;
    } catch (const SweepMergeError&) {
        throw;
    } catch (const std::exception& e) {
        throw SweepMergeError(std::string("malformed sweep part: ") + e.what());
    }
}

void write_sweep_part(const SweepPart& part, const std::filesystem::path& file) {
    if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::trunc);
    out << to_json(part).dump(1) << "\n";
    if (!out) throw std::runtime_error("cannot write the sweep part " + file.string());
}

SweepPart read_sweep_part(const std::filesystem::path& file) {
    std::ifstream in(file);
    if (!in) throw SweepMergeError("cannot read the sweep part " + file.string());
    json j;
    try {
        j = json::parse(in);
    } catch (const std::exception& e) {
        throw SweepMergeError("sweep part " + file.string() + " is not JSON: " + e.what());
    }
    try {
        SweepPart p = sweep_part_from_json(j);
        p.source = file.string();
        return p;
    } catch (const SweepMergeError& e) {
        throw SweepMergeError("sweep part " + file.string() + ": " + e.what());
    }
}

std::map<std::size_t, SweepPart::Point> merge_sweep_parts(const std::vector<SweepPart>& parts,
                                                          const SweepIdentity& expected) {
    std::map<std::size_t, SweepPart::Point> out;
    std::map<std::size_t, std::string> from;
    for (const auto& p : parts) {
        const std::string src = p.source.empty() ? std::string("a sweep part") : "sweep part " + p.source;
        const SweepIdentity& id = p.identity;
        auto refuse = [&](const std::string& what, const std::string& got, const std::string& want) {
            throw SweepMergeError(src + " belongs to another " + what + " (" + got + ", this run: " + want + ")");
        };
        if (id.verifier != expected.verifier) refuse("verifier", id.verifier, expected.verifier);
        if (id.case_sha256 != expected.case_sha256) refuse("case file", "SHA-256 " + id.case_sha256, expected.case_sha256);
        if (id.build_id != expected.build_id) refuse("build of the verifier", id.build_id, expected.build_id);
        if (id.precision_bits != expected.precision_bits)
            refuse("precision", std::to_string(id.precision_bits) + " bits", std::to_string(expected.precision_bits) + " bits");
        if (id.sweep != expected.sweep) refuse("sweep", id.sweep, expected.sweep);
        if (id.count != expected.count)
            refuse("sweep size", std::to_string(id.count) + " points", std::to_string(expected.count) + " points");
        for (const auto& q : p.points) {
            if (q.index >= expected.count)
                throw SweepMergeError(src + " has point " + std::to_string(q.index) + " of a sweep of " +
                                      std::to_string(expected.count) + " points");
            if (out.count(q.index))
                throw SweepMergeError("point " + std::to_string(q.index) + " appears twice (" + from[q.index] + " and " +
                                      src + ")");
            out[q.index] = q;
            from[q.index] = src;
        }
    }
    std::string missing;
    std::size_t n_missing = 0;
    for (std::size_t i = 0; i < expected.count; ++i)
        if (!out.count(i)) {
            if (++n_missing <= 10) missing += (missing.empty() ? "" : ", ") + std::to_string(i);
        }
    if (n_missing)
        throw SweepMergeError(std::to_string(n_missing) + " of " + std::to_string(expected.count) +
                              " sweep points missing from the parts (" + missing + (n_missing > 10 ? ", ..." : "") + ")");
    return out;
}

std::vector<std::size_t> parse_point_list(const std::string& text) {
    std::set<std::size_t> s;
    std::stringstream ss(text);
    auto num = [&](const std::string& t) -> std::size_t {
        if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos || t.size() > 15)
            throw std::invalid_argument("point list '" + text + "': '" + t + "' is not a point index");
        return std::stoull(t);
    };
    for (std::string item; std::getline(ss, item, ',');) {
        const auto dash = item.find('-');
        if (dash == std::string::npos) {
            s.insert(num(item));
        } else {
            const std::size_t a = num(item.substr(0, dash)), b = num(item.substr(dash + 1));
            if (a > b || b - a > 10000000) throw std::invalid_argument("point list '" + text + "': bad range " + item);
            for (std::size_t i = a; i <= b; ++i) s.insert(i);
        }
    }
    if (s.empty()) throw std::invalid_argument("empty point list");
    return {s.begin(), s.end()};
}

const std::string& verifier_build_id() {
    static const std::string id = [] {
        std::ifstream in("/proc/self/exe", std::ios::binary);
        std::ostringstream s;
        s << in.rdbuf();
        return in ? sha256_hex(s.str()) : std::string("unknown");
    }();
    return id;
}

// ---- Context::sweep -----------------------------------------------------------------------------

namespace {

std::vector<SweepPart::Point> compute_points(const std::vector<std::size_t>& indices, const SweepPointFn& fn,
                                             const SweepOptions& opt, Progress& progress, const std::string& name) {
    std::vector<SweepPart::Point> out(indices.size());
    std::vector<std::size_t> order(indices.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    if (opt.cost) {
        std::vector<double> c(indices.size());
        for (std::size_t k = 0; k < indices.size(); ++k) c[k] = opt.cost(indices[k]);
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return c[a] > c[b]; });
    }
    std::atomic<std::size_t> next{0};
    std::mutex mu;
    progress.begin("sweep over " + name, indices.size());
    auto worker = [&] {
        for (;;) {
            const std::size_t k = next.fetch_add(1);
            if (k >= order.size()) return;
            SweepPart::Point& p = out[order[k]];
            p.index = indices[order[k]];
            try {
                p.record = fn(p.index).dump();
            } catch (const std::exception& e) {
                p.failed = true;
                p.error = e.what();
            } catch (...) {
                p.failed = true;
                p.error = "unknown exception";
            }
            std::lock_guard<std::mutex> lock(mu);
            progress.advance();
        }
    };
    const int threads = std::max(1, std::min<int>(opt.threads, static_cast<int>(std::max<std::size_t>(1, indices.size()))));
    if (threads == 1) {
        worker();
    } else {
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
        for (auto& t : pool) t.join();
    }
    progress.finish();
    return out;
}

}  // namespace

std::vector<json> Context::sweep(std::size_t count, const SweepPointFn& fn, const SweepOptions& opt) {
    detail::SweepDriver direct;
    detail::SweepDriver& d = sweep_driver ? *sweep_driver : direct;
    if (d.called) throw std::logic_error("Context::sweep called twice in one run");
    d.called = true;
    d.identity.count = count;
    using Mode = detail::SweepDriver::Mode;
    std::vector<SweepPart::Point> points;
    switch (d.mode) {
        case Mode::count: throw detail::SweepStop{count};
        case Mode::points: {
            for (std::size_t i : d.points)
                if (i >= count)
                    throw detail::SweepUsageError("point " + std::to_string(i) + " does not exist (the sweep has " +
                                                std::to_string(count) + " points, 0.." + std::to_string(count ? count - 1 : 0) + ")");
            SweepPart part;
            part.identity = d.identity;
            part.points = compute_points(d.points, fn, opt, progress, d.identity.sweep);
            write_sweep_part(part, d.out);
            d.written = part.points.size();
            throw detail::SweepStop{count};
        }
        case Mode::merge: {
            for (auto& [i, p] : merge_sweep_parts(d.parts, d.identity)) points.push_back(std::move(p));
            break;
        }
        case Mode::direct: {
            std::vector<std::size_t> all(count);
            std::iota(all.begin(), all.end(), std::size_t{0});
            points = compute_points(all, fn, opt, progress, d.identity.sweep.empty() ? "points" : d.identity.sweep);
            break;
        }
    }
    // The same path for a direct and a merged run: records parsed from their JSON text, in index order.
    std::vector<json> records;
    records.reserve(points.size());
    for (const auto& p : points) {
        if (p.failed)
            throw std::runtime_error("sweep point " + std::to_string(p.index) + " (" + d.identity.sweep + "): " + p.error);
        try {
            records.push_back(json::parse(p.record));
        } catch (const std::exception& e) {
            throw SweepMergeError("sweep point " + std::to_string(p.index) + ": record is not JSON: " + e.what());
        }
    }
    return records;
}

}  // namespace flowcert::cert
