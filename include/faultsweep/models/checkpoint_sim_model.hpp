#pragma once
#include "faultsweep/models/model.hpp"
namespace faultsweep::models {
class CheckpointSimModel;  // placeholder: being written
}
