// libFuzzer targets: one failure-log reader on arbitrary text, chosen at compile time
// (FAULTSWEEP_FUZZ_TRACE_LANL / _CSV / _FTA / _PNNL / _SLURM; fuzz/readers.cmake builds all).
// Bad input must end in InputError; an accepted log must hold what TraceSource relies on.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "faultsweep/core/error.hpp"
#include "faultsweep/failures/fta.hpp"
#include "faultsweep/failures/pnnl.hpp"
#include "faultsweep/failures/slurm_events.hpp"
#include "faultsweep/failures/trace.hpp"

namespace {

using namespace faultsweep::failures;

TraceLog parse(std::string_view text, unsigned choice) {
  const bool fail = choice & 1;
#if defined(FAULTSWEEP_FUZZ_TRACE_LANL)
  LanlOptions o;
  o.system = choice >> 4;
  o.stop_on_bad = fail;
  if (choice & 2) o.downtime = LanlDowntime::fixed_minus_started;
  if (choice & 4) o.causes = {"Hardware", "Software"};
  if (choice & 8) o.start_unix_s = 1e9;
  return parse_lanl(text, "fuzz.csv", o);
#elif defined(FAULTSWEEP_FUZZ_TRACE_CSV)
  (void)choice;
  return parse_trace_csv(text, "fuzz.csv", fail);
#elif defined(FAULTSWEEP_FUZZ_TRACE_FTA)
  FtaOptions o;
  o.stop_on_bad = fail;
  if (choice & 2) o.platform = 1;
  if (choice & 4) o.node_prefix = "n";
  return parse_fta(text, "event_trace.tab", o);
#elif defined(FAULTSWEEP_FUZZ_TRACE_PNNL)
  PnnlOptions o;
  o.downtime_s = 3600;
  o.stop_on_bad = fail;
  return parse_pnnl(text, "mpp2.csv", o);
#elif defined(FAULTSWEEP_FUZZ_TRACE_SLURM)
  SlurmEventOptions o;
  o.stop_on_bad = fail;
  o.max_host_names = 4096;  // else a few ranges of millions of names take each input's time
  if (choice & 2) o.reason = "not resp|fail";
  if (choice & 4) o.exclude_reason = "maint";
  if (choice & 8) o.node_list = "cn[001-016],gpu[1-4]";
  if (choice & 16) o.utc_offset_s = 3600;
  if (choice & 32) o.start_unix_s = 1.7e9;
  if (choice & 64) o.dump_unix_s = 1.8e9;
  return parse_slurm_events(text, "events.txt", o);
#else
#error "define one of FAULTSWEEP_FUZZ_TRACE_LANL, _CSV, _FTA, _PNNL, _SLURM"
#endif
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const TraceLog log = parse(text, size > 0 ? data[size - 1] : 0);
    if (log.events.empty() || log.summary().empty()) __builtin_trap();  // empty must throw
    for (const FailureEvent& e : log.events)
      if (!(e.time_s >= 0) || !std::isfinite(e.time_s) || !(e.downtime_s >= 0) ||
          !std::isfinite(e.downtime_s) || e.node < 0 || e.node >= log.nodes)
        __builtin_trap();
    // Replays without tripping an internal check.
    TraceSource source(log.events);
    while (std::isfinite(source.next().time_s)) {
    }
  } catch (const faultsweep::InputError&) {
  }
  return 0;
}
