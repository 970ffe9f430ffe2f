// flowcert/proofs/rh/all_instances.hpp -- one statement over every instance of a sweep: proven if it is proven
// on every instance, disproven if it is disproven on one (that instance is the witness), not proven otherwise.
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

}  // namespace flowcert::proofs::rh
