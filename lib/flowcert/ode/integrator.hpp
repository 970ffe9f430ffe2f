// flowcert/ode/integrator.hpp -- rigorous C^0 / C^1 integration of x' = f(x; p).
//
// Method (docs/integrator.md): per step of size h,
//  1. Taylor coefficients of the solution at the centre c of the set (thin intervals) and,
//     with the variational part, over the whole box [X] (Taylor-mode AD, taylor layer);
//  2. a rigorous a priori enclosure Y of x(t), t in [0,h], for all x0 in [X] by the
//     high-order enclosure test sum_{k<=p} x_k([X]) [0,h]^k + [0,h]^{p+1} x_{p+1}(Y) in int Y
//     [Nedialkov, Jackson, Corliss, Appl. Math. Comput. 105 (1999), Sec. 5];
//  3. Lagrange remainder h^{p+1} x_{p+1}(Y);
//  4. Lohner's mean-value form x(h) in T_p(c,h) + DT_q([X],h)(x0 - c) + sum_{q<k<=p} h^k (x_k([X]) - x_k(c))
//     + remainder (q = p gives the classical form), with the set
//     kept as a doubleton c + C r0 + B r and B from a QR factorization against wrapping
//     [Lohner 1987; CAPD's doubleton: Zgliczynski, Found. Comput. Math. 2 (2002)];
//  5. C^1: Dphi_h in DT_p([X],h) + h^{p+1} D x_{p+1}(Y) V(Y), |V| <= exp(h ||Df(Y)||) by Gronwall,
//     composed along the steps in the Lohner form V = A + B E [Zgliczynski 2002];
//  6. step size from the last Taylor terms at the centre (heuristic, non-rigorous: it only
//     chooses h; every accepted step is validated), shortened by the remainder's excess when
//     validation fails;
//  7. kinks (relu nodes): first-order hull steps through them, with switching events
//     (certified transversal crossings or contacts; docs/integrator.md, "Kinks").
// Failure is a value: Result::status names the reason, with the time and the offending set.
#pragma once

#if !defined(FLOWCERT_ODE_INTERNAL)
#error "include <flowcert/ode.hpp>, not the internal headers"
#endif

#include <limits>
#include <string>
#include <vector>

#include <flowcert/interval.hpp>
#include <flowcert/taylor.hpp>

