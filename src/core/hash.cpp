#include "faultsweep/core/hash.hpp"

#include <openssl/evp.h>
#include <zlib.h>

#include "faultsweep/core/error.hpp"

namespace faultsweep {

std::uint64_t fnv1a64(std::string_view text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::uint32_t crc32_bytes(const void* data, std::size_t size) {
  return static_cast<std::uint32_t>(
      ::crc32(0L, static_cast<const Bytef*>(data), static_cast<uInt>(size)));
}

namespace {

// The register after `n` zero bytes from `raw` (zlib's crc32 conditions its input and output by
// all ones: undone on both sides).
std::uint32_t raw_after_zeros(std::uint32_t raw, std::size_t n) {
  static const unsigned char kZeros[1 << 16] = {};
  std::uint32_t c = raw ^ 0xFFFFFFFFu;
  for (; n > 0;) {
    const std::size_t k = n < sizeof kZeros ? n : sizeof kZeros;
    c = static_cast<std::uint32_t>(::crc32(c, kZeros, static_cast<uInt>(k)));
    n -= k;
  }
  return c ^ 0xFFFFFFFFu;
}

}  // namespace

SlidingCrc32::SlidingCrc32(std::size_t width) {
  if (width == 0) throw InternalError("SlidingCrc32: a window of no bytes");
  for (std::uint32_t i = 0; i < 256; ++i) step_[i] = raw_after_zeros(i, 1);
  // A byte's share is linear in its bits: eight runs over the zeros, the rest by XOR.
  for (unsigned bit = 0; bit < 8; ++bit)
    leaving_[1u << bit] = raw_after_zeros(step_[1u << bit], width - 1);
  for (unsigned b = 1; b < 256; ++b)
    if ((b & (b - 1)) != 0) leaving_[b] = leaving_[b & (b - 1)] ^ leaving_[b & -b];
  zeros_crc_ = raw_after_zeros(0xFFFFFFFFu, width) ^ 0xFFFFFFFFu;
}

// OpenSSL's SHA-256 (FIPS 180-4); the FIPS vectors in tests/unit/test_hash.cpp pin the digest.
std::string sha256_hex(std::string_view data) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(data.data(), data.size(), md, &len, EVP_sha256(), nullptr) != 1 || len != 32)
    throw InternalError("OpenSSL's EVP_Digest(SHA-256) failed");
  static const char* const kHex = "0123456789abcdef";
  std::string out;
  out.reserve(2 * len);
  for (unsigned int i = 0; i < len; ++i) out += kHex[md[i] >> 4], out += kHex[md[i] & 0xf];
  return out;
}

}  // namespace faultsweep
