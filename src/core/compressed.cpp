#include "faultsweep/core/compressed.hpp"

#include <fmt/format.h>
#include <lzma.h>
#include <zlib.h>

#include <algorithm>
#include <new>

#include "faultsweep/core/error.hpp"

namespace faultsweep {
namespace {

constexpr std::size_t kStep = 1 << 16;

bool starts_with_bytes(std::string_view bytes, std::string_view magic) {
  return bytes.size() >= magic.size() && bytes.substr(0, magic.size()) == magic;
}

const std::string_view kGzipMagic("\x1f\x8b", 2);
const std::string_view kXzMagic(
    "\xfd"
    "7zXZ\0",
    6);

// The output buffer starts at 8x the input (about the ratio of text logs), so it is rarely grown.
std::size_t first_guess(std::size_t in) {
  return std::max<std::size_t>(in * 8, kStep);
}

std::string lzma_reason(lzma_ret rc) {
  switch (rc) {
    case LZMA_FORMAT_ERROR:
      return "not in the .xz format";
    case LZMA_OPTIONS_ERROR:
      return "unsupported compression options";
    case LZMA_DATA_ERROR:
      return "the compressed data is corrupt";
    case LZMA_BUF_ERROR:
      return "the data ends early (truncated file)";
    default:
      return fmt::format("liblzma error {}", static_cast<int>(rc));
  }
}

}  // namespace

Compression compression_of(std::string_view bytes) {
  if (starts_with_bytes(bytes, kGzipMagic)) return Compression::gzip;
  if (starts_with_bytes(bytes, kXzMagic)) return Compression::xz;
  return Compression::none;
}

std::string gunzip(std::string_view in, const std::string& file) {
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
    throw InputError(fmt::format("{}: cannot start gzip decompression", file));
  std::string out(first_guess(in.size()), '\0');
  std::size_t used = 0, pos = 0;
  for (;;) {
    if (out.size() - used < kStep) out.resize(out.size() * 2);
    const std::size_t avail_in = std::min<std::size_t>(in.size() - pos, 1u << 30);
    const std::size_t avail_out = std::min<std::size_t>(out.size() - used, 1u << 30);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + pos));
    z.avail_in = static_cast<uInt>(avail_in);
    z.next_out = reinterpret_cast<Bytef*>(out.data() + used);
    z.avail_out = static_cast<uInt>(avail_out);
    const int rc = inflate(&z, Z_NO_FLUSH);
    pos += avail_in - z.avail_in;
    used += avail_out - z.avail_out;
    if (rc == Z_STREAM_END) {
      if (pos == in.size()) break;
      if (compression_of(in.substr(pos)) != Compression::gzip) {
        inflateEnd(&z);
        throw InputError(
            fmt::format("{}: trailing data after the gzip stream ({} bytes at byte "
                        "{}): corrupt or not a gzip file",
                        file, in.size() - pos, pos));
      }
      inflateReset(&z);  // another member follows
      continue;
    }
    if (rc == Z_OK) continue;
    if (rc == Z_BUF_ERROR && pos == in.size() && z.avail_out > 0) {
      inflateEnd(&z);
      throw InputError(
          fmt::format("{}: truncated or corrupt gzip data: the stream ends early", file));
    }
    if (rc == Z_BUF_ERROR) continue;  // more output space needed
    const std::string msg = z.msg ? z.msg : "error " + std::to_string(rc);
    inflateEnd(&z);
    if (rc == Z_MEM_ERROR) throw std::bad_alloc();
    throw InputError(fmt::format("{}: truncated or corrupt gzip data: {}", file, msg));
  }
  inflateEnd(&z);
  out.resize(used);
  return out;
}

std::string unxz(std::string_view in, const std::string& file) {
  lzma_stream z = LZMA_STREAM_INIT;
  // LZMA_CONCATENATED: every stream of the file, and padding between them, as `xz -d` reads it.
  if (lzma_stream_decoder(&z, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
    throw InputError(fmt::format("{}: cannot start xz decompression", file));
  std::string out(first_guess(in.size()), '\0');
  z.next_in = reinterpret_cast<const std::uint8_t*>(in.data());
  z.avail_in = in.size();
  std::size_t used = 0;
  for (;;) {
    if (out.size() - used < kStep) out.resize(out.size() * 2);
    z.next_out = reinterpret_cast<std::uint8_t*>(out.data() + used);
    z.avail_out = out.size() - used;
    const lzma_ret rc = lzma_code(&z, LZMA_FINISH);
    used = out.size() - z.avail_out;
    if (rc == LZMA_STREAM_END) break;
    if (rc == LZMA_OK) continue;
    // With LZMA_FINISH, BUF_ERROR while output space remains means the input ran out early.
    if (rc == LZMA_BUF_ERROR && z.avail_out == 0) continue;
    lzma_end(&z);
    if (rc == LZMA_MEM_ERROR) throw std::bad_alloc();
    throw InputError(fmt::format("{}: corrupt or unreadable .xz file: {}", file, lzma_reason(rc)));
  }
  lzma_end(&z);
  out.resize(used);
  return out;
}

std::string decompress(std::string bytes, const std::filesystem::path& file) {
  const std::string ext = file.extension().string(), name = file.string();
  Compression c = compression_of(bytes);
  if (ext == ".xz") c = Compression::xz;
  if (ext == ".gz") c = Compression::gzip;
  switch (c) {
    case Compression::gzip:
      return gunzip(bytes, name);
    case Compression::xz:
      return unxz(bytes, name);
    case Compression::none:
      break;
  }
  return bytes;
}

}  // namespace faultsweep
