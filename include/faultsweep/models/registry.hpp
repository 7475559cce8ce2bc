#pragma once
#include <string_view>
#include <vector>

#include "faultsweep/models/model.hpp"

namespace faultsweep::models {

// All models, in a fixed order. The list is in registry.cpp: one line per model.
const std::vector<const Model*>& all_models();

// The model with this name, or nullptr.
const Model* find_model(std::string_view name);

}  // namespace faultsweep::models
