#pragma once
// The job-file reference of a model, printed from what the model declares (its ParamSpecs,
// whose choices and sub-tables come from the plug-in registry rows, and its MetricSpecs): the
// reference in docs/reference/ is this text, never written by hand.
#include <string>

#include "faultsweep/models/model.hpp"

namespace faultsweep::models {

// One Markdown page: the model's description, a table of its keys (type, unit, default,
// allowed range or choices, help) and a table of its metrics (unit, description).
std::string reference_markdown(const Model& model);

}  // namespace faultsweep::models
