// verifiers/kh/kh_case_inputs.hpp -- case-file conversions shared by the kh/* verifiers: integer lists, loss
// normalization, activation, architecture and data set.
#pragma once

#include <flowcert/cert.hpp>
#include <flowcert/linalg.hpp>
#include <flowcert/nets.hpp>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace khcase {

// Integer list given as strings in the case file (numbers are strings in every case).
inline std::vector<int> to_ints(const std::vector<std::string>& v) {
    std::vector<int> out;
    for (const auto& s : v) out.push_back(std::stoi(s));
    return out;
}

// `loss = "paper" | "mean" | "half" | "half_mean"`: the normalization c of L = c sum (p - y)^2.
inline flowcert::nets::SquareLossNormalization parse_loss(const std::string& s) {
    flowcert::nets::SquareLossNormalization n;
    n.half = s == "half" || s == "half_mean";
    n.mean = s == "mean" || s == "half_mean";
    return n;
}

// `activation` / `teacher_activation = "square" | "linear" | "relu" | "relu_power"` of a feed-forward net
// [KH2025, eq. (9)]: z^2, z, max(z, 0) and max(z, 0)^p with p = `power`. "relu" is the plain ReLU (degree 1; the
// model layer flags its kink, so nothing certified uses an undefined derivative), never max(z, 0)^p. Which names
// a verifier admits is its schema's choice list (kh/theorem18_sparsity leaves "relu" out: [KH2025, Thm 18]
// needs p >= 2 or the linear net); an unknown name throws instead of falling back to some activation.
inline flowcert::nets::HomActivation parse_activation(const std::string& name, long long power) {
    using flowcert::nets::HomActivation;
    if (name == "square") return HomActivation::square();
    if (name == "linear") return HomActivation::linear();
    if (name == "relu") return HomActivation::relu();
    if (name == "relu_power") return HomActivation::relu_power(static_cast<int>(power));
    throw std::invalid_argument("unknown activation \"" + name + "\" (square, linear, relu, relu_power)");
}

// `model = "example1" | "weighted_squares" | "diagonal" | "feed_forward"` on inputs of dimension d, with its keys
// `signs`, `depth`, `hidden`, `activation`, `power` (default 2). Which models a verifier admits is its schema's
// choice list.
inline flowcert::nets::HomogeneousArchitecture parse_architecture(const flowcert::cert::Case& in, int d) {
    using flowcert::nets::HomogeneousArchitecture;
    const std::string model = in.string("model");
    if (model == "example1") return HomogeneousArchitecture::example1();
    if (model == "weighted_squares") return HomogeneousArchitecture::weighted_squares(to_ints(in.number_strings("signs")));
    if (model == "diagonal") return HomogeneousArchitecture::diagonal(d, static_cast<int>(in.integer("depth")));
    return HomogeneousArchitecture::feed_forward(d, to_ints(in.number_strings("hidden")),
                                                 parse_activation(in.string("activation"),
                                                                  in.has("power") ? in.integer("power") : 2));
}

// The data set of a case: X (d x n, column i = x_i) and y as enclosures, and their midpoints for the
// non-rigorous searches.
template <flowcert::Interval I> struct CaseData {
    flowcert::nets::Mat<I> X;
    flowcert::nets::Vec<I> y;
    Eigen::MatrixXd Xd;
    Eigen::VectorXd yd;
    std::optional<flowcert::nets::HomogeneousArchitecture> teacher;  // set for data = "sphere_teacher"
    std::uint64_t seed = 0;                                          // data_seed of "sphere_teacher"
};

