// flowcert/proofs/rh.hpp -- the proof steps of the reconstructed [LWTM2026] claims (docs/rh.md), one header per
// step: the hypothesis quantities (regime), the tail certificate, pattern stabilization and global
// minimality, the KKT certificate of w*, the gap, and statements over every instance of a sweep.
#pragma once

#include <flowcert/proofs/rh/all_instances.hpp>
#include <flowcert/proofs/rh/box.hpp>
#include <flowcert/proofs/rh/box_affine.hpp>
#include <flowcert/proofs/rh/concentration.hpp>
#include <flowcert/proofs/rh/gap.hpp>
#include <flowcert/proofs/rh/orthogonal_model.hpp>
#include <flowcert/proofs/rh/regime.hpp>
#include <flowcert/proofs/rh/stabilization.hpp>
#include <flowcert/proofs/rh/tail.hpp>
#include <flowcert/proofs/rh/w_star.hpp>
#include <flowcert/proofs/rh/w_star_ball.hpp>
#include <flowcert/proofs/rh/w_star_m.hpp>
#include <flowcert/proofs/rh/w_star_m2.hpp>
