// Metrics by name into result slots (core/metric_sink.hpp).
#include "faultsweep/core/metric_sink.hpp"

#include <algorithm>
#include <string>

#include "faultsweep/core/error.hpp"

namespace faultsweep {

MetricSlots::MetricSlots(std::span<double> slots, std::span<const MetricSpec> specs)
    : slots_(slots), specs_(specs), written_(specs.size(), 0) {
  FS_CHECK(slots.size() == specs.size(), "metric slots and their specs differ in number");
  std::fill(slots_.begin(), slots_.end(), 0.0);
}

void MetricSlots::add(std::string_view name, double value) {
  for (std::size_t i = 0; i < specs_.size(); ++i)
    if (specs_[i].name == name) {
      slots_[i] = value;
      written_[i] = 1;
      return;
    }
  FS_CHECK(false, "metric \"" + std::string(name) + "\" was reported but is not declared");
}

void MetricSlots::require_all() const {
  for (std::size_t i = 0; i < specs_.size(); ++i)
    FS_CHECK(written_[i] != 0, "metric \"" + specs_[i].name + "\" was declared but not reported");
}

}  // namespace faultsweep