// `inputs` (one row x_i per sample) and `targets` (y_i), decimal strings enclosed at `bits`.
template <flowcert::Interval I> CaseData<I> read_explicit_data(const flowcert::cert::Case& in, long bits) {
    const auto rows = in.matrix("inputs");
    const auto ys = in.number_strings("targets");
    const int n = static_cast<int>(rows.size()), d = static_cast<int>(rows.front().size());
    if (static_cast<int>(ys.size()) != n) in.fail("targets", "need one label per input row");
    CaseData<I> out;
    out.X.resize(d, n);
    out.y.resize(n);
    for (int i = 0; i < n; ++i) {
        const auto& row = rows[static_cast<std::size_t>(i)];
        for (int k = 0; k < d; ++k)
            out.X(k, i) = flowcert::IntervalTraits<I>::from_decimal(row[static_cast<std::size_t>(k)], bits);
        out.y(i) = flowcert::IntervalTraits<I>::from_decimal(ys[static_cast<std::size_t>(i)], bits);
    }
    out.Xd = flowcert::linalg::mid<I>(flowcert::linalg::IMatrix<I>(out.X));
    out.yd = flowcert::linalg::mid<I>(flowcert::linalg::IVector<I>(out.y));
    return out;
}

// `data = "explicit"` (above) or `"sphere_teacher"`: `samples` seeded inputs on the unit sphere of R^`input_dim`
// labelled by a feed-forward teacher (`teacher_hidden`, `teacher_activation`) with seeded weights, all in double
// (those doubles are the exact data; nets::make_sphere_teacher_data, seed `data_seed`).
template <flowcert::Interval I> CaseData<I> read_data(const flowcert::cert::Case& in, long bits) {
    using flowcert::nets::HomogeneousArchitecture;
    if (in.string("data") == "explicit") return read_explicit_data<I>(in, bits);
    const int d = static_cast<int>(in.integer("input_dim")), n = static_cast<int>(in.integer("samples"));
    CaseData<I> out;
    out.teacher = HomogeneousArchitecture::feed_forward(d, to_ints(in.number_strings("teacher_hidden")),
                                                        parse_activation(in.string("teacher_activation"), 2));
    out.seed = static_cast<std::uint64_t>(in.integer("data_seed"));
    const flowcert::nets::SphereTeacherData sd = flowcert::nets::make_sphere_teacher_data(out.seed, d, n, *out.teacher);
    out.Xd = sd.X;
    out.yd = sd.y;
    out.X = flowcert::nets::convert_matrix<I>(out.Xd, bits);
    out.y = flowcert::nets::convert_vector<I>(out.yd, bits);
    return out;
}

// --export-instance: seeded data (`sphere_teacher`) as X (n x d, row i = x_i), y and the teacher's weights, the
// exact doubles the verifier uses. Explicit data is in the case file already: nothing to export.
template <flowcert::Interval I> void export_data(const flowcert::cert::Context& ctx, const CaseData<I>& data) {
    if (!ctx.instance_export || !data.teacher) return;
    const auto n = static_cast<std::size_t>(data.Xd.cols()), d = static_cast<std::size_t>(data.Xd.rows());
    std::vector<double> X(n * d), y(data.yd.data(), data.yd.data() + n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < d; ++k) X[i * d + k] = data.Xd(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(i));
    ctx.export_array("X", {n, d}, X, "inputs x_i on the unit sphere, row i (sphere_teacher, data_seed)");
    ctx.export_array("y", {n}, y, "teacher labels y_i");
    ctx.export_value("data_seed", std::to_string(data.seed), "the seed of nets::make_sphere_teacher_data");
}

