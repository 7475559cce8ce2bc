#pragma once
// Durations with units. Everything inside faultsweep is in seconds (double); users write
// "90s", "5min", "2h", "3d", "1.5w", "250ms" (a bare number means seconds).
#include <string>
#include <string_view>

namespace faultsweep {

inline constexpr double kMinute_s = 60.0;
inline constexpr double kHour_s = 3600.0;
inline constexpr double kDay_s = 86400.0;
inline constexpr double kWeek_s = 7.0 * 86400.0;

// Parses a duration to seconds. Throws InputError("", text, expected) on a bad number or unit;
// the caller locates it (adds file, line and key).
double parse_duration_s(std::string_view text);

// Human-readable duration ("1.82h", "32.7d"); for messages and --help, never for storage.
std::string format_duration(double seconds);

}  // namespace faultsweep
