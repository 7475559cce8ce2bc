// The failure processes of a `failures` table, in the order the errors and the reference list
// them. A process is one file defining its row (keys, parser, factory) + one line here.
#include "faultsweep/failures/process_registry.hpp"

namespace faultsweep::failures {

ProcessRow none_process();
ProcessRow renewal_process();
ProcessRow bathtub_process();
ProcessRow zhang_process();
ProcessRow trace_process();

std::span<const ProcessRow> failure_processes() {
  static const std::vector<ProcessRow> rows = {none_process(), renewal_process(), bathtub_process(),
                                               zhang_process(), trace_process()};
  return rows;
}

}  // namespace faultsweep::failures
