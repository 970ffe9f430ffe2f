// flowcert/interval/interval_mp.hpp -- IntervalMp: arbitrary-precision interval over MPFI.
//
// Precision is a property of each value, never a hidden global: a value is created with
// an explicit precision in bits, and the result of an operation carries the larger
// precision of its operands. Integers are exact at 64 bits, so mixing them in never
// lowers precision. MPFI rounds every bound outward (N. Revol, F. Rouillier, "Motivations
// for an arbitrary precision interval arithmetic and the MPFI library", Reliable
// Computing 11 (2005)).
#pragma once

#if !defined(FLOWCERT_INTERVAL_INTERNAL)
#error "include <flowcert/interval.hpp>, not the internal headers"
#endif

#include <mpfi.h>

#include <concepts>
#include <string>
#include <string_view>

namespace flowcert {

// A precision in bits, spelled out at every call that creates a value from nothing.
struct Precision {
    long bits;
    explicit constexpr Precision(long b) : bits(b) {}
};

class IntervalMp {
public:
    using Bound = void;  // bounds are MPFR numbers; see lower_mpfr/upper_mpfr

    // [0, 0] at 64 bits (zero is exact at any precision; the result of an operation takes
    // the larger operand precision, so this default never lowers precision).
    IntervalMp();
    explicit IntervalMp(Precision p);  // [0, 0] at p bits
    template <std::integral T>
    explicit IntervalMp(T k) : IntervalMp(Precision(64)) { set_integer(static_cast<long long>(k)); }
    // No construction from a floating-point value (see IntervalD): use exact() or from_decimal().
    template <std::floating_point T> explicit IntervalMp(T) = delete;

    static IntervalMp bounds(double lo, double hi, Precision p);  // doubles taken as exact binary numbers
    static IntervalMp exact(double x, Precision p) { return bounds(x, x, p); }
    static IntervalMp from_decimal(std::string_view text, Precision p);
    static IntervalMp from_integer(long long k, Precision p);
    static IntervalMp entire(Precision p);
    static IntervalMp pi(Precision p);
    static IntervalMp ln2(Precision p);
    // Bounds given as MPFR numbers (copied exactly at their own precision, then rounded outward to p).
    static IntervalMp from_mpfr(mpfr_srcptr lo, mpfr_srcptr hi, Precision p);

    IntervalMp(const IntervalMp& o) { copy_from(o); }
    IntervalMp(IntervalMp&& o) noexcept { take(o); }
    IntervalMp& operator=(const IntervalMp& o);
    IntervalMp& operator=(IntervalMp&& o) noexcept {
        if (this != &o) {
            if (!is_inline() && !o.is_inline()) {
                mpfi_swap(v_, o.v_);  // both on the heap: swap the limb pointers
            } else {
                destroy();
                take(o);
            }
        }
        return *this;
    }
    ~IntervalMp() { destroy(); }

    long precision() const noexcept { return static_cast<long>(mpfr_get_prec(&(v_)->left)); }
    // Outward rounding to fewer (or more) bits.
    IntervalMp rounded_to(Precision p) const;
    // Enclosing double interval bounds (outward).
    double lower_double() const;
    double upper_double() const;

    IntervalMp& operator+=(const IntervalMp& y);
    IntervalMp& operator-=(const IntervalMp& y);
    IntervalMp& operator*=(const IntervalMp& y);
    IntervalMp& operator/=(const IntervalMp& y);

    // [lo, hi] outward with two MPFR calls (see interval_mp.cpp, "+ - * on the endpoints")
    friend IntervalMp operator+(const IntervalMp& x, const IntervalMp& y) {
        IntervalMp r(Uninit{}, x.precision() > y.precision() ? x.precision() : y.precision());
        mpfr_add(&r.v_->left, &x.v_->left, &y.v_->left, MPFR_RNDD);
        mpfr_add(&r.v_->right, &x.v_->right, &y.v_->right, MPFR_RNDU);
        r.fix_zero_signs();
        return r;
    }
    friend IntervalMp operator-(const IntervalMp& x, const IntervalMp& y) {
        IntervalMp r(Uninit{}, x.precision() > y.precision() ? x.precision() : y.precision());
        mpfr_sub(&r.v_->left, &x.v_->left, &y.v_->right, MPFR_RNDD);
        mpfr_sub(&r.v_->right, &x.v_->right, &y.v_->left, MPFR_RNDU);
        r.fix_zero_signs();
        return r;
    }
    friend IntervalMp operator*(const IntervalMp& x, const IntervalMp& y);
    friend IntervalMp operator/(const IntervalMp& x, const IntervalMp& y);
    friend IntervalMp operator-(const IntervalMp& x);
    friend IntervalMp operator+(const IntervalMp& x) { return x; }

