#pragma once
// Per-node failure laws for the k_node model, in hours:
//  - a CSV table with a header naming the columns (any order, '#' comments):
//      shape,scale_h[,age_h]     Weibull shape and scale (shape = 1: exponential), node age
//      rate_per_h[,age_h]        exponential nodes given by their failure rate
// (The HDF5 file of `faultsweep fit` is read by fit/fit.hpp's read_fit_nodes.)
// Errors are InputError naming file:line, the column and the value.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

#include "faultsweep/reliability/system.hpp"

namespace faultsweep::reliability {

std::vector<Node> read_node_table(const std::filesystem::path& file);

}  // namespace faultsweep::reliability
