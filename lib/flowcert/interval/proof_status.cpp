#include <flowcert/interval.hpp>

namespace flowcert {

std::string_view to_string(ProofStatus s) {
    switch (s) {
        case ProofStatus::not_run: return "not_run";
        case ProofStatus::proven: return "proven";
        case ProofStatus::disproven: return "disproven";
        case ProofStatus::not_proven: return "not_proven";
    }
    return "not_run";
}

}  // namespace flowcert
