#include "faultsweep/io/h5_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <new>

#include "deflate_chunks.hpp"
#include "faultsweep/io/h5.hpp"

namespace faultsweep::io {
namespace {

hid_t ok(hid_t id, const char* call, const std::string& name, const std::string& file) {
  check_call(id < 0 ? -1 : 0, call, name, file);  // HDF5's reason, e.g. a full disk
  return id;
}

Handle compound(std::size_t row_size, std::span<const Column> columns, const std::string& name,
                const std::string& file) {
  Handle t(ok(H5Tcreate(H5T_COMPOUND, row_size), "H5Tcreate", name, file), H5Tclose);
  for (const Column& c : columns)
    ok(H5Tinsert(t.id(), c.name, c.offset, c.type), "H5Tinsert", name, file);
  return t;
}

// One entry per column, empty ones included: the units of leading columns without a unit
// ("" for ids) must still take their place, or the list slides against `columns`.
std::string joined(std::span<const Column> columns, bool units) {
  std::string s;
  for (std::size_t k = 0; k < columns.size(); ++k)
    s += (k == 0 ? "" : ",") + std::string(units ? columns[k].unit : columns[k].name);
  return s;
}

// Rows per chunk (at most 0.5 MB: within HDF5's default 1 MB chunk cache of a reader, and in
// the writer's cache while it is shuffled and compressed) and the deflate level (docs/records.md
// gives the cost).
constexpr hsize_t kChunkRows = 4096;
constexpr int kLevel = 1;

// Where each column's bytes go in a row: from the struct's offset to the packed one on disk.
struct Packed {
  std::size_t from, to, size;
};

std::vector<Packed> packed_layout(hid_t disk, std::span<const Column> columns,
                                  const std::string& name, const std::string& file) {
  std::vector<Packed> out;
  for (const Column& c : columns) {
    const int i = H5Tget_member_index(disk, c.name);
    if (i < 0) throw H5Error(fmt::format("{}: no column {} in /{}", file, c.name, name));
    out.push_back(
        {c.offset, H5Tget_member_offset(disk, static_cast<unsigned>(i)), H5Tget_size(c.type)});
  }
  return out;
}

void copy_field(unsigned char* to, const unsigned char* from, std::size_t size) {
  switch (size) {  // fixed sizes: inlined moves instead of a call per field
    case 1:
      *to = *from;
      break;
    case 4:
      std::memcpy(to, from, 4);
      break;
    case 8:
      std::memcpy(to, from, 8);
      break;
    default:
      std::memcpy(to, from, size);
  }
}

// HDF5's shuffle: byte b of row r goes to b * rows + r. Transposed in tiles of 64 rows so that
// both sides stay in the cache.
void shuffle(const unsigned char* in, unsigned char* out, std::size_t rows, std::size_t size) {
  constexpr std::size_t kTile = 64;
  for (std::size_t r0 = 0; r0 < rows; r0 += kTile) {
    const std::size_t r1 = std::min(rows, r0 + kTile);
    for (std::size_t b = 0; b < size; ++b) {
      unsigned char* o = out + b * rows;
      for (std::size_t r = r0; r < r1; ++r) o[r] = in[r * size + b];
    }
  }
}

// Writes the rows chunk by chunk as the filter pipeline would: packed rows (the last chunk
// padded with zero rows), byte-shuffled by row size (HDF5's shuffle filter), then a zlib stream
// (its deflate filter), stored as it is (DeflateChunks).
void write_chunks(hid_t d, const unsigned char* rows, std::size_t n, std::size_t row_size,
                  const std::vector<Packed>& layout, std::size_t disk_size, std::size_t chunk,
                  const std::string& name, const std::string& file) {
  const std::size_t bytes = chunk * disk_size;
  // Not zeroed: every byte is written before it is read (the rows, then the padding).
  const std::unique_ptr<unsigned char[]> packed(new unsigned char[bytes]);
  const std::unique_ptr<unsigned char[]> shuffled(new unsigned char[bytes]);
  DeflateChunks z(kLevel, bytes);
  for (std::size_t first = 0; first < n; first += chunk) {
    const std::size_t count = std::min(chunk, n - first);
    std::fill(packed.get() + count * disk_size, packed.get() + bytes, 0);
    for (std::size_t r = 0; r < count; ++r) {
      const unsigned char* src = rows + (first + r) * row_size;
      unsigned char* dst = packed.get() + r * disk_size;
      for (const Packed& p : layout) copy_field(dst + p.to, src + p.from, p.size);
    }
    shuffle(packed.get(), shuffled.get(), chunk, disk_size);
    const hsize_t offset = first;
    z.write(d, &offset, shuffled.get(), bytes, name, file);
  }
}

}  // namespace

void write_table(hid_t parent, const std::string& name, const void* rows, std::size_t n,
                 std::size_t row_size, std::span<const Column> columns,
                 const std::string& description, const std::string& file) {
  Handle mem = compound(row_size, columns, name, file);
  // On disk without the struct's padding.
  Handle disk(ok(H5Tcopy(mem.id()), "H5Tcopy", name, file), H5Tclose);
  ok(H5Tpack(disk.id()), "H5Tpack", name, file);
  const hsize_t dims = n, max = H5S_UNLIMITED;
  Handle space(ok(H5Screate_simple(1, &dims, &max), "H5Screate_simple", name, file), H5Sclose);
  Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  const hsize_t chunk = std::clamp<hsize_t>(n, 1, kChunkRows);
  H5Pset_chunk(dcpl.id(), 1, &chunk);
  // Shuffle + deflate, the filters every HDF5 reader has; the chunks are compressed here (see
  // write_chunks), the library only stores them.
  H5Pset_shuffle(dcpl.id());
  H5Pset_deflate(dcpl.id(), kLevel);
  Handle d(ok(H5Dcreate2(parent, name.c_str(), disk.id(), space.id(), H5P_DEFAULT, dcpl.id(),
                         H5P_DEFAULT),
              "H5Dcreate2", name, file),
           H5Dclose);
  if (n > 0) {
    const std::vector<Packed> layout = packed_layout(disk.id(), columns, name, file);
    write_chunks(d.id(), static_cast<const unsigned char*>(rows), n, row_size, layout,
                 H5Tget_size(disk.id()), static_cast<std::size_t>(chunk), name, file);
  }
  write_attr(d.id(), "columns", joined(columns, false), file);
  write_attr(d.id(), "units", joined(columns, true), file);
  write_attr(d.id(), "description", description, file);
}

std::size_t table_rows(hid_t parent, const std::string& name, const std::string& file) {
  Handle d(ok(H5Dopen2(parent, name.c_str(), H5P_DEFAULT), "H5Dopen2", name, file), H5Dclose);
  Handle space(ok(H5Dget_space(d.id()), "H5Dget_space", name, file), H5Sclose);
  if (H5Sget_simple_extent_ndims(space.id()) != 1)
    throw H5Error(fmt::format("{}: /{} is not a table of rows", file, name));
  hsize_t n = 0;
  H5Sget_simple_extent_dims(space.id(), &n, nullptr);
  return static_cast<std::size_t>(n);
}

void read_table(hid_t parent, const std::string& name, std::vector<unsigned char>& rows,
                std::size_t row_size, std::span<const Column> columns, const void* blank,
                const std::string& file) {
  const std::size_t n = table_rows(parent, name, file);
  rows.resize(n * row_size);
  for (std::size_t i = 0; i < n; ++i) std::memcpy(rows.data() + i * row_size, blank, row_size);
  if (n == 0) return;
  Handle d(ok(H5Dopen2(parent, name.c_str(), H5P_DEFAULT), "H5Dopen2", name, file), H5Dclose);
  Handle mem = compound(row_size, columns, name, file);
  ok(H5Dread(d.id(), mem.id(), H5S_ALL, H5S_ALL, H5P_DEFAULT, rows.data()), "H5Dread", name, file);
}

}  // namespace faultsweep::io
