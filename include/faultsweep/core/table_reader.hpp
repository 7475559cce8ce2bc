#pragma once
// Typed reads of the sub-keys of one flattened parameter table (ParamKind::dist / table, e.g.
// p.sub("failures")), each error an InputError naming the sub-key, its value and what was
// expected. The one reader behind dist::Dist::from_params, failures/factory.cpp and
// workload/factory.cpp.
//
// Two wordings exist, kept exactly as users (and tests) see them:
//   - the "must be" reads (number, required, positive, first_of, integer, string), used by the
//     dist and failures tables: "must be a number", "must be > 0", "required for dist = ...";
//   - the "_or" reads with a fallback (real_or, integer_or, choice_or, list_or), used by the
//     workload table, whose expected text is a noun phrase: "a number", "an integer >= 1",
//     "one of \"a\", \"b\"".
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "faultsweep/core/params.hpp"

namespace faultsweep {

class TableReader {
 public:
  // `selector` names what chose the table's keys, e.g. `dist = "weibull"`; it completes
  // "required for ..." and "unknown key for ..." messages. The table must outlive the reader.
  explicit TableReader(const Params& table, std::string selector = {})
      : t_(table), selector_(std::move(selector)) {}
  TableReader(Params&&, std::string = {}) = delete;  // would dangle

  const Params& table() const { return t_; }
  bool has(std::string_view key) const { return t_.has(key); }
  // The canonical text of a present key's value (as shown in errors).
  std::string text(std::string_view key) const;

  // Every key must be in `allowed`: "unknown key for <selector>; allowed keys: a, b".
  void check_keys(const std::vector<std::string>& allowed) const;
  // The same with the expected text `expected_prefix` followed by the allowed keys.
  void check_keys(const std::vector<std::string>& allowed, std::string_view expected_prefix) const;

  // --- "must be" reads ---
  // The value as a number (an integer is accepted), nullopt if absent; a non-number or a
  // non-finite number is an error ("must be a number", "must be a finite number").
  std::optional<double> number(const std::string& key) const;
  // number(), absent: "required for <selector>".
  double required(const std::string& key) const;
  // d (the value of key) if > 0, else "must be > 0".
  double positive(const std::string& key, double d) const;
  // required() and > 0.
  double required_positive(const std::string& key) const { return positive(key, required(key)); }
  // Exactly one of two alternative keys; true if the first is given. Both: "give either first or
  // second, not both" on second; neither: "required for <selector> (or give second)" on first.
  bool first_of(const std::string& first, const std::string& second) const;
  // An integer ("must be an integer") or a string ("must be a string"), nullopt if absent.
  std::optional<std::int64_t> integer(const std::string& key) const;
  std::optional<std::string> string(const std::string& key) const;

  // --- "_or" reads: the fallback if absent ---
  // A number (an integer is accepted; not range-checked): else "a number".
  double real_or(const std::string& key, double fallback) const;
  // An integer >= min_value: else "an integer" / "an integer >= <min_value>".
  std::int64_t integer_or(const std::string& key, std::int64_t fallback,
                          std::int64_t min_value) const;
  // One of `choices`: else "one of \"a\", \"b\"".
  std::string choice_or(const std::string& key, const std::string& fallback,
                        const std::vector<std::string>& choices) const;
  // "0.6, 0.3, 0.1" -> numbers; with durations, each entry may carry a unit ("5min, 1h, 8h").
  std::vector<double> list_or(const std::string& key, const std::vector<double>& fallback,
                              bool durations) const;

 private:
  const Params& t_;
  std::string selector_;
};

}  // namespace faultsweep
