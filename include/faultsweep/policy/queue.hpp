#pragma once
// Queue policies: which waiting jobs start now. The engine owns the queue (in priority order:
// arrival order, with requeued jobs at the head or at their original place) and asks the
// policy after every instant at which something changed. The interface is narrow: the policy
// sees the waiting jobs, their sizes and estimated wall times, the free node count, and the
// times at which busy or down nodes are expected back; it returns positions to start.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "faultsweep/policy/availability_profile.hpp"
#include "faultsweep/policy/cluster_view.hpp"

namespace faultsweep::policy {

// EASY's shadow time of the head job (it needs `need` nodes, `free` are free now): fed releases in
// time order, it stops at the first past the shadow time. Every release at the shadow time counts
// ("the nodes free then beyond its need are the extra nodes"), not only those up to the first that
// makes the head fit: otherwise the extra nodes would depend on how simultaneous releases are
// listed. Used by EasyBackfill and by FARS's spare pool (src/policy/strategy/fars.cpp).
class ShadowWalk {
 public:
  ShadowWalk(int free, int need, double now_s) : avail_(free), need_(need), now_s_(now_s) {}
  // Adds the release; false (not added) once it lies past the shadow time: stop feeding.
  bool add(const Release& r) {
    const double at_s = r.time_s > now_s_ ? r.time_s : now_s_;
    if (avail_ >= need_ && at_s > shadow_s_) return false;
    avail_ += r.nodes;
    if (avail_ >= need_ && shadow_s_ == kNever) shadow_s_ = at_s;
    return true;
  }
  bool fits() const { return avail_ >= need_; }
  double shadow_s() const { return shadow_s_; }  // +inf while the head cannot fit
  int extra() const { return avail_ - need_; }   // nodes free at the shadow time beyond the need

 private:
  static constexpr double kNever = std::numeric_limits<double>::infinity();
  int avail_, need_;
  double now_s_, shadow_s_ = kNever;
};

class ReleaseSource {
 public:
  virtual ~ReleaseSource() = default;
  // Sorted by time; built on demand (only EASY needs it, and only when the head does not fit).
  virtual std::span<const Release> releases() const = 0;
};

// Start sizes of moldable jobs (policy/size_chooser.hpp), as the engine applies them.
class StartSizes {
 public:
  virtual ~StartSizes() = default;
  // The nodes job `job` starts with when `free_nodes` are free, 0 if it must wait (a rigid
  // job, or one whose size is fixed: its size if it fits, else 0). A pure function.
  virtual std::int32_t start_size(std::int32_t job, int free_nodes) const = 0;
  // Estimated wall time of the job's execution if it starts on `size` nodes.
  virtual double est_wall_at_s(std::int32_t job, std::int32_t size) const = 0;
  // True if the job's start size is the size chooser's (a moldable job not started yet);
  // false: it starts on its requested size or waits.
  virtual bool sized_at_start(std::int32_t job) const = 0;
  // The nodes the engine starts the job with if the policy starts it in this pass: the size
  // chooser's answer if start_size asked it in this pass, else the job's size.
  virtual std::int32_t size_if_started(std::int32_t job) const = 0;
};

struct QueueState {
  double now_s = 0;
  int free_nodes = 0;
  std::span<const std::int32_t> waiting;  // job ids in queue order
  std::span<const std::int32_t> sizes;    // their sizes, in the same order (contiguous: cheap
                                          // to scan for a job that fits)
  std::span<const JobInfo> info;          // indexed by job id
  const ReleaseSource* releases = nullptr;
  // Moldable jobs: FCFS and the queue-order prefix of EASY start a job with
  // start_sizes->start_size(job, free nodes left) (null: every job is rigid). EASY's
  // reservation and backfilling, and conservative backfilling, use the requested sizes.
  const StartSizes* start_sizes = nullptr;
  // The same read-only view of the cluster that runtime strategies get (cluster_view.hpp):
  // nodes, running jobs, history. Null only outside the engine (unit tests). The fields above
  // are what the built-in policies read in their hot loop.
  const ClusterView* view = nullptr;
};

class QueuePolicy {
 public:
  virtual ~QueuePolicy() = default;
  virtual std::string_view name() const = 0;
  // True for a policy that keeps state between passes (reservations): the engine then asks it
  // after every change, also while no node is free, so that a job arriving at a full machine is
  // planned at its arrival. False lets the engine skip passes that could start nothing.
  virtual bool keeps_state() const { return false; }
  // Appends to `start` the positions in s.waiting of the jobs to start now, increasing; their
  // sizes (chosen by s.start_sizes for moldable jobs) sum to at most s.free_nodes. `start` is
  // reserved by the engine: no allocation.
  virtual void select(const QueueState& s, std::vector<std::int32_t>& start) = 0;
};

// First come, first served: start jobs in queue order until one does not fit.
class Fcfs final : public QueuePolicy {
 public:
  std::string_view name() const override { return "fcfs"; }
  void select(const QueueState& s, std::vector<std::int32_t>& start) override;
};

// FCFS with EASY backfilling (Lifka 1995; the backfilling of Zhang et al. §3.1 and of FARS'
// FCFS/EASY baseline, §5.1): the first job that does not fit gets a reservation at the shadow
// time, the earliest estimated time at which enough nodes are free; the nodes free then beyond
// its need are the extra nodes. A later job starts now if it fits and either ends (by its
// estimate) by the shadow time or uses only extra nodes, so it never delays the reservation.
class EasyBackfill final : public QueuePolicy {
 public:
  std::string_view name() const override { return "easy"; }
  void select(const QueueState& s, std::vector<std::int32_t>& start) override;
  // For tests: record in log[job] the first reservation (shadow time) each head job gets
  // (entries must start as NaN; the log must have one entry per job).
  void set_reservation_log(std::vector<double>* log) { log_ = log; }

