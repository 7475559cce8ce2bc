#pragma once
#include "faultsweep/models/model.hpp"
namespace faultsweep::models {
class MarkovAvailability;  // placeholder: being written
}
