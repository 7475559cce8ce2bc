#pragma once
// What has happened to each node so far (DESIGN §5a): failures counted, the time of the last
// failure and of the last repair, and (on request) every failure time, from which a
// reliability-aware allocator fits a law. The engine is its only writer and writes only what
// has happened by "now": placement policies read it and never anything of the future.
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace faultsweep::failures {

class NodeHistory {
 public:
  // `keep_times`: also record every failure time per node (a vector that grows: off unless a
  // policy asks for it, so the default hot loop does not allocate). The per-node arrays are
  // made at the first failure or repair, or when a reader asks for them whole: a replica
  // without failures on a large machine does not write them.
  void reset(int nodes, bool keep_times) {
    nodes_ = nodes;
    failures_.clear();
    last_failure_s_.clear();
    last_repair_s_.clear();
    times_.clear();
    total_failures_ = 0;
    keep_times_ = keep_times;
  }
  void record_failure(std::int32_t node, double t_s) {
    make();
    const auto i = static_cast<std::size_t>(node);
    ++failures_[i];
    ++total_failures_;
    last_failure_s_[i] = t_s;
    if (keep_times_) times_[i].push_back(t_s);
  }
  void record_repair(std::int32_t node, double t_s) {
    make();
    last_repair_s_[static_cast<std::size_t>(node)] = t_s;
  }

  int nodes() const { return nodes_; }
  // Failures of the node so far (a failure of a node already down counts too).
  std::int64_t failures(std::int32_t node) const { return made() ? failures_[idx(node)] : 0; }
  // Failures of all nodes so far: a reader keeping per-node counts knows from it whether any
  // changed since it last looked.
  std::int64_t total_failures() const { return total_failures_; }
  // -inf before the first failure / repair.
  double last_failure_s(std::int32_t node) const {
    return made() ? last_failure_s_[idx(node)] : kNever;
  }
  double last_repair_s(std::int32_t node) const {
    return made() ? last_repair_s_[idx(node)] : kNever;
  }
  bool keeps_times() const { return keep_times_; }
  // The per-node arrays (failures, last failure, last repair), for views that expose them to
  // a policy without copying; they stay where they are until the next reset.
  std::span<const std::int64_t> failure_counts() const { return make(), failures_; }
  std::span<const double> last_failures_s() const { return make(), last_failure_s_; }
  std::span<const double> last_repairs_s() const { return make(), last_repair_s_; }
  // Every failure time of the node so far, in order (empty unless keep_times). The times
  // between failures observed so far are the differences of consecutive entries.
  std::span<const double> failure_times_s(std::int32_t node) const {
    return keep_times_ && made() ? std::span<const double>(times_[idx(node)])
                                 : std::span<const double>();
  }

  static constexpr double kNever = -std::numeric_limits<double>::infinity();

 private:
  static std::size_t idx(std::int32_t node) { return static_cast<std::size_t>(node); }
  // The arrays exist (a machine has at least one node).
  bool made() const { return !failures_.empty(); }
  void make() const {
    if (made()) return;
    const auto n = static_cast<std::size_t>(nodes_);
    failures_.assign(n, 0);
    last_failure_s_.assign(n, kNever);
    last_repair_s_.assign(n, kNever);
    times_.assign(keep_times_ ? n : 0, {});
  }
  int nodes_ = 0;
  mutable std::vector<std::int64_t> failures_;
  std::int64_t total_failures_ = 0;
  mutable std::vector<double> last_failure_s_, last_repair_s_;
  mutable std::vector<std::vector<double>> times_;
  bool keep_times_ = false;
};

}  // namespace faultsweep::failures
