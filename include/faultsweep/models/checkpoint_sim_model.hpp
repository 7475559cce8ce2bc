#pragma once
// `checkpoint_sim`: the availability of Plank & Thomason's checkpointing system by Monte Carlo
// (JPDC 2001, §9), one replica = one simulated horizon (avail/checkpoint_sim.hpp). With
// exponential failures and repairs it validates the Markov chain M, whose value it reports
// beside the simulation (`chain_availability`); with Weibull, lognormal or constant laws it
// answers what the chain cannot.
//
// Parameters: those of avail/plank_system.hpp (N, C, L, R, mttf, mttr or app + env), plus
//   a         integer   active processors, 1 <= a <= N (required)
//   I         duration  checkpoint interval, I >= L and I > C (required)
//   horizon   duration  simulated wall-clock time per replica (default 10000 d)
//   failures  dist      time to failure of one processor (default: exponential, mean mttf)
//   repairs   dist      repair time of one processor (default: exponential, mean mttr)
//
// Random streams depend only on N and the two distributions (DESIGN §4), so points that differ
// only in a, I, C, L or R see the same processor histories in the same replica (common random
// numbers): their differences have much smaller error bars than their values.
#include "faultsweep/models/model.hpp"

namespace faultsweep::models {

class CheckpointSimModel final : public Model {
 public:
  std::string name() const override { return "checkpoint_sim"; }
  std::string description() const override;
  const std::vector<ParamSpec>& params() const override;
  const std::vector<MetricSpec>& metrics() const override;
  bool deterministic() const override { return false; }
  void validate(const Params& p, const std::filesystem::path& base_dir) const override;
  double cost(const Params& p, const std::filesystem::path& base_dir) const override;
  void run(const Params& p, const RunContext& ctx, std::span<double> out) const override;
};

}  // namespace faultsweep::models
