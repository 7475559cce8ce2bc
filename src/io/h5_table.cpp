#include "faultsweep/io/h5_table.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "faultsweep/io/h5.hpp"

namespace faultsweep::io {
namespace {

hid_t ok(hid_t id, const char* call, const std::string& name, const std::string& file) {
  if (id < 0) throw H5Error(fmt::format("{}: {} failed for /{}", file, call, name));
  return id;
}

Handle compound(std::size_t row_size, std::span<const Column> columns, const std::string& name,
                const std::string& file) {
  Handle t(ok(H5Tcreate(H5T_COMPOUND, row_size), "H5Tcreate", name, file), H5Tclose);
  for (const Column& c : columns)
    ok(H5Tinsert(t.id(), c.name, c.offset, c.type), "H5Tinsert", name, file);
  return t;
}

std::string joined(std::span<const Column> columns, bool units) {
  std::string s;
  for (const Column& c : columns)
    s += (s.empty() ? "" : ",") + std::string(units ? c.unit : c.name);
  return s;
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
  const hsize_t chunk = std::clamp<hsize_t>(n, 1, 16384);
  H5Pset_chunk(dcpl.id(), 1, &chunk);
  // Not compressed: deflate (even at level 1) made a recorded run cost 1.66x the CPU of an
  // unrecorded one instead of 1.3x; `h5repack -f SHUF -f GZIP=1` shrinks a file about 4x.
  Handle d(ok(H5Dcreate2(parent, name.c_str(), disk.id(), space.id(), H5P_DEFAULT, dcpl.id(),
                         H5P_DEFAULT),
              "H5Dcreate2", name, file),
           H5Dclose);
  if (n > 0)
    ok(H5Dwrite(d.id(), mem.id(), H5S_ALL, H5S_ALL, H5P_DEFAULT, rows), "H5Dwrite", name, file);
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
