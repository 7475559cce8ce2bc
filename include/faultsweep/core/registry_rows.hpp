#pragma once
// What every registry table of rows (a struct with `name`, `help` and `keys`, e.g.
// failures/process_registry.hpp, workload/source_registry.hpp) derives from its rows: the names
// an error expects, the row of a name and the reference's per-choice keys.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "faultsweep/core/param_spec.hpp"

namespace faultsweep {

// The rows' names in order.
template <class Row>
std::vector<std::string> row_names(std::span<const Row> rows) {
  std::vector<std::string> out;
  for (const Row& r : rows) out.emplace_back(r.name);
  return out;
}

// "a<sep>b<sep>c", each name between `quote`s: "none, renewal" or "\"swf\" | \"fars\"".
template <class Row>
std::string joined_names(std::span<const Row> rows, std::string_view sep,
                         std::string_view quote = "") {
  std::string s;
  for (const Row& r : rows) {
    if (!s.empty()) s += sep;
    s += std::string(quote) + std::string(r.name) + std::string(quote);
  }
  return s;
}

// The row named `name`, nullptr if none.
template <class Row>
const Row* find_row(std::span<const Row> rows, std::string_view name) {
  for (const Row& r : rows)
    if (r.name == name) return &r;
  return nullptr;
}

// The keys of each row as the choices of a selector key (ParamSpec::choice_keys).
template <class Row>
std::vector<ChoiceSpec> choice_specs(std::span<const Row> rows) {
  std::vector<ChoiceSpec> out;
  for (const Row& r : rows)
    out.push_back(
        {std::string(r.name), std::string(r.help), r.keys ? r.keys() : std::vector<ParamSpec>{}});
  return out;
}

}  // namespace faultsweep
