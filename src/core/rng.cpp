#include "faultsweep/core/rng.hpp"

#include "faultsweep/core/hash.hpp"

namespace faultsweep {

Engine make_stream(std::uint64_t master_seed, std::uint64_t replica, Purpose purpose,
                   std::string_view config_text) {
  // Chained SplitMix64 over the four inputs; every input changes every output bit.
  const std::uint64_t a = splitmix64(master_seed);
  const std::uint64_t b = splitmix64(a ^ replica);
  const std::uint64_t c = splitmix64(b ^ static_cast<std::uint64_t>(purpose));
  const std::uint64_t d = splitmix64(c ^ fnv1a64(config_text));
  const std::uint64_t e = splitmix64(d);
  const std::uint64_t f = splitmix64(e);
  const std::uint64_t g = splitmix64(f);
  using u128 = pcg_extras::pcg128_t;
  const u128 state = (static_cast<u128>(d) << 64) | e;
  const u128 stream = (static_cast<u128>(f) << 64) | g;
  return Engine(state, stream);
}

}  // namespace faultsweep
