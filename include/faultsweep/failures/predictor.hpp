#pragma once
// The emulated failure predictor of FARS (Li, Lan, Gujrati, Sun, "Fault-Aware Runtime Strategies
// for HPC", §5.1 and Table 1). Every FARS interval the engine hands it the nodes that really fail
// in the next interval (from the failure lookahead) and an engine on Purpose::predictor; it
// answers with the nodes it reports as failure-prone ("suspicious nodes", §2):
//   - recall:    each distinct really-failing node is reported with probability `recall`;
//   - precision: for the x true reports of the interval, x (1 - p) / p false alarms are placed
//                on distinct nodes that do not fail in the interval, chosen uniformly at random.
//                x (1 - p) / p is rarely an integer: its fractional part is rounded up with that
//                probability (randomized rounding), so the expected number of false alarms is
//                exactly x (1 - p) / p and the long-run precision is exactly p. When fewer
//                non-failing nodes exist than needed, all of them are reported and the missing
//                false alarms are counted as `shortfall` (measured precision then exceeds p).
// The paper places its false alarms on "intervals without an actual failure" (node-intervals);
// placing them per interval, in proportion to that interval's true reports, gives the same
// long-run precision and keeps the predictor a function of the current interval only.
//
// Randomness: only the engine passed in, drawn in a fixed order (recall draws in the order of
// the distinct failing nodes as given, then one rounding draw, then the false-alarm draws);
// no draw is made when its outcome is certain (recall = 1, an integer number of false alarms),
// so the perfect predictor consumes no random numbers. Steady state allocates nothing: every
// buffer is sized for `nodes` in the constructor.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "faultsweep/core/param_spec.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/core/rng.hpp"

namespace faultsweep::failures {

// Running totals over all intervals predicted so far. Recall = true / (true + missed),
// precision = true / (true + false).
struct PredictionCounts {
  std::int64_t intervals = 0;
  std::int64_t true_positives = 0;   // really-failing nodes reported
  std::int64_t false_positives = 0;  // false alarms (reported nodes without a failure)
  std::int64_t missed = 0;           // really-failing nodes not reported
  std::int64_t shortfall = 0;        // false alarms wanted but impossible (too few nodes)

  double precision() const;  // NaN before the first report
  double recall() const;     // NaN before the first real failure
};

class Predictor {
 public:
  enum class Kind { none, emulated };

  // An emulated predictor; precision in [1e-9, 1] and recall in (0, 1], else InputError on
  // "predictor.precision" / "predictor.recall". precision = recall = 1 is the perfect predictor.
  Predictor(int nodes, double precision, double recall);
  // The "none" predictor: never reports anything (every failure counts as missed).
  static Predictor none(int nodes);
  // From the job file's `predictor` table (keys without the "predictor." prefix):
  // { kind = "none" } or { precision = p, recall = r } (kind = "emulated" may be given; both
  // precision and recall are then required). Errors name "predictor.<key>".
  static Predictor from_table(const Params& table, int nodes);

  // The `predictor` key of a job file: its sub-keys (kind, and per kind its keys, with their
  // ranges) for the reference; from_table accepts exactly these.
  static ParamSpec table_spec();

  Kind kind() const { return kind_; }
  int nodes() const { return nodes_; }
  double precision() const { return precision_; }
  double recall() const { return recall_; }
  const PredictionCounts& counts() const { return counts_; }

  // One interval. `failing` holds the node ids (0 .. nodes-1) that really fail in the interval,
  // repeats allowed (a node failing twice counts once). `out` is cleared and receives the
  // predicted node ids: the true reports in the order of `failing`, then the false alarms.
  // `out` never holds more than nodes() ids: reserve that once and nothing is allocated.
  void predict(std::span<const std::int32_t> failing, Engine& engine,
               std::vector<std::int32_t>& out);

 private:
  Predictor(Kind kind, int nodes, double precision, double recall);
  // Moves node `n` to position `last` of the pool (keeping pos_ consistent).
  void swap_to(std::int32_t n, std::size_t last);

  Kind kind_;
  int nodes_;
  double precision_, recall_;
  double false_per_true_;  // (1 - p) / p
  PredictionCounts counts_;
  std::vector<std::uint32_t> stamp_;  // stamp_[n] == epoch_: n fails in this interval
  std::uint32_t epoch_ = 0;
  std::vector<std::int32_t> pool_;  // a permutation of the node ids
  std::vector<std::int32_t> pos_;   // pos_[n]: index of n in pool_
};

}  // namespace faultsweep::failures
