// flowcert/ode/revalidate_events.cpp -- switching events re-derived from re-validated records
// (see revalidate_events.hpp).
#include "revalidate_events.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>

#include "lohner_step.hpp"

namespace flowcert::ode::detail {

std::vector<int> relu_nodes(const taylor::VectorField& field) {
    std::vector<int> out;
    for (int id = 0; id < static_cast<int>(field.nodes().size()); ++id)
        if (field.nodes()[id].op == taylor::Op::Relu) out.push_back(id);
    return out;
}

namespace {

// A kink straddled in a stretch of hull records, as the records prove it.
template <Interval I>
struct Straddled {
    int kink = 0;                   // index into the relu nodes
    int before = -1, after = -1;    // the smooth records around the stretch
    int first = -1, last = -1;      // the first and last hull record of the stretch
    I t0, t1;                       // the span of the hull records where the argument straddled 0
    int direction = 0;              // of a certified crossing; 0: a contact
    std::string why_not;            // why it is no crossing
    bool claimed = false;
};

// All digits: the bounds that decide may differ in the last ones.
std::string span_text(double lo, double hi) {
    char b[80];
    std::snprintf(b, sizeof b, "[%.17g, %.17g]", lo, hi);
    return b;
}

template <Interval I>
std::vector<Straddled<I>> derive(const std::vector<StepRecord<I>>& records, const std::vector<KinkSigns>& signs,
                                 const std::vector<I>& start, const std::vector<I>& end, int final_record,
                                 std::size_t kinks) {
    std::vector<int> chain;
    for (int r = final_record; r >= 0; r = records[r].from) chain.push_back(r);
    std::reverse(chain.begin(), chain.end());
    std::vector<Straddled<I>> out;
    const std::size_t len = chain.size();
    for (std::size_t i = 0; i < len;) {
        if (records[chain[i]].kind != StepKind::hull) {
            ++i;
            continue;
        }
        const std::size_t a = i;
        while (i < len && records[chain[i]].kind == StepKind::hull) ++i;
        const int before = a > 0 ? chain[a - 1] : -1, after = i < len ? chain[i] : -1;
        for (std::size_t k = 0; k < kinks; ++k) {
            Straddled<I> s;
            s.kink = static_cast<int>(k);
            s.before = before;
            s.after = after;
            s.first = chain[a];
            s.last = chain[i - 1];
            bool seen = false;
            int slope = 0, unsure = -1;
            for (std::size_t m = a; m < i; ++m) {
                const int j = chain[m];
                if (signs[j].sign[k] != 0) continue;
                const int sg = signs[j].slope[k];
                if (!seen) {
                    seen = true;
                    s.t0 = start[j];
                    slope = sg;
                } else if (slope != sg) {
                    slope = 0;
                }
                if (sg == 0 && unsure < 0) unsure = j;
                s.t1 = end[j];
            }
            if (!seen) continue;
            const int sb = before >= 0 ? signs[before].sign[k] : 0, sa = after >= 0 ? signs[after].sign[k] : 0;
            if (before < 0) s.why_not = "no smooth step precedes the stretch of hull steps";
            else if (after < 0) s.why_not = "the run ends on the kink (no smooth step follows the stretch)";
            else if (sb == sa) s.why_not = "the argument has the same sign on the smooth steps before and after";
            else if (slope != sa)
                s.why_not = "d/dt of the argument is not certainly of one sign on the hull steps that straddle the kink" +
                            (unsure >= 0 ? " (step " + std::to_string(unsure) + ")" : std::string());
            else s.direction = sa;
            out.push_back(std::move(s));
        }
    }
    return out;
}

}  // namespace

template <Interval I>
std::string check_events(const taylor::VectorField& field, const std::vector<StepRecord<I>>& records,
                         const std::vector<KinkSigns>& signs, const std::vector<I>& start, const std::vector<I>& end,
                         int final_record, const std::vector<SwitchEvent<I>>& claimed, long& crossings,
                         long& contacts, const std::vector<std::string>* names, const std::string& list) {
    const std::vector<int> relus = relu_nodes(field);
    std::vector<Straddled<I>> derived = derive(records, signs, start, end, final_record, relus.size());
    crossings = contacts = 0;
    std::map<std::tuple<int, int, int>, std::size_t> by_stretch;  // (kink, before, after) -> derived
    for (std::size_t i = 0; i < derived.size(); ++i)
        by_stretch[{derived[i].kink, derived[i].before, derived[i].after}] = i;
    for (std::size_t q = 0; q < claimed.size(); ++q) {
        const SwitchEvent<I>& e = claimed[q];
        const std::string at = names && q < names->size() ? (*names)[q] : list + "[" + std::to_string(q) + "]";
        const auto it = std::find(relus.begin(), relus.end(), e.relu);
        if (it == relus.end()) return at + ".relu: node " + std::to_string(e.relu) + " is not a relu of the field";
        const int kink = static_cast<int>(it - relus.begin());
        const std::string expr = field.to_text(field.nodes()[e.relu].a);
        if (e.argument != field.nodes()[e.relu].a)
            return at + ".expression: not the argument '" + expr + "' of that relu";
        const auto found = by_stretch.find({kink, e.before, e.after});
        Straddled<I>* d = found == by_stretch.end() ? nullptr : &derived[found->second];
        if (!d)
            return at + ": no stretch of hull steps between steps " + std::to_string(e.before) + " and " +
                   std::to_string(e.after) + " on the run's chain straddles the kink of '" + expr + "'";
        if (d->claimed) return at + ": the event of '" + expr + "' in this stretch is claimed twice";
        d->claimed = true;
        if (e.kind == EventKind::crossing) {
            if (d->direction == 0) return at + ".kind: the crossing of '" + expr + "' = 0 is not proven: " + d->why_not;
            if (e.direction != d->direction)
                return at + ".direction: " + std::to_string(e.direction) + ", but the records prove " +
                       std::to_string(d->direction);
            ++crossings;
        } else {
            if (e.direction != 0) return at + ".direction: a contact has no direction (0)";
            ++contacts;
        }
        if (!subset(hull(d->t0, d->t1), hull(e.t0, e.t1)))  // exact at any precision
            return at + ".time: " + span_text(lower(e.t0), upper(e.t1)) + " does not contain the span " +
                   span_text(lower(d->t0), upper(d->t1)) + " of the hull steps (" + std::to_string(d->first) + ".." +
                   std::to_string(d->last) + ") on which '" + expr + "' straddles 0";
    }
    for (const auto& s : derived)
        if (!s.claimed)
            return list + ": the kink of '" + field.to_text(field.nodes()[relus[s.kink]].a) +
                   "' straddles 0 on the hull steps " + std::to_string(s.first) + ".." + std::to_string(s.last) +
                   ", time " + span_text(lower(s.t0), upper(s.t1)) + ", and no event claims it";
    return {};
}

template std::string check_events(const taylor::VectorField&, const std::vector<StepRecord<IntervalD>>&,
                                  const std::vector<KinkSigns>&, const std::vector<IntervalD>&,
                                  const std::vector<IntervalD>&, int, const std::vector<SwitchEvent<IntervalD>>&,
                                  long&, long&, const std::vector<std::string>*, const std::string&);
template std::string check_events(const taylor::VectorField&, const std::vector<StepRecord<IntervalMp>>&,
                                  const std::vector<KinkSigns>&, const std::vector<IntervalMp>&,
                                  const std::vector<IntervalMp>&, int, const std::vector<SwitchEvent<IntervalMp>>&,
                                  long&, long&, const std::vector<std::string>*, const std::string&);

}  // namespace flowcert::ode::detail
