#pragma once
// Metric plug-ins of the cluster model. Each one watches the engine's signals (sim/signals.hpp)
// and reports what it measured by name at the end of a replica. A new metric is one file in
// src/metrics/ (its Observer, its declarations and a factory) plus one row in
// src/metrics/registry.cpp: the cluster model appends the rows' metrics to its results, after
// the built-in, the strategies', the allocators' and the size choosers' metrics, in row order, and
// `faultsweep models cluster` lists them.
#include <cstddef>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "faultsweep/core/param_spec.hpp"
#include "faultsweep/sim/signals.hpp"

namespace faultsweep::metrics {

// What a plug-in may size itself by, once, before the run (no allocation during it).
struct RunShape {
  int nodes = 0;
  std::size_t jobs = 0;
};

struct MetricPlugin {
  std::string_view name;
  std::string_view help;
  std::vector<MetricSpec> (*metrics)();  // what it reports: name, unit, description
  std::unique_ptr<sim::Observer> (*make)(const RunShape& shape);
};

std::span<const MetricPlugin> metric_plugins();
// Every row's metrics, in row order.
std::vector<MetricSpec> plugin_metrics();

}  // namespace faultsweep::metrics
