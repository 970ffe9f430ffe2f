// The Lemma 16 units [KH2025, Lemma 16]; see theorem18_units.hpp.
#include "flowcert/proofs/kh/theorem18_units.hpp"

#include <algorithm>

namespace flowcert::proofs::kh {

std::vector<std::vector<int>> lemma16_units(const nets::HomogeneousArchitecture& arch) {
    using nets::ModelKind;
    std::vector<std::vector<int>> units;
    if (arch.kind == ModelKind::feed_forward) {
        const int K = static_cast<int>(arch.hidden.size());
        for (int l = 1; l <= K; ++l) {
            const int rows = arch.layer_rows(l), cols = arch.layer_cols(l), off = arch.layer_offset(l);
            const int noff = arch.layer_offset(l + 1), ncols = arch.layer_cols(l + 1);
            for (int j = 0; j < rows; ++j) {
                std::vector<int> u;
                for (int k = 0; k < cols; ++k) u.push_back(off + j * cols + k);                      // W_l[j, :]
                for (int i = 0; i < arch.layer_rows(l + 1); ++i) u.push_back(noff + i * ncols + j);  // W_{l+1}[:, j]
                std::sort(u.begin(), u.end());
                units.push_back(u);
            }
        }
    } else if (arch.kind == ModelKind::diagonal) {
        const int d = arch.input_dim;
        for (int k = 0; k < d; ++k) {
            std::vector<int> u;
            for (int f = 0; f < arch.depth; ++f) u.push_back(f * d + k);
            units.push_back(u);
        }
    }
    return units;
}

bool is_union_of_units(const std::vector<std::vector<int>>& units, std::vector<int> z, std::vector<int>* used) {
    std::sort(z.begin(), z.end());
    z.erase(std::unique(z.begin(), z.end()), z.end());
    std::vector<int> covered;
    for (std::size_t u = 0; u < units.size(); ++u) {
        const bool inside = std::all_of(units[u].begin(), units[u].end(),
                                        [&](int j) { return std::binary_search(z.begin(), z.end(), j); });
        if (!inside) continue;
        if (used) used->push_back(static_cast<int>(u));
        covered.insert(covered.end(), units[u].begin(), units[u].end());
    }
    std::sort(covered.begin(), covered.end());
    covered.erase(std::unique(covered.begin(), covered.end()), covered.end());
    return !z.empty() && covered == z;
}

}  // namespace flowcert::proofs::kh
