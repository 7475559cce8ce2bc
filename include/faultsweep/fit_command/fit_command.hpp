#pragma once
// The `fit` command around reliability/'s analysis of failure logs: reading a log of any format
// into systems, the summary lines, and the HDF5 file it writes (and `inspect` reads).
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "faultsweep/reliability/fit_log.hpp"
#include "faultsweep/reliability/system.hpp"

namespace faultsweep::fit_command {

using reliability::FitLogOptions;
using reliability::SystemAnalysis;

// The root attribute `filetype` of the files `fit` writes.
inline constexpr const char* kFitFileType = "faultsweep-fit";

// Throws InputError when `fit` must not write `out` (io/output.hpp): it is the log, exists
// without `overwrite`, or is anything but an earlier fit file.
void check_fit_output(const std::filesystem::path& out, const std::filesystem::path& log,
                      bool overwrite);

// `faultsweep inspect` on a fit file: the log, options and one line per system. Throws
// IoError (H5Error) for a damaged file.
int inspect_fit_file(const std::filesystem::path& path, std::FILE* out);

// The log a fit was made from, as its file records it: which file (its size and SHA-256, so a
// result can be matched to its data), read as which format, and which of its nodes.
struct FitInput {
  std::string file, format;
  std::string node_filter;  // e.g. "System = 20", "platform_id = 20", "all" (see describe_filter)
  std::string sha256;
  std::uint64_t size_bytes = 0;
};

// Writes the analyses to `out` (filetype kFitFileType, schema_version 1), through a temporary
// file renamed at the end; checks `out` with check_fit_output first.
void write_fit_file(const std::filesystem::path& out, const std::vector<SystemAnalysis>& systems,
                    const FitInput& input, const FitLogOptions& options, bool overwrite);

// `faultsweep fit LOG [--system S] [--format lanl|csv|fta|pnnl] [--out FILE.h5]`: analyses the
// systems (all of a LANL file unless `system` is given; an FTA event trace has one system per
// platform_id, `system` picks one, `node_prefix` keeps node names starting with it; a csv trace
// "time_s,node,downtime_s" or a PNNL log (`node_pattern`) is one system, numbered 0), prints one
// summary line per system (and the bad lines) to `report`, and writes `out` if it is not empty.
// Returns the number of systems analysed.
int run_fit(const std::filesystem::path& log, const std::string& format, const std::string& out,
            bool overwrite, const FitLogOptions& options, std::FILE* report);

// The per-node Weibull laws of a fit file for the k_node model: nodes whose Weibull fit exists
// (at least two failures), with age 0. A file holding several systems needs `system`.
std::vector<reliability::Node> read_fit_nodes(const std::filesystem::path& fit_file,
                                              std::optional<std::int64_t> system);

}  // namespace faultsweep::fit_command
