#pragma once
// The `markov_availability` model: Plank & Thomason's availability chain M (JPDC 2001, §6) for
// one system, in one of three modes:
//   evaluate           A(a, I) for the given a and I (the full chain, solved by GTH)
//   optimize_interval  the I >= L_a that maximises A for the given a
//   optimize           the (a, I) that minimises the expected running time RT_a / A (§4, §8);
//                      without an app (no RT_a) the (a, I) that maximises A
// Parameters: the Plank system (avail/plank_system.hpp) plus `mode`, `a` and `I`.
#include "faultsweep/models/model.hpp"

namespace faultsweep::models {

class MarkovAvailability : public Model {
 public:
  MarkovAvailability();
  std::string name() const override { return "markov_availability"; }
  std::string description() const override;
  const std::vector<ParamSpec>& params() const override { return params_; }
  const std::vector<MetricSpec>& metrics() const override { return metrics_; }
  bool deterministic() const override { return true; }
  void validate(const Params& p, const std::filesystem::path& base_dir) const override;
  double cost(const Params& p, const std::filesystem::path& base_dir) const override;
  void run(const Params& p, const RunContext& ctx, std::span<double> out) const override;

 private:
  std::vector<ParamSpec> params_;
  std::vector<MetricSpec> metrics_;
};

}  // namespace faultsweep::models
