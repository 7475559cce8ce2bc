#include "faultsweep/sweep/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/task_progress.hpp"

namespace faultsweep::sweep {

std::string format_elapsed(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return fmt::format("{} s", seconds);
  if (seconds < 1) return fmt::format("{:.2g} s", seconds);
  if (seconds < 9.95) return fmt::format("{:.1f} s", seconds);
  const auto s = static_cast<long long>(std::llround(seconds));
  if (s < 60) return fmt::format("{} s", s);
  if (s < 3600) return fmt::format("{} min {:02} s", s / 60, s % 60);
  const auto m = static_cast<long long>(std::llround(seconds / kMinute_s));
  if (m < 24 * 60) return fmt::format("{} h {:02} min", m / 60, m % 60);
  const auto h = static_cast<long long>(std::llround(seconds / kHour_s));
  return fmt::format("{} d {:02} h", h / 24, h % 24);
}

Progress::Progress(bool enabled)
    : enabled_(enabled), tty_(::isatty(STDERR_FILENO) == 1), start_(Clock::now()), last_(start_) {}

namespace {

// Inside the replica rank 0 is running (the cluster engine reports it): jobs finished of the
// replica's jobs and the simulated time so far. Empty when nothing is reported.
std::string running_task() {
  const TaskProgress& p = task_progress();
  const std::int64_t total = p.jobs_total.load(std::memory_order_relaxed);
  if (total <= 0) return "";
  const std::int64_t done = p.jobs_done.load(std::memory_order_relaxed);
  return fmt::format("; running replica: {}/{} jobs done ({:.1f}%), simulated {}", done, total,
                     100.0 * static_cast<double>(done) / static_cast<double>(total),
                     format_duration(p.simulated_s.load(std::memory_order_relaxed)));
}

}  // namespace

void Progress::update(std::size_t done, std::size_t total, double cost_done, double cost_total,
                      int round, bool force) {
  if (!enabled_) return;
  if (first_done_ == static_cast<std::size_t>(-1)) first_done_ = done, first_cost_ = cost_done;
  const auto now = Clock::now();
  const double since_last = std::chrono::duration<double>(now - last_).count();
  if (!force && since_last < (tty_ ? 1.0 : 10.0)) return;
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double rate = elapsed > 0 ? static_cast<double>(done - first_done_) / elapsed : 0;
  const double cost_rate = elapsed > 0 ? (cost_done - first_cost_) / elapsed : 0;
  const std::string eta =
      cost_rate > 0 ? format_elapsed((cost_total - cost_done) / cost_rate) : std::string("?");
  const std::string line = fmt::format(
      "faultsweep: {}/{} tasks ({:.1f}%), {:.1f} tasks/s, elapsed {}, ETA {}{}{}", done, total,
      total ? 100.0 * static_cast<double>(done) / static_cast<double>(total) : 100.0, rate,
      format_elapsed(elapsed), eta, round > 0 ? fmt::format(", round {}", round + 1) : "",
      running_task());
  std::fprintf(stderr, tty_ ? "\r\033[K%s" : "%s\n", line.c_str());
  std::fflush(stderr);
  printed_ = true;
}

void Progress::finish() {
  if (enabled_ && printed_ && tty_) std::fputc('\n', stderr);
}

}  // namespace faultsweep::sweep
