#include "deflate_chunks.hpp"

#include <fmt/format.h>
#include <libdeflate.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <new>
#include <vector>

#include "faultsweep/core/parallel.hpp"
#include "faultsweep/io/h5.hpp"

namespace faultsweep::io {

DeflateChunks::DeflateChunks(int level, std::size_t chunk_bytes)
    : z_(libdeflate_alloc_compressor(level)) {
  if (z_ == nullptr) throw std::bad_alloc();
  bound_ = libdeflate_zlib_compress_bound(z_, chunk_bytes);
  out_.reset(new unsigned char[bound_]);  // not zeroed: written before it is read
}

DeflateChunks::~DeflateChunks() {
  libdeflate_free_compressor(z_);
}

std::size_t DeflateChunks::compress(const unsigned char* bytes, std::size_t size,
                                    const std::string& name, const std::string& file) {
  const std::size_t n = libdeflate_zlib_compress(z_, bytes, size, out_.get(), bound_);
  if (n == 0) throw H5Error(fmt::format("{}: compressing /{} failed", file, name));
  return n;
}

void DeflateChunks::write(hid_t d, const hsize_t* offset, const unsigned char* bytes,
                          std::size_t size, const std::string& name, const std::string& file) {
  const std::size_t n = compress(bytes, size, name, file);
  check_call(H5Dwrite_chunk(d, H5P_DEFAULT, 0, offset, n, out_.get()), "H5Dwrite_chunk", name,
             file);
}

namespace {

std::atomic<unsigned> compression_threads{1};

}  // namespace

void set_compression_threads(unsigned threads) {
  compression_threads.store(std::max(1u, threads));
}

bool write_deflated(hid_t d, const void* data, const std::vector<hsize_t>& dims,
                    std::size_t elem_bytes, const std::string& name, const std::string& file) {
  const Handle dcpl(H5Dget_create_plist(d), H5Pclose);
  if (dims.empty() || dims.size() > 2 || H5Pget_layout(dcpl.id()) != H5D_CHUNKED ||
      H5Pget_nfilters(dcpl.id()) != 1)
    return false;
  unsigned flags = 0, level = 0;
  std::size_t nvalues = 1;
  if (H5Pget_filter2(dcpl.id(), 0, &flags, &nvalues, &level, 0, nullptr, nullptr) !=
          H5Z_FILTER_DEFLATE ||
      nvalues < 1)
    return false;
  hsize_t chunk[2] = {0, 0};
  if (H5Pget_chunk(dcpl.id(), 2, chunk) != static_cast<int>(dims.size()) ||
      (dims.size() == 2 && chunk[1] != dims[1]))
    return false;  // chunks that are not whole rows
  const std::size_t row_bytes = elem_bytes * (dims.size() == 2 ? dims[1] : 1);
  const std::size_t chunk_rows = chunk[0];
  const std::size_t bytes = chunk_rows * row_bytes;
  const auto* rows = static_cast<const unsigned char*>(data);
  const std::size_t chunks = (dims[0] + chunk_rows - 1) / chunk_rows;
  // Chunk c: its rows, the last one padded with zero rows into `pad`.
  const auto chunk_bytes = [&](std::size_t c, std::vector<unsigned char>& pad) {
    const std::size_t first = c * chunk_rows;
    const std::size_t count = std::min<std::size_t>(chunk_rows, dims[0] - first);
    if (count == chunk_rows) return rows + first * row_bytes;
    pad.assign(bytes, 0);
    std::memcpy(pad.data(), rows + first * row_bytes, count * row_bytes);
    return static_cast<const unsigned char*>(pad.data());
  };
  std::vector<unsigned char> pad;
  const unsigned threads = compression_threads.load();
  if (threads <= 1 || chunks < 2) {
    DeflateChunks z(static_cast<int>(level), bytes);
    for (std::size_t c = 0; c < chunks; ++c) {
      const hsize_t offset[2] = {c * chunk_rows, 0};
      z.write(d, offset, chunk_bytes(c, pad), bytes, name, file);
    }
    return true;
  }
  // Compressed on the threads, stored in order by this one (the HDF5 library is not
  // thread-safe): the same bytes as on one thread.
  std::vector<std::vector<unsigned char>> packed(chunks);
  parallel_for(chunks, threads, [&](std::size_t c) {
    std::vector<unsigned char> own_pad;
    DeflateChunks z(static_cast<int>(level), bytes);
    const std::size_t n = z.compress(chunk_bytes(c, own_pad), bytes, name, file);
    packed[c].assign(z.data(), z.data() + n);
  });
  for (std::size_t c = 0; c < chunks; ++c) {
    const hsize_t offset[2] = {c * chunk_rows, 0};
    check_call(H5Dwrite_chunk(d, H5P_DEFAULT, 0, offset, packed[c].size(), packed[c].data()),
               "H5Dwrite_chunk", name, file);
  }
  return true;
}

}  // namespace faultsweep::io
