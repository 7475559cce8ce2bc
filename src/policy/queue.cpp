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
  const double shadow_s = walk.shadow_s();
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

// The index of the step that starts at t, splitting the step that contains t if needed.
std::size_t ConservativeBackfill::split_at(double t) {
  const auto it = std::upper_bound(time_s_.begin(), time_s_.end(), t);
  const auto idx = static_cast<std::size_t>(it - time_s_.begin());
  if (time_s_[idx - 1] == t) return idx - 1;
  time_s_.insert(it, t);
  free_.insert(free_.begin() + static_cast<std::ptrdiff_t>(idx), free_[idx - 1]);
  return idx;
}

// Adds `nodes` (negative: takes them) to the profile over [begin, end).
void ConservativeBackfill::add(double begin_s, double end_s, std::int32_t nodes) {
  if (!(end_s > begin_s)) return;
  const std::size_t k = split_at(begin_s);
  split_at(end_s);
  for (std::size_t m = k; m < time_s_.size() && time_s_[m] < end_s; ++m) free_[m] += nodes;
}

bool ConservativeBackfill::fits(double begin_s, double end_s, std::int32_t nodes) const {
  const auto first = static_cast<std::size_t>(
      std::upper_bound(time_s_.begin(), time_s_.end(), begin_s) - time_s_.begin() - 1);
  for (std::size_t m = first; m < time_s_.size(); ++m) {
    if (m > first && time_s_[m] >= end_s) break;
    if (free_[m] < nodes) return false;
  }
  return true;
}

// The earliest start from which the profile holds `nodes` for `wall_s`.
double ConservativeBackfill::earliest(std::int32_t nodes, double wall_s) const {
  std::size_t k = 0;
  for (std::size_t m = 0; m < time_s_.size();) {
    if (free_[m] < nodes) {
      k = ++m;
      continue;
    }
    if (m + 1 == time_s_.size() || time_s_[m + 1] >= time_s_[k] + wall_s) break;
    ++m;
  }
  FS_CHECK(k < time_s_.size(), "conservative: a job can never fit (wider than the machine?)");
  return time_s_[k];
}

void ConservativeBackfill::select(const QueueState& s, std::vector<std::int32_t>& start) {
  if (s.waiting.empty()) return;
  if (reserved_s_.size() < s.info.size())
    reserved_s_.resize(s.info.size(), std::numeric_limits<double>::quiet_NaN());
  // The free-node profile from now on: free nodes now, plus each release at its time.
  time_s_.clear();
  free_.clear();
  time_s_.push_back(s.now_s);
  free_.push_back(s.free_nodes);
  for (const Release& r : s.releases->releases()) {
    const double t = std::max(r.time_s, s.now_s);
    if (t > time_s_.back()) {
      time_s_.push_back(t);
      free_.push_back(free_.back());
    }
    free_.back() += r.nodes;
  }
  // Keep the reservations made before where they still fit (they do unless a failure or an
  // overrun took capacity away): a job then moves only earlier, never later (compression).
  for (const std::int32_t job : s.waiting) {
    double& at = reserved_s_[static_cast<std::size_t>(job)];
    if (std::isnan(at)) continue;
    const JobInfo& j = s.info[static_cast<std::size_t>(job)];
    at = std::max(at, s.now_s);
    if (fits(at, at + j.est_wall_s, j.size))
      add(at, at + j.est_wall_s, -j.size);
    else
      at = std::numeric_limits<double>::quiet_NaN();
  }
  // In queue order, each job takes the earliest slot that delays no reservation.
  for (std::size_t pos = 0; pos < s.waiting.size(); ++pos) {
    const std::int32_t job = s.waiting[pos];
    const JobInfo& j = s.info[static_cast<std::size_t>(job)];
    double& at = reserved_s_[static_cast<std::size_t>(job)];
    if (!std::isnan(at)) add(at, at + j.est_wall_s, j.size);  // give its own slot back
    at = earliest(j.size, j.est_wall_s);
    add(at, at + j.est_wall_s, -j.size);
    if (log_ != nullptr) {
      double& first = (*log_)[static_cast<std::size_t>(job)];
      if (std::isnan(first)) first = at;
    }
    if (trace_ != nullptr) trace_->push_back({job, at, s.now_s});
    if (at == s.now_s) {
      start.push_back(static_cast<std::int32_t>(pos));
      at = std::numeric_limits<double>::quiet_NaN();  // started: no reservation any more
    }
  }
}

std::unique_ptr<QueuePolicy> make_queue_policy(std::string_view name) {
  return find_choice(queue_policies(), "queue", name).make(Params{});
}

}  // namespace faultsweep::policy
