#pragma once
// Zhang, Squillante, Sivasubramaniam & Sahoo (JSSPP 2004) §5.2: checkpointing driven by failure
// prediction, as runtime strategies (policy/strategy.hpp), and the settings of §5.2 read from the
// point's `zhang` table (shared with Least Failure First, policy/least_failure_first.hpp).
//
// predict_exact (§5.2.1, Fig. 7): perfect prediction of when and where. The engine warns the
// strategy ahead of every failure (StrategyNeeds::warning_lead_s, the perfect predictor of the
// strategy interface: a warning carries the failure's node and time); the job running on that
// node is told to checkpoint so that the checkpoint (cost C = checkpoint_cost) ends
// kExactMargin_s before the failure: the job loses C of wall time (plus the margin) instead of
// everything since its last checkpoint. Limits, by design of a warning-driven oracle: a job that
// starts on the node less than C before the failure (after the warning) is not checkpointed and
// loses what it ran (< C); a job that would have finished within C before the failure is still
// checkpointed (the oracle knows failures, not run times).
//
// bucket_all / bucket_long / bucket_big (§5.2.2, Figs. 8-10): a day (time 0 = midnight) is split
// into n = `buckets` buckets of B = 24 h / n. At the start of each bucket the predictor attached
// to the engine (failures/predictor.hpp; precision = recall = 1 is the paper's exact bucket
// oracle) is asked about the whole bucket (ClusterView::predict(B) at every B / I-th tick);
// the strategy uses only whether it reports anything — not which nodes, not when. If it does,
// checkpointing is on for that bucket: at the bucket's start and every I = `interval` after it (B /
// I checkpoints per bucket), the chosen running jobs checkpoint now:
//   - all:  every running job (Checkpoint All);
//   - long: the running jobs whose current execution has lasted >= `long_run` (5 min in the
//           paper; Checkpoint Long);
//   - big:  the `big_k` largest running jobs (k = 1 in the paper; ties: the earlier first start,
//           then the lower id; Checkpoint Big).
// The paper does not print its in-bucket interval; ours defaults to I = min(1 h, B): one hour is
// 12 checkpoint costs (5 min), so a flagged bucket costs a job at most 1/13 of its time, while a
// failure in it rolls the job back by at most 1 h (jobs of CTC-SP2 run 1.7-2.8 h on average).
// A checkpoint at the bucket's start commits all work done before the bucket.
#include <cstdint>
#include <string_view>
#include <vector>

#include "faultsweep/core/param_spec.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/policy/strategy.hpp"

namespace faultsweep::policy {

// The `zhang` table (keys without the prefix; every error names "zhang.<key>").
struct ZhangConfig {
  // buckets: integer >= 1 that divides 86,400 (a bucket is a whole number of seconds).
  std::int64_t buckets = 6;
  double bucket_s = 4 * 3600.0;
  // interval: > checkpoint_cost and dividing the bucket (B / I an integer); default min(1 h, B).
  double interval_s = 3600.0;
  double long_run_s = 300.0;  // long_run >= 0 (Checkpoint Long)
  std::int64_t big_k = 1;     // big_k >= 1 (Checkpoint Big)
  // Least Failure First (§5.2.3): migrate a process when failures(from) - failures(to) >
  // lff_threshold (an integer >= 0), at migration_overhead (>= 0; 5 min in the paper).
  std::int64_t lff_threshold = 1;
  double migration_overhead_s = 300.0;

  // `checkpoint_cost_s`: the point's checkpoint cost (interval must exceed it).
  static ZhangConfig from_table(const Params& table, double checkpoint_cost_s);
};

// Reads the point's `zhang` table and `checkpoint_cost`.
ZhangConfig zhang_config_of(const Params& point);
// The `zhang` table as the job file declares it, and the check of a point's table (errors name
// zhang.<key>).
ParamSpec zhang_table_spec();
void validate_zhang_table(const Params& point);

class PredictExact final : public RuntimeStrategy {
 public:
  // The checkpoint ends this long before the failure, so that rounding of event times never
  // puts the failure inside the checkpoint (which would lose the job's work).
  static constexpr double kExactMargin_s = 1e-3;

  explicit PredictExact(const Params& point);
  std::string_view name() const override { return "predict_exact"; }
  StrategyNeeds needs() const override;
  void on_warning(const ClusterView& view, const failures::FailureEvent& failure,
                  Decisions& out) override;

 private:
  double cost_s_;
};

enum class BucketChoice { all, longer, big };

class BucketCheckpointing final : public RuntimeStrategy {
 public:
  BucketCheckpointing(BucketChoice choice, const Params& point);
  std::string_view name() const override;
  StrategyNeeds needs() const override;
  void on_tick(const ClusterView& view, Decisions& out) override;

  // Buckets seen and buckets flagged (a failure predicted) so far (tests, reports).
  std::int64_t buckets_seen() const { return buckets_seen_; }
  std::int64_t buckets_flagged() const { return buckets_flagged_; }

 private:
  BucketChoice choice_;
  ZhangConfig cfg_;
  std::int64_t per_bucket_;  // ticks per bucket: B / I
  std::int64_t tick_ = 0;
  bool on_ = false;  // the current bucket is flagged
  std::int64_t buckets_seen_ = 0, buckets_flagged_ = 0;
  std::vector<JobView> big_;  // Checkpoint Big's candidates (reserved once)
};

}  // namespace faultsweep::policy
