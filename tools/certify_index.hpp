// tools/certify_index.hpp -- the pages of a `flowcert certify` run: the index (index.html,
// index.md, summary.json) grouped paper -> theorem (verifier) -> cases, and the case pages
// written again with a link back to the index and what `--check` found.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "certify_mpi.hpp"

namespace flowcert::tools {

// At most `cap` bytes of a file ("" if it cannot be read).
std::string read_text(const std::filesystem::path& f, std::size_t cap = std::size_t{1} << 20);

// The index of a run into `out`. At the top: the verdict counts, the cases not as expected and a
// roll-up per paper; then per paper and theorem one row per case: its verdict, one sentence of
// what the run showed (or why not), the margin of the check the verdict turns on, the re-check
// and the time. Numbers are in short form (3 digits, or as many as keep two numbers of a sentence
// apart); the exact values are in the case pages. `banner` (MPI runs only): the run is INCOMPLETE.
void write_index(const std::vector<CaseOutcome>& outs, const std::filesystem::path& out, const std::string& banner = "");

// The case's HTML and Markdown pages written again from its certificate `j` (at `json`), with the
// link back to the index and the sidecar of --check; a failure keeps the verifier's own pages.
void render_case_pages(const CaseOutcome& o, const std::filesystem::path& out, const std::filesystem::path& json,
                       const nlohmann::json& j);

}  // namespace flowcert::tools