namespace flowcert::ode {

enum class Status {
    not_run,                // default: nothing proven
    ok,                     // the enclosure reached the final time
    no_a_priori_enclosure,  // the high-order enclosure test failed down to the minimum step
    remainder_too_wide,     // the Lagrange remainder stayed above tolerance down to the minimum step
    non_finite,             // an unbounded or NaN coefficient or set
    relu_kink,              // the set (or its a priori enclosure) straddles a relu kink
    domain_error,           // sqrt/log of a non-positive set, division by a set containing 0
    step_limit,             // max_steps reached before the final time
    time_limit,             // max_seconds of wall time used before the final time
    arithmetic_error,       // an arithmetic exception (overflow of an exponent, allocation, ...) in a step
    invalid_input,          // bad arguments (dimension mismatch, negative time, ...)
};
const char* to_string(Status s);

struct Options {
    int order = 20;                 // Taylor order p
    double tolerance = 0;           // local error target per step, relative to max(1, |x|); 0: 2^-bits / 100
    // Order q <= p of the Jacobian DT_q([X],h) of the mean-value form; the terms q+1..p enter as a
    // box sum_{k>q} h^k (x_k([X]) - x_k(c)) (cheaper: the C^1 recurrences cost ~ n q^2). 0: q = p.
    // Ignored (q = p) when c1 is set.
    int jacobian_order = 0;
    double min_step = 1e-10;        // below this a failing step is reported as a failure
    double max_step = std::numeric_limits<double>::infinity();
    long max_steps = 10'000'000;
    double max_seconds = std::numeric_limits<double>::infinity();  // wall-time budget of the run
    double remainder_factor = 1e3;  // accept a step when |remainder| <= factor * tolerance * max(1,|x|)
    bool record_tubes = false;      // keep boxes enclosing x(t) for every t of every step
    bool record_steps = false;      // keep every accepted step's choices (Result::records), for a certificate
    int tube_pieces = 8;            // boxes per smooth step: the Taylor polynomial over each eighth
    bool c1 = false;                // also enclose D_x0 phi(t, x0)
};

template <Interval I>
struct TubePiece {
    I t0, t1;             // the step covers [lower(t0), upper(t1)]
    std::vector<I> box;   // encloses x(t) for every t in [t0, t1] and every initial value
};

// A switching event of a relu kink (relu, abs, max, min in the formula): the kink's argument
// g (a node of the field) reached 0 during [t0, t1].
enum class EventKind {
    crossing,  // certified transversal crossing: g has one sign at t0 and the other at t1 for every
               // solution, and dg/dt has a fixed sign on the tube between, so each solution crosses
               // g = 0 exactly once, at a time in [t0, t1]
    contact,   // the set touched or stayed on the kink (Clarke hull steps), no crossing certified
};
const char* to_string(EventKind k);

template <Interval I>
struct SwitchEvent {
    EventKind kind = EventKind::contact;
    int argument = -1;  // node id of g
    int direction = 0;  // +1: g from negative to positive, -1: the reverse, 0: none certified
    I t0, t1;
    // With Options::record_steps: the relu node, and the records of the smooth steps before and
    // after the stretch of hull steps (after = -1 when the run ends in it).
    int relu = -1, before = -1, after = -1;
};

template <Interval I>
struct Snapshot {
    I time;                  // encloses the (exact) time
    std::vector<I> box;      // encloses x(time) for every initial value in the initial box
    std::vector<I> derivative;  // n*n row-major, encloses D_x0 phi (only with Options::c1)
    int record = -1;            // with Options::record_steps: the record whose end set this is (-1: initial)
    // An output time that may equal the final time is integrated to on a copy of the set (the
    // run to t_end goes on undisturbed): the switching events of that copy after it left the
    // run, in time order (a stretch of hull steps open at the copy is closed by the copy; one
    // still open at the output time is a contact, after = -1). Empty for the other outputs,
    // whose events are the run's (Result::events).
    std::vector<SwitchEvent<I>> events;
};

// With Options::record_steps, what a certificate stores of each accepted step so the step can
// be re-validated on its own from these hints (ode::revalidate, revalidate.hpp), without
// searching for it: the set after the step is c + C r0 + B r (r0 the initial offsets x0 -
// mid(x0), r in `r`), in the integration time s.
enum class StepKind { smooth, hull };
const char* to_string(StepKind k);

template <Interval I>
struct StepRecord {
    StepKind kind = StepKind::smooth;
    int from = -1;  // the record whose end set the step starts from; -1: the initial set
    int stop = -1;  // -1: a step of size h; k >= 0: the step ends at stop k (output_times[k], then t_end)
    I h;            // the step size (a point unless the step ends at a stop: then stop - t)
    I t1;           // encloses the time at the end of the step
    bool centre_dd = false;     // smooth: the Taylor sum at the centre was taken in double-double
    std::vector<I> apriori;     // the validated a priori box Y: x(t) in Y on the step
    std::vector<I> centre;      // c (points)
    std::vector<I> C, B;        // smooth steps: n*n row-major points; hull steps keep the previous ones (empty)
    std::vector<I> r;           // encloses the coordinates r
    std::size_t tube_begin = 0, tube_end = 0;  // its pieces in Result::tube (with record_tubes)
};

template <Interval I>
struct Result {
    Status status = Status::not_run;
    std::string reason = "not run";
    I time;                         // time reached (the final time on success)
    long steps = 0;
    long rejected_steps = 0;  // step attempts that failed validation (the step was then shortened)
    double min_step = 0, max_step = 0;  // step sizes taken
    std::vector<I> final_box;       // enclosure at `time`
    std::vector<I> final_derivative;    // with Options::c1
    std::vector<Snapshot<I>> outputs;   // at the requested output times
    std::vector<TubePiece<I>> tube;     // with Options::record_tubes
    std::vector<SwitchEvent<I>> events; // kinks met, in time order
    std::vector<StepRecord<I>> records; // with Options::record_steps, in the order taken
    int final_record = -1;              // with Options::record_steps: the record of final_box
    long hull_steps = 0;                // first-order steps through kinks
    std::vector<I> offending_set;   // on failure: the set at which the step failed
    bool ok() const { return status == Status::ok; }
};

// Encloses the solutions of x' = f(x; params) from every x0 in the box `x0` at the final time
// `t_end` (> 0) and at each of `output_times` (increasing, in (0, t_end]). `bits` is the
// precision of the computation (53 for IntervalD).
template <Interval I>
Result<I> integrate(const taylor::VectorField& field, const std::vector<I>& params, const std::vector<I>& x0,
                    const I& t_end, const std::vector<I>& output_times, const Options& options, long bits);

extern template Result<IntervalD> integrate(const taylor::VectorField&, const std::vector<IntervalD>&,
                                            const std::vector<IntervalD>&, const IntervalD&,
                                            const std::vector<IntervalD>&, const Options&, long);
extern template Result<IntervalMp> integrate(const taylor::VectorField&, const std::vector<IntervalMp>&,
                                             const std::vector<IntervalMp>&, const IntervalMp&,
                                             const std::vector<IntervalMp>&, const Options&, long);

}  // namespace flowcert::ode
