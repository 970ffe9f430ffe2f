// `flowcert certify --mpi`: rank 0 hands cases out to the ranks (tools/certify_mpi.hpp).
// Compiled only when MPI is found (FLOWCERT_HAVE_MPI, tools/commands.cmake).
#include "certify_mpi.hpp"

#include <flowcert/cert.hpp>

#include <mpi.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <iostream>
#include <list>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace flowcert::tools {

namespace {

namespace fs = std::filesystem;

enum Tag : int { tag_work = 71, tag_stop = 72, tag_result = 73 };

// The files a verifier writes for a case, relative to <out>/<paper>/<case>.
const char* const kReportExtensions[] = {".json", ".html", ".md", ".log", ".check.json"};

// Messages are lists of byte strings (log files need not be UTF-8, so no JSON on the wire):
// u64 count, then per part u64 length + bytes.
std::string pack(const std::vector<std::string>& parts) {
    std::string out;
    auto put = [&](std::uint64_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); };
    put(parts.size());
    for (const auto& p : parts) {
        put(p.size());
        out += p;
    }
    return out;
}

std::vector<std::string> unpack(const std::string& bytes) {
    std::size_t pos = 0;
    auto get = [&]() {
        std::uint64_t v = 0;
        if (bytes.size() - pos < sizeof v) throw std::runtime_error("truncated MPI message");
        std::memcpy(&v, bytes.data() + pos, sizeof v);
        pos += sizeof v;
        return v;
    };
    const std::uint64_t n = get();
    std::vector<std::string> parts;
    for (std::uint64_t k = 0; k < n; ++k) {
        const std::uint64_t len = get();
        if (bytes.size() - pos < len) throw std::runtime_error("truncated MPI message");
        parts.emplace_back(bytes.substr(pos, len));
        pos += len;
    }
    return parts;
}

void send_bytes(const std::string& bytes, int dest, int tag) {
    if (bytes.size() > static_cast<std::size_t>(INT_MAX))
        throw std::runtime_error("MPI message larger than 2 GiB (a certificate that large is not supported)");
    MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_CHAR, dest, tag, MPI_COMM_WORLD);
}

