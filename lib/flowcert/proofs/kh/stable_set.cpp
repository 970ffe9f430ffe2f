// flowcert/proofs/kh/stable_set.cpp -- the NCF tube into a Lemma 23 cap (argument in the header).
#include "flowcert/proofs/kh/stable_set.hpp"

#include "flowcert/proofs/kh/lemma23_cap.hpp"

#include <algorithm>
#include <cmath>

namespace flowcert::proofs::kh {

namespace {
template <Interval I, class Integrate>
CapEntry<I> enter_cap(const Integrate& integrate, const std::vector<I>& w0, const linalg::IVector<I>& wstar,
                      const I& gamma, double horizon, double chunk, bool renormalize, long bits) {
    CapEntry<I> out;
    const I one = IntervalTraits<I>::from_integer(1, bits), cap = one - gamma;
    std::vector<I> u = w0;
    double t = 0;
    out.cosine = cosine_to<I>(wstar, u);
    out.trace.emplace_back(0.0, out.cosine);
    const auto done = [&](double when, const I& c) {
        out.status = ProofStatus::proven;
        out.flow_time = when;
        out.cosine = c;
        out.reason = "the certified NCF tube from w0 has w*^T u/|u| in " + to_string(c, 10) + " > 1 - gamma = " +
                     to_string(cap, 10) + " after flow time " + std::to_string(when) +
                     (renormalize ? " (chunks renormalized to the sphere: directions only)" : "");
        return out;
    };
    if (certainly_less(cap, out.cosine)) return done(0.0, out.cosine);
    double h = chunk;
    while (t < horizon) {
        std::vector<I> outs;
        for (int j = 1; j < 10; ++j) outs.push_back(IntervalTraits<I>::exact(h * j / 10, bits));
        const ode::Result<I> r = integrate(u, IntervalTraits<I>::exact(h, bits), outs);
        if (!r.ok()) {
            if (h > 1e-8) {
                h /= 4;
                continue;
            }
            out.status = ProofStatus::not_proven;
            out.reason = "the NCF tube stopped at flow time " + std::to_string(t) + ": " + ode::to_string(r.status) + ": " +
                         r.reason;
            return out;
        }
        for (const auto& s : r.outputs) {
            const I c = cosine_to<I>(wstar, s.box);
            out.trace.emplace_back(t + mid(s.time), c);
            if (certainly_less(cap, c)) return done(t + mid(s.time), c);
        }
        t += h;
        u = r.final_box;
        const I c = cosine_to<I>(wstar, u);
        out.trace.emplace_back(t, c);
        if (certainly_less(cap, c)) return done(t, c);
        if (width(c) > 1) {
            out.status = ProofStatus::not_proven;
            out.reason = "the enclosure of w*^T u/|u| became wider than 1 at flow time " + std::to_string(t);
            return out;
        }
        if (renormalize) {
            // divide by an exact double near |u| (a point scale keeps the box from wrapping; any c > 0 keeps the
            // directions, so the scale need not be |u| exactly)
            double n2 = 0;
            for (const I& x : u) n2 += mid(x) * mid(x);
            const I c = IntervalTraits<I>::exact(std::sqrt(n2), bits);
            if (certainly_positive(c))
                for (auto& x : u) x = x / c;
        }
        h = std::min(chunk, 2 * h);
    }
    out.status = ProofStatus::not_proven;
    out.reason = "the NCF tube did not certainly enter the cap by flow time " + std::to_string(t) + "; last w*^T u/|u| in " +
                 to_string(out.trace.back().second, 8) + " vs 1 - gamma = " + to_string(cap, 8);
    return out;
}
}  // namespace

template <Interval I>
CapEntry<I> ncf_tube_enters_cap(const taylor::VectorField& ncf_field, const std::vector<I>& params,
                                const std::vector<I>& w0, const linalg::IVector<I>& wstar, const I& gamma,
                                double horizon, double chunk, bool renormalize, const ode::Options& options, long bits) {
    const auto integrate = [&](const std::vector<I>& u, const I& h, const std::vector<I>& outs) {
        return ode::integrate<I>(ncf_field, params, u, h, outs, options, bits);
    };
    return enter_cap<I>(integrate, w0, wstar, gamma, horizon, chunk, renormalize, bits);
}

CapEntry<IntervalD> ncf_tube_enters_cap_with(const NcfChunkIntegrator& integrate, const std::vector<IntervalD>& w0,
                                             const linalg::IVectorD& wstar, const IntervalD& gamma, double horizon,
                                             double chunk, bool renormalize) {
    return enter_cap<IntervalD>(integrate, w0, wstar, gamma, horizon, chunk, renormalize, 53);
}

template CapEntry<IntervalD> ncf_tube_enters_cap<IntervalD>(const taylor::VectorField&, const std::vector<IntervalD>&,
                                                            const std::vector<IntervalD>&, const linalg::IVectorD&,
                                                            const IntervalD&, double, double, bool, const ode::Options&, long);
template CapEntry<IntervalMp> ncf_tube_enters_cap<IntervalMp>(const taylor::VectorField&, const std::vector<IntervalMp>&,
                                                              const std::vector<IntervalMp>&, const linalg::IVector<IntervalMp>&,
                                                              const IntervalMp&, double, double, bool, const ode::Options&,
                                                              long);

}  // namespace flowcert::proofs::kh
