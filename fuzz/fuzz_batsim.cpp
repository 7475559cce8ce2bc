// libFuzzer target: the Batsim JSON workload reader on arbitrary bytes. Bad input must end in
// InputError (never another exception, a crash or a sanitizer report); a workload it accepts
// must be usable by the simulator.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "faultsweep/core/error.hpp"
#include "faultsweep/workload/batsim.hpp"
#include "usable_workload.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace faultsweep::workload;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // The machine: the file's nb_res, or 64 simulated nodes (odd sizes), so both are explored.
  const int nodes = size % 2 == 1 ? 64 : 0;
  try {
    const BatsimWorkload b = parse_batsim(text, "fuzz.json", nodes);
    const Workload& w = b.workload;
    faultsweep::fuzz::require_usable(w);
    if (w.machine_nodes < 1 || (nodes > 0 && w.machine_nodes != nodes) ||
        w.stats.jobs != static_cast<std::int64_t>(w.jobs.size()) || w.jobs.empty() ||
        b.walltime_cut > w.stats.jobs)
      __builtin_trap();
  } catch (const faultsweep::InputError&) {
  }
  return 0;
}
