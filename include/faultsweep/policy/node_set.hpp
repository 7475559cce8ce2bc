#pragma once
// The set of allocatable nodes (up, idle, held by no job) as a bitset, so that first-fit by
// lowest id and round robin are a few word scans and never allocate.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "faultsweep/core/error.hpp"

namespace faultsweep::policy {

// Nodes first, first + 1, ..., first + count - 1.
struct NodeRun {
  std::int32_t first = 0;
  std::int32_t count = 0;
  bool operator==(const NodeRun&) const = default;
};

class NodeSet {
 public:
  explicit NodeSet(int nodes = 0) { reset(nodes); }
  void reset(int nodes) {
    nodes_ = nodes;
    count_ = 0;
    words_.assign((static_cast<std::size_t>(nodes) + 63) / 64, 0);
  }
  int nodes() const { return nodes_; }
  int count() const { return count_; }
  bool contains(int n) const { return (words_[word(n)] >> bit(n)) & 1U; }
  void insert(int n) {
    FS_CHECK(!contains(n), "NodeSet: node inserted twice");
    words_[word(n)] |= std::uint64_t{1} << bit(n);
    ++count_;
  }
  void erase(int n) {
    FS_CHECK(contains(n), "NodeSet: erasing a node that is not in the set");
    words_[word(n)] &= ~(std::uint64_t{1} << bit(n));
    --count_;
  }
  // Batch forms of insert / erase for the nodes of one job (any order, no repeats): the bits of
  // consecutive nodes in one word are gathered in a register and written once, instead of a
  // load and store of the same word per node.
  void insert_all(std::span<const std::int32_t> ns) { apply_all<true>(ns); }
  void erase_all(std::span<const std::int32_t> ns) { apply_all<false>(ns); }
  // insert / erase of the nodes a..b-1 (a contiguous run of a job's nodes), a word at a time.
  void insert_range(int a, int b) { apply_range<true>(a, b); }
  void erase_range(int a, int b) { apply_range<false>(a, b); }
  // True if every node of a..b-1 is a member (a word at a time; empty: true).
  bool contains_range(int a, int b) const {
    std::uint64_t missing = 0;
    for_range_words(a, b,
                    [&](std::size_t at, std::uint64_t mask) { missing |= mask & ~words_[at]; });
    return missing == 0;
  }
  // Writes the members >= from in increasing order into out[k..] until out is full; returns the
  // new k. One pass over the words.
  std::size_t take_from(int from, std::span<std::int32_t> out, std::size_t k) const {
    if (k == out.size() || from >= nodes_) return k;
    const std::uint64_t* const words = words_.data();
    const std::size_t n = words_.size();
    std::size_t w = word(from);
    std::uint64_t bits = words[w] & (~std::uint64_t{0} << bit(from));
    while (true) {
      // A full word at once, in a loop the compiler vectorises (first fit on a mostly free
      // machine hands out whole words); otherwise one count-trailing-zeros per member.
      if (bits == ~std::uint64_t{0} && out.size() - k >= 64) {
        const auto first = static_cast<std::int32_t>(w * 64);
        for (std::size_t i = 0; i < 64; ++i) out[k + i] = first + static_cast<std::int32_t>(i);
        k += 64;
        if (k == out.size()) return k;
        bits = 0;
      }
      while (bits != 0) {
        out[k++] =
            static_cast<std::int32_t>(w * 64 + static_cast<unsigned>(std::countr_zero(bits)));
        if (k == out.size()) return k;
        bits &= bits - 1;
      }
      if ((w = next_word(words, w, n)) == n) return k;
      bits = words[w];
    }
  }
  // The members >= from in increasing order, as runs of consecutive ids appended to `runs` (a
  // run continuing runs.back() extends it), until `count` members are taken; returns how many
  // were. The same members as take_from, with one step per run instead of per member.
  std::int32_t take_runs_from(int from, std::int32_t count, std::vector<NodeRun>& runs) const {
    std::int32_t got = 0;
    if (count <= 0 || from >= nodes_) return got;
    const std::uint64_t* const words = words_.data();
    const std::size_t n = words_.size();
    std::size_t w = word(from);
    std::uint64_t bits = words[w] & (~std::uint64_t{0} << bit(from));
    while (true) {
      bool open = false;  // the last run taken reaches this word's end
      while (bits != 0) {
        const auto at = static_cast<unsigned>(std::countr_zero(bits));
        const auto ones = static_cast<std::int32_t>(std::countr_one(bits >> at));
        const std::int32_t len = ones < count - got ? ones : count - got;
        const auto first = static_cast<std::int32_t>(w * 64 + at);
        if (!runs.empty() && runs.back().first + runs.back().count == first) {
          runs.back().count += len;
        } else {
          runs.push_back(NodeRun{first, len});
        }
        got += len;
        if (got == count) return got;
        const unsigned end = at + static_cast<unsigned>(len);  // the bits below are clear
        open = end == 64;
        bits = open ? 0 : bits & (~std::uint64_t{0} << end);
      }
      // Full words after a run that reaches this word's end extend it 64 members at a time.
      if (open) {
        while (w + 1 < n && words[w + 1] == ~std::uint64_t{0} && count - got >= 64) {
          ++w;
          runs.back().count += 64;
          got += 64;
        }
        if (got == count) return got;
      }
      if ((w = next_word(words, w, n)) == n) return got;
      bits = words[w];
    }
  }
  // Bit n % 64 of word n / 64 is set iff n is a member (bits past nodes() are clear).
  const std::vector<std::uint64_t>& words() const { return words_; }
  // The lowest member >= from, or -1.
  int next_from(int from) const {
    if (from >= nodes_) return -1;
    std::size_t w = word(from);
    std::uint64_t bits = words_[w] & (~std::uint64_t{0} << bit(from));
    while (true) {
      if (bits != 0) return static_cast<int>(w * 64 + std::countr_zero(bits));
      if (++w == words_.size()) return -1;
      bits = words_[w];
    }
  }

