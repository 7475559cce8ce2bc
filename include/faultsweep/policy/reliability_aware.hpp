#pragma once
// Reliability-aware allocation (Gottumukkala Ch. 5 and §6.4): per-node reliability from MLE
// fits of the failures seen so far (reliability/online.hpp), refitted every `refit`.
//
//   ras   (Fig. 5.1): the k adjacent free nodes whose series reliability over the job's run time
//         x is largest, R_sys = prod_i R_i(t_i + x | t_i) (Eq. 5.4).
//   ljras (Fig. 5.4): jobs with run time > ljras_threshold (1 day in the thesis) get the most
//         reliable k adjacent free nodes, the others the least reliable (min R_sys).
//   ra    (§6.4.1.3): the k most reliable free nodes, adjacent or not.
//   R_i is Eq. 5.2 (reliability_law = "weibull", excess life after the time t_i since the node's
//   last failure) or Eq. 5.3 ("exponential").
//
// "Adjacent" (our reading): consecutive in node-id order among the FREE nodes, i.e. the windows
// of k successive members of the free set listed by id (busy and down nodes are skipped, no
// wrap-around). This is the reading under which round robin (§5.3.3 "selects k adjacent
// processors in the order of the node numbers", policy::RoundRobin: the next free ids) is
// adjacent too, and a job that fits in the free count can always start (FCFS of Fig. 5.1 line 3
// only checks that k processors are available). Ties: the lowest first id.
//
// The job's run time x is AllocationContext::est_wall_s (the estimate at the size it runs;
// SWF jobs with estimate = "runtime" give the real run time, as the thesis's simulator used).
//
// Size choosers for moldable jobs (Gottumukkala §6.4.1):
//   ra_opt (Fig. 6.6): nodes sorted by descending reliability over the one-node run time
//         T_c(1); k grows from 1 while E[T_c(k + 1)] <= E[T_c(k)] (Eq. 6.1, Amdahl Eq. 6.2 with
//         the workload's serial fraction), k up to every free node (it may exceed the request).
//         Pair it with allocator "ra" (the k most reliable free nodes).
//   all   (§6.4.1.1): every available (up) node; it waits until no job holds any: a failed job
//         restarts on as many nodes as it first got (its size is fixed at the first start).
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "faultsweep/core/param_spec.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/policy/allocator.hpp"
#include "faultsweep/policy/reliability_order.hpp"
#include "faultsweep/policy/size_chooser.hpp"
#include "faultsweep/reliability/online.hpp"

namespace faultsweep::policy {

enum class ReliabilityMode { ras, ljras, ra };

class ReliabilityAllocator final : public Allocator {
 public:
  // Throws InputError("ljras_threshold", ...) for a threshold < 0 (or NaN).
  ReliabilityAllocator(ReliabilityMode mode, reliability::OnlineOptions options,
                       double threshold_s);
  using Allocator::allocate;
  std::string_view name() const override;
  bool needs_failure_times() const override { return true; }
  void allocate(const AllocationContext& ctx, const NodeSet& free,
                std::span<std::int32_t> out) override;
  const reliability::OnlineReliability& model() const { return model_; }
  void report(MetricSink& sink) const override {
    sink.add("allocator_node_fits", static_cast<double>(model_.node_fits()));
  }

 private:
  // Mode ra: the k least (hazard, id) of the free nodes.
  void allocate_most_reliable(const AllocationContext& ctx, const NodeSet& free,
                              std::span<std::int32_t> out);

