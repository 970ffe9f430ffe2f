// Case files: TOML parsed with toml++, validated against the verifier's schema before any
// computation (docs/user-guide.md, "Writing a case file").
#include <flowcert/cert.hpp>

#include "case_arrays.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <limits>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

namespace flowcert::cert {

namespace detail {

struct CaseNode {
    const toml::table* table = nullptr;
    std::vector<KeySpec> schema;
    std::string prefix;  // "" for the file, "instance[1]." for a sub-table
    std::map<std::string, std::vector<std::unique_ptr<CaseNode>>, std::less<>> children;
};

struct CaseData {
    std::string file;
    std::string text;    // the file's bytes, embedded in certificates
    std::string sha256;
    toml::table root;
    std::unique_ptr<CaseNode> root_node;
};

}  // namespace detail

namespace {

using detail::CaseData;
using detail::CaseNode;

std::string describe_error(const std::string& file, long line, const std::string& key, const std::string& message) {
    std::string s = file;
    if (line > 0) s += ":" + std::to_string(line);
    s += ": ";
    if (!key.empty()) s += "key '" + key + "': ";
    return s + message;
}

long line_of_node(const toml::node& n) { return static_cast<long>(n.source().begin.line); }

std::vector<KeySpec> common_keys() {
    return {
        {.name = "verifier", .type = KeyType::string, .description = "the verifier that runs this case, e.g. \"demo/sqrt_bounds\"",
         .constraint = Constraint::nonempty},
        {.name = "expect", .type = KeyType::string, .description = "the verdict CI expects",
         .choices = {"certified", "refuted", "outside_hypotheses", "inconclusive"}},
        {.name = "labels", .type = KeyType::strings, .description = "CTest labels, e.g. [\"fast\"] or [\"slow\"]",
         .required = false},
        {.name = "description", .type = KeyType::string, .description = "what the case is about", .required = false},
        {.name = "precision", .type = KeyType::integer, .description = "IntervalMp precision in bits (2 to 100000)",
         .required = false, .constraint = Constraint::positive},
    };
}

std::string shorten(std::string_view s, std::size_t n = 60) {
    std::string t(s.substr(0, n));
    if (s.size() > n) t += "...";
    return t;
}

std::string type_name_of(const toml::node& n) {
    switch (n.type()) {
        case toml::node_type::string: return "a string";
        case toml::node_type::integer: return "an integer";
        case toml::node_type::floating_point: return "a float";
        case toml::node_type::boolean: return "a boolean";
        case toml::node_type::array: return "an array";
        case toml::node_type::table: return "a table";
        default: return "a date/time";
    }
}

class Validator {
public:
    Validator(std::string file, bool allow_unknown) : file_(std::move(file)), allow_unknown_(allow_unknown) {}

    [[noreturn]] void fail(long line, const std::string& key, const std::string& msg) const {
        throw CaseError(file_, line, key, msg);
    }

