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

// crc32_bytes of a window of `width` bytes moved on by one byte, in constant time: from the CRC
// of b[0, width) to that of b[1, width + 1), given b[0] (leaving) and b[width] (entering). For the
// journal's resync, which tries every offset after damage. The CRC is linear over GF(2): the
// register without zlib's conditioning (`raw`) of b[1, width) is raw(b[0, width)) XOR b[0]'s
// share, raw(b[0] followed by width - 1 zero bytes) (a table by byte value), and one more byte
// is one step of the usual table-driven update; zlib's conditioning adds a constant for a given
// width, the CRC of `width` zero bytes.
class SlidingCrc32 {
 public:
  explicit SlidingCrc32(std::size_t width);  // width >= 1
  std::uint32_t slide(std::uint32_t crc, unsigned char leaving, unsigned char entering) const {
    const std::uint32_t raw = crc ^ zeros_crc_ ^ leaving_[leaving];
    return (raw >> 8) ^ step_[(raw ^ entering) & 0xFFu] ^ zeros_crc_;
  }

 private:
  std::array<std::uint32_t, 256> step_{};     // the register's next value from its low byte
  std::array<std::uint32_t, 256> leaving_{};  // a byte's share width - 1 bytes on
  std::uint32_t zeros_crc_ = 0;               // crc32_bytes of width zero bytes
};

// SHA-256 as 64 lowercase hex digits; for job_file_sha256 provenance.
std::string sha256_hex(std::string_view data);

}  // namespace faultsweep
