// The fixed hash and mixing functions (core/hash.hpp). They define random streams and journal
// checksums, so every value here is an external reference, never a value printed by the code.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "faultsweep/core/hash.hpp"

using faultsweep::crc32_bytes;
using faultsweep::fnv1a64;
using faultsweep::sha256_hex;
using faultsweep::splitmix64;

TEST_CASE("sha256_hex matches the FIPS 180-2 test vectors", "[hash]") {
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(sha256_hex(std::string(1'000'000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// Lengths around the padding boundaries: at 56 bytes the length field no longer fits in the last
// block, at 64 a whole block precedes the padding. Expected values from coreutils:
// head -c N /dev/zero | tr '\0' 'a' | sha256sum
TEST_CASE("sha256_hex is right at every padding boundary", "[hash]") {
  const auto a = [](std::size_t n) { return sha256_hex(std::string(n, 'a')); };
  CHECK(a(55) == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  CHECK(a(56) == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  CHECK(a(63) == "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34");
  CHECK(a(64) == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
  CHECK(a(65) == "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0");
  CHECK(a(119) == "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb");
  CHECK(a(120) == "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c");
  CHECK(a(128) == "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e");
}

TEST_CASE("sha256_hex hashes bytes, including NUL and high bytes", "[hash]") {
  // printf '\x00\xff\x80' | sha256sum
  CHECK(sha256_hex(std::string("\x00\xff\x80", 3)) ==
        "f742b965f156c10374bc23aea96e3a8aff8facd6fc079defeaa30219ad86f211");
}

TEST_CASE("fnv1a64 matches the published FNV-1a 64-bit values", "[hash]") {
  CHECK(fnv1a64("") == 0xcbf29ce484222325ULL);  // the offset basis
  CHECK(fnv1a64("a") == 0xaf63dc4c8601ec8cULL);
  CHECK(fnv1a64("foobar") == 0x85944171f73967e8ULL);
}

TEST_CASE("crc32_bytes is zlib's CRC-32", "[hash]") {
  const std::string check = "123456789";
  CHECK(crc32_bytes(check.data(), check.size()) == 0xCBF43926u);  // the standard check value
  CHECK(crc32_bytes("", 0) == 0u);
  const std::string fox = "The quick brown fox jumps over the lazy dog";
  CHECK(crc32_bytes(fox.data(), fox.size()) == 0x414FA339u);  // python3 zlib.crc32
}

TEST_CASE("SlidingCrc32 gives crc32_bytes of the window at every offset", "[hash]") {
  // Bytes from a fixed xorshift stream (seed 88172645463325252), zeros and all-ones runs among
  // them, so that every byte value leaves and enters the window.
  std::vector<unsigned char> b(200000);
  std::uint64_t x = 88172645463325252ULL;
  for (std::size_t i = 0; i < b.size(); ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    b[i] = (i / 1000) % 5 == 1 ? 0 : (i / 1000) % 5 == 3 ? 0xFF : static_cast<unsigned char>(x);
  }
  for (const std::size_t width : {1, 2, 3, 4, 5, 17, 724, 65536, 70001}) {
    const faultsweep::SlidingCrc32 sliding(width);
    std::uint32_t crc = crc32_bytes(b.data(), width);
    std::size_t wrong = 0;
    for (std::size_t at = 0; at + width < b.size(); ++at) {
      crc = sliding.slide(crc, b[at], b[at + width]);
      if (at % 97 == 0 || width <= 17)
        wrong += crc != crc32_bytes(b.data() + at + 1, width) ? 1 : 0;
    }
    CHECK(wrong == 0);
    CHECK(crc == crc32_bytes(b.data() + b.size() - width, width));  // after every slide
  }
}

TEST_CASE("splitmix64 is the Steele-Lea-Flood finaliser", "[hash]") {
  // 0 -> 0xe220a8397b1dcdaf is the first output of the reference SplitMix64 seeded with 0;
  // the others were computed with an independent Python transcription of the same function.
  static_assert(splitmix64(0) == 0xe220a8397b1dcdafULL);  // usable at compile time
  CHECK(splitmix64(0) == 0xe220a8397b1dcdafULL);
  CHECK(splitmix64(1) == 0x910a2dec89025cc1ULL);
  CHECK(splitmix64(0x123456789abcdef0ULL) == 0x161922c645ce50e8ULL);
}