    // Validates `table` against `schema` and builds the node tree.
    std::unique_ptr<CaseNode> table(const toml::table& t, const std::vector<KeySpec>& schema, const std::string& prefix,
                                    long table_line) {
        auto node = std::make_unique<CaseNode>();
        node->table = &t;
        node->schema = schema;
        node->prefix = prefix;
        if (!allow_unknown_) {
            for (auto&& [k, v] : t) {
                const std::string key(k.str());
                const bool known = std::any_of(schema.begin(), schema.end(), [&](const KeySpec& s) { return s.name == key; });
                if (!known) {
                    std::string names;
                    for (const auto& s : schema) names += (names.empty() ? "" : ", ") + s.name;
                    fail(line_of_node(v), prefix + key, "unknown key; expected one of: " + names);
                }
            }
        }
        for (const auto& spec : schema) {
            const toml::node* v = t.get(spec.name);
            if (!v) {
                if (spec.required)
                    fail(table_line, prefix + spec.name,
                         "missing required key (" + std::string(to_string(spec.type)) + ": " + spec.description + ")");
                continue;
            }
            value(*v, spec, prefix, *node);
        }
        return node;
    }

private:
    void value(const toml::node& v, const KeySpec& spec, const std::string& prefix, CaseNode& node) {
        const std::string key = prefix + spec.name;
        const long line = line_of_node(v);
        auto expected = [&](const std::string& got) {
            fail(line, key, "expected " + std::string(to_string(spec.type)) + " (" + spec.description + "), got " + got);
        };
        switch (spec.type) {
            case KeyType::string: {
                if (!v.is_string()) expected(type_name_of(v));
                const std::string& s = v.as_string()->get();
                if (spec.constraint == Constraint::nonempty && s.empty()) fail(line, key, "must not be empty");
                if (!spec.choices.empty() && std::find(spec.choices.begin(), spec.choices.end(), s) == spec.choices.end()) {
                    std::string c;
                    for (const auto& x : spec.choices) c += (c.empty() ? "\"" : ", \"") + x + "\"";
                    fail(line, key, "\"" + shorten(s) + "\" is not one of " + c);
                }
                break;
            }
            case KeyType::boolean:
                if (!v.is_boolean()) expected(type_name_of(v));
                break;
            case KeyType::integer: {
                if (v.is_floating_point()) expected("a float (write an integer without a decimal point)");
                if (!v.is_integer()) expected(type_name_of(v));
                const long long k = v.as_integer()->get();
                constrain(Rational(k), spec, line, key);
                if (key == "precision" && prefix.empty() && (k < 2 || k > 100000))
                    fail(line, key, "precision must be between 2 and 100000 bits, got " + std::to_string(k));
                if (k < spec.min_integer || k > spec.max_integer)
                    fail(line, key, "must be an integer between " + std::to_string(spec.min_integer) + " and " +
                                        std::to_string(spec.max_integer) + ", got " + std::to_string(k));
                break;
            }
            case KeyType::number: number(v, spec, line, key); break;
            case KeyType::numbers: {
                const toml::array* a = v.as_array();
                if (!a) expected(type_name_of(v));
                if (spec.constraint == Constraint::nonempty && a->empty()) fail(line, key, "must not be empty");
                std::size_t i = 0;
                for (const auto& e : *a) number(e, spec, line_of_node(e), key + "[" + std::to_string(i++) + "]");
                break;
            }
            case KeyType::strings: {
                const toml::array* a = v.as_array();
                if (!a) expected(type_name_of(v));
                if (spec.constraint == Constraint::nonempty && a->empty()) fail(line, key, "must not be empty");
                std::size_t i = 0;
                for (const auto& e : *a) {
                    if (!e.is_string())
                        fail(line_of_node(e), key + "[" + std::to_string(i) + "]", "expected a string, got " + type_name_of(e));
                    ++i;
                }
                break;
            }
            case KeyType::matrix: {
                const toml::array* a = v.as_array();
                if (!a) expected(type_name_of(v));
                if (a->empty()) fail(line, key, "a matrix needs at least one row");
                std::size_t cols = 0, i = 0;
                for (const auto& row : *a) {
                    const std::string rk = key + "[" + std::to_string(i) + "]";
                    const toml::array* r = row.as_array();
                    if (!r) fail(line_of_node(row), rk, "expected a row (an array of numbers), got " + type_name_of(row));
                    if (r->empty()) fail(line_of_node(row), rk, "a matrix row must not be empty");
                    if (i == 0) cols = r->size();
                    else if (r->size() != cols)
                        fail(line_of_node(row), rk,
                             "row has " + std::to_string(r->size()) + " entries, row 0 has " + std::to_string(cols));
                    std::size_t j = 0;
                    for (const auto& e : *r) number(e, spec, line_of_node(e), rk + "[" + std::to_string(j++) + "]");
                    ++i;
                }
                break;
            }
            case KeyType::table: {
                const toml::table* t = v.as_table();
                if (!t) expected(type_name_of(v));
                node.children[spec.name].push_back(table(*t, spec.fields, key + ".", line));
                break;
            }
            case KeyType::tables: {
                const toml::array* a = v.as_array();
                if (!a) expected(type_name_of(v));
                if (spec.constraint == Constraint::nonempty && a->empty()) fail(line, key, "must not be empty");
                auto& list = node.children[spec.name];
                std::size_t i = 0;
                for (const auto& e : *a) {
                    const std::string ek = key + "[" + std::to_string(i++) + "]";
                    const toml::table* t = e.as_table();
                    if (!t) fail(line_of_node(e), ek, "expected a table, got " + type_name_of(e));
                    list.push_back(table(*t, spec.fields, ek + ".", line_of_node(e)));
                }
                break;
            }
        }
    }

