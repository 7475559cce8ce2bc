#pragma once
// FARS job rescheduling (Li, Lan, Gujrati, Sun, "Fault-Aware Runtime Strategies for HPC", §4):
// which suspicious jobs (jobs running on nodes the predictor reported) move their suspicious
// processes to the spare pool. Engine-independent: the engine describes each suspicious job in a
// plain struct and gets back job ids; it applies the moves.
//   1. gain v_i of moving job i: SUL-D (Eq. 2), JFR-D (Eq. 3) or FSD-D (Eq. 4), each scaled by
//      the job's failure probability f_i = 1 - (1 - precision)^(n_i^s) (Eq. 2);
//   2. an exact 0-1 knapsack (Eq. 1) solved by dynamic programming (Eq. 5): weight n_i^s,
//      capacity = the spare pool S;
//   3. the residual rule (§4.4): with R spare nodes left, one more job that does not fit is
//      chosen by its gain with f_i computed over n_i^s - R (see ResidualRule).
// Steady state allocates nothing: buffers are reserved for the sizes given to the constructor
// and reused (they grow, once, if a call exceeds them).
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "faultsweep/core/param_spec.hpp"
#include "faultsweep/core/params.hpp"

namespace faultsweep::policy {

enum class FarsStrategy { none, sul_d, jfr_d, fsd_d };
// "none" | "sul_d" | "jfr_d" | "fsd_d"; InputError on key "strategy" otherwise.
FarsStrategy fars_strategy_from(std::string_view name);
std::string_view to_string(FarsStrategy s);

// O_q from observed queue waits (FARS §4.2, FSD-D: "LAST or MEAN predictive method" [22]):
// LAST is the most recent observation, MEAN the mean of all so far; 0 before the first.
// Which waits are observed is the engine's choice (FARS: the re-queuing cost of a failed job).
class QueueWaitEstimator {
 public:
  enum class Mode { last, mean };
  explicit QueueWaitEstimator(Mode mode) : mode_(mode) {}
  void observe(double wait_s);
  double estimate_s() const;
  std::int64_t observations() const { return n_; }

 private:
  Mode mode_;
  std::int64_t n_ = 0;
  double last_s_ = 0.0, sum_s_ = 0.0;
};

// The `fars` table of a job file. O_F (§4.2, after Eq. 2): stop-and-restart costs a checkpoint
// and a restart, O_ckp + O_r; live migration costs O_r.
struct FarsConfig {
  enum class Overhead { stop_restart, live };
  double interval_s = 0.0;  // I_F, > 0
  Overhead overhead = Overhead::stop_restart;
  double checkpoint_cost_s = 0.0;  // O_ckp, >= 0
  double restart_cost_s = 0.0;     // O_r, >= 0
  QueueWaitEstimator::Mode queue_wait = QueueWaitEstimator::Mode::mean;
  // Not in the paper: keep the node a move frees out of the queue (a spare) until the next
  // invocation releases it, so the queue cannot start a job on a node predicted to fail.
  bool hold_vacated = false;

  double migration_overhead_s() const;  // O_F
  // Keys (without the "fars." prefix): interval (required, > 0), overhead ("stop_restart" |
  // "live", default stop_restart), checkpoint_cost (>= 0; required with stop_restart),
  // restart_cost (>= 0, required), queue_wait ("last" | "mean", default mean), hold_vacated
  // (a boolean, default false). Durations are seconds. Errors name "fars.<key>".
  static FarsConfig from_table(const Params& table);
};

// The `fars` table as the job file declares it (help, duration keys), and the check of a
// point's table (FarsConfig::from_table; errors name fars.<key>).
ParamSpec fars_table_spec();
void validate_fars_table(const Params& point);

// One suspicious job as the engine sees it at the FARS invocation.
struct SuspiciousJob {
  std::int64_t id = 0;          // unique; ties are broken by it
  std::int32_t size = 0;        // n_i, nodes of the job
  std::int32_t suspicious = 0;  // n_i^s, its nodes the predictor reported (1 .. size)
  double safe_point_s = 0.0;    // t_i^last: last checkpoint, or start if none (<= now)
  double runtime_s = 0.0;       // t_i: failure-free execution time (FSD-D), > 0
};

// Everything Eqs. 2-4 need besides the job.
struct GainInputs {
  double now_s = 0.0;         // t
  double precision = 1.0;     // of the predictor, (0, 1]
  double interval_s = 0.0;    // I_F
  double overhead_s = 0.0;    // O_F
  double restart_s = 0.0;     // O_r
  double queue_wait_s = 0.0;  // O_q (QueueWaitEstimator)
};

// f = 1 - (1 - precision)^n (FARS Eq. 2): the probability that at least one of n reported
// nodes really fails, each report being true with probability `precision`. 0 for n <= 0.
double failure_probability(double precision, int reported_nodes);

// v_i for a given f (Eqs. 2-4; see fars_select.cpp for the reading of each).
double fars_gain(FarsStrategy s, const SuspiciousJob& job, const GainInputs& in, double f);

// §4.4 prints f_i = 1 - (1 - precision)^(n_i^s - R): the failure probability of the processes
// left on reported nodes, used as is (`paper`). That rewards the job with the MOST processes
// left behind; `reduction` uses what moving R of them actually saves,
// (1 - p)^(n_i^s - R) - (1 - p)^(n_i^s). Default: the paper's.
enum class ResidualRule { paper, reduction };

struct FarsSelection {
  std::vector<std::int64_t> jobs;   // chosen by the knapsack, ascending id
  std::int32_t nodes_used = 0;      // sum of their n_i^s
  double gain = 0.0;                // sum of their v_i (Eq. 1's objective)
  bool has_residual = false;        // §4.4 chose one more job ...
  std::int64_t residual_job = 0;    // ... this one, which moves residual_nodes = R of its
  std::int32_t residual_nodes = 0;  // suspicious processes
  double residual_gain = 0.0;
  void clear();
};

// Exact 0-1 knapsack by dynamic programming (FARS Eq. 5), O(items x capacity).
// Tie-break: items are taken in index order and an item is taken only if it strictly improves
// the gain, so among optimal selections the result is the one whose highest-index member is as
// low as possible, then the next, ... (the smallest bit mask, item k = bit k). Items with
// value <= 0 are never taken. Weights >= 1.
class Knapsack {
 public:
  Knapsack(std::size_t max_items, std::int32_t max_capacity);
  // chosen[i] = 1 if item i is taken (resized to the number of items); returns the gain.
  double solve(std::span<const std::int32_t> weights, std::span<const double> values,
               std::int32_t capacity, std::vector<std::uint8_t>& chosen);

 private:
  std::vector<double> best_;        // best_[w]: max gain with capacity w (rolling row)
  std::vector<std::uint8_t> take_;  // take_[k * (cap + 1) + w]
};

class FarsSelector {
 public:
  FarsSelector(std::size_t max_jobs, std::int32_t max_spare_nodes);
  // Chooses among `jobs` (any order, distinct ids) with `spare_nodes` = S. Strategy none:
  // nothing. Returns into `out` (cleared first).
  void select(FarsStrategy s, std::span<const SuspiciousJob> jobs, const GainInputs& in,
              std::int32_t spare_nodes, FarsSelection& out,
              ResidualRule rule = ResidualRule::paper);

 private:
  Knapsack knapsack_;
  std::vector<std::size_t> order_;  // job indices by ascending id
  std::vector<std::int32_t> weights_;
  std::vector<double> values_;
  std::vector<std::uint8_t> chosen_;
};

}  // namespace faultsweep::policy
