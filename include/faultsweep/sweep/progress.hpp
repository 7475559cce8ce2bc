#pragma once
// One progress line on stderr: done / total tasks, rate, ETA. At most once a second; on a
// terminal it rewrites itself, otherwise it prints a new line every 10 seconds.
#include <chrono>
#include <cstddef>
#include <string>

namespace faultsweep::sweep {

// A measured wall time, rounded for people: "0.27 s", "3.3 s", "42 s", "2 min 05 s",
// "1 h 07 min", "3 d 04 h" (progress lines and run summaries; format_duration is for values a
// user typed).
std::string format_elapsed(double seconds);

class Progress {
 public:
  explicit Progress(bool enabled);
  // done/total tasks; cost_done/cost_total in model cost units (for the ETA).
  void update(std::size_t done, std::size_t total, double cost_done, double cost_total, int round,
              bool force = false);
  void finish();

 private:
  using Clock = std::chrono::steady_clock;
  bool enabled_, tty_;
  Clock::time_point start_, last_;
  std::size_t first_done_ = static_cast<std::size_t>(-1);
  double first_cost_ = 0;
  bool printed_ = false;
};

}  // namespace faultsweep::sweep