 private:
  template <bool Insert>
  void apply_all(std::span<const std::int32_t> ns) {
    if (ns.empty()) return;
    std::uint64_t* w = words_.data();
    std::size_t at = 0;
    std::uint64_t mask = 0;  // the bits gathered for word `at`
    const auto flush = [&] { apply_word<Insert>(w[at], mask); };
    for (const std::int32_t n : ns) {
      if (word(n) != at) {
        flush();
        at = word(n);
        mask = 0;
      }
      const std::uint64_t b = std::uint64_t{1} << bit(n);
      FS_CHECK((mask & b) == 0, "NodeSet: a node twice in one batch");
      mask |= b;
    }
    flush();
    count_ += Insert ? static_cast<int>(ns.size()) : -static_cast<int>(ns.size());
  }
  template <bool Insert>
  static void apply_word(std::uint64_t& w, std::uint64_t mask) {
    if constexpr (Insert) {
      FS_CHECK((w & mask) == 0, "NodeSet: node inserted twice");
      w |= mask;
    } else {
      FS_CHECK((w & mask) == mask, "NodeSet: erasing a node that is not in the set");
      w &= ~mask;
    }
  }
  // Calls f(word index, mask of the nodes a..b-1 in that word) for each word a..b-1 touches.
  template <class F>
  static void for_range_words(int a, int b, F&& f) {
    if (a >= b) return;
    const std::size_t first = word(a), last = word(b - 1);
    for (std::size_t at = first; at <= last; ++at) {
      std::uint64_t mask = ~std::uint64_t{0};
      if (at == first) mask &= ~std::uint64_t{0} << bit(a);
      if (at == last) mask &= ~std::uint64_t{0} >> (63 - bit(b - 1));
      f(at, mask);
    }
  }
  template <bool Insert>
  void apply_range(int a, int b) {
    if (a >= b) return;
    for_range_words(
        a, b, [&](std::size_t at, std::uint64_t mask) { apply_word<Insert>(words_[at], mask); });
    count_ += Insert ? b - a : a - b;
  }
  // The first word after w with a member, or n: a busy stretch skipped in a loop of its own,
  // four words a test.
  static std::size_t next_word(const std::uint64_t* words, std::size_t w, std::size_t n) {
    ++w;
    while (w + 4 <= n && (words[w] | words[w + 1] | words[w + 2] | words[w + 3]) == 0) w += 4;
    while (w < n && words[w] == 0) ++w;
    return w;
  }
  static std::size_t word(int n) { return static_cast<std::size_t>(n) >> 6; }
  static unsigned bit(int n) { return static_cast<unsigned>(n) & 63U; }
  std::vector<std::uint64_t> words_;
  int nodes_ = 0;
  int count_ = 0;
};

}  // namespace faultsweep::policy
