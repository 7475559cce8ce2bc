#pragma once
// The parameters of one point: a flat, ordered map from dotted keys ("N", "failures.shape") to
// typed values. Durations are already converted to seconds (double) when a Params exists.
// The canonical text ("key=value" lines, sorted by key, doubles with 17 significant digits) is
// what identifies a point: it seeds random streams (DESIGN §4) and guards resume.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>

namespace faultsweep {

using Value = std::variant<bool, std::int64_t, double, std::string>;

// Canonical text of one value: true/false, integers in decimal, doubles as %.17g (with a ".0"
// if the text would read as an integer), strings in double quotes with \" and \\ escaped.
std::string canonical_value(const Value& v);

class Params {
 public:
  void set(std::string key, Value v) { values_[std::move(key)] = std::move(v); }
  bool has(std::string_view key) const { return values_.find(key) != values_.end(); }
  const Value& at(std::string_view key) const;  // throws InternalError if missing

  // Typed access; an int is accepted where a double is asked for. A missing key or a wrong type
  // is a bug (the job loader validated the point against the model's ParamSpecs).
  double real(std::string_view key) const;
  std::int64_t integer(std::string_view key) const;
  const std::string& str(std::string_view key) const;
  bool flag(std::string_view key) const;

  // All keys under "prefix." (with the prefix stripped), e.g. sub("failures") of failures.shape.
  Params sub(std::string_view prefix) const;

  // "key=value\n" for every key, sorted. With a prefix, only keys under "prefix.".
  std::string canonical_text() const;

  const std::map<std::string, Value, std::less<>>& values() const { return values_; }
  bool operator==(const Params&) const = default;

 private:
  std::map<std::string, Value, std::less<>> values_;
};

}  // namespace faultsweep
