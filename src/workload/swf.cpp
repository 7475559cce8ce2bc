#include "faultsweep/workload/swf.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <string_view>

#include "faultsweep/core/compressed.hpp"
#include "faultsweep/core/error.hpp"

namespace faultsweep::workload {
namespace {

constexpr int kFields = 18;
constexpr std::size_t kMaxMessages = 10;
constexpr std::array<const char*, kFields> kFieldNames = {
    "job number",  "submit time",   "wait time",       "run time",       "allocated procs",
    "average CPU", "used memory",   "requested procs", "requested time", "requested memory",
    "status",      "user",          "group",           "executable",     "queue",
    "partition",   "preceding job", "think time"};

// Plain bytes as they are; gzip or xz data (told by the magic bytes) decompressed.
std::string unpack(std::string_view bytes, const std::string& file) {
  switch (compression_of(bytes)) {
    case Compression::gzip:
      return gunzip(bytes, file);
    case Compression::xz:
      return unxz(bytes, file);
    case Compression::none:
      break;
  }
  return std::string(bytes);
}

// The raw bytes of a regular file (a FIFO or device would block or never end).
std::string read_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw InputError(
        fmt::format("{}: cannot open SWF file: {}", path.string(),
                    std::filesystem::exists(path, ec) ? "not a regular file" : "no such file"));
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f)
    throw InputError(
        fmt::format("{}: cannot open SWF file: {}", path.string(), std::strerror(errno)));
  std::string buf;
  std::array<char, 1 << 16> chunk;
  std::size_t n;
  while ((n = std::fread(chunk.data(), 1, chunk.size(), f.get())) > 0) buf.append(chunk.data(), n);
  if (std::ferror(f.get())) throw InputError(fmt::format("{}: read error", path.string()));
  return buf;
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// "; MaxNodes: 338 (batch partition)" -> header.max_nodes = 338; text after the number ignored.
void parse_header_line(std::string_view line, SwfHeader& h) {
  line.remove_prefix(1);  // ';'
  line = trim(line);
  const auto colon = line.find(':');
  if (colon == std::string_view::npos) return;
  const std::string_view key = trim(line.substr(0, colon));
  std::string_view rest = trim(line.substr(colon + 1));
  std::int64_t* target = nullptr;
  if (key == "MaxNodes")
    target = &h.max_nodes;
  else if (key == "MaxProcs")
    target = &h.max_procs;
  else if (key == "MaxJobs")
    target = &h.max_jobs;
  else if (key == "MaxRecords")
    target = &h.max_records;
  if (!target) return;
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), v);
  // A machine size must fit the simulator's int32 node numbers; a larger one is not believed.
  if (ec == std::errc() && v > 0 && v <= std::numeric_limits<std::int32_t>::max()) *target = v;
}

struct Parsed {
  std::vector<Job> jobs;
  SwfHeader header;
};

}  // namespace

std::string SwfOptions::key() const {
  return fmt::format("size={};estimate={};bad_lines={};procs_per_node={};machine_nodes={}",
                     size == SwfSize::requested ? "requested" : "allocated",
                     estimate == SwfEstimate::requested ? "requested" : "runtime",
                     bad_lines == BadLines::skip ? "skip" : "fail", procs_per_node, machine_nodes);
}

