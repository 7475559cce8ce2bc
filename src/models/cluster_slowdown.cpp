#include "cluster_slowdown.hpp"

#include <cmath>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"

namespace faultsweep::models {

ParamSpec slowdown_floor_spec() {
  ParamSpec s;
  s.name = "slowdown_floor";
  s.kind = ParamKind::duration;
  s.unit = "s";
  s.min = 0.0;
  s.optional = true;
  s.help =
      "run-time floor of the metric mean_slowdown_above_floor: only completed jobs whose "
      "failure-free run time (after load scaling) is at least this long count (default 1 h). "
      "Mean slowdown is dominated by jobs of seconds that wait hours; above a floor it measures "
      "what failures do to the jobs they can actually hit";
  return s;
}

double slowdown_floor_s(const Params& p) {
  if (!p.has("slowdown_floor")) return kDefaultSlowdownFloor_s;
  const double v = p.real("slowdown_floor");
  if (!(v >= 0) || !std::isfinite(v))
    throw InputError("slowdown_floor", format_duration(v), "a duration >= 0 (e.g. \"1h\")");
  return v;
}

}  // namespace faultsweep::models
