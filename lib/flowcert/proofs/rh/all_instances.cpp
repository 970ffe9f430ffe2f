#include "flowcert/proofs/rh/all_instances.hpp"

namespace flowcert::proofs::rh {

void AllInstances::add(const ProofResult& r, const std::string& instance) {
    ++total_;
    if (r.is_proven()) {
        ++proven_;
        return;
    }
    if (r.status == ProofStatus::disproven && first_disproof_.empty()) first_disproof_ = instance + ": " + r.reason;
    if (first_failure_.empty()) first_failure_ = instance + ": " + r.reason;
}

ProofResult AllInstances::result() const {
    const std::string counts = std::to_string(proven_) + " of " + std::to_string(total_) + " instances";
    if (total_ > 0 && proven_ == total_) return ProofResult::proven(counts);
    if (!first_disproof_.empty()) return ProofResult::disproven(counts + "; false at " + first_disproof_);
    return ProofResult::not_proven(counts + (first_failure_.empty() ? "" : "; first failure " + first_failure_));
}

void Extreme::take_max(const IntervalD& x, const std::string& at) {
    if (!have || upper(x) > upper(value)) where = at;
    value = have ? max(value, x) : x;
    have = true;
}

void Extreme::take_min(const IntervalD& x, const std::string& at) {
    if (!have || lower(x) < lower(value)) where = at;
    value = have ? min(value, x) : x;
    have = true;
}

}  // namespace flowcert::proofs::rh
