#pragma once
// Tables of rows as HDF5 compound datasets: one column per field of a plain struct, chunked
// and deflate-compressed, with the column units and a description as attributes (`columns`,
// `units`: comma-separated, in column order). Errors throw H5Error naming file and dataset.
#include <hdf5.h>

#include <cstddef>
#include <cstring>
#include <span>
#include <string>
#include <vector>

namespace faultsweep::io {

struct Column {
  const char* name;
  std::size_t offset;  // offsetof(Row, field)
  hid_t type;          // H5T_NATIVE_*
  const char* unit;    // "s", "1", "" for codes and indices
};

void write_table(hid_t parent, const std::string& name, const void* rows, std::size_t n,
                 std::size_t row_size, std::span<const Column> columns,
                 const std::string& description, const std::string& file);
// Reads the rows into `rows` (n x row_size bytes, fields by name; a missing column stays as
// the bytes of `blank`, one default row).
void read_table(hid_t parent, const std::string& name, std::vector<unsigned char>& rows,
                std::size_t row_size, std::span<const Column> columns, const void* blank,
                const std::string& file);
// The number of rows of a table.
std::size_t table_rows(hid_t parent, const std::string& name, const std::string& file);

template <class Row>
void write_rows(hid_t parent, const std::string& name, const std::vector<Row>& rows,
                std::span<const Column> columns, const std::string& description,
                const std::string& file) {
  write_table(parent, name, rows.data(), rows.size(), sizeof(Row), columns, description, file);
}

template <class Row>
std::vector<Row> read_rows(hid_t parent, const std::string& name, std::span<const Column> columns,
                           const std::string& file) {
  std::vector<unsigned char> raw;
  const Row blank{};
  read_table(parent, name, raw, sizeof(Row), columns, &blank, file);
  std::vector<Row> out(raw.size() / sizeof(Row));
  if (!out.empty()) std::memcpy(static_cast<void*>(out.data()), raw.data(), raw.size());
  return out;
}

}  // namespace faultsweep::io
