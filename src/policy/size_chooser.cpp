#include "faultsweep/policy/size_chooser.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "faultsweep/core/error.hpp"

namespace faultsweep::policy {

std::int32_t MaxSize::choose(std::int32_t requested, int free_nodes) const {
  return requested <= free_nodes ? requested : 0;
}

std::int32_t FreeSize::choose(std::int32_t requested, int free_nodes) const {
  const std::int32_t k = std::min(requested, static_cast<std::int32_t>(std::max(0, free_nodes)));
  // The smallest acceptable size; the tolerance keeps 0.5 x 4 = 2 from rounding up to 3.
  const auto least = std::max<std::int32_t>(
      1, static_cast<std::int32_t>(std::ceil(min_fraction_ * requested - 1e-9)));
  return k >= least ? k : 0;
}

std::unique_ptr<SizeChooser> make_size_chooser(std::string_view name, double min_fraction) {
  if (!(min_fraction > 0 && min_fraction <= 1))
    throw InputError("moldable_min_fraction", fmt::format("{}", min_fraction),
                     "a fraction in (0, 1]");
  if (name == "max") return std::make_unique<MaxSize>();
  if (name == "free") return std::make_unique<FreeSize>(min_fraction);
  throw InputError("moldable_size", std::string(name), "one of \"max\", \"free\"");
}

}  // namespace faultsweep::policy
