// libFuzzer target: the PNNL reader with a user's node_pattern. The first line of the input is
// the pattern, the rest the log. Any pattern must end in InputError (naming node_pattern) or a
// match in linear time: a hang (-timeout) or a crash is a finding.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "faultsweep/core/error.hpp"
#include "faultsweep/failures/pnnl.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace faultsweep::failures;
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  const auto nl = all.find('\n');
  PnnlOptions o;
  o.downtime_s = 60;
  o.node_pattern = std::string(all.substr(0, nl));
  const std::string_view text = nl == std::string_view::npos ? "" : all.substr(nl + 1);
  try {
    const TraceLog log = parse_pnnl(text, "mpp2.csv", o);
    if (log.events.empty() || log.node_names.size() != static_cast<std::size_t>(log.nodes))
      __builtin_trap();
    for (const FailureEvent& e : log.events)
      if (!(e.time_s >= 0) || !std::isfinite(e.time_s) || e.node < 0 || e.node >= log.nodes)
        __builtin_trap();
  } catch (const faultsweep::InputError&) {
  }
  return 0;
}
