#include "faultsweep/policy/queue.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "faultsweep/core/error.hpp"
#include "faultsweep/policy/registry.hpp"

namespace faultsweep::policy {

namespace {

// Starts jobs in queue order while they can start (rigid: they fit; moldable: the size chooser
// gives a size); returns the position of the first that cannot. Appends the sizes to `sizes`
// if given.
std::size_t start_prefix(const QueueState& s, int& free, std::vector<std::int32_t>& start,
                         std::vector<std::int32_t>* sizes = nullptr) {
  std::size_t pos = 0;
  for (; pos < s.waiting.size(); ++pos) {
    std::int32_t size = s.sizes[pos];
    if (s.start_sizes != nullptr)
      size = s.start_sizes->start_size(s.waiting[pos], free);
    else if (size > free)
      size = 0;
    if (size <= 0) break;
    free -= size;
    start.push_back(static_cast<std::int32_t>(pos));
    if (sizes != nullptr) sizes->push_back(size);
  }
  return pos;
}

}  // namespace

void Fcfs::select(const QueueState& s, std::vector<std::int32_t>& start) {
  int free = s.free_nodes;
  start_prefix(s, free, start);
}

void EasyBackfill::select(const QueueState& s, std::vector<std::int32_t>& start) {
  int free = s.free_nodes;
  prefix_size_.clear();
  const std::size_t first = start.size();
  const std::size_t head_pos = start_prefix(s, free, start, &prefix_size_);
  if (head_pos == s.waiting.size()) return;
  if (free == 0 && log_ == nullptr) return;  // nothing can backfill

  // The head's reservation: walk the expected releases (the engine's, merged with those of
  // the jobs just started above, which the engine does not know yet) until enough nodes are
  // free.
  own_.clear();
  for (std::size_t k = first; k < start.size(); ++k) {
    const std::int32_t j = s.waiting[static_cast<std::size_t>(start[k])];
    const JobInfo& info = s.info[static_cast<std::size_t>(j)];
    const std::int32_t size = prefix_size_[k - first];
    const double wall_s =
        size == info.size ? info.est_wall_s : s.start_sizes->est_wall_at_s(j, size);
    own_.push_back({s.now_s + wall_s, size, j});
  }
  std::sort(own_.begin(), own_.end(),
            [](const Release& a, const Release& b) { return a.time_s < b.time_s; });
  const std::int32_t head = s.waiting[head_pos];
  const std::int32_t need = s.info[static_cast<std::size_t>(head)].size;
  ShadowWalk walk(free, need, s.now_s);
  const std::span<const Release> engine = s.releases->releases();
  std::size_t a = 0, b = 0;
  while (a < engine.size() || b < own_.size()) {
    const bool take_own =
        a == engine.size() || (b < own_.size() && own_[b].time_s < engine[a].time_s);
    if (!walk.add(take_own ? own_[b] : engine[a])) break;
    take_own ? ++b : ++a;
  }
  // A head that fits now but did not start (its size chooser answered "wait") with nothing to
  // be released has no shadow time from the walk: it is reserved now, so only the nodes beyond
  // its need may backfill (and if the chooser always waits, the engine says so).
  const double shadow_s =
      !std::isfinite(walk.shadow_s()) && walk.fits() ? s.now_s : walk.shadow_s();
  int extra = walk.extra();
  FS_CHECK(std::isfinite(shadow_s), "easy: the head job can never fit (wider than the machine?)");
  if (log_ != nullptr) {
    double& first = (*log_)[static_cast<std::size_t>(head)];
    if (std::isnan(first)) first = shadow_s;
  }

  // Backfill: later jobs that fit now and do not delay the reservation. Most waiting jobs do
  // not fit the few free nodes: skip them on the contiguous size array.
  const std::int32_t* sizes = s.sizes.data();
  const std::size_t n = s.sizes.size();
  constexpr std::size_t kBlock = 16;
  for (std::size_t pos = head_pos + 1; pos < n && free > 0; ++pos) {
    // Skip whole blocks with no job that fits: a branch-free test the compiler vectorises.
    while (pos + kBlock <= n) {
      int fits = 0;
      for (std::size_t k = 0; k < kBlock; ++k) fits |= static_cast<int>(sizes[pos + k] <= free);
      if (fits != 0) break;
      pos += kBlock;
    }
    if (pos >= n) break;
    if (sizes[pos] > free) continue;
    const JobInfo& j = s.info[static_cast<std::size_t>(s.waiting[pos])];
    if (s.now_s + j.est_wall_s <= shadow_s) {
      free -= j.size;
    } else if (j.size <= extra) {
      free -= j.size;
      extra -= j.size;
    } else {
      continue;
    }
    start.push_back(static_cast<std::int32_t>(pos));
  }
}

std::unique_ptr<QueuePolicy> make_queue_policy(std::string_view name) {
  return find_choice(queue_policies(), "queue", name).make(Params{});
}

}  // namespace faultsweep::policy
