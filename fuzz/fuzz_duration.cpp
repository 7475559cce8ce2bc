// libFuzzer target: the duration parser ("90s", "5min", "1.5h"). Any input must give a finite,
// non-negative number of seconds or an InputError.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const double s = faultsweep::parse_duration_s(text);
    if (std::isnan(s)) std::abort();  // a NaN duration would poison every comparison after it
    (void)faultsweep::format_duration(s);
  } catch (const faultsweep::InputError&) {
  }
  return 0;
}
