// The records side journal (sweep/record_store.hpp): what a resume reads back from it, what it
// skips and cuts off, and which files it refuses.
#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/sweep/record_store.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using faultsweep::IoError;
using faultsweep::sweep::parse_record_journal;
using faultsweep::sweep::RecordJournal;
using faultsweep::sweep::TaskRecords;

namespace {

using faultsweep::testing::TempDir;

constexpr std::size_t kHeader = 19 + 4;  // "FSRECORDS-JOURNAL1\n" and its CRC-32

std::vector<unsigned char> blob_of(std::uint64_t task) {
  std::vector<unsigned char> b(5 + task % 7);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<unsigned char>(task * 31 + i);
  return b;
}

// A side journal holding tasks 3, 4, ..., 3 + n - 1 (record k takes 20 + blob bytes).
fs::path write_journal(const TempDir& dir, int n) {
  const fs::path p = dir.path() / "out.h5.records.journal";
  TaskRecords none;
  RecordJournal j = RecordJournal::open(p, &none);
  REQUIRE(none.empty());
  for (int i = 0; i < n; ++i) j.append(3 + i, blob_of(3 + i));
  j.sync();
  return p;
}

std::vector<unsigned char> bytes_of(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const fs::path& p, const std::vector<unsigned char>& b) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

std::size_t record_bytes(int first, int n) {
  std::size_t s = 0;
  for (int i = 0; i < n; ++i) s += 20 + blob_of(first + i).size();
  return s;
}

void check_tasks(const TaskRecords& r, int n) {
  REQUIRE(r.size() == static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const auto it = r.find(3 + i);
    REQUIRE(it != r.end());
    CHECK(it->second == blob_of(3 + i));
  }
}

// The tasks read, in order.
std::vector<std::uint64_t> tasks_of(const TaskRecords& r) {
  std::vector<std::uint64_t> t;
  for (const auto& [task, blob] : r) {
    CHECK(blob == blob_of(task));
    t.push_back(task);
  }
  return t;
}

}  // namespace

TEST_CASE("records journal: what is written is read back, and appends follow it",
          "[record_journal]") {
  TempDir dir;
  const fs::path p = write_journal(dir, 3);
  CHECK(fs::file_size(p) == kHeader + record_bytes(3, 3));
  TaskRecords r;
  CHECK(parse_record_journal(bytes_of(p), &r) == fs::file_size(p));
  check_tasks(r, 3);
  {
    TaskRecords again;
    RecordJournal j = RecordJournal::open(p, &again);
    check_tasks(again, 3);
    j.append(6, blob_of(6));
  }  // the destructor syncs
  TaskRecords four;
  RecordJournal::open(p, &four);
  check_tasks(four, 4);
}

TEST_CASE("records journal: a torn record is cut off and the records before it kept",
          "[record_journal]") {
  TempDir dir;
  const fs::path p = write_journal(dir, 3);
  std::vector<unsigned char> b = bytes_of(p);
  b.resize(b.size() - 5);  // the last record's CRC cut short
  write_bytes(p, b);
  TaskRecords r;
  faultsweep::sweep::RecordJournalDamage damage;
  CHECK(parse_record_journal(b, &r, &damage) == kHeader + record_bytes(3, 2));
  check_tasks(r, 2);
  CHECK(damage.damaged_records == 0);
  CHECK(damage.dropped_bytes == record_bytes(5, 1) - 5);
  TaskRecords opened;
  {
    RecordJournal j = RecordJournal::open(p, &opened);
    check_tasks(opened, 2);
    CHECK(fs::file_size(p) == kHeader + record_bytes(3, 2));
    j.append(5, blob_of(5));
  }
  TaskRecords three;
  RecordJournal::open(p, &three);
  check_tasks(three, 3);
}

