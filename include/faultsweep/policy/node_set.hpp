#pragma once
// The set of allocatable nodes (up, idle, held by no job) as a bitset, so that first-fit by
// lowest id and round robin are a few word scans and never allocate.
#include <bit>
#include <cstdint>
#include <vector>

#include "faultsweep/core/error.hpp"

namespace faultsweep::policy {

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
  static std::size_t word(int n) { return static_cast<std::size_t>(n) >> 6; }
  static unsigned bit(int n) { return static_cast<unsigned>(n) & 63U; }
  std::vector<std::uint64_t> words_;
  int nodes_ = 0;
  int count_ = 0;
};

}  // namespace faultsweep::policy
