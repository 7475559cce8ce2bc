// The metric plug-ins, one row each (metrics/registry.hpp). A row's file is in this folder and
// is built without editing a source list.
#include "faultsweep/metrics/registry.hpp"

namespace faultsweep::metrics {

std::vector<MetricSpec> job_interruptions_metrics();
std::unique_ptr<sim::Observer> make_job_interruptions(const RunShape& shape);

std::span<const MetricPlugin> metric_plugins() {
  static const MetricPlugin rows[] = {
      {"job_interruptions", "the most failures that hit one job", job_interruptions_metrics,
       make_job_interruptions},
  };
  return rows;
}

std::vector<MetricSpec> plugin_metrics() {
  std::vector<MetricSpec> out;
  for (const MetricPlugin& p : metric_plugins())
    for (MetricSpec& m : p.metrics()) out.push_back(std::move(m));
  return out;
}

}  // namespace faultsweep::metrics
