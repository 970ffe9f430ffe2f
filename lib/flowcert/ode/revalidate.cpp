// flowcert/ode/revalidate.cpp -- re-validation of recorded steps (see revalidate.hpp).
#include <flowcert/ode.hpp>

#include <optional>
#include <stdexcept>

#include "lohner_step.hpp"
#include "revalidate_events.hpp"

namespace flowcert::ode {

namespace {

using detail::LohnerSet;
using detail::Mat;
using detail::Outcome;
using detail::SmoothImage;
using detail::StepKernel;
using detail::Vec;

// A hint vector of points (and doubles when `doubles`), of size `size`; false otherwise.
template <Interval I>
bool read_points(const std::vector<I>& v, std::size_t size, bool doubles) {
    if (v.size() != size) return false;
    for (const I& x : v)
        if (!is_point(x) || !is_bounded(x) || (doubles && lower(x) != upper(x))) return false;
    return true;
}

template <Interval I> Mat<I> from_row_major(const std::vector<I>& v, int n) {
    Mat<I> M(n, n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) M(i, j) = v[static_cast<std::size_t>(i) * n + j];
    return M;
}

// The initial set as Lohner::init builds it: centre c = mid x0, R0 = x0 - c, identity bases.
template <Interval I> void initial_set(const std::vector<I>& x0, long bits, LohnerSet<I>& S0, Vec<I>& R0) {
    const int n = static_cast<int>(x0.size());
    S0.c.resize(n);
    for (int i = 0; i < n; ++i) {
        S0.c[i] = detail::point_mid(x0[i]);
        R0[i] = x0[i] - S0.c[i];
    }
    S0.R = Vec<I>::Constant(n, IntervalTraits<I>::from_integer(0, bits));
    S0.C = linalg::identity<I>(n, bits);
    S0.B = S0.C;
    S0.Binv = S0.C;
}

// What a step saw of the kinks: the sign of every relu argument on the step and, for a hull step on a
// kink, the sign of its slope (revalidate_events.hpp).
template <Interval I>
detail::KinkSigns kink_signs(const taylor::VectorField& field, const std::vector<int>& relus,
                             const taylor::TaylorEvaluator<I>& ev, bool hull) {
    detail::KinkSigns s;
    s.sign.assign(relus.size(), 0);
    s.slope.assign(relus.size(), 0);
    for (std::size_t k = 0; k < relus.size(); ++k) {
        s.sign[k] = static_cast<signed char>(ev.relu_sign(relus[k]));
        if (hull && s.sign[k] == 0) {
            const I& d = ev.node_coeff(field.nodes()[relus[k]].a, 1);
            s.slope[k] = certainly_positive(d) ? 1 : certainly_negative(d) ? -1 : 0;
        }
    }
    return s;
}

// Outputs integrated on a copy of the set: the stretches of their own chains of records, each claimed once by
// the output's own events or by a run event whose 'after' record is on that chain. Empty if they check out
// (the outputs' crossings and contacts added to the counts), else why not.
template <Interval I>
std::string check_output_events(const taylor::VectorField& field, const std::vector<StepRecord<I>>& records,
                                const std::vector<detail::KinkSigns>& signs, const std::vector<I>& starts,
                                const std::vector<I>& times, int final_record, const std::vector<int>& output_records,
                                const std::vector<SwitchEvent<I>>& events,
                                const std::vector<std::vector<SwitchEvent<I>>>* output_events, long& crossings,
                                long& contacts) {
    const int count = static_cast<int>(records.size());
    const int stops = static_cast<int>(output_records.size());
    std::vector<char> on_final(count, 0);
    for (int r = final_record; r >= 0 && r < count; r = records[r].from) on_final[r] = 1;
    for (int s = 0; s < stops; ++s) {
        const std::string list = "claim.outputs[" + std::to_string(s) + "].events";
        const std::vector<SwitchEvent<I>> none;
        const auto& own = output_events && s < static_cast<int>(output_events->size()) ? (*output_events)[s] : none;
        const int r = output_records[s];
        if (r < 0 || on_final[r]) {
            if (!own.empty())
                return list + ": this output is on the run's chain of records; its events are the run's";
            continue;
        }
        std::vector<char> on_chain(count, 0);
        for (int j = r; j >= 0; j = records[j].from) on_chain[j] = 1;
        std::vector<SwitchEvent<I>> claimed;
        std::vector<std::string> names;
        for (std::size_t q = 0; q < events.size(); ++q) {
            const int a = events[q].after;
            if (a >= 0 && a < count && on_chain[a]) {
                claimed.push_back(events[q]);
                names.push_back("claim.events[" + std::to_string(q) + "]");
            }
        }
        for (std::size_t q = 0; q < own.size(); ++q) {
            claimed.push_back(own[q]);
            names.push_back(list + "[" + std::to_string(q) + "]");
        }
        long cr = 0, co = 0;
        const std::string w = detail::check_events(field, records, signs, starts, times, r, claimed, cr, co, &names, list);
        if (!w.empty()) return w;
        for (const auto& e : own) (e.kind == EventKind::crossing ? crossings : contacts) += 1;
    }
    return {};
}

template <Interval I>
Revalidation<I> run(const taylor::VectorField& field, const std::vector<I>& params, const std::vector<I>& x0,
                    const I& t_end, const std::vector<I>& output_times, const Options& options, long bits,
                    const std::vector<StepRecord<I>>& records, const std::vector<int>& output_records,
                    int final_record, const std::vector<SwitchEvent<I>>* events, bool tube,
                    const std::vector<std::vector<SwitchEvent<I>>>* output_events, Revalidation<I>& out) {
    auto fail = [&](int j, Status s, const std::string& why) {
        out.status = s;
        out.failed_record = j;
        out.reason = (j >= 0 ? "step " + std::to_string(j) + ": " : std::string()) + why;
        return out;
    };
    const int n = field.dimension();
    const int stops = static_cast<int>(output_times.size());
    const int count = static_cast<int>(records.size());
    StepKernel<I> kernel(field, params, options, bits);
    LohnerSet<I> S0;
    Vec<I> R0(n);
    initial_set(x0, bits, S0, R0);
    const I t0 = IntervalTraits<I>::from_integer(0, bits);
    // the sets still needed: a record's set is dropped after its last use
    std::vector<int> last_use(count, -1);
    for (int j = 0; j < count; ++j) {
        const int from = records[j].from;
        if (from < -1 || from >= j) return fail(j, Status::invalid_input, "it must start from an earlier record");
        if (from >= 0) last_use[from] = j;
    }
    for (int r : output_records)
        if (r >= 0 && r < count) last_use[r] = count;
    if (final_record >= 0 && final_record < count) last_use[final_record] = count;
    std::vector<std::optional<LohnerSet<I>>> sets(count);
    std::vector<I> times(count), starts(count);
    // with `events`: what each record saw of the kinks (revalidate_events.hpp)
    const std::vector<int> relus = events ? detail::relu_nodes(field) : std::vector<int>{};
    std::vector<detail::KinkSigns> signs(events ? count : 0);
    auto note_signs = [&](int j, const taylor::TaylorEvaluator<I>& ev, bool hull) {
        if (events) signs[j] = kink_signs(field, relus, ev, hull);
    };
    if (tube) out.tube.resize(count);
    auto set_of = [&](int j) -> const LohnerSet<I>& { return j < 0 ? S0 : *sets[j]; };
    auto time_of = [&](int j) -> const I& { return j < 0 ? t0 : times[j]; };
    auto stop_time = [&](int s) -> const I& { return s < stops ? output_times[s] : t_end; };
    for (int j = 0; j < count; ++j) {
        const StepRecord<I>& rec = records[j];
        if (rec.stop < -1 || rec.stop > stops) return fail(j, Status::invalid_input, "its stop is out of range");
        const LohnerSet<I>& S = set_of(rec.from);
        const I& t = time_of(rec.from);
        I hI, t1;
        if (rec.stop < 0) {
            if (!is_point(rec.h) || !is_bounded(rec.h) || !certainly_positive(rec.h))
                return fail(j, Status::invalid_input, "its step size is not a positive point");
            hI = rec.h;
            t1 = t + hI;
        } else {  // the last step to a stop: h = stop - t exactly (an interval)
            hI = stop_time(rec.stop) - t;
            if (!possibly_positive(hI)) return fail(j, Status::invalid_input, "it ends at a stop that is not ahead");
            t1 = stop_time(rec.stop);
        }
        if (!read_points(rec.centre, n, false))
            return fail(j, Status::invalid_input, "its centre is not a vector of " + std::to_string(n) + " points");
        if (rec.apriori.size() != static_cast<std::size_t>(n))
            return fail(j, Status::invalid_input, "its a priori box does not have " + std::to_string(n) + " components");
        Vec<I> Y(n), c1(n);
        for (int i = 0; i < n; ++i) {
            Y[i] = rec.apriori[i];
            c1[i] = rec.centre[i];
        }
        const Vec<I> X = S.box(R0);
        LohnerSet<I> next;
        if (rec.kind == StepKind::smooth) {
            const std::size_t nn = static_cast<std::size_t>(n) * n;
            if (!read_points(rec.C, nn, false) || !read_points(rec.B, nn, true))
                return fail(j, Status::invalid_input, "its C and B are not n x n matrices of points (B of doubles)");
            bool kink = false;
            std::string kink_reason;
            // the double-double centre where the run used it (the same arithmetic; either is rigorous)
            if (Outcome o = kernel.coefficients(S.c, X, rec.centre_dd, kink, kink_reason); !o.ok())
                return fail(j, o.status, o.reason);
            if (kink)
                return fail(j, Status::relu_kink, "a relu argument straddles 0 on the set (" + kink_reason +
                                                      "), so a Taylor step is not valid");
            Vec<I> Z, rem;
            if (Outcome o = kernel.a_priori(hI, Y, Z, false); !o.ok())
                return fail(j, o.status, o.reason.empty() ? "the a priori box is not validated" : o.reason);
            note_signs(j, kernel.apriori_evaluator(), false);
            if (Outcome o = kernel.remainder(hI, X, rem, false); !o.ok()) return fail(j, o.status, o.reason);
            if (tube) kernel.pieces(t, hI, Z, options.tube_pieces, out.tube[j]);
            SmoothImage<I> img;
            if (Outcome o = kernel.smooth_image(hI, S, rem, img); !o.ok()) return fail(j, o.status, o.reason);
            Eigen::MatrixXd Bd(n, n);
            for (int a = 0; a < n; ++a)
                for (int b = 0; b < n; ++b) Bd(a, b) = lower(rec.B[static_cast<std::size_t>(a) * n + b]);
            auto qr = linalg::enclose_orthogonal_inverse<I>(Bd, bits);  // B^{-1} enclosed anew, never read
            if (qr.status != ProofStatus::proven)
                return fail(j, Status::invalid_input, "the inverse of its basis B is not enclosed: " + qr.reason);
            if (Outcome o = kernel.represent(img, R0, S.R, c1, from_row_major(rec.C, n), std::move(qr.Q),
                                             std::move(qr.Q_inverse), next);
                !o.ok())
                return fail(j, o.status, o.reason);
            ++out.smooth_steps;
        } else {
            if (!rec.C.empty() || !rec.B.empty())
                return fail(j, Status::invalid_input, "a hull step keeps the basis (it has no C and B)");
            Vec<I> Z, F;
            if (Outcome o = kernel.hull_a_priori(hI, X, Y, Z, F, false); !o.ok())
                return fail(j, o.status, o.reason.empty() ? "the a priori box is not validated" : o.reason);
            note_signs(j, kernel.hull_evaluator(), true);
            if (tube) out.tube[j].push_back(TubePiece<I>{t, t + hI, detail::to_std<I>(Z)});
            if (Outcome o = kernel.hull_update(hI, F, S, c1, next); !o.ok()) return fail(j, o.status, o.reason);
            ++out.hull_steps;
        }
        if (rec.from >= 0 && last_use[rec.from] == j) sets[rec.from].reset();
        sets[j] = std::move(next);
        times[j] = t1;
        starts[j] = t;
    }
    // the set at stop s: the end of a step to s (or a set whose time is exactly that point)
    auto at_stop = [&](int r, int s, std::vector<I>& box) -> bool {
        if (r < -1 || r >= count) return false;
        const bool ends_there = r >= 0 && records[r].stop == s;
        const I& t = time_of(r);
        const I& ts = stop_time(s);
        if (!ends_there && !(is_point(t) && is_point(ts) && subset(t, ts) && subset(ts, t)))
            return false;
        box = detail::to_std<I>(set_of(r).box(R0));
        return true;
    };
    out.outputs.resize(stops);
    for (int s = 0; s < stops; ++s)
        if (!at_stop(output_records[s], s, out.outputs[s]))
            return fail(-1, Status::invalid_input, "output " + std::to_string(s) + " is not the end of a step to it");
    if (!at_stop(final_record, stops, out.final_box))
        return fail(-1, Status::invalid_input, "the final set is not the end of a step to the final time");
    if (events) {
        const std::string why = detail::check_events(field, records, signs, starts, times, final_record, *events,
                                                     out.crossings, out.contacts);
        if (!why.empty()) return fail(-1, Status::invalid_input, why);
        const std::string own = check_output_events(field, records, signs, starts, times, final_record, output_records,
                                                    *events, output_events, out.crossings, out.contacts);
        if (!own.empty()) return fail(-1, Status::invalid_input, own);
    }
    out.status = Status::ok;
    out.reason = "ok";
    return out;
}

}  // namespace

template <Interval I>
Revalidation<I> revalidate(const taylor::VectorField& field, const std::vector<I>& params, const std::vector<I>& x0,
                           const I& t_end, const std::vector<I>& output_times, const Options& options, long bits,
                           const std::vector<StepRecord<I>>& records, const std::vector<int>& output_records,
                           int final_record, const std::vector<SwitchEvent<I>>* events, bool tube,
                           const std::vector<std::vector<SwitchEvent<I>>>* output_events) {
    Revalidation<I> out;
    auto invalid = [&](const std::string& why) {
        out.status = Status::invalid_input;
        out.reason = why;
        return out;
    };
    if (options.c1) return invalid("C^1 records are not re-validated");
    if (static_cast<int>(x0.size()) != field.dimension()) return invalid("the initial box has the wrong dimension");
    if (static_cast<int>(params.size()) != field.parameter_count()) return invalid("wrong number of parameters");
    if (output_records.size() != output_times.size()) return invalid("one record per output time is needed");
    for (const auto& v : x0)
        if (!is_bounded(v)) return invalid("the initial set is unbounded");
    try {
        return run(field, params, x0, t_end, output_times, options, bits, records, output_records, final_record, events,
                   tube, output_events, out);
    } catch (const std::exception& e) {
        out = {};
        out.status = Status::arithmetic_error;
        out.reason = std::string("arithmetic failure during re-validation: ") + e.what();
        return out;
    }
}

template Revalidation<IntervalD> revalidate(const taylor::VectorField&, const std::vector<IntervalD>&,
                                            const std::vector<IntervalD>&, const IntervalD&,
                                            const std::vector<IntervalD>&, const Options&, long,
                                            const std::vector<StepRecord<IntervalD>>&, const std::vector<int>&, int,
                                            const std::vector<SwitchEvent<IntervalD>>*, bool,
                                            const std::vector<std::vector<SwitchEvent<IntervalD>>>*);
template Revalidation<IntervalMp> revalidate(const taylor::VectorField&, const std::vector<IntervalMp>&,
                                             const std::vector<IntervalMp>&, const IntervalMp&,
                                             const std::vector<IntervalMp>&, const Options&, long,
                                             const std::vector<StepRecord<IntervalMp>>&, const std::vector<int>&,
                                             int, const std::vector<SwitchEvent<IntervalMp>>*, bool,
                                             const std::vector<std::vector<SwitchEvent<IntervalMp>>>*);

}  // namespace flowcert::ode