// The schema keys read_data reads (`teacher_activations`: the teacher activations the verifier admits), then
// `loss` (parse_loss), in this order.
inline flowcert::cert::CaseSchema data_keys(std::vector<std::string> teacher_activations) {
    using flowcert::cert::KeyType;
    return {
        {.name = "data", .type = KeyType::string, .description = "data source", .choices = {"explicit", "sphere_teacher"}},
        {.name = "inputs", .type = KeyType::matrix, .description = "explicit: one row per sample x_i", .required = false},
        {.name = "targets", .type = KeyType::numbers, .description = "explicit: labels y_i", .required = false},
        {.name = "input_dim", .type = KeyType::integer, .description = "sphere_teacher: d", .required = false},
        {.name = "samples", .type = KeyType::integer, .description = "sphere_teacher: n", .required = false},
        {.name = "data_seed", .type = KeyType::integer, .description = "sphere_teacher: seed", .required = false},
        {.name = "teacher_hidden", .type = KeyType::numbers, .description = "sphere_teacher: teacher widths", .required = false},
        {.name = "teacher_activation", .type = KeyType::string, .description = "sphere_teacher: teacher activation",
         .required = false, .choices = std::move(teacher_activations)},
        {.name = "loss", .type = KeyType::string, .description = "square-loss normalization (paper: sum (p-y)^2)",
         .choices = {"paper", "half", "mean", "half_mean"}},
    };
}

// Layer widths (`hidden`, `teacher_hidden`): at least one, each a whole number in [1, 100000]; a malformed case
// otherwise (exit 3 at the key), never an internal error in the architecture builder.
inline void validate_widths(const flowcert::cert::Case& c, std::string_view key) {
    if (!c.has(key)) return;
    const auto w = c.number_strings(key);
    if (w.empty()) c.fail(key, "needs at least one hidden layer width");
    for (const auto& s : w) {
        const bool whole = !s.empty() && s.size() <= 6 && s.find_first_not_of("0123456789") == std::string::npos;
        if (!whole || std::stol(s) < 1 || std::stol(s) > 100000)
            c.fail(key, "width '" + s + "' is not a whole number in [1, 100000]");
    }
}

// The keys each data source needs (for a verifier's `validate`).
inline void validate_data_keys(const flowcert::cert::Case& c) {
    validate_widths(c, "teacher_hidden");
    if (c.string("data") == "explicit" && (!c.has("inputs") || !c.has("targets")))
        c.fail("inputs", "explicit data needs inputs and targets");
    if (c.string("data") == "sphere_teacher" &&
        (!c.has("input_dim") || !c.has("samples") || !c.has("data_seed") || !c.has("teacher_hidden") ||
         !c.has("teacher_activation")))
        c.fail("data", "sphere_teacher needs input_dim, samples, data_seed, teacher_hidden, teacher_activation");
}

// Schema pieces one after the other.
inline flowcert::cert::CaseSchema join(std::initializer_list<flowcert::cert::CaseSchema> parts) {
    flowcert::cert::CaseSchema out;
    for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
    return out;
}

}  // namespace khcase

namespace khcase {

// A list key with one entry per parameter (`kkt_start`, `init_direction`): its exact decimal texts; bad input
// (exit 3) when the length is not P.
inline std::vector<std::string> parameter_texts(const flowcert::cert::Case& in, const std::string& key, int P) {
    auto v = in.number_strings(key);
    if (static_cast<int>(v.size()) != P) in.fail(key, "need one entry per parameter");
    return v;
}
// The midpoints of such a list: the start point of a non-rigorous Newton polish (proofs::kh::certify_positive_kkt).
inline Eigen::VectorXd parameter_midpoints(const flowcert::cert::Case& in, const std::string& key, int P) {
    const auto v = parameter_texts(in, key, P);
    Eigen::VectorXd u(P);
    for (int j = 0; j < P; ++j) u(j) = flowcert::mid(flowcert::IntervalD::from_decimal(v[static_cast<std::size_t>(j)]));
    return u;
}

// The explicit data keys read_explicit_data reads, for a verifier without the sphere_teacher source.
inline flowcert::cert::CaseSchema explicit_data_keys() {
    using flowcert::cert::KeyType;
    return {
        {.name = "inputs", .type = KeyType::matrix, .description = "one row per sample x_i"},
        {.name = "targets", .type = KeyType::numbers, .description = "labels y_i"},
    };
}

}  // namespace khcase
