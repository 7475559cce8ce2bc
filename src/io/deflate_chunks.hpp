#pragma once
// Chunks compressed by faultsweep and stored as they are (H5Dwrite_chunk), for datasets whose
// filter pipeline ends in deflate: libdeflate writes the zlib format HDF5's deflate filter
// reads in a fraction of zlib's time, which is most of the cost of writing large tables.
#include <hdf5.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

struct libdeflate_compressor;

namespace faultsweep::io {

class DeflateChunks {
 public:
  // Chunks of up to chunk_bytes, compressed at `level` (as H5Pset_deflate's).
  DeflateChunks(int level, std::size_t chunk_bytes);
  ~DeflateChunks();
  DeflateChunks(const DeflateChunks&) = delete;
  DeflateChunks& operator=(const DeflateChunks&) = delete;
  // Compresses `bytes` (a whole chunk, as the filters before deflate left it) into data():
  // its size in bytes.
  std::size_t compress(const unsigned char* bytes, std::size_t size, const std::string& name,
                       const std::string& file);
  const unsigned char* data() const { return out_.get(); }
  // Compresses `bytes` and stores it as the chunk of dataset `d` at `offset` (one coordinate
  // per dimension).
  void write(hid_t d, const hsize_t* offset, const unsigned char* bytes, std::size_t size,
             const std::string& name, const std::string& file);

 private:
  libdeflate_compressor* z_;
  std::size_t bound_;
  std::unique_ptr<unsigned char[]> out_;
};

// Writes `data` (the whole dataset, row-major, elem_bytes per element in the file's byte order)
// to dataset `d` of extent `dims` chunk by chunk, if its chunks are whole rows and its only
// filter is deflate (the last chunk padded with zeros). False, writing nothing, otherwise.
bool write_deflated(hid_t d, const void* data, const std::vector<hsize_t>& dims,
                    std::size_t elem_bytes, const std::string& name, const std::string& file);

}  // namespace faultsweep::io
