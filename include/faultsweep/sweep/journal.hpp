#pragma once
// The append-only result journal next to the output (OUT.journal). The coordinator appends one
// record per finished task and fsyncs in batches, so a crash (even kill -9) loses at most the
// last unsynced batch. Records carry a CRC-32; a torn tail is detected and dropped on read.
//
// Layout (little-endian): "FSJOURNAL1\n", u64 len + job file name, u64 len + job file text,
// u32 metric count, u32 CRC-32 of everything before it; then records of
// u64 task id, metric count × f64 values, u32 CRC-32 of the record's preceding bytes.
// A slice's journal starts "FSJOURNAL2\n" and has u64 len + slice ("i/n") after the job text,
// so that resuming it as another slice (or as the whole sweep) is refused.
// Results of a results_version other than 1 (sweep/store.hpp) start "FSJOURNAL3\n": the slice
// field (empty for a whole sweep), then u32 results_version before the metric count.
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "faultsweep/sweep/results_version.hpp"

namespace faultsweep::sweep {

// How every layout's magic begins (then the layout's digit and '\n'): what tells a journal from
// another file.
inline constexpr char kJournalMagicStem[] = "FSJOURNAL";

struct JournalContents {
  std::string job_file;
  std::string job_text;
  std::string slice;                  // "i/n" when the journal belongs to one slice of the sweep
  std::uint32_t results_version = 1;  // of the values it holds (layouts 1 and 2: 1)
  std::uint32_t metric_count = 0;
  std::vector<std::uint64_t> tasks;  // in the order written
  std::vector<double> values;        // tasks.size() × metric_count
  std::uint64_t valid_bytes = 0;     // header + intact records
  std::uint64_t dropped_bytes = 0;   // torn or corrupt tail after the last intact record
  // Damaged records before the last intact one (a flipped byte): skipped by resyncing on the
  // next record whose CRC matches; their tasks simply run again.
  std::uint64_t damaged_records = 0;  // estimated from the bytes skipped, rounded up
  std::uint64_t damaged_bytes = 0;
};

// Reads a journal; throws IoError if the header is missing or corrupt.
JournalContents read_journal(const std::filesystem::path& path);
// The same from the journal's bytes (`path` names it in messages).
JournalContents parse_journal(std::span<const unsigned char> bytes,
                              const std::filesystem::path& path);

class Journal {
 public:
  // A new journal; fails (IoError) if the file exists.
  static Journal create(
      const std::filesystem::path& path, const std::string& job_file, const std::string& job_text,
      std::uint32_t metric_count, const std::string& slice = "",
      std::uint32_t results_version = static_cast<std::uint32_t>(kResultsVersion));
  // Continues an existing journal: reads it into *contents and cuts the torn tail off, so that
  // appends follow the last intact record. (A caller that may refuse the resume checks
  // read_journal() first: the runner does, so a refused resume changes nothing.)
  static Journal resume(const std::filesystem::path& path, JournalContents* contents);
  // Both hold an exclusive flock on the file while the Journal lives, and refuse (IoError) when
  // another process holds it: a killed mpirun can leave ranks running that still write.

  Journal(Journal&&) noexcept;
  Journal& operator=(Journal&&) noexcept;
  Journal(const Journal&) = delete;
  ~Journal();

  void append(std::uint64_t task, const double* values);  // buffered
  void sync();                                            // writes the buffer and fdatasyncs
  bool has_unsynced() const { return !buffer_.empty(); }
  // Whether another process holds the lock of the journal at `path` (a live run writes it).
  static bool locked_by_other(const std::filesystem::path& path);

 private:
  Journal(int fd, std::string path, std::uint32_t metric_count);
  int fd_ = -1;
  std::string path_;
  std::uint32_t metric_count_;
  std::vector<unsigned char> buffer_;
};

}  // namespace faultsweep::sweep
