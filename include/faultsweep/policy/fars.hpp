#pragma once
// FARS, the fault-aware runtime of Li, Lan, Gujrati & Sun (TPDS 2009), as a runtime strategy
// (policy/strategy.hpp). Every interval I_F (§5.1) it reads the predictor's reports for the
// next interval, builds the dynamic spare pool (§3.2: idle nodes, minus the predicted ones,
// minus the nodes the queue's reservation needs), finds the suspicious jobs (running on
// predicted nodes), selects which to reschedule by the gains of SUL-D, JFR-D or FSD-D and an
// exact 0-1 knapsack plus the residual rule (§4, policy/fars_select.hpp), and moves their
// suspicious processes to spare nodes at overhead O_F (§4.1: stop-and-restart O_ckp + O_r, or
// live O_r). O_q, the queue wait a failed job would suffer, is estimated from the queue waits
// of the jobs finished so far (LAST or MEAN, §4.2).
//
// Reservations: under FCFS/EASY the first queued job's reservation is kept by putting in the
// pool at most the extra nodes EASY would leave at its shadow time (the nodes free then beyond
// its need, counting every release at that instant); with an empty queue every idle,
// unpredicted node is a spare. A spare is used at once by a move (nothing is held between
// invocations), so the queue never loses a node to the pool. The exception is opt-in
// (fars.hold_vacated, not in the paper): a node a move vacates stays a spare until the next
// invocation, and may then delay the head job's reservation by up to I_F. Conservative backfilling
// is not supported (its reservations of every queued job are not in the view): an InputError.
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "faultsweep/core/param_spec.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/policy/fars_select.hpp"
#include "faultsweep/policy/strategy.hpp"

namespace faultsweep::policy {

class FarsRuntime final : public RuntimeStrategy {
 public:
  // `point`: the cluster point's parameters (nodes, queue, the `fars` and `predictor` tables).
  FarsRuntime(FarsStrategy kind, const Params& point);
  std::string_view name() const override { return to_string(kind_); }
  StrategyNeeds needs() const override;
  void on_tick(const ClusterView& view, Decisions& out) override;
  void on_job_end(const ClusterView& view, std::int32_t job, Decisions& out) override;
  // fars_metrics(): the pool per invocation, how often it binds, what it leaves unmoved.
  void report(MetricSink& sink) const override;

  // The spare pool of the last invocation (tests).
  const std::vector<std::int32_t>& last_pool() const { return pool_; }
  // The suspicious jobs of the last invocation that had a prediction (tests).
  const std::vector<SuspiciousJob>& last_suspicious() const { return suspicious_; }
  std::int64_t invocations() const { return invocations_; }
  double pool_node_invocations() const { return pool_sum_; }
  const std::vector<std::int32_t>& held() const { return held_; }  // vacated, not yet released

 private:
  int reservation_extra(const ClusterView& v) const;
  void release_held(const ClusterView& v, Decisions& out);
  void build_pool(const ClusterView& v);
  void find_suspicious(const ClusterView& v, std::span<const std::int32_t> predicted);
  void move_suspicious(const ClusterView& v, Decisions& out);

  FarsStrategy kind_;
  FarsConfig cfg_;
  double precision_ = 1.0;
  QueueWaitEstimator queue_wait_;
  FarsSelector selector_;
  std::vector<std::uint8_t> predicted_;  // by node
  std::vector<std::int32_t> pool_;
  std::vector<SuspiciousJob> suspicious_;
  // find_suspicious' scratch: the owners of the predicted nodes, then each suspicious job by
  // its estimated end.
  std::vector<std::int32_t> owners_;
  std::vector<std::pair<double, SuspiciousJob>> by_end_;
  FarsSelection selection_;
  std::vector<std::int32_t> held_;  // nodes the last invocation's moves vacated (hold_vacated)
  std::int64_t invocations_ = 0;
  double pool_sum_ = 0;
  std::int64_t suspicious_invocations_ = 0, empty_pool_invocations_ = 0;
  std::int64_t unmoved_for_spares_ = 0, held_total_ = 0;
};

// The metrics FarsRuntime::report gives (the FARS rows' StrategyTraits::metrics).
std::vector<MetricSpec> fars_metrics();

}  // namespace faultsweep::policy
