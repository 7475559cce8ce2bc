// The append-only result journal (sweep/journal.hpp): what survives a crash, what is dropped.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/sweep/journal.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using faultsweep::IoError;
using faultsweep::sweep::Journal;
using faultsweep::sweep::JournalContents;
using faultsweep::sweep::read_journal;

namespace {

using faultsweep::testing::TempDir;

const std::string kJobFile = "jobs/x.toml";
const char kJobTextRaw[] = "[sweep]\nmodel = \"synthetic\"\n# \xc3\xa9 and a NUL: \0 end\n";
const std::string kJobText(kJobTextRaw, sizeof(kJobTextRaw) - 1);
constexpr std::uint32_t kMetrics = 3;
// Header: magic, u64 + name, u64 + text, u32 metric count, u32 CRC.
const std::size_t kHeader = 11 + 8 + kJobFile.size() + 8 + kJobText.size() + 4 + 4;
constexpr std::size_t kRecord = 8 + 8 * kMetrics + 4;

std::vector<double> values_of(std::uint64_t task) {
  return {static_cast<double>(task) + 0.1, -1.0 / (static_cast<double>(task) + 3.0),
          task % 2 ? std::numeric_limits<double>::quiet_NaN() : 1e300};
}

// A journal holding tasks 10, 11, ..., 10 + n - 1, of results version 1 (layout 1, whose bytes
// the tests below take apart; other versions add a field, tested on their own).
fs::path write_journal(const TempDir& dir, int n) {
  const fs::path p = dir.path() / "out.h5.journal";
  Journal j = Journal::create(p, kJobFile, kJobText, kMetrics, "", 1);
  for (int i = 0; i < n; ++i) j.append(10 + i, values_of(10 + i).data());
  j.sync();
  return p;
}

std::vector<char> bytes_of(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const fs::path& p, const std::vector<char>& b) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(b.data(), static_cast<std::streamsize>(b.size()));
}

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof(double)) == 0;
}

void check_records(const JournalContents& c, int n) {
  REQUIRE(c.tasks.size() == static_cast<std::size_t>(n));
  REQUIRE(c.values.size() == static_cast<std::size_t>(n) * kMetrics);
  for (int i = 0; i < n; ++i) {
    CHECK(c.tasks[i] == static_cast<std::uint64_t>(10 + i));
    const auto v = values_of(10 + i);
    for (std::uint32_t m = 0; m < kMetrics; ++m) CHECK(same_bits(c.values[i * kMetrics + m], v[m]));
  }
}

}  // namespace

TEST_CASE("journal: what is written is read back bit for bit", "[journal]") {
  TempDir dir;
  const fs::path p = write_journal(dir, 5);
  CHECK(fs::file_size(p) == kHeader + 5 * kRecord);
  const JournalContents c = read_journal(p);
  CHECK(c.job_file == kJobFile);
  CHECK(c.job_text == kJobText);  // binary-safe: the NUL byte survives
  CHECK(c.metric_count == kMetrics);
  check_records(c, 5);
  CHECK(c.valid_bytes == kHeader + 5 * kRecord);
  CHECK(c.dropped_bytes == 0);
}

TEST_CASE("journal: results version 1 keeps the old layouts, another version is stored",
          "[journal]") {
  TempDir dir;
  const fs::path p1 = write_journal(dir, 2);
  CHECK(std::string(bytes_of(p1).data(), 11) == "FSJOURNAL1\n");  // older builds still read it
  CHECK(read_journal(p1).results_version == 1);
  const fs::path p2 = dir.path() / "v2.journal";
  for (const std::string slice : {"", "1/3"}) {
    fs::remove(p2);
    {
      Journal j = Journal::create(p2, kJobFile, kJobText, kMetrics, slice, 2);
      j.append(7, values_of(7).data());
    }
    CHECK(std::string(bytes_of(p2).data(), 11) == "FSJOURNAL3\n");
    const JournalContents c = read_journal(p2);
    CHECK(c.results_version == 2);
    CHECK(c.slice == slice);
    CHECK(c.metric_count == kMetrics);
    REQUIRE(c.tasks.size() == 1);
    CHECK(c.tasks[0] == 7);
  }
}

