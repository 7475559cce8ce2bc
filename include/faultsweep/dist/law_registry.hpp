#pragma once
// One row per law of a distribution table (`{ dist = "weibull", shape = 0.7, scale = "5h" }`):
// its name, a one-line help, its keys (ParamSpecs with units and ranges) and the factory that
// reads them. Dist::from_params, the keys a renewal `failures` table allows and the job-file
// reference (`faultsweep models NAME`) are all derived from these rows.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "faultsweep/core/param_spec.hpp"
#include "faultsweep/core/table_reader.hpp"
#include "faultsweep/dist/distribution.hpp"

namespace faultsweep::dist {

struct LawRow {
  std::string_view name;
  std::string_view help;
  std::vector<ParamSpec> (*keys)() = nullptr;  // its keys besides `dist`
  // The law from its keys, already checked against keys(); InputErrors name the sub-key.
  Dist (*make)(const TableReader& r) = nullptr;
};

// exponential, weibull, lognormal, constant: the order of errors and of the reference.
std::span<const LawRow> laws();

// The row named `name`, nullptr if none.
const LawRow* find_law(std::string_view name);

// The keys a table of this law may hold: `dist`, then the row's keys in alphabetical order (the
// order an "unknown key" error lists them in).
std::vector<std::string> law_table_keys(const LawRow& row);

// The `dist` key of a distribution table: required, one of the laws, each law's keys as its
// choice keys (the reference lists them per law).
ParamSpec law_selector(std::string help);

}  // namespace faultsweep::dist