Workload parse_swf(std::string_view bytes, const std::string& file, const SwfOptions& opt) {
  if (opt.procs_per_node < 1)
    throw InputError("procs_per_node", std::to_string(opt.procs_per_node), "an integer >= 1");
  if (opt.machine_nodes < 0)
    throw InputError("machine_nodes", std::to_string(opt.machine_nodes), "an integer >= 0");
  std::string unzipped;
  if (compression_of(bytes) != Compression::none) {
    unzipped = unpack(bytes, file);
    bytes = unzipped;
  }
  const std::string_view text = bytes;

  Workload w;
  ReadStats& st = w.stats;
  SwfHeader header;
  w.jobs.reserve(text.size() / 60);
  std::vector<bool> fixed;  // per job read: its estimate was replaced by the run time

  const auto bad = [&](std::int64_t line_no, const std::string& what) {
    std::string msg = fmt::format("{}:{}: {}", file, line_no, what);
    if (opt.bad_lines == BadLines::fail) throw InputError(std::move(msg));
    ++st.bad_lines;
    if (st.first_errors.size() < kMaxMessages) st.first_errors.push_back(std::move(msg));
  };

  const char* p = text.data();
  const char* const end = p + text.size();
  std::int64_t line_no = 0;
  std::array<double, kFields> f{};
  while (p < end) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', end - p));
    const char* eol = nl ? nl : end;
    ++line_no;
    const std::string_view line = trim(std::string_view(p, eol - p));
    p = nl ? nl + 1 : end;
    if (line.empty()) continue;
    if (line.front() == ';') {
      parse_header_line(line, header);
      continue;
    }
    ++st.lines;
    // Tokenise and convert in one pass.
    int nf = 0;
    bool ok = true;
    const char* q = line.data();
    const char* const qe = q + line.size();
    while (q < qe) {
      while (q < qe && is_space(*q)) ++q;
      if (q == qe) break;
      const char* tok = q;
      while (q < qe && !is_space(*q)) ++q;
      if (nf < kFields) {
        // Nearly every SWF field is an integer: parse it as one (several times faster than
        // the floating-point path), falling back for "10.5", "1e3" and the like.
        double v = 0;
        std::int64_t iv = 0;
        auto [ptr, ec] = std::from_chars(tok, q, iv);
        if (ec == std::errc() && ptr == q)
          v = static_cast<double>(iv);
        else {
          const auto r = std::from_chars(tok, q, v);
          ptr = r.ptr, ec = r.ec;
        }
        if (ec != std::errc() || ptr != q || !std::isfinite(v)) {
          bad(line_no, fmt::format("field {} ({}) = '{}': not a number", nf + 1, kFieldNames[nf],
                                   std::string_view(tok, q - tok)));
          ok = false;
          break;
        }
        f[nf] = v;
      }
      ++nf;
    }
    if (!ok) continue;
    if (nf != kFields) {
      bad(line_no, fmt::format("expected {} fields, found {}", kFields, nf));
      continue;
    }
    // -1 is "unknown" in every SWF field (the archive's definition): a job without a submit
    // time, run time or size cannot be replayed, so it is dropped and counted, never an error.
    if (f[1] == -1) {
      ++st.unknown_submit;
      continue;
    }
    if (f[1] < 0) {
      bad(line_no, fmt::format("field 2 (submit time) = {}: must be >= 0 or -1 (unknown)", f[1]));
      continue;
    }
    // The job number is an identifier: it must fit an int64 (converting a double outside the
    // target's range is undefined, C++ [conv.fpint]).
    if (!(f[0] >= -0x1p63 && f[0] < 0x1p63)) {
      bad(line_no, fmt::format("field 1 (job number) = {}: out of range", f[0]));
      continue;
    }
    const double runtime = f[3];
    if (!(runtime > 0)) {
      ++st.no_runtime;
      continue;
    }
    if (f[1] > kMaxJobTimeS || runtime > kMaxJobTimeS || f[8] > kMaxJobTimeS) {
      const int field = f[1] > kMaxJobTimeS ? 1 : runtime > kMaxJobTimeS ? 3 : 8;
      bad(line_no, fmt::format("field {} ({}) = {:g}: beyond {}", field + 1, kFieldNames[field],
                               f[field], kMaxJobTimeText));
      continue;
    }
    const double requested = f[7], allocated = f[4];
    double procs = opt.size == SwfSize::requested ? requested : allocated;
    if (!(procs > 0)) procs = opt.size == SwfSize::requested ? allocated : requested;
    if (!(procs > 0) || procs > 1e9) {
      ++st.no_size;
      continue;
    }
    Job j;
    j.id = static_cast<std::int64_t>(f[0]);
    j.submit_s = f[1];
    j.runtime_s = runtime;
    j.size = static_cast<std::int32_t>(std::ceil(procs / opt.procs_per_node));
    j.user = -1;
    if (f[11] >= 0 && f[11] < 0x1p31)
      j.user = static_cast<std::int32_t>(f[11]);
    else if (f[11] >= 0x1p31)
      ++st.user_unknown;  // not representable: the job is kept with an unknown user
    const auto id_or_unknown = [](double v) {
      return v >= 0 && v < 0x1p31 ? static_cast<std::int32_t>(v) : std::int32_t{-1};
    };
    j.group = id_or_unknown(f[12]);
    j.executable = id_or_unknown(f[13]);
    j.queue = id_or_unknown(f[14]);
    j.partition = id_or_unknown(f[15]);
    if (opt.estimate == SwfEstimate::runtime) {
      j.estimate_s = runtime;
    } else if (f[8] >= runtime) {
      j.estimate_s = f[8];
    } else {  // -1 (unknown) or below the actual run time: the run time is the best estimate
      j.estimate_s = runtime;
    }
    fixed.push_back(opt.estimate != SwfEstimate::runtime && !(f[8] >= runtime));
    w.jobs.push_back(j);
  }

  // Machine size (see SwfOptions::machine_nodes), then drop jobs that cannot fit.
  std::int64_t machine = opt.machine_nodes;
  if (machine == 0) {
    if (opt.procs_per_node == 1)
      machine = header.max_procs > 0 ? header.max_procs : header.max_nodes;
    else
      machine = header.max_nodes > 0 ? header.max_nodes : header.max_procs / opt.procs_per_node;
  }
  if (machine <= 0) {
    machine = 0;
    for (const Job& j : w.jobs) machine = std::max<std::int64_t>(machine, j.size);
  }
  w.machine_nodes = static_cast<std::int32_t>(machine);
  // Counted only for the jobs kept: a job dropped as too wide has nothing left to repair.
  for (std::size_t i = 0; i < w.jobs.size(); ++i)
    st.estimate_fixed += fixed[i] && w.jobs[i].size <= machine;
  const auto kept_end =
      std::remove_if(w.jobs.begin(), w.jobs.end(), [&](const Job& j) { return j.size > machine; });
  st.too_large = w.jobs.end() - kept_end;
  w.jobs.erase(kept_end, w.jobs.end());

  std::stable_sort(w.jobs.begin(), w.jobs.end(), [](const Job& a, const Job& b) {
    return a.submit_s != b.submit_s ? a.submit_s < b.submit_s : a.id < b.id;
  });
  if (!w.jobs.empty()) {
    const double t0 = w.jobs.front().submit_s;
    for (Job& j : w.jobs) j.submit_s -= t0;
  }
  st.jobs = static_cast<std::int64_t>(w.jobs.size());
  if (w.jobs.empty())
    throw InputError("file", "\"" + file + "\"",
                     fmt::format("no usable jobs in the SWF file ({}){}", st.summary(),
                                 st.first_errors.empty() ? "" : "; first: " + st.first_errors[0]));
  return w;
}

