// Conservative backfilling (Mu'alem & Feitelson 2001) on a profile kept between calls.
//
// Why skipping a reservation is exact: the earliest start a job can get is the least start c
// (now or later) such that its size is free on every step that begins before c + wall. A job
// placed at `at` had no such start before `at` in the profile it saw then. Since then the
// profile has only lost capacity (other jobs placed around it) except where capacity was given
// back (a job ended early, a reservation moved). Every window [c, c + wall) with c < at ends by
// at + wall, so capacity given back only from at + wall on cannot open an earlier start: the
// job would get `at` again. Anything else that changes the profile (a failure, a requeue, a
// reservation the clock passed) rebuilds it and recomputes every reservation from scratch.
#include <algorithm>
#include <cmath>
#include <limits>

#include "faultsweep/core/error.hpp"
#include "faultsweep/policy/queue.hpp"

namespace faultsweep::policy {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kNever = AvailabilityProfile::kNever;
}  // namespace

// The base of this call: free nodes now plus each release at its time. The engine asks after
// every event of an instant, so a release due by now is a job running past its estimate: it
// holds its nodes until it ends, at a time nobody knows. As EASY counts such nodes back at now
// for its shadow time but starts jobs only on the nodes free now, they come back here at the
// first instant after now: no job starts on them now, and a job that needs them is reserved
// right after now (and placed again at the next call, which finds that reservation passed).
// Jobs end by their estimates in every log (SWF raises low estimates), so no release is ever
// overdue there and their results are unchanged.
void ConservativeBackfill::read_base(const QueueState& s) {
  next_free_ = s.free_nodes;
  next_base_.clear();
  const double after_now_s = std::nextafter(s.now_s, kNever);
  for (const Release& r : s.releases->releases()) {
    const double t = std::max(r.time_s, after_now_s);
    if (!next_base_.empty() && next_base_.back().time_s == t)
      next_base_.back().nodes += r.nodes;
    else
      next_base_.push_back({t, r.nodes});
  }
}

// True if the waiting jobs are those left last call, in order, with the sizes and wall times
// of their slots and reservations not yet reached, followed only by jobs never reserved.
bool ConservativeBackfill::same_queue(const QueueState& s) const {
  if (!valid_ || s.waiting.size() < queue_.size() ||
      !std::equal(queue_.begin(), queue_.end(), s.waiting.begin()))
    return false;
  for (std::size_t pos = 0; pos < s.waiting.size(); ++pos) {
    const auto job = static_cast<std::size_t>(s.waiting[pos]);
    const double at = reserved_s_[job];
    if (pos >= queue_.size()) {
      if (!std::isnan(at)) return false;
    } else if (!(at >= s.now_s) || slot_size_[job] != s.info[job].size ||
               slot_wall_s_[job] != s.info[job].est_wall_s) {
      return false;
    }
  }
  return true;
}

// Compares this call's base with the one the profile holds, from now on. If it only gained
// capacity, adds the gains to the profile and returns true (grown_ lists them); false if it
// lost any (the profile is left as it was).
bool ConservativeBackfill::base_only_grew(double now_s) {
  std::int32_t old_now = base_free_;
  std::size_t a = 0;
  for (; a < base_.size() && base_[a].time_s <= now_s; ++a) old_now += base_[a].nodes;
  grown_.clear();
  std::int32_t d = next_free_ - old_now;
  grown_.push_back({now_s, d});
  std::size_t b = 0;
  while (a < base_.size() || b < next_base_.size()) {
    const double t = a == base_.size()        ? next_base_[b].time_s
                     : b == next_base_.size() ? base_[a].time_s
                                              : std::min(base_[a].time_s, next_base_[b].time_s);
    if (a < base_.size() && base_[a].time_s == t) d -= base_[a++].nodes;
    if (b < next_base_.size() && next_base_[b].time_s == t) d += next_base_[b++].nodes;
    if (d != grown_.back().nodes) grown_.push_back({t, d});
  }
  for (const Step& g : grown_)
    if (g.nodes < 0) return false;
  for (std::size_t k = 0; k < grown_.size(); ++k)
    if (grown_[k].nodes > 0)
      profile_.add(grown_[k].time_s, k + 1 < grown_.size() ? grown_[k + 1].time_s : kNever,
                   grown_[k].nodes);
  return true;
}

