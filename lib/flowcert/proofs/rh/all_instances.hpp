// flowcert/proofs/rh/all_instances.hpp -- statements over every instance of a sweep: AllInstances is proven if
// a statement is proven on every instance, disproven if it is disproven on one (that instance is the witness),
// not proven otherwise; Extreme encloses the max / min of an interval-valued quantity over the instances.
#pragma once

#include <flowcert/interval.hpp>

#include <string>

namespace flowcert::proofs::rh {

class AllInstances {
public:
    void add(const ProofResult& r, const std::string& instance);
    ProofResult result() const;

private:
    std::size_t proven_ = 0, total_ = 0;
    std::string first_failure_, first_disproof_;
};

// An enclosure of the max (take_max) or min (take_min) over the instances added, and the instance that
// attains the extreme bound (`where`).
struct Extreme {
    IntervalD value = IntervalD::entire();
    bool have = false;
    std::string where;
    void take_max(const IntervalD& x, const std::string& at);
    void take_min(const IntervalD& x, const std::string& at);
};

}  // namespace flowcert::proofs::rh
