// lib/flowcert/proofs/kh/theorem18_units.hpp -- the zero-preserving units of [KH2025, Lemma 16] for kh/theorem18_sparsity
// (tests/proofs/kh/test_kh_theorem18.cpp): the (row, column) units W_l[j,:] U W_{l+1}[:,j] (one hidden layer:
// W_1[j,:] U v[j]) and, for diagonal nets (not of the form (9)), the coordinate blocks {u^(1)_k, ..., u^(D)_k}; and
// whether a set of parameter indices is a union of such units. The structural proof that a field leaves {w_z = 0}
// invariant is generic: taylor::field_vanishes_on_subspace (flowcert/taylor/field_transforms.hpp).
#pragma once

#include <flowcert/nets.hpp>

#include <vector>

namespace flowcert::proofs::kh {

// The zero-preserving units of an architecture (parameter indices, each sorted), see the header comment.
std::vector<std::vector<int>> lemma16_units(const nets::HomogeneousArchitecture& arch);

// Whether `z` (sorted or not) is exactly a union of units; `used` receives the units it consists of.
bool is_union_of_units(const std::vector<std::vector<int>>& units, std::vector<int> z, std::vector<int>* used = nullptr);

}  // namespace flowcert::proofs::kh
