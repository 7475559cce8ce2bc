#include "cluster_zhang.hpp"

#include <string>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/failures/predictor.hpp"
#include "faultsweep/policy/zhang_checkpointing.hpp"

namespace faultsweep::models {

bool is_zhang_strategy(std::string_view name) {
  return name == "predict_exact" || zhang_uses_predictor(name) || name == "lff_migrate";
}

bool zhang_uses_predictor(std::string_view name) {
  return name == "bucket_all" || name == "bucket_long" || name == "bucket_big";
}

bool zhang_checkpoints(const Params& p) {
  if (!p.has("strategy")) return false;
  const std::string name = p.str("strategy");
  return name == "predict_exact" || zhang_uses_predictor(name);
}

void validate_zhang(const Params& p) {
  const std::string name = p.str("strategy");
  (void)policy::zhang_config_of(p);  // its errors name zhang.<key>
  if (zhang_checkpoints(p) && !(p.real("checkpoint_cost") > 0))
    throw InputError("checkpoint_cost", format_duration(p.real("checkpoint_cost")),
                     "must be > 0 with strategy = \"" + name + "\" (it checkpoints jobs)");
  if (!zhang_uses_predictor(name)) return;
  if (p.sub("predictor").values().empty())
    throw InputError("predictor", "(missing)",
                     "required with strategy = \"" + name +
                         "\": { precision = 1, recall = 1 } is Zhang's exact bucket oracle");
  (void)failures::Predictor::from_table(p.sub("predictor"), static_cast<int>(p.integer("nodes")));
  const std::string process = p.has("failures.process") ? p.str("failures.process") : "none";
  if (process == "none")
    throw InputError("failures.process", "\"none\"",
                     "a failure process: strategy = \"" + name + "\" predicts failures");
}

ParamSpec zhang_param_spec() {
  ParamSpec s;
  s.name = "zhang";
  s.kind = ParamKind::table;
  s.optional = true;
  s.help =
      "Zhang §5.2 settings (strategy = predict_exact | bucket_all | bucket_long | bucket_big | "
      "lff_migrate; policy/zhang_checkpointing.hpp, least_failure_first.hpp): { buckets = n "
      "per day (>= 1, dividing 86400; default 6 = 4 h), interval = checkpoint interval within "
      "a flagged bucket (> checkpoint_cost, dividing the bucket; default min(1h, bucket)), "
      "long_run = 5min (bucket_long), big_k = 1 (bucket_big), lff_threshold = 1 (migrate when "
      "the failure counts differ by more), migration_overhead = 5min }";
  s.duration_keys = {"interval", "long_run", "migration_overhead"};
  return s;
}

}  // namespace faultsweep::models
