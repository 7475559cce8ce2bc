#include "faultsweep/core/params.hpp"

#include <fmt/format.h>

#include "faultsweep/core/error.hpp"

namespace faultsweep {

std::string canonical_value(const Value& v) {
  struct Visitor {
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(std::int64_t i) const { return fmt::format("{}", i); }
    std::string operator()(double d) const {
      std::string s = fmt::format("{:.17g}", d);
      if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // "n": nan/inf stay as is
      return s;
    }
    std::string operator()(const std::string& s) const {
      std::string out = "\"";
      for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
      }
      return out + "\"";
    }
  };
  return std::visit(Visitor{}, v);
}

const Value& Params::at(std::string_view key) const {
  auto it = values_.find(key);
  FS_CHECK(it != values_.end(), fmt::format("parameter '{}' missing", key));
  return it->second;
}

double Params::real(std::string_view key) const {
  const Value& v = at(key);
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  FS_CHECK(false, fmt::format("parameter '{}' is not a number", key));
}

std::int64_t Params::integer(std::string_view key) const {
  const auto* i = std::get_if<std::int64_t>(&at(key));
  FS_CHECK(i != nullptr, fmt::format("parameter '{}' is not an integer", key));
  return *i;
}

const std::string& Params::str(std::string_view key) const {
  const auto* s = std::get_if<std::string>(&at(key));
  FS_CHECK(s != nullptr, fmt::format("parameter '{}' is not a string", key));
  return *s;
}

bool Params::flag(std::string_view key) const {
  const auto* b = std::get_if<bool>(&at(key));
  FS_CHECK(b != nullptr, fmt::format("parameter '{}' is not a boolean", key));
  return *b;
}

Params Params::sub(std::string_view prefix) const {
  Params out;
  const std::string p = std::string(prefix) + ".";
  for (auto it = values_.lower_bound(p); it != values_.end() && it->first.starts_with(p); ++it)
    out.set(it->first.substr(p.size()), it->second);
  return out;
}

std::string Params::canonical_text() const {
  std::string out;
  for (const auto& [k, v] : values_) out += k + "=" + canonical_value(v) + "\n";
  return out;
}

}  // namespace faultsweep
