// An example metric plug-in, added the way a user adds one: this file and one row in
// src/metrics/registry.cpp, nothing else. max_job_interruptions: the most executions of a
// single job that failures cut short — the tail that job_failures / jobs averages away (a
// job restarted again and again on a flaky machine).
#include <algorithm>
#include <memory>
#include <vector>

#include "faultsweep/metrics/registry.hpp"

namespace faultsweep::metrics {
namespace {

class JobInterruptions final : public sim::Observer {
 public:
  explicit JobInterruptions(const RunShape& shape) : hits_(shape.jobs, 0) {}
  void on_failure(const policy::ClusterView&, const failures::FailureEvent&,
                  std::int32_t job_hit) override {
    if (job_hit < 0) return;
    const std::int32_t k = ++hits_[static_cast<std::size_t>(job_hit)];
    most_ = std::max(most_, k);
  }
  void report(MetricSink& sink) const override {
    sink.add("max_job_interruptions", static_cast<double>(most_));
  }

 private:
  std::vector<std::int32_t> hits_;  // by job index
  std::int32_t most_ = 0;
};

}  // namespace

std::vector<MetricSpec> job_interruptions_metrics() {
  return {{"max_job_interruptions", "1",
           "the most executions of one job cut short by failures (0 without failures): the "
           "tail that job_failures / jobs averages away"}};
}

std::unique_ptr<sim::Observer> make_job_interruptions(const RunShape& shape) {
  return std::make_unique<JobInterruptions>(shape);
}

}  // namespace faultsweep::metrics
