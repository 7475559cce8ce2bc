#pragma once
// A cluster replica's metric by name, from the values ClusterModel::run wrote in its order.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "faultsweep/models/cluster.hpp"

namespace faultsweep::testing {

inline double metric(const std::vector<double>& out, const std::string& name) {
  const auto& specs = models::ClusterModel().metrics();
  for (std::size_t i = 0; i < specs.size(); ++i)
    if (specs[i].name == name) return out[i];
  FAIL("no metric " << name);
  return 0;
}

}  // namespace faultsweep::testing