    void number(const toml::node& v, const KeySpec& spec, long line, const std::string& key) {
        Rational q;
        if (v.is_floating_point()) {
            std::ostringstream os;
            os << v.as_floating_point()->get();
            fail(line, key,
                 "TOML float " + os.str() + " is not accepted: write the number as a string, e.g. " + spec.name + " = \"" +
                     os.str() + "\", because a float literal has already been rounded to binary");
        } else if (v.is_integer()) {
            q = Rational(static_cast<long long>(v.as_integer()->get()));
        } else if (v.is_string()) {
            const std::string& s = v.as_string()->get();
            if (auto err = flowcert::parse_rational(s, q.backend().data()))
                fail(line, key, "\"" + shorten(s) + "\" is not a number: " + *err);
        } else {
            fail(line, key, "expected a number written as a string (e.g. \"1e-3\" or \"8/3\"), got " + type_name_of(v));
        }
        in_double_range(q, line, key);
        constrain(q, spec, line, key);
    }

    // Verifiers convert numbers to IntervalD too: one outside the double range would become
    // an unbounded enclosure or one with an endpoint at 0, so it is refused here with its key.
    // Subnormal doubles are exact doubles and accepted (a .npy array may hold them).
    void in_double_range(const Rational& q, long line, const std::string& key) {
        if (q.sign() == 0) return;
        const Rational a = abs(q);
        static const Rational big(std::numeric_limits<double>::max()), small(std::numeric_limits<double>::denorm_min());
        if (a > big || a < small)
            fail(line, key, "is outside the range of double numbers (0, or 4.9e-324 <= |x| <= 1.8e308)");
    }

    void constrain(const Rational& q, const KeySpec& spec, long line, const std::string& key) {
        switch (spec.constraint) {
            case Constraint::positive:
                if (q.sign() <= 0) fail(line, key, "must be positive (> 0), got " + q.str());
                break;
            case Constraint::nonnegative:
                if (q.sign() < 0) fail(line, key, "must be nonnegative (>= 0), got " + q.str());
                break;
            case Constraint::unit_interval:
                if (q.sign() < 0 || q > 1) fail(line, key, "must lie in [0, 1], got " + q.str());
                break;
            default: break;
        }
    }

