#include "faultsweep/models/synthetic.hpp"

#include <chrono>
#include <string>
#include <thread>

#include "faultsweep/core/metric_sink.hpp"
#include "faultsweep/dist/distribution.hpp"

namespace faultsweep::models {

std::string Synthetic::description() const {
  return "framework test model: spins `work` seconds of CPU and sleeps `sleep` seconds per "
         "replica, and returns a normal(mean, sd) draw and a uniform(0,1) draw";
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
      {"sleep",
       ParamKind::duration,
       "s",
       Value(0.0),
       0.0,
       3600.0,
       {},
       "wall time each replica sleeps without CPU (a task that waits, e.g. to measure many "
       "oversubscribed ranks)"},
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
  return 1e-3 + p.real("work") + p.real("sleep");
}

namespace {

// The parameters' text without `sleep`, so a sleep leaves the draws of a job unchanged (and the
// streams of jobs written before `sleep` existed).
std::string stream_key(const Params& p) {
  std::string key = p.canonical_text();
  const auto at = key.find("sleep=");
  if (at != std::string::npos && (at == 0 || key[at - 1] == '\n'))
    key.erase(at, key.find('\n', at) - at + 1);
  return key;
}

}  // namespace

void Synthetic::run(const Params& p, const RunContext& ctx, std::span<double> out) const {
  const auto until =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(p.real("work"));
  Engine e = ctx.stream(Purpose::tiebreaks, stream_key(p));
  while (std::chrono::steady_clock::now() < until) {
  }
  if (p.real("sleep") > 0)
    std::this_thread::sleep_for(std::chrono::duration<double>(p.real("sleep")));
  MetricSlots sink(out, metrics());  // by name (core/metric_sink.hpp)
  sink.add("value", p.real("mean") + p.real("sd") * dist::standard_normal(e));
  sink.add("u", uniform01(e));
  sink.require_all();
}

}  // namespace faultsweep::models
