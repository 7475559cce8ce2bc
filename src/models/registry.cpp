#include "faultsweep/models/registry.hpp"

#include "faultsweep/models/checkpoint_sim_model.hpp"
#include "faultsweep/models/cluster.hpp"
#include "faultsweep/models/k_node.hpp"
#include "faultsweep/models/markov_availability.hpp"
#include "faultsweep/models/synthetic.hpp"

namespace faultsweep::models {

const std::vector<const Model*>& all_models() {
  static const MarkovAvailability markov_availability;
  static const CheckpointSimModel checkpoint_sim;
  static const Synthetic synthetic;
  static const ClusterModel cluster;
  static const KNode k_node;
  static const std::vector<const Model*> list{&markov_availability, &checkpoint_sim, &synthetic,
                                              &cluster, &k_node};
  return list;
}

const Model* find_model(std::string_view name) {
  for (const Model* m : all_models())
    if (m->name() == name) return m;
  return nullptr;
}

}  // namespace faultsweep::models