 private:
  std::vector<double>* log_ = nullptr;
  std::vector<Release> own_;               // releases of the jobs started in this call
  std::vector<std::int32_t> prefix_size_;  // sizes of the queue-order prefix started (grows once)
};

// Conservative backfilling (Mu'alem & Feitelson 2001): every waiting job, in queue order, gets a
// reservation at the earliest time the free-node profile (built from the releases and the
// reservations of the jobs ahead of it) holds its size for its estimated wall time; a job
// starts now when its reservation is now. Reservations persist between calls and only move
// earlier (compression: each job gives back its slot and takes the earliest that fits), so
// no job is delayed by a later one unless a failure takes capacity away. A job is reserved at
// its arrival, also when no node is free then (keeps_state). The profile persists between
// calls (policy/availability_profile.hpp); a call that only adds capacity (a job ended early)
// or jobs (arrivals) recomputes only the reservations that capacity given back before their
// end could move (the others would get the same slot again), any other change rebuilds it all.
class ConservativeBackfill final : public QueuePolicy {
 public:
  static constexpr bool kKeepsState = true;
  std::string_view name() const override { return "conservative"; }
  bool keeps_state() const override { return kKeepsState; }
  void select(const QueueState& s, std::vector<std::int32_t>& start) override;
  // For tests, as EasyBackfill: log[job] = the first reservation each job gets.
  void set_reservation_log(std::vector<double>* log) { log_ = log; }
  // For tests: every reservation given, in order (the job, its reserved start, the pass time).
  struct Given {
    std::int32_t job;
    double at_s, now_s;
  };
  void set_reservation_trace(std::vector<Given>* trace) { trace_ = trace; }

 private:
  struct Step {
    double time_s;
    std::int32_t nodes;  // added to the free nodes at time_s
  };
  void read_base(const QueueState& s);
  bool same_queue(const QueueState& s) const;
  bool base_only_grew(double now_s);
  void rebuild(const QueueState& s);
  double earliest_move(double now_s, const JobInfo& j, double at, double before_s);
  // The hull [lo_s, hi_s) of the times where capacity was given back (empty: lo_s > hi_s).
  struct Gain {
    double lo_s = std::numeric_limits<double>::infinity();
    double hi_s = -std::numeric_limits<double>::infinity();
    void cover(const Gain& g) {
      lo_s = g.lo_s < lo_s ? g.lo_s : lo_s;
      hi_s = g.hi_s > hi_s ? g.hi_s : hi_s;
    }
  };
  void place(const QueueState& s, std::vector<std::int32_t>& start, bool all, Gain since);

  std::vector<double>* log_ = nullptr;
  std::vector<Given>* trace_ = nullptr;
  AvailabilityProfile profile_;          // base minus every reservation, from the last call on
  std::vector<double> reserved_s_;       // by job id: its reservation, NaN if none
  std::vector<double> slot_wall_s_;      // by job id: the wall time and size its slot in the
  std::vector<std::int32_t> slot_size_;  // profile was taken with
  std::vector<std::int32_t> queue_;      // the waiting jobs after the last call, in order
  bool valid_ = false;                   // queue_, base_ and profile_ describe the last call
  // The base (free nodes now plus the releases) the profile holds: base_free_ from the last
  // call's time, then the steps of base_ (later times); the jobs it started are in it.
  std::int32_t base_free_ = 0;
  std::vector<Step> base_, next_base_;
  std::int32_t next_free_ = 0;
  std::size_t merged_steps_ = 0;  // the profile's breakpoints after the last forget_before
  static constexpr std::size_t kSlack = 4;  // breakpoints added before merging again
  std::vector<Step> grown_;                 // scratch: [time_s, next time_s) gained `nodes`
  // A job that moved: the slot it gave back, and what it and the moves after it gave back.
  struct Move {
    std::size_t kept;  // the jobs before it not started (its position in the next call)
    Gain back, tail;
  };
  std::vector<Move> moves_, moved_;  // last call's moves; this call's (scratch)
  void add_to_base(double now_s, const JobInfo& j);
  // The last searches of this call, each with the starts it ruled out (from now to before_s:
  // all it looked at, or those before the start it found), none of whose steps capacity given
  // back since has reached: a job they rule out there is not searched there (earliest_move).
  struct Miss {
    std::int32_t size;
    double wall_s, at_s, before_s;  // no start from now to before_s held it
    bool rules_out(const Miss& other) const;
    // Every step the search looked at starts before this (its starts end their windows by
    // then: before_s + wall_s, or at_s, where the job's own slot held them).
    double reach_s() const { return std::min(at_s, before_s + wall_s); }
  };
  void forget_misses(double lo_s);
  static constexpr std::size_t kMisses = 4;
  Miss miss_[kMisses] = {};
  std::size_t misses_ = 0;  // searches recorded (the last kMisses kept)
};

// "fcfs" | "easy" | "conservative"; throws InputError("queue", ...) otherwise.
std::unique_ptr<QueuePolicy> make_queue_policy(std::string_view name);

}  // namespace faultsweep::policy
