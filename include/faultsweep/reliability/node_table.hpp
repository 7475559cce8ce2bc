#pragma once
// Per-node failure laws for the k_node model, in hours:
//  - a CSV table with a header naming the columns (any order, '#' comments):
//      shape,scale_h[,age_h]     Weibull shape and scale (shape = 1: exponential), node age
//      rate_per_h[,age_h]        exponential nodes given by their failure rate
//  - the HDF5 file of `faultsweep fit` (the per-node Weibull fits of one system: /nodes/...).
// Errors are InputError naming file:line, the column and the value.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

#include "faultsweep/reliability/system.hpp"

namespace faultsweep::reliability {

std::vector<Node> read_node_table(const std::filesystem::path& file);

// Nodes of `fit_file` whose Weibull fit exists (nodes with at least two failures), with age 0.
// A file holding several systems needs `system`.
std::vector<Node> read_fit_nodes(const std::filesystem::path& fit_file,
                                 std::optional<std::int64_t> system);

}  // namespace faultsweep::reliability
