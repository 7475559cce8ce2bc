// The side journal of records (sweep/record_store.hpp).
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/hash.hpp"
#include "faultsweep/sweep/record_store.hpp"

namespace faultsweep::sweep {
namespace {

constexpr std::size_t kMagicLen = sizeof(kRecordJournalMagic) - 1;

void put_bytes(std::vector<unsigned char>& b, const void* p, std::size_t n) {
  const std::size_t at = b.size();
  b.resize(at + n);
  if (n > 0) std::memcpy(b.data() + at, p, n);
}

template <class T>
void put(std::vector<unsigned char>& b, T v) {
  put_bytes(b, &v, sizeof(T));
}

// The file's first bytes: the magic and its CRC-32.
std::vector<unsigned char> header_bytes() {
  std::vector<unsigned char> header(kRecordJournalMagic, kRecordJournalMagic + kMagicLen);
  put<std::uint32_t>(header, crc32_bytes(header.data(), header.size()));
  return header;
}

[[noreturn]] void fail(const std::string& path, const char* what) {
  throw IoError(
      fmt::format("{}: cannot {} the records journal: {}", path, what, std::strerror(errno)));
}

void write_all(int fd, const unsigned char* p, std::size_t n, const std::string& path) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) fail(path, "write");
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

std::vector<unsigned char> read_all(int fd, const std::string& path) {
  std::vector<unsigned char> d;
  unsigned char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(path, "read");
    if (n == 0) return d;
    d.insert(d.end(), buf, buf + n);
  }
}

}  // namespace

// The records are read along the chain of their length fields: each starts where the one
// before says it ends. A record whose CRC-32 does not match is skipped (a flipped byte in its
// tables or CRC, most of a journal's bytes, costs that record only); the chain ends where a
// length leads out of the file (a torn last record, or a damaged length). open() cuts off the
// tail after the last intact record, so damage counts only what lies before it.
std::size_t parse_record_journal(std::span<const unsigned char> d, TaskRecords* out,
                                 RecordJournalDamage* damage) {
  if (d.size() < kRecordJournalHeader ||
      std::memcmp(d.data(), header_bytes().data(), kRecordJournalHeader) != 0)
    return 0;
  RecordJournalDamage seen;
  std::uint64_t skipped = 0;  // damaged records since the last intact one
  std::size_t pos = kRecordJournalHeader, kept = kRecordJournalHeader;
  while (d.size() - pos >= 20) {
    std::uint64_t task, len;
    std::memcpy(&task, d.data() + pos, 8);
    std::memcpy(&len, d.data() + pos + 8, 8);
    if (len > d.size() - pos - 20) break;
    std::uint32_t crc;
    std::memcpy(&crc, d.data() + pos + 16 + len, 4);
    if (crc == crc32_bytes(d.data() + pos, 16 + len)) {
      const auto* first = d.data() + pos + 16;
      (*out)[task].assign(first, first + len);
      seen.damaged_records += skipped;
      seen.damaged_bytes += pos - kept;
      skipped = 0;
      kept = pos + 20 + len;
    } else {
      ++skipped;
    }
    pos += 20 + len;
  }
  seen.dropped_bytes = d.size() - kept;
  if (damage != nullptr) *damage = seen;
  return kept;
}

RecordJournal RecordJournal::open(const std::filesystem::path& path, TaskRecords* records,
                                  RecordJournalDamage* damage) {
  const std::string p = path.string();
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) fail(p, "open");
  RecordJournal j(fd, p);
  const std::vector<unsigned char> d = read_all(fd, p);
  const std::size_t valid = parse_record_journal(d, records, damage);
  if (valid == 0) {
    // New, or a header cut short by a kill: start it (again) empty.
    if (damage != nullptr) *damage = RecordJournalDamage{0, 0, d.size()};
    if (d.size() >= kRecordJournalHeader)
      throw IoError(fmt::format("{}: not a faultsweep records journal (move it away)", p));
    // Reading left the offset at the end of what was there: write from the start.
    if (::ftruncate(fd, 0) != 0 || ::lseek(fd, 0, SEEK_SET) != 0) fail(p, "reset");
    const std::vector<unsigned char> header = header_bytes();
    write_all(fd, header.data(), header.size(), p);
    if (::fsync(fd) != 0) fail(p, "sync");
    return j;
  }
  if ((valid < d.size() && ::ftruncate(fd, static_cast<off_t>(valid)) != 0) ||
      ::lseek(fd, 0, SEEK_END) < 0)
    fail(p, "cut the torn tail of");
  return j;
}

RecordOutput open_record_output(const JobSpec& job, const std::filesystem::path& out, bool fresh,
                                TaskRecords from_file, ResultTable& table) {
  const std::filesystem::path path = records_journal_path(out);
  std::error_code ec;
  if (fresh) std::filesystem::remove(path, ec);
  TaskRecords tasks;
  RecordJournalDamage damage;
  RecordJournal journal = RecordJournal::open(path, &tasks, &damage);
  RecordOutput o{std::move(journal), std::move(tasks), damage, 0};
  for (auto& [task, bytes] : from_file)
    if (o.tasks.find(task) == o.tasks.end()) {
      o.journal.append(task, bytes);
      o.tasks[task] = std::move(bytes);
    }
  o.journal.sync();
  const std::size_t R = table.replicas_max;
  for (std::size_t t = 0; t < table.tasks(); ++t)
    if (table.done[t] && job.record.for_task(t / R, t % R) != 0 && o.tasks.count(t) == 0) {
      table.done[t] = 0;
      ++o.rerun;
    }
  return o;
}

std::string describe_record_output(const RecordOutput& o, const std::filesystem::path& journal) {
  const RecordJournalDamage& d = o.damage;
  std::string said;
  if (d.damaged_records != 0)
    said = fmt::format("{} damaged record{} ({} bytes, CRC mismatch) skipped", d.damaged_records,
                       d.damaged_records > 1 ? "s" : "", d.damaged_bytes);
  if (d.dropped_bytes != 0)
    said += fmt::format("{}{} bytes of a torn or unreadable tail dropped", said.empty() ? "" : "; ",
                        d.dropped_bytes);
  if (o.rerun != 0)
    said +=
        fmt::format("{}{} recorded task{} again: {} records are missing", said.empty() ? "" : "; ",
                    o.rerun, o.rerun > 1 ? "s run" : " runs", o.rerun > 1 ? "their" : "its");
  return said.empty() ? said : fmt::format("records journal {}: {}", journal.string(), said);
}

RecordJournal::RecordJournal(RecordJournal&& o) noexcept
    : fd_(o.fd_), path_(std::move(o.path_)), buffer_(std::move(o.buffer_)) {
  o.fd_ = -1;
}

RecordJournal::~RecordJournal() {
  if (fd_ < 0) return;
  try {
    sync();
  } catch (...) {  // a destructor must not throw; the coordinator syncs explicitly before this
  }
  ::close(fd_);
}

void RecordJournal::append(std::uint64_t task, const std::vector<unsigned char>& bytes) {
  const std::size_t start = buffer_.size();
  put<std::uint64_t>(buffer_, task);
  put<std::uint64_t>(buffer_, bytes.size());
  put_bytes(buffer_, bytes.data(), bytes.size());
  put<std::uint32_t>(buffer_, crc32_bytes(buffer_.data() + start, buffer_.size() - start));
}

void RecordJournal::sync() {
  if (buffer_.empty() || fd_ < 0) return;
  write_all(fd_, buffer_.data(), buffer_.size(), path_);
  buffer_.clear();
  if (::fdatasync(fd_) != 0) fail(path_, "sync");
}

}  // namespace faultsweep::sweep
