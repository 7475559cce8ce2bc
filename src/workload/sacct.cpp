#include "faultsweep/workload/sacct.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>

#include "faultsweep/core/compressed.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/core/slurm_text.hpp"

namespace faultsweep::workload {
namespace {

constexpr std::size_t kMaxMessages = 10;
constexpr double kNoTime = std::numeric_limits<double>::quiet_NaN();

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The columns the reader uses: their index in the header, or npos.
struct Columns {
  static constexpr std::size_t none = std::string::npos;
  std::size_t job_id = none, job_id_raw = none, submit = none, eligible = none, start = none,
              end = none, elapsed = none, timelimit = none, nnodes = none, ncpus = none,
              alloc_tres = none, req_tres = none, state = none, partition = none;
};

void split(std::string_view line, std::vector<std::string_view>& out) {
  out.clear();
  std::size_t pos = 0;
  while (true) {
    const auto bar = line.find('|', pos);
    out.push_back(line.substr(pos, bar == std::string_view::npos ? line.npos : bar - pos));
    if (bar == std::string_view::npos) return;
    pos = bar + 1;
  }
}

Columns columns_of(const std::vector<std::string_view>& names, const std::string& file,
                   const SacctOptions& opt) {
  Columns c;
  const std::pair<const char*, std::size_t Columns::*> known[] = {
      {"jobid", &Columns::job_id},         {"jobidraw", &Columns::job_id_raw},
      {"submit", &Columns::submit},        {"eligible", &Columns::eligible},
      {"start", &Columns::start},          {"end", &Columns::end},
      {"elapsed", &Columns::elapsed},      {"timelimit", &Columns::timelimit},
      {"nnodes", &Columns::nnodes},        {"ncpus", &Columns::ncpus},
      {"alloctres", &Columns::alloc_tres}, {"reqtres", &Columns::req_tres},
      {"state", &Columns::state},          {"partition", &Columns::partition}};
  for (std::size_t i = 0; i < names.size(); ++i)
    for (const auto& [name, member] : known)
      if (lower(names[i]) == name && c.*member == Columns::none) c.*member = i;
  std::vector<std::string> missing;
  const auto need = [&](std::size_t col, const char* name) {
    if (col == Columns::none) missing.emplace_back(name);
  };
  need(c.job_id, "JobID");
  need(c.job_id_raw, "JobIDRaw");
  need(c.submit, "Submit");
  need(c.start, "Start");
  need(c.end, "End");
  need(c.state, "State");
  if (opt.submit == SacctSubmit::eligible) need(c.eligible, "Eligible");
  if (opt.size == SacctSize::nodes) need(c.nnodes, "NNodes");
  if (opt.size == SacctSize::cpus) need(c.ncpus, "NCPUS");
  if (opt.size == SacctSize::tres && c.alloc_tres == Columns::none)
    need(c.req_tres, "AllocTRES or ReqTRES");
  if (!opt.partitions.empty()) need(c.partition, "Partition");
  if (!missing.empty())
    throw InputError(fmt::format(
        "{}:1: the sacct header has no column {} (columns: {}); dump with sacct --parsable2 "
        "--format=JobID,JobIDRaw,Submit,Eligible,Start,End,Elapsed,Timelimit,NNodes,NCPUS,"
        "AllocTRES,State,Partition",
        file, fmt::join(missing, ", "), fmt::join(names, ", ")));
  return c;
}

std::optional<std::int64_t> parse_int(std::string_view s) {
  std::int64_t v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

std::size_t state_index(std::string_view state) {
  const auto it = std::find(kSacctKeptStates.begin(), kSacctKeptStates.end(), state);
  return static_cast<std::size_t>(it - kSacctKeptStates.begin());
}

// A kept record before the machine and origin are known: times in UNIX seconds.
struct Record {
  Job job;
  bool estimate_fixed = false;
  std::size_t state = 0;  // in kSacctKeptStates; its size: running at the dump, cut there
};

}  // namespace

std::string SacctOptions::key() const {
  return fmt::format(
      "size={};submit={};running={};bad_lines={};procs_per_node={};machine_nodes={};"
      "partitions={};utc_offset_s={};start={};dump={}",
      size == SacctSize::nodes  ? "nodes"
      : size == SacctSize::cpus ? "cpus"
                                : "tres",
      submit == SacctSubmit::submit ? "submit" : "eligible",
      running == SacctRunning::drop ? "drop" : "cut", bad_lines == BadLines::skip ? "skip" : "fail",
      procs_per_node, machine_nodes, fmt::join(partitions, ","), utc_offset_s,
      start_unix_s ? fmt::format("{}", *start_unix_s) : "-",
      dump_unix_s ? fmt::format("{}", *dump_unix_s) : "-");
}

SacctWorkload parse_sacct(std::string_view bytes, const std::string& file,
                          const SacctOptions& opt) {
  if (opt.procs_per_node < 1)
    throw InputError("procs_per_node", std::to_string(opt.procs_per_node), "an integer >= 1");
  std::string unpacked;
  if (compression_of(bytes) != Compression::none) {
    unpacked = decompress(std::string(bytes), file);
    bytes = unpacked;
  }
  SacctWorkload out;
  SacctStats& st = out.stats;
  const auto bad = [&](std::int64_t line_no, const std::string& what) {
    std::string msg = fmt::format("{}:{}: {}", file, line_no, what);
    if (opt.bad_lines == BadLines::fail) throw InputError(std::move(msg));
    ++st.bad_lines;
    if (st.first_errors.size() < kMaxMessages) st.first_errors.push_back(std::move(msg));
  };
  const auto bad_field = [&](std::int64_t line_no, const char* field, std::string_view value,
                             const char* what) {
    bad(line_no, fmt::format("field {} = '{}': {}", field, value, what));
  };
  constexpr const char* kTimeForm = "not a Slurm time (YYYY-MM-DDTHH:MM:SS, Unknown or None)";

  std::vector<std::string_view> f;
  Columns c;
  std::size_t n_columns = 0;
  std::vector<Record> kept;
  std::vector<std::pair<std::size_t, double>> cut_later;  // running = cut, no dump time yet
  double latest = -std::numeric_limits<double>::infinity();
  std::int64_t line_no = 0;
  const char* p = bytes.data();
  const char* const end = p + bytes.size();
  while (p < end) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', end - p));
    std::string_view line(p, (nl ? nl : end) - p);
    p = nl ? nl + 1 : end;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    split(line, f);
    if (n_columns == 0) {
      c = columns_of(f, file, opt);
      n_columns = f.size();
      continue;
    }
    ++st.lines;
    if (f.size() != n_columns) {
      bad(line_no,
          fmt::format("expected {} fields as in the header, found {}", n_columns, f.size()));
      continue;
    }
    if (f[c.job_id].find('.') != std::string_view::npos) {
      ++st.steps;  // a job step: its job's allocation is the record that counts
      continue;
    }
    const std::string_view state_field = f[c.state];
    const std::string_view state = state_field.substr(0, state_field.find(' '));
    const auto id = parse_int(f[c.job_id_raw]);
    if (!id) {
      bad_field(line_no, "JobIDRaw", f[c.job_id_raw], "not an integer");
      continue;
    }
    // The times, checked before the state decides what they mean.
    const auto time_of = [&](std::size_t col, const char* name, double& t) {
      if (slurm::is_no_time(f[col])) {
        t = kNoTime;
        return true;
      }
      const auto v = slurm::parse_time(f[col], opt.utc_offset_s);
      if (!v) {
        bad_field(line_no, name, f[col], kTimeForm);
        return false;
      }
      t = *v;
      latest = std::max(latest, t);
      return true;
    };
    const bool by_submit = opt.submit == SacctSubmit::submit;
    double submit = 0, start = 0, finish = 0;
    if (!time_of(by_submit ? c.submit : c.eligible, by_submit ? "Submit" : "Eligible", submit) ||
        !time_of(c.start, "Start", start) || !time_of(c.end, "End", finish))
      continue;
    const bool started = !std::isnan(start), ended = !std::isnan(finish);
    const bool still_running = state == "RUNNING" || state == "SUSPENDED" || state == "RESIZING" ||
                               (started && !ended && state_index(state) < kSacctKeptStates.size());
    if (state == "PENDING") {
      ++st.not_started;
      continue;
    }
    if (state == "REVOKED") {
      ++st.revoked;
      continue;
    }
    if (!still_running && state_index(state) == kSacctKeptStates.size()) {
      bad_field(line_no, "State", state_field,
                "not a Slurm job state (COMPLETED, FAILED, TIMEOUT, NODE_FAIL, OUT_OF_MEMORY, "
                "PREEMPTED, BOOT_FAIL, DEADLINE, CANCELLED, REQUEUED, PENDING, RUNNING, "
                "SUSPENDED, RESIZING, REVOKED)");
      continue;
    }
    if (!started) {
      ++(state == "CANCELLED" ? st.cancelled_before_start : st.not_started);
      continue;
    }
    if (still_running && opt.running == SacctRunning::drop) {
      ++st.running;
      continue;
    }
    if (!still_running && finish < start) {
      bad_field(line_no, "End", f[c.end], "before Start");
      continue;
    }
    if (!opt.partitions.empty() && !slurm::in_list(f[c.partition], opt.partitions)) {
      ++st.other_partition;
      continue;
    }
    if (std::isnan(submit)) {
      ++st.unknown_submit;
      continue;
    }
    // Run time: as recorded; a job running at the dump is cut at the dump time.
    double runtime = ended ? finish - start : 0;
    const bool cut_at_dump = still_running && opt.dump_unix_s.has_value();
    if (cut_at_dump) runtime = *opt.dump_unix_s - start;
    if (c.elapsed != Columns::none && !cut_at_dump) {
      const auto e = slurm::parse_duration(f[c.elapsed]);
      if (!e || e->kind != slurm::Duration::Kind::seconds) {
        bad_field(line_no, "Elapsed", f[c.elapsed], "not a duration ([D-]HH:MM:SS or MM:SS)");
        continue;
      }
      if (e->seconds > kMaxJobTimeS) {
        bad_field(line_no, "Elapsed", f[c.elapsed],
                  fmt::format("beyond {}", kMaxJobTimeText).c_str());
        continue;
      }
      runtime = e->seconds;
    } else if (still_running && !cut_at_dump) {
      cut_later.emplace_back(kept.size(), start);  // the file's latest time, known at the end
      runtime = 1;                                 // placeholder, set below
    }
    if (!(runtime > 0)) {
      ++st.no_runtime;
      continue;
    }
    // Size.
    std::optional<std::int64_t> size;
    if (opt.size == SacctSize::nodes) {
      size = f[c.nnodes].empty() ? std::optional<std::int64_t>(0) : parse_int(f[c.nnodes]);
      if (!size) {
        bad_field(line_no, "NNodes", f[c.nnodes], "not an integer");
        continue;
      }
    } else if (opt.size == SacctSize::cpus) {
      size = f[c.ncpus].empty() ? std::optional<std::int64_t>(0) : parse_int(f[c.ncpus]);
      if (!size) {
        bad_field(line_no, "NCPUS", f[c.ncpus], "not an integer");
        continue;
      }
      *size = (*size + opt.procs_per_node - 1) / opt.procs_per_node;
    } else {
      const bool alloc = c.alloc_tres != Columns::none && !f[c.alloc_tres].empty();
      const std::size_t col = alloc || c.req_tres == Columns::none ? c.alloc_tres : c.req_tres;
      size = slurm::tres_count(f[col], "node");
      if (!size) {
        bad_field(line_no, alloc ? "AllocTRES" : "ReqTRES", f[col], "node= is not an integer");
        continue;
      }
    }
    if (*size <= 0 || *size > std::numeric_limits<std::int32_t>::max()) {
      ++st.no_size;
      continue;
    }
    // Estimate: the time limit, or the run time where the limit says nothing usable.
    std::optional<slurm::Duration> limit;
    if (c.timelimit != Columns::none && !f[c.timelimit].empty()) {
      limit = slurm::parse_duration(f[c.timelimit]);
      if (!limit) {
        bad_field(line_no, "Timelimit", f[c.timelimit],
                  "not a duration ([D-]HH:MM:SS, MM:SS, UNLIMITED or Partition_Limit)");
        continue;
      }
    }
    Record r;
    r.job.id = *id;
    r.job.submit_s = submit;
    r.job.runtime_s = runtime;
    r.job.size = static_cast<std::int32_t>(*size);
    // A limit beyond kMaxJobTimeS (~136 years) says no more than UNLIMITED.
    const bool usable =
        limit && limit->kind == slurm::Duration::Kind::seconds && limit->seconds <= kMaxJobTimeS;
    r.job.estimate_s = usable ? limit->seconds : 0;
    r.estimate_fixed = !usable;
    r.state = still_running ? kSacctKeptStates.size() : state_index(state);
    kept.push_back(r);
  }
  if (n_columns == 0) throw InputError("file", "\"" + file + "\"", "an sacct dump: it is empty");
  for (const auto& [i, start] : cut_later) kept[i].job.runtime_s = latest - start;

