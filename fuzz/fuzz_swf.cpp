// libFuzzer target: the SWF reader on arbitrary bytes (plain or gzip; the gzip magic 1f 8b in the
// first two bytes sends the rest through zlib). Bad input must end in InputError, never in a
// crash, a sanitizer report or an undefined conversion; a workload it accepts must be usable.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "faultsweep/core/error.hpp"
#include "faultsweep/workload/swf.hpp"
#include "usable_workload.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace faultsweep::workload;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  // The options come from the first byte, so every combination is explored.
  SwfOptions o;
  const unsigned choice = size > 0 ? data[0] : 0;
  o.size = choice & 1 ? SwfSize::allocated : SwfSize::requested;
  o.estimate = choice & 2 ? SwfEstimate::runtime : SwfEstimate::requested;
  o.bad_lines = choice & 4 ? BadLines::fail : BadLines::skip;
  o.procs_per_node = choice & 8 ? 4 : 1;
  o.machine_nodes = choice & 16 ? 64 : 0;
  try {
    const Workload w = parse_swf(bytes, "fuzz.swf", o);
    faultsweep::fuzz::require_usable(w);
    if (w.stats.jobs != static_cast<std::int64_t>(w.jobs.size()) || w.stats.summary().empty())
      __builtin_trap();
  } catch (const faultsweep::InputError&) {
  }
  return 0;
}
