#include "faultsweep/policy/queue.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "faultsweep/core/error.hpp"

namespace faultsweep::policy {

namespace {

// Starts jobs in queue order while they fit; returns the position of the first that does not.
std::size_t start_prefix(const QueueState& s, int& free, std::vector<std::int32_t>& start) {
  std::size_t pos = 0;
  for (; pos < s.waiting.size(); ++pos) {
    const std::int32_t size = s.sizes[pos];
    if (size > free) break;
    free -= size;
    start.push_back(static_cast<std::int32_t>(pos));
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
  const std::size_t head_pos = start_prefix(s, free, start);
  if (head_pos == s.waiting.size()) return;
  if (free == 0 && log_ == nullptr) return;  // nothing can backfill

  // The head's reservation: walk the expected releases (the engine's, merged with those of
  // the jobs just started above, which the engine does not know yet) until enough nodes are
  // free.
  own_.clear();
  for (const std::int32_t pos : start) {
    const std::int32_t j = s.waiting[static_cast<std::size_t>(pos)];
    const JobInfo& info = s.info[static_cast<std::size_t>(j)];
    own_.push_back({s.now_s + info.est_wall_s, info.size, j});
  }
  std::sort(own_.begin(), own_.end(),
            [](const Release& a, const Release& b) { return a.time_s < b.time_s; });
  const std::int32_t head = s.waiting[head_pos];
  const std::int32_t need = s.info[static_cast<std::size_t>(head)].size;
  int avail = free;
  double shadow_s = std::numeric_limits<double>::infinity();
  int extra = 0;
  const std::span<const Release> engine = s.releases->releases();
  std::size_t a = 0, b = 0;
  while (a < engine.size() || b < own_.size()) {
    const bool take_own =
        a == engine.size() || (b < own_.size() && own_[b].time_s < engine[a].time_s);
    const Release& r = take_own ? own_[b++] : engine[a++];
    avail += r.nodes;
    if (avail >= need) {
      shadow_s = std::max(r.time_s, s.now_s);
      extra = avail - need;
      break;
    }
  }
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
  if (name == "fcfs") return std::make_unique<Fcfs>();
  if (name == "easy") return std::make_unique<EasyBackfill>();
  throw InputError("queue", std::string(name), "one of \"fcfs\", \"easy\"");
}

}  // namespace faultsweep::policy
