#include "faultsweep/policy/fars.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "faultsweep/core/error.hpp"

namespace faultsweep::policy {

namespace {

int nodes_of_point(const Params& p) {
  return static_cast<int>(p.integer("nodes"));
}

}  // namespace

FarsRuntime::FarsRuntime(FarsStrategy kind, const Params& point)
    : kind_(kind),
      cfg_(FarsConfig::from_table(point.sub("fars"))),
      queue_wait_(cfg_.queue_wait),
      selector_(static_cast<std::size_t>(nodes_of_point(point)), nodes_of_point(point)) {
  const Params pred = point.sub("predictor");
  if (pred.has("precision")) precision_ = pred.real("precision");
  const auto n = static_cast<std::size_t>(nodes_of_point(point));
  predicted_.assign(n, 0);
  pool_.reserve(n);
  suspicious_.reserve(n);
  selection_.jobs.reserve(n);
}

StrategyNeeds FarsRuntime::needs() const {
  StrategyNeeds n;
  n.period_s = cfg_.interval_s;  // FARS is invoked every I_F from t = 0 (§5.1)
  n.job_ends = true;             // to observe queue waits for O_q
  return n;
}

void FarsRuntime::on_job_end(const ClusterView& view, std::int32_t job, Decisions&) {
  queue_wait_.observe(view.job(job).waiting_s);
}

// The nodes free at the head job's shadow time beyond its need (EASY's extra nodes), i.e. how
// many idle nodes can serve as spares without delaying its reservation; all of them when
// nothing waits.
int FarsRuntime::reservation_extra(const ClusterView& v) const {
  const auto waiting = v.waiting();
  const int free = v.free().count();
  if (waiting.empty()) return free;
  const std::int32_t need = v.job_info()[static_cast<std::size_t>(waiting.front())].size;
  if (need <= free) return free - need;  // it starts at this instant's pass: keep its nodes
  ShadowWalk walk(free, need, v.now_s());
  for (const Release& r : v.releases())
    if (!walk.add(r)) break;
  if (!walk.fits()) return 0;  // cannot tell when it fits: keep every node for it
  return std::min(free, walk.extra());
}

// fars.hold_vacated: the nodes the last invocation's moves vacated go back to the queue now. A
// held node that failed meanwhile is no longer a spare (it comes back idle from its repair).
void FarsRuntime::release_held(const ClusterView& v, Decisions& out) {
  for (const std::int32_t n : held_)
    if (v.node_use(n) == NodeUse::spare) out.release.push_back(n);
  held_.clear();
}

// §3.2: the spare pool, the idle unpredicted nodes EASY's head job can spare (lowest first).
void FarsRuntime::build_pool(const ClusterView& v) {
  const int extra = reservation_extra(v);
  const NodeSet& free = v.free();
  for (int n = free.next_from(0); n >= 0 && static_cast<int>(pool_.size()) < extra;
       n = free.next_from(n + 1))
    if (predicted_[static_cast<std::size_t>(n)] == 0) pool_.push_back(n);
}

// §4: the running jobs with at least one predicted node, in running() order (estimated end,
// then id). Found from the predicted nodes' owners: the cost follows the prediction, not the
// machine (a pass over every running job's nodes per invocation would be O(nodes)).
void FarsRuntime::find_suspicious(const ClusterView& v, std::span<const std::int32_t> predicted) {
  suspicious_.clear();
  owners_.clear();
  by_end_.clear();
  for (const std::int32_t n : predicted) {
    std::uint8_t& flag = predicted_[static_cast<std::size_t>(n)];
    if (flag == 0) continue;  // listed twice: counted once
    flag = 0;
    const std::int32_t owner = v.node_owner(n);
    if (owner >= 0) owners_.push_back(owner);
  }
  for (const std::int32_t n : predicted) predicted_[static_cast<std::size_t>(n)] = 1;
  std::sort(owners_.begin(), owners_.end());
  for (std::size_t a = 0, b = 0; a < owners_.size(); a = b) {
    while (b < owners_.size() && owners_[b] == owners_[a]) ++b;
    const JobView j = v.job(owners_[a]);
    if (!j.running) continue;
    SuspiciousJob sj;
    sj.id = j.id;
    sj.size = j.size;
    sj.suspicious = static_cast<std::int32_t>(b - a);
    sj.safe_point_s = j.safe_point_s;
    sj.runtime_s = std::max(j.estimate_s, 1e-9);
    by_end_.emplace_back(j.est_end_s, sj);
  }
  // Into running()'s order: estimated end, then id.
  std::sort(by_end_.begin(), by_end_.end(), [](const auto& x, const auto& y) {
    return x.first != y.first ? x.first < y.first : x.second.id < y.second.id;
  });
  for (const auto& e : by_end_) suspicious_.push_back(e.second);
}

void FarsRuntime::on_tick(const ClusterView& v, Decisions& out) {
  ++invocations_;
  // One prediction per invocation, over the interval until the next one (FARS §5.1), also
  // for `none` (the baseline's prediction counts).
  const auto predicted = v.predict(cfg_.interval_s);
  pool_.clear();
  if (kind_ == FarsStrategy::none) return;
  release_held(v, out);
  for (const std::int32_t n : predicted) predicted_[static_cast<std::size_t>(n)] = 1;
  build_pool(v);
  pool_sum_ += static_cast<double>(pool_.size());
  if (!predicted.empty()) {
    find_suspicious(v, predicted);
    if (!suspicious_.empty()) move_suspicious(v, out);
  }
  for (const std::int32_t n : predicted) predicted_[static_cast<std::size_t>(n)] = 0;
}

void FarsRuntime::move_suspicious(const ClusterView& v, Decisions& out) {
  GainInputs in;
  in.now_s = v.now_s();
  in.precision = precision_;
  in.interval_s = cfg_.interval_s;
  in.overhead_s = cfg_.migration_overhead_s();
  in.restart_s = cfg_.restart_cost_s;
  in.queue_wait_s = queue_wait_.estimate_s();
  // The jobs FARS would move with spares enough: those of positive gain (the knapsack takes
  // every one of them when they all fit).
  std::int64_t wanted = 0;
  for (const SuspiciousJob& j : suspicious_)
    if (fars_gain(kind_, j, in, failure_probability(precision_, j.suspicious)) > 0) ++wanted;
  ++suspicious_invocations_;
  if (pool_.empty()) {
    ++empty_pool_invocations_;
    unmoved_for_spares_ += wanted;
    return;
  }
  selector_.select(kind_, suspicious_, in, static_cast<std::int32_t>(pool_.size()), selection_);
  unmoved_for_spares_ += wanted - static_cast<std::int64_t>(selection_.jobs.size());
  // Move the suspicious processes of each selected job (then the residual job's first
  // residual_nodes ones) to pool nodes, lowest first.
  std::size_t next = 0;
  const auto move_job = [&](std::int64_t id, std::int32_t limit) {
    const JobView j = v.job(static_cast<std::int32_t>(id));
    std::int32_t moved = 0;
    for (const std::int32_t n : j.nodes) {
      if (moved == limit || next == pool_.size()) break;
      if (predicted_[static_cast<std::size_t>(n)] == 0) continue;
      out.moves.push_back({j.id, n, pool_[next++], in.overhead_s, cfg_.hold_vacated});
      if (cfg_.hold_vacated) held_.push_back(n);
      ++moved;
    }
  };
  for (const std::int64_t id : selection_.jobs)
    move_job(id, std::numeric_limits<std::int32_t>::max());
  if (selection_.has_residual) move_job(selection_.residual_job, selection_.residual_nodes);
  held_total_ += static_cast<std::int64_t>(held_.size());
}

void FarsRuntime::report(MetricSink& sink) const {
  const auto ratio = [](double a, std::int64_t b) {
    return b > 0 ? a / static_cast<double>(b) : 0.0;
  };
  sink.add("fars_pool_nodes", ratio(pool_sum_, invocations_));
  sink.add("fars_pool_empty",
           ratio(static_cast<double>(empty_pool_invocations_), suspicious_invocations_));
  sink.add("fars_unmoved_jobs", static_cast<double>(unmoved_for_spares_));
  sink.add("fars_held_nodes", static_cast<double>(held_total_));
}

std::vector<MetricSpec> fars_metrics() {
  return {
      {"fars_pool_nodes", "nodes",
       "mean size of FARS's spare pool per invocation (idle, unpredicted nodes the head job's "
       "EASY reservation can spare; strategy = sul_d | jfr_d | fsd_d, else 0)"},
      {"fars_pool_empty", "1",
       "fraction of the FARS invocations with suspicious jobs at which the spare pool was empty"},
      {"fars_unmoved_jobs", "1",
       "suspicious jobs of positive gain that FARS left (wholly or in part) on predicted nodes "
       "for lack of spares, summed over invocations"},
      {"fars_held_nodes", "1",
       "nodes vacated by FARS moves and held as spares until the next invocation "
       "(fars.hold_vacated = true; else 0)"},
  };
}

}  // namespace faultsweep::policy
