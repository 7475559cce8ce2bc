#pragma once
// Where a sweep's records live (DESIGN §5c). Workers hand each recorded task's tables, encoded
// (sim/records.hpp), to the coordinator, which appends them to a side journal next to the
// result journal (OUT.records.journal) and writes them into the results file as
// /records/point_<p>/replica_<r>/{jobs,attempts,allocations,failures,nodes,decisions}. Resume
// reads them back from the side journal or from a partial results file, and merge takes the
// union of its inputs' records, so that every recorded task's tables are in the final file once.
//
// Side journal layout (little-endian): "FSRECORDS-JOURNAL1\n", u32 CRC-32 of it; then records of
// u64 task, u64 length, length bytes, u32 CRC-32 of the record's preceding bytes. A damaged
// record is skipped by its length field when an intact record follows where it says it ends
// (its task runs again); a torn record, or lengths that lead out of the file, end the reading
// (the tasks after run again).
#include <hdf5.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "faultsweep/sweep/job.hpp"
#include "faultsweep/sweep/store.hpp"

namespace faultsweep::sweep {

// The side journal's first bytes: this magic, then its CRC-32 (kRecordJournalHeader in all).
inline constexpr char kRecordJournalMagic[] = "FSRECORDS-JOURNAL1\n";
inline constexpr std::size_t kRecordJournalHeader = sizeof(kRecordJournalMagic) - 1 + 4;

// Encoded tables by task id.
using TaskRecords = std::map<std::uint64_t, std::vector<unsigned char>>;

// What reading a side journal passed over besides its intact records.
struct RecordJournalDamage {
  std::uint64_t damaged_records = 0;  // skipped before the last intact record (CRC mismatch)
  std::uint64_t damaged_bytes = 0;
  std::uint64_t dropped_bytes = 0;  // a torn or unreadable tail after the last intact record
};

class RecordJournal {
 public:
  // Opens (or creates) the side journal at `path`, reads its intact records into *records and
  // cuts the tail after the last of them off, so that appends follow them; *damage (if given)
  // says what was skipped and cut.
  static RecordJournal open(const std::filesystem::path& path, TaskRecords* records,
                            RecordJournalDamage* damage = nullptr);
  RecordJournal(RecordJournal&&) noexcept;
  RecordJournal& operator=(RecordJournal&&) = delete;
  RecordJournal(const RecordJournal&) = delete;
  ~RecordJournal();
  void append(std::uint64_t task, const std::vector<unsigned char>& bytes);  // buffered
  void sync();  // writes the buffer and fdatasyncs

 private:
  RecordJournal(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  int fd_ = -1;
  std::string path_;
  std::vector<unsigned char> buffer_;
};

// A side journal's bytes: 0 if they do not start with its header (then RecordJournal::open
// starts the file again if it is shorter than the header, and refuses it otherwise); else its
// intact records into *records and the bytes up to the end of the last of them (what open()
// keeps), with *damage (if given) saying what was skipped and what follows.
std::size_t parse_record_journal(std::span<const unsigned char> bytes, TaskRecords* records,
                                 RecordJournalDamage* damage = nullptr);

// A sweep's records: the side journal and what it holds.
struct RecordOutput {
  RecordJournal journal;
  TaskRecords tasks;
  RecordJournalDamage damage;  // what opening the side journal skipped and cut
  std::size_t rerun = 0;       // done tasks marked to run again: their records are missing
};

// What opening the side journal passed over and which tasks run again for it, in a line ("" if
// nothing).
std::string describe_record_output(const RecordOutput& o, const std::filesystem::path& journal);

// The side journal next to a results file OUT.
inline std::filesystem::path records_journal_path(const std::filesystem::path& out) {
  return out.string() + ".records.journal";
}

// The records of a run of `job` writing `out`: the side journal opened (emptied for a `fresh`
// run), with `from_file`'s records added (a resume from a partial results file); a done task of
// the selection whose records are missing is marked not done in `table`, so that it runs again.
RecordOutput open_record_output(const JobSpec& job, const std::filesystem::path& out, bool fresh,
                                TaskRecords from_file, ResultTable& table);

// /records of a results file (tasks of `records` whose task is done in `done`).
void write_records(hid_t root, std::size_t replicas_max, const TaskRecords& records,
                   const std::vector<std::uint8_t>& done, const std::string& file);
// What `inspect` says of the records: a summary line, then one line per recorded task.
std::vector<std::string> describe_records(const TaskRecords& records, std::size_t replicas_max);

// The records of an open results file (empty if it has none).
TaskRecords read_records(hid_t root, std::size_t replicas_max, const std::string& file);

}  // namespace faultsweep::sweep
