#pragma once
// Random streams (DESIGN §4). Every stream is a pcg64 engine derived from
// (master seed, replica index, purpose, canonical text of the consumer's configuration) through
// fixed mixing functions (core/hash.hpp). Never from rank, time or completion order.
#include <cstdint>
#include <string_view>

#include <pcg_random.hpp>

namespace faultsweep {

using Engine = pcg64;

// Named purposes. The numbers are part of the stream definition: never renumber.
enum class Purpose : std::uint64_t {
  failures = 1,
  repairs = 2,
  arrivals = 3,
  runtimes = 4,
  sizes = 5,
  predictor = 6,
  tiebreaks = 7,
  locations = 8,
  downtimes = 9,
  moldable = 10,  // which jobs of a workload are moldable (workload/factory.cpp)
  policy = 11,    // the generator of a policy written in Python (policy/python/)
};

// The stream for (seed, replica, purpose, config). Two consumers with the same configuration
// text get the same stream in the same replica (common random numbers across policies).
Engine make_stream(std::uint64_t master_seed, std::uint64_t replica, Purpose purpose,
                   std::string_view config_text);

// A uniform double in the open interval (0, 1): 52 random bits, offset by half a step, so that
// log(u) and log(1 - u) are always finite. (With 53 bits, (2^53 - 1) + 0.5 rounds to 2^53 and
// u could be exactly 1; below 2^52 every k + 0.5 is exact.)
inline double uniform01(Engine& e) {
  return (static_cast<double>(e() >> 12) + 0.5) * 0x1.0p-52;
}

}  // namespace faultsweep
