#include "faultsweep/core/table_reader.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <variant>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"

namespace faultsweep {

std::string TableReader::text(std::string_view key) const {
  return canonical_value(t_.at(key));
}

void TableReader::check_keys(const std::vector<std::string>& allowed) const {
  check_keys(allowed, fmt::format("unknown key for {}; allowed keys: ", selector_));
}

void TableReader::check_keys(const std::vector<std::string>& allowed,
                             std::string_view expected_prefix) const {
  for (const auto& [key, value] : t_.values())
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      throw InputError(key, canonical_value(value),
                       fmt::format("{}{}", expected_prefix, fmt::join(allowed, ", ")));
}

std::optional<double> TableReader::number(const std::string& key) const {
  if (!t_.has(key)) return std::nullopt;
  const Value& v = t_.at(key);
  if (!std::holds_alternative<double>(v) && !std::holds_alternative<std::int64_t>(v))
    throw InputError(key, canonical_value(v), "must be a number");
  const double d = t_.real(key);
  if (!std::isfinite(d)) throw InputError(key, canonical_value(v), "must be a finite number");
  return d;
}

double TableReader::required(const std::string& key) const {
  const auto d = number(key);
  if (!d) throw InputError(key, "", fmt::format("required for {}", selector_));
  return *d;
}

double TableReader::positive(const std::string& key, double d) const {
  if (!(d > 0)) throw InputError(key, text(key), "must be > 0");
  return d;
}

bool TableReader::first_of(const std::string& first, const std::string& second) const {
  const bool has1 = t_.has(first), has2 = t_.has(second);
  if (has1 && has2)
    throw InputError(second, text(second),
                     fmt::format("give either {} or {}, not both", first, second));
  if (!has1 && !has2)
    throw InputError(first, "", fmt::format("required for {} (or give {})", selector_, second));
  return has1;
}

std::optional<std::int64_t> TableReader::integer(const std::string& key) const {
  if (!t_.has(key)) return std::nullopt;
  if (!std::holds_alternative<std::int64_t>(t_.at(key)))
    throw InputError(key, text(key), "must be an integer");
  return t_.integer(key);
}

std::optional<std::string> TableReader::string(const std::string& key) const {
  if (!t_.has(key)) return std::nullopt;
  if (!std::holds_alternative<std::string>(t_.at(key)))
    throw InputError(key, text(key), "must be a string");
  return t_.str(key);
}

double TableReader::real_or(const std::string& key, double fallback) const {
  if (!t_.has(key)) return fallback;
  const Value& v = t_.at(key);
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  throw InputError(key, canonical_value(v), "a number");
}

std::int64_t TableReader::integer_or(const std::string& key, std::int64_t fallback,
                                     std::int64_t min_value) const {
  if (!t_.has(key)) return fallback;
  const Value& v = t_.at(key);
  const auto* i = std::get_if<std::int64_t>(&v);
  if (!i) throw InputError(key, canonical_value(v), "an integer");
  if (*i < min_value)
    throw InputError(key, canonical_value(v), fmt::format("an integer >= {}", min_value));
  return *i;
}

std::string TableReader::choice_or(const std::string& key, const std::string& fallback,
                                   const std::vector<std::string>& choices) const {
  if (!t_.has(key)) return fallback;
  const Value& v = t_.at(key);
  const auto* s = std::get_if<std::string>(&v);
  if (!s || std::find(choices.begin(), choices.end(), *s) == choices.end())
    throw InputError(key, canonical_value(v),
                     fmt::format("one of \"{}\"", fmt::join(choices, "\", \"")));
  return *s;
}

std::vector<double> TableReader::list_or(const std::string& key,
                                         const std::vector<double>& fallback,
                                         bool durations) const {
  if (!t_.has(key)) return fallback;
  const Value& v = t_.at(key);
  const auto* s = std::get_if<std::string>(&v);
  if (!s)
    throw InputError(key, canonical_value(v),
                     "a comma-separated list in a string, e.g. \"0.6, 0.3, 0.1\"");
  std::vector<double> out;
  std::size_t pos = 0;
  while (pos <= s->size()) {
    const std::size_t comma = std::min(s->find(',', pos), s->size());
    std::string item = s->substr(pos, comma - pos);
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    try {
      if (item.empty()) throw InputError("");
      if (durations) {
        out.push_back(parse_duration_s(item));
      } else {
        std::size_t used = 0;
        out.push_back(std::stod(item, &used));
        if (used != item.size()) throw InputError("");
      }
    } catch (const std::exception&) {
      throw InputError(key, canonical_value(v),
                       durations ? "a comma-separated list of durations, e.g. \"5min, 1h, 8h\""
                                 : "a comma-separated list of numbers, e.g. \"0.6, 0.3, 0.1\"");
    }
    pos = comma + 1;
  }
  return out;
}

}  // namespace faultsweep
