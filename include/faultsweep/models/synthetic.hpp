#pragma once
// `synthetic`: a model with a known answer and a settable cost, for testing and benchmarking the
// framework itself (determinism, resume, sweep efficiency). Each replica spins the CPU for `work`
// seconds and returns draws of a normal(mean, sd) and a uniform(0, 1) variable.
#include "faultsweep/models/model.hpp"

namespace faultsweep::models {

class Synthetic final : public Model {
 public:
  std::string name() const override { return "synthetic"; }
  std::string description() const override;
  const std::vector<ParamSpec>& params() const override;
  const std::vector<MetricSpec>& metrics() const override;
  bool deterministic() const override { return false; }
  double cost(const Params& p, const std::filesystem::path& base_dir) const override;
  void run(const Params& p, const RunContext& ctx, std::span<double> out) const override;
};

}  // namespace faultsweep::models
