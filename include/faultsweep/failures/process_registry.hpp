#pragma once
// One row per failure process (`failures = { process = "...", ... }`) and per trace format
// (`process = "trace", format = "..."`): name, one-line help, its keys (ParamSpecs: type, unit,
// default, range), its parser, its factory and what the model may ask of it without a name
// test. The factory (failures/factory.hpp), the allowed keys of a table, the "expected one of"
// of an error and the job-file reference (`faultsweep models cluster --markdown`) are all
// derived from the rows.
//
// Adding a failure process = one file src/failures/process_<name>.cpp defining `ProcessRow
// <name>_process()` (its keys, parser and factory next to it) + one line X(<name>_process) in
// src/failures/process_table.cpp; a trace format likewise, trace_format_<name>.cpp + one line in
// src/failures/trace_formats.cpp.
#include <filesystem>
#include <memory>
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
#include "faultsweep/dist/distribution.hpp"
#include "faultsweep/failures/failure_source.hpp"
#include "faultsweep/failures/fta.hpp"
#include "faultsweep/failures/pnnl.hpp"
#include "faultsweep/failures/renewal.hpp"
#include "faultsweep/failures/slurm_events.hpp"
#include "faultsweep/failures/trace.hpp"
#include "faultsweep/failures/zhang.hpp"

namespace faultsweep::failures {

struct TraceFormatRow;
struct ProcessRow;

// What `process = "trace"` reads: the file and the options of its format's reader.
struct TraceSpec {
  std::string file;
  const TraceFormatRow* format = nullptr;
  std::int32_t node_offset = 0;
  bool stop_on_bad = false;
  LanlOptions lanl_options;
  PnnlOptions pnnl;
  FtaOptions fta;
  SlurmEventOptions slurm;
};

// A parsed `failures` table: the fields its process's parser fills.
struct FailureSpec {
  const ProcessRow* row = nullptr;
  std::optional<Lifetime> ttf;  // renewal, bathtub
  dist::Dist downtime = dist::Dist::constant(0.0);
  ZhangConfig zhang;
  TraceSpec trace;
};

struct ProcessTraits {
  // The events are finite and replayed whole (a trace, none): the run needs no generation
  // bound for them.
  bool finite = false;
  bool reads_file = false;  // `file` names an input file of the point
};

struct ProcessRow {
  std::string_view name;
  std::string_view help;
  // Its keys besides `process` (the reference lists them; the allowed keys are their names).
  std::vector<ParamSpec> (*keys)() = nullptr;
  // The allowed keys besides `process` when they depend on the table (a selector such as
  // renewal's `dist`, checked here first since it decides them); nullptr: the names of keys().
  std::vector<std::string> (*allowed)(const Params& table) = nullptr;
  // Reads the keys into `out` (InputErrors name the sub-key); called after the key check.
  void (*parse)(const TableReader& r, const Params& table, int nodes, FailureSpec& out) = nullptr;
  // The source of one replica; streams from ctx keyed by the table (DESIGN §4).
  std::unique_ptr<FailureSource> (*make)(const FailureSpec& s, const Params& table, int nodes,
                                         double horizon_s, const RunContext& ctx) = nullptr;
  // The mean time between failures of one node (Young / Daly); nullptr: the table gives none
  // (a trace), the point must set node_mtbf.
  double (*node_mtbf_s)(const Params& table, int nodes) = nullptr;
  // Load-time checks beyond the keys (reads a file); nullptr: none.
  void (*check)(const FailureSpec& s, const Params& table, int nodes,
                const std::filesystem::path& base_dir) = nullptr;
  // What reading its input file kept and dropped; nullptr: it reads no file.
  std::optional<InputReading> (*reading)(const FailureSpec& s, const Params& table,
                                         const std::filesystem::path& base_dir) = nullptr;
  ProcessTraits traits{};
};

struct TraceFormatRow {
  std::string_view name;
  std::string_view help;
  std::vector<ParamSpec> (*keys)() = nullptr;  // its keys besides the trace's common ones
  void (*parse)(const TableReader& r, TraceSpec& out) = nullptr;
  TraceLog (*read)(const TraceSpec& t, const std::filesystem::path& path) = nullptr;
  // Why a log of it has no failures (the error's text); nullptr: "no failures in the file".
  std::string (*no_failures)(const TraceSpec& t) = nullptr;
};

std::span<const ProcessRow> failure_processes();
std::span<const TraceFormatRow> trace_formats();

// Shared by the synthetic processes: the downtime keys and their parse.
std::vector<ParamSpec> downtime_specs();
dist::Dist parse_downtime(const TableReader& r);

}  // namespace faultsweep::failures
