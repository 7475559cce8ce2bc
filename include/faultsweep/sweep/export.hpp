#pragma once
// `faultsweep export`: a recorded schedule (sweep/record_store.hpp) in the formats other tools
// read. A command of the binary rather than of the Python package, so that it works wherever a
// results file is, with nothing else installed.
//   swf         the Standard Workload Format with the simulated times, as the Parallel
//               Workloads Archive writes simulator output (a "; Version: 2.2" header): field 3
//               the wait (first start - submit), field 4 the run time (finish - first start,
//               failures included), field 11 status 1 for a completed job, 0 for one
//               unfinished at the horizon (its run time -1), fields 12-16 the log's user,
//               group, executable, queue and partition (-1 unknown); rejected jobs are left out.
//   batsim-csv  Batsim's jobs.csv, byte for byte as its exporter writes it (17 columns,
//               numbers as printf's "%f"): one line per job, in the order jobs left the
//               system; a job that ran several times appears with its last execution; one
//               started but not completed at the horizon as COMPLETED_KILLED (success 0), one
//               never started as REJECTED. consumed_energy is -1 (not modelled), metadata
//               empty. docs/records.md names the Batsim version it follows.
// The output is written whole or not at all (a temporary file renamed), and every write is
// checked, standard output included: a failure is an IoError that says why (full disk,
// read-only file system, ...).
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
