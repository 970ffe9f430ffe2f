// flowcert/interval.hpp -- the interval layer: IntervalD (double bounds) and IntervalMp
// (MPFR bounds, run-time precision), exact decimal input, outward decimal output, and the
// rounding self-test, the certified log-log slope. See docs/arithmetic.md.
#pragma once

#if defined(__FAST_MATH__)
#error "flowcert must not be built with -ffast-math: it breaks outward rounding"
#endif

#define FLOWCERT_INTERVAL_INTERNAL
#include "interval/interval_d.hpp"
#include "interval/interval_mp.hpp"
#include "interval/decimal.hpp"
#include "interval/self_test.hpp"
#include "interval/traits.hpp"
#include "interval/loglog_slope.hpp"
#include "interval/proof_status.hpp"
#include "interval/format.hpp"
#include "interval/rational.hpp"
#undef FLOWCERT_INTERVAL_INTERNAL
