#include "faultsweep/models/synthetic.hpp"

#include <chrono>

#include "faultsweep/core/metric_sink.hpp"
#include "faultsweep/dist/distribution.hpp"

namespace faultsweep::models {

std::string Synthetic::description() const {
  return "framework test model: spins `work` seconds of CPU per replica and returns a "
         "normal(mean, sd) draw and a uniform(0,1) draw";
}

const std::vector<ParamSpec>& Synthetic::params() const {
  static const std::vector<ParamSpec> specs{
      {"work",
       ParamKind::duration,
       "s",
       Value(0.01),
       0.0,
       3600.0,
       {},
       "CPU time each replica spins"},
      {"mean", ParamKind::real, "1", Value(0.0), -1e300, 1e300, {}, "mean of `value`"},
      {"sd", ParamKind::real, "1", Value(1.0), 0.0, 1e300, {}, "standard deviation of `value`"},
  };
  return specs;
}

const std::vector<MetricSpec>& Synthetic::metrics() const {
  static const std::vector<MetricSpec> specs{
      {"value", "1", "a normal(mean, sd) draw"},
      {"u", "1", "a uniform(0, 1) draw"},
  };
  return specs;
}

double Synthetic::cost(const Params& p, const std::filesystem::path&) const {
  return 1e-3 + p.real("work");
}

void Synthetic::run(const Params& p, const RunContext& ctx, std::span<double> out) const {
  const auto until =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(p.real("work"));
  Engine e = ctx.stream(Purpose::tiebreaks, p.canonical_text());
  while (std::chrono::steady_clock::now() < until) {
  }
  MetricSlots sink(out, metrics());  // by name (core/metric_sink.hpp)
  sink.add("value", p.real("mean") + p.real("sd") * dist::standard_normal(e));
  sink.add("u", uniform01(e));
  sink.require_all();
}

}  // namespace faultsweep::models