TEST_CASE("journal: an empty journal has a header and no records", "[journal]") {
  TempDir dir;
  const fs::path p = write_journal(dir, 0);
  const JournalContents c = read_journal(p);
  CHECK(c.tasks.empty());
  CHECK(c.values.empty());
  CHECK(c.valid_bytes == kHeader);
  CHECK(c.dropped_bytes == 0);
}

TEST_CASE("journal: records are buffered until sync, and the destructor syncs", "[journal]") {
  TempDir dir;
  const fs::path p = dir.path() / "j";
  {
    Journal j = Journal::create(p, kJobFile, kJobText, kMetrics, "", 1);
    CHECK(fs::file_size(p) == kHeader);  // the header is written (and fsync'd) at once
    j.append(10, values_of(10).data());
    CHECK(fs::file_size(p) == kHeader);
    j.sync();
    CHECK(fs::file_size(p) == kHeader + kRecord);
    j.append(11, values_of(11).data());
    Journal moved = std::move(j);  // the buffer moves with it
  }
  check_records(read_journal(p), 2);
}

TEST_CASE("journal: create refuses an existing file", "[journal]") {
  TempDir dir;
  const fs::path p = write_journal(dir, 2);
  CHECK_THROWS_AS(Journal::create(p, kJobFile, kJobText, kMetrics), IoError);
  check_records(read_journal(p), 2);  // untouched
}

TEST_CASE("journal: a torn tail is dropped and counted", "[journal]") {
  TempDir dir;
  const fs::path p = write_journal(dir, 4);
  // A crash in the middle of writing the last record.
  const std::size_t cut = kHeader + 3 * kRecord + 13;
  fs::resize_file(p, cut);
  const JournalContents c = read_journal(p);
  check_records(c, 3);
  CHECK(c.valid_bytes == kHeader + 3 * kRecord);
  CHECK(c.dropped_bytes == 13);

  SECTION("garbage appended after intact records is dropped too") {
    fs::resize_file(p, kHeader + 3 * kRecord);
    {
      std::ofstream out(p, std::ios::binary | std::ios::app);
      out << "garbage";
    }
    const JournalContents g = read_journal(p);
    check_records(g, 3);
    CHECK(g.dropped_bytes == 7);
  }
  SECTION("resume cuts the tail and continues after the last intact record") {
    {
      JournalContents r;
      Journal j = Journal::resume(p, &r);
      CHECK(r.tasks == c.tasks);
      CHECK_THROWS_AS(Journal::resume(p, &r), faultsweep::IoError);  // locked while j lives
      CHECK(fs::file_size(p) == kHeader + 3 * kRecord);
      j.append(13, values_of(13).data());
      j.append(14, values_of(14).data());
      j.sync();
    }
    const JournalContents d = read_journal(p);
    check_records(d, 5);
    CHECK(d.dropped_bytes == 0);
  }
}

TEST_CASE("journal: a flipped byte costs its own record only, the records after it are kept",
          "[journal]") {
  TempDir dir;
  const fs::path p = write_journal(dir, 5);
  auto b = bytes_of(p);
  // Damage the third record (index 2: a value byte, the task id, the CRC): records 0, 1, 3 and
  // 4 survive, found again by resyncing on the next record whose CRC matches.
  const std::size_t at = kHeader + 2 * kRecord + 8 + 5;
  for (const std::size_t offset : {at, kHeader + 2 * kRecord, kHeader + 3 * kRecord - 1}) {
    auto damaged = b;
    damaged[offset] = static_cast<char>(damaged[offset] ^ 0x10);
    write_bytes(p, damaged);
    const JournalContents c = read_journal(p);
    REQUIRE(c.tasks.size() == 4);
    const std::uint64_t want[] = {10, 11, 13, 14};
    for (std::size_t i = 0; i < 4; ++i) {
      CHECK(c.tasks[i] == want[i]);
      const auto v = values_of(want[i]);
      for (std::uint32_t m = 0; m < kMetrics; ++m)
        CHECK(same_bits(c.values[i * kMetrics + m], v[m]));
    }
    CHECK(c.damaged_records == 1);
    CHECK(c.damaged_bytes == kRecord);
    CHECK(c.valid_bytes == kHeader + 5 * kRecord);
    CHECK(c.dropped_bytes == 0);
  }
}

