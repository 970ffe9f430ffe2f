// Private to the interval layer: RAII scratch MPFR / MPFI variables.
#pragma once

#include <mpfi.h>
#include <mpfr.h>

#include <string>

namespace flowcert::internal {

struct MpfrScratch {
    mpfr_t a, b;
    explicit MpfrScratch(long bits) { mpfr_inits2(bits, a, b, static_cast<mpfr_ptr>(nullptr)); }
    ~MpfrScratch() { mpfr_clears(a, b, static_cast<mpfr_ptr>(nullptr)); }
    MpfrScratch(const MpfrScratch&) = delete;
    MpfrScratch& operator=(const MpfrScratch&) = delete;
};

struct MpfiScratch {
    mpfi_t in, out;
    explicit MpfiScratch(long bits) { mpfi_init2(in, bits); mpfi_init2(out, bits); }
    ~MpfiScratch() { mpfi_clear(in); mpfi_clear(out); }
    MpfiScratch(const MpfiScratch&) = delete;
    MpfiScratch& operator=(const MpfiScratch&) = delete;
};

// A bound as a decimal string with `digits` significant digits, rounded in direction rnd.
std::string format_bound(mpfr_srcptr v, int digits, mpfr_rnd_t rnd);

}  // namespace flowcert::internal
