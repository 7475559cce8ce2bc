// libFuzzer target: the readers of what a killed run leaves behind, on arbitrary bytes. Each
// input goes to all three: the result journal (`parse_journal`, with its CRC-32 resync past
// damaged records), the records side journal (`parse_record_journal`, which skips damaged
// records along the chain of their lengths) and the encoded tables of one recorded task
// (`decode_records`, also on each record the side journal yields). A finding is anything but
// contents or an IoError from the first, counts that do not add up in either journal (the
// header, the intact records and the damaged bytes must make up the bytes kept; kept and
// dropped bytes the file), result records other than a resync computing every CRC afresh finds,
// tables that do not encode back to the very bytes they were read from, a crash, a sanitizer
// report or a hang.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/hash.hpp"
#include "faultsweep/sim/records.hpp"
#include "faultsweep/sweep/journal.hpp"
#include "faultsweep/sweep/record_store.hpp"

namespace {

using Bytes = std::span<const unsigned char>;

void check(bool ok) {
  if (!ok) __builtin_trap();
}

void result_journal(Bytes d) {
  faultsweep::sweep::JournalContents c;
  try {
    c = faultsweep::sweep::parse_journal(d, "fuzz.journal");
  } catch (const faultsweep::IoError&) {
    return;
  }
  // Layouts 1, 2 and 3 differ in the tenth byte of the magic ("FSJOURNAL1\n").
  const char layout = static_cast<char>(d[9]);
  const std::uint64_t header = 11 + 8 + c.job_file.size() + 8 + c.job_text.size() +
                               (layout == '1' ? 0 : 8 + c.slice.size()) + (layout == '3' ? 4 : 0) +
                               4 + 4;
  const std::uint64_t rec = 8 + 8 * std::uint64_t{c.metric_count} + 4;
  check(c.metric_count <= (1u << 20));
  check(layout == '3' || c.results_version == 1);
  check(layout != '1' || c.slice.empty());
  check(c.values.size() == c.tasks.size() * c.metric_count);
  check(c.valid_bytes <= d.size() && c.valid_bytes + c.dropped_bytes == d.size());
  check(c.valid_bytes == header + c.tasks.size() * rec + c.damaged_bytes);
  // Each damaged stretch counts its bytes / rec records, rounded up: at least one, at most one
  // a byte.
  check(c.damaged_records * rec >= c.damaged_bytes && c.damaged_records <= c.damaged_bytes);
  // The same records as a resync that computes each offset's CRC-32 afresh (the reader moves
  // it on a byte at a time).
  std::vector<std::uint64_t> tasks;
  std::uint64_t kept = header;
  for (std::uint64_t at = header; rec <= d.size() - at;) {
    std::uint32_t crc;
    std::memcpy(&crc, d.data() + at + rec - 4, 4);
    if (crc != faultsweep::crc32_bytes(d.data() + at, rec - 4)) {
      ++at;
      continue;
    }
    std::uint64_t task;
    std::memcpy(&task, d.data() + at, 8);
    tasks.push_back(task);
    at += rec;
    kept = at;
  }
  check(tasks == c.tasks && kept == c.valid_bytes);
}

// Tables read from `d` must be written back as `d`, byte for byte.
void tables(Bytes d) {
  try {
    const faultsweep::sim::RecordTables t = faultsweep::sim::decode_records(d, "fuzz");
    const std::vector<unsigned char> again = faultsweep::sim::encode_records(t);
    check(again.size() == d.size() &&
          (d.empty() || std::memcmp(again.data(), d.data(), d.size()) == 0));
  } catch (const faultsweep::IoError&) {
  }
}

void record_journal(Bytes d) {
  faultsweep::sweep::TaskRecords records;
  faultsweep::sweep::RecordJournalDamage damage;
  const std::size_t kept = faultsweep::sweep::parse_record_journal(d, &records, &damage);
  check(kept <= d.size());
  if (kept == 0) {
    check(records.empty());
    return;
  }
  check(kept + damage.dropped_bytes == d.size());
  // Each damaged record takes 20 bytes at least besides its tables.
  check(damage.damaged_records * 20 <= damage.damaged_bytes &&
        (damage.damaged_records == 0) == (damage.damaged_bytes == 0));
  // The header is the magic (19 bytes) and its CRC-32; each record takes 20 bytes besides its
  // tables; a task written twice is kept once, so the intact records and the damaged bytes
  // make up at most what is kept.
  std::uint64_t bytes = 19 + 4 + damage.damaged_bytes;
  for (const auto& [task, blob] : records) {
    bytes += 20 + blob.size();
    tables(blob);
  }
  check(bytes <= kept);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Bytes d(data, size);
  result_journal(d);
  record_journal(d);
  tables(d);
  return 0;
}
