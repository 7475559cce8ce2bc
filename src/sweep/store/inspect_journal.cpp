// `faultsweep inspect` of what an interrupted run leaves next to its output: the journal
// (OUT.journal) and the records side journal (OUT.records.journal). It says what a resume would
// find there, what it would skip or drop, whether a live run still writes it, and the command
// that finishes the run. Reading changes nothing: no lock is taken and no tail is cut.
#include <fmt/format.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "faultsweep/core/error.hpp"
#include "faultsweep/sweep/inspect.hpp"
#include "faultsweep/sweep/journal.hpp"
#include "faultsweep/sweep/record_store.hpp"

namespace faultsweep::sweep {
namespace fs = std::filesystem;
namespace {

std::vector<unsigned char> file_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError(fmt::format("{}: cannot read", path.string()));
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool starts_with(const fs::path& path, const char* magic) {
  std::ifstream in(path, std::ios::binary);
  const std::size_t n = std::strlen(magic);
  std::string head(n, '\0');
  return in && in.read(head.data(), static_cast<std::streamsize>(n)) && head == magic;
}

// "" or "; " between the parts of a line.
void add(std::string& line, const std::string& part) {
  line += (line.empty() ? "" : "; ") + part;
}

std::string damage_line(std::uint64_t damaged_records, std::uint64_t damaged_bytes,
                        std::uint64_t dropped_bytes) {
  std::string line;
  if (damaged_records != 0)
    add(line, fmt::format("{} damaged record{} ({} bytes, CRC mismatch) would be skipped: {}",
                          damaged_records, damaged_records > 1 ? "s" : "", damaged_bytes,
                          damaged_records > 1 ? "their tasks run again" : "its task runs again"));
  if (dropped_bytes != 0)
    add(line, fmt::format("{} bytes of a torn or unreadable tail would be dropped", dropped_bytes));
  return line.empty() ? "none" : line;
}

// The side journal's recorded tasks and what reading it would pass over.
std::string records_line(const fs::path& path) {
  const std::vector<unsigned char> d = file_bytes(path);
  TaskRecords records;
  RecordJournalDamage damage;
  if (parse_record_journal(d, &records, &damage) == 0)
    return d.size() < kRecordJournalHeader
               ? "its header is cut short: a resume starts it again"
               : "not a faultsweep records journal: a resume refuses it";
  std::uint64_t bytes = 0;
  for (const auto& [task, blob] : records) bytes += blob.size();
  std::string line = fmt::format("{} recorded task{} ({} bytes of tables)", records.size(),
                                 records.size() == 1 ? "" : "s", bytes);
  if (damage.damaged_records != 0 || damage.dropped_bytes != 0)
    add(line, damage_line(damage.damaged_records, damage.damaged_bytes, damage.dropped_bytes));
  return line;
}

int inspect_result_journal(const fs::path& path, std::FILE* out) {
  const JournalContents c = read_journal(path);
  const std::string p = path.string();
  // The output the journal belongs to: OUT.journal is OUT's.
  const bool named = path.extension() == ".journal";
  const std::string results = named ? fs::path(path).replace_extension().string() : "OUT";
  std::fprintf(out, "%s: journal of an unfinished faultsweep run (results version %u), for %s\n",
               p.c_str(), static_cast<unsigned>(c.results_version), results.c_str());
  std::fprintf(out, "  job file   %s (%zu bytes stored in the journal)\n", c.job_file.c_str(),
               c.job_text.size());
  if (!c.slice.empty()) std::fprintf(out, "  slice      %s\n", c.slice.c_str());
  const std::set<std::uint64_t> tasks(c.tasks.begin(), c.tasks.end());
  std::fprintf(out, "  tasks      %zu finished, %u metrics each\n", tasks.size(),
               static_cast<unsigned>(c.metric_count));
  std::fprintf(out, "  damage     %s\n",
               damage_line(c.damaged_records, c.damaged_bytes, c.dropped_bytes).c_str());
  std::fprintf(out, "  state      %s\n",
               Journal::locked_by_other(path)
                   ? "a live run is writing it (its last record may be still being written)"
                   : "no run holds it");
  if (named) {
    const fs::path side = records_journal_path(results);
    std::error_code ec;
    if (fs::exists(side, ec))
      std::fprintf(out, "  records    %s: %s\n", side.string().c_str(), records_line(side).c_str());
  }
  std::fprintf(out, "  resume     faultsweep run %s --out %s%s --resume\n", c.job_file.c_str(),
               results.c_str(), c.slice.empty() ? "" : (" --slice " + c.slice).c_str());
  std::fprintf(out, "             (from the folder the run started in; under mpirun as it ran)\n");
  return 0;
}

}  // namespace

bool inspect_journal(const std::string& path, std::FILE* out, int* code) {
  const fs::path p(path);
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) {
    // A results file not written yet, with the journal of its interrupted run beside it.
    const fs::path journal = p.string() + ".journal";
    if (fs::exists(p, ec) || !fs::exists(journal, ec)) return false;
    throw IoError(fmt::format(
        "{}: no such file, but {} is there: the journal of an unfinished run (`faultsweep "
        "inspect {}` says what it holds; `faultsweep run JOB --out {} --resume` finishes it)",
        path, journal.string(), journal.string(), path));
  }
  if (starts_with(p, kJournalMagicStem)) {
    *code = inspect_result_journal(p, out);
    return true;
  }
  if (starts_with(p, kRecordJournalMagic)) {
    std::fprintf(out, "%s: records side journal of an unfinished faultsweep run\n", path.c_str());
    std::fprintf(out, "  records    %s\n", records_line(p).c_str());
    *code = 0;
    return true;
  }
  return false;
}

}  // namespace faultsweep::sweep
