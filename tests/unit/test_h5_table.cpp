// Record tables are written chunk by chunk, shuffled and deflated by faultsweep itself, and must
// read back through HDF5's own filter pipeline (what h5py, pandas and h5dump do) to the same rows.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "faultsweep/io/h5.hpp"
#include "faultsweep/io/h5_table.hpp"
#include "temp_dir.hpp"

using namespace faultsweep;

namespace {

// Padding between the fields, as in the record rows: the file holds them packed.
struct Row {
  std::int32_t id = -1;
  double t_s = 0;
  std::uint8_t state = 0;
  std::int64_t node = 0;
};

std::vector<io::Column> columns() {
  return {{"id", offsetof(Row, id), H5T_NATIVE_INT32, ""},
          {"t_s", offsetof(Row, t_s), H5T_NATIVE_DOUBLE, "s"},
          {"state", offsetof(Row, state), H5T_NATIVE_UINT8, ""},
          {"node", offsetof(Row, node), H5T_NATIVE_INT64, ""}};
}

std::vector<Row> rows(std::size_t n) {
  std::vector<Row> out(n);
  for (std::size_t i = 0; i < n; ++i)
    out[i] = {static_cast<std::int32_t>(i), 0.25 * static_cast<double>(i * i),
              static_cast<std::uint8_t>(i % 5), -static_cast<std::int64_t>(i % 1000)};
  return out;
}

bool same(const Row& a, const Row& b) {
  return a.id == b.id && a.t_s == b.t_s && a.state == b.state && a.node == b.node;
}

}  // namespace

TEST_CASE("h5 tables: shuffled and deflated chunks read back through HDF5's filters",
          "[io][records]") {
  const testing::TempDir dir("h5table");
  const auto cols = columns();
  // Three full chunks of 16384 rows and a partial one; one row; none.
  for (const std::size_t n : {std::size_t{3 * 16384 + 7}, std::size_t{1}, std::size_t{0}}) {
    INFO(n << " rows");
    const auto path = dir.path() / ("t" + std::to_string(n) + ".h5");
    const std::vector<Row> in = rows(n);
    {
      io::File f = io::File::create(path);
      io::write_rows(f.id(), "table", in, cols, "test rows", path.string());
      f.close();
    }
    io::File f = io::File::open_read(path);
    const std::vector<Row> out = io::read_rows<Row>(f.id(), "table", cols, path.string());
    REQUIRE(out.size() == n);
    for (std::size_t i = 0; i < n; ++i)
      if (!same(in[i], out[i])) FAIL("row " << i << " differs");
    // The filters a reader sees: shuffle, then deflate.
    const io::Handle d(H5Dopen2(f.id(), "table", H5P_DEFAULT), H5Dclose);
    const io::Handle dcpl(H5Dget_create_plist(d.id()), H5Pclose);
    REQUIRE(H5Pget_nfilters(dcpl.id()) == 2);
    const auto filter = [&](unsigned i) {
      unsigned flags = 0;
      std::size_t values = 0;  // the filter's parameters are not read
      return H5Pget_filter2(dcpl.id(), i, &flags, &values, nullptr, 0, nullptr, nullptr);
    };
    CHECK(filter(0) == H5Z_FILTER_SHUFFLE);
    CHECK(filter(1) == H5Z_FILTER_DEFLATE);
    if (n > 1000) {
      // Packed rows are 21 bytes; these compress well.
      CHECK(H5Dget_storage_size(d.id()) < n * 21 / 2);
    }
  }
}

TEST_CASE("h5 arrays: large arrays are deflated chunk by chunk and read back unchanged", "[io]") {
  const testing::TempDir dir("h5arrays");
  const auto path = dir.path() / "a.h5";
  // 2-D: chunks of 65536 / 3 rows, the last one partial; 1-D: two chunks of 65536 and a partial.
  const std::vector<hsize_t> dims2{70001, 3}, dims1{140000};
  std::vector<double> a2(70001 * 3), a1(140000);
  for (std::size_t i = 0; i < a2.size(); ++i) a2[i] = std::sqrt(static_cast<double>(i));
  for (std::size_t i = 0; i < a1.size(); ++i) a1[i] = static_cast<double>(i % 977) * 0.5;
  std::vector<std::uint8_t> u(140000);
  for (std::size_t i = 0; i < u.size(); ++i) u[i] = static_cast<std::uint8_t>(i * 7);
  {
    io::File f = io::File::create(path);
    io::write_doubles(f.id(), "a2", a2, dims2, path.string());
    io::write_doubles(f.id(), "a1", a1, dims1, path.string());
    io::write_u8(f.id(), "u", u, dims1, path.string());
    f.close();
  }
  io::File f = io::File::open_read(path);
  std::vector<hsize_t> d;
  CHECK(io::read_doubles(f.id(), "a2", d, path.string()) == a2);
  CHECK(d == dims2);
  CHECK(io::read_doubles(f.id(), "a1", d, path.string()) == a1);
  CHECK(io::read_u8(f.id(), "u", d, path.string()) == u);
  const io::Handle ds(H5Dopen2(f.id(), "a1", H5P_DEFAULT), H5Dclose);
  CHECK(H5Dget_storage_size(ds.id()) < a1.size() * sizeof(double) / 4);  // 977 distinct values
}

TEST_CASE("h5 arrays: chunks compressed on 3 threads are the bytes of 1 thread", "[io]") {
  const testing::TempDir dir("h5threads");
  std::vector<double> a(300000);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = std::sin(0.001 * static_cast<double>(i));
  const auto write = [&](unsigned threads) {
    const auto path = dir.path() / ("t" + std::to_string(threads) + ".h5");
    io::set_compression_threads(threads);
    io::File f = io::File::create(path);
    io::write_doubles(f.id(), "a", a, {a.size()}, path.string());
    f.close();
    io::set_compression_threads(1);
    io::File r = io::File::open_read(path);
    std::vector<hsize_t> d;
    CHECK(io::read_doubles(r.id(), "a", d, path.string()) == a);
    const io::Handle ds(H5Dopen2(r.id(), "a", H5P_DEFAULT), H5Dclose);
    return H5Dget_storage_size(ds.id());
  };
  const hsize_t one = write(1);
  CHECK(write(3) == one);
  CHECK(one < a.size() * sizeof(double));
}
