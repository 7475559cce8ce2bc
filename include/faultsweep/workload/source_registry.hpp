#pragma once
// One row per workload source (`workload = { source = "...", ... }`) and per speedup law of
// moldable jobs (`speedup = "..."`): name, one-line help, its keys (ParamSpecs: type, unit,
// default, range), its checks and its factory. The factory (workload/factory.hpp), the allowed
// keys of a table, the "one of" of an error and the job-file reference (`faultsweep models
// cluster --markdown`) are all derived from the rows.
//
// Adding a source = one file src/workload/source_<name>.cpp defining `SourceRow <name>_source()`
// (its keys, checks and factory next to it) + one line X(<name>_source) in
// src/workload/source_table.cpp.
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "faultsweep/core/input_reading.hpp"
#include "faultsweep/core/param_spec.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/core/registry_rows.hpp"
#include "faultsweep/core/run_context.hpp"
#include "faultsweep/core/table_reader.hpp"
#include "faultsweep/workload/job.hpp"

namespace faultsweep::workload {

struct SourceTraits {
  // target_load when the table gives none (0: the source's natural load).
  double default_target_load = 0;
  // `file` names an input file read whole at load time (a trace); else a generator whose
  // `jobs` key sets the count.
  bool reads_file = false;
};

struct SourceRow {
  std::string_view name;
  std::string_view help;
  // Its keys besides the common ones of every source (their names are the allowed keys).
  std::vector<ParamSpec> (*keys)() = nullptr;
  // Checks its keys (InputErrors name the sub-key); a trace's file must exist and be readable.
  void (*validate)(const TableReader& r, const std::filesystem::path& base_dir) = nullptr;
  // The jobs for one replica on `nodes` nodes, before load scaling and the common transforms;
  // sets machine_nodes. Generators draw from ctx's streams keyed by `stream_text`.
  Workload (*make)(const TableReader& r, int nodes, const std::string& stream_text,
                   const RunContext& ctx) = nullptr;
  // What reading its input file kept and dropped; nullptr: it reads no file.
  std::optional<InputReading> (*reading)(const TableReader& r, int nodes,
                                         const std::filesystem::path& base_dir) = nullptr;
  SourceTraits traits{};
};

struct SpeedupRow {
  std::string_view name;
  std::string_view help;
  std::vector<ParamSpec> (*keys)() = nullptr;  // its keys (serial_fraction)
  SpeedupLaw law = SpeedupLaw::amdahl;
  bool serial = true;  // reads serial_fraction; false: f = 0 (linear speedup)
};

std::span<const SourceRow> workload_sources();
std::span<const SpeedupRow> speedup_laws();

}  // namespace faultsweep::workload
