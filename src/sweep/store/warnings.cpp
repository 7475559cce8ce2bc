#include "faultsweep/sweep/warnings.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace faultsweep::sweep {

namespace {
constexpr const char* kFlagPrefix = "flagged replicas: ";
}

std::vector<std::string> result_warnings(const std::vector<std::string>& notices,
                                         const JobSpec& job, const ResultTable& t) {
  std::vector<std::string> out = notices;
  const auto& metrics = job.model->metrics();
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    if (metrics[m].unit != "flag") continue;
    std::size_t done = 0, raised = 0;
    for (std::size_t k = 0; k < t.tasks(); ++k) {
      if (!t.done[k]) continue;
      ++done;
      raised += t.values[m * t.tasks() + k] == 1.0;
    }
    if (raised > 0)
      out.push_back(fmt::format("{}warning: {} = 1 in {} of {} finished replicas: {}", kFlagPrefix,
                                metrics[m].name, raised, done, metrics[m].description));
  }
  return out;
}

std::vector<std::string> notices_of(const std::vector<std::string>& warnings) {
  std::vector<std::string> out;
  for (const std::string& w : warnings)
    if (w.rfind(kFlagPrefix, 0) != 0) out.push_back(w);
  return out;
}

void add_new(std::vector<std::string>& into, const std::vector<std::string>& more) {
  for (const std::string& w : more)
    if (std::find(into.begin(), into.end(), w) == into.end()) into.push_back(w);
}

}  // namespace faultsweep::sweep