TEST_CASE("journal: damage in two places and a torn tail: every intact record is kept",
          "[journal]") {
  TempDir dir;
  const fs::path p = write_journal(dir, 8);
  auto b = bytes_of(p);
  b[kHeader + 1 * kRecord + 9] ^= 0x01;         // record 1
  b[kHeader + 5 * kRecord + 3] ^= 0x01;         // record 5
  b.insert(b.end(), {'\x01', '\x02', '\x03'});  // a torn last record
  write_bytes(p, b);
  const JournalContents c = read_journal(p);
  CHECK(c.tasks == std::vector<std::uint64_t>{10, 12, 13, 14, 16, 17});
  CHECK(c.damaged_records == 2);
  CHECK(c.dropped_bytes == 3);
  CHECK(c.valid_bytes == kHeader + 8 * kRecord);
}

TEST_CASE("journal: a long damaged stretch is crossed and the records after it kept", "[journal]") {
  TempDir dir;
  const fs::path p = write_journal(dir, 4);
  auto b = bytes_of(p);
  // 1 MiB of zeros and then 1 MiB of bytes from a fixed stream, between records 1 and 2.
  std::vector<char> junk(2u << 20, 0);
  std::uint32_t x = 2463534242u;
  for (std::size_t i = junk.size() / 2; i < junk.size(); ++i) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    junk[i] = static_cast<char>(x);
  }
  b.insert(b.begin() + static_cast<std::ptrdiff_t>(kHeader + 2 * kRecord), junk.begin(),
           junk.end());
  write_bytes(p, b);
  const JournalContents c = read_journal(p);
  check_records(c, 4);
  CHECK(c.damaged_bytes == junk.size());
  CHECK(c.damaged_records == (junk.size() + kRecord - 1) / kRecord);
  CHECK(c.valid_bytes == b.size());
}

TEST_CASE("journal: a length field near 2^64 is a damaged header, found before any allocation",
          "[journal]") {
  TempDir dir;
  const fs::path p = write_journal(dir, 2);
  auto b = bytes_of(p);
  const std::uint64_t huge = ~std::uint64_t{0} - 7;  // 2^64 - 8: pos + n wraps around
  for (const std::size_t field : {std::size_t{11}, 11 + 8 + kJobFile.size()}) {
    auto d = b;
    std::memcpy(d.data() + field, &huge, 8);
    write_bytes(p, d);
    CHECK_THROWS_AS(read_journal(p), IoError);
    CHECK_THROWS_WITH(read_journal(p), Catch::Contains("truncated"));
  }
}

TEST_CASE("journal: a missing or damaged header throws IoError naming the file", "[journal]") {
  TempDir dir;
  const fs::path p = write_journal(dir, 2);
  const auto b = bytes_of(p);
  const auto throws_for = [&](const std::vector<char>& content) {
    write_bytes(p, content);
    CHECK_THROWS_WITH(read_journal(p), Catch::Contains(p.string()));
    CHECK_THROWS_AS(read_journal(p), IoError);
  };
  SECTION("a byte of the job text") {
    auto d = b;
    d[11 + 8 + kJobFile.size() + 8 + 3] ^= 0x01;
    throws_for(d);
  }
  SECTION("the metric count") {
    auto d = b;
    d[kHeader - 8] ^= 0x01;
    throws_for(d);
  }
  SECTION("the magic") {
    auto d = b;
    d[0] = 'X';
    throws_for(d);
  }
  SECTION("a length that runs past the end") {
    auto d = b;
    d[11 + 7] = 0x7f;
    throws_for(d);
  }
  SECTION("truncated inside the header") {
    throws_for(std::vector<char>(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(kHeader - 2)));
  }
  SECTION("an empty file") {
    throws_for({});
  }
  SECTION("no file at all") {
    CHECK_THROWS_AS(read_journal(dir.path() / "absent.journal"), IoError);
  }
}
