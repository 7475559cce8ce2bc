#pragma once
// The cluster model's side of Zhang et al. §5.2 (private to src/models): which strategies are
// Zhang's, what they need from the point, and the `zhang` table's parameter spec.
#include <string_view>

#include "faultsweep/core/param_spec.hpp"
#include "faultsweep/core/params.hpp"

namespace faultsweep::models {

// predict_exact, bucket_all, bucket_long, bucket_big, lff_migrate.
bool is_zhang_strategy(std::string_view name);
// The bucket strategies read the engine's predictor (the `predictor` table) at bucket starts.
bool zhang_uses_predictor(std::string_view name);
// The strategies that ask jobs to checkpoint: they pay checkpoint_cost even with
// checkpoint = "none" (which then only means: no periodic checkpoints).
bool zhang_checkpoints(const Params& p);
// Checks a point whose strategy is Zhang's: the `zhang` table (errors name zhang.<key>), the
// predictor and failure process the bucket strategies need, checkpoint_cost > 0.
void validate_zhang(const Params& p);
ParamSpec zhang_param_spec();

}  // namespace faultsweep::models