// The profile from scratch: this call's base minus the reservations of the waiting jobs, in
// queue order, each kept where it still fits, from now at the earliest, and dropped otherwise.
void ConservativeBackfill::rebuild(const QueueState& s) {
  profile_.reset(s.now_s, next_free_);
  for (const Step& r : next_base_) profile_.add(r.time_s, kNever, r.nodes);
  for (const std::int32_t job : s.waiting) {
    double& at = reserved_s_[static_cast<std::size_t>(job)];
    if (std::isnan(at)) continue;
    const JobInfo& j = s.info[static_cast<std::size_t>(job)];
    at = std::max(at, s.now_s);
    if (profile_.fits(at, at + j.est_wall_s, j.size))
      profile_.add(at, at + j.est_wall_s, -j.size);
    else
      at = kNaN;
  }
}

void ConservativeBackfill::select(const QueueState& s, std::vector<std::int32_t>& start) {
  if (s.waiting.empty()) return;
  if (reserved_s_.size() < s.info.size()) {
    reserved_s_.resize(s.info.size(), kNaN);
    slot_wall_s_.resize(s.info.size());
    slot_size_.resize(s.info.size());
  }
  read_base(s);
  const bool incremental = same_queue(s) && base_only_grew(s.now_s);
  Gain since{-kNever, kNever};  // capacity given back since the last call
  if (incremental) {
    // Stale breakpoints (before now, or left by moved reservations) would pile up and slow
    // every search: drop them, which changes no answer. Dropping walks the whole profile, so
    // it waits until the clock passed a breakpoint or kSlack of them were added.
    if (profile_.breakpoints() >= merged_steps_ + kSlack || profile_.starts_before(s.now_s)) {
      profile_.forget_before(s.now_s);
      merged_steps_ = profile_.breakpoints();
    }
    since = Gain{};
    for (std::size_t k = 0; k < grown_.size(); ++k)
      if (grown_[k].nodes > 0)
        since.cover({grown_[k].time_s, k + 1 < grown_.size() ? grown_[k + 1].time_s : kNever});
  } else {
    rebuild(s);
  }
  base_.swap(next_base_);
  base_free_ = next_free_;
  place(s, start, !incremental, since);
}

// Where a job reserved at `at` goes when it gives its slot back and takes the earliest that
// fits: an earlier start if one fits with its own slot given back, else `at` again (the slot
// it gave back still fits: capacity was only given back or taken around it). Capacity was
// given back only before before_s since the job was placed, so a start from before_s on has
// a window where capacity was only taken: it did not fit then and does not now. A slot of no
// length is not in the profile, so it is looked for afresh.
double ConservativeBackfill::earliest_move(double now_s, const JobInfo& j, double at,
                                           double before_s) {
  if (!(j.est_wall_s > 0)) {
    const double to = profile_.earliest(now_s, j.size, j.est_wall_s);
    FS_CHECK(to != kNever, "conservative: a job can never fit (wider than the machine?)");
    return to;
  }
  const Miss job{j.size, j.est_wall_s, at, std::min(at, before_s)};
  // The starts a recorded search ruled out (all from now) are not looked at again. A search
  // from a time inside a step answers as one from now would: the step's first start was
  // ruled out, and a later start in the same step has the same steps after it in its window.
  double from_s = now_s;
  for (std::size_t k = 0; k < std::min(misses_, kMisses); ++k) {
    if (!miss_[k].rules_out(job)) continue;
    if (miss_[k].before_s >= job.before_s) return at;  // all of them
    from_s = std::max(from_s, miss_[k].before_s);
  }
  const double to = profile_.earliest_before(from_s, j.size, j.est_wall_s, at, job.before_s);
  // A search that found `to` ruled out the starts before it as one that found none would.
  miss_[misses_++ % kMisses] = to != kNever ? Miss{j.size, j.est_wall_s, at, to} : job;
  return to != kNever ? to : at;
}

// Capacity given back from lo_s on: a search that found nothing might find it now, unless
// every step it looked at starts before lo_s (its windows end by its reach).
void ConservativeBackfill::forget_misses(double lo_s) {
  std::size_t kept = 0;
  for (std::size_t k = 0; k < std::min(misses_, kMisses); ++k)
    if (miss_[k].reach_s() <= lo_s) miss_[kept++] = miss_[k];
  misses_ = kept;
}

// A search that found no start in [now, before_s) for this job finds none there for `other`
// either, if the profile only lost capacity in between: at every such start, other's window
// (up to its slot or its end, whichever comes first) holds this job's, and this job's held a
// step with fewer free nodes than it needs.
bool ConservativeBackfill::Miss::rules_out(const Miss& other) const {
  return size <= other.size && wall_s <= other.wall_s && at_s <= other.at_s;
}

