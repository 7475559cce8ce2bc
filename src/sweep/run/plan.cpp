// `faultsweep plan`: a job's size and its CPU and wall time from a short, time-limited pilot.
#include <fmt/format.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <numeric>
#include <thread>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/task_progress.hpp"
#include "faultsweep/sweep/coordinator.hpp"
#include "faultsweep/sweep/inspect.hpp"
#include "faultsweep/sweep/job.hpp"
#include "faultsweep/sweep/progress.hpp"

namespace faultsweep::sweep {

namespace {

using Clock = std::chrono::steady_clock;

// CPU time of the calling thread: a pilot task runs on it. Wall time would count the time the
// thread waits for a core on a shared machine, and the estimate is for a core per rank.
double thread_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// One pilot task, stopped after `limit_s` of wall time: its CPU time, or (cut short) the time
// extrapolated from the share of its jobs done that the engine reported at the cut. A model that
// reports no progress cannot be extrapolated: its time is then a lower bound (`lower_bound`).
struct PilotRun {
  double seconds = 0;
  bool cut = false, lower_bound = false;
};

PilotRun run_limited(const JobSpec& job, std::uint64_t task, std::span<double> values,
                     double limit_s) {
  std::atomic<bool> stop{false};
  std::mutex mu;
  std::condition_variable cv;
  bool finished = false;
  double share = 0;  // of the replica's jobs done when the limit was reached
  // The watchdog reads the progress before it stops the task: run_task clears it on its way out.
  std::thread watchdog([&] {
    std::unique_lock lock(mu);
    if (cv.wait_for(lock, std::chrono::duration<double>(limit_s), [&] { return finished; })) return;
    const TaskProgress& p = task_progress();
    const auto total = p.jobs_total.load(std::memory_order_relaxed);
    if (total > 0)
      share = static_cast<double>(p.jobs_done.load(std::memory_order_relaxed)) /
              static_cast<double>(total);
    stop.store(true);
  });
  const double cpu0 = thread_cpu_s();
  PilotRun r;
  try {
    run_task(job, task, values, nullptr, &stop);
  } catch (const Interrupted&) {
    r.cut = true;
  } catch (...) {
    {
      std::lock_guard lock(mu);
      finished = true;
    }
    cv.notify_all();
    watchdog.join();
    throw;
  }
  r.seconds = thread_cpu_s() - cpu0;
  {
    std::lock_guard lock(mu);
    finished = true;
  }
  cv.notify_all();
  watchdog.join();
  if (r.cut) {
    if (share > 0)
      r.seconds /= share;
    else
      r.lower_bound = true;
  }
  return r;
}

// Wall time on n ranks, one core each: every rank computes (rank 0 too, beside the coordinator),
// so the CPU time divides by n, but never below the longest single task.
double wall_s(double cpu_s, double longest_s, double n) {
  return std::max(cpu_s / n, longest_s);
}

}  // namespace

int plan_job(const std::string& path, const PlanOptions& opt, std::FILE* out) {
  const JobSpec job = load_job(path);
  const std::size_t P = job.points.size(), R = static_cast<std::size_t>(job.replicas.max);
  const std::size_t rmin = static_cast<std::size_t>(job.replicas.min);
  double cost_per_replica = 0, cost_max = 0;  // summed over points; the largest
  for (double c : job.costs) cost_per_replica += c, cost_max = std::max(cost_max, c);
  std::fprintf(out, "%s: model %s, %zu points x %s replicas = %s%zu tasks\n", path.c_str(),
               job.model->name().c_str(), P,
               job.replicas.adaptive() ? fmt::format("{}..{}", rmin, R).c_str()
                                       : fmt::format("{}", R).c_str(),
               job.replicas.adaptive() ? fmt::format("{}..", P * rmin).c_str() : "", P * R);
  if (P == 0 || opt.pilot_tasks <= 0) return 0;

  // Pilot: K tasks at evenly spaced positions of the points ordered by cost, each with another
  // replica, so that cheap and expensive points and several random streams are all sampled.
  std::vector<std::size_t> order(P);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return job.costs[a] < job.costs[b]; });
  // Never more pilot tasks than the job has: then the pilot is the whole job.
  const std::size_t K = std::min(static_cast<std::size_t>(opt.pilot_tasks), P * R);
  std::vector<double> values(job.metric_count());
  double seconds = 0, cost = 0, slowest = 0, spent = 0;
  std::size_t cut = 0, bounded = 0, ran = 0;
  const auto start = Clock::now();
  for (std::size_t k = 0; k < K; ++k) {
    // The time left is shared by the tasks left; a task of 10 ms takes 10 ms, one of an hour
    // is cut at its share and extrapolated. Once the time is spent, the tasks run so far decide.
    spent = std::chrono::duration<double>(Clock::now() - start).count();
    const double left = opt.pilot_seconds - spent;
    if (ran > 0 && left <= 0) break;
    const double limit = std::max(left, 0.05) / static_cast<double>(K - k);
    const std::size_t p = order[K == 1 ? P - 1 : (k * (P - 1) + (K - 1) / 2) / (K - 1)];
    const PilotRun r = run_limited(job, p * R + k % R, values, limit);
    seconds += r.seconds, cost += job.costs[p], slowest = std::max(slowest, r.seconds);
    cut += r.cut, bounded += r.lower_bound, ++ran;
  }
  spent = std::chrono::duration<double>(Clock::now() - start).count();
  const double s_per_cost = seconds / cost;
  const double lo_s = s_per_cost * cost_per_replica * static_cast<double>(rmin);
  const double hi_s = s_per_cost * cost_per_replica * static_cast<double>(R);
  const double mean_task = hi_s / static_cast<double>(P * R);
  const double longest = std::max(slowest, s_per_cost * cost_max);
  const char* at_least = bounded > 0 ? "at least " : "";
  std::fprintf(out, "  pilot      %zu tasks in %s on this process (CPU of the slowest %s)%s\n", ran,
               format_elapsed(spent).c_str(), format_elapsed(slowest).c_str(),
               cut == 0 ? ""
               : bounded == 0
                   ? fmt::format("; {} cut short at the time limit and extrapolated from the "
                                 "share of jobs done",
                                 cut)
                         .c_str()
                   : fmt::format("; {} cut short without progress to extrapolate from: the "
                                 "times are lower bounds",
                                 cut)
                         .c_str());
  const std::string cpu =
      job.replicas.adaptive()
          ? fmt::format("{:.3g} to {:.3g} core-seconds ({:.3g} to {:.3g} core-hours)", lo_s, hi_s,
                        lo_s / 3600, hi_s / 3600)
          : fmt::format("{:.3g} core-seconds ({:.3g} core-hours)", hi_s, hi_s / 3600);
  std::fprintf(out, "  CPU        %s%s: every task's run time added up; mean task %s\n", at_least,
               cpu.c_str(), format_elapsed(mean_task).c_str());
  const double n = static_cast<double>(opt.ranks);
  const double wall = wall_s(hi_s, longest, n);
  std::fprintf(out,
               "  wall       %s%.3g s (%s) on %d rank%s with a core each (CPU / ranks, at least "
               "the longest task, %s)\n",
               at_least, wall, format_elapsed(wall).c_str(), opt.ranks, opt.ranks > 1 ? "s" : "",
               format_elapsed(longest).c_str());
  std::string table;
  for (int r : {1, 2, 4, 8, 16, 64, 256, 1024}) {
    if (static_cast<std::size_t>(r) > P * R && r > opt.ranks) break;
    table += fmt::format("{}{}: {}", table.empty() ? "" : ", ", r,
                         format_elapsed(wall_s(hi_s, longest, r)));
  }
  std::fprintf(out, "  wall by ranks  %s\n", table.c_str());

  // Ranks for about an hour of wall time, with at least 10 tasks per rank for the load balance;
  // slices when one coordinator could not keep that many ranks above 90 % efficiency.
  const double tasks = static_cast<double>(P * R);
  const double ranks = std::clamp(std::ceil(hi_s / 3600.0), 1.0, std::max(1.0, tasks / 10));
  const double per_coordinator =
      std::max(1.0, std::floor(0.1 * mean_task / kCoordinatorSecondsPerTask));
  const double slices = std::ceil(ranks / per_coordinator);
  std::fprintf(out, "  suggest    %.0f rank%s (wall about %s)%s\n", ranks, ranks > 1 ? "s" : "",
               format_elapsed(wall_s(hi_s, longest, ranks)).c_str(),
               slices > 1 ? fmt::format(" in {:.0f} slices of {:.0f} ranks (--slice i/{:.0f}, "
                                        "then `faultsweep merge`)",
                                        slices, std::ceil(ranks / slices), slices)
                                .c_str()
                          : "");
  std::fprintf(out,
               "             one coordinator keeps up to %.0f ranks above 90 %% efficiency with "
               "%s tasks (%.1f us of coordinator time per task)\n",
               per_coordinator, format_elapsed(mean_task).c_str(),
               kCoordinatorSecondsPerTask * 1e6);
  return 0;
}

}  // namespace faultsweep::sweep
