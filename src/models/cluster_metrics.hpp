#pragma once
// The cluster model's metric table (private to src/models): one row per metric.
#include <vector>

#include "faultsweep/models/model.hpp"
#include "faultsweep/sim/engine.hpp"

namespace faultsweep::models {

struct ClusterMetric {
  MetricSpec spec;
  double (*read)(const sim::Metrics&);
};

const std::vector<ClusterMetric>& cluster_metrics();

// Appends the waste-by-category rows (cluster_waste.cpp).
void append_waste_metrics(std::vector<ClusterMetric>& table);

}  // namespace faultsweep::models