    template <std::integral T> friend IntervalMp operator+(const IntervalMp& x, T k) { return x + IntervalMp(k); }
    template <std::integral T> friend IntervalMp operator+(T k, const IntervalMp& x) { return IntervalMp(k) + x; }
    template <std::integral T> friend IntervalMp operator-(const IntervalMp& x, T k) { return x - IntervalMp(k); }
    template <std::integral T> friend IntervalMp operator-(T k, const IntervalMp& x) { return IntervalMp(k) - x; }
    template <std::integral T> friend IntervalMp operator*(const IntervalMp& x, T k) { return x * IntervalMp(k); }
    template <std::integral T> friend IntervalMp operator*(T k, const IntervalMp& x) { return IntervalMp(k) * x; }
    template <std::integral T> friend IntervalMp operator/(const IntervalMp& x, T k) { return x / IntervalMp(k); }
    template <std::integral T> friend IntervalMp operator/(T k, const IntervalMp& x) { return IntervalMp(k) / x; }

    template <class T> friend bool operator<(const IntervalMp&, const T&) = delete;
    template <class T> friend bool operator<=(const IntervalMp&, const T&) = delete;
    template <class T> friend bool operator>(const IntervalMp&, const T&) = delete;
    template <class T> friend bool operator>=(const IntervalMp&, const T&) = delete;
    template <class T> friend bool operator==(const IntervalMp&, const T&) = delete;
    template <class T> friend bool operator!=(const IntervalMp&, const T&) = delete;

    mpfi_srcptr get() const noexcept { return v_; }
    // For writing a value through MPFI/MPFR calls (mpfi_add, mpfi_interv_fr, ...). Must not be
    // used to change the precision or to clear/re-initialise the value (mpfi_set_prec,
    // mpfi_round_prec, mpfi_clear, mpfi_swap): at <= kInlineBits the limbs live inside the object.
    mpfi_ptr get_mutable() noexcept { return v_; }

