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

void FarsRuntime::on_tick(const ClusterView& v, Decisions& out) {
  ++invocations_;
  pool_.clear();
  const auto predicted = v.predicted();
  if (predicted.empty() || kind_ == FarsStrategy::none) return;
  for (const std::int32_t n : predicted) predicted_[static_cast<std::size_t>(n)] = 1;

  // §3.2: the spare pool.
  const int extra = reservation_extra(v);
  const NodeSet& free = v.free();
  for (int n = free.next_from(0); n >= 0 && static_cast<int>(pool_.size()) < extra;
       n = free.next_from(n + 1))
    if (predicted_[static_cast<std::size_t>(n)] == 0) pool_.push_back(n);
  pool_sum_ += static_cast<double>(pool_.size());

  // §4: the suspicious jobs and the selection.
  suspicious_.clear();
  for (const Release& r : v.running()) {
    const JobView j = v.job(r.job);
    if (!j.running) continue;
    std::int32_t s = 0;
    for (const std::int32_t n : j.nodes) s += predicted_[static_cast<std::size_t>(n)];
    if (s == 0) continue;
    SuspiciousJob sj;
    sj.id = j.id;
    sj.size = j.size;
    sj.suspicious = s;
    sj.safe_point_s = j.safe_point_s;
    sj.runtime_s = std::max(j.estimate_s, 1e-9);
    suspicious_.push_back(sj);
  }
  if (!suspicious_.empty() && !pool_.empty()) {
    GainInputs in;
    in.now_s = v.now_s();
    in.precision = precision_;
    in.interval_s = cfg_.interval_s;
    in.overhead_s = cfg_.migration_overhead_s();
    in.restart_s = cfg_.restart_cost_s;
    in.queue_wait_s = queue_wait_.estimate_s();
    selector_.select(kind_, suspicious_, in, static_cast<std::int32_t>(pool_.size()), selection_);
    // Move the suspicious processes of each selected job (then the residual job's first
    // residual_nodes ones) to pool nodes, lowest first.
    std::size_t next = 0;
    const auto move_job = [&](std::int64_t id, std::int32_t limit) {
      const JobView j = v.job(static_cast<std::int32_t>(id));
      std::int32_t moved = 0;
      for (const std::int32_t n : j.nodes) {
        if (moved == limit || next == pool_.size()) break;
        if (predicted_[static_cast<std::size_t>(n)] == 0) continue;
        out.moves.push_back({j.id, n, pool_[next++], in.overhead_s});
        ++moved;
      }
    };
    for (const std::int64_t id : selection_.jobs)
      move_job(id, std::numeric_limits<std::int32_t>::max());
    if (selection_.has_residual) move_job(selection_.residual_job, selection_.residual_nodes);
  }
  for (const std::int32_t n : predicted) predicted_[static_cast<std::size_t>(n)] = 0;
}

}  // namespace faultsweep::policy
