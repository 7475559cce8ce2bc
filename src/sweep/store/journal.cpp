#include "faultsweep/sweep/journal.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <string_view>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/hash.hpp"

namespace faultsweep::sweep {
namespace {

constexpr char kMagic[] = "FSJOURNAL2\n";
constexpr char kMagicV1[] = "FSJOURNAL1\n";  // before slices: no slice field
constexpr char kMagicV3[] = "FSJOURNAL3\n";  // results_version other than 1
constexpr std::size_t kMagicLen = sizeof(kMagic) - 1;
static_assert(std::string_view(kMagic).starts_with(kJournalMagicStem) &&
              std::string_view(kMagicV1).starts_with(kJournalMagicStem) &&
              std::string_view(kMagicV3).starts_with(kJournalMagicStem));

template <class T>
void put(std::vector<unsigned char>& b, T v) {
  unsigned char raw[sizeof(T)];
  std::memcpy(raw, &v, sizeof(T));
  b.insert(b.end(), raw, raw + sizeof(T));
}

void put_string(std::vector<unsigned char>& b, const std::string& s) {
  put<std::uint64_t>(b, s.size());
  b.insert(b.end(), s.begin(), s.end());
}

void write_all(int fd, const unsigned char* p, std::size_t n, const std::string& path) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      throw IoError(fmt::format("{}: cannot write the journal: {}", path, std::strerror(errno)));
    }
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

class Reader {
 public:
  explicit Reader(std::span<const unsigned char> d) : d_(d) {}
  // n <= what is left, without overflow (a damaged length field may be near 2^64).
  bool can(std::size_t n) const { return n <= d_.size() - pos_; }
  template <class T>
  T get() {
    T v;
    std::memcpy(&v, d_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return v;
  }
  std::size_t pos() const { return pos_; }
  void skip(std::size_t n) { pos_ += n; }

 private:
  std::span<const unsigned char> d_;
  std::size_t pos_ = 0;
};

void lock_or_refuse(int fd, const std::string& path) {
  if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return;
  const int err = errno;
  ::close(fd);
  if (err == EWOULDBLOCK)
    throw IoError(fmt::format(
        "{}: another faultsweep process is writing this journal (an earlier run still going, "
        "e.g. ranks left behind by a killed mpirun); stop it before resuming",
        path));
  throw IoError(fmt::format("{}: cannot lock the journal: {}", path, std::strerror(err)));
}

}  // namespace

JournalContents parse_journal(std::span<const unsigned char> d, const std::filesystem::path& path) {
  const auto bad = [&](const char* why) {
    return IoError(fmt::format("{}: not a faultsweep journal or its header is damaged ({})",
                               path.string(), why));
  };
  if (d.size() < kMagicLen) throw bad("magic");
  const bool v1 = std::memcmp(d.data(), kMagicV1, kMagicLen) == 0;
  const bool v3 = std::memcmp(d.data(), kMagicV3, kMagicLen) == 0;
  if (!v1 && !v3 && std::memcmp(d.data(), kMagic, kMagicLen) != 0) throw bad("magic");
  Reader r(d);
  r.skip(kMagicLen);
  JournalContents c;
  std::vector<std::string*> fields{&c.job_file, &c.job_text};
  if (!v1) fields.push_back(&c.slice);
  for (std::string* s : fields) {
    if (!r.can(8)) throw bad("truncated");
    const auto n = r.get<std::uint64_t>();
    if (!r.can(n)) throw bad("truncated");
    s->assign(reinterpret_cast<const char*>(d.data() + r.pos()), n);
    r.skip(n);
  }
  if (v3) {
    if (!r.can(4)) throw bad("truncated");
    c.results_version = r.get<std::uint32_t>();
  }
  if (!r.can(8)) throw bad("truncated");
  c.metric_count = r.get<std::uint32_t>();
  const std::size_t header_end = r.pos();
  if (r.get<std::uint32_t>() != crc32_bytes(d.data(), header_end)) throw bad("checksum");
  if (c.metric_count > (1u << 20)) throw bad("metric count");
  const std::size_t rec = 8 + 8 * static_cast<std::size_t>(c.metric_count) + 4;
  c.valid_bytes = r.pos();
  const auto stored = [&](std::size_t at) {
    std::uint32_t crc;
    std::memcpy(&crc, d.data() + at + rec - 4, 4);
    return crc;
  };
  std::size_t pos = r.pos(), skipped_from = 0;
  bool skipping = false;
  std::uint32_t crc = 0;                // of the rec - 4 bytes from pos
  std::optional<SlidingCrc32> sliding;  // made at the first damage
  while (rec <= d.size() - pos) {
    if (!skipping) crc = crc32_bytes(d.data() + pos, rec - 4);
    if (crc != stored(pos)) {
      // A damaged record: look for the next intact one byte by byte (CRC-32 resync), so that
      // one flipped byte costs one record, not every record after it. The window's CRC moves
      // on with it, in constant time a byte.
      if (!skipping) {
        skipping = true, skipped_from = pos;
        if (!sliding) sliding.emplace(rec - 4);
      }
      crc = sliding->slide(crc, d[pos], d[pos + rec - 4]);
      ++pos;
      continue;
    }
    if (skipping) {
      c.damaged_bytes += pos - skipped_from;
      c.damaged_records += (pos - skipped_from + rec - 1) / rec;
      skipping = false;
    }
    std::uint64_t task;
    std::memcpy(&task, d.data() + pos, 8);
    c.tasks.push_back(task);
    for (std::uint32_t m = 0; m < c.metric_count; ++m) {
      double v;
      std::memcpy(&v, d.data() + pos + 8 + 8 * m, 8);
      c.values.push_back(v);
    }
    pos += rec;
    c.valid_bytes = pos;
  }
  c.dropped_bytes = d.size() - c.valid_bytes;
  return c;
}

JournalContents read_journal(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw IoError(
        fmt::format("{}: cannot open the journal: {}", path.string(),
                    std::filesystem::exists(path, ec) ? "not a regular file" : "no such file"));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError(fmt::format("{}: cannot open the journal", path.string()));
  const std::vector<unsigned char> d((std::istreambuf_iterator<char>(in)),
                                     std::istreambuf_iterator<char>());
  return parse_journal(d, path);
}

Journal::Journal(int fd, std::string path, std::uint32_t metric_count)
    : fd_(fd), path_(std::move(path)), metric_count_(metric_count) {}

Journal::Journal(Journal&& o) noexcept
    : fd_(o.fd_),
      path_(std::move(o.path_)),
      metric_count_(o.metric_count_),
      buffer_(std::move(o.buffer_)) {
  o.fd_ = -1;
}

Journal& Journal::operator=(Journal&& o) noexcept {
  if (this != &o) {
    this->~Journal();
    fd_ = o.fd_;
    path_ = std::move(o.path_);
    metric_count_ = o.metric_count_;
    buffer_ = std::move(o.buffer_);
    o.fd_ = -1;
  }
  return *this;
}

Journal::~Journal() {
  if (fd_ < 0) return;
  try {
    sync();
  } catch (...) {  // a destructor must not throw; the caller syncs explicitly before this
  }
  ::close(fd_);
}

Journal Journal::create(const std::filesystem::path& path, const std::string& job_file,
                        const std::string& job_text, std::uint32_t metric_count,
                        const std::string& slice, std::uint32_t results_version) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0)
    throw IoError(
        fmt::format("{}: cannot create the journal: {}", path.string(), std::strerror(errno)));
  lock_or_refuse(fd, path.string());
  Journal j(fd, path.string(), metric_count);
  // A whole sweep of results version 1 keeps the version 1 layout, so that older builds still
  // resume it; a slice adds its name (layout 2); another results version adds the version
  // (layout 3), which older builds refuse to read.
  const bool v3 = results_version != 1;
  const char* magic = v3 ? kMagicV3 : slice.empty() ? kMagicV1 : kMagic;
  std::vector<unsigned char> h(magic, magic + kMagicLen);
  put_string(h, job_file);
  put_string(h, job_text);
  if (!slice.empty() || v3) put_string(h, slice);
  if (v3) put<std::uint32_t>(h, results_version);
  put<std::uint32_t>(h, metric_count);
  put<std::uint32_t>(h, crc32_bytes(h.data(), h.size()));
  write_all(fd, h.data(), h.size(), j.path_);
  if (::fsync(fd) != 0)
    throw IoError(fmt::format("{}: fsync failed: {}", path.string(), std::strerror(errno)));
  return j;
}

