#pragma once
// `faultsweep export`: a recorded schedule (sweep/record_store.hpp) in the formats other tools
// read. A command of the binary rather than of the Python package, so that it works wherever a
// results file is, with nothing else installed.
//   swf         the Standard Workload Format with the simulated times, as the Parallel
//               Workloads Archive writes simulator output: field 3 the wait (first start -
//               submit), field 4 the run time (finish - first start, failures included), field
//               11 status 1 for a completed job, 0 for one unfinished at the horizon (its run
//               time -1); rejected jobs are left out.
//   batsim-csv  Batsim's jobs.csv (the columns and units of its output, read by evalys): one
//               line per completed or rejected job; a job that ran several times (restarted
//               after a failure, moved) appears with its last execution: starting_time,
//               execution_time and allocated_resources are those of the execution that
//               completed. consumed_energy is -1 (not modelled), metadata empty.
#include <cstdint>
#include <string>

#include "faultsweep/sim/records.hpp"

namespace faultsweep::sweep {

struct ExportOptions {
  std::string file;  // results file
  std::uint64_t point = 0, replica = 0;
  std::string format;  // "swf" | "batsim-csv"
  std::string out;     // "" = standard output
};

// Writes the export; throws InputError (no such records, unknown format, existing --out) or
// IoError. Returns the exit code.
int export_schedule(const ExportOptions& opt);

// The texts themselves. `header` lines are written as SWF comments.
std::string swf_text(const sim::RecordTables& t, const std::string& header);
std::string batsim_csv_text(const sim::RecordTables& t);

}  // namespace faultsweep::sweep
