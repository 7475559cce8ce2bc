#pragma once
// The `k_node` model (deterministic): Gottumukkala Ch. 4 and 6. For a job of one-node run time
// T_c(1) on the k most reliable of the given nodes: S(k), T_c(k) (Amdahl Eq. 6.2 / Gustafson
// Eq. 6.3), R_sys (Eq. 4.10), the system failure rate (Eq. 4.11), M (Eq. 4.12) and
// E[T_c(k)] (Eq. 6.1) at the requested k (or at the optimum), and the optimal k over 1..k_max.
// Nodes: identical (`node_failures`, a Weibull or exponential law, with `node_age`), a CSV table
// (`node_table`), or the per-node Weibull fits of a `faultsweep fit` file (`node_fit`).
#include "faultsweep/models/model.hpp"

namespace faultsweep::models {

class KNode : public Model {
 public:
  KNode();
  std::string name() const override { return "k_node"; }
  std::string description() const override;
  const std::vector<ParamSpec>& params() const override { return params_; }
  const std::vector<MetricSpec>& metrics() const override { return metrics_; }
  bool deterministic() const override { return true; }
  void validate(const Params& p, const std::filesystem::path& base_dir) const override;
  void run(const Params& p, const RunContext& ctx, std::span<double> out) const override;

 private:
  std::vector<ParamSpec> params_;
  std::vector<MetricSpec> metrics_;
};

}  // namespace faultsweep::models
