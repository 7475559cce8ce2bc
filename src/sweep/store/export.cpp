#include "faultsweep/sweep/export.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "faultsweep/core/error.hpp"
#include "faultsweep/io/h5.hpp"
#include "faultsweep/sweep/record_store.hpp"

namespace faultsweep::sweep {
namespace {

namespace fs = std::filesystem;

// Why a write failed, in words a user can act on, then the system's own.
std::string reason(int err) {
  std::string why;
  switch (err) {
    case ENOSPC:
      why = "the disk is full";
      break;
    case EDQUOT:
      why = "the disk quota is used up";
      break;
    case EROFS:
      why = "the folder is on a read-only file system";
      break;
    case EACCES:
    case EPERM:
      why = "no permission to write in the folder";
      break;
    case ENOENT:
      why = "the folder does not exist";
      break;
    case ENOTDIR:
      why = "a part of the path is not a folder";
      break;
    case EPIPE:
      why = "the reader of standard output has gone";
      break;
    case EBADF:
      why = "standard output is closed";
      break;
    default:
      return std::strerror(err);
  }
  return fmt::format("{} ({})", why, std::strerror(err));
}

[[noreturn]] void cannot_write(const std::string& what, int err) {
  throw IoError(fmt::format("{}: cannot write the export: {}", what, reason(err)));
}

// Writes all of `text` to fd; 0, or the errno of the write that failed.
int write_all(int fd, const std::string& text) {
  for (std::size_t at = 0; at < text.size();) {
    const ssize_t n = ::write(fd, text.data() + at, text.size() - at);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    at += static_cast<std::size_t>(n);
  }
  return 0;
}

// Standard output: every byte checked (a full device, a closed pipe), and a reader that goes
// away is an error with a message, not a death by SIGPIPE.
void write_stdout(const std::string& text) {
  std::fflush(stdout);
  std::signal(SIGPIPE, SIG_IGN);
  if (const int err = write_all(STDOUT_FILENO, text)) cannot_write("standard output", err);
}

// A new file written whole or not at all: OUT.tmp.<pid> next to it, flushed to the disk, then
// renamed; any failure removes the temporary and leaves no OUT.
void write_file(const fs::path& out, const std::string& text) {
  const std::string tmp = fmt::format("{}.tmp.{}", out.string(), ::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) cannot_write(out.string(), errno);
  int err = write_all(fd, text);
  if (err == 0 && ::fsync(fd) != 0) err = errno;  // a delayed allocation's ENOSPC shows here
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err == 0 && std::rename(tmp.c_str(), out.c_str()) != 0) err = errno;
  if (err != 0) {
    ::unlink(tmp.c_str());
    cannot_write(out.string(), err);
  }
}

// --out must name a new file in an existing folder (checked before anything is read).
void check_out(const std::string& out) {
  std::error_code ec;
  const fs::path p(out);
  fs::path dir = p.parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::is_directory(dir, ec))
    throw InputError("--out", out,
                     fmt::format("a file in an existing folder ({} does not exist: create it "
                                 "first)",
                                 dir.string()));
  if (fs::exists(fs::symlink_status(p, ec)))
    throw InputError("--out", out, "a new file (it exists: remove it or choose another name)");
}

}  // namespace

int export_schedule(const ExportOptions& opt) {
  if (opt.format != "swf" && opt.format != "batsim-csv")
    throw InputError("--format", opt.format, "\"swf\" or \"batsim-csv\"");
  if (!opt.out.empty()) check_out(opt.out);
  io::File file = io::File::open_read(opt.file);
  const auto R = static_cast<std::size_t>(io::read_attr_int(file.id(), "replicas_max", opt.file));
  const TaskRecords records = read_records(file.id(), R, opt.file);
  const auto it = records.find(opt.point * R + opt.replica);
  if (opt.replica >= R || it == records.end()) {
    std::string have;
    for (const auto& [task, bytes] : records)
      have += fmt::format("{}({}, {})", have.empty() ? "" : ", ", task / R, task % R);
    throw InputError(
        "--point/--replica", fmt::format("{}/{}", opt.point, opt.replica),
        fmt::format("a recorded task of {}; recorded (point, replica): {}", opt.file,
                    have.empty() ? "none (the job file's sweep.record selects them)" : have));
  }
  const sim::RecordTables t = sim::decode_records(it->second, opt.file);
  if (!(t.what & sim::kRecordJobs))
    throw InputError("--point/--replica", fmt::format("{}/{}", opt.point, opt.replica),
                     "a task whose jobs table was recorded (sweep.record.what has no \"jobs\")");
  const std::string text =
      opt.format == "swf"
          ? swf_text(t, fmt::format("Computer: faultsweep simulation of {}, point {}, replica {}\n"
                                    "Note: wait and run times are simulated",
                                    opt.file, opt.point, opt.replica))
          : batsim_csv_text(t);
  if (opt.out.empty())
    write_stdout(text);
  else
    write_file(opt.out, text);
  return 0;
}

}  // namespace faultsweep::sweep
