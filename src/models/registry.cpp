#include "faultsweep/models/registry.hpp"

#include "faultsweep/models/checkpoint_sim_model.hpp"
#include "faultsweep/models/markov_availability.hpp"

namespace faultsweep::models {

const std::vector<const Model*>& all_models() {
  static const std::vector<const Model*> list{};  // models being written; registered here
  return list;
}

const Model* find_model(std::string_view name) {
  for (const Model* m : all_models())
    if (m->name() == name) return m;
  return nullptr;
}

}  // namespace faultsweep::models
