#include "faultsweep/policy/size_chooser.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "faultsweep/core/error.hpp"
#include "faultsweep/policy/registry.hpp"

namespace faultsweep::policy {

std::int32_t MaxSize::choose(const SizeRequest& r) const {
  return r.requested <= r.free_nodes ? r.requested : 0;
}

std::int32_t FreeSize::choose(const SizeRequest& r) const {
  const std::int32_t requested = r.requested;
  const int free_nodes = r.free_nodes;
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
  Params p;
  p.set("moldable_min_fraction", min_fraction);
  return find_choice(size_choosers(), "moldable_size", name).make(p);
}

}  // namespace faultsweep::policy
