// libFuzzer target: the sacct --parsable2 reader on arbitrary bytes (plain or gzip / xz by their
// magic bytes). Bad input must end in InputError, never in a crash or a sanitizer report; a
// workload it accepts must be usable by the simulator.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "faultsweep/core/error.hpp"
#include "faultsweep/workload/sacct.hpp"
#include "usable_workload.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace faultsweep::workload;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  // The options come from the first byte, so every combination is explored.
  SacctOptions o;
  const unsigned choice = size > 0 ? data[0] : 0;
  o.size = choice & 1 ? SacctSize::cpus : choice & 2 ? SacctSize::tres : SacctSize::nodes;
  o.submit = choice & 4 ? SacctSubmit::eligible : SacctSubmit::submit;
  o.running = choice & 8 ? SacctRunning::cut : SacctRunning::drop;
  o.bad_lines = choice & 16 ? BadLines::fail : BadLines::skip;
  o.machine_nodes = choice & 32 ? 64 : 0;
  if (choice & 64) o.partitions = {"batch"};
  try {
    const SacctWorkload d = parse_sacct(bytes, "fuzz.txt", o);
    const Workload& w = d.workload;
    faultsweep::fuzz::require_usable(w);
    if (d.stats.jobs != static_cast<std::int64_t>(w.jobs.size()) || d.stats.summary().empty())
      __builtin_trap();
  } catch (const faultsweep::InputError&) {
  }
  return 0;
}
