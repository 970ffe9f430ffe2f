// flowcert/nets/flow_parked.hpp (internal to the two-layer flow engine) -- the parked neurons of the
// current step attempt (docs/nonsmooth-flow.md, section 4c) together with their part of the residual
// enclosure,
//     P_k = sum over parked j with sample k_j = k of  a_j [0, z_j^+],
// which every residual enclosure of a step adds (a parked neuron's output a sigma(<w, x_k>) lies in it on
// its reachable set, and is 0 on the other samples). The set and its sum live in one object, changed only
// by park / unpark / rollback, so the sum cannot go stale: park adds its term (a sum of enclosures
// encloses the sum), unpark and rollback mark the sum for a full recomputation over the parked list.
// Attempts are journaled: rollback() restores the committed set (the last commit()), O(changes).
#pragma once

#if !defined(FLOWCERT_NETS_FLOW_INTERNAL)
#error "internal header of the two-layer flow engine"
#endif

#include <flowcert/interval.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace flowcert::nets::flow {

class ParkedSet {
public:
    using I = IntervalD;
    // TEST ONLY, UNSOUND ("teeth"): the mutations that would leave the cached sum stale.
    enum class Mutation { none, skip_park_update_UNSOUND, keep_sum_on_rollback_UNSOUND };

    ParkedSet() = default;
    // m neurons of S components, the output weight a at component a_index, n samples.
    ParkedSet(std::size_t m, std::size_t S, std::size_t a_index, std::size_t n)
        : S_(S), a_(a_index), n_(n), pos_(m, kNone), k_(m, 0), z_(m, 0.0), box_(m * S), groups_(3 * n, 0), sum_(n, I(0)) {}

    bool on(std::size_t j) const { return pos_[j] != kNone; }
    std::uint32_t sample(std::size_t j) const { return k_[j]; }
    double z(std::size_t j) const { return z_[j]; }
    const I* box(std::size_t j) const { return &box_[j * S_]; }
    const std::vector<std::uint32_t>& members() const { return list_; }  // the parked neurons (no order)
    std::size_t size() const { return list_.size(); }
    // Parked neurons on sample k whose a is certainly positive (sign 0), certainly negative (sign 1),
    // or neither (sign 2): condition (iii) is the same for every member of a group.
    std::size_t group_size(std::size_t k, int sign) const { return groups_[3 * k + static_cast<std::size_t>(sign)]; }
    // Changes with every mutation of the set (callers key their derived lists on it).
    std::uint64_t generation() const { return gen_; }