TEST_CASE("records journal: a damaged record is skipped by its length, the records after it kept",
          "[record_journal]") {
  TempDir dir;
  const fs::path p = write_journal(dir, 4);
  const std::vector<unsigned char> clean = bytes_of(p);
  const std::size_t second = kHeader + record_bytes(3, 1), third = second + record_bytes(4, 1);
  using faultsweep::sweep::RecordJournalDamage;
  SECTION("a byte of its tables") {
    std::vector<unsigned char> b = clean;
    b[second + 18] ^= 0x10;
    write_bytes(p, b);
    TaskRecords r;
    RecordJournalDamage damage;
    {
      RecordJournal j = RecordJournal::open(p, &r, &damage);
      CHECK(tasks_of(r) == std::vector<std::uint64_t>{3, 5, 6});
      CHECK(damage.damaged_records == 1);
      CHECK(damage.damaged_bytes == record_bytes(4, 1));
      CHECK(damage.dropped_bytes == 0);
      CHECK(fs::file_size(p) == b.size());  // the damaged bytes stay: the next reading skips them
      j.append(4, blob_of(4));              // the task ran again
    }
    TaskRecords again;
    RecordJournal::open(p, &again, &damage);
    check_tasks(again, 4);
    CHECK(damage.damaged_records == 1);
  }
  SECTION("two in a row, their lengths intact") {
    std::vector<unsigned char> b = clean;
    b[second + 19] ^= 0x01;
    b[third + record_bytes(5, 1) - 1] ^= 0x80;  // the third record's CRC
    TaskRecords r;
    RecordJournalDamage damage;
    CHECK(parse_record_journal(b, &r, &damage) == b.size());
    CHECK(tasks_of(r) == std::vector<std::uint64_t>{3, 6});
    CHECK(damage.damaged_records == 2);
    CHECK(damage.damaged_bytes == record_bytes(4, 2));
  }
  SECTION("a length field: the reading ends there, as at a torn record") {
    std::vector<unsigned char> b = clean;
    b[second + 8 + 6] = 0x7f;  // task 4's length now reaches past the file's end
    TaskRecords r;
    RecordJournalDamage damage;
    CHECK(parse_record_journal(b, &r, &damage) == second);
    CHECK(tasks_of(r) == std::vector<std::uint64_t>{3});
    CHECK(damage.damaged_records == 0);
    CHECK(damage.dropped_bytes == b.size() - second);
    write_bytes(p, b);
    TaskRecords opened;
    RecordJournal::open(p, &opened);
    CHECK(fs::file_size(p) == second);
  }
  SECTION("the last record: no intact record follows, so it is a tail") {
    std::vector<unsigned char> b = clean;
    b[b.size() - 7] ^= 0x04;
    TaskRecords r;
    RecordJournalDamage damage;
    CHECK(parse_record_journal(b, &r, &damage) == b.size() - record_bytes(6, 1));
    CHECK(tasks_of(r) == std::vector<std::uint64_t>{3, 4, 5});
    CHECK(damage.damaged_records == 0);
    CHECK(damage.dropped_bytes == record_bytes(6, 1));
  }
}

TEST_CASE("records journal: a task written twice is read as its last record", "[record_journal]") {
  TempDir dir;
  const fs::path p = write_journal(dir, 2);
  {
    TaskRecords r;
    RecordJournal j = RecordJournal::open(p, &r);
    j.append(3, blob_of(10));
  }
  TaskRecords r;
  CHECK(parse_record_journal(bytes_of(p), &r) == fs::file_size(p));
  REQUIRE(r.size() == 2);
  CHECK(r.at(3) == blob_of(10));
  CHECK(r.at(4) == blob_of(4));
}

TEST_CASE("records journal: a header cut short starts the file again, another file is refused",
          "[record_journal]") {
  TempDir dir;
  const fs::path p = write_journal(dir, 2);
  std::vector<unsigned char> b = bytes_of(p);
  b.resize(kHeader - 1);  // killed while writing the header
  write_bytes(p, b);
  TaskRecords r;
  CHECK(parse_record_journal(b, &r) == 0);
  RecordJournal::open(p, &r);
  CHECK(r.empty());
  CHECK(fs::file_size(p) == kHeader);

  const fs::path other = dir.path() / "other.records.journal";
  std::vector<unsigned char> text(kHeader + 40, 'x');
  write_bytes(other, text);
  CHECK(parse_record_journal(text, &r) == 0);
  try {
    RecordJournal::open(other, &r);
    FAIL("a file that is not a records journal was opened");
  } catch (const IoError& e) {
    CHECK(std::string(e.what()).find("not a faultsweep records journal") != std::string::npos);
  }
  CHECK(bytes_of(other) == text);  // left as it was
}
