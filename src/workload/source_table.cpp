// The workload sources and speedup laws, in the order the errors and the reference list them.
// A new source is one file src/workload/source_<name>.cpp defining `SourceRow <name>_source()`
// (its keys, checks and factory) + one line X(<name>_source) here (sources.cmake globs the file).
#include "faultsweep/workload/source_registry.hpp"

#define FAULTSWEEP_WORKLOAD_SOURCES(X) \
  X(swf_source)                        \
  X(sacct_source)                      \
  X(batsim_source)                     \
  X(fars_source)                       \
  X(lublin_source)                     \
  X(zhang_source)

namespace faultsweep::workload {

#define FAULTSWEEP_DECLARE(row) SourceRow row();
FAULTSWEEP_WORKLOAD_SOURCES(FAULTSWEEP_DECLARE)
#undef FAULTSWEEP_DECLARE

std::span<const SourceRow> workload_sources() {
#define FAULTSWEEP_ROW(row) row(),
  static const std::vector<SourceRow> rows = {FAULTSWEEP_WORKLOAD_SOURCES(FAULTSWEEP_ROW)};
#undef FAULTSWEEP_ROW
  return rows;
}

namespace {

std::vector<ParamSpec> serial_fraction_key() {
  ParamSpec f = make_param("serial_fraction", ParamKind::real, "", Value(Speedup{}.serial_fraction),
                           "the serial fraction f of the speedup law", {}, 0.0);
  f.max = 1;
  return {f};
}

}  // namespace

// Run time at k nodes = run time at the requested size x t(k) / t(requested) (workload/job.hpp).
std::span<const SpeedupRow> speedup_laws() {
  static const SpeedupRow rows[] = {
      {"amdahl", "t(k) = f + (1 - f) / k (Gottumukkala §6.3.1, Eq. 6.2)", serial_fraction_key,
       SpeedupLaw::amdahl, true},
      {"linear", "t(k) = 1 / k (f = 0)", nullptr, SpeedupLaw::amdahl, false},
      {"gustafson", "t(k) = 1 / (f + k (1 - f)) (Gottumukkala §6.3.2, Eq. 6.3)",
       serial_fraction_key, SpeedupLaw::gustafson, true},
  };
  return rows;
}

}  // namespace faultsweep::workload