Journal Journal::resume(const std::filesystem::path& path, JournalContents* contents) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0)
    throw IoError(
        fmt::format("{}: cannot open the journal: {}", path.string(), std::strerror(errno)));
  lock_or_refuse(fd, path.string());
  Journal j(fd, path.string(), 0);
  std::vector<unsigned char> d;
  unsigned char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      throw IoError(
          fmt::format("{}: cannot read the journal: {}", path.string(), std::strerror(errno)));
    if (n == 0) break;
    d.insert(d.end(), buf, buf + n);
  }
  *contents = parse_journal(d, path);
  j.metric_count_ = contents->metric_count;
  // Only when there is a tail to cut (ftruncate would touch the file's mtime even so).
  if ((contents->dropped_bytes > 0 &&
       ::ftruncate(fd, static_cast<off_t>(contents->valid_bytes)) != 0) ||
      ::lseek(fd, 0, SEEK_END) < 0)
    throw IoError(
        fmt::format("{}: cannot cut the torn tail: {}", path.string(), std::strerror(errno)));
  return j;
}

bool Journal::locked_by_other(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;
  const bool locked = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(fd);  // drops our shared lock, if we got it
  return locked;
}

void Journal::append(std::uint64_t task, const double* values) {
  const std::size_t start = buffer_.size();
  put<std::uint64_t>(buffer_, task);
  for (std::uint32_t m = 0; m < metric_count_; ++m) put<double>(buffer_, values[m]);
  put<std::uint32_t>(buffer_, crc32_bytes(buffer_.data() + start, buffer_.size() - start));
}

void Journal::sync() {
  if (buffer_.empty()) return;
  write_all(fd_, buffer_.data(), buffer_.size(), path_);
  buffer_.clear();
  if (::fdatasync(fd_) != 0)
    throw IoError(fmt::format("{}: fdatasync failed: {}", path_, std::strerror(errno)));
}

}  // namespace faultsweep::sweep
