#pragma once
// Fixed, documented hash and mixing functions. These define the random streams (DESIGN §4) and
// the journal's checksums, so they must never change: golden tests pin them.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace faultsweep {

// FNV-1a, 64 bit, over the bytes of text.
std::uint64_t fnv1a64(std::string_view text);

// SplitMix64 finaliser (Steele, Lea & Flood 2014): a bijective 64-bit mixer.
constexpr std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// CRC-32 (zlib's polynomial) of a byte range; for journal records.
std::uint32_t crc32_bytes(const void* data, std::size_t size);

// SHA-256 as 64 lowercase hex digits; for job_file_sha256 provenance.
std::string sha256_hex(std::string_view data);

}  // namespace faultsweep
