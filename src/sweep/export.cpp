#include "faultsweep/sweep/export.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include "faultsweep/core/error.hpp"
#include "faultsweep/io/h5.hpp"
#include "faultsweep/sweep/record_store.hpp"

namespace faultsweep::sweep {
namespace {

bool done(const sim::JobRow& j) {
  return j.state == static_cast<std::uint8_t>(sim::JobState::done);
}

// The nodes of each job's last attempt, as Batsim's interval sets ("0-3 7").
std::map<std::int32_t, std::string> last_allocations(const sim::RecordTables& t) {
  std::map<std::int32_t, std::int32_t> last;  // job -> its last attempt
  for (const sim::AttemptRow& a : t.attempts) last[a.job] = std::max(last[a.job], a.attempt);
  std::map<std::int32_t, std::string> out;
  for (const sim::AllocationRow& a : t.allocations) {
    if (a.attempt != last[a.job]) continue;
    std::string& s = out[a.job];
    if (!s.empty()) s += ' ';
    s += a.count == 1 ? fmt::format("{}", a.first_node)
                      : fmt::format("{}-{}", a.first_node, a.first_node + a.count - 1);
  }
  return out;
}

}  // namespace

std::string swf_text(const sim::RecordTables& t, const std::string& header) {
  std::string s;
  for (std::size_t a = 0, b; a < header.size(); a = b + 1) {
    b = header.find('\n', a);
    if (b == std::string::npos) b = header.size();
    s += "; " + header.substr(a, b - a) + "\n";
  }
  s += fmt::format("; MaxNodes: {}\n; MaxProcs: {}\n", t.nodes, t.nodes);
  s += "; job submit wait run alloc cpu mem req_procs req_time req_mem status user group exe "
       "queue part prec think\n";
  for (const sim::JobRow& j : t.jobs) {
    if (j.state == static_cast<std::uint8_t>(sim::JobState::rejected)) continue;
    const bool started = !std::isnan(j.first_start_s);
    const double wait = started ? j.first_start_s - j.submit_s : -1;
    const double run = done(j) ? j.finish_s - j.first_start_s : -1;
    s += fmt::format("{} {} {} {} {} -1 -1 {} {} -1 {} {} -1 -1 -1 -1 -1 -1\n", j.id, j.submit_s,
                     wait, run, started ? j.size : -1, j.requested_size, j.estimate_s,
                     done(j) ? 1 : 0, j.user);
  }
  return s;
}

std::string batsim_csv_text(const sim::RecordTables& t) {
  std::string s =
      "job_id,workload_name,submission_time,requested_number_of_resources,requested_time,"
      "success,final_state,starting_time,execution_time,finish_time,waiting_time,"
      "turnaround_time,stretch,allocated_resources,consumed_energy,metadata\n";
  const auto nodes = last_allocations(t);
  std::map<std::int32_t, double> last_start;
  for (const sim::AttemptRow& a : t.attempts) last_start[a.job] = a.start_s;  // in time order
  for (const sim::JobRow& j : t.jobs) {
    const bool rejected = j.state == static_cast<std::uint8_t>(sim::JobState::rejected);
    if (!done(j) && !rejected) continue;  // Batsim lists jobs that finished or were rejected
    if (rejected) {
      s += fmt::format("{},faultsweep,{},{},{},0,REJECTED,-1,-1,-1,-1,-1,-1,,-1,\n", j.id,
                       j.submit_s, j.requested_size, j.estimate_s);
      continue;
    }
    const double start = last_start[j.index], exec = j.finish_s - start;
    const double turnaround = j.finish_s - j.submit_s;
    const auto it = nodes.find(j.index);
    s += fmt::format("{},faultsweep,{},{},{},1,COMPLETED_SUCCESSFULLY,{},{},{},{},{},{},{},-1,\n",
                     j.id, j.submit_s, j.requested_size, j.estimate_s, start, exec, j.finish_s,
                     start - j.submit_s, turnaround, exec > 0 ? turnaround / exec : 1.0,
                     it == nodes.end() ? "" : it->second);
  }
  return s;
}

int export_schedule(const ExportOptions& opt) {
  if (opt.format != "swf" && opt.format != "batsim-csv")
    throw InputError("--format", opt.format, "\"swf\" or \"batsim-csv\"");
  std::error_code ec;
  if (!opt.out.empty() && std::filesystem::exists(opt.out, ec))
    throw InputError("--out", opt.out, "a new file (it exists: remove it or choose another name)");
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
  if (opt.out.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
  }
  std::ofstream out(opt.out, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw IoError(fmt::format("{}: cannot write the export", opt.out));
  return 0;
}

}  // namespace faultsweep::sweep
