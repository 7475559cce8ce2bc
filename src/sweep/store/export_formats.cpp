// The texts of `faultsweep export` (sweep/export.hpp): a recorded schedule as SWF and as
// Batsim's jobs.csv. Writing them is export.cpp's.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "faultsweep/sweep/export.hpp"

namespace faultsweep::sweep {
namespace {

bool has_state(const sim::JobRow& j, sim::JobState s) {
  return j.state == static_cast<std::uint8_t>(s);
}

// Per job: its last attempt row (attempt numbers grow with time).
std::map<std::int32_t, const sim::AttemptRow*> last_attempts(const sim::RecordTables& t) {
  std::map<std::int32_t, const sim::AttemptRow*> last;
  for (const sim::AttemptRow& a : t.attempts) {
    const sim::AttemptRow*& l = last[a.job];
    if (l == nullptr || a.attempt > l->attempt) l = &a;
  }
  return last;
}

// The nodes of each job's last attempt as Batsim writes an interval set: sorted, adjacent runs
// merged, "a-b" for a run and "a" for one node, separated by spaces ("0-3 7").
std::map<std::int32_t, std::string> last_allocations(
    const sim::RecordTables& t, const std::map<std::int32_t, const sim::AttemptRow*>& last) {
  std::map<std::int32_t, std::vector<std::pair<std::int32_t, std::int32_t>>> runs;
  for (const sim::AllocationRow& a : t.allocations) {
    const auto it = last.find(a.job);
    if (it != last.end() && a.attempt == it->second->attempt)
      runs[a.job].emplace_back(a.first_node, a.first_node + a.count - 1);
  }
  std::map<std::int32_t, std::string> out;
  for (auto& [job, r] : runs) {
    std::sort(r.begin(), r.end());
    std::vector<std::pair<std::int32_t, std::int32_t>> merged;
    for (const auto& run : r) {
      if (!merged.empty() && run.first <= merged.back().second + 1)
        merged.back().second = std::max(merged.back().second, run.second);
      else
        merged.push_back(run);
    }
    std::string& s = out[job];
    for (const auto& [a, b] : merged)
      s += fmt::format("{}{}", s.empty() ? "" : " ",
                       a == b ? fmt::format("{}", a) : fmt::format("{}-{}", a, b));
  }
  return out;
}

// A number as Batsim writes it: std::to_string of a double, which is printf's "%f".
std::string num(double v) {
  return fmt::format("{:.6f}", v);
}

}  // namespace

std::string swf_text(const sim::RecordTables& t, const std::string& header) {
  std::string s = "; Version: 2.2\n";
  for (std::size_t a = 0, b; a < header.size(); a = b + 1) {
    b = header.find('\n', a);
    if (b == std::string::npos) b = header.size();
    s += "; " + header.substr(a, b - a) + "\n";
  }
  s += fmt::format("; MaxNodes: {}\n; MaxProcs: {}\n", t.nodes, t.nodes);
  s += "; job submit wait run alloc cpu mem req_procs req_time req_mem status user group exe "
       "queue part prec think\n";
  for (const sim::JobRow& j : t.jobs) {
    if (has_state(j, sim::JobState::rejected)) continue;
    const bool started = !std::isnan(j.first_start_s), done = has_state(j, sim::JobState::done);
    const double wait = started ? j.first_start_s - j.submit_s : -1;
    const double run = done ? j.finish_s - j.first_start_s : -1;
    s += fmt::format("{} {} {} {} {} -1 -1 {} {} -1 {} {} {} {} {} {} -1 -1\n", j.id, j.submit_s,
                     wait, run, started ? j.size : -1, j.requested_size, j.estimate_s, done ? 1 : 0,
                     j.user, j.group, j.executable, j.queue, j.partition);
  }
  return s;
}

std::string batsim_csv_text(const sim::RecordTables& t) {
  struct Line {
    double left_s;  // when the job left the system: Batsim writes a job's line then
    std::int32_t index;
    std::string text;
  };
  const auto last = last_attempts(t);
  const auto nodes = last_allocations(t, last);
  std::vector<Line> lines;
  lines.reserve(t.jobs.size());
  for (const sim::JobRow& j : t.jobs) {
    const auto it = last.find(j.index);
    const bool done = has_state(j, sim::JobState::done);
    const std::string head = fmt::format("{},faultsweep,delay,{},{},{},", j.id, num(j.submit_s),
                                         j.requested_size, num(j.estimate_s));
    if (has_state(j, sim::JobState::rejected) || it == last.end()) {
      // Rejected, or never started before the horizon: Batsim's only end for a job that never
      // ran is REJECTED, with its execution fields empty.
      const double left = has_state(j, sim::JobState::rejected) ? j.submit_s : t.end_s;
      lines.push_back({left, j.index, head + "0,REJECTED,,,,,,,,,\n"});
      continue;
    }
    // Completed: the execution that completed it. Started but not completed at the horizon:
    // its last execution, ended at the horizon or by the failure that cut it, listed as Batsim
    // lists a job killed by the decision process. Batsim's arithmetic: long double, a null
    // execution time replaced by 1e-5 s.
    const sim::AttemptRow& a = *it->second;
    const long double start = a.start_s, submit = j.submit_s;
    long double runtime = static_cast<long double>(done ? j.finish_s : a.end_s) - start;
    if (runtime == 0) runtime = 1e-5L;
    const long double finish = start + runtime;
    const auto alloc = nodes.find(j.index);
    lines.push_back(
        {static_cast<double>(finish), j.index,
         head + fmt::format("{},{},{},{},{},{},{},{},{},{},\n", done ? 1 : 0,
                            done ? "COMPLETED_SUCCESSFULLY" : "COMPLETED_KILLED",
                            num(static_cast<double>(start)), num(static_cast<double>(runtime)),
                            num(static_cast<double>(finish)),
                            num(static_cast<double>(start - submit)),
                            num(static_cast<double>(finish - submit)),
                            num(static_cast<double>((finish - submit) / runtime)),
                            alloc == nodes.end() ? "" : alloc->second, num(-1))});
  }
  std::stable_sort(lines.begin(), lines.end(), [](const Line& x, const Line& y) {
    return x.left_s < y.left_s || (x.left_s == y.left_s && x.index < y.index);
  });
  std::string s =
      "job_id,workload_name,profile,submission_time,requested_number_of_resources,"
      "requested_time,success,final_state,starting_time,execution_time,finish_time,"
      "waiting_time,turnaround_time,stretch,allocated_resources,consumed_energy,metadata\n";
  for (const Line& l : lines) s += l.text;
  return s;
}

}  // namespace faultsweep::sweep
