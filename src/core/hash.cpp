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
