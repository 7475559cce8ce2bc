#pragma once
// Where a sweep's records live (DESIGN §5c). Workers hand each recorded task's tables, encoded
// (sim/records.hpp), to the coordinator, which appends them to a side journal next to the
// result journal (OUT.records.journal) and writes them into the results file as
// /records/point_<p>/replica_<r>/{jobs,attempts,allocations,failures,nodes,decisions}. Resume
// reads them back from the side journal or from a partial results file, and merge takes the
// union of its inputs' records, so that every recorded task's tables are in the final file once.
//
// Side journal layout (little-endian): "FSRECORDS-JOURNAL1\n", u32 CRC-32 of it; then records of
// u64 task, u64 length, length bytes, u32 CRC-32 of the record's preceding bytes. A torn or
// damaged record ends the reading: the tasks after it are run again.
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

// Encoded tables by task id.
using TaskRecords = std::map<std::uint64_t, std::vector<unsigned char>>;

class RecordJournal {
 public:
  // Opens (or creates) the side journal at `path`, reads its intact records into *records and
  // cuts the rest off, so that appends follow them.
  static RecordJournal open(const std::filesystem::path& path, TaskRecords* records);
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
// intact records into *records and the bytes they take with the header (what open() keeps).
std::size_t parse_record_journal(std::span<const unsigned char> bytes, TaskRecords* records);

// A sweep's records: the side journal and what it holds.
struct RecordOutput {
  RecordJournal journal;
  TaskRecords tasks;
};

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
