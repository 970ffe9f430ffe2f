// flowcert/ode/revalidate_events.hpp -- the switching events of a recorded run, re-derived from
// its re-validated records and compared with the events a certificate claims (revalidate.hpp).
// Private to the ODE layer.
//
// A stretch is a maximal run of hull records on the chain that ends at the final set; `before`
// and `after` are the smooth records around it (-1: none). For a relu node whose argument g
// straddled 0 on some hull step of the stretch, the span [t0, t1] of those steps is where g can
// vanish: elsewhere on the chain g has one sign on every a priori box. It is a certified
// transversal crossing in direction d (+1: g from negative to positive) when g < 0 (d = +1) on
// the smooth step before, g > 0 on the one after, and d/dt g has the sign d on every straddling
// hull step: g is then strictly monotone wherever it can vanish, so each solution has exactly
// one zero of g on the stretch, inside [t0, t1] (docs/integrator.md, "Kinks").
#pragma once

#include <flowcert/ode.hpp>

#include <string>
#include <vector>

namespace flowcert::ode::detail {

// What the re-validation of one record saw: per relu node of the field (in node order), the
// sign of its argument over the record's a priori box (+1, -1; 0: it straddles 0, hull steps
// only) and, on a hull step where it straddles, the certain sign of its d/dt there (0: none).
struct KinkSigns {
    std::vector<signed char> sign, slope;
};

// The relu nodes of the field, in node order (the index into KinkSigns).
std::vector<int> relu_nodes(const taylor::VectorField& field);

// Compares the claimed events with the ones the records prove. `start`/`end`: the re-derived
// time enclosures at the beginning / end of each record. Returns "" when every claim is proven
// and no straddled kink is left unclaimed; otherwise the first problem, naming the event's
// field (claim.events[k].kind, .direction, .time, ...).
template <Interval I>
std::string check_events(const taylor::VectorField& field, const std::vector<StepRecord<I>>& records,
                         const std::vector<KinkSigns>& signs, const std::vector<I>& start, const std::vector<I>& end,
                         int final_record, const std::vector<SwitchEvent<I>>& claimed, long& crossings,
                         long& contacts, const std::vector<std::string>* names = nullptr,
                         const std::string& list = "claim.events");
// `names` (optional): what a message calls claimed[q] (default list + "[q]"); `list`: what it
// calls the whole list (an output's events: claim.outputs[k].events).

}  // namespace flowcert::ode::detail