// In queue order, each job takes the earliest slot that delays no reservation (all: every
// job; else only those that capacity given back before their end could move).
void ConservativeBackfill::place(const QueueState& s, std::vector<std::int32_t>& start, bool all,
                                 Gain since) {
  const std::size_t first_start = start.size();
  misses_ = 0;
  Gain head;  // capacity given back by the jobs ahead in this call
  // The capacity later jobs gave back last call, for the job at each position: a suffix of
  // last call's moves, by their index among the jobs kept (the positions of this call's queue).
  std::size_t next_move = 0;
  moved_.clear();
  for (std::size_t pos = 0; pos < s.waiting.size(); ++pos) {
    while (next_move < moves_.size() && moves_[next_move].kept <= pos) ++next_move;
    const Gain tail = next_move < moves_.size() ? moves_[next_move].tail : Gain{};
    const std::int32_t job = s.waiting[pos];
    const auto id = static_cast<std::size_t>(job);
    const JobInfo& j = s.info[id];
    double& at = reserved_s_[id];
    const bool had = !std::isnan(at);
    // A slot of no length is not in the profile: jobs behind may take its instant, so it is
    // always recomputed.
    if (!had || all || !(j.est_wall_s > 0) ||
        std::min({tail.lo_s, since.lo_s, head.lo_s}) < at + j.est_wall_s) {
      if (!had) {
        at = profile_.earliest(s.now_s, j.size, j.est_wall_s);
        FS_CHECK(at != kNever, "conservative: a job can never fit (wider than the machine?)");
        profile_.add(at, at + j.est_wall_s, -j.size);
        if (log_ != nullptr && std::isnan((*log_)[id])) (*log_)[id] = at;
      } else if (const double to =
                     earliest_move(s.now_s, j, at, std::max({tail.hi_s, since.hi_s, head.hi_s}));
                 to != at) {
        profile_.add(at, at + j.est_wall_s, j.size);  // give its own slot back
        profile_.add(to, to + j.est_wall_s, -j.size);
        // Where its new slot overlaps the old one, nothing was given back.
        const Gain back{std::max(at, to + j.est_wall_s), at + j.est_wall_s};
        moved_.push_back({pos - (start.size() - first_start), back, {}});
        forget_misses(back.lo_s);
        head.cover(back);
        at = to;
      }
      // Unchanged for the jobs not looked at: same_queue() found their slots as given.
      slot_wall_s_[id] = j.est_wall_s;
      slot_size_[id] = j.size;
    }
    if (trace_ != nullptr) trace_->push_back({job, at, s.now_s});
    if (at == s.now_s) {
      start.push_back(static_cast<std::int32_t>(pos));
      at = kNaN;  // started: no reservation any more; its slot becomes part of the base
      add_to_base(s.now_s, j);
    }
  }
  // What the next call needs: the waiting jobs not started, in order, and this call's moves
  // with the capacity given back from each on (for the jobs before it).
  Gain after;
  for (std::size_t k = moved_.size(); k-- > 0;) {
    after.cover(moved_[k].back);
    moved_[k].tail = after;
  }
  moves_.swap(moved_);
  queue_.clear();
  std::size_t from = 0;
  for (std::size_t k = first_start; k <= start.size(); ++k) {
    const auto to = k < start.size() ? static_cast<std::size_t>(start[k]) : s.waiting.size();
    queue_.insert(queue_.end(), s.waiting.begin() + static_cast<std::ptrdiff_t>(from),
                  s.waiting.begin() + static_cast<std::ptrdiff_t>(to));
    from = to + 1;
  }
  valid_ = true;
}

// A job started now: its nodes come back at its estimated end.
void ConservativeBackfill::add_to_base(double now_s, const JobInfo& j) {
  base_free_ -= j.size;
  const double end_s = now_s + j.est_wall_s;
  if (!(end_s > now_s)) {
    base_free_ += j.size;  // a slot of no length took nothing
    return;
  }
  const auto it = std::lower_bound(base_.begin(), base_.end(), end_s,
                                   [](const Step& st, double t) { return st.time_s < t; });
  if (it != base_.end() && it->time_s == end_s)
    it->nodes += j.size;
  else
    base_.insert(it, {end_s, j.size});
}

}  // namespace faultsweep::policy
