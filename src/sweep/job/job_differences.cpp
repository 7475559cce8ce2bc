// Whether a results file may be resumed or merged with the job as it is now: the differences
// that matter (model, seed, record selection, replica rule, fixed values, axes, the sources of
// Python policies), each as one "key: before -> now" line.
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "faultsweep/core/params.hpp"
#include "faultsweep/sweep/job.hpp"
#include "faultsweep/sweep/provenance.hpp"
#include "faultsweep/sweep/space.hpp"

namespace faultsweep::sweep {

std::vector<std::string> job_differences(const JobSpec& before, const JobSpec& now) {
  std::vector<std::string> d;
  if (before.model->name() != now.model->name())
    d.push_back(fmt::format("sweep.model: {} -> {}", before.model->name(), now.model->name()));
  if (before.seed != now.seed)
    d.push_back(fmt::format("sweep.seed: {} -> {}", before.seed, now.seed));
  const auto rule = [](const ReplicaRule& r) {
    return r.adaptive() ? fmt::format("min {} max {} until {} ci95 {} rel_ci95 {}", r.min, r.max,
                                      r.metric, r.ci95, r.rel_ci95)
                        : fmt::format("{}", r.max);
  };
  if (before.record.text() != now.record.text())
    d.push_back(fmt::format("sweep.record: {} -> {}", before.record.text(), now.record.text()));
  if (rule(before.replicas) != rule(now.replicas))
    d.push_back(fmt::format("sweep.replicas: {} -> {}", rule(before.replicas), rule(now.replicas)));
  for (const auto& [k, v] : before.fixed.values()) {
    if (!now.fixed.has(k))
      d.push_back(fmt::format("params.{}: {} -> (not fixed)", k, canonical_value(v)));
    else if (canonical_value(now.fixed.at(k)) != canonical_value(v))
      d.push_back(fmt::format("params.{}: {} -> {}", k, canonical_value(v),
                              canonical_value(now.fixed.at(k))));
  }
  for (const auto& [k, v] : now.fixed.values())
    if (!before.fixed.has(k))
      d.push_back(fmt::format("params.{}: (not fixed) -> {}", k, canonical_value(v)));
  const auto axis_text = [](const Axis& a) {
    std::string s;
    for (const AxisMember& m : a.members) {
      s += m.key + "=[";
      for (std::size_t i = 0; i < m.values.size(); ++i)
        s += (i ? "," : "") + canonical_value(m.values[i]);
      s += "] ";
    }
    return s;
  };
  for (std::string& s : source_differences(before.text, now.text)) d.push_back(std::move(s));
  const std::size_t na = std::max(before.axes.size(), now.axes.size());
  for (std::size_t i = 0; i < na; ++i) {
    const std::string b = i < before.axes.size() ? axis_text(before.axes[i]) : "(none)";
    const std::string n = i < now.axes.size() ? axis_text(now.axes[i]) : "(none)";
    if (b != n) {
      const std::string name = i < now.axes.size() ? now.axes[i].name : before.axes[i].name;
      d.push_back(fmt::format("axes.{} changed: {}-> {}", name, b, n));
    }
  }
  return d;
}

}  // namespace faultsweep::sweep