    std::string file_;
    bool allow_unknown_;
};

std::shared_ptr<CaseData> load_text(std::string_view text, const std::string& source, const CaseSchema* schema) {
    auto data = std::make_shared<CaseData>();
    data->file = source;
    data->sha256 = sha256_hex(text);
    if (text.size() > max_case_file_bytes)
        throw CaseError(source, 0, "", "file too large (" + std::to_string(text.size()) + " bytes; a case file may have at most " +
                                           std::to_string(max_case_file_bytes) + " bytes)");
    if (text.find('\0') != std::string_view::npos)
        throw CaseError(source, 0, "", "not a text file (it contains NUL bytes); expected a TOML case file");
    data->text = std::string(text);
    if (std::all_of(text.begin(), text.end(), [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }))
        throw CaseError(source, 0, "", "the file is empty; a case needs at least `verifier = \"...\"` and `expect = \"...\"`");
    if (const long l = overdotted_key_line(text))
        throw CaseError(source, l, "",
                        "a dotted key with more than " + std::to_string(max_dotted_key_parts) +
                            " parts (the TOML reader would overflow its stack); no case key is nested so deeply");
    try {
        data->root = toml::parse(text, source);
    } catch (const toml::parse_error& e) {
        throw CaseError(source, static_cast<long>(e.source().begin.line), "",
                        "not valid TOML: " + std::string(e.description()));
    }
    std::vector<KeySpec> keys = common_keys();
    if (schema) {
        for (const auto& s : *schema) {
            if (std::any_of(keys.begin(), keys.end(), [&](const KeySpec& k) { return k.name == s.name; }))
                throw std::logic_error("verifier schema redeclares the common key '" + s.name + "'");
            keys.push_back(s);
        }
    }
    if (schema) {  // array keys given as .npy files (case_arrays.hpp)
        std::string files;
        detail::expand_array_files(data->root, keys, source, files);
        if (!files.empty()) {
            // The embedded case must stand alone (flowcert check re-runs it): the case with its arrays written
            // inline, exactly; its SHA-256 is the case's digest, so it covers the data.
            std::ostringstream os;
            os << toml::toml_formatter{data->root};
            std::string header = "# " + source + " with its .npy arrays written inline (exact values). Files:\n";
            std::istringstream in(files);
            for (std::string line; std::getline(in, line);) header += "#   " + line + "\n";
            data->text = header + os.str() + "\n";
            data->sha256 = sha256_hex(data->text);
        }
    }
    Validator val(source, schema == nullptr);
    data->root_node = val.table(data->root, keys, "", 0);
    return data;
}

std::string read_file_capped(const std::filesystem::path& file) {
    std::error_code ec;
    const auto status = std::filesystem::status(file, ec);
    if (ec || !std::filesystem::exists(status)) throw CaseError(file.string(), 0, "", "cannot read the case file: no such file");
    if (std::filesystem::is_directory(status)) throw CaseError(file.string(), 0, "", "is a directory, not a case file");
    if (!std::filesystem::is_regular_file(status))  // a FIFO or device would block or never end
        throw CaseError(file.string(), 0, "", "is not a regular file (a pipe, socket or device); expected a TOML case file");
    const auto size = std::filesystem::file_size(file, ec);
    if (!ec && size > max_case_file_bytes)
        throw CaseError(file.string(), 0, "", "file too large (" + std::to_string(size) + " bytes; a case file may have at most " +
                                                  std::to_string(max_case_file_bytes) + " bytes)");
    std::ifstream in(file, std::ios::binary);
    if (!in) throw CaseError(file.string(), 0, "", "cannot open the case file");
    std::string text;
    text.resize(max_case_file_bytes + 1);
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    return text;  // an oversized stream is caught by load_text's size check
}

const KeySpec* find_spec(const CaseNode& n, std::string_view key) {
    for (const auto& s : n.schema)
        if (s.name == key) return &s;
    return nullptr;
}

}  // namespace

std::string_view to_string(KeyType t) {
    switch (t) {
        case KeyType::string: return "a string";
        case KeyType::number: return "a number written as a string, e.g. \"1e-3\", \"8/3\" or \"0x1.999999999999ap-4\"";
        case KeyType::integer: return "an integer";
        case KeyType::boolean: return "a boolean (true or false)";
        case KeyType::numbers: return "an array of numbers written as strings (or the name of a 1-D .npy file)";
        case KeyType::strings: return "an array of strings";
        case KeyType::matrix: return "a matrix (an array of equally long arrays of numbers, or the name of a 2-D .npy file)";
        case KeyType::table: return "a table";
        case KeyType::tables: return "an array of tables";
    }
    return "?";
}

CaseError::CaseError(std::string file, long line, std::string key, std::string message)
    : std::runtime_error(describe_error(file, line, key, message)),
      file_(std::move(file)),
      line_(line),
      key_(std::move(key)),
      message_(std::move(message)) {}

Case::Case(std::shared_ptr<const CaseData> data, const CaseNode* node) : data_(std::move(data)), node_(node) {}

Case Case::load(const std::filesystem::path& file, const CaseSchema& schema) {
    const std::string text = read_file_capped(file);
    auto data = load_text(text, file.string(), &schema);
    const CaseNode* root = data->root_node.get();
    return Case(std::move(data), root);
}

Case Case::parse(std::string_view text, const std::string& source, const CaseSchema& schema) {
    auto data = load_text(text, source, &schema);
    const CaseNode* root = data->root_node.get();
    return Case(std::move(data), root);
}

CaseHeader read_case_header(const std::filesystem::path& file) {
    return read_case_header_text(read_file_capped(file), file.string());
}

CaseHeader read_case_header_text(std::string_view text, const std::string& file) {
    auto data = load_text(text, file, nullptr);
    Case c(data, data->root_node.get());
    CaseHeader h;
    h.file = file;
    h.verifier = c.verifier();
    h.expect = c.expect();
    h.labels = c.labels();
    h.description = c.description();
    h.verifier_line = c.line_of("verifier");
    return h;
}

namespace {
const toml::node* get_node(const CaseNode& n, std::string_view key) { return n.table->get(key); }
}  // namespace

const std::string& Case::file() const { return data_->file; }
const std::string& Case::sha256() const { return data_->sha256; }
const std::string& Case::text() const { return data_->text; }

std::string Case::verifier() const { return data_->root.get("verifier")->as_string()->get(); }
Verdict Case::expect() const { return *parse_verdict(data_->root.get("expect")->as_string()->get()); }
std::vector<std::string> Case::labels() const {
    std::vector<std::string> out;
    if (const auto* a = data_->root.get_as<toml::array>("labels"))
        for (const auto& e : *a) out.push_back(e.as_string()->get());
    return out;
}
std::string Case::description() const {
    if (const auto* s = data_->root.get_as<std::string>("description")) return s->get();
    return {};
}
std::optional<long> Case::precision_bits() const {
    if (const auto* k = data_->root.get_as<int64_t>("precision")) return static_cast<long>(k->get());
    return std::nullopt;
}

bool Case::has(std::string_view key) const { return get_node(*node_, key) != nullptr; }

long Case::line_of(std::string_view key) const {
    if (const toml::node* n = get_node(*node_, key)) return line_of_node(*n);
    return static_cast<long>(node_->table->source().begin.line);
}

void Case::fail(std::string_view key, const std::string& message) const {
    throw CaseError(data_->file, line_of(key), node_->prefix + std::string(key), message);
}

namespace {
// The node of a declared key of the given types; a verifier bug (std::logic_error) if the
// key is not declared with that type.
const toml::node& typed(const CaseNode& n, const std::string& file, std::string_view key, std::initializer_list<KeyType> types) {
    const KeySpec* s = find_spec(n, key);
    if (!s) throw std::logic_error("verifier reads key '" + n.prefix + std::string(key) + "' that its schema does not declare");
    if (std::find(types.begin(), types.end(), s->type) == types.end())
        throw std::logic_error("verifier reads key '" + n.prefix + std::string(key) + "' as the wrong type (declared " +
                               std::string(to_string(s->type)) + ")");
    const toml::node* v = n.table->get(key);
    if (!v)
        throw std::logic_error("verifier reads optional key '" + n.prefix + std::string(key) + "' of " + file +
                               " that is absent (test has() first)");
    return *v;
}
std::string number_text(const toml::node& v) {
    if (v.is_integer()) return std::to_string(v.as_integer()->get());
    return v.as_string()->get();
}
}  // namespace

std::string Case::string(std::string_view key) const {
    return typed(*node_, data_->file, key, {KeyType::string}).as_string()->get();
}
bool Case::boolean(std::string_view key) const {
    return typed(*node_, data_->file, key, {KeyType::boolean}).as_boolean()->get();
}
long long Case::integer(std::string_view key) const {
    return typed(*node_, data_->file, key, {KeyType::integer}).as_integer()->get();
}
std::string Case::number_string(std::string_view key) const {
    return number_text(typed(*node_, data_->file, key, {KeyType::number}));
}
IntervalD Case::interval_d(std::string_view key) const { return IntervalD::from_decimal(number_string(key)); }
IntervalMp Case::interval_mp(std::string_view key, Precision p) const {
    return IntervalMp::from_decimal(number_string(key), p);
}
std::vector<std::string> Case::number_strings(std::string_view key) const {
    std::vector<std::string> out;
    for (const auto& e : *typed(*node_, data_->file, key, {KeyType::numbers}).as_array()) out.push_back(number_text(e));
    return out;
}
std::vector<std::string> Case::strings(std::string_view key) const {
    std::vector<std::string> out;
    for (const auto& e : *typed(*node_, data_->file, key, {KeyType::strings}).as_array())
        out.push_back(e.as_string()->get());
    return out;
}
std::vector<std::vector<std::string>> Case::matrix(std::string_view key) const {
    std::vector<std::vector<std::string>> out;
    for (const auto& row : *typed(*node_, data_->file, key, {KeyType::matrix}).as_array()) {
        out.emplace_back();
        for (const auto& e : *row.as_array()) out.back().push_back(number_text(e));
    }
    return out;
}
Case Case::table(std::string_view key) const {
    typed(*node_, data_->file, key, {KeyType::table});
    return Case(data_, node_->children.find(key)->second.front().get());
}
std::vector<Case> Case::tables(std::string_view key) const {
    typed(*node_, data_->file, key, {KeyType::tables});
    std::vector<Case> out;
    auto it = node_->children.find(key);
    if (it != node_->children.end())
        for (const auto& n : it->second) out.emplace_back(data_, n.get());
    return out;
}

}  // namespace flowcert::cert