std::string recv_bytes(int source, int tag, MPI_Status& st) {
    MPI_Probe(source, tag, MPI_COMM_WORLD, &st);
    int count = 0;
    MPI_Get_count(&st, MPI_CHAR, &count);
    std::string bytes(static_cast<std::size_t>(count), '\0');
    MPI_Recv(bytes.data(), count, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return bytes;
}

std::string read_all(const fs::path& f) {
    std::ifstream in(f, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Written beside the target and renamed over it: a reader never sees half a certificate (on a
// shared file system the worker's verifier already wrote the same bytes there).
void write_atomic(const fs::path& target, const std::string& bytes) {
    fs::create_directories(target.parent_path());
    const fs::path tmp = target.string() + ".part." + std::to_string(::getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        if (!out) throw std::runtime_error("cannot write " + tmp.string());
    }
    fs::rename(tmp, target);
}

std::string format_double(double v) {
    char b[40];
    std::snprintf(b, sizeof b, "%.17g", v);
    return b;
}

volatile std::sig_atomic_t g_signal = 0;
extern "C" void on_termination_signal(int s) { g_signal = s; }

// Expected cost of each case, for the longest-expected-first order [Graham 1969, LPT rule]: cases
// timed in the previous run's summary.json by that time; cases never timed but labelled slow
// before all of them; the rest after, in case-file order.
struct Expected {
    int cls = 0;  // 2: slow and never timed, 1: timed, 0: neither
    double t = 0;
};

std::vector<Expected> expected_costs(const std::vector<CaseOutcome>& outs, const fs::path& out_dir) {
    std::map<std::string, double> previous;
    try {
        const fs::path summary = out_dir / "summary.json";
        if (fs::is_regular_file(summary))
            for (const auto& row : nlohmann::json::parse(read_all(summary)))
                previous[row.at("case").get<std::string>()] = row.at("wall_time_seconds").get<double>();
    } catch (const std::exception&) {
        previous.clear();  // no usable estimate: fall back to labels
    }
    std::vector<Expected> keys;
    for (const auto& o : outs) {
        Expected k;
        if (auto it = previous.find(o.rel); it != previous.end() && it->second > 0) {
            k.cls = 1;
            k.t = it->second;
        } else {
            try {
                const auto h = cert::read_case_header(o.file);
                if (std::find(h.labels.begin(), h.labels.end(), "slow") != h.labels.end()) k.cls = 2;
            } catch (const std::exception&) {
                // a bad case file is reported when it runs
            }
        }
        keys.push_back(k);
    }
    return keys;
}

// "k, k + P, k + 2P, ..." below count: part k of P of a sweep (cheap and expensive points mix).
std::string interleaved_points(std::size_t k, std::size_t parts, std::size_t count) {
    std::string s;
    for (std::size_t i = k; i < count; i += parts) s += (s.empty() ? "" : ",") + std::to_string(i);
    return s;
}

// Where rank r's verifier writes part k of case rel before the bytes go to rank 0.
fs::path scratch_part(const fs::path& out_dir, int rank, const std::string& rel, const std::string& part) {
    return out_dir / ".sweep" / ("rank" + std::to_string(rank)) / (rel + ".part" + part + ".json");
}

}  // namespace

MpiCertify::MpiCertify(int* argc, char*** argv) {
    int provided = 0;
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    if (provided < MPI_THREAD_FUNNELED) {
        MPI_Finalize();
        throw std::runtime_error("the MPI library does not provide MPI_THREAD_FUNNELED");
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiCertify::~MpiCertify() {
    if (rank_ == 0 && !workers_stopped_) {
        // Rank 0 returned before distributing (bad arguments, empty selection): release the workers.
        for (int r = 1; r < size_; ++r) send_bytes(pack({}), r, tag_stop);
    }
    MPI_Finalize();
}

int MpiCertify::serve(const fs::path& out_dir, const MpiCertifyHooks& hooks) {
    struct Running {
        std::string index;
        CaseOutcome outcome;
        std::string points, part;  // a sweep part if points is not empty
        SweepPartResult part_result;
        std::atomic<bool> done{false};
        std::thread thread;
    };
    std::list<Running> running;
    bool stopping = false;
    try {
    for (;;) {
        bool idle = true;
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (flag) {
            idle = false;
            const std::string bytes = recv_bytes(0, st.MPI_TAG, st);
            if (st.MPI_TAG == tag_stop) {
                stopping = true;
            } else {
                const auto parts = unpack(bytes);  // index, rel, file, points, part number
                if (parts.size() != 5) throw std::runtime_error("malformed work message from rank 0");
                Running& r = running.emplace_back();
                r.index = parts[0];
                r.outcome.rel = parts[1];
                r.outcome.file = parts[2];
                r.points = parts[3];
                r.part = parts[4];
                r.thread = std::thread([&r, &hooks, &out_dir, this] {
                    if (r.points.empty()) hooks.run_case(r.outcome);
                    else hooks.run_part(r.outcome, r.points, scratch_part(out_dir, rank_, r.outcome.rel, r.part), r.part_result);
                    r.done = true;
                });
            }
        }
        for (auto it = running.begin(); it != running.end();) {
            if (!it->done) {
                ++it;
                continue;
            }
            idle = false;
            it->thread.join();
            const CaseOutcome& o = it->outcome;
            if (!it->points.empty()) {
                // a sweep part: its status and the part file's bytes (removed here once sent)
                const SweepPartResult& p = it->part_result;
                const fs::path f = scratch_part(out_dir, rank_, o.rel, it->part);
                std::string content;
                std::error_code ec;
                if (p.ok && fs::is_regular_file(f, ec)) content = read_all(f);
                send_bytes(pack({it->index, p.ok ? "" : p.verdict, p.message, format_double(p.wall_time), content}), 0,
                           tag_result);
                fs::remove(f, ec);
                it = running.erase(it);
                continue;
            }
            std::vector<std::string> parts{it->index,       o.verifier, o.expect, o.verdict, o.message,
                                           format_double(o.wall_time), o.report ? "1" : "0"};
            for (const char* ext : kReportExtensions) {
                // the certificate files only when this run wrote a certificate; the log always
                if (!o.report && std::string(ext) != ".log") continue;
                const fs::path f = out_dir / (o.rel + ext);
                std::error_code ec;
                if (!fs::is_regular_file(f, ec)) continue;
                parts.push_back(ext);
                parts.push_back(read_all(f));
            }
            send_bytes(pack(parts), 0, tag_result);
            it = running.erase(it);
        }
        if (stopping && running.empty()) return 0;
        if (idle) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    } catch (const std::exception& e) {
        std::cerr << "flowcert certify --mpi: rank " << rank_ << " failed: " << e.what() << std::endl;
        MPI_Abort(MPI_COMM_WORLD, cert::exit_code::internal);
    }
    return cert::exit_code::internal;
}

namespace {

// Rank 0's side of a distributed run: the work items (whole cases, sweep parts), who runs which, and
// what is finished. MpiCertify::distribute calls plan(), run() and print_summary(), in this order.
class Dispatcher {
public:
    Dispatcher(std::vector<CaseOutcome>& outs, const fs::path& out_dir, unsigned jobs, const MpiCertifyHooks& hooks,
               int ranks)
        : outs_(outs), out_dir_(out_dir), jobs_(jobs), hooks_(hooks), ranks_(ranks), n_(outs.size()),
          split_(outs.size()), finished_(outs.size(), 0), in_flight_(static_cast<std::size_t>(ranks), 0),
          stopped_(static_cast<std::size_t>(ranks), 0) {}

    // The work items, longest expected first: every case whole, or (with split_sweeps, when more than one
    // item can run at once) a case with sweep points as parts.
    void plan(bool split_sweeps);
    // Runs every item on the ranks and rank 0's own slots; returns when all cases are finished and every
    // worker has been told to stop. Ends the job (exit / MPI_Abort) on a signal or a broken protocol.
    void run();
    void print_summary() const;

private:
    struct Item {
        std::size_t c;
        int part = -1;  // -1: the whole case
        std::string points;
        Expected cost;
    };
    struct Split {
        std::size_t parts = 0, parts_done = 0;
        std::vector<fs::path> files;
        double part_wall = 0;
        std::string failure_verdict, failure_message;
    };
    // What rank 0's threads hand to the main loop: a finished item, or a finished merge.
    struct Done {
        std::size_t k = 0;    // item (if !merge)
        bool merge = false;
        std::size_t c = 0;    // case (if merge)
        CaseOutcome outcome;  // whole case or merge
        SweepPartResult part; // sweep part
        std::string bytes;    // sweep part file
    };

    std::vector<std::size_t> sweep_counts(bool split_sweeps) const;
    std::string banner(const std::string& why) const;
    std::string in_progress() const { return banner("run in progress on " + std::to_string(ranks_) + " MPI ranks"); }
    void finish(std::size_t i, CaseOutcome o);
    void part_finished(std::size_t k, int r, const SweepPartResult& p, const std::string& bytes);
    void merge_finished(std::size_t c, CaseOutcome o);
    void local_slot();
    void feed(int r);
    void receive(int r, MPI_Status& st);
    bool drain_local();
    void abandon(const std::string& why);

    std::vector<CaseOutcome>& outs_;
    const fs::path& out_dir_;
    const unsigned jobs_;
    const MpiCertifyHooks& hooks_;
    const int ranks_;
    const std::size_t n_;

    std::vector<Item> items_;
    std::vector<Split> split_;
    std::vector<int> on_rank_;       // rank running item k (-1: not started)
    std::vector<char> item_done_;
    std::vector<char> finished_;     // per case
    std::size_t done_ = 0;           // finished cases
    bool all_merged_ = true;
    std::mutex mu_;  // guards queue_, local_done_, on_rank_ of local items
    std::deque<std::size_t> queue_;
    std::vector<Done> local_done_;
    std::vector<std::thread> local_, merges_;
    std::vector<unsigned> in_flight_;
    std::vector<char> stopped_;
};

std::vector<std::size_t> Dispatcher::sweep_counts(bool split_sweeps) const {
    // Sweep points of every case (rank 0 asks the verifiers, a few at a time); only worth it when
    // more than one case can run at once.
    std::vector<std::size_t> counts(n_, 0);
    const std::size_t slots = static_cast<std::size_t>(ranks_) * jobs_;
    if (split_sweeps && slots > 1 && hooks_.sweep_count) {
        std::atomic<std::size_t> next{0};
        std::vector<std::thread> probes;
        for (unsigned t = 0; t < std::min<std::size_t>(4, n_); ++t)
            probes.emplace_back([&] {
                for (std::size_t i; (i = next++) < n_;) counts[i] = hooks_.sweep_count(outs_[i]);
            });
        for (auto& t : probes) t.join();
    }
    return counts;
}

void Dispatcher::plan(bool split_sweeps) {
    const std::vector<Expected> expected = expected_costs(outs_, out_dir_);
    const std::vector<std::size_t> counts = sweep_counts(split_sweeps);
    const std::size_t slots = static_cast<std::size_t>(ranks_) * jobs_;
    for (std::size_t i = 0; i < n_; ++i) {
        if (counts[i] <= 1) {
            items_.push_back({i, -1, "", expected[i]});
            continue;
        }
        // Parts per sweep: up to 2 per slot; a case timed by the previous run gets about one part per
        // kMinPartSeconds of work (a part costs a verifier start-up, case load and set-up).
        constexpr double kMinPartSeconds = 1.0;
        std::size_t P = std::min(counts[i], 2 * slots);
        if (expected[i].cls == 1)
            P = std::min(P, static_cast<std::size_t>(std::max(1.0, std::floor(expected[i].t / kMinPartSeconds))));
        if (P <= 1) {
            items_.push_back({i, -1, "", expected[i]});
            continue;
        }
        split_[i].parts = P;
        split_[i].files.resize(P);
        for (std::size_t k = 0; k < P; ++k)
            items_.push_back({i, static_cast<int>(k), interleaved_points(k, P, counts[i]),
                              Expected{expected[i].cls, expected[i].t / static_cast<double>(P)}});
        std::cout << "  sweep     " << outs_[i].rel << ": " << counts[i] << " points in " << P << " parts" << std::endl;
    }
    std::vector<std::size_t> order(items_.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const Expected &x = items_[a].cost, &y = items_[b].cost;
        return x.cls != y.cls ? x.cls > y.cls : x.t > y.t;
    });
    queue_.assign(order.begin(), order.end());
    on_rank_.assign(items_.size(), -1);
    item_done_.assign(items_.size(), 0);
}

std::string Dispatcher::banner(const std::string& why) const {
    return "INCOMPLETE: " + why + "; " + std::to_string(done_) + " of " + std::to_string(n_) +
           " cases finished (their certificates are complete and kept); the others are NOT RUN.";
}

void Dispatcher::finish(std::size_t i, CaseOutcome o) {
    o.ok = !o.expect.empty() && o.verdict == o.expect;
    outs_[i] = std::move(o);
    finished_[i] = 1;
    ++done_;
    hooks_.finished(outs_[i]);
    if (done_ < n_) hooks_.write_index(outs_, in_progress());
}

// A sweep part is in: keep its file; when the last part of its case is in, start the merge (on a thread
// of rank 0: the points are read, not computed), or finish the case with the first part's failure.
void Dispatcher::part_finished(std::size_t k, int r, const SweepPartResult& p, const std::string& bytes) {
    const Item& it = items_[k];
    Split& sp = split_[it.c];
    ++sp.parts_done;
    sp.part_wall += p.wall_time;
    if (p.ok) {
        sp.files[static_cast<std::size_t>(it.part)] =
            out_dir_ / ".sweep" / (outs_[it.c].rel + ".part" + std::to_string(it.part) + ".json");
        write_atomic(sp.files[static_cast<std::size_t>(it.part)], bytes);
    } else if (sp.failure_verdict.empty()) {
        sp.failure_verdict = p.verdict.empty() ? std::string("CRASHED") : p.verdict;
        sp.failure_message = "sweep part " + std::to_string(it.part) + " of " + std::to_string(sp.parts) +
                             " (points " + it.points.substr(0, 60) + ") on rank " + std::to_string(r) + ": " +
                             p.message;
    }
    if (sp.parts_done < sp.parts) return;
    if (!sp.failure_verdict.empty()) {
        CaseOutcome o = outs_[it.c];  // verifier and expect from the sweep-count step
        o.verdict = sp.failure_verdict;
        o.message = sp.failure_message;
        o.wall_time = sp.part_wall;
        o.report = false;
        all_merged_ = false;
        finish(it.c, std::move(o));
        return;
    }
    const std::size_t c = it.c;
    merges_.emplace_back([this, c] {
        Done d;
        d.merge = true;
        d.c = c;
        d.outcome.rel = outs_[c].rel;
        d.outcome.file = outs_[c].file;
        hooks_.merge(d.outcome, split_[c].files);
        std::lock_guard<std::mutex> lock(mu_);
        local_done_.push_back(std::move(d));
    });
}

void Dispatcher::merge_finished(std::size_t c, CaseOutcome o) {
    // the cost of the case is that of its parts (what the next run's schedule should expect)
    o.wall_time += split_[c].part_wall;
    if (o.report) {
        std::error_code ec;
        for (const auto& f : split_[c].files) fs::remove(f, ec);
    } else {
        all_merged_ = false;  // parts kept for inspection
    }
    finish(c, std::move(o));
}

// One of rank 0's own slots: a thread taking items from the shared queue (it never calls MPI).
void Dispatcher::local_slot() {
    for (;;) {
        Done d;
        {
            std::lock_guard<std::mutex> lock(mu_);
            if (queue_.empty()) return;
            d.k = queue_.front();
            queue_.pop_front();
            on_rank_[d.k] = 0;
            d.outcome.rel = outs_[items_[d.k].c].rel;
            d.outcome.file = outs_[items_[d.k].c].file;
        }
        const Item& it = items_[d.k];
        if (it.part < 0) {
            hooks_.run_case(d.outcome);
        } else {
            const fs::path f = scratch_part(out_dir_, 0, d.outcome.rel, std::to_string(it.part));
            hooks_.run_part(d.outcome, it.points, f, d.part);
            std::error_code ec;
            if (d.part.ok && fs::is_regular_file(f, ec)) d.bytes = read_all(f);
            fs::remove(f, ec);
        }
        std::lock_guard<std::mutex> lock(mu_);
        local_done_.push_back(std::move(d));
    }
}

// Worker rank r: `jobs` items in flight; a result frees a slot; an idle rank with an empty queue stops.
void Dispatcher::feed(int r) {
    const auto ru = static_cast<std::size_t>(r);
    for (;;) {
        std::size_t k;
        {
            std::lock_guard<std::mutex> lock(mu_);
            if (queue_.empty() || in_flight_[ru] >= jobs_) break;
            k = queue_.front();
            queue_.pop_front();
            on_rank_[k] = r;
        }
        const Item& it = items_[k];
        send_bytes(pack({std::to_string(k), outs_[it.c].rel, outs_[it.c].file.string(), it.points,
                         it.part < 0 ? std::string() : std::to_string(it.part)}),
                   r, tag_work);
        ++in_flight_[ru];
    }
    if (in_flight_[ru] == 0 && !stopped_[ru]) {
        send_bytes(pack({}), r, tag_stop);
        stopped_[ru] = 1;
    }
}

// A result message from worker rank r (a whole case with its files, or a sweep part).
void Dispatcher::receive(int r, MPI_Status& st) {
    const auto parts = unpack(recv_bytes(r, tag_result, st));
    if (parts.empty()) throw std::runtime_error("malformed result from rank " + std::to_string(r));
    const std::size_t k = std::stoull(parts[0]);
    if (k >= items_.size() || on_rank_[k] != r || item_done_[k])
        throw std::runtime_error("rank " + std::to_string(r) + " returned work it was not given");
    item_done_[k] = 1;
    --in_flight_[static_cast<std::size_t>(r)];
    const std::size_t i = items_[k].c;
    if (items_[k].part >= 0) {
        if (parts.size() != 5) throw std::runtime_error("malformed sweep-part result from rank " + std::to_string(r));
        SweepPartResult p;
        p.ok = parts[1].empty();
        p.verdict = parts[1];
        p.message = parts[2];
        p.wall_time = std::stod(parts[3]);
        if (p.ok && parts[4].empty()) {
            p.ok = false;
            p.verdict = "CRASHED";
            p.message = "the part file is missing";
        }
        part_finished(k, r, p, parts[4]);
    } else {
        if (parts.size() < 7 || parts.size() % 2 != 1)
            throw std::runtime_error("malformed result from rank " + std::to_string(r));
        CaseOutcome o;
        o.rel = outs_[i].rel;
        o.file = outs_[i].file;
        o.verifier = parts[1];
        o.expect = parts[2];
        o.verdict = parts[3];
        o.message = parts[4];
        o.wall_time = std::stod(parts[5]);
        o.report = parts[6] == "1";
        for (std::size_t q = 7; q + 1 < parts.size(); q += 2) {
            if (std::find_if(std::begin(kReportExtensions), std::end(kReportExtensions),
                             [&](const char* e) { return parts[q] == e; }) == std::end(kReportExtensions))
                throw std::runtime_error("rank " + std::to_string(r) + " sent an unexpected file kind " + parts[q]);
            write_atomic(out_dir_ / (o.rel + parts[q]), parts[q + 1]);
        }
        finish(i, std::move(o));
    }
    feed(r);
}

// What rank 0's threads finished since the last call; false if nothing.
bool Dispatcher::drain_local() {
    std::vector<Done> mine;
    {
        std::lock_guard<std::mutex> lock(mu_);
        mine.swap(local_done_);
        for (const auto& d : mine)
            if (!d.merge) item_done_[d.k] = 1;
    }
    for (auto& d : mine) {
        if (d.merge) merge_finished(d.c, std::move(d.outcome));
        else if (items_[d.k].part >= 0) part_finished(d.k, 0, d.part, d.bytes);
        else finish(items_[d.k].c, std::move(d.outcome));
    }
    return !mine.empty();
}

// Keeps what is finished, marks the rest NOT RUN (with the ranks that had it) and says so.
void Dispatcher::abandon(const std::string& why) {
    std::string lost;
    {
        std::lock_guard<std::mutex> lock(mu_);
        std::vector<std::set<int>> ranks(n_);
        for (std::size_t k = 0; k < items_.size(); ++k)
            if (on_rank_[k] >= 0 && !item_done_[k]) ranks[items_[k].c].insert(on_rank_[k]);
        for (std::size_t i = 0; i < n_; ++i) {
            if (finished_[i]) continue;
            outs_[i].verdict = "NOT RUN";
            outs_[i].ok = false;
            outs_[i].report = false;
            if (ranks[i].empty()) {
                outs_[i].message = split_[i].parts_done > 0 ? "sweep parts finished but not merged when the MPI job ended"
                                                            : "never started: the MPI job ended first";
            } else {
                std::string rs;
                for (int r : ranks[i]) rs += (rs.empty() ? "" : ", ") + std::to_string(r);
                outs_[i].message = std::string(split_[i].parts ? "sweep parts " : "") + "unfinished on rank" +
                                   (ranks[i].size() > 1 ? "s " : " ") + rs + " when the MPI job ended";
                lost += "\n    " + outs_[i].rel + " (rank" + (ranks[i].size() > 1 ? "s " : " ") + rs + ")";
            }
        }
    }
    try {
        hooks_.write_index(outs_, banner(why));
    } catch (const std::exception& e) {
        std::cerr << "flowcert certify --mpi: cannot write the index: " << e.what() << "\n";
    }
    std::cerr << "flowcert certify --mpi: INCOMPLETE RUN: " << why << ".\n  " << done_ << " of " << n_
              << " cases finished; their certificates are kept in " << out_dir_.string()
              << "; the index marks the other " << (n_ - done_) << " as NOT RUN.\n  cases that were running:"
              << (lost.empty() ? std::string(" none") : lost) << std::endl;
    std::fflush(stdout);
}

void Dispatcher::run() {
    // Nothing stale beside an incomplete index: the selected cases' certificates go first.
    for (auto& o : outs_) {
        std::error_code ec;
        fs::remove(out_dir_ / (o.rel + ".json"), ec);
        o.verdict = "NOT RUN";
        o.message = "not finished yet";
    }
    hooks_.write_index(outs_, in_progress());

    struct sigaction sa {};
    sa.sa_handler = on_termination_signal;
    sigemptyset(&sa.sa_mask);
    for (int s : {SIGTERM, SIGINT, SIGHUP}) sigaction(s, &sa, nullptr);

    for (unsigned j = 0; j < jobs_; ++j) local_.emplace_back([this] { local_slot(); });
    for (int r = 1; r < ranks_; ++r) feed(r);
    try {
        while (done_ < n_) {
            if (g_signal) {
                // mpirun ends the whole job when a rank dies (or the user pressed Ctrl-C). No MPI calls
                // from here on.
                abandon("the MPI job was ended by signal " + std::to_string(g_signal) +
                        " (mpirun ends every rank when one dies or exits early)");
                std::_Exit(cert::exit_code::environment);
            }
            bool idle = true;
            int flag = 0;
            MPI_Status st;
            MPI_Iprobe(MPI_ANY_SOURCE, tag_result, MPI_COMM_WORLD, &flag, &st);
            if (flag) {
                idle = false;
                receive(st.MPI_SOURCE, st);
            }
            if (drain_local()) idle = false;
            if (idle) std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
    } catch (const std::exception& e) {
        // A broken protocol or an unwritable report directory: end every rank, keep what is finished.
        abandon(std::string("rank 0 failed: ") + e.what());
        MPI_Abort(MPI_COMM_WORLD, cert::exit_code::internal);
    }
    for (auto& t : local_) t.join();
    for (auto& t : merges_) t.join();
    for (int r = 1; r < ranks_; ++r) feed(r);  // every worker has been told to stop by now
    if (all_merged_) {
        std::error_code ec;
        fs::remove_all(out_dir_ / ".sweep", ec);
    }
}

void Dispatcher::print_summary() const {
    const auto R = static_cast<std::size_t>(ranks_);
    std::vector<int> per_rank(R, 0), parts_per_rank(R, 0);
    for (std::size_t k = 0; k < items_.size(); ++k)
        if (on_rank_[k] >= 0) ++(items_[k].part < 0 ? per_rank : parts_per_rank)[static_cast<std::size_t>(on_rank_[k])];
    std::cout << "\nMPI: " << ranks_ << " rank" << (ranks_ > 1 ? "s" : "") << ", " << jobs_
              << " case(s) at a time per rank; cases run per rank:";
    for (std::size_t r = 0; r < R; ++r) std::cout << " " << r << ":" << per_rank[r];
    if (std::any_of(split_.begin(), split_.end(), [](const Split& x) { return x.parts > 0; })) {
        std::cout << "; sweep parts run per rank:";
        for (std::size_t r = 0; r < R; ++r) std::cout << " " << r << ":" << parts_per_rank[r];
    }
    std::cout << std::endl;
}

}  // namespace

void MpiCertify::distribute(std::vector<CaseOutcome>& outs, const fs::path& out_dir, unsigned jobs,
                            const MpiCertifyHooks& hooks, bool split_sweeps) {
    Dispatcher dispatcher(outs, out_dir, jobs, hooks, size_);
    dispatcher.plan(split_sweeps);
    dispatcher.run();
    workers_stopped_ = true;
    dispatcher.print_summary();
}

}  // namespace flowcert::tools
