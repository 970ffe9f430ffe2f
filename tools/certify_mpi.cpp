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
#include <sstream>
#include <stdexcept>
#include <thread>

namespace flowcert::tools {

namespace {

namespace fs = std::filesystem;

enum Tag : int { tag_work = 71, tag_stop = 72, tag_result = 73 };

// The files a verifier writes for a case, relative to <out>/<paper>/<case>.
const char* const kReportExtensions[] = {".json", ".html", ".md", ".log"};

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

// Longest expected first [Graham 1969, LPT rule]: cases timed in the previous run's summary.json
// by that time; cases never timed but labelled slow before all of them; the rest after, in
// case-file order.
std::vector<std::size_t> longest_expected_first(const std::vector<CaseOutcome>& outs, const fs::path& out_dir) {
    std::map<std::string, double> previous;
    try {
        const fs::path summary = out_dir / "summary.json";
        if (fs::is_regular_file(summary))
            for (const auto& row : nlohmann::json::parse(read_all(summary)))
                previous[row.at("case").get<std::string>()] = row.at("wall_time_seconds").get<double>();
    } catch (const std::exception&) {
        previous.clear();  // no usable estimate: fall back to labels
    }
    struct Key {
        int cls;  // 2: slow and never timed, 1: timed, 0: neither
        double t;
        std::size_t i;
    };
    std::vector<Key> keys;
    for (std::size_t i = 0; i < outs.size(); ++i) {
        Key k{0, 0, i};
        if (auto it = previous.find(outs[i].rel); it != previous.end() && it->second > 0) {
            k.cls = 1;
            k.t = it->second;
        } else {
            try {
                const auto h = cert::read_case_header(outs[i].file);
                if (std::find(h.labels.begin(), h.labels.end(), "slow") != h.labels.end()) k.cls = 2;
            } catch (const std::exception&) {
                // a bad case file is reported when it runs
            }
        }
        keys.push_back(k);
    }
    std::stable_sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
        return a.cls != b.cls ? a.cls > b.cls : a.t > b.t;
    });
    std::vector<std::size_t> order;
    for (const auto& k : keys) order.push_back(k.i);
    return order;
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
                const auto parts = unpack(bytes);  // index, rel, file
                if (parts.size() != 3) throw std::runtime_error("malformed work message from rank 0");
                Running& r = running.emplace_back();
                r.index = parts[0];
                r.outcome.rel = parts[1];
                r.outcome.file = parts[2];
                r.thread = std::thread([&r, &hooks] {
                    hooks.run_case(r.outcome);
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

void MpiCertify::distribute(std::vector<CaseOutcome>& outs, const fs::path& out_dir, unsigned jobs,
                            const MpiCertifyHooks& hooks) {
    const std::size_t n = outs.size();
    const std::vector<std::size_t> order = longest_expected_first(outs, out_dir);

    // Nothing stale beside an incomplete index: the selected cases' certificates go first.
    std::vector<int> on_rank(n, -1);  // rank running case i (-1: not started)
    std::vector<char> finished(n, 0);
    for (auto& o : outs) {
        std::error_code ec;
        fs::remove(out_dir / (o.rel + ".json"), ec);
        o.verdict = "NOT RUN";
        o.message = "not finished yet";
    }
    std::size_t done = 0;
    auto banner = [&](const std::string& why) {
        return "INCOMPLETE: " + why + "; " + std::to_string(done) + " of " + std::to_string(n) +
               " cases finished (their certificates are complete and kept); the others are NOT RUN.";
    };
    hooks.write_index(outs, banner("run in progress on " + std::to_string(size_) + " MPI ranks"));

    struct sigaction sa {};
    sa.sa_handler = on_termination_signal;
    sigemptyset(&sa.sa_mask);
    for (int s : {SIGTERM, SIGINT, SIGHUP}) sigaction(s, &sa, nullptr);

    std::mutex mu;  // guards queue, local_done, on_rank of local cases
    std::deque<std::size_t> queue(order.begin(), order.end());
    std::vector<std::pair<std::size_t, CaseOutcome>> local_done;

    auto finish = [&](std::size_t i, CaseOutcome o) {
        o.ok = !o.expect.empty() && o.verdict == o.expect;
        outs[i] = std::move(o);
        finished[i] = 1;
        ++done;
        hooks.finished(outs[i]);
        if (done < n) hooks.write_index(outs, banner("run in progress on " + std::to_string(size_) + " MPI ranks"));
    };

    // Rank 0's own slots: threads taking cases from the shared queue (they never call MPI).
    std::vector<std::thread> local;
    for (unsigned k = 0; k < jobs; ++k)
        local.emplace_back([&] {
            for (;;) {
                CaseOutcome o;
                std::size_t i;
                {
                    std::lock_guard<std::mutex> lock(mu);
                    if (queue.empty()) return;
                    i = queue.front();
                    queue.pop_front();
                    on_rank[i] = 0;
                    o.rel = outs[i].rel;
                    o.file = outs[i].file;
                }
                hooks.run_case(o);
                std::lock_guard<std::mutex> lock(mu);
                local_done.emplace_back(i, std::move(o));
            }
        });

    // The worker ranks: `jobs` cases in flight each; a result frees a slot.
    std::vector<unsigned> in_flight(static_cast<std::size_t>(size_), 0);
    std::vector<char> stopped(static_cast<std::size_t>(size_), 0);
    auto feed = [&](int r) {
        for (;;) {
            std::size_t i;
            {
                std::lock_guard<std::mutex> lock(mu);
                if (queue.empty() || in_flight[r] >= jobs) break;
                i = queue.front();
                queue.pop_front();
                on_rank[i] = r;
            }
            send_bytes(pack({std::to_string(i), outs[i].rel, outs[i].file.string()}), r, tag_work);
            ++in_flight[r];
        }
        if (in_flight[r] == 0 && !stopped[r]) {
            send_bytes(pack({}), r, tag_stop);
            stopped[r] = 1;
        }
    };
    for (int r = 1; r < size_; ++r) feed(r);

    // Keeps what is finished, marks the rest NOT RUN (with the rank that had it) and says so.
    auto abandon = [&](const std::string& why) {
        std::string lost;
        {
            std::lock_guard<std::mutex> lock(mu);
            for (std::size_t i = 0; i < n; ++i) {
                if (finished[i]) continue;
                outs[i].verdict = "NOT RUN";
                outs[i].ok = false;
                if (on_rank[i] < 0) {
                    outs[i].message = "never started: the MPI job ended first";
                } else {
                    outs[i].message = "unfinished on rank " + std::to_string(on_rank[i]) + " when the MPI job ended";
                    lost += "\n    " + outs[i].rel + " (rank " + std::to_string(on_rank[i]) + ")";
                }
            }
        }
        try {
            hooks.write_index(outs, banner(why));
        } catch (const std::exception& e) {
            std::cerr << "flowcert certify --mpi: cannot write the index: " << e.what() << "\n";
        }
        std::cerr << "flowcert certify --mpi: INCOMPLETE RUN: " << why << ".\n  " << done << " of " << n
                  << " cases finished; their certificates are kept in " << out_dir.string()
                  << "; the index marks the other " << (n - done) << " as NOT RUN.\n  cases that were running:"
                  << (lost.empty() ? std::string(" none") : lost) << std::endl;
        std::fflush(stdout);
    };

    try {
    while (done < n) {
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
            const int r = st.MPI_SOURCE;
            const auto parts = unpack(recv_bytes(r, tag_result, st));
            if (parts.size() < 7 || parts.size() % 2 != 1) throw std::runtime_error("malformed result from rank " + std::to_string(r));
            const std::size_t i = std::stoull(parts[0]);
            if (i >= n || on_rank[i] != r || finished[i])
                throw std::runtime_error("rank " + std::to_string(r) + " returned a case it was not given");
            CaseOutcome o;
            o.rel = outs[i].rel;
            o.file = outs[i].file;
            o.verifier = parts[1];
            o.expect = parts[2];
            o.verdict = parts[3];
            o.message = parts[4];
            o.wall_time = std::stod(parts[5]);
            o.report = parts[6] == "1";
            for (std::size_t k = 7; k + 1 < parts.size(); k += 2) {
                if (std::find_if(std::begin(kReportExtensions), std::end(kReportExtensions),
                                 [&](const char* e) { return parts[k] == e; }) == std::end(kReportExtensions))
                    throw std::runtime_error("rank " + std::to_string(r) + " sent an unexpected file kind " + parts[k]);
                write_atomic(out_dir / (o.rel + parts[k]), parts[k + 1]);
            }
            --in_flight[r];
            finish(i, std::move(o));
            feed(r);
        }
        std::vector<std::pair<std::size_t, CaseOutcome>> mine;
        {
            std::lock_guard<std::mutex> lock(mu);
            mine.swap(local_done);
        }
        for (auto& [i, o] : mine) {
            idle = false;
            finish(i, std::move(o));
        }
        if (idle) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    } catch (const std::exception& e) {
        // A broken protocol or an unwritable report directory: end every rank, keep what is finished.
        abandon(std::string("rank 0 failed: ") + e.what());
        MPI_Abort(MPI_COMM_WORLD, cert::exit_code::internal);
    }
    for (auto& t : local) t.join();
    for (int r = 1; r < size_; ++r) feed(r);  // every worker has been told to stop by now
    workers_stopped_ = true;
    std::vector<int> per_rank(static_cast<std::size_t>(size_), 0);
    for (int r : on_rank) ++per_rank[static_cast<std::size_t>(r)];
    std::cout << "\nMPI: " << size_ << " rank" << (size_ > 1 ? "s" : "") << ", " << jobs
              << " case(s) at a time per rank; cases run per rank:";
    for (int r = 0; r < size_; ++r) std::cout << " " << r << ":" << per_rank[static_cast<std::size_t>(r)];
    std::cout << std::endl;
}

}  // namespace flowcert::tools
