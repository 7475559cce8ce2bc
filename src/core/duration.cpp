#include "faultsweep/core/duration.hpp"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <utility>

#include "faultsweep/core/error.hpp"

namespace faultsweep {
namespace {

constexpr std::array<std::pair<std::string_view, double>, 19> kUnits{{
    {"ms", 1e-3},           {"s", 1.0},         {"sec", 1.0},       {"second", 1.0},
    {"seconds", 1.0},       {"min", kMinute_s}, {"m", kMinute_s},   {"minute", kMinute_s},
    {"minutes", kMinute_s}, {"h", kHour_s},     {"hr", kHour_s},    {"hour", kHour_s},
    {"hours", kHour_s},     {"d", kDay_s},      {"day", kDay_s},    {"days", kDay_s},
    {"w", kWeek_s},         {"week", kWeek_s},  {"weeks", kWeek_s},
}};

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace

double parse_duration_s(std::string_view text) {
  const std::string_view t = trim(text);
  const char* const expected =
      "expected a duration such as \"90s\", \"5min\", \"2h\", \"3d\" (units ms, s, min, h, d, w)";
  double number = 0.0;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), number);
  if (ec != std::errc() || !std::isfinite(number))
    throw InputError("", std::string(text), expected);
  std::string_view unit = trim(std::string_view(end, t.data() + t.size() - end));
  if (unit.empty()) return number;  // bare numbers are seconds
  for (const auto& [name, factor] : kUnits)
    if (unit == name) return number * factor;
  throw InputError("", std::string(text), fmt::format("unknown unit \"{}\"; {}", unit, expected));
}

std::string format_duration(double seconds) {
  const double a = std::fabs(seconds);
  if (!std::isfinite(seconds)) return fmt::format("{} s", seconds);  // not "infd"
  if (a >= kDay_s) return fmt::format("{:.6g}d", seconds / kDay_s);
  if (a >= kHour_s) return fmt::format("{:.6g}h", seconds / kHour_s);
  if (a >= kMinute_s) return fmt::format("{:.6g}min", seconds / kMinute_s);
  return fmt::format("{:.6g}s", seconds);
}

}  // namespace faultsweep