Workload read_swf(const std::filesystem::path& path, const SwfOptions& opt) {
  return parse_swf(read_file(path), path.string(), opt);
}

std::vector<std::pair<std::string, std::int64_t>> ReadStats::counts() const {
  return {{"lines", lines},
          {"jobs", jobs},
          {"bad_lines", bad_lines},
          {"unknown_submit", unknown_submit},
          {"no_runtime", no_runtime},
          {"no_size", no_size},
          {"too_large", too_large},
          {"estimate_fixed", estimate_fixed},
          {"user_unknown", user_unknown}};
}

std::string ReadStats::summary() const {
  std::string dropped, changed;
  const auto add = [](std::string& to, std::int64_t n, const char* what) {
    if (n > 0) to += fmt::format("{}{} {}", to.empty() ? "" : ", ", n, what);
  };
  add(dropped, bad_lines, "malformed lines");
  add(dropped, unknown_submit, "with unknown submit time");
  add(dropped, no_runtime, "with run time <= 0 or unknown");
  add(dropped, no_size, "with unknown size");
  add(dropped, too_large, "wider than the machine");
  add(changed, estimate_fixed, "estimates missing or below the run time set to the run time");
  add(changed, user_unknown, "user ids out of range set to unknown");
  std::string s = fmt::format("{} lines, {} jobs kept", lines, jobs);
  if (!dropped.empty()) s += "; dropped: " + dropped;
  if (!changed.empty()) s += "; changed: " + changed;
  return s;
}

SwfHeader read_swf_header(const std::filesystem::path& path) {
  const std::string text = unpack(read_file(path), path.string());  // refuses FIFOs, devices
  SwfHeader h;
  std::string_view rest = text;
  while (!rest.empty()) {
    const std::size_t nl = rest.find('\n');
    const std::string_view s = trim(rest.substr(0, nl));
    rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
    if (s.empty()) continue;
    if (s.front() != ';') break;
    parse_header_line(s, h);
  }
  return h;
}

}  // namespace faultsweep::workload