    // Parks neuron j on sample k with sup z^+ <= z and anchored box `box` (S entries); a parked j is
    // re-parked with the new record.
    void park(std::size_t j, std::uint32_t k, double z, const I* box) {
        journal(j);
        if (on(j)) {
            erase(j);
            valid_ = false;  // its old term leaves the sum
        }
        k_[j] = k;
        z_[j] = z;
        std::copy(box, box + S_, box_.begin() + static_cast<std::ptrdiff_t>(j * S_));
        insert(j);
        if (mutation_ == Mutation::skip_park_update_UNSOUND) return;
        if (valid_) sum_[k] += term(j);  // the old sum encloses the old set's outputs: plus the new term
    }
    // Unparks neuron j (parked). Its record stays (rollback may restore it).
    void unpark(std::size_t j) {
        journal(j);
        erase(j);
        valid_ = false;  // recomputed from the remaining members (subtracting would only widen)
    }
    // The attempt becomes the committed set.
    void commit() {
        undo_.clear();
        undo_box_.clear();
    }
    // Restores the committed set; returns the neurons whose record changed since the commit and that
    // are parked again (their per-neuron outputs must be rewritten from box()).
    std::vector<std::uint32_t> rollback() {
        std::vector<std::uint32_t> restored;
        if (undo_.empty()) return restored;
        for (std::size_t q = undo_.size(); q-- > 0;) {
            const Undo& u = undo_[q];
            if (on(u.j)) erase(u.j);  // with the record it was inserted with
            k_[u.j] = u.k;
            z_[u.j] = u.z;
            std::copy(undo_box_.begin() + static_cast<std::ptrdiff_t>(q * S_),
                      undo_box_.begin() + static_cast<std::ptrdiff_t>((q + 1) * S_), box_.begin() + static_cast<std::ptrdiff_t>(u.j * S_));
            if (u.was_on) insert(u.j);
        }
        for (const Undo& u : undo_)
            if (on(u.j)) restored.push_back(u.j);
        std::sort(restored.begin(), restored.end());
        restored.erase(std::unique(restored.begin(), restored.end()), restored.end());
        commit();
        ++gen_;
        if (mutation_ != Mutation::keep_sum_on_rollback_UNSOUND) valid_ = false;
        return restored;
    }
    // Neurons changed by the current attempt (parked, unparked or re-parked since the last commit).
    std::vector<std::uint32_t> changed() const {
        std::vector<std::uint32_t> c;
        for (const Undo& u : undo_) c.push_back(u.j);
        std::sort(c.begin(), c.end());
        c.erase(std::unique(c.begin(), c.end()), c.end());
        return c;
    }
    // P_k for every sample k (see the header comment), recomputed over members() when marked.
    const std::vector<I>& contribution() const {
        if (!valid_) {
            sum_.assign(n_, I(0));
            for (std::uint32_t j : list_) sum_[k_[j]] += term(j);
            valid_ = true;
        }
        return sum_;
    }
    void set_mutation(Mutation m) { mutation_ = m; }

private:
    static constexpr std::uint32_t kNone = 0xffffffffu;
    struct Undo {
        std::uint32_t j;
        bool was_on;
        std::uint32_t k;
        double z;
    };
    // a sigma(z_k) in a [0, z^+] on the reachable set of the anchored box (section 4c)
    I term(std::size_t j) const { return box_[j * S_ + a_] * I::bounds(0.0, z_[j]); }
    void journal(std::size_t j) {
        undo_.push_back({static_cast<std::uint32_t>(j), on(j), k_[j], z_[j]});
        undo_box_.insert(undo_box_.end(), box_.begin() + static_cast<std::ptrdiff_t>(j * S_),
                         box_.begin() + static_cast<std::ptrdiff_t>((j + 1) * S_));
        ++gen_;
    }
    std::size_t group(std::size_t j) const {
        const I& a = box_[j * S_ + a_];
        return 3 * k_[j] + (certainly_positive(a) ? 0 : (certainly_negative(a) ? 1 : 2));
    }
    void insert(std::size_t j) {
        pos_[j] = static_cast<std::uint32_t>(list_.size());
        list_.push_back(static_cast<std::uint32_t>(j));
        ++groups_[group(j)];
    }
    void erase(std::size_t j) {  // the record (k, box) is the one it was inserted with
        --groups_[group(j)];
        const std::uint32_t p = pos_[j], last = list_.back();
        list_[p] = last;
        pos_[last] = p;
        list_.pop_back();
        pos_[j] = kNone;
    }

    std::size_t S_ = 0, a_ = 0, n_ = 0;
    std::vector<std::uint32_t> pos_;   // position in list_, kNone when not parked
    std::vector<std::uint32_t> list_;  // parked neurons
    std::vector<std::uint32_t> k_;     // sample of the kink
    std::vector<double> z_;            // >= sup z_k^+ on the anchored box
    std::vector<I> box_;               // anchored boxes, S per neuron
    std::vector<std::size_t> groups_;  // group_size(k, sign) at 3 k + sign
    std::vector<Undo> undo_;           // records before each mutation since the last commit
    std::vector<I> undo_box_;          // their boxes, S per record
    std::uint64_t gen_ = 0;
    Mutation mutation_ = Mutation::none;
    mutable std::vector<I> sum_;
    mutable bool valid_ = true;  // the empty set's sum is 0
};

}  // namespace flowcert::nets::flow
