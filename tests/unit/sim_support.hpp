#pragma once
// Small builders shared by the cluster-simulator tests.
#include <cstdint>
#include <utility>
#include <vector>

#include <array>
#include <cmath>

#include "faultsweep/core/rng.hpp"
#include "faultsweep/failures/trace.hpp"
#include "faultsweep/policy/allocator.hpp"
#include "faultsweep/policy/queue.hpp"
#include "faultsweep/policy/size_chooser.hpp"
#include "faultsweep/sim/engine.hpp"
#include "faultsweep/workload/job.hpp"

namespace faultsweep::testing {

// A rigid job; the estimate defaults to the exact runtime.
inline workload::Job job(std::int64_t id, double submit_s, double runtime_s, int size,
                         double estimate_s = -1) {
  workload::Job j;
  j.id = id;
  j.submit_s = submit_s;
  j.runtime_s = runtime_s;
  j.estimate_s = estimate_s < 0 ? runtime_s : estimate_s;
  j.size = size;
  return j;
}

// Replays a fixed list of failures: the library's trace source.
using ListFailures = failures::TraceSource;

// 60 failures of random nodes: exponential gaps (mean 80 s) and down times (mean 30 s), for
// invariant tests that want failures to hit often.
inline std::vector<failures::FailureEvent> random_failures(Engine& rng, int nodes) {
  std::vector<failures::FailureEvent> fails;
  double t = 0;
  for (int i = 0; i < 60; ++i) {
    t += -80 * std::log(uniform01(rng));
    fails.push_back(
        {t, static_cast<std::int32_t>(uniform01(rng) * nodes), -30 * std::log(uniform01(rng))});
  }
  return fails;
}

// What a test looks at after a run.
struct Run {
  sim::Metrics m;
  std::vector<sim::JobRecord> jobs;
  std::array<double, sim::kNodeStates> node_time_s{};
};

// Runs jobs under a list of failures with the named queue policy and allocator (and a size
// chooser for moldable jobs, if given).
inline Run simulate(const sim::SimConfig& cfg, const std::vector<workload::Job>& jobs,
                    std::vector<failures::FailureEvent> failures, const char* queue = "fcfs",
                    const char* alloc = "first_fit", const policy::SizeChooser* sizes = nullptr) {
  ListFailures source(std::move(failures));
  auto q = policy::make_queue_policy(queue);
  auto a = policy::make_allocator(alloc);
  sim::Simulation s(cfg, jobs, source, *q, *a, sizes);
  Run r;
  r.m = s.run();
  r.jobs = s.jobs();
  r.node_time_s = s.node_time_s();
  return r;
}

}  // namespace faultsweep::testing
