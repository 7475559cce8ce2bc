// The failure processes of a `failures` table, in the order the errors and the reference list
// them. A new process is one file src/failures/process_<name>.cpp defining `ProcessRow
// <name>_process()` (its keys, parser and factory) + one line X(<name>_process) here
// (sources.cmake globs the file).
#include "faultsweep/failures/process_registry.hpp"

#define FAULTSWEEP_FAILURE_PROCESSES(X) \
  X(none_process)                       \
  X(renewal_process)                    \
  X(bathtub_process)                    \
  X(zhang_process)                      \
  X(trace_process)

namespace faultsweep::failures {

#define FAULTSWEEP_DECLARE(row) ProcessRow row();
FAULTSWEEP_FAILURE_PROCESSES(FAULTSWEEP_DECLARE)
#undef FAULTSWEEP_DECLARE

std::span<const ProcessRow> failure_processes() {
#define FAULTSWEEP_ROW(row) row(),
  static const std::vector<ProcessRow> rows = {FAULTSWEEP_FAILURE_PROCESSES(FAULTSWEEP_ROW)};
#undef FAULTSWEEP_ROW
  return rows;
}

}  // namespace faultsweep::failures