  // Origin, start filter, machine, estimates.
  if (opt.start_unix_s) {
    const auto first = std::remove_if(kept.begin(), kept.end(), [&](const Record& r) {
      return r.job.submit_s < *opt.start_unix_s;
    });
    st.before_start = std::distance(first, kept.end());
    kept.erase(first, kept.end());
  }
  std::int64_t machine = opt.machine_nodes;
  if (machine <= 0)
    for (const Record& r : kept) machine = std::max<std::int64_t>(machine, r.job.size);
  Workload& w = out.workload;
  w.machine_nodes = static_cast<std::int32_t>(machine);
  w.jobs.reserve(kept.size());
  for (Record& r : kept) {
    if (r.job.size > machine) {
      ++st.too_large;
      continue;
    }
    if (!(r.job.runtime_s > 0)) {  // a running job cut at a time before its start
      ++st.no_runtime;
      continue;
    }
    if (r.estimate_fixed || r.job.estimate_s < r.job.runtime_s) {
      r.job.estimate_s = r.job.runtime_s;
      ++st.estimate_fixed;
    }
    // Counted by state once kept: a job dropped later (too wide, before the start) is not.
    ++(r.state < kSacctKeptStates.size() ? st.kept_by_state[r.state] : st.running_cut);
    w.jobs.push_back(r.job);
  }
  std::stable_sort(w.jobs.begin(), w.jobs.end(), [](const Job& a, const Job& b) {
    return a.submit_s != b.submit_s ? a.submit_s < b.submit_s : a.id < b.id;
  });
  st.jobs = static_cast<std::int64_t>(w.jobs.size());
  if (w.jobs.empty())
    throw InputError("file", "\"" + file + "\"",
                     fmt::format("no usable jobs in the sacct dump ({}){}", st.summary(),
                                 st.first_errors.empty() ? "" : "; first: " + st.first_errors[0]));
  out.origin_unix_s = opt.start_unix_s ? *opt.start_unix_s : w.jobs.front().submit_s;
  for (Job& j : w.jobs) j.submit_s -= out.origin_unix_s;
  // The shared ReadStats of a workload (its load-time line is SacctStats::summary()).
  w.stats.lines = st.lines;
  w.stats.jobs = st.jobs;
  w.stats.bad_lines = st.bad_lines;
  w.stats.too_large = st.too_large;
  w.stats.no_runtime = st.no_runtime;
  w.stats.no_size = st.no_size;
  w.stats.unknown_submit = st.unknown_submit;
  w.stats.estimate_fixed = st.estimate_fixed;
  w.stats.first_errors = st.first_errors;
  return out;
}

SacctWorkload read_sacct(const std::filesystem::path& path, const SacctOptions& opt) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw InputError(
        fmt::format("{}: cannot open sacct dump: {}", path.string(),
                    std::filesystem::exists(path, ec) ? "not a regular file" : "no such file"));
  std::ifstream in(path, std::ios::binary);
  std::string bytes(std::filesystem::file_size(path), '\0');
  if (!in.read(bytes.data(), static_cast<std::streamsize>(bytes.size())))
    throw InputError(fmt::format("{}: read error", path.string()));
  return parse_sacct(bytes, path.string(), opt);
}

}  // namespace faultsweep::workload
