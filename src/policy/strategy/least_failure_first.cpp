#include "faultsweep/policy/least_failure_first.hpp"

#include <algorithm>
#include <bit>

#include "faultsweep/core/error.hpp"
#include "faultsweep/policy/zhang_checkpointing.hpp"

namespace faultsweep::policy {

void LeastFailureFirst::sync(const failures::NodeHistory& h) {
  const auto nodes = static_cast<std::size_t>(h.nodes());
  if (count_of_.size() != nodes) {
    // All nodes start in bucket 0 (no failure).
    by_count_.assign(1, Bucket{std::vector<std::uint64_t>((nodes + 63) / 64, 0), 0});
    for (std::size_t n = 0; n < nodes; ++n)
      by_count_[0].words[n >> 6] |= std::uint64_t{1} << (n & 63);
    by_count_[0].size = static_cast<std::int64_t>(nodes);
    count_of_.assign(nodes, 0);
    synced_total_ = 0;
  }
  if (h.total_failures() == synced_total_) return;
  synced_total_ = h.total_failures();
  for (std::size_t n = 0; n < nodes; ++n) {
    const std::int64_t c = h.failures(static_cast<std::int32_t>(n));
    const std::int64_t old = count_of_[n];
    if (c == old) continue;
    const auto to = static_cast<std::size_t>(c);
    if (to >= by_count_.size())
      by_count_.resize(to + 1, Bucket{std::vector<std::uint64_t>(by_count_[0].words.size(), 0), 0});
    const std::uint64_t bit = std::uint64_t{1} << (n & 63);
    by_count_[static_cast<std::size_t>(old)].words[n >> 6] &= ~bit;
    --by_count_[static_cast<std::size_t>(old)].size;
    by_count_[to].words[n >> 6] |= bit;
    ++by_count_[to].size;
    count_of_[n] = c;
  }
}

// Zhang §5.2.3 "Initial Assignment": the safest free nodes (lowest failure count so far), ties by
// the lower id: the free members of the buckets in count order, each in id order.
void LeastFailureFirst::allocate(const AllocationContext& ctx, const NodeSet& free,
                                 std::span<std::int32_t> out) {
  FS_CHECK(static_cast<std::size_t>(free.count()) >= out.size(), "lff: not enough nodes");
  std::size_t k = 0;
  if (ctx.history == nullptr) {  // no history (tests): every count is 0, so first fit
    for (int n = free.next_from(0); k < out.size(); n = free.next_from(n + 1)) out[k++] = n;
    return;
  }
  sync(*ctx.history);
  const std::vector<std::uint64_t>& f = free.words();
  for (const Bucket& b : by_count_) {
    if (b.size == 0) continue;
    for (std::size_t w = 0; w < f.size() && k < out.size(); ++w)
      for (std::uint64_t bits = b.words[w] & f[w]; bits != 0 && k < out.size(); bits &= bits - 1)
        out[k++] =
            static_cast<std::int32_t>(64 * w + static_cast<std::size_t>(std::countr_zero(bits)));
    if (k == out.size()) return;
  }
}

LffMigration::LffMigration(const Params& point) {
  const ZhangConfig c = zhang_config_of(point);
  threshold_ = c.lff_threshold;
  overhead_s_ = c.migration_overhead_s;
  const auto n = static_cast<std::size_t>(point.integer("nodes"));
  idle_.reserve(n);
  busy_.reserve(n);
}

StrategyNeeds LffMigration::needs() const {
  StrategyNeeds n;
  n.job_ends = true;
  return n;
}

// Zhang §5.2.3 "Migration": on a job end, later-started jobs leave less safe nodes for safer
// idle ones when the failure counts differ by more than the threshold.
void LffMigration::on_job_end(const ClusterView& v, std::int32_t done, Decisions& out) {
  if (moving_until_s_.empty()) moving_until_s_.assign(v.job_info().size(), -1.0);
  const failures::NodeHistory& h = v.history();
  const double now_s = v.now_s();
  const double done_start_s = now_s - v.job(done).elapsed_s;
  idle_.clear();
  busy_.clear();
  const NodeSet& free = v.free();
  for (int n = free.next_from(0); n >= 0; n = free.next_from(n + 1))
    idle_.push_back({h.failures(n), n, -1});
  if (idle_.empty()) return;
  for (const Release& r : v.running()) {
    const JobView j = v.job(r.job);
    // Started after `done` (1 us guards the rounding of the derived start times).
    if (!j.running || now_s - j.elapsed_s <= done_start_s + 1e-6) continue;
    if (moving_until_s_[static_cast<std::size_t>(j.id)] > now_s) continue;  // still moving
    for (const std::int32_t n : j.nodes) busy_.push_back({h.failures(n), n, j.id});
  }
  // Most job ends move nothing: check the best pair before sorting.
  const auto by_failures = [](const Slot& a, const Slot& b) { return a.failures < b.failures; };
  if (busy_.empty() ||
      std::max_element(busy_.begin(), busy_.end(), by_failures)->failures -
              std::min_element(idle_.begin(), idle_.end(), by_failures)->failures <=
          threshold_)
    return;
  // Pair the least safe busy nodes with the safest idle ones (ties: lower node id first). The
  // pairs come off two heaps: most job ends move a few nodes, so sorting both lists would
  // order far more than is read. (failures, node) is unique in each list, so the pairs are
  // those of the sorted lists.
  const auto idle_later = [](const Slot& a, const Slot& b) {
    return a.failures != b.failures ? a.failures > b.failures : a.node > b.node;
  };
  const auto busy_later = [](const Slot& a, const Slot& b) {
    return a.failures != b.failures ? a.failures < b.failures : a.node > b.node;
  };
  std::make_heap(idle_.begin(), idle_.end(), idle_later);
  std::make_heap(busy_.begin(), busy_.end(), busy_later);
  for (auto idle_end = idle_.end(), busy_end = busy_.end();
       idle_end != idle_.begin() && busy_end != busy_.begin(); --idle_end, --busy_end) {
    const Slot from = busy_.front(), to = idle_.front();
    if (from.failures - to.failures <= threshold_) break;
    out.moves.push_back({from.job, from.node, to.node, overhead_s_});
    moving_until_s_[static_cast<std::size_t>(from.job)] = now_s + overhead_s_;
    std::pop_heap(idle_.begin(), idle_end, idle_later);
    std::pop_heap(busy_.begin(), busy_end, busy_later);
  }
}

}  // namespace faultsweep::policy
