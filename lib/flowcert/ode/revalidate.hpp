// flowcert/ode/revalidate.hpp -- re-validation of a recorded integration from its step hints
// (Options::record_steps, StepRecord), in the style of LRAT proof checking: each step is checked
// on its own, without the search that found it (no step-size control, no a priori inflation,
// no QR), and the sets are re-derived from the initial box, never read from the record.
//
// Per record, from the re-derived set S (time t) of the record it starts from:
//  * the step size: h (a positive point) or, for a step to stop k, the interval stop - t;
//  * smooth: no relu argument may straddle 0 on S; the high-order enclosure test with the
//    hinted a priori box Y (Z strictly inside Y) [NJC 1999, Sec. 5]; the Lohner image of S
//    [Lohner 1987] written in the hinted representation c + C r0 + B r, where B^{-1} is
//    enclosed anew from B (linalg::enclose_orthogonal_inverse) and r is re-derived;
//  * hull: the Picard test X + [0,h] f(Y) strictly inside the hinted Y (relu by its range),
//    the set moved by h f(Y) to the hinted centre.
// A hint can only make a step fail, never make a wrong set pass: c, C, B are any points (the
// re-derived r absorbs them), Y and h are tested. The re-derived boxes at the output times and
// at t_end are returned; the caller compares them with what a certificate claims.
//
// Switching events (`events`, optional): each stretch of hull steps on the chain of records
// that ends at the final set is re-derived from the re-validated records (the sign of every
// relu argument over each a priori box, and over a hull step's box the sign of its d/dt, the
// first Taylor coefficient with relu's Clarke derivative [0,1]); every kink straddled in a
// stretch must be claimed, once, by an event naming the stretch (its smooth records before and
// after), with a time enclosure containing the span of the hull steps that straddled it. A
// crossing is accepted only if the argument has one sign on the smooth step before, the other
// on the smooth step after, and d/dt of that direction on every straddling hull step (then each
// solution crosses exactly once, inside the span); a contact needs only the span.
// Tube (`tube`): the tube pieces of every record (the integrator's, bit for bit).
#pragma once

#if !defined(FLOWCERT_ODE_INTERNAL)
#error "include <flowcert/ode.hpp>, not the internal headers"
#endif

#include "integrator.hpp"

#include <string>
#include <vector>

namespace flowcert::ode {

template <Interval I>
struct Revalidation {
    Status status = Status::not_run;
    std::string reason;
    int failed_record = -1;                // the first record that did not validate
    long smooth_steps = 0, hull_steps = 0;  // validated
    std::vector<I> final_box;               // x(t_end) for every x0 in x0, re-derived
    std::vector<std::vector<I>> outputs;    // x(output_times[k]), re-derived
    long crossings = 0, contacts = 0;        // claimed events re-derived
    std::vector<std::vector<TubePiece<I>>> tube;  // per record, with `tube`
    bool ok() const { return status == Status::ok; }
};

// `output_records[k]` / `final_record`: the record whose end set is the set at output time k /
// at t_end (-1: the initial set); that record must end at that stop. Options: order,
// jacobian_order (and the tolerance, for the double-double guard only); c1 is not supported.
template <Interval I>
Revalidation<I> revalidate(const taylor::VectorField& field, const std::vector<I>& params, const std::vector<I>& x0,
                           const I& t_end, const std::vector<I>& output_times, const Options& options, long bits,
                           const std::vector<StepRecord<I>>& records, const std::vector<int>& output_records,
                           int final_record, const std::vector<SwitchEvent<I>>* events = nullptr, bool tube = false,
                           const std::vector<std::vector<SwitchEvent<I>>>* output_events = nullptr);
// `output_events[k]` (with `events`): the events claimed for output k (Snapshot::events). An
// output whose record is not on the final chain was integrated on a copy: the stretches on its
// own chain must be claimed by the run's events whose `after` record is on that chain and by
// output_events[k], by the rules above; an output on the final chain claims none of its own.

extern template Revalidation<IntervalD> revalidate(const taylor::VectorField&, const std::vector<IntervalD>&,
                                                   const std::vector<IntervalD>&, const IntervalD&,
                                                   const std::vector<IntervalD>&, const Options&, long,
                                                   const std::vector<StepRecord<IntervalD>>&, const std::vector<int>&,
                                                   int, const std::vector<SwitchEvent<IntervalD>>*, bool,
                                                   const std::vector<std::vector<SwitchEvent<IntervalD>>>*);
extern template Revalidation<IntervalMp> revalidate(const taylor::VectorField&, const std::vector<IntervalMp>&,
                                                    const std::vector<IntervalMp>&, const IntervalMp&,
                                                    const std::vector<IntervalMp>&, const Options&, long,
                                                    const std::vector<StepRecord<IntervalMp>>&,
                                                    const std::vector<int>&, int,
                                                    const std::vector<SwitchEvent<IntervalMp>>*, bool,
                                                    const std::vector<std::vector<SwitchEvent<IntervalMp>>>*);

}  // namespace flowcert::ode