  ReliabilityMode mode_;
  reliability::OnlineReliability model_;
  ReliabilityOrder order_nodes_;
  double threshold_s_;
  std::vector<std::int32_t> ids_;
  std::vector<double> hazard_;
  std::vector<std::pair<double, std::int32_t>> order_;
};

// The best window of k consecutive entries of `hazard` (sum of -log R_i, Eq. 5.4 in logs):
// the least sum if `most_reliable`, else the greatest; ties: the first. Returns its start.
std::size_t best_window(std::span<const double> hazard, std::size_t k, bool most_reliable);

// One node as RA-Opt sees it: fitted Weibull shape and scale (s; shape 1: exponential; scale
// +inf: never fails) and its age (time since its last failure, s).
struct PlanNode {
  double shape = 1, scale_s = 0, age_s = 0;
  double hazard(double x_s) const;  // -log R(age + x | age), Eq. 5.2 / 5.3
  // The same, given at_age() (Eq. 5.2's (age/eta)^beta: constant over x, so computed once when
  // one node's hazard is wanted at many x).
  double hazard(double x_s, double at_age) const;
  double at_age() const;
};

// Eq. 6.1 for the first k nodes of `nodes` (already in RA-Opt's order): T_c(k) + (M + R) F /
// (1 - F), T_c(k) = T_c(1) t(k) (Amdahl, Eq. 6.2, or Gustafson, Eq. 6.3: workload::Speedup), F =
// 1 - R_sys(T_c(k)) (Eq. 4.10), M = int_0^inf R_sys (Eq. 4.12). Brute force (for tests).
double expected_completion(std::span<const PlanNode> nodes, int k, double runtime_one_s,
                           const workload::Speedup& speedup, double recovery_s);

// Fig. 6.6: k = 1, grown while E[T_c(k + 1)] <= E[T_c(k)], k <= nodes.size(). `nodes` sorted by
// ascending hazard over T_c(1). Incremental: M = sum_q w_q R_sys(y_q) on one quadrature grid
// (reliability::survival_grid from 2^-30 to 1 x the median of the first node that can fail),
// R_sys kept as the product of the nodes' survivals. If `expected` is given, E[T_c(k)] of each
// k looked at (1, 2, ..., at most the k returned + 1) is appended to it.
int ra_opt_grow(std::span<const PlanNode> nodes, double runtime_one_s,
                const workload::Speedup& speedup, double recovery_s,
                std::vector<double>* expected = nullptr);

class RaOptSize final : public SizeChooser {
 public:
  RaOptSize(reliability::OnlineOptions options, double recovery_s);
  using SizeChooser::choose;
  std::string_view name() const override { return "ra_opt"; }
  bool needs_failure_times() const override { return true; }
  bool may_exceed_request() const override { return true; }
  std::int32_t choose(const SizeRequest& r) const override;
  const reliability::OnlineReliability& model() const { return model_; }
  void report(MetricSink& sink) const override {
    sink.add("size_chooser_node_fits", static_cast<double>(model_.node_fits()));
  }

 private:
  mutable reliability::OnlineReliability model_;
  mutable ReliabilityOrder order_nodes_;
  double recovery_s_;
  mutable std::vector<std::pair<double, std::int32_t>> order_;
  mutable std::vector<PlanNode> plan_;
};

class AllSize final : public SizeChooser {
 public:
  using SizeChooser::choose;
  std::string_view name() const override { return "all"; }
  bool may_exceed_request() const override { return true; }
  std::int32_t choose(const SizeRequest& r) const override;
};

// The cluster model's keys of this file (appended to ClusterModel::params()):
// reliability_law, refit, ljras_threshold, ra_opt_recovery.
std::vector<ParamSpec> reliability_param_specs();
// Checks them against the point's allocator / moldable_size (InputError naming the key).
void validate_reliability(const Params& point);
// Whether the point's allocator or size chooser keeps an online reliability model per node.
bool uses_reliability_model(const Params& point);
// The point's allocator / size chooser, built with the point's own keys.
std::unique_ptr<Allocator> make_point_allocator(const Params& point);
std::unique_ptr<SizeChooser> make_point_size_chooser(const Params& point);

// Registry factories (src/policy/registry.cpp rows); keys absent from `p` take their defaults.
std::unique_ptr<Allocator> make_reliability_allocator(ReliabilityMode mode, const Params& p);
std::unique_ptr<SizeChooser> make_ra_opt(const Params& p);

}  // namespace faultsweep::policy
