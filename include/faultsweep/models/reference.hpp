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

// The same reference for a terminal (`faultsweep models`): per key a line with its type, unit,
// default and range and its help below; sub-keys and each choice's keys indented under them.
std::string reference_text(const Model& model);

}  // namespace faultsweep::models
