// The workload sources and speedup laws, in the order the errors and the reference list them.
// A source is one file defining its row (keys, checks, factory) + one line here.
#include "faultsweep/workload/source_registry.hpp"

namespace faultsweep::workload {

SourceRow swf_source();
SourceRow fars_source();
SourceRow lublin_source();
SourceRow zhang_source();

std::span<const SourceRow> workload_sources() {
  static const std::vector<SourceRow> rows = {swf_source(), fars_source(), lublin_source(),
                                              zhang_source()};
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
