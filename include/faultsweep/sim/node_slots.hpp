#pragma once
// The node lists of the jobs that hold nodes, in one array: a job takes a slot when it starts
// and gives it back when it releases its nodes (completion, or a failure that sends it back to
// the queue). Slots are reused by size class (powers of two), so the memory follows the nodes
// in use — at most twice the machine per class in use — not the jobs of the log: a 300,000-job
// log on 100,000 nodes would otherwise keep every job's list (GBs).
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

namespace faultsweep::sim {

// An allocator whose new elements are left unwritten (default-initialized). A slot's entries
// are written before they are read, so the store never needs a fill; the pages of entries
// never written (a list handed out as runs and never read) are never touched.
template <class T>
struct Unwritten : std::allocator<T> {
  Unwritten() = default;
  template <class U>
  Unwritten(const Unwritten<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
};

class NodeSlots {
 public:
  // Room for `entries` without moving the store (reserved, not written).
  void reset(std::int64_t entries) {
    store_.clear();
    store_.reserve(static_cast<std::size_t>(entries));
    for (std::vector<std::int64_t>& f : free_) f.clear();
  }
  // The offset of a slot of at least `size` entries (size >= 1).
  std::int64_t take(std::int32_t size) {
    std::vector<std::int64_t>& f = free_[class_of(size)];
    if (!f.empty()) {
      const std::int64_t at = f.back();
      f.pop_back();
      return at;
    }
    const auto at = static_cast<std::int64_t>(store_.size());
    const std::size_t want = store_.size() + (std::size_t{1} << class_of(size));
    if (want > store_.capacity()) grow(want);
    store_.resize(want);
    return at;
  }
  // Gives back the slot at `offset` taken for `size` entries.
  void give(std::int64_t offset, std::int32_t size) { free_[class_of(size)].push_back(offset); }
  std::int32_t* data() { return store_.data(); }
  const std::int32_t* data() const { return store_.data(); }
  std::size_t capacity_entries() const { return store_.size(); }

 private:
  // A store twice as large (at least `want`), the entries so far copied as bytes: some were
  // never written, and bytes are the only way to copy those.
  void grow(std::size_t want) {
    Store bigger;
    bigger.reserve(std::max(want, 2 * store_.capacity()));
    bigger.resize(store_.size());
    if (!store_.empty()) std::memcpy(bigger.data(), store_.data(), store_.size() * sizeof(Entry));
    store_.swap(bigger);
  }
  static unsigned class_of(std::int32_t size) {
    return static_cast<unsigned>(std::bit_width(static_cast<std::uint32_t>(size - 1)));
  }
  using Entry = std::int32_t;
  using Store = std::vector<Entry, Unwritten<Entry>>;
  Store store_;
  std::array<std::vector<std::int64_t>, 33> free_;
};

}  // namespace faultsweep::sim
