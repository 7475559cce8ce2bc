// What the sacct reader kept, dropped and changed (workload/sacct.hpp), by name and as the one
// line printed at load time and stored under /inputs.
#include <fmt/format.h>

#include "faultsweep/workload/sacct.hpp"

namespace faultsweep::workload {

std::vector<std::pair<std::string, std::int64_t>> SacctStats::counts() const {
  std::vector<std::pair<std::string, std::int64_t>> out = {
      {"lines", lines},
      {"jobs", jobs},
      {"steps", steps},
      {"bad_lines", bad_lines},
      {"not_started", not_started},
      {"cancelled_before_start", cancelled_before_start},
      {"revoked", revoked},
      {"running", running},
      {"running_cut", running_cut},
      {"other_partition", other_partition},
      {"before_start", before_start},
      {"unknown_submit", unknown_submit},
      {"no_runtime", no_runtime},
      {"no_size", no_size},
      {"too_large", too_large},
      {"estimate_fixed", estimate_fixed}};
  for (std::size_t i = 0; i < kSacctKeptStates.size(); ++i)
    out.emplace_back("kept_" + std::string(kSacctKeptStates[i]), kept_by_state[i]);
  return out;
}

std::string SacctStats::summary() const {
  std::string kept, dropped, changed;
  const auto add = [](std::string& to, std::int64_t n, std::string_view what) {
    if (n > 0) to += fmt::format("{}{} {}", to.empty() ? "" : ", ", n, what);
  };
  for (std::size_t i = 0; i < kSacctKeptStates.size(); ++i)
    add(kept, kept_by_state[i], kSacctKeptStates[i]);
  add(kept, running_cut, "running at the dump, cut there");
  add(dropped, bad_lines, "malformed lines");
  add(dropped, not_started, "never started");
  add(dropped, cancelled_before_start, "cancelled before their start");
  add(dropped, revoked, "revoked");
  add(dropped, running, "running at the dump");
  add(dropped, other_partition, "of other partitions");
  add(dropped, before_start, "submitted before the start");
  add(dropped, unknown_submit, "with unknown submit time");
  add(dropped, no_runtime, "with run time <= 0");
  add(dropped, no_size, "with unknown size");
  add(dropped, too_large, "wider than the machine");
  add(changed, estimate_fixed,
      "time limits unlimited, missing or below the run time set to "
      "the run time");
  std::string s = fmt::format("{} lines, {} jobs kept", lines, jobs);
  if (!kept.empty()) s += " (" + kept + ")";
  if (steps > 0) s += fmt::format("; {} job steps skipped", steps);
  if (!dropped.empty()) s += "; dropped: " + dropped;
  if (!changed.empty()) s += "; changed: " + changed;
  return s;
}

}  // namespace faultsweep::workload
