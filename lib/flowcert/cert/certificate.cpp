// The certificate: JSON (docs/certificate-format.md) and re-validation (the pages: report_page.cpp).
#include <flowcert/cert.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>

namespace flowcert::cert {

using nlohmann::json;

namespace {

json doubles(const std::vector<double>& v) {
    json a = json::array();
    for (double x : v) a.push_back(std::isfinite(x) ? json(x) : json(nullptr));
    return a;
}
std::vector<double> doubles_from(const json& a) {
    std::vector<double> v;
    for (const auto& x : a) v.push_back(x.is_number() ? x.get<double>() : std::numeric_limits<double>::quiet_NaN());
    return v;
}
// "style" is written only for a dashed line (certificates of solid lines read as before).
json band_json(const Band& b) {
    json j = {{"label", b.label}, {"x", doubles(b.x)}, {"lo", doubles(b.lo)}, {"hi", doubles(b.hi)}};
    if (b.style == LineStyle::dashed) j["style"] = "dashed";
    return j;
}
Band band_from(const json& j) {
    Band b{j.at("label").get<std::string>(), doubles_from(j.at("x")), doubles_from(j.at("lo")), doubles_from(j.at("hi"))};
    if (j.contains("style")) {
        const std::string s = j.at("style").get<std::string>();
        if (s != "solid" && s != "dashed") throw std::invalid_argument("line style '" + s + "' is unknown");
        b.style = s == "dashed" ? LineStyle::dashed : LineStyle::solid;
    }
    return b;
}

json plot_json(const Plot& plot) {
    return std::visit(
        [](const auto& p) -> json {
            using T = std::decay_t<decltype(p)>;
            json j;
            if constexpr (std::is_same_v<T, TubePlot>) {
                j = {{"kind", "tube"}, {"title", p.title}, {"x_label", p.x_label}, {"y_label", p.y_label},
                     {"log_x", p.log_x}, {"log_y", p.log_y}, {"bands", json::array()}};
                for (const auto& b : p.bands) j["bands"].push_back(band_json(b));
            } else if constexpr (std::is_same_v<T, SweepPlot>) {
                j = {{"kind", "sweep"}, {"title", p.title}, {"x_label", p.x_label}, {"y_label", p.y_label},
                     {"log_x", p.log_x}, {"log_y", p.log_y}, {"series", json::array()}, {"references", json::array()}};
                for (const auto& b : p.series) j["series"].push_back(band_json(b));
                for (const auto& r : p.references)
                    j["references"].push_back({{"label", r.label}, {"coefficient", r.coefficient}, {"slope", r.slope}});
            } else if constexpr (std::is_same_v<T, CirclePlot>) {
                j = {{"kind", "circle"}, {"title", p.title}, {"x_label", p.x_label}, {"y_label", p.y_label},
                     {"directions", json::array()}};
                for (const auto& d : p.directions)
                    j["directions"].push_back({{"label", d.label}, {"group", d.group}, {"x_lo", d.x_lo}, {"x_hi", d.x_hi},
                                               {"y_lo", d.y_lo}, {"y_hi", d.y_hi}, {"normalize", d.normalize}});
            } else {
                j = {{"kind", "heatmap"}, {"title", p.title}, {"x_label", p.x_label}, {"y_label", p.y_label},
                     {"row_labels", p.row_labels}, {"col_labels", p.col_labels}, {"values", json::array()}};
                for (const auto& r : p.values) j["values"].push_back(doubles(r));
            }
            return j;
        },
        plot);
}

double num_or_nan(const json& j) { return j.is_number() ? j.get<double>() : std::numeric_limits<double>::quiet_NaN(); }

Plot plot_from(const json& j) {
    const std::string kind = j.at("kind").get<std::string>();
    if (kind == "tube") {
        TubePlot p{j.at("title"), j.at("x_label"), j.at("y_label"), j.at("log_x"), j.at("log_y"), {}};
        for (const auto& b : j.at("bands")) p.bands.push_back(band_from(b));
        return p;
    }
    if (kind == "sweep") {
        SweepPlot p{j.at("title"), j.at("x_label"), j.at("y_label"), j.at("log_x"), j.at("log_y"), {}, {}};
        for (const auto& b : j.at("series")) p.series.push_back(band_from(b));
        for (const auto& r : j.at("references"))
            p.references.push_back({r.at("label"), num_or_nan(r.at("coefficient")), num_or_nan(r.at("slope"))});
        return p;
    }
    if (kind == "circle") {
        CirclePlot p{j.at("title"), {}};
        p.x_label = j.value("x_label", p.x_label);  // optional (certificates before the axis labels)
        p.y_label = j.value("y_label", p.y_label);
        for (const auto& d : j.at("directions"))
            p.directions.push_back({d.at("label"), d.at("group"), num_or_nan(d.at("x_lo")), num_or_nan(d.at("x_hi")),
                                    num_or_nan(d.at("y_lo")), num_or_nan(d.at("y_hi")), d.at("normalize")});
        return p;
    }
    if (kind == "heatmap") {
        HeatMap p{j.at("title"), j.at("row_labels"), j.at("col_labels"), {}};
        p.x_label = j.value("x_label", p.x_label);
        p.y_label = j.value("y_label", p.y_label);
        for (const auto& r : j.at("values")) p.values.push_back(doubles_from(r));
        return p;
    }
    throw std::invalid_argument("plot kind '" + kind + "' is unknown");
}

json pairs_json(const std::vector<std::pair<std::string, std::string>>& v) {
    json o = json::object();
    for (const auto& [k, x] : v) o[k] = x;
    return o;
}

json check_json(const Check& c) {
    json e = json::array();
    for (const auto& x : c.enclosures) e.push_back({{"name", x.name}, {"lo", x.lo}, {"hi", x.hi}});
    return {{"name", c.name},
            {"citation", c.citation},
            {"statement", c.statement},
            {"role", std::string(to_string(c.role))},
            {"status", std::string(to_string(c.status))},
            {"relation", std::string(to_string(c.relation))},
            {"enclosures", e},
            {"implied_by", c.implied_by},
            {"reason", c.reason},
            {"witness", c.witness},
            {"trivially_true", c.trivial},
            {"reconstructed", c.reconstructed},
            {"case_claim", c.case_claim},
            {"margin", c.margin && std::isfinite(*c.margin) ? json(*c.margin) : json(nullptr)}};
}

Check check_from(const json& c) {
    Check k;
    k.name = c["name"];
    k.citation = c["citation"];
    k.statement = c["statement"];
    k.role = *parse_role(c["role"].get<std::string>());
    k.status = *parse_check_status(c["status"].get<std::string>());
    parse_relation(c["relation"].get<std::string>(), k.relation);
    for (const auto& e : c["enclosures"]) k.enclosures.push_back({e["name"], e["lo"], e["hi"]});
    k.implied_by = c["implied_by"].get<std::vector<std::string>>();
    k.reason = c["reason"];
    k.witness = c["witness"];
    k.trivial = c["trivially_true"];
    k.reconstructed = c["reconstructed"];
    k.case_claim = c["case_claim"];
    if (c["margin"].is_number()) k.margin = c["margin"].get<double>();
    return k;
}

}  // namespace

json to_json(const Report& r) {
    json j;
    j["format"] = certificate_format;
    j["format_version"] = certificate_format_version;
    j["verifier"] = r.verifier;
    j["case"] = {{"name", r.case_name},
                 {"description", r.case_description},
                 {"source", r.case_source},
                 {"expect", r.expected ? json(std::string(to_string(*r.expected))) : json(nullptr)},
                 {"labels", r.labels}};
    j["claim"] = {{"paper", r.claim.paper},
                  {"locator", r.claim.locator},
                  {"paper_statement", r.claim.paper_statement},
                  {"proven_statement", r.claim.proven_statement}};
    j["verdict"] = std::string(to_string(r.verdict()));
    j["verdict_reason"] = r.verdict_reason();
    j["completed"] = r.completed();
    j["error"] = r.error() ? json(*r.error()) : json(nullptr);
    j["checks"] = json::array();
    for (const auto& c : r.checks()) j["checks"].push_back(check_json(c));
    j["tables"] = json::array();
    for (const auto& t : r.tables()) j["tables"].push_back({{"name", t.name}, {"columns", t.columns}, {"rows", t.rows}});
    j["plots"] = json::array();
    for (const auto& p : r.plots()) j["plots"].push_back(plot_json(p));
    j["notes"] = r.notes();
    const Provenance& p = r.provenance;
    j["provenance"] = {{"flowcert_version", p.flowcert_version},
                       {"git_commit", p.git_commit},
                       {"compiler", p.compiler},
                       {"compiler_flags", p.compiler_flags},
                       {"build_type", p.build_type},
                       {"libraries", pairs_json(p.libraries)},
                       {"precision_bits", p.precision_bits},
                       {"seeds", pairs_json(p.seeds)},
                       {"case_file", p.case_file},
                       {"case_sha256", p.case_sha256},
                       {"command_line", p.command_line},
                       {"started_utc", p.started_utc},
                       {"wall_time_seconds", p.wall_time_seconds},
                       {"self_test_passed", p.self_test_passed},
                       {"self_test", p.self_test}};
    j["digest"] = certificate_digest(j);
    return j;
}

std::string certificate_digest(const json& j) {
    json copy = j;
    if (copy.is_object()) copy.erase("digest");
    return sha256_hex(copy.dump());
}

// ---- schema ----------------------------------------------------------------------------

std::vector<std::string> schema_problems(const json& j) {
    std::vector<std::string> p;
    if (!j.is_object()) return {"the certificate is not a JSON object"};
    auto need = [&](const json& o, const std::string& where, const char* key, json::value_t t) -> bool {
        if (!o.is_object() || !o.contains(key)) {
            p.push_back("missing field " + where + key);
            return false;
        }
        const json& v = o.at(key);
        const bool ok = t == json::value_t::number_float ? v.is_number()
                        : t == json::value_t::number_integer ? v.is_number_integer()
                                                             : v.type() == t;
        if (!ok) p.push_back("field " + where + key + " has the wrong type (" + std::string(v.type_name()) + ")");
        return ok;
    };
    using T = json::value_t;
    if (need(j, "", "format", T::string) && j["format"] != certificate_format)
        p.push_back("format is '" + j["format"].get<std::string>() + "', expected '" + certificate_format + "'");
    if (need(j, "", "format_version", T::number_integer) && j["format_version"] != certificate_format_version)
        p.push_back("unsupported format_version " + j["format_version"].dump() + " (this flowcert reads version " +
                    std::to_string(certificate_format_version) + ")");
    need(j, "", "verifier", T::string);
    if (need(j, "", "case", T::object)) {
        need(j["case"], "case.", "name", T::string);
        need(j["case"], "case.", "description", T::string);
        need(j["case"], "case.", "source", T::string);
        need(j["case"], "case.", "labels", T::array);
        if (!j["case"].contains("expect")) p.push_back("missing field case.expect");
        else if (!j["case"]["expect"].is_null() &&
                 (!j["case"]["expect"].is_string() || !parse_verdict(j["case"]["expect"].get<std::string>())))
            p.push_back("case.expect is not a verdict");
    }
    if (need(j, "", "claim", T::object))
        for (const char* k : {"paper", "locator", "paper_statement", "proven_statement"}) need(j["claim"], "claim.", k, T::string);
    if (need(j, "", "verdict", T::string) && !parse_verdict(j["verdict"].get<std::string>()))
        p.push_back("verdict '" + j["verdict"].get<std::string>() +
                    "' is not one of CERTIFIED, REFUTED, OUTSIDE_HYPOTHESES, INCONCLUSIVE, ERROR");
    need(j, "", "verdict_reason", T::string);
    need(j, "", "completed", T::boolean);
    if (!j.contains("error")) p.push_back("missing field error");
    else if (!j["error"].is_null() && !j["error"].is_string()) p.push_back("field error must be null or a string");
    if (need(j, "", "checks", T::array)) {
        std::size_t i = 0;
        for (const auto& c : j["checks"]) {
            const std::string w = "checks[" + std::to_string(i++) + "].";
            for (const char* k : {"name", "citation", "statement", "reason", "witness", "trivially_true", "reconstructed",
                                  "case_claim"})
                need(c, w, k, T::string);
            if (need(c, w, "role", T::string) && !parse_role(c["role"].get<std::string>()))
                p.push_back(w + "role '" + c["role"].get<std::string>() + "' is unknown");
            if (need(c, w, "implied_by", T::array))
                for (const auto& x : c["implied_by"])
                    if (!x.is_string()) p.push_back(w + "implied_by has a non-string entry");
            if (!c.is_object() || !c.contains("margin")) p.push_back("missing field " + w + "margin");
            else if (!c["margin"].is_null() && !c["margin"].is_number()) p.push_back(w + "margin must be a number or null");
            if (need(c, w, "status", T::string) && !parse_check_status(c["status"].get<std::string>()))
                p.push_back(w + "status '" + c["status"].get<std::string>() + "' is unknown");
            Relation rel;
            if (need(c, w, "relation", T::string) && !parse_relation(c["relation"].get<std::string>(), rel))
                p.push_back(w + "relation '" + c["relation"].get<std::string>() + "' is unknown");
            if (need(c, w, "enclosures", T::array))
                for (const auto& e : c["enclosures"])
                    for (const char* k : {"name", "lo", "hi"}) need(e, w + "enclosures[].", k, T::string);
        }
    }
    if (need(j, "", "tables", T::array))
        for (const auto& t : j["tables"]) {
            need(t, "tables[].", "name", T::string);
            if (need(t, "tables[].", "columns", T::array) && need(t, "tables[].", "rows", T::array))
                for (const auto& row : t["rows"])
                    if (!row.is_array() || row.size() != t["columns"].size())
                        p.push_back("table '" + t.value("name", std::string("?")) + "' has a row of the wrong length");
        }
    if (need(j, "", "plots", T::array))
        for (const auto& pl : j["plots"]) {
            try {
                plot_from(pl);
            } catch (const std::exception& e) {
                p.push_back(std::string("malformed plot: ") + e.what());
            }
        }
    need(j, "", "notes", T::array);
    if (need(j, "", "provenance", T::object)) {
        const json& v = j["provenance"];
        for (const char* k : {"flowcert_version", "git_commit", "compiler", "compiler_flags", "build_type", "case_file",
                              "case_sha256", "command_line", "started_utc", "self_test"})
            need(v, "provenance.", k, T::string);
        need(v, "provenance.", "libraries", T::object);
        need(v, "provenance.", "seeds", T::object);
        need(v, "provenance.", "precision_bits", T::number_integer);
        need(v, "provenance.", "wall_time_seconds", T::number_float);
        need(v, "provenance.", "self_test_passed", T::boolean);
    }
    need(j, "", "digest", T::string);
    return p;
}

Report report_from_json(const json& j) {
    const auto problems = schema_problems(j);
    if (!problems.empty()) throw std::invalid_argument("malformed certificate: " + problems.front());
    Report r;
    r.verifier = j["verifier"];
    r.case_name = j["case"]["name"];
    r.case_description = j["case"]["description"];
    if (j["case"]["expect"].is_string()) r.expected = parse_verdict(j["case"]["expect"].get<std::string>());
    r.labels = j["case"]["labels"].get<std::vector<std::string>>();
    r.claim = {j["claim"]["paper"], j["claim"]["locator"], j["claim"]["paper_statement"], j["claim"]["proven_statement"]};
    r.case_source = j["case"]["source"];
    for (const auto& c : j["checks"]) r.restore(check_from(c));  // statuses as stored; recheck_certificate judges them
    for (const auto& t : j["tables"]) {
        Table& tb = r.table(t["name"], t["columns"].get<std::vector<std::string>>());
        for (const auto& row : t["rows"]) tb.add_row(row.get<std::vector<std::string>>());
    }
    for (const auto& p : j["plots"]) r.add_plot(plot_from(p));
    for (const auto& n : j["notes"]) r.note(n.get<std::string>());
    const json& v = j["provenance"];
    Provenance& p = r.provenance;
    p.flowcert_version = v["flowcert_version"];
    p.git_commit = v["git_commit"];
    p.compiler = v["compiler"];
    p.compiler_flags = v["compiler_flags"];
    p.build_type = v["build_type"];
    for (const auto& [k, x] : v["libraries"].items()) p.libraries.emplace_back(k, x.get<std::string>());
    for (const auto& [k, x] : v["seeds"].items()) p.seeds.emplace_back(k, x.get<std::string>());
    p.precision_bits = v["precision_bits"];
    p.case_file = v["case_file"];
    p.case_sha256 = v["case_sha256"];
    p.command_line = v["command_line"];
    p.started_utc = v["started_utc"];
    p.wall_time_seconds = v["wall_time_seconds"];
    p.self_test_passed = v["self_test_passed"];
    p.self_test = v["self_test"];
    if (j["completed"].get<bool>()) r.mark_completed();
    if (j["error"].is_string()) r.set_error(j["error"]);
    return r;
}

// ---- re-validation -------------------------------------------------------------------------

int RecheckResult::count(const std::string& how, bool decisive_only) const {
    int n = 0;
    for (const auto& c : checks)
        if (c.how == how && (c.decisive || !decisive_only)) ++n;
    return n;
}
int RecheckResult::decisive() const {
    int n = 0;
    for (const auto& c : checks) n += c.decisive ? 1 : 0;
    return n;
}
int RecheckResult::decisive_rederived() const { return count("rerun"); }

std::string RecheckResult::summary() const {
    std::string s = accepted ? "ACCEPTED" : "REJECTED";
    s += ": " + std::to_string(decisive_rederived()) + " of " + std::to_string(decisive()) +
         " decisive checks recomputed by a fresh run";
    const int implied = count("implied_by"), consistent = count("relation"), none = count("none");
    if (implied) s += "; " + std::to_string(implied) + " re-derived from their premises' stored statuses";
    if (consistent) s += "; " + std::to_string(consistent) + " consistent with their stored enclosures";
    if (none) s += "; " + std::to_string(none) + " not re-derived";
    if (!rerun) s += "; no fresh run (flowcert check --rerun recomputes every check)";
    for (const auto& p : problems) s += "\n  - " + p;
    return s;
}

RecheckResult recheck_certificate(const json& j, const RecheckOptions& options) {
    RecheckResult r;
    r.problems = schema_problems(j);
    if (!r.problems.empty()) return r;
    if (j["digest"] != certificate_digest(j))
        r.problems.push_back("digest mismatch: the certificate was changed after it was written");
    const json& v = j["provenance"];
    if (!v["self_test_passed"].get<bool>()) r.problems.push_back("provenance: the rounding self-test did not pass");
    const std::string h = v["case_sha256"];
    if (h.size() != 64 || h.find_first_not_of("0123456789abcdef") != std::string::npos)
        r.problems.push_back("provenance: case_sha256 is not a SHA-256 digest");
    for (const char* k : {"git_commit", "compiler", "flowcert_version", "started_utc"})
        if (v[k].get<std::string>().empty()) r.problems.push_back(std::string("provenance: ") + k + " is empty");
    const json& ps = v["precision_bits"];
    if (ps.get<long>() < 2) r.problems.push_back("provenance: precision_bits is not a valid precision");

    // The embedded case: its hash, and the common keys it states (a certificate relabelled or
    // re-described does not match its own case text).
    const std::string source = j["case"]["source"];
    if (sha256_hex(source) != h)
        r.problems.push_back("case: the embedded case text does not have the recorded SHA-256 " + h);
    try {
        const CaseHeader ch = read_case_header_text(source, "embedded case");
        if (ch.verifier != j["verifier"].get<std::string>())
            r.problems.push_back("case: the embedded case is for verifier '" + ch.verifier + "', the certificate says '" +
                                 j["verifier"].get<std::string>() + "'");
        if (ch.description != j["case"]["description"].get<std::string>())
            r.problems.push_back("case: the description differs from the embedded case's");
        if (!j["case"]["expect"].is_string() || parse_verdict(j["case"]["expect"].get<std::string>()) != ch.expect)
            r.problems.push_back("case: expect differs from the embedded case's (" + std::string(to_string(ch.expect)) + ")");
        if (ch.labels != j["case"]["labels"].get<std::vector<std::string>>())
            r.problems.push_back("case: labels differ from the embedded case's");
    } catch (const std::exception& e) {
        r.problems.push_back(std::string("case: the embedded case cannot be read: ") + e.what());
    }
    if (!options.case_file.empty()) {
        std::ifstream in(options.case_file, std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        if (!in && !in.eof()) r.problems.push_back("case file " + options.case_file + " cannot be read");
        else if (sha256_hex(ss.str()) != h)
            r.problems.push_back("case file " + options.case_file + " is not the case of this certificate (SHA-256 differs)");
        const std::string stem = std::filesystem::path(options.case_file).stem().string();
        if (stem != j["case"]["name"].get<std::string>())
            r.problems.push_back("case file " + options.case_file + " is named '" + stem + "', the certificate says '" +
                                 j["case"]["name"].get<std::string>() + "'");
    }

    // Every check: the role admits the status; relations re-evaluated with exact rationals;
    // implications re-derived from the premises' stored statuses (premises come earlier).
    std::deque<Check> checks;
    std::map<std::string, std::size_t> index;
    for (const auto& c : j["checks"]) {
        Check k = check_from(c);
        CheckRederivation d{k.name, k.role, k.role != Role::evidence && k.trivial.empty(), "none"};
        if (index.count(k.name)) r.problems.push_back("check '" + k.name + "' appears twice");
        if (k.role == Role::step && k.status == CheckStatus::disproven)
            r.problems.push_back("check '" + k.name + "' is a step of the argument recorded as disproven (a step is never false)");
        if (!k.reconstructed.empty() && k.role != Role::hypothesis && k.role != Role::conclusion)
            r.problems.push_back("check '" + k.name + "' is a " + std::string(to_string(k.role)) +
                                 " marked reconstructed (only hypotheses and conclusions can be)");
        if (!k.case_claim.empty() && k.role != Role::conclusion)
            r.problems.push_back("check '" + k.name + "' is a " + std::string(to_string(k.role)) +
                                 " marked as the case's claim (only conclusions can be)");
        if (k.relation == Relation::implied_by) {
            std::string failing;
            bool ok = !k.implied_by.empty();
            for (const auto& p : k.implied_by) {
                const auto it = index.find(p);
                if (it == index.end()) {
                    r.problems.push_back("check '" + k.name + "' is implied by '" + p + "', which is not an earlier check");
                    ok = false;
                    continue;
                }
                const Check& q = checks[it->second];
                if (status_for_role(q.role, q.status) != CheckStatus::proven) failing = p;
            }
            const CheckStatus derived = failing.empty() ? CheckStatus::proven : CheckStatus::not_proven;
            if (ok && k.status != derived && k.status != CheckStatus::not_run)
                r.problems.push_back("check '" + k.name + "' is recorded as " + std::string(to_string(k.status)) +
                                     " but its premises give " + std::string(to_string(derived)));
            if (ok) d.how = "implied_by";
        } else if (k.relation != Relation::none && k.status != CheckStatus::not_run) {
            try {
                std::string why;
                const CheckStatus s = status_for_role(k.role, evaluate_relation(k.relation, k.enclosures, &why));
                if (s != k.status)
                    r.problems.push_back("check '" + k.name + "' is recorded as " + std::string(to_string(k.status)) +
                                         " but its stored enclosures give " + std::string(to_string(s)) + ": " + why);
                else d.how = "relation";
            } catch (const std::exception& ex) {
                r.problems.push_back("check '" + k.name + "': " + ex.what());
            }
        }
        index[k.name] = checks.size();
        checks.push_back(std::move(k));
        r.checks.push_back(d);
    }
    const Verdict recomputed = compute_verdict(summarize(checks), j["completed"].get<bool>(), j["error"].is_string());
    const std::string stored = j["verdict"];
    if (*parse_verdict(stored) != recomputed)
        r.problems.push_back("verdict " + stored + " does not follow from the checks, which give " +
                             std::string(to_string(recomputed)));
    r.accepted = r.problems.empty();
    return r;
}

void compare_rerun(const json& stored, const json& fresh, RecheckResult& result) {
    result.rerun = true;
    auto problem = [&](std::string p) {
        result.problems.push_back("fresh run: " + std::move(p));
        result.accepted = false;
    };
    if (fresh.value("verdict", std::string()) != stored["verdict"].get<std::string>())
        problem("verdict " + fresh.value("verdict", std::string("?")) + ", the certificate says " +
                stored["verdict"].get<std::string>());
    if (!fresh.contains("checks") || !fresh["checks"].is_array()) {
        problem("no checks in the fresh certificate");
        return;
    }
    std::map<std::string, const json*> by_name;
    for (const auto& c : fresh["checks"]) by_name[c.value("name", std::string())] = &c;
    std::size_t i = 0;
    for (const auto& c : stored["checks"]) {
        const std::string name = c["name"];
        CheckRederivation& d = result.checks.at(i++);
        const auto it = by_name.find(name);
        if (it == by_name.end()) {
            problem("check '" + name + "' is not recorded by the fresh run");
            continue;
        }
        const json& f = *it->second;
        by_name.erase(it);
        std::string diff;
        for (const char* k : {"role", "status", "relation", "enclosures", "implied_by", "trivially_true", "reconstructed",
                              "case_claim"})
            if (!f.contains(k) || f[k] != c[k]) diff += (diff.empty() ? "" : ", ") + std::string(k);
        if (!diff.empty()) {
            problem("check '" + name + "' differs in " + diff + " (stored " + c["status"].get<std::string>() +
                    ", fresh " + f.value("status", std::string("?")) + ")");
            continue;
        }
        d.how = "rerun";
    }
    for (const auto& [name, _] : by_name) problem("check '" + name + "' is recorded by the fresh run only");
    if (result.problems.empty()) result.accepted = true;
}

}  // namespace flowcert::cert