    // Values of at most this many bits keep their limbs inside the object (MPFR's custom
    // interface, mpfr_custom_init_set), so creating, copying and destroying them never touches
    // the heap; larger precisions use mpfi_init2 as usual.
    static constexpr long kInlineBits = 256;

private:
    static constexpr int kInlineLimbs = static_cast<int>((kInlineBits + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS);
    mpfi_t v_;
    mp_limb_t limbs_[2 * kInlineLimbs];

    struct Uninit {};
    IntervalMp(Uninit, long bits) { init_at(bits); }  // bounds unset: the caller writes them
    bool is_inline() const noexcept { return mpfr_get_prec(&(v_)->left) <= kInlineBits; }
    void init_at(long bits) noexcept {
        if (bits <= kInlineBits) {
            mpfr_custom_init_set(&v_->left, MPFR_ZERO_KIND, 0, bits, limbs_);
            mpfr_custom_init_set(&v_->right, -MPFR_ZERO_KIND, 0, bits, limbs_ + kInlineLimbs);  // [+0, -0] as MPFI
        } else {
            mpfi_init2(v_, bits);
        }
    }
    void destroy() noexcept {
        if (!is_inline()) mpfi_clear(v_);
    }
    // *this is uninitialised; takes o's value (and o's heap limbs; o is left [0, 0] at 64 bits).
    void take(IntervalMp& o) noexcept {
        if (o.is_inline()) {
            copy_from(o);
        } else {
            v_[0] = o.v_[0];  // steal the heap limbs
            o.init_at(64);
        }
    }
    void copy_from(const IntervalMp& o) noexcept {  // *this uninitialised
        if (o.is_inline()) {
            // the struct and the limbs are plain data: copy them and point the bounds at our limbs
            v_[0] = o.v_[0];
            for (int i = 0; i < 2 * kInlineLimbs; ++i) limbs_[i] = o.limbs_[i];
            mpfr_custom_move(&v_->left, limbs_);
            mpfr_custom_move(&v_->right, limbs_ + kInlineLimbs);
        } else {
            mpfi_init2(v_, mpfr_get_prec(&o.v_->left));
            mpfi_set(v_, o.v_);
        }
    }
    // MPFI's representation: a zero lower bound is +0, a zero upper bound is -0.
    void fix_zero_signs() noexcept {
        if (mpfr_zero_p(&v_->left) && mpfr_signbit(&v_->left)) mpfr_neg(&v_->left, &v_->left, MPFR_RNDU);
        if (mpfr_zero_p(&v_->right) && !mpfr_signbit(&v_->right)) mpfr_neg(&v_->right, &v_->right, MPFR_RNDD);
    }
    void raise_precision(long bits);
    void set_integer(long long k);
};

inline long precision(const IntervalMp& x) noexcept { return x.precision(); }
// Bounds as MPFR values are available through x.get(); doubles enclosing them:
inline double lower(const IntervalMp& x) { return x.lower_double(); }
inline double upper(const IntervalMp& x) { return x.upper_double(); }
double mid(const IntervalMp& x);    // a double near the midpoint (not necessarily inside x)
// A point interval inside x next to its midpoint: (l + u)/2 rounded to precision + 1 bits
// (exact unless the bounds' exponents differ widely).
IntervalMp mid_point(const IntervalMp& x);
double rad(const IntervalMp& x);    // a double r with x inside [mid_point(x) - r, mid_point(x) + r]
double width(const IntervalMp& x);  // a double upper bound on the width
double mag(const IntervalMp& x);    // a double upper bound on max |x|
double mig(const IntervalMp& x);    // a double lower bound on min |x|

IntervalMp sqr(const IntervalMp& x);
IntervalMp sqrt(const IntervalMp& x);
IntervalMp pow(const IntervalMp& x, int n);
IntervalMp exp(const IntervalMp& x);
IntervalMp expm1(const IntervalMp& x);
IntervalMp log(const IntervalMp& x);
IntervalMp log1p(const IntervalMp& x);
IntervalMp sin(const IntervalMp& x);
IntervalMp cos(const IntervalMp& x);
IntervalMp atan(const IntervalMp& x);
IntervalMp abs(const IntervalMp& x);
IntervalMp min(const IntervalMp& x, const IntervalMp& y);
IntervalMp max(const IntervalMp& x, const IntervalMp& y);
IntervalMp relu(const IntervalMp& x);
IntervalMp leaky_relu(const IntervalMp& x, const IntervalMp& gamma);
IntervalMp hull(const IntervalMp& x, const IntervalMp& y);
bool intersect(const IntervalMp& x, const IntervalMp& y, IntervalMp& out);
IntervalMp inflate(const IntervalMp& x, double r);

bool certainly_positive(const IntervalMp& x);
bool certainly_negative(const IntervalMp& x);
bool certainly_nonnegative(const IntervalMp& x);
bool certainly_nonpositive(const IntervalMp& x);
bool certainly_nonzero(const IntervalMp& x);
bool certainly_less(const IntervalMp& x, const IntervalMp& y);
bool certainly_less_equal(const IntervalMp& x, const IntervalMp& y);
bool possibly_zero(const IntervalMp& x);
bool possibly_positive(const IntervalMp& x);
bool possibly_negative(const IntervalMp& x);
bool possibly_less(const IntervalMp& x, const IntervalMp& y);
bool contains(const IntervalMp& x, double v);
bool subset(const IntervalMp& inner, const IntervalMp& outer);
bool is_point(const IntervalMp& x);
bool is_bounded(const IntervalMp& x);

std::string lower_string(const IntervalMp& x, int digits = 40);
std::string upper_string(const IntervalMp& x, int digits = 40);
std::string to_string(const IntervalMp& x, int digits = 40);

}  // namespace flowcert
