#include "faultsweep/sweep/provenance.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <string_view>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/hash.hpp"
#include "faultsweep/core/text_guard.hpp"
#include "faultsweep/policy/python.hpp"

namespace faultsweep::sweep {
namespace fs = std::filesystem;

std::vector<fs::path> job_input_paths(const JobSpec& job) {
  std::vector<fs::path> out;
  std::set<std::string> seen;
  const auto add = [&](const fs::path& p) {
    if (seen.insert(p.lexically_normal().string()).second) out.push_back(p.lexically_normal());
  };
  std::set<std::string> seen_raw;  // many points share the same files: expand each path once
  for (const Params& point : job.points)
    for (const fs::path& p : job.model->input_files(point, job.base_dir)) {
      if (!seen_raw.insert(p.string()).second) continue;
      std::error_code ec;
      if (!fs::is_directory(p, ec)) {
        add(p);
        continue;
      }
      std::vector<fs::path> files;
      for (const auto& e : fs::directory_iterator(p, ec))
        if (e.is_regular_file(ec)) files.push_back(e.path());
      std::sort(files.begin(), files.end());
      for (const auto& f : files) add(f);
    }
  return out;
}

std::vector<InputFile> describe_inputs(const std::vector<fs::path>& paths) {
  std::vector<InputFile> out;
  for (const fs::path& p : paths) {
    const std::string name = p.string();
    const auto fail = [&](const char* what) {
      return IoError(fmt::format("{}: cannot {} the input file to record its SHA-256: {}", name,
                                 what, std::strerror(errno)));
    };
    const int fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) throw fail("open");
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
      ::close(fd);
      throw fail("stat");
    }
    InputFile f;
    f.path = name;
    f.size_bytes = static_cast<std::uint64_t>(st.st_size);
    // A policy's file: the bytes the run imports and keeps with the job, not the file as it is
    // now (it may have been edited since they were read).
    if (const std::string* kept = policy::kept_policy_source(p)) {
      ::close(fd);
      f.size_bytes = kept->size();
      f.sha256 = sha256_hex(*kept);
      out.push_back(std::move(f));
      continue;
    }
    if (!S_ISREG(st.st_mode)) {
      ::close(fd);
      errno = EINVAL;
      throw fail("hash (not a regular file)");
    }
    if (st.st_size == 0) {
      f.sha256 = sha256_hex("");
    } else {
      void* m =
          ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (m == MAP_FAILED) {
        ::close(fd);
        throw fail("map");
      }
      f.sha256 = sha256_hex(std::string_view(static_cast<const char*>(m), f.size_bytes));
      ::munmap(m, static_cast<std::size_t>(st.st_size));
    }
    ::close(fd);
    out.push_back(std::move(f));
  }
  return out;
}

void attach_readings(const JobSpec& job, std::vector<InputFile>& files) {
  std::set<std::pair<std::string, std::string>> seen;  // (path, options)
  for (const Params& point : job.points)
    for (InputReading& r : job.model->input_readings(point, job.base_dir)) {
      const std::string path = r.path.lexically_normal().string();
      if (!seen.insert({path, r.options}).second) continue;
      auto it = std::find_if(files.begin(), files.end(),
                             [&](const InputFile& f) { return f.path == path; });
      if (it == files.end()) {
        auto more = describe_inputs({r.path.lexically_normal()});
        files.push_back(std::move(more.front()));
        it = std::prev(files.end());
      }
      it->read.push_back(std::move(r));
    }
}

std::vector<InputFile> describe_job_inputs(const JobSpec& job) {
  std::vector<InputFile> files = describe_inputs(job_input_paths(job));
  attach_readings(job, files);
  return files;
}

namespace {

constexpr std::string_view kSourceMark = "# faultsweep: policy source ";

// path -> sha256 of the "# faultsweep: policy source <path> sha256 <hex>" lines of a text.
std::map<std::string, std::string> recorded_sources(const std::string& text) {
  std::map<std::string, std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with(kSourceMark)) continue;
    const std::string rest = line.substr(kSourceMark.size());
    const auto at = rest.rfind(" sha256 ");
    if (at != std::string::npos) out[rest.substr(0, at)] = rest.substr(at + 8, 64);
  }
  return out;
}

}  // namespace

std::string with_policy_sources(const JobSpec& job) {
  // A Python policy is named by a table's `python` key: a job without one (most) skips the
  // walk over its points.
  bool names_python = false;
  for (const auto& [k, v] : job.fixed.values()) names_python |= k.ends_with(".python");
  for (const Axis& a : job.axes)
    for (const AxisMember& m : a.members) names_python |= m.key.ends_with(".python");
  if (!names_python) return job.text;
  std::string text = job.text;
  const auto recorded = recorded_sources(text);
  for (const fs::path& p : job_input_paths(job)) {
    if (p.extension() != ".py") continue;
    // Relative to the job file (the same name from any working folder), if it can be.
    const fs::path rel = p.lexically_relative(job.base_dir);
    const std::string name = (rel.empty() ? p : rel).string();
    if (recorded.count(name) != 0) continue;
    // The bytes the policy runs (read once: an edit during the run changes neither).
    const std::string& source = policy::policy_source(p);
    if (!text.empty() && text.back() != '\n') text += '\n';
    text += fmt::format("\n{}{} sha256 {} (kept with the job: --resume checks it)\n", kSourceMark,
                        name, sha256_hex(source));
    std::istringstream in(source);
    for (std::string line; std::getline(in, line);)
      text += (line.empty() ? "#" : "# ") + line + "\n";
  }
  return text;
}

void adopt_policy_sources(const std::string& text, const fs::path& job_file) {
  fs::path base_dir = job_file.parent_path();
  if (base_dir.empty()) base_dir = ".";
  std::istringstream in(text);
  std::string line;
  bool more = static_cast<bool>(std::getline(in, line));
  while (more) {
    if (!line.starts_with(kSourceMark)) {
      more = static_cast<bool>(std::getline(in, line));
      continue;
    }
    const std::string rest = line.substr(kSourceMark.size());
    const auto at = rest.rfind(" sha256 ");
    if (at == std::string::npos) break;
    const std::string name = rest.substr(0, at), sha = rest.substr(at + 8, 64);
    // The lines as with_policy_sources wrote them: "# " + line, or "#" for an empty one.
    std::string body;
    while ((more = static_cast<bool>(std::getline(in, line))) && line.starts_with("#") &&
           !line.starts_with(kSourceMark))
      body += (line.size() > 1 ? line.substr(2) : std::string()) + "\n";
    // Whether the file ended with a newline is not in the comments: its SHA-256 says.
    std::string source = body;
    if (sha256_hex(source) != sha && !source.empty()) source.pop_back();
    if (sha256_hex(source) != sha)
      throw InputError(
          fmt::format("{}: the policy source {} kept in the job does not match its sha256 {}",
                      job_file.string(), name, sha));
    const fs::path f(name);
    policy::keep_policy_source(f.is_absolute() ? f : base_dir / f, std::move(source));
  }
}

std::vector<std::string> source_differences(const std::string& before_text,
                                            const std::string& now_text) {
  std::vector<std::string> out;
  const auto before = recorded_sources(before_text), now = recorded_sources(now_text);
  for (const auto& [path, sha] : now) {
    const auto it = before.find(path);
    if (it == before.end() || it->second != sha)
      out.push_back(fmt::format("policy source {}: sha256 {} -> {}", path,
                                it == before.end() ? "(none)" : it->second, sha));
  }
  return out;
}

}  // namespace faultsweep::sweep
